"""The code stays ruff-clean and formatted; part of the test command so CI enforces it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import REPO


@pytest.mark.parametrize("command", [["check", "."], ["format", "--check", "."]])
def test_ruff(command):
    result = subprocess.run(
        [sys.executable, "-m", "ruff", *command], cwd=REPO, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
