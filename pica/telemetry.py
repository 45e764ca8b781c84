"""Opt-in usage telemetry, off by default (docs/privacy.md).

On only with `pica telemetry enable` (kept in $PICA_HOME/telemetry.json) or PICA_TELEMETRY=1
(PICA_TELEMETRY=0 turns it off whatever the file says), and only where PICA_TELEMETRY_URL names a
receiver: Pica has no default one. An event is what a command did, never what it was about:

    command, mode, error        tokens from the fixed lists below
    results, hits, latency_ms   numbers (latency as a bucket's upper bound)
    pica, os                    tokens (this Pica's version; linux | darwin | windows | other)
    python_major, python_minor  numbers
    install                     a random 63-bit number, drawn once (not derived from the machine)

Every event passes `firewall` on its way into the queue and again on its way out: a field whose
name is not above, or whose value is not a finite number or a token of its field's list, is
dropped. Queries, paths, transcript text, names and secrets are strings, so none can pass.

Events queue in $PICA_HOME/telemetry-queue.jsonl; once BATCH of them are there, a detached process
posts them (one JSON body, 3 s timeout) and the command never waits. Offline, nothing is said and
the queue keeps at most MAX_QUEUED events. Standard library only: this loads with every command.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import platform
import secrets
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

BATCH = 20
MAX_QUEUED = 1000
TIMEOUT_S = 3.0

COMMANDS = frozenset({
    "add", "backup", "bench", "deepweb", "embed", "get", "index", "list", "recent", "recipes", "rm",
    "run", "schedule", "search", "serve", "session", "similar", "stages", "stats", "status",
    "summarize", "telemetry", "ui", "watch", "other",
})  # fmt: skip
MODES = frozenset({
    "default", "expanded", "federated", "federated-hybrid", "files", "grep", "hybrid", "kg",
    "lexical", "llm-rerank", "rerank", "semantic", "transcripts", "vector", "web", "other",
})  # fmt: skip
ERRORS = frozenset({
    "none", "PicaError", "RecipeError", "UsageError", "ClickException", "KeyboardInterrupt",
    "OSError", "FileNotFoundError", "PermissionError", "TimeoutError", "ConnectionError",
    "ValueError", "TypeError", "KeyError", "RuntimeError", "MemoryError", "other",
})  # fmt: skip
SYSTEMS = frozenset({"linux", "darwin", "windows", "other"})
LATENCY_MS = (100, 300, 1000, 3000, 10000, 30000, 100000)  # bucket upper bounds; above: 1e9


def _version() -> str:
    from pica import __version__

    return __version__


NUMBER = "number"
FIELDS: dict[str, Any] = {
    "command": COMMANDS,
    "mode": MODES,
    "error": ERRORS,
    "os": SYSTEMS,
    "pica": frozenset({_version()}),
    "results": NUMBER,
    "hits": NUMBER,
    "latency_ms": NUMBER,
    "python_major": NUMBER,
    "python_minor": NUMBER,
    "install": NUMBER,
}


def firewall(event: Any) -> dict[str, int | float | str]:
    """Only the known fields, each a finite number or a token of its list; everything else dropped."""
    if not isinstance(event, dict):
        return {}
    kept: dict[str, int | float | str] = {}
    for key, value in event.items():
        allowed = FIELDS.get(key) if isinstance(key, str) else None
        if allowed is None:
            continue
        if allowed is NUMBER:
            if type(value) in (int, float) and math.isfinite(value) and abs(value) < 2**63:
                kept[key] = value
        elif type(value) is str and value in allowed:
            kept[key] = value
    return kept


def bucket(seconds: float) -> int:
    ms = seconds * 1000
    return next((bound for bound in LATENCY_MS if ms <= bound), 10**9)


def token(value: Any, allowed: frozenset[str]) -> str:
    return value if isinstance(value, str) and value in allowed else "other"


# -- state ---------------------------------------------------------------------------------------


def home() -> Path:
    return Path(os.environ.get("PICA_HOME") or Path.home() / ".pica").expanduser()


def _state_path() -> Path:
    return home() / "telemetry.json"


def _queue_path() -> Path:
    return home() / "telemetry-queue.jsonl"


def state() -> dict[str, Any]:
    try:
        return json.loads(_state_path().read_text())
    except (OSError, ValueError):
        return {}


def set_enabled(enabled: bool) -> dict[str, Any]:
    current = state()
    current["enabled"] = enabled
    if enabled and not isinstance(current.get("install"), int):
        current["install"] = secrets.randbits(63)
    if not enabled:
        with contextlib.suppress(OSError):
            _queue_path().unlink()  # nothing queued leaves once it is off
    path = _state_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    partial.write_text(json.dumps(current))
    partial.replace(path)
    return current


def enabled() -> bool:
    env = os.environ.get("PICA_TELEMETRY", "").strip().lower()
    if env in ("0", "false", "no", "off"):
        return False
    return env in ("1", "true", "yes", "on") or bool(state().get("enabled"))


def url() -> str:
    return os.environ.get("PICA_TELEMETRY_URL", "").strip()


def queued() -> int:
    try:
        with _queue_path().open() as handle:
            return sum(1 for _ in handle)
    except OSError:
        return 0


# -- recording and sending -----------------------------------------------------------------------

_noted: dict[str, Any] = {}


def note(**fields: Any) -> None:
    """What the running command adds to its event (mode, hits, results): kept only if it passes."""
    _noted.update(fields)


def record(command: str, seconds: float, error: BaseException | None = None) -> None:
    """Queue this command's event, and start a send once a batch is there. Never raises."""
    try:
        if not enabled():
            return
        install = state().get("install")
        if not isinstance(install, int):
            install = set_enabled(True)["install"] if state().get("enabled") else secrets.randbits(63)
        event = {
            "command": token(command, COMMANDS),
            "error": "none" if error is None else token(type(error).__name__, ERRORS),
            "latency_ms": bucket(seconds),
            "pica": _version(),
            "os": token(sys.platform.replace("win32", "windows"), SYSTEMS),
            "python_major": sys.version_info[0],
            "python_minor": sys.version_info[1],
            "install": install,
        }
        if "mode" in _noted:
            event["mode"] = token(_noted["mode"], MODES)
        event.update({k: v for k, v in _noted.items() if k in ("hits", "results")})
        _noted.clear()
        line = json.dumps(firewall(event))
        path = _queue_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a") as handle:
            handle.write(line + "\n")
        if url() and queued() >= int(os.environ.get("PICA_TELEMETRY_BATCH") or BATCH):
            _send_detached()
    except Exception:
        pass  # telemetry never breaks or slows a command


def _send_detached() -> None:
    """`flush()` in a process of its own, so the command exits without waiting for the network."""
    subprocess.Popen(
        [sys.executable, "-c", "from pica.telemetry import flush; flush()"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        close_fds=True,
    )


def flush() -> bool:
    """Post what is queued to PICA_TELEMETRY_URL; True when it was taken. Silent on failure."""
    import urllib.request

    target = url()
    if not target or not enabled():
        return False
    path = _queue_path()
    sending = path.with_name(f"{path.name}.{os.getpid()}.sending")
    try:
        path.replace(sending)  # what is queued meanwhile goes to a fresh queue
    except OSError:
        return False
    lines = sending.read_text().splitlines()
    events = [e for e in (firewall(_loads(line)) for line in lines) if e]
    body = json.dumps({"schema": 1, "sent_at": int(time.time()), "events": events}).encode()
    request = urllib.request.Request(
        target, data=body, method="POST", headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as answer:
            taken = 200 <= answer.status < 300
    except Exception:
        taken = False
    if not taken:  # kept for next time, the newest MAX_QUEUED
        with contextlib.suppress(OSError), path.open("a") as handle:
            handle.writelines(line + "\n" for line in lines[-MAX_QUEUED:])
        _trim(path)
    with contextlib.suppress(OSError):
        sending.unlink()
    return taken


def _trim(path: Path) -> None:
    lines = path.read_text().splitlines()
    if len(lines) > MAX_QUEUED:
        path.write_text("".join(line + "\n" for line in lines[-MAX_QUEUED:]))


def _loads(line: str) -> Any:
    try:
        return json.loads(line)
    except ValueError:
        return None


def platform_summary() -> str:
    return f"Pica {_version()}, Python {platform.python_version()}, {sys.platform}"
