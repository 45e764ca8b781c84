"""Where the bundled recipes and configs are, in a source checkout and in a wheel alike."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

# kernel/ sits beside recipes/ and configs/ in the source tree, and pica/kernel beside
# pica/recipes and pica/configs in a wheel, so one expression serves both.
PACKAGE_ROOT = Path(__file__).resolve().parent.parent
RECIPES_DIR = PACKAGE_ROOT / "recipes"
CONFIGS_DIR = PACKAGE_ROOT / "configs"


def find_recipe(name: str) -> Path | None:
    """A recipe by path, or by bundled name (`search/lexical`, `search/lexical.yaml`)."""
    as_given = Path(name).expanduser()
    if as_given.is_file():
        return as_given.resolve()
    bundled = RECIPES_DIR / (name if name.endswith((".yaml", ".yml")) else f"{name}.yaml")
    if bundled.is_file():
        return bundled
    return None


def bundled_recipes() -> list[Path]:
    return sorted(RECIPES_DIR.rglob("*.yaml"))


def config_files(home: Path) -> list[Path]:
    """Every recipe and config file plans are composed from: the bundled ones and the home's."""
    folders = (RECIPES_DIR, CONFIGS_DIR, home.expanduser() / "configs")
    return [path for folder in folders for path in sorted(folder.rglob("*.y*ml"))]


def stamps(paths: Iterable[Path]) -> list[tuple[str, int, int]]:
    """(path, mtime_ns, size) of each file still there: what tells a cache it is out of date."""
    found = []
    for path in paths:
        try:
            stat = path.stat()
        except OSError:
            continue
        found.append((str(path), stat.st_mtime_ns, stat.st_size))
    return found
