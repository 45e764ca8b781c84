"""`pica serve`: the MCP server, on streamable HTTP (127.0.0.1:8765/mcp) or stdio. Over HTTP it
also answers `pica search` in other shells (/pica/run), warm."""

from __future__ import annotations

import errno
import ipaddress
import socket
from typing import Any

import click

from pica.cli import main


@main.command()
@click.option("--stdio", is_flag=True, help="Serve over stdin/stdout (the client starts this process).")
@click.option(
    "--host", default=None, help="Address to listen on (HTTP)  [default: PICA_SERVE_HOST or 127.0.0.1]"
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=None,
    help="Port (HTTP)  [default: PICA_SERVE_PORT or 8765]",
)
@click.option(
    "--toolset",
    default="default",
    show_default=True,
    help="A shipped tool set (default, readonly) or a .yaml file.",
)
@click.option(
    "--watch/--no-watch",
    default=None,
    help="Index collections and transcripts as they change (pica watch)  [default: PICA_WATCH or on]",
)
def serve(stdio: bool, host: str | None, port: int | None, toolset: str, watch: bool | None) -> None:
    """Serve Pica's tools over MCP: http://HOST:PORT/mcp, or stdio with --stdio.

    Over HTTP, `pica search` run elsewhere with the same home and settings asks this server, which
    answers warm (PICA_NO_SERVER=1 turns that off)."""
    from pica.kernel.settings import Settings

    settings = Settings()
    watching = settings.watch if watch is None else watch
    if stdio:  # answers the client before loading the SDK: pica/mcp/stdio.py
        from pica.mcp import stdio as fast_stdio

        started = (lambda: _watch(settings)) if watching else (lambda: None)
        fast_stdio.serve(toolset, settings, lambda: _build(toolset, settings), started)
        return
    import anyio

    if watching:
        _watch(settings)
    host = settings.serve_host if host is None else host
    listening = _listen(host, settings.serve_port if port is None else port)  # before the slow start
    server = _build(toolset, settings)
    if not _loopback(host):
        click.echo(f"warning: listening on {host}: anyone who can reach it can search this machine", err=True)
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"pica: MCP on http://{shown}:{listening.getsockname()[1]}/mcp (tool set {toolset})", err=True)
    anyio.run(_serve_http, server, listening, host)


def _build(toolset: str, settings: Any) -> Any:
    from pica.mcp.server import build_server

    return build_server(toolset, settings)


def _watch(settings: Any) -> None:
    """Follow the collections and transcript folders in the background (pica/watch.py); its
    reports go to stderr, never stdout (the stdio transport's)."""
    from pica.watch import Watcher

    Watcher(settings, report=lambda message: click.echo(message, err=True)).start()


def _listen(host: str, port: int) -> socket.socket:
    """A socket bound and listening on HOST:PORT (port 0: one the system picks), or a one-line error."""
    from pica.kernel.errors import PicaError

    try:
        family, *_, address = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        return socket.create_server(address, family=family, backlog=2048)
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            why = "is in use (another pica serve?): stop what listens there, or choose another with --port"
            raise PicaError(f"port {port} on {host} {why}") from None
        raise PicaError(f"cannot listen on {host} port {port}: {error.strerror or error}") from None


async def _serve_http(server: Any, listening: socket.socket, host: str) -> None:
    """Streamable HTTP at /mcp (and /pica/run) on the socket already bound."""
    import uvicorn

    class Uvicorn(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            self._log_started_message(sockets or [])  # uvicorn says it only when it binds itself

    app = server.streamable_http_app(streamable_http_path="/mcp", host=host)
    port = listening.getsockname()[1]
    config = uvicorn.Config(app, host=host, port=port, log_level=server.settings.log_level.lower())
    await Uvicorn(config).serve(sockets=[listening])


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"
