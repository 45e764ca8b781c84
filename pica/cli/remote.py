"""Run a search recipe in a running `pica serve`, so a fresh `pica search` answers warm.

The server keeps models, index handles and composed plans loaded; a new process would spend
seconds loading them. This module loads with the command line, before anything heavy, so it uses
the standard library only and reads its settings from the environment as `Settings` would.
`run_remote` answers None (run it here instead) when no server listens, when forwarding is off
(PICA_NO_SERVER=1), or when the server could answer differently: another home, other settings.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PATH = "/pica/run"
DEFAULT_HOST, DEFAULT_PORT = "127.0.0.1", 8765  # Settings.serve_host and serve_port: keep in step
CONNECT_TIMEOUT = 0.1  # seconds; a local server accepts at once
READ_TIMEOUT = 300.0  # a server's first search may load a model
# Settings that change nothing a search returns. Every other PICA_ variable, and these others that
# settings default from, must be the same here as in the server (the home is compared resolved).
UNCOMPARED = {"PICA_HOME", "PICA_DEBUG", "PICA_NO_SERVER", "PICA_SERVE_HOST", "PICA_SERVE_PORT"}
COMPARED = {"MEMORY_FILE_PATH", "CODEX_HOME"}


@dataclass
class RemoteResult:
    """What `runner.run` answers (output, warnings, notes), as the server ran it."""

    output: Any  # a list of `Hit` for a hits recipe, else plain data
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    text: str | None = None  # the hits as `render.render_hits` shows them, when asked for


def run_remote(
    recipe: str, variables: dict[str, Any], settings: Any = None, render: dict[str, Any] | None = None
) -> RemoteResult | None:
    """Run search RECIPE with VARIABLES in the server at the configured address, or answer None.

    settings: a `Settings` to take the home and address from (default: the environment).
    render: {"show_fields": bool} to have the server render the hits as text too (`text`).
    Raises PicaError with the server's message when the recipe or variables are wrong.
    """
    if (_env("PICA_NO_SERVER") or "").lower() in ("1", "true", "yes"):
        return None
    if settings is not None:
        home, host, port = settings.home, settings.serve_host, settings.serve_port
    else:
        home = _env("PICA_HOME")
        home = Path.home() / ".pica" if home is None else home
        host, port = _env("PICA_SERVE_HOST") or DEFAULT_HOST, _env("PICA_SERVE_PORT") or DEFAULT_PORT
    try:
        port = int(port)
    except ValueError:
        return None  # a run here says what is wrong with the setting
    home = resolved(home)
    asked = {"recipe": recipe, "variables": variables, "home": home, "env": fingerprint(), "render": render}
    answer = _post(_client_host(host), port, json.dumps(asked, default=str).encode())
    if answer is None:
        return None
    status, body = answer
    if status == 400 and body.get("error_type") == "PicaError":
        from pica.kernel.errors import PicaError

        raise PicaError(body.get("error", "the server refused the search"))
    if status != 200 or not isinstance(body.get("home"), str) or resolved(body["home"]) != home:
        return None
    output = body.get("hits")
    if isinstance(output, list) and all(isinstance(h, dict) for h in output):
        from pica.kernel.records import Hit

        output = [Hit(**h) for h in output]
    return RemoteResult(output, body.get("warnings", []), body.get("notes", []), body.get("text"))


def fingerprint(environ: Any = None) -> dict[str, str]:
    """The environment variables besides the home that settings come from, upper-cased."""
    environ = os.environ if environ is None else environ
    named = {key.upper(): value for key, value in environ.items()}
    return {
        key: value
        for key, value in sorted(named.items())
        if (key.startswith("PICA_") and key not in UNCOMPARED) or key in COMPARED
    }


def resolved(path: str | Path) -> str:
    return str(Path(path).expanduser().resolve())


def _env(name: str) -> str | None:
    """A variable as pydantic-settings finds it: whatever the case of its name."""
    value = os.environ.get(name)
    if value is None:
        value = next((v for k, v in os.environ.items() if k.upper() == name), None)
    return value


def _client_host(host: str) -> str:
    """Where to connect to reach a server listening on HOST (all addresses: this machine)."""
    return {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)


def _post(host: str, port: int, data: bytes) -> tuple[int, dict[str, Any]] | None:
    """POST DATA to the server: (status, JSON body), or None when nothing (or no Pica) answers."""
    import http.client

    connection = http.client.HTTPConnection(host, port, timeout=CONNECT_TIMEOUT)
    try:
        connection.connect()
        connection.sock.settimeout(READ_TIMEOUT)
        connection.request("POST", PATH, body=data, headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        body = json.loads(response.read())
    except (OSError, http.client.HTTPException, ValueError):
        return None
    finally:
        connection.close()
    return (response.status, body) if isinstance(body, dict) else None
