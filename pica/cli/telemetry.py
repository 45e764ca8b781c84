"""`pica telemetry enable|disable|status`: opt-in usage counts (pica/telemetry.py, docs/privacy.md)."""

from __future__ import annotations

import click

from pica.cli import main


@main.group()
def telemetry() -> None:
    """Opt-in usage telemetry: off unless enabled here or by PICA_TELEMETRY=1.

    When on, and PICA_TELEMETRY_URL names a receiver, Pica sends only the command, search mode,
    result and hit counts, a latency bucket, the error class, Pica/Python/OS versions and a random
    install id; never a query, path, text or name (docs/privacy.md)."""


@telemetry.command()
def enable() -> None:
    """Turn telemetry on (kept in $PICA_HOME/telemetry.json)."""
    from pica import telemetry as t

    t.set_enabled(True)
    click.echo("telemetry: on")
    _where(t)


@telemetry.command()
def disable() -> None:
    """Turn telemetry off and drop what is queued."""
    from pica import telemetry as t

    t.set_enabled(False)
    click.echo("telemetry: off; nothing queued is left")


@telemetry.command()
def status() -> None:
    """Whether telemetry is on, where it would go, and what is queued."""
    import os

    from pica import telemetry as t

    env = os.environ.get("PICA_TELEMETRY")
    by = f"PICA_TELEMETRY={env}" if env else f"{t.home() / 'telemetry.json'}"
    click.echo(f"telemetry: {'on' if t.enabled() else 'off'} (by {by if env or t.state() else 'default'})")
    _where(t)
    click.echo(f"queued events: {t.queued()}")
    click.echo(f"sent as: {t.platform_summary()}, and a random install id")


def _where(t) -> None:
    url = t.url()
    click.echo(
        f"receiver: {url}" if url else "receiver: none (PICA_TELEMETRY_URL is not set): nothing is sent"
    )
