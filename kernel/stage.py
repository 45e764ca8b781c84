"""The stage protocol: the one contract every unit of work in Pica keeps.

A stage is a class with
- `id`: stable and versioned, `family.name.vN` (`retrieve.lexical.v1`); a change in behaviour is a
  new version, so a recipe keeps meaning what it meant;
- `Params`: a pydantic model that forbids unknown keys (subclass `Params` below);
- `inputs` / `outputs`: port name -> type (`list[Chunk]`, `str`, `dict`), checked between stages
  when a recipe is loaded;
- `warm_up(ctx)`: loads heavy state (models, index handles) once, before the first `run`; never
  at import or in `__init__`, so listing stages and validating recipes stay fast;
- `run(ctx, **inputs) -> dict`: returns exactly the declared outputs;
- `example(workdir)`: params and inputs for the contract test every stage gets for free.

A stage knows nothing of the CLI; it talks to the outside only through `ctx`.
"""

from __future__ import annotations

import threading
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict


class Params(BaseModel):
    """Base for stage parameters: unknown keys are errors, not silently ignored."""

    model_config = ConfigDict(extra="forbid")


@dataclass
class Context:
    """What a running stage may use of the world: settings, warnings, progress and cancellation."""

    settings: Any = None
    stage: str = ""
    warnings: list[str] = field(default_factory=list)
    cancelled: threading.Event = field(default_factory=threading.Event)
    progress: Callable[[str], None] = lambda message: None
    counter: Callable[[str, str, int, int], None] = lambda stage, what, done, total: None
    notes: list[str] = field(default_factory=list)  # not a problem, but worth telling the caller

    def warn(self, message: str) -> None:
        self.warnings.append(f"{self.stage}: {message}" if self.stage else message)

    def note(self, message: str, run_wide: bool = False) -> None:
        """Tell the caller something worth knowing; a run-wide note is about the whole answer, so
        it is told once and without the stage's name."""
        if not run_wide:
            self.notes.append(f"{self.stage}: {message}" if self.stage else message)
        elif message not in self.notes:
            self.notes.append(message)

    def report(self, message: str) -> None:
        self.progress(f"{self.stage}: {message}" if self.stage else message)

    def count(self, what: str, done: int, total: int) -> None:
        """Progress as numbers (`done` of `total` `what`), for a progress bar."""
        self.counter(self.stage, what, done, total)

    def for_stage(self, name: str) -> Context:
        """A view for one stage that shares warnings, progress and cancellation with the run."""
        return Context(
            self.settings, name, self.warnings, self.cancelled, self.progress, self.counter, self.notes
        )


@dataclass
class Example:
    """Params and inputs with which a stage's contract test runs it."""

    params: dict[str, Any]
    inputs: dict[str, Any] = field(default_factory=dict)


class Stage:
    """Base class for stages; see the module docstring for the contract."""

    id: ClassVar[str]
    Params: ClassVar[type[Params]] = Params
    inputs: ClassVar[dict[str, Any]] = {}
    outputs: ClassVar[dict[str, Any]] = {}
    # Seconds a run may take before the executor gives up on it; None means no limit.
    timeout_s: ClassVar[float | None] = None
    # What a failure does unless the recipe says: "fail" stops the run, "skip" yields empty outputs,
    # or, for outputs named here, the value of an input (a reranker that fails passes hits through).
    on_error: ClassVar[str] = "fail"
    passthrough: ClassVar[dict[str, str]] = {}
    # Params that may differ from run to run (a query) without a new warm_up; a warmed-up
    # instance is reused for them, so a server loads a model once, not once per question.
    run_params: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, params: Params):
        self.params = params

    @classmethod
    def description(cls) -> str:
        """The first line of the docstring."""
        return (cls.__doc__ or "").strip().splitlines()[0] if cls.__doc__ else ""

    @classmethod
    def example(cls, workdir: Path) -> Example:
        raise NotImplementedError(f"{cls.id} has no example(); the contract test needs one")

    def warm_up(self, ctx: Context) -> None:
        """Load heavy state; called once before the first run."""

    def run(self, ctx: Context, **inputs: Any) -> dict[str, Any]:
        raise NotImplementedError


def type_name(tp: Any) -> str:
    """`list[Chunk]` rather than `list[pica.kernel.records.Chunk]`."""
    if tp is Any:
        return "Any"
    args = typing.get_args(tp)
    origin = typing.get_origin(tp)
    if origin is not None and args:
        return f"{origin.__name__}[{', '.join(type_name(a) for a in args)}]"
    return getattr(tp, "__name__", str(tp))


def compatible(produced: Any, expected: Any) -> bool:
    """Whether an output of type `produced` may feed an input of type `expected`."""
    if expected is Any or produced is Any or produced == expected:
        return True
    p_origin, e_origin = typing.get_origin(produced), typing.get_origin(expected)
    if p_origin is None and e_origin is None:
        return isinstance(produced, type) and isinstance(expected, type) and issubclass(produced, expected)
    if p_origin != e_origin:
        return expected is p_origin  # a `list[Chunk]` may feed a plain `list`
    return all(
        compatible(p, e) for p, e in zip(typing.get_args(produced), typing.get_args(expected), strict=False)
    )


def conforms(value: Any, tp: Any) -> bool:
    """Whether a value is of a port type (lists are checked element by element)."""
    if tp is Any:
        return True
    origin = typing.get_origin(tp)
    if origin is None:
        return isinstance(value, tp)
    if not isinstance(value, origin):
        return False
    args = typing.get_args(tp)
    if origin is list and args:
        return all(conforms(v, args[0]) for v in value)
    return True


def empty(tp: Any) -> Any:
    """The value a skipped or timed-out stage yields for an output of this type."""
    origin = typing.get_origin(tp) or tp
    if origin in (list, dict, str, tuple, set):
        return origin()
    return None
