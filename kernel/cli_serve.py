"""`pica serve`: the MCP server, on streamable HTTP (127.0.0.1:8765/mcp) or stdio."""

from __future__ import annotations

import ipaddress

import click

from pica.kernel.cli import main


@main.command()
@click.option("--stdio", is_flag=True, help="Serve over stdin/stdout (the client starts this process).")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (HTTP).")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True, help="Port (HTTP).")
@click.option(
    "--toolset",
    default="default",
    show_default=True,
    help="A shipped tool set (default, readonly) or a .yaml file.",
)
def serve(stdio: bool, host: str, port: int, toolset: str) -> None:
    """Serve Pica's tools over MCP: http://HOST:PORT/mcp, or stdio with --stdio."""
    import anyio

    from pica.kernel.mcp_server import build_server

    server = build_server(toolset)
    if stdio:
        anyio.run(server.run_stdio_async)
        return
    if not _loopback(host):
        click.echo(f"warning: listening on {host}: anyone who can reach it can search this machine", err=True)
    click.echo(f"pica: MCP on http://{host}:{port}/mcp (tool set {toolset})", err=True)
    anyio.run(lambda: server.run_streamable_http_async(host=host, port=port, streamable_http_path="/mcp"))


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"
