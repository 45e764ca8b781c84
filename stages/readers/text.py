"""Reader for folders of Markdown and plain-text files, with front matter as metadata."""

from __future__ import annotations

import fnmatch
from pathlib import Path
from typing import Any

from pydantic import Field

from pica.kernel.records import Document, Skipped
from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage
from pica.stages.markdown import headings
from pica.stages.readers.decode import UndecodableError, decode
from pica.stages.readers.frontmatter import FrontMatterError, split_front_matter

MAX_FILE_BYTES = 50_000_000


class TextParams(Params):
    root: str = Field(description="Folder to read (relative paths are from the working directory).")
    collection: str = Field("", description="Collection name; the folder's name when empty.")
    include: list[str] = Field(
        default=["*.md", "*.markdown", "*.txt"], description="File name patterns to read."
    )
    exclude: list[str] = Field(default=[], description="Path patterns to leave out, e.g. drafts/*.")


@stage
class ReadText(Stage):
    """Read Markdown and text files under a folder into documents, front matter as metadata."""

    id = "read.text.v1"
    Params = TextParams
    inputs = {}
    outputs = {"documents": list[Document], "skipped": list[Skipped]}

    @classmethod
    def example(cls, workdir: Path) -> Example:
        (workdir / "note.md").write_text("---\ntitle: A note\n---\n# Heading\nBody text.\n")
        return Example(params={"root": str(workdir)})

    def run(self, ctx: Context) -> dict[str, Any]:
        root = Path(self.params.root).expanduser().resolve()
        if not root.is_dir():
            raise FileNotFoundError(f"root '{self.params.root}' is not a folder")
        collection = self.params.collection or root.name
        documents: list[Document] = []
        skipped: list[Skipped] = []
        for path in sorted(self._files(root)):
            if ctx.cancelled.is_set():
                break
            relative = path.relative_to(root).as_posix()
            try:
                documents.append(read_document(path, relative, collection))
            except (OSError, UndecodableError, FrontMatterError, EmptyDocument) as error:
                reason = (
                    error.strerror if isinstance(error, OSError) and error.strerror else str(error)
                )
                skipped.append(Skipped(relative, reason))
                ctx.warn(f"skipped {relative}: {reason}")
        ctx.report(f"read {len(documents)} documents from {root} ({len(skipped)} skipped)")
        return {"documents": documents, "skipped": skipped}

    def _files(self, root: Path):
        for path in root.rglob("*"):
            relative = path.relative_to(root).as_posix()
            if any(part.startswith(".") for part in path.relative_to(root).parts):
                continue  # hidden files and folders (.git, .obsidian) are not documents
            if not path.is_file() or any(fnmatch.fnmatch(relative, p) for p in self.params.exclude):
                continue
            if any(fnmatch.fnmatch(path.name.lower(), p.lower()) for p in self.params.include):
                yield path


class EmptyDocument(ValueError):
    pass


def read_document(path: Path, relative: str, collection: str) -> Document:
    size = path.stat().st_size
    if size > MAX_FILE_BYTES:
        raise EmptyDocument(f"too large ({size} bytes; the limit is {MAX_FILE_BYTES})")
    text, encoding = decode(path.read_bytes())
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    metadata, body, offset = split_front_matter(text)
    if not body.strip():
        raise EmptyDocument("no text (empty or whitespace only)")
    return Document(
        id=f"{collection}/{relative}",
        collection=collection,
        path=relative,
        title=title_of(metadata, body, path.name),
        text=body,
        metadata={**metadata, "encoding": encoding},
        first_line=offset + 1,
    )


def title_of(metadata: dict[str, Any], body: str, file_name: str) -> str:
    """The `title` field, else the first heading outside code blocks, else the file name."""
    title = metadata.get("title")
    if isinstance(title, str | int | float) and str(title).strip():
        return str(title).strip()
    found = next((h.text for h in headings(body.split("\n")[:2000]) if h.text), None)
    return found or file_name
