"""Errors a user can act on. The CLI prints them without a traceback (unless PICA_DEBUG=1)."""

from __future__ import annotations

from dataclasses import dataclass


class PicaError(Exception):
    """A problem the user can fix; the message says what was wrong, where, and what is right."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a recipe, at a dotted path inside the file (`stages.fuse.params.k`)."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


class RecipeError(PicaError):
    """A recipe that cannot run; lists every problem found, one line each."""

    def __init__(self, source: str, problems: list[Problem]):
        self.source = source
        self.problems = problems
        count = f"{len(problems)} problem{'s' if len(problems) != 1 else ''}"
        lines = [f"{source}: {count}"] + [f"  {p}" for p in problems]
        super().__init__("\n".join(lines))


class StageFailed(PicaError):
    """A stage raised while running with `on_error: fail`."""

    def __init__(self, stage: str, stage_id: str, error: BaseException):
        self.stage = stage
        self.error = error
        super().__init__(f"stage '{stage}' ({stage_id}) failed: {type(error).__name__}: {error}")

    @property
    def reason(self) -> str:
        """What a caller should read: the stage's own words when it rejected its input (a
        LookupError or ValueError, e.g. no such session), else the whole message."""
        args = self.error.args
        plain = isinstance(self.error, LookupError | ValueError) and args
        return str(args[0]) if plain else str(self)
