"""Front matter at the top of a Markdown or text file: YAML (---), TOML (+++) or JSON ({...})."""

from __future__ import annotations

import datetime as dt
import json
import re
import tomllib
from typing import Any

import yaml

from pica.stages.readers.base import Unreadable

YAML_BLOCK = re.compile(r"\A---[ \t]*\r?\n(.*?\r?\n)?(?:---|\.\.\.)[ \t]*(?:\r?\n|\Z)", re.S)
TOML_BLOCK = re.compile(r"\A\+\+\+[ \t]*\r?\n(.*?\r?\n)?\+\+\+[ \t]*(?:\r?\n|\Z)", re.S)


SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: ~10x faster


class FrontMatterError(Unreadable):
    pass


def split_front_matter(text: str) -> tuple[dict[str, Any], str, int]:
    """(metadata, body, number of lines before the body). Text without front matter is all body.

    Raises FrontMatterError when a block is there but does not parse, so the caller can report it.
    """
    text = text.removeprefix("\ufeff")  # a byte-order mark that decoding left would hide the `---`
    for pattern, parse in ((YAML_BLOCK, _yaml), (TOML_BLOCK, _toml)):
        match = pattern.match(text)
        if match:
            return (
                _plain(parse(match.group(1) or "")),
                text[match.end() :],
                match.group(0).count("\n"),
            )
    if text.startswith("{"):
        try:
            meta, end = json.JSONDecoder().raw_decode(text)
        except json.JSONDecodeError:
            return {}, text, 0  # a body that merely starts with a brace
        if isinstance(meta, dict):
            rest = text[end:]
            skipped = len(rest) - len(rest.lstrip("\r\n")) if rest.startswith(("\n", "\r")) else 0
            body = rest[skipped:]
            return _plain(meta), body, text[: end + skipped].count("\n")
    return {}, text, 0


def _yaml(block: str) -> dict[str, Any]:
    try:
        data = yaml.load(block, Loader=SAFE_LOADER)
    except yaml.YAMLError as error:
        raise FrontMatterError(f"YAML front matter does not parse: {error}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise FrontMatterError("YAML front matter is not a mapping of keys to values")
    return data


def _toml(block: str) -> dict[str, Any]:
    try:
        return tomllib.loads(block)
    except tomllib.TOMLDecodeError as error:
        raise FrontMatterError(f"TOML front matter does not parse: {error}") from None


def _plain(value: Any) -> Any:
    """JSON-ready values: dates as ISO strings, keys as strings."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set):
        return [_plain(v) for v in value]
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    return value
