"""`pica ui`: open the browser UI on a running `pica serve`, or start one here and open it."""

from __future__ import annotations

import click

from pica.cli import main


@main.command()
@click.option("--host", default=None, help="Address  [default: PICA_SERVE_HOST or 127.0.0.1]")
@click.option(
    "--port", type=click.IntRange(0, 65535), default=None, help="Port  [default: PICA_SERVE_PORT or 8765]"
)
@click.option("--no-browser", is_flag=True, help="Print the address; do not open a browser.")
def ui(host: str | None, port: int | None, no_browser: bool) -> None:
    """Search, browse and read the index in a browser: http://HOST:PORT/ui/.

    Opens the page of the `pica serve` already listening there; if none is, serves one here
    (MCP at /mcp too) until Ctrl-C."""
    import urllib.request

    from pica.cli import remote

    host = host or _env("PICA_SERVE_HOST", remote.DEFAULT_HOST)
    port = int(_env("PICA_SERVE_PORT", str(remote.DEFAULT_PORT))) if port is None else port
    shown = f"[{host}]" if ":" in host else host
    if port:
        address = f"http://{shown}:{port}/ui/"
        try:
            with urllib.request.urlopen(address, timeout=2) as answer:
                running = answer.status == 200 and b"/ui/static/htmx.min.js" in answer.read()
        except OSError:
            running = False
        if running:
            click.echo(f"pica: UI on {address} (a running pica serve)", err=True)
            _open(address, no_browser)
            return
    from pica.cli.serve import serve

    if port and not no_browser:
        _open_when_up(host, port, f"http://{shown}:{port}/ui/")
    click.echo(f"pica: no server on {shown}:{port}; starting one (UI on /ui/)", err=True)
    click.get_current_context().invoke(serve, stdio=False, host=host, port=port, toolset="default")


def _env(name: str, default: str) -> str:
    import os

    return os.environ.get(name) or default


def _open_when_up(host: str, port: int, address: str) -> None:
    """Open ADDRESS in a browser once the server answers there (a background thread)."""
    import socket
    import threading
    import time

    def wait() -> None:
        for _ in range(600):
            with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
                if s.connect_ex((host, port)) == 0:
                    break
            time.sleep(0.1)
        _open(address, False)

    threading.Thread(target=wait, daemon=True).start()


def _open(address: str, no_browser: bool) -> None:
    if not no_browser:
        import webbrowser

        webbrowser.open(address)
