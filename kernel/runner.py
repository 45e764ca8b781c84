"""Load a recipe and run it: the one path the CLI, the Python API and the MCP server share."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pica.kernel.errors import PicaError
from pica.kernel.executor import RunResult, StageCache, execute
from pica.kernel.paths import find_recipe
from pica.kernel.progress import Progress
from pica.kernel.recipe import Plan, load_plan
from pica.kernel.registry import Registry, registry
from pica.kernel.settings import Settings
from pica.kernel.stage import Context


def resolve_recipe(name: str | Path) -> Path:
    path = find_recipe(str(name))
    if path is None:
        raise PicaError(
            f"recipe '{name}' not found: give a path to a .yaml file or a bundled name "
            "such as search/lexical (see `pica recipes`)"
        )
    return path


def plan(
    recipe: str | Path,
    overrides: list[str] = (),  # type: ignore[assignment]
    settings: Settings | None = None,
    variables: dict[str, Any] | None = None,
    stages: Registry = registry,
) -> Plan:
    settings = settings or Settings()
    user_configs = settings.home.expanduser() / "configs"
    overrides = list(overrides)
    if settings.team and not any(o.startswith("team=") for o in overrides):
        overrides.append(f"team={settings.team}")  # PICA_TEAM: one team's overrides on every recipe
    return load_plan(
        resolve_recipe(recipe),
        overrides,
        stages,
        settings.as_config(),
        [user_configs],
        variables,
        cache_dir=settings.cache_dir.expanduser() / "recipes",
    )


def run(
    recipe: str | Path,
    overrides: list[str] = (),  # type: ignore[assignment]
    settings: Settings | None = None,
    variables: dict[str, Any] | None = None,
    progress: Progress | None = None,
    cache: StageCache | None = None,
) -> RunResult:
    settings = settings or Settings()
    the_plan = plan(recipe, overrides, settings, variables)
    ctx = Context(settings=settings)
    if progress is not None:
        ctx.progress, ctx.counter = progress.message, progress.count
    return execute(the_plan, ctx, cache)
