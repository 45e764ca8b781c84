"""Markdown structure the readers and the chunker share: where the headings are."""

from __future__ import annotations

import re
from dataclasses import dataclass

ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


@dataclass(frozen=True)
class Heading:
    line: int  # 0-based index of the line where the heading starts
    level: int
    text: str


def headings(lines: list[str]) -> list[Heading]:
    """ATX (`# Title`) and setext (`Title` over `=====`) headings outside fenced code blocks."""
    found: list[Heading] = []
    fence = ""
    for i, line in enumerate(lines):
        opener = FENCE.match(line)
        if fence:
            if opener and opener.group(1)[0] == fence[0] and len(opener.group(1)) >= len(fence):
                fence = ""
            continue
        if opener:
            fence = opener.group(1)
            continue
        atx = ATX.match(line)
        if atx:
            found.append(Heading(i, len(atx.group(1)), (atx.group(2) or "").strip()))
            continue
        setext = SETEXT.match(line)
        previous = lines[i - 1].strip() if i > 0 else ""
        underlines_text = (
            setext and previous and not ATX.match(lines[i - 1]) and not SETEXT.match(lines[i - 1])
        )
        if underlines_text and not (found and found[-1].line == i - 1):
            found.append(Heading(i - 1, 1 if setext.group(1)[0] == "=" else 2, previous))
    return found
