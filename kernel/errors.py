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
    """A stage raised while running with `on_error: fail`.

    Its message is the stage's own words when it rejected its input (a LookupError, ValueError or
    PicaError, e.g. no such document): the user's terms, no stage ids or exception names. Anything
    else is a fault in the stage, told with the stage and the exception's type.
    """

    def __init__(self, stage: str, stage_id: str, error: BaseException):
        self.stage = stage
        self.error = error
        plain = isinstance(error, LookupError | ValueError | PicaError) and error.args
        message = (
            str(error.args[0])
            if plain
            else f"stage '{stage}' ({stage_id}) failed: {type(error).__name__}: {error}"
        )
        super().__init__(message)

    @property
    def reason(self) -> str:
        """What a caller should read (the message; kept for callers that ask for it by name)."""
        return str(self)
