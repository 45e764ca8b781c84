"""Where stage ids are looked up.

In-tree stages register with the `@stage` decorator when their module under `pica.stages` is
imported (those modules import nothing heavy at top level, so importing them all is cheap).
Third-party stages come from the entry-point group `pica.stages`: the entry point's name is the
stage id and its value `module:Class`. They load only when needed, and one that fails to load is
recorded in `failures`, never raised, so a broken plugin cannot break the others.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.util
import pkgutil
import re
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path

from pydantic import BaseModel

from pica.kernel.stage import Stage

ENTRY_POINT_GROUP = "pica.stages"
DECLARED_ID = re.compile(r'^\s+id = "([^"]+)"', re.M)
STAGE_ID = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+\.v[0-9]+$")


class UnknownStage(LookupError):
    def __init__(self, stage_id: str, available: list[str]):
        self.stage_id = stage_id
        self.available = available
        close = difflib.get_close_matches(stage_id, available, n=1)
        hint = f"did you mean '{close[0]}'? " if close else ""
        super().__init__(f"unknown stage '{stage_id}' ({hint}available: {', '.join(available)})")


def check_stage_class(cls: type) -> list[str]:
    """What is wrong with a class that claims to be a stage (empty when nothing is)."""
    if not (isinstance(cls, type) and issubclass(cls, Stage)):
        return [f"{cls!r} is not a subclass of pica.kernel.stage.Stage"]
    problems = []
    stage_id = getattr(cls, "id", None)
    if not isinstance(stage_id, str) or not STAGE_ID.match(stage_id):
        problems.append(f"{cls.__name__}.id {stage_id!r} must look like 'family.name.v1'")
    params = getattr(cls, "Params", None)
    if not (isinstance(params, type) and issubclass(params, BaseModel)):
        problems.append(f"{cls.__name__}.Params must be a pydantic model")
    elif params.model_config.get("extra") != "forbid":
        problems.append(f"{cls.__name__}.Params must forbid unknown keys (extra='forbid')")
    if not cls.outputs:
        problems.append(f"{cls.__name__} declares no outputs")
    elif strays := sorted(set(cls.run_params) - set(params.model_fields)):
        problems.append(f"{cls.__name__}.run_params names unknown params: {strays}")
    unknown = set(cls.passthrough) - set(cls.outputs) | set(cls.passthrough.values()) - set(cls.inputs)
    if unknown:
        problems.append(f"{cls.__name__}.passthrough names ports it does not declare: {sorted(unknown)}")
    if not cls.description():
        problems.append(f"{cls.__name__} needs a docstring; its first line is the description")
    return problems


class Registry:
    def __init__(self, builtin_package: str | None = "pica.stages", group: str = ENTRY_POINT_GROUP):
        self.builtin_package = builtin_package
        self.group = group
        self.stages: dict[str, type[Stage]] = {}
        self.failures: dict[str, str] = {}  # module or entry point -> why it did not load
        self._builtins_loaded = False
        self._declared: dict[str, str] | None = None  # stage id -> module, from the source text
        self._entry_points_loaded = False

    def register(self, cls: type[Stage]) -> type[Stage]:
        """Class decorator: make a stage available under its id."""
        problems = check_stage_class(cls)
        if problems:
            raise TypeError("; ".join(problems))
        existing = self.stages.get(cls.id)
        if existing is not None and existing is not cls:
            raise TypeError(f"stage id '{cls.id}' is taken by {existing.__module__}.{existing.__name__}")
        self.stages[cls.id] = cls
        return cls

    def get(self, stage_id: str) -> type[Stage]:
        if stage_id not in self.stages:
            self._load_declaring_module(stage_id)
        if stage_id not in self.stages:
            self._load_builtins()
        if stage_id not in self.stages:
            for ep in self._entry_points():
                if ep.name == stage_id:
                    self._load_entry_point(ep)
        if stage_id not in self.stages:
            raise UnknownStage(stage_id, self.ids())
        return self.stages[stage_id]

    def all(self) -> dict[str, type[Stage]]:
        """Every stage, loading every plugin; see `failures` for those that would not load."""
        self._load_builtins()
        if not self._entry_points_loaded:
            self._entry_points_loaded = True
            for ep in self._entry_points():
                if ep.name not in self.stages:
                    self._load_entry_point(ep)
        return dict(sorted(self.stages.items()))

    def ids(self) -> list[str]:
        """Known ids, without loading plugins that have not been loaded yet."""
        names = set(self.stages) | {ep.name for ep in self._entry_points()}
        return sorted(names - set(self.failures))

    def _entry_points(self) -> list[EntryPoint]:
        return list(entry_points(group=self.group))

    def _load_declaring_module(self, stage_id: str) -> None:
        """Import just the in-tree module whose source declares `id = "<stage_id>"`.

        Reading two dozen small files once costs ~2 ms; importing every stage module, ~150 ms of a
        CLI call. Anything not found this way falls back to importing them all.
        """
        if self._declared is None:
            self._declared = self._scan_declared_ids()
        name = self._declared.get(stage_id)
        if name is None:
            return
        try:
            importlib.import_module(name)
        except Exception as error:
            self.failures[name] = f"{type(error).__name__}: {error}"

    def _scan_declared_ids(self) -> dict[str, str]:
        """stage id -> in-tree module, read from the source text without importing anything."""
        declared: dict[str, str] = {}
        spec = importlib.util.find_spec(self.builtin_package) if self.builtin_package else None
        for folder in (spec.submodule_search_locations or []) if spec else []:
            for path in sorted(Path(folder).rglob("*.py")):
                parts = path.relative_to(folder).with_suffix("").parts
                module = ".".join((self.builtin_package, *parts))  # type: ignore[arg-type]
                for stage_id in DECLARED_ID.findall(path.read_text(encoding="utf-8", errors="replace")):
                    declared.setdefault(stage_id, module)
        return declared

    def _load_builtins(self) -> None:
        if self._builtins_loaded or self.builtin_package is None:
            return
        self._builtins_loaded = True
        package = importlib.import_module(self.builtin_package)
        for module in pkgutil.walk_packages(package.__path__, f"{self.builtin_package}."):
            try:
                importlib.import_module(module.name)
            except Exception as error:  # a broken module must not hide the others
                self.failures[module.name] = f"{type(error).__name__}: {error}"

    def _load_entry_point(self, ep: EntryPoint) -> None:
        try:
            cls = ep.load()
            problems = check_stage_class(cls)
            if not problems and cls.id != ep.name:
                problems = [f"entry point name '{ep.name}' differs from the stage id '{cls.id}'"]
            if problems:
                raise TypeError("; ".join(problems))
            self.register(cls)
        except Exception as error:
            self.failures[ep.name] = f"{ep.value}: {type(error).__name__}: {error}"


registry = Registry()
stage = registry.register
