"""Load a recipe and run it: the one path the CLI, the Python API and the MCP server share."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any, Protocol

from pica.kernel.errors import PicaError
from pica.kernel.executor import RunResult, StageCache, execute
from pica.kernel.paths import find_recipe
from pica.kernel.recipe import Plan, load_plan
from pica.kernel.registry import Registry, registry
from pica.kernel.settings import Settings
from pica.kernel.stage import Context


class Progress(Protocol):
    """Where a run reports what it is doing; the command line draws it (pica/cli/progress.py)."""

    def message(self, text: str) -> None: ...

    def count(self, stage: str, what: str, done: int, total: int) -> None: ...


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
    return execute_plan(plan(recipe, overrides, settings, variables), settings, progress, cache)


def execute_plan(
    the_plan: Plan,
    settings: Settings | None = None,
    progress: Progress | None = None,
    cache: StageCache | None = None,
) -> RunResult:
    ctx = Context(settings=settings or Settings())
    if progress is not None:
        ctx.progress, ctx.counter = progress.message, progress.count
    return execute(the_plan, ctx, cache)


class PlanCache:
    """Composed, checked plans kept by a long-lived process (composing costs ~100 ms a call).

    Calls that differ only in `query` share a plan when the recipe passes the query only to stage
    params named `query`: composed once with a marker query, then `with_params(query=...)`; one that
    uses it otherwise (grep's `pattern`) is composed per call. Recipes without a query are cached by
    all their variables. Configuration files are read when a plan is first made.
    """

    MARKER = "pica-query-marker-5f0c"

    def __init__(self, settings: Settings, size: int = 256):
        self.settings = settings
        self.size = size
        self._plans: OrderedDict[tuple[str, str], Plan] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, recipe: str, variables: dict[str, Any]) -> Plan:
        query = variables.get("query")
        shared = {k: v for k, v in variables.items() if k != "query"}
        key = (recipe, json.dumps(shared, sort_keys=True, default=str))
        with self._lock:
            the_plan = self._plans.get(key)
            if the_plan is None:
                the_plan = plan(recipe, settings=self.settings, variables={**shared, "query": self.MARKER}
                                if "query" in variables else shared)  # fmt: skip
                if "query" in variables and not _only_in_query_params(the_plan, self.MARKER):
                    return plan(recipe, settings=self.settings, variables=variables)
                self._plans[key] = the_plan
                while len(self._plans) > self.size:
                    self._plans.popitem(last=False)
            self._plans.move_to_end(key)
        return the_plan.with_params(query=query) if "query" in variables else the_plan


def _only_in_query_params(the_plan: Plan, marker: str) -> bool:
    def holds(value: Any) -> bool:
        if isinstance(value, dict):
            return any(holds(v) for v in value.values())
        if isinstance(value, list):
            return any(holds(v) for v in value)
        return isinstance(value, str) and marker in value

    for stage in the_plan.stages.values():
        params = stage.params.model_dump()
        if params.get("query") not in (None, marker) or holds(
            {k: v for k, v in params.items() if k != "query"}
        ):
            return False
    return True
