"""Plain text from the XML inside ODF and OOXML packages, for files the converter rejects.

A safety net, not a converter: paragraphs only, no tables or styles. Members are size-checked
before they are inflated, so a decompression bomb is refused rather than expanded.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from xml.etree import ElementTree

from pica.stages.readers.base import Unreadable

MAX_MEMBER_BYTES = 50_000_000
MAX_RATIO = 200  # inflated/compressed; real documents stay far below it


def package_text(path: Path) -> str:
    with zipfile.ZipFile(path) as package:
        names = package.namelist()
        if "content.xml" in names:  # OpenDocument
            members = ["content.xml"]
            paragraph_tags = {"p", "h"}
        else:  # Office Open XML: slides, then word and sheet text

            def order(name: str) -> tuple[int, str]:
                number = re.search(r"(\d+)\.xml$", name)
                return (int(number.group(1)) if number else 0, name)

            members = sorted((n for n in names if re.match(r"ppt/slides/slide\d+\.xml$", n)), key=order)
            members += [n for n in names if n in ("word/document.xml", "xl/sharedStrings.xml")]
            paragraph_tags = {"p", "si"}
        if not members:
            raise Unreadable("a zip package with no document text in it")
        return "\n\n".join(_paragraphs(package, m, paragraph_tags) for m in members).strip()


def _paragraphs(package: zipfile.ZipFile, member: str, paragraph_tags: set[str]) -> str:
    info = package.getinfo(member)
    if info.file_size > MAX_MEMBER_BYTES or info.file_size > MAX_RATIO * max(info.compress_size, 1):
        raise Unreadable(f"{member} would inflate to {info.file_size:,} bytes: refused as a zip bomb")
    lines = []
    with package.open(member) as stream:
        for _, element in ElementTree.iterparse(stream):
            if element.tag.rsplit("}", 1)[-1] in paragraph_tags:
                text = "".join(element.itertext()).strip()
                if text:
                    lines.append(text)
                element.clear()
    return "\n\n".join(lines)
