"""Where the bundled recipes and configs are, in a source checkout and in a wheel alike."""

from __future__ import annotations

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
