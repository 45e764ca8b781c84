"""`pica serve`: the MCP server, on streamable HTTP (127.0.0.1:8765/mcp) or stdio. Over HTTP it
also answers `pica search` in other shells (/pica/run), warm."""

from __future__ import annotations

import ipaddress

import click

from pica.kernel.cli import main


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
def serve(stdio: bool, host: str | None, port: int | None, toolset: str) -> None:
    """Serve Pica's tools over MCP: http://HOST:PORT/mcp, or stdio with --stdio.

    Over HTTP, `pica search` run elsewhere with the same home and settings asks this server, which
    answers warm (PICA_NO_SERVER=1 turns that off)."""
    import anyio

    from pica.kernel.mcp_server import build_server
    from pica.kernel.settings import Settings

    settings = Settings()
    server = build_server(toolset, settings)
    if stdio:
        anyio.run(server.run_stdio_async)
        return
    host = settings.serve_host if host is None else host
    port = settings.serve_port if port is None else port
    if not _loopback(host):
        click.echo(f"warning: listening on {host}: anyone who can reach it can search this machine", err=True)
    click.echo(f"pica: MCP on http://{host}:{port}/mcp (tool set {toolset})", err=True)
    anyio.run(lambda: server.run_streamable_http_async(host=host, port=port, streamable_http_path="/mcp"))


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"
