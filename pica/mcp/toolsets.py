"""Tool sets: which MCP tools a server exposes, the recipe each runs, and their defaults.

    kind: toolset
    description: What this set is for.
    tools:
      search:                           # a tool `pica serve` knows (see pica/mcp/tools.py)
        recipe: search/{mode}           # {mode} is the tool's own `mode` argument
        defaults: {mode: default, k: 10}     # shown in the tool's schema and used when not given
      reindex:
        recipe: {files: ingest/files, transcripts: ingest/transcripts}

A tool set is checked completely before a server starts, one problem a line with its path.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from pica.kernel.compose import compose
from pica.kernel.errors import Problem, RecipeError
from pica.kernel.paths import RECIPES_DIR, find_recipe
from pica.kernel.settings import Settings


class ToolSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    recipe: str | dict[str, str] = ""
    defaults: dict[str, Any] = {}
    description: str = ""  # replaces the tool's own description when given


@dataclass
class Toolset:
    source: str
    description: str
    tools: dict[str, ToolSpec] = field(default_factory=dict)


def load_toolset(name: str, known: dict[str, set[str]], settings: Settings | None = None) -> Toolset:
    """The tool set NAME (recipes/mcp/NAME.yaml) or FILE, checked against `known`: tool name -> the
    names of its parameters."""
    path = find_recipe(name if name.endswith((".yaml", ".yml")) or "/" in name else f"mcp/{name}")
    if path is None:
        shipped = sorted(p.stem for p in (RECIPES_DIR / "mcp").glob("*.yaml"))
        raise RecipeError(name, [Problem("", f"no tool set '{name}' (shipped: {', '.join(shipped)})")])
    settings = settings or Settings()
    team = [f"team={settings.team}"] if settings.team else []
    config = compose(path, team, settings.as_config(), [settings.home.expanduser() / "configs"])
    problems = []
    if config.get("kind") != "toolset":
        problems.append(Problem("kind", f"must be toolset, got {config.get('kind')!r}"))
    tools: dict[str, ToolSpec] = {}
    raw_tools = config.get("tools")
    if not isinstance(raw_tools, dict) or not raw_tools:
        problems.append(Problem("tools", "required: a mapping of tool names to {recipe, defaults}"))
        raw_tools = {}
    for name, raw in raw_tools.items():
        where = f"tools.{name}"
        if name not in known:
            problems.append(Problem(where, f"no tool '{name}' (tools: {', '.join(sorted(known))})"))
            continue
        try:
            spec = ToolSpec.model_validate(raw or {})
        except ValidationError as error:
            problems += [Problem(f"{where}.{'.'.join(map(str, e['loc']))}", e["msg"]) for e in error.errors()]
            continue
        for key in sorted(set(spec.defaults) - known[name]):
            problems.append(
                Problem(
                    f"{where}.defaults.{key}", f"not a parameter of {name} ({', '.join(sorted(known[name]))})"
                )
            )
        recipes = (
            spec.recipe.values() if isinstance(spec.recipe, dict) else [spec.recipe] if spec.recipe else []
        )
        for recipe in recipes:
            if find_recipe(recipe.format(mode="federated")) is None:  # {mode}: the default mode's
                problems.append(Problem(f"{where}.recipe", f"no recipe '{recipe}'"))
        tools[name] = spec
    if problems:
        raise RecipeError(str(path), problems)
    return Toolset(str(path), str(config.get("description", "")), tools)
