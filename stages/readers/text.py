"""Reader for Markdown and plain-text files, with front matter (YAML, TOML, JSON) as metadata."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import Field

from pica.kernel.records import Document, FileChanges, FileRef, Skipped
from pica.kernel.registry import stage
from pica.kernel.stage import Example
from pica.stages.markdown import headings
from pica.stages.readers.base import FileReader, ReaderParams, Unreadable
from pica.stages.readers.decode import decode, strip_terminal_codes
from pica.stages.readers.frontmatter import split_front_matter


class TextParams(ReaderParams):
    patterns: list[str] = Field(
        default=["*.md", "*.markdown", "*.mdx", "*.txt", "*.text", "*.rst", "*.org"],
        description="File name patterns this reader takes.",
    )
    max_line_chars: int = Field(
        100_000, gt=0, description="A file with a longer line is data, not prose: skipped."
    )


@stage
class ReadText(FileReader):
    """Read Markdown and text files (any Unicode or legacy encoding), front matter as metadata."""

    id = "read.text.v1"
    Params = TextParams

    @classmethod
    def example(cls, workdir: Path) -> Example:
        (workdir / "note.md").write_text("---\ntitle: A note\n---\n# Heading\nBody text.\n")
        files = FileChanges("c", str(workdir), changed=[FileRef("note.md", 40, 0)])
        return Example(params={}, inputs={"files": files})

    def read_file(
        self, path: Path, relative: str, collection: str, problems: list[Skipped]
    ) -> list[Document]:
        return [read_document(path, relative, collection, self.params.max_line_chars)]


def read_document(path: Path, relative: str, collection: str, max_line_chars: int = 100_000) -> Document:
    text, encoding = decode(path.read_bytes())
    text = strip_terminal_codes(text).replace("\r\n", "\n").replace("\r", "\n")
    longest = max(map(len, text.split("\n")), default=0)
    if longest > max_line_chars:
        raise Unreadable(f"a line of {longest:,} characters: data, not text (limit {max_line_chars:,})")
    metadata, body, offset = split_front_matter(text)
    if not body.strip() and metadata:
        # Front matter is all there is (a stub, a redirect): index the block itself, so its title
        # and fields are searchable and its lines cite the file's.
        body, offset = text.removeprefix("\ufeff"), 0
    if not body.strip():
        raise Unreadable("no text (empty or whitespace only)")
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
