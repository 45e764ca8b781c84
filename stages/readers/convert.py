"""Reader for office documents, PDF, EPUB, RTF and HTML: converted to Markdown by kreuzberg.

Why kreuzberg: docs/extraction.md compares it with markitdown and docling on the corpus.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pydantic import Field

from pica.kernel.records import Document, FileChanges, FileRef, Skipped
from pica.kernel.registry import stage
from pica.kernel.stage import Example
from pica.stages.readers.base import FileReader, ReaderParams, Unreadable
from pica.stages.readers.decode import decode
from pica.stages.readers.text import title_of
from pica.stages.readers.zipxml import package_text

PACKAGES = (".docx", ".pptx", ".xlsx", ".odt", ".ods", ".odp")
# Document properties kept as metadata, under Pica's names.
PROPERTIES = {
    "title": "title", "authors": "authors", "created_at": "created", "modified_at": "modified",
    "language": "language", "subject": "subject", "keywords": "keywords",
    "description": "description", "page_count": "pages", "slide_count": "slides",
}  # fmt: skip


# Titles that tools write when the author wrote none.
PLACEHOLDER_TITLES = {"untitled", "powerpoint presentation", "slide 1", "document", "title"}


class ConvertParams(ReaderParams):
    patterns: list[str] = Field(
        default=["*.pdf", "*.docx", "*.pptx", "*.xlsx", "*.odt", "*.ods", "*.odp", "*.rtf",
                 "*.epub", "*.html", "*.htm"],
        description="File name patterns this reader takes.",
    )  # fmt: skip


@stage
class ReadConverted(FileReader):
    """Convert PDF, Office, OpenDocument, RTF, EPUB and HTML files to Markdown documents."""

    id = "read.convert.v1"
    Params = ConvertParams

    @classmethod
    def example(cls, workdir: Path) -> Example:
        html = "<html><head><title>Ex</title></head><body><h1>Hello</h1><p>World</p></body></html>"
        (workdir / "page.html").write_text(html)
        files = FileChanges("c", str(workdir), changed=[FileRef("page.html", len(html), 0)])
        return Example(params={}, inputs={"files": files})

    def warm_up(self, ctx: Any) -> None:
        from kreuzberg import ExtractionConfig

        self.config = ExtractionConfig(output_format="markdown")

    def read_file(
        self, path: Path, relative: str, collection: str, problems: list[Skipped]
    ) -> list[Document]:
        from kreuzberg import KreuzbergError, ParsingError, extract_bytes_sync, extract_file_sync

        try:
            if path.suffix.lower() in (".html", ".htm"):
                # The converter assumes UTF-8; a page in a legacy encoding must be decoded first.
                html = html_text(path.read_bytes())
                result = extract_bytes_sync(html.encode("utf-8"), mime_type="text/html", config=self.config)
            else:
                result = extract_file_sync(str(path), config=self.config)
            text, properties = result.content or "", dict(result.metadata or {})
        except KreuzbergError as error:
            # The converter rejects some valid packages (an ODP, a PPTX with a linked image);
            # their XML still holds the text. Damaged and encrypted files stay rejected.
            if path.suffix.lower() not in PACKAGES or _is_damage(error, ParsingError):
                raise
            text, properties = _package_text(path, error), {}
        if not text.strip():
            raise Unreadable(
                "no text layer (a scanned PDF? OCR is not enabled)"
                if path.suffix.lower() == ".pdf"
                else "no text found"
            )
        metadata = {
            ours: properties[theirs]
            for theirs, ours in PROPERTIES.items()
            if properties.get(theirs) not in (None, "", [])
        }
        metadata["format"] = path.suffix.lower().lstrip(".")
        return [
            Document(
                id=f"{collection}/{relative}",
                collection=collection,
                path=relative,
                title=title_of(metadata, text, path.name),
                text=text,
                metadata=metadata,
            )
        ]


META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.I)


def html_text(data: bytes) -> str:
    """HTML as text: the charset it declares, else the encoding its bytes fit."""
    declared = META_CHARSET.search(data[:4096])
    if declared:
        try:
            return data.decode(declared.group(1).decode("ascii"), errors="replace")
        except LookupError:
            pass  # an unknown charset name: guess instead
    return decode(data)[0]


def _is_damage(error: Exception, parsing_error: type) -> bool:
    message = str(error).lower()
    return isinstance(error, parsing_error) and any(
        word in message for word in ("password", "encrypt", "limit exceeded", "invalid", "corrupt")
    )


def _package_text(path: Path, original: Exception) -> str:
    import zipfile

    try:
        return package_text(path)
    except (zipfile.BadZipFile, KeyError) as error:
        raise Unreadable(f"{original}; and its XML could not be read either: {error}") from None
