"""`pica schedule install|status|remove`: `pica index` (and `pica backup`) run by the platform's
scheduler (pica/schedule.py): systemd user timers, a launchd agent, or a Task Scheduler task."""

from __future__ import annotations

import subprocess
from pathlib import Path

import click

from pica.cli import main

PLATFORMS = click.Choice(["linux", "macos", "windows"])


@main.group()
def schedule() -> None:
    """Run `pica index` every few minutes (and `pica backup`) with the system's own scheduler."""


def _where(platform: str | None, folder: Path | None) -> tuple[str, Path, bool]:
    """(platform, folder, whether the scheduler here may be told) for the options given."""
    from pica import schedule as s

    here = s.platform_name()
    platform = platform or here
    return platform, folder or s.unit_folder(platform), folder is None and platform == here


def _why_not(platform: str) -> str:
    from pica import schedule as s

    return s.systemd_user_session() if platform == "linux" else ""


def _run(commands: list[list[str]]) -> None:
    import shlex

    for command in commands:
        click.echo(f"running: {shlex.join(command)}")
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            raise click.ClickException(
                f"{shlex.join(command)} failed: {done.stderr.strip() or done.returncode}"
            )


@schedule.command()
@click.option("--every", default="15m", show_default=True, help="How often `pica index` runs (15m, 1h, ...).")
@click.option(
    "--backup", type=click.Choice(["hourly", "daily", "weekly"]), default=None, help="Also `pica backup`."
)
@click.option("--platform", type=PLATFORMS, default=None, help="Whose units to write  [default: this one's]")
@click.option(
    "--dir", "folder", type=click.Path(path_type=Path), default=None, help="Write here; enable nothing."
)
@click.option("--print", "show", is_flag=True, help="Print the units; write nothing.")
def install(every: str, backup: str | None, platform: str | None, folder: Path | None, show: bool) -> None:
    """Write the scheduler's units and enable them (systemd user timers, launchd, Task Scheduler)."""
    from pica import schedule as s
    from pica.kernel.settings import Settings

    try:
        found = s.jobs(every, backup)
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    platform, folder, here = _where(platform, folder)
    files = s.files_for(platform, found, Settings().home.expanduser())
    if show:
        for name, data in files.items():
            click.echo(f"# {name}\n{data.decode('utf-16' if platform == 'windows' else 'utf-8')}")
        return
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (folder / name).write_bytes(data)
        click.echo(f"wrote {folder / name}")
    why = "--dir or --platform given" if not here else _why_not(platform)
    if why:
        click.echo(f"not enabled: {why}; the files are ready for when it is")
        return
    _run(s.activation(platform, folder, list(files), enable=True))
    click.echo(f"enabled: pica index every {every}" + (f", pica backup {backup}" if backup else ""))


@schedule.command()
@click.option("--platform", type=PLATFORMS, default=None, help="Whose units  [default: this one's]")
@click.option(
    "--dir", "folder", type=click.Path(path_type=Path), default=None, help="Where they were written."
)
def status(platform: str | None, folder: Path | None) -> None:
    """Which units are written, and what the scheduler says of them."""
    from pica import schedule as s

    platform, folder, here = _where(platform, folder)
    present = [n for n in s.known_names(platform) if (folder / n).exists()]
    click.echo(f"{platform} units in {folder}: {', '.join(present) if present else 'none'}")
    if present and here and not _why_not(platform):
        if platform == "linux":
            command = ["systemctl", "--user", "list-timers", "--all", "pica-*"]
        elif platform == "macos":
            command = ["launchctl", "list"]
        else:
            command = ["schtasks", "/Query", "/TN", "Pica\\"]
        done = subprocess.run(command, capture_output=True, text=True)
        click.echo(done.stdout.rstrip() or done.stderr.rstrip())
    elif present and here:
        click.echo(f"not enabled: {_why_not(platform)}")


@schedule.command()
@click.option("--platform", type=PLATFORMS, default=None, help="Whose units  [default: this one's]")
@click.option(
    "--dir", "folder", type=click.Path(path_type=Path), default=None, help="Where they were written."
)
def remove(platform: str | None, folder: Path | None) -> None:
    """Disable the units and delete their files."""
    from pica import schedule as s

    platform, folder, here = _where(platform, folder)
    present = [n for n in s.known_names(platform) if (folder / n).exists()]
    if not present:
        click.echo(f"nothing scheduled: no Pica units in {folder}")
        return
    if here and not _why_not(platform):
        _run(s.activation(platform, folder, present, enable=False))
    for name in present:
        (folder / name).unlink()
        click.echo(f"removed {folder / name}")
