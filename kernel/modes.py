"""Which recipes are search modes: what `pica search --mode`, the MCP `search` tool and `pica bench`
accept. A mode is a recipe in a `search/` recipe folder that is `kind: search`, takes a `query`
and outputs one ranked list of hits (`output: <stage>.<output>`), so `get`, `similar` (they take an
id) and `deepweb` (it outputs hits and tokens) are not modes. Adding such a recipe adds a mode;
no code lists them.

Read from the YAML files themselves, following `defaults` that name a sibling recipe (`- federated`),
not composed with Hydra: the command line asks for the modes before every search, and composing
every recipe would cost ~100 ms each."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from pica.kernel.paths import RECIPES_DIR

MISSING = object()


def search_modes(folder: Path = RECIPES_DIR / "search") -> tuple[str, ...]:
    """The modes in a folder of search recipes, by name (the file's stem), sorted."""
    return _modes(folder.resolve())


@functools.cache
def _modes(folder: Path) -> tuple[str, ...]:
    return tuple(sorted(path.stem for path in folder.glob("*.yaml") if is_search_mode(path)))


def is_search_mode(path: Path) -> bool:
    output = value_of(path, "output")
    return (
        value_of(path, "kind") == "search"
        and value_of(path, "query") is not MISSING
        and isinstance(output, str)
    )


def value_of(path: Path, key: str, seen: frozenset[Path] = frozenset()) -> Any:
    """A top-level key of a recipe: its own, else the first recipe in its defaults that has it."""
    import yaml

    if path in seen or not path.is_file():
        return MISSING
    try:
        recipe = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError:
        return MISSING  # a broken recipe is no mode; running it names its problems
    if not isinstance(recipe, dict):
        return MISSING
    if key in recipe:
        return recipe[key]
    for entry in recipe.get("defaults") or []:
        if isinstance(entry, str) and entry != "_self_":
            found = value_of(path.parent / f"{entry}.yaml", key, seen | {path})
            if found is not MISSING:
                return found
    return MISSING
