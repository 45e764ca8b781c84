"""`pica recent`, `session`, `list`, `stats`, `backup`: agent transcripts read back and kept safe."""

from __future__ import annotations

import json

import click

from pica.cli import main


def _run(recipe: str, variables: dict):
    from pica.kernel import runner

    return runner.run(recipe, variables=variables).output  # a stage's error is a StageFailed, told by main


def _print_messages(messages: list[dict], as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(messages, indent=2, ensure_ascii=False))
        return
    for m in messages:
        meta = m["metadata"]
        what = meta.get("role", "")
        if meta.get("kind") not in ("text", None):
            what += f" ({meta['kind']}{': ' + meta['tool'] if meta.get('tool') else ''})"
        click.echo(f"--- {meta.get('timestamp', '')}  {what}  {m['path']}:{meta.get('line', '')}")
        click.echo(m["text"])


@main.command()
@click.option(
    "--n", "n", type=click.IntRange(min=1), default=30, show_default=True, help="How many messages."
)
@click.option("--session", default="", help="This session (id or unique prefix) instead of the newest.")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def recent(n: int, session: str, as_json: bool) -> None:
    """The latest messages of the newest session (or of --session)."""
    _print_messages(_run("transcripts/session", {"session": session, "last": n}), as_json)


@main.command()
@click.argument("session_id")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def session(session_id: str, as_json: bool) -> None:
    """The whole transcript of session SESSION_ID (or a unique prefix of it), in order."""
    _print_messages(_run("transcripts/session", {"session": session_id}), as_json)


@main.command(name="list")
@click.option(
    "--n", "n", type=click.IntRange(min=1), default=20, show_default=True, help="How many sessions."
)
@click.option("--agent", default="", help="Only claude-code, codex or gemini.")
@click.option("--project", default="", help="Only this project.")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def list_sessions(n: int, agent: str, project: str, as_json: bool) -> None:
    """Recent sessions: project, agent, start, end and message count."""
    from pica.kernel import runner

    result = runner.run("transcripts/list", variables={"n": n, "agent": agent, "project": project})
    sessions = result.output
    for note in result.notes:  # why the list is empty
        click.echo(f"note: {note}", err=True)
    if as_json:
        click.echo(json.dumps(sessions, indent=2, ensure_ascii=False))
        return
    if not sessions:
        return
    click.echo(f"{'session':38} {'agent':12} {'project':24} {'start':20} {'end':20} {'messages':>8}")
    for s in sessions:
        click.echo(
            f"{s['session'][:38]:38} {s['agent']:12} {s['project'][:24]:24} "
            f"{s['start'][:19]:20} {s['end'][:19]:20} {s['messages']:8}"
        )


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def stats(as_json: bool) -> None:
    """Index size, last indexed time, and row counts per source and collection, with the secrets
    redacted in each collection per class."""
    from pica.indexing import stats as index_stats
    from pica.kernel.settings import Settings

    report = index_stats(Settings(), _run("ingest/status", {}))
    sources = report["sources"]
    if as_json:
        click.echo(json.dumps(report, indent=2, ensure_ascii=False))
        return
    from pica.cli.collections import _counts, _size, _time

    click.echo(f"home {report['home']}: LanceDB {_size(report['lance_bytes'])}, "
               f"keyword index {_size(report['keyword_bytes'])}")  # fmt: skip
    for source, entry in sources.items():
        click.echo(
            f"{source}: {entry['files']} files, {entry['documents']} documents, {entry['chunks']} chunks "
            f"({entry['embedded']} embedded), last indexed {_time(entry['indexed_at'])}"
        )
        for name, c in entry["collections"].items():
            click.echo(
                f"  {name:18} {c['files']:8} files {c['documents']:9} documents {c['chunks']:9} chunks"
            )
            if c["redacted"]:
                click.echo(f"  {'':18} redacted {_counts(c['redacted'])}")
    if report["redacted"]:
        click.echo(f"redacted in all: {_counts(report['redacted'])}")


@main.command()
@click.option("--dry-run", is_flag=True, help="Say what would be copied; copy nothing.")
@click.option("--show-config", is_flag=True, help="Print the configuration in use and stop.")
@click.option("--to", "destination", default="", help="Destination for this run (folder or user@host:path).")
def backup(dry_run: bool, show_config: bool, destination: str) -> None:
    """Copy the agents' transcript folders, raw and unredacted, to a backup (never deletes anything).

    The destination is ~/pica-backup, or set in $PICA_HOME/backup.env: DESTINATION=/folder or
    DESTINATION=user@host:/folder (rsync over SSH, scp when rsync is missing),
    SSH_OPTIONS="-p 2222 -i ~/.ssh/key"."""
    from pathlib import Path

    from pica.cli import backup as backups
    from pica.kernel.settings import Settings

    settings = Settings()
    try:
        config = backups.load_config(settings.home.expanduser())
    except ValueError as error:
        raise click.ClickException(str(error)) from None
    if destination:
        config = backups.BackupConfig(destination, config.ssh_options, "--to")
    roots = {a: r for a, r in settings.transcript_roots().items() if r.is_dir()}
    if show_config:
        click.echo(f"destination: {config.destination} ({'ssh' if config.remote else 'local folder'})")
        click.echo(f"configured by: {config.source}")
        for agent, root in settings.transcript_roots().items():
            click.echo(f"{agent}: {root}{'' if root.is_dir() else '  (not found)'}")
        click.echo(f"note: {backups.RAW}")
        return
    if not roots:
        raise click.ClickException("no agent transcript folders found to back up")
    if config.remote:
        commands = backups.remote_commands(roots, config)
        for command in commands:
            click.echo(("would run: " if dry_run else "running: ") + " ".join(command))
        if not dry_run:
            try:
                backups.run_remote(commands)
            except RuntimeError as error:
                raise click.ClickException(str(error)) from None
        click.echo(f"note: {backups.RAW}")
        return
    plan = backups.plan_local(roots, Path(config.destination))
    if dry_run:
        for source, target in plan.copies:
            click.echo(f"would copy {source} -> {target}")
    else:
        backups.copy_local(plan)
    verb = "would copy" if dry_run else "copied"
    click.echo(f"{verb} {len(plan.copies)} files to {config.destination}; {plan.unchanged} already there")
    click.echo(f"note: {backups.RAW}")
    old = settings.home.expanduser() / "backup"
    if old.is_dir() and Path(config.destination) != old:
        click.echo(f"note: {old} holds an earlier raw backup inside PICA_HOME; move or delete it")
