"""The installed package imports from any directory, even beside a folder named `pica`."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile

from tests.conftest import REPO


def test_import_pica_next_to_a_folder_named_pica(tmp_path):
    """A clone at ~/pica and Python started in ~: the folder must not stand in for the package.

    The README's install (`pip install .`) puts a regular package on sys.path, which Python
    prefers to a folder without __init__.py wherever that folder comes in the path."""
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", wheels, REPO],
        check=True,
        capture_output=True,
    )
    installed = tmp_path / "site"
    with zipfile.ZipFile(next(wheels.glob("pica-*.whl"))) as wheel:
        wheel.extractall(installed)
    home = tmp_path / "home"
    (home / "pica" / "kernel").mkdir(parents=True)  # the clone, seen from its parent folder
    code = "import pica, pica.kernel.runner; print(callable(pica.search), pica.__file__)"
    env = {**os.environ, "PYTHONPATH": str(installed), "PYTHONNOUSERSITE": "1"}
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=home,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"True {installed}")
