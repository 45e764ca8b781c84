"""What every file reader shares: pick its files by extension, report the ones it cannot read."""

from __future__ import annotations

import fnmatch
from pathlib import Path
from typing import Any

from pydantic import Field

from pica.kernel.records import Document, FileChanges, Skipped
from pica.kernel.stage import Context, Params, Stage


class Unreadable(ValueError):
    """A file that cannot become a document; the message is the reason shown to the user."""


class ReaderParams(Params):
    patterns: list[str] = Field(description="File name patterns this reader takes.")
    max_bytes: int = Field(200_000_000, gt=0, description="Larger files are skipped.")


class FileReader(Stage):
    """Base for readers: subclasses implement `read_file` and set default `patterns`."""

    Params = ReaderParams
    inputs = {"files": FileChanges}
    outputs = {"documents": list[Document], "skipped": list[Skipped]}

    def read_file(
        self, path: Path, relative: str, collection: str, problems: list[Skipped]
    ) -> list[Document]:
        """The file's documents; parts of it that cannot be read (a JSON Lines record) go to
        `problems`, while a file that cannot be read at all raises."""
        raise NotImplementedError

    def run(self, ctx: Context, files: FileChanges | None) -> dict[str, Any]:
        documents: list[Document] = []
        skipped: list[Skipped] = []
        if files is None:
            return {"documents": documents, "skipped": skipped}
        mine = [f for f in files.changed if self.takes(f.path)]
        root = Path(files.root)
        for done, ref in enumerate(mine, 1):
            if ctx.cancelled.is_set():
                break
            try:
                if ref.size > self.params.max_bytes:
                    raise Unreadable(f"too large ({ref.size:,} bytes; limit {self.params.max_bytes:,})")
                problems: list[Skipped] = []
                found = self.read_file(root / ref.path, ref.path, files.collection, problems)
                if not found:
                    raise Unreadable("no text found")
                documents.extend(found)
            except Exception as error:  # a bad file is reported and skipped, never fatal
                problems.append(Skipped(ref.path, error_reason(error)))
            for problem in problems:
                skipped.append(problem)
                ctx.warn(f"skipped {problem.path}: {problem.reason}")
            ctx.count("read", done, len(mine))
        return {"documents": documents, "skipped": skipped}

    def takes(self, relative: str) -> bool:
        name = relative.rsplit("/", 1)[-1].lower()
        return any(fnmatch.fnmatch(name, p.lower()) for p in self.params.patterns)


def error_reason(error: Exception) -> str:
    if isinstance(error, Unreadable):
        return str(error)
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    parts: list[str] = []
    for part in " ".join(str(error).split()).split(": "):
        if part not in parts:  # libraries often repeat their class name and message
            parts.append(part)
    message = ": ".join(parts)[:300]
    name = type(error).__name__
    return message if message.startswith(name) else f"{name}: {message}" if message else name
