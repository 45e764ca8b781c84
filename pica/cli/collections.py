"""`pica add`, `rm`, `index`, `embed`, `status`: document collections, through their recipes."""

from __future__ import annotations

import json
from pathlib import Path

import click

from pica.cli import main


@main.command()
@click.argument("path", type=click.Path(file_okay=False, path_type=Path))
@click.option("--name", help="The collection's name (default: the folder's name).")
@click.option("--include", multiple=True, help="Only files matching this pattern (repeatable).")
@click.option("--exclude", multiple=True, help="Leave out paths matching this pattern (repeatable).")
@click.option("--text-field", multiple=True, help="JSON Lines: field(s) holding the text.")
@click.option("--id-field", multiple=True, help="JSON Lines: field(s) holding the record id.")
@click.option("--title-field", multiple=True, help="JSON Lines: field(s) holding the title.")
@click.option(
    "--batch",
    type=click.IntRange(min=1),
    default=None,
    help="Changed files read per run (default 5000); lower it for folders of large files.",
)
def add(path: Path, name: str | None, include, exclude, text_field, id_field, title_field, batch) -> None:
    """Register the folder PATH as a collection (index it with `pica index`)."""
    from pica.kernel.settings import Settings
    from pica.stages.store.collections import Collections

    options = {
        key: list(values)
        for key, values in {
            "include": include,
            "exclude": exclude,
            "jsonl_text_fields": text_field,
            "jsonl_id_fields": id_field,
            "jsonl_title_fields": title_field,
        }.items()
        if values
    }
    if batch:
        options["batch"] = batch
    name = name or path.expanduser().resolve().name
    added = Collections(Settings().home).add(path, name, options)
    click.echo(f"added collection '{added.name}' ({added.path}); run `pica index` to index it")


@main.command()
@click.argument("name")
def rm(name: str) -> None:
    """Remove collection NAME from the indexes (its files stay on disk): a registered folder, an
    agent's transcripts (claude-code, codex, gemini) or one a recipe run made."""
    from pica.indexing import held
    from pica.kernel import runner
    from pica.kernel.errors import PicaError
    from pica.kernel.settings import Settings
    from pica.stages.store.collections import Collections

    settings = Settings()
    collections = Collections(settings.home)
    registered = name in {c.name for c in collections.all()}
    if not registered and name not in (names := held(settings)):
        raise PicaError(f"no collection '{name}' (collections: {', '.join(names) or 'none'})")
    report = runner.run("ingest/remove", settings=settings, variables={"collection": name}).output
    if registered:
        collections.remove(name)
    click.echo(f"removed collection '{name}' ({report['documents_removed']} documents)")
    root = settings.transcript_roots().get(name)
    if root is not None and root.is_dir():
        click.echo(f"note: the next `pica index` reads {root} again (`pica index NAME` indexes NAME only)")


@main.command()
@click.argument("names", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print what changed as JSON.")
def index(names: tuple[str, ...], as_json: bool) -> None:
    """Index every collection and this machine's agent transcripts (or those NAMED: a collection,
    or claude-code, codex, gemini): only what changed since the last run."""
    from pica.cli.progress import Progress
    from pica.indexing import index_one, planned_runs
    from pica.kernel.settings import Settings

    settings = Settings()
    runs = planned_runs(settings, names)
    if not runs:
        looked = ", ".join(str(root) for root in settings.transcript_roots().values())
        click.echo(
            f"nothing to index: no agent transcripts in {looked}, and no collections "
            "(add a folder with `pica add PATH --name NAME`)"
        )
        return
    results = {}
    with Progress() as progress:
        for recipe, name, variables in runs:
            results[name] = result = index_one(recipe, name, variables, progress)
            if not as_json:
                click.echo(
                    f"{name}: {result['added_or_changed']} documents added or changed, "
                    f"{result['removed']} removed, {len(result['skipped'])} skipped"
                )
                if result["redacted"]:
                    click.echo(f"  redacted {_counts(result['redacted'])}")
                for entry in result["skipped"]:
                    click.echo(f"  skipped {entry['path']}: {entry['reason']}")
    if as_json:
        click.echo(json.dumps(results, indent=2, ensure_ascii=False))


@main.command()
@click.option(
    "--model",
    default="all-MiniLM-L6-v2",
    show_default=True,
    help="Embedding model: name, folder or hub id.",
)
def embed(model: str) -> None:
    """Embed every chunk that has no vector yet (resumes where an interrupted run stopped)."""
    from pica.cli.progress import Progress
    from pica.kernel import runner

    with Progress() as progress:
        report = runner.run("ingest/embed", variables={"model": model}, progress=progress).output
    click.echo(
        f"embedded {report['embedded']:,} chunks with {report['model']}; "
        f"{report['remaining']:,} without a vector"
    )


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def status(as_json: bool) -> None:
    """Collections with their file, document, chunk and embedded counts, sizes and times."""
    from pica.kernel import runner
    from pica.kernel.settings import Settings
    from pica.stages.store.collections import Collections

    home = Settings().home
    registered = Collections(home).all()
    found = runner.run("ingest/status", variables={"collections": [c.name for c in registered]}).output
    for collection in registered:
        found["collections"][collection.name]["path"] = collection.path
    if as_json:
        click.echo(json.dumps({"home": str(home), **found}, indent=2, ensure_ascii=False))
        return
    click.echo(
        f"home {home}  (LanceDB {_size(found['lance_bytes'])}, keyword index {_size(found['keyword_bytes'])})"
    )
    columns = {"files": "files", "skipped": "skipped", "documents": "docs", "chunks": "chunks",
               "embedded": "embedded"}  # fmt: skip
    click.echo(f"{'collection':20} " + " ".join(f"{c:>8}" for c in columns.values()) + "  last indexed")
    for name, c in found["collections"].items():
        counts = " ".join(f"{c[key]:8}" for key in columns)
        click.echo(f"{name:20} {counts}  {_time(c['indexed_at'])}")


def _counts(found: dict[str, int]) -> str:
    """`3 secrets: github_token 2, slack_token 1` (the counts come most frequent first)."""
    return f"{sum(found.values())} secrets: " + ", ".join(f"{kind} {n}" for kind, n in found.items())


def _size(n: float) -> str:
    for unit in ("B", "KB", "MB"):
        if n < 1024:
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} GB"


def _time(stamp: float | None) -> str:
    import datetime as dt

    return dt.datetime.fromtimestamp(stamp).strftime("%Y-%m-%d %H:%M:%S") if stamp else "never"
