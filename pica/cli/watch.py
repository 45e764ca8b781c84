"""`pica watch`: keep the index fresh while it runs (pica/watch.py); `pica serve` does it too."""

from __future__ import annotations

import click

from pica.cli import main


@main.command()
@click.option("--poll", is_flag=True, help="Poll the folders instead of OS notifications (network drives).")
@click.option(
    "--debounce",
    type=click.FloatRange(0.05, 60),
    default=0.25,
    show_default=True,
    help="Seconds a folder must be quiet before its changes are indexed.",
)
@click.option(
    "--max-wait",
    type=click.FloatRange(0.1, 600),
    default=0.5,
    show_default=True,
    help="Most seconds a change waits while its folder keeps changing.",
)
def watch(poll: bool, debounce: float, max_wait: float) -> None:
    """Index every collection and agent transcript folder as it changes, until Ctrl-C.

    What changed while nobody watched is indexed first; new chunks are embedded when the index
    already has vectors. `pica serve` watches the same way unless given --no-watch."""
    import threading

    from pica.kernel.settings import Settings
    from pica.watch import Watcher

    say = lambda message: click.echo(message, err=True)  # noqa: E731
    watcher = Watcher(
        Settings(), debounce_s=debounce, max_wait_s=max(max_wait, debounce), polling=poll, report=say
    )
    with watcher:
        followed = ", ".join(f"{t.name} ({t.folder})" for t in watcher.targets().values())
        say(f"pica: watching {followed}; Ctrl-C stops")
        threading.Event().wait()
