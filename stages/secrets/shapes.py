"""Pieces of patterns and checks the tool families share (servers.py, shells.py, code_literals.py,
security_tools.py, desktops.py)."""

from __future__ import annotations

import re

from pica.stages.secrets import verify

QUOTED_OR_BARE = r"(?:'([^'\n]{3,200})'|\"([^\"\n]{3,200})\"|([^\s'\";]{3,200}))"
SECRET_WORDS = r"(?:password|passwd|secret|token|api_?key|apikey)"
UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


ID_THEN_SECRET = r"[\"']?[ \t]*,\s*[\"']([A-Za-z0-9+/=_-]{24,100})[\"']"


def generated(value: str) -> bool:
    """A key generator's output: random, with digits or base64's signs; not a word, a path, a
    placeholder or the next line's `NAME=…`."""
    if (
        value.startswith("/")
        or "<" in value
        or re.match(r"[A-Za-z_]\w*=(?!=*$)", value)  # (base64 padding is no `=`)
        or verify.is_stand_in(value)
    ):
        return False
    return re.search(r"[\d+/=]", value) is not None and verify.random_enough(value)
