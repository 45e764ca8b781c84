"""A session's messages as the text a model reads and the probes check against, and the small text
tools the probes share (sentences, words)."""

from __future__ import annotations

import re
from typing import Any

SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[A-Z0-9`*_-])|\n+")
BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")
WORD = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)?", re.UNICODE)


def message_label(message: dict[str, Any]) -> str:
    meta = message.get("metadata") or {}
    label = meta.get("role") or "message"
    if meta.get("kind") not in (None, "", "text"):
        label += f" ({meta['kind']}{': ' + meta['tool'] if meta.get('tool') else ''})"
    return label


def conversation(
    messages: list[dict[str, Any]], max_chars: int, message_chars: int, max_tokens: int = 0
) -> tuple[str, int]:
    """The latest messages as `[role] text` blocks, each cut to `message_chars`, together at most
    `max_chars` and (counted by Pica's over-counting heuristic) `max_tokens`, older ones left out
    first; and how many messages it holds."""
    from pica.stages.tokens import heuristic_tokens

    blocks: list[str] = []
    total = tokens = 0
    for message in reversed(messages):
        text = (message.get("text") or "").strip()
        if not text:
            continue
        if len(text) > message_chars:
            text = text[:message_chars].rstrip() + " …"
        block = f"[{message_label(message)}] {text}"
        cost = heuristic_tokens(block) + 2
        if blocks and (total + len(block) > max_chars or (max_tokens and tokens + cost > max_tokens)):
            break
        blocks.append(block[:max_chars])
        total, tokens = total + len(block) + 2, tokens + cost
    return "\n\n".join(reversed(blocks)), len(blocks)


def source_text(messages: list[dict[str, Any]]) -> str:
    """Everything the probes accept as said in the session: each message's whole text and the
    names its metadata gives (agent, project, tool, path)."""
    parts = []
    for message in messages:
        meta = message.get("metadata") or {}
        parts += [str(meta.get(k, "")) for k in ("agent", "project", "tool", "role", "kind")]
        parts += [message.get("path", ""), message.get("text") or ""]
    return "\n".join(p for p in parts if p)


def sentences(text: str) -> list[str]:
    """The summary's sentences (and list items), stripped of bullets; empty pieces dropped."""
    out = []
    for piece in SENTENCE_END.split(text):
        piece = BULLET.sub("", piece).strip().strip("*").strip()
        if piece:
            out.append(piece)
    return out


def words(text: str) -> list[str]:
    return WORD.findall(text)
