"""The `pica` command. Heavy libraries load inside commands, so `pica --help` answers at once."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click


class PicaGroup(click.Group):
    """Prints user errors as one clear message, and tracebacks only with PICA_DEBUG=1."""

    def main(self, *args, **kwargs):  # type: ignore[override]
        from pica.kernel.errors import PicaError

        try:
            return super().main(*args, standalone_mode=False, **kwargs)
        except click.exceptions.Exit as done:
            sys.exit(done.exit_code)
        except click.ClickException as error:
            error.show()
            sys.exit(error.exit_code)
        except click.exceptions.Abort:
            click.echo("interrupted", err=True)
            sys.exit(130)
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            sys.exit(130)
        except PicaError as error:
            if _debug():
                raise
            click.echo(f"error: {error}", err=True)
            sys.exit(2)
        except Exception as error:
            if _debug():
                raise
            click.echo(f"error: {type(error).__name__}: {error}", err=True)
            click.echo("(set PICA_DEBUG=1 to see the traceback)", err=True)
            sys.exit(1)


def _debug() -> bool:
    return os.environ.get("PICA_DEBUG", "").lower() in ("1", "true", "yes")


@click.group(cls=PicaGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pica")
def main() -> None:
    """Pica: local-first federated search for AI agents.

    Every job is a YAML recipe of stages; `pica run` runs one.
    """


@main.command(context_settings={"ignore_unknown_options": True})
@click.argument("recipe")
@click.argument("overrides", nargs=-1, type=click.UNPROCESSED)
@click.option("--dry-run", is_flag=True, help="Print the resolved plan; run nothing.")
@click.option("--print-config", is_flag=True, help="Print the composed configuration; run nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def run(recipe: str, overrides: tuple[str, ...], dry_run: bool, print_config: bool, as_json: bool) -> None:
    """Run RECIPE (a .yaml path or a bundled name like search/lexical).

    OVERRIDES are key=value: recipe variables (query="...", path=DIR, k=5), any key
    (stages.search.params.k=5), or team=NAME to apply configs/team/NAME.yaml on top.
    """
    from pica.kernel import render, runner
    from pica.kernel.records import to_plain

    if dry_run or print_config:
        plan = runner.plan(recipe, list(overrides))
        if print_config:
            import yaml

            click.echo(yaml.safe_dump(plan.config, sort_keys=False, allow_unicode=True).rstrip())
        if dry_run:
            click.echo(json.dumps(plan.to_dict(), indent=2) if as_json else render.render_plan(plan))
        return
    from pica.kernel.progress import Progress

    result = runner.run(recipe, list(overrides), progress=None if as_json else Progress())
    if as_json:
        payload = {"output": to_plain(result.output), "warnings": result.warnings}
        click.echo(json.dumps(payload, indent=2, ensure_ascii=False, default=str))
        return
    click.echo(render.render_output(result.output))
    for warning in result.warnings:
        click.echo(f"warning: {warning}", err=True)


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def stages(as_json: bool) -> None:
    """List every stage id with its description and params, and plugins that failed to load."""
    from pica.kernel.registry import registry

    found = registry.all()
    if as_json:
        click.echo(
            json.dumps(
                {
                    "stages": {
                        sid: {
                            "description": cls.description(),
                            "params": cls.Params.model_json_schema().get("properties", {}),
                        }
                        for sid, cls in found.items()
                    },
                    "failures": registry.failures,
                },
                indent=2,
            )
        )
        return
    for sid, cls in found.items():
        click.echo(f"{sid}  {cls.description()}")
        for name, field in cls.Params.model_fields.items():
            default = "required" if field.is_required() else f"default {field.default!r}"
            about = f" — {field.description}" if field.description else ""
            click.echo(f"    {name}: {_annotation(field.annotation)} ({default}){about}")
    for name, why in registry.failures.items():
        click.echo(f"failed to load {name}: {why}", err=True)


@main.command()
@click.argument("path", type=click.Path(file_okay=False, path_type=Path))
@click.option("--name", help="The collection's name (default: the folder's name).")
@click.option("--include", multiple=True, help="Only files matching this pattern (repeatable).")
@click.option("--exclude", multiple=True, help="Leave out paths matching this pattern (repeatable).")
@click.option("--text-field", multiple=True, help="JSON Lines: field(s) holding the text.")
@click.option("--id-field", multiple=True, help="JSON Lines: field(s) holding the record id.")
@click.option("--title-field", multiple=True, help="JSON Lines: field(s) holding the title.")
def add(path: Path, name: str | None, include, exclude, text_field, id_field, title_field) -> None:
    """Register the folder PATH as a collection (index it with `pica index`)."""
    from pica.kernel.collections import Collections
    from pica.kernel.settings import Settings

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
    name = name or path.expanduser().resolve().name
    added = Collections(Settings().home).add(path, name, options)
    click.echo(f"added collection '{added.name}' ({added.path}); run `pica index` to index it")


@main.command()
@click.argument("name")
def rm(name: str) -> None:
    """Remove collection NAME from the indexes (its files stay on disk)."""
    from pica.kernel import runner
    from pica.kernel.collections import Collections
    from pica.kernel.settings import Settings

    collections = Collections(Settings().home)
    collections.get(name)
    report = runner.run("ingest/remove", variables={"collection": name}).output
    collections.remove(name)
    click.echo(f"removed collection '{name}' ({report['documents_removed']} documents)")


@main.command()
@click.argument("names", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print what changed as JSON.")
def index(names: tuple[str, ...], as_json: bool) -> None:
    """Index every collection (or those NAMED): only files changed since the last run."""
    from pica.kernel import runner
    from pica.kernel.collections import Collections
    from pica.kernel.progress import Progress
    from pica.kernel.records import to_plain
    from pica.kernel.settings import Settings

    collections = Collections(Settings().home)
    chosen = [collections.get(n) for n in names] if names else collections.all()
    if not chosen:
        raise click.UsageError("no collections yet: add one with `pica add PATH --name NAME`")
    progress = Progress()
    results = {}
    for collection in chosen:
        progress.message(f"indexing '{collection.name}' ({collection.path})")
        variables = {"path": collection.path, "collection": collection.name, **collection.options}
        result = runner.run("ingest/files", variables=variables, progress=progress)
        stored = result.output["stored"]
        results[collection.name] = {
            "added_or_changed": len(stored.added),
            "removed": len(set(stored.removed) - set(stored.added)),
            "skipped": to_plain(result.output["skipped"]),
            "keyword_index": result.output["keyword"],
        }
        if not as_json:
            click.echo(
                f"{collection.name}: {len(stored.added)} documents added or changed, "
                f"{results[collection.name]['removed']} removed, "
                f"{len(result.output['skipped'])} files skipped"
            )
            for skipped in result.output["skipped"]:
                click.echo(f"  skipped {skipped.path}: {skipped.reason}")
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
    from pica.kernel import runner
    from pica.kernel.progress import Progress

    report = runner.run("ingest/embed", variables={"model": model}, progress=Progress()).output
    click.echo(
        f"embedded {report['embedded']:,} chunks with {report['model']}; "
        f"{report['remaining']:,} without a vector"
    )


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def status(as_json: bool) -> None:
    """Collections with their file, document, chunk and embedded counts, sizes and times."""
    from pica.kernel import runner
    from pica.kernel.collections import Collections
    from pica.kernel.settings import Settings

    home = Settings().home
    found = runner.run("ingest/status").output
    for collection in Collections(home).all():
        entry = found["collections"].setdefault(
            collection.name,
            {
                "files": 0,
                "skipped": 0,
                "indexed_at": None,
                "documents": 0,
                "chunks": 0,
                "embedded": 0,
                "skipped_files": [],
            },
        )
        entry["path"] = collection.path
    if as_json:
        click.echo(json.dumps({"home": str(home), **found}, indent=2, ensure_ascii=False))
        return
    click.echo(
        f"home {home}  (LanceDB {_size(found['lance_bytes'])}, keyword index {_size(found['keyword_bytes'])})"
    )
    columns = ("files", "skipped", "docs", "chunks", "embedded")
    click.echo(f"{'collection':20} " + " ".join(f"{c:>8}" for c in columns) + "  last indexed")
    for name, c in found["collections"].items():
        when = _time(c["indexed_at"])
        click.echo(
            f"{name:20} {c['files']:7} {c['skipped']:7} {c['documents']:7} {c['chunks']:8} "
            f"{c['embedded']:8}  {when}"
        )


def _size(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return str(n)


def _time(stamp: float | None) -> str:
    import datetime as dt

    return dt.datetime.fromtimestamp(stamp).strftime("%Y-%m-%d %H:%M:%S") if stamp else "never"


MODES = ("lexical", "grep", "semantic", "hybrid", "rerank")


@main.command(context_settings={"ignore_unknown_options": False})
@click.argument("query")
@click.option("--mode", "-m", type=click.Choice(MODES), default="lexical", show_default=True)
@click.option("-k", "k", type=int, default=10, show_default=True, help="How many results.")
@click.option("-c", "--collection", default="", help="Only this collection.")
@click.option("--path", "path_glob", default="", help="Only paths matching this glob.")
@click.option("-f", "--filter", "filters", multiple=True, help="FIELD=VALUE[,VALUE] (also != > >= < <=).")
@click.option("--fields", default="", help="Metadata fields to show: a,b or *.")
@click.option("--compact", is_flag=True, help="Leave out passage text.")
@click.option("--sort", default="", help="Sort by FIELD, or -FIELD for descending (default: score).")
@click.option("--all-passages", is_flag=True, help="Every matching passage, not one per document.")
@click.option("--regex", is_flag=True, help="grep: the query is a regular expression.")
@click.option("-i", "--ignore-case", is_flag=True, help="grep: match regardless of case.")
@click.option("--model", default=None, help="Embedding model (semantic, hybrid, rerank).")
@click.option("--reranker", default=None, help="Cross-encoder folder or cached hub id (rerank).")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def search(
    query: str,
    mode: str,
    k: int,
    collection: str,
    path_glob: str,
    filters: tuple[str, ...],
    fields: str,
    compact: bool,
    sort: str,
    all_passages: bool,
    regex: bool,
    ignore_case: bool,
    model: str | None,
    reranker: str | None,
    as_json: bool,
) -> None:
    """Search the local index for QUERY; one result per document with its best passage."""
    variables: dict = {
        "query": query,
        "k": k,
        "collection": collection,
        "path": path_glob,
        "filters": list(filters),
        "sort": sort,
        "compact": compact,
    }
    if all_passages:
        variables["all_passages"] = True
    if fields:
        variables["fields"] = [f.strip() for f in fields.split(",") if f.strip()]
    if mode == "grep":
        variables.update(regex=regex, ignore_case=ignore_case)
    if model and mode in ("semantic", "hybrid", "rerank"):
        variables["model"] = model
    if reranker and mode == "rerank":
        variables["reranker"] = reranker
    _print_hits(f"search/{mode}", variables, as_json, show_fields=bool(fields))


@main.command()
@click.argument("doc_id")
@click.option("-k", "k", type=int, default=10, show_default=True, help="How many results.")
@click.option("-c", "--collection", default="", help="Only this collection.")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def similar(doc_id: str, k: int, collection: str, as_json: bool) -> None:
    """Documents like DOC_ID (collection/path), from its chunk vectors."""
    _print_hits("search/similar", {"id": doc_id, "k": k, "collection": collection}, as_json, False)


def _print_hits(recipe: str, variables: dict, as_json: bool, show_fields: bool) -> None:
    from pica.kernel import render, runner
    from pica.kernel.records import to_plain

    result = runner.run(recipe, variables=variables)
    if as_json:
        click.echo(
            json.dumps(
                {"hits": to_plain(result.output), "warnings": result.warnings},
                indent=2,
                ensure_ascii=False,
                default=str,
            )
        )
    else:
        click.echo(render.render_hits(result.output, show_fields))
    for warning in [] if as_json else result.warnings:
        click.echo(f"warning: {warning}", err=True)


@main.command()
@click.argument("doc_id")
@click.option("--lines", default="", help="FIRST-LAST file lines, e.g. 14-23.")
@click.option("--fields", default="*", help="Metadata fields to show: a,b or *.")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def get(doc_id: str, lines: str, fields: str, as_json: bool) -> None:
    """Print document DOC_ID (or a range of its lines) as the index holds it."""
    from pica.kernel import runner

    chosen = [f.strip() for f in fields.split(",") if f.strip()]
    document = runner.run("search/get", variables={"id": doc_id, "lines": lines, "fields": chosen}).output
    if as_json:
        click.echo(json.dumps(document, indent=2, ensure_ascii=False, default=str))
        return
    click.echo(f"# {document['id']}:{document['line_start']}-{document['line_end']}  {document['title']}")
    for key, value in document["metadata"].items():
        click.echo(f"# {key}: {json.dumps(value, ensure_ascii=False, default=str)}")
    click.echo(document["text"])


@main.command()
@click.argument("target")
@click.option("--modes", default="", help="Comma-separated modes (default: the recipe's).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def bench(target: str, modes: str, as_json: bool) -> None:
    """Score search modes: TARGET is a questions .json file or a bench recipe (bench/scifact).

    Prints nDCG@10, MRR@10, Recall@10 and p50/p95 ms per mode; exits 1 if a row FAILs its
    expected score.
    """
    from pica.kernel import runner
    from pica.kernel.progress import Progress

    variables: dict = {}
    if modes:
        variables["modes"] = [m.strip() for m in modes.split(",") if m.strip()]
    if target.endswith(".json"):
        recipe, variables["questions"] = "bench/questions", str(Path(target).expanduser().resolve())
    else:
        recipe = target
    result = runner.run(recipe, variables=variables, progress=None if as_json else Progress())
    report = result.output
    if as_json:
        click.echo(json.dumps(report, indent=2))
    else:
        click.echo(_bench_table(report))
        for warning in result.warnings:
            click.echo(f"warning: {warning}", err=True)
    if report.get("ok") is False:
        sys.exit(1)


def _bench_table(report: dict) -> str:
    title = report.get("dataset", "questions")
    lines = [
        f"{title}: {report['questions']} questions"
        + (f", tolerance ±{report['tolerance']}" if "tolerance" in report else "")
    ]
    lines.append(
        f"{'mode':10} {'nDCG@10':>8} {'MRR@10':>8} {'R@10':>8} {'p50 ms':>8} {'p95 ms':>8}  expected"
    )
    for row in report["rows"]:
        expected = ", ".join(f"{k}={v}" for k, v in row.get("expected", {}).items())
        verdict = f"  {row['verdict']}" if row.get("verdict", "-") != "-" else ""
        lines.append(
            f"{row['mode']:10} {row['ndcg@10']:8.4f} {row['mrr@10']:8.4f} {row['recall@10']:8.4f} "
            f"{row['p50_ms']:8.2f} {row['p95_ms']:8.2f}  {expected}{verdict}"
        )
    return "\n".join(lines)


@main.command()
def recipes() -> None:
    """List the bundled recipes."""
    import yaml

    from pica.kernel.paths import RECIPES_DIR, bundled_recipes

    for path in bundled_recipes():
        about = (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("description", "")
        click.echo(f"{path.relative_to(RECIPES_DIR).with_suffix('')}  {about}")


def _annotation(annotation: object) -> str:
    text = getattr(annotation, "__name__", None) or str(annotation)
    return text.replace("typing.", "")


if __name__ == "__main__":
    main()
