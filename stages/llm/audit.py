"""The audit log: one JSON line per model call (what was asked, by hash; which model; how long; what
the probes said), never the prompt or the answer. `$PICA_HOME/llm-audit.jsonl` unless
PICA_AUDIT_LOG names another file."""

from __future__ import annotations

import json
import os
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

_LOCK = threading.Lock()


def append(path: str, record: dict[str, Any]) -> None:
    """Append one line; an empty path logs nothing. Each line is one write to a file opened for
    appending, so lines from concurrent processes do not interleave."""
    if not path:
        return
    target = Path(path).expanduser()
    line = json.dumps({"time": datetime.now(UTC).isoformat(timespec="seconds"), **record}, ensure_ascii=False)
    with _LOCK:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(target, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, (line + "\n").encode("utf-8"))
        finally:
            os.close(fd)
