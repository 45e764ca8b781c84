"""`pica search`, `similar`, `get`, `bench`: the search recipes from the command line."""

from __future__ import annotations

import json
import os
import re
import sys
from datetime import datetime
from pathlib import Path

import click

from pica.cli import main

FEDERATED = ("default", "federated", "federated-hybrid")
TIERS = ("fact", "reference", "lead", "stale")
AGENTS = ("claude-code", "codex", "gemini")
ROLES = ("user", "assistant", "tool", "system")
MAX_K = 100  # as the MCP tool; the web provider answers at most 100
MOMENT = re.compile(r"\d{4}(-\d\d){0,2}(T\d\d(:\d\d){0,2})?")  # the forms --since and --until take
MOMENT_FORMS = ("%Y", "%Y-%m", "%Y-%m-%d", "%Y-%m-%dT%H", "%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S")


class ModeChoice(click.Choice):
    """The search modes are the search recipes (pica/kernel/modes.py), read when a search needs
    them, not when `pica --help` starts: reading them imports yaml."""

    def __init__(self) -> None:
        super().__init__(())

    @property
    def choices(self):  # type: ignore[override]
        from pica.kernel.modes import search_modes

        return search_modes()

    @choices.setter
    def choices(self, value) -> None:
        pass  # click.Choice sets its list in __init__; ours comes from the recipes


@main.command(context_settings={"ignore_unknown_options": False})
@click.argument("query")
@click.option(
    "--mode",
    "-m",
    type=ModeChoice(),
    default="default",
    show_default=True,
    help="default: every provider, trust-ranked, local sources by BM25 and by embeddings where they "
    "have vectors; federated: the same by BM25 only; federated-hybrid: always both; a provider "
    "(files, transcripts, kg, vector, web): it alone; the others search the local index only. "
    "Every search recipe in recipes/search is a mode.",
)
@click.option(
    "--sources", default="", help="federated: providers to ask, e.g. files,kg,web (default: local)."
)
@click.option("--min-trust", type=click.Choice(TIERS), default=None, help="federated: leave out lower tiers.")
@click.option(
    "--budget", type=click.IntRange(min=0), default=None, help="Most tokens the results may cost (any mode)."
)
@click.option(
    "-k", "k", type=click.IntRange(1, MAX_K), default=10, show_default=True, help="How many results."
)
@click.option("-c", "--collection", default="", help="Only this collection.")
@click.option("--path", "path_glob", default="", help="Only paths matching this glob.")
@click.option("-f", "--filter", "filters", multiple=True, help="FIELD=VALUE[,VALUE] (also != > >= < <=).")
@click.option("--project", default="", help="Transcripts: only this project.")
@click.option("--role", type=click.Choice(ROLES), default=None, help="Transcripts: only these messages.")
@click.option("--agent", type=click.Choice(AGENTS), default=None, help="Transcripts: only this agent's.")
@click.option(
    "--since",
    default="",
    callback=lambda ctx, param, value: _moment(value),
    help="Transcripts: from this date or time on (2026, 2026-05, 2026-05-01, 2026-05-01T10:30).",
)
@click.option(
    "--until",
    default="",
    callback=lambda ctx, param, value: _moment(value),
    help="Transcripts: up to this date or time (inclusive).",
)
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
    sources: str,
    min_trust: str | None,
    budget: int | None,
    k: int,
    collection: str,
    path_glob: str,
    filters: tuple[str, ...],
    project: str,
    role: str | None,
    agent: str | None,
    since: str,
    until: str,
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
    """Search for QUERY: by default every provider at once (transcripts, files, knowledge graph,
    your vector table), fused by trust; one result per document with its best passage."""
    if (regex or ignore_case) and mode != "grep":
        raise click.UsageError(f"--regex and -i work with the mode grep, not {mode}")
    if regex:
        from pica.stages.retrieve.grep import compiled

        try:
            compiled(query, True, ignore_case)
        except ValueError as error:
            raise click.BadParameter(str(error), param_hint="QUERY") from None
    for note in check_names(collection, filters, sort):
        click.echo(f"note: {note}", err=True)
    variables: dict = {
        "query": query,
        "k": k,
        "collection": collection,
        "path": path_glob,
        "filters": [*filters, *transcript_filters(project, role or "", agent or "", since, until)],
        "sort": sort,
        "compact": compact,
    }
    if all_passages:
        variables["all_passages"] = True
    if fields:
        variables["fields"] = _names(fields)
    if budget is not None:
        variables["budget"] = budget
    federated = {"sources": _names(sources) or None, "min_trust": min_trust}
    for option, value in federated.items():
        if value is not None and mode not in FEDERATED:
            raise click.UsageError(
                f"--{option.replace('_', '-')} works with the modes {', '.join(FEDERATED)}, not {mode}"
            )
        if value is not None:
            variables[option] = value
    if mode == "grep":
        variables.update(regex=regex, ignore_case=ignore_case)
    if model and mode in ("default", "federated-hybrid", "semantic", "hybrid", "rerank"):
        variables["model"] = model
    if reranker and mode == "rerank":
        variables["reranker"] = reranker
    _print_hits(f"search/{mode}", variables, as_json, show_fields=bool(fields), named_sources=bool(sources))


def _names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


def _moment(value: str) -> str:
    """A date or time as --since and --until take it (compared at the precision given)."""
    if value and not (MOMENT.fullmatch(value) and any(_parses(value, form) for form in MOMENT_FORMS)):
        raise click.BadParameter(
            f"'{value}' is not a date or time: use 2026, 2026-05, 2026-05-01 or 2026-05-01T10:30"
        )
    return value


def _parses(value: str, form: str) -> bool:
    try:
        datetime.strptime(value, form)
        return True
    except ValueError:
        return False


def check_names(collection: str, filters: tuple[str, ...], sort: str) -> list[str]:
    """Refuse a collection the index does not hold, or a sort field no document has; notes for
    filters on fields no document has. Reads the catalog and the keyword index's terms: no scan."""
    if not (collection or filters or sort):
        return []  # a search forwarded to `pica serve` loads nothing it does not need
    from pica.stages.filters import ATTRIBUTES, FILTER

    home = _home()
    if collection and collection not in (known := _collections(home)) | {"kg", "web"}:
        raise click.BadParameter(
            f"no collection '{collection}' (collections: {', '.join(sorted(known)) or 'none yet'})",
            param_hint="-c/--collection",
        )
    wanted = [match.group(1) for text in filters if (match := FILTER.match(text))]  # the rest: refused later
    field = sort.removeprefix("-")
    asked = [name for name in dict.fromkeys([*wanted, field]) if name and name not in ATTRIBUTES]
    if not asked or not (home / "tantivy").is_dir():
        return []
    missing, named = _absent_fields(home / "tantivy", asked, collection)
    where = f" in {collection}" if collection else ""
    fields = f"(fields: {', '.join(named) or 'none'}; and path, title, score, ...)"
    if field in missing:
        raise click.BadParameter(f"no document{where} has the field '{field}' {fields}", param_hint="--sort")
    return [f"no document{where} has the field '{name}' {fields}" for name in missing]


def _home() -> Path:
    """PICA_HOME as the settings read it (any case), without loading them: pydantic is slow to import."""
    value = next((v for k, v in os.environ.items() if k.upper() == "PICA_HOME"), None)
    return Path(value).expanduser() if value else Path.home() / ".pica"


def _collections(home: Path) -> set[str]:
    """The collections registered or indexed in this home."""
    from pica.stages.store.collections import Collections

    names = {c.name for c in Collections(home).all()}
    if (home / "catalog.sqlite").exists():
        from pica.stages.store.catalog import Catalog

        with Catalog(home) as catalog:
            names |= set(catalog.summary())
    return names


def _absent_fields(index_dir: Path, names: list[str], collection: str) -> tuple[list[str], list[str]]:
    """Of NAMES, the metadata fields no chunk has (asked of the index's term dictionary), and the
    fields of up to 200 chunks, to name some that exist."""
    import tantivy

    from pica.stages.index.keyword_index import open_for_search

    index = open_for_search(index_dir)
    searcher = index.searcher()
    within = tantivy.Query.term_query(index.schema, "collection", collection) if collection else None

    def count(query: tantivy.Query) -> int:
        if within is not None:
            query = tantivy.Query.boolean_query([(tantivy.Occur.Must, query), (tantivy.Occur.Must, within)])
        return searcher.search(query, limit=1).count

    # A JSON field's terms are the key, a 0 byte, then the value's type and value.
    missing = [
        name
        for name in names
        if not count(tantivy.Query.regex_query(index.schema, "metadata", re.escape(name) + "\x00.*"))
    ]
    sample = searcher.search(within or tantivy.Query.all_query(), limit=200).hits
    named = sorted({key for _, at in sample for key in json.loads(searcher.doc(at)["metadata_json"][0])})
    return missing, named


def transcript_filters(project: str, role: str, agent: str, since: str, until: str) -> list[str]:
    """The transcript options as metadata filters (timestamps compare at the precision given)."""
    named = [
        ("project=", project),
        ("role=", role),
        ("agent=", agent),
        ("timestamp>=", since),
        ("timestamp<=", until),
    ]
    return [f"{field}{value}" for field, value in named if value]


@main.command()
@click.argument("doc_id")
@click.option(
    "-k", "k", type=click.IntRange(1, MAX_K), default=10, show_default=True, help="How many results."
)
@click.option("-c", "--collection", default="", help="Only this collection.")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def similar(doc_id: str, k: int, collection: str, as_json: bool) -> None:
    """Documents like DOC_ID (collection/path), from its chunk vectors."""
    _print_hits("search/similar", {"id": doc_id, "k": k, "collection": collection}, as_json, False)


def _print_hits(
    recipe: str, variables: dict, as_json: bool, show_fields: bool, named_sources: bool = True
) -> None:
    from pica.cli.remote import run_remote
    from pica.kernel.records import to_plain

    # A running `pica serve` on this home answers warm, and renders the text itself, so this
    # process loads nothing heavy; without one, the recipe runs here.
    result = run_remote(recipe, variables, render=None if as_json else {"show_fields": show_fields})
    if result is None and recipe == "search/default":
        result = _default_without_server(variables)
    if result is None:
        from pica.kernel import runner

        result = runner.run(recipe, variables=variables)
    from pica import telemetry

    hits = len(result.output) if isinstance(result.output, list) else None  # None: not sent
    telemetry.note(mode=recipe.removeprefix("search/"), hits=hits)
    if as_json:
        # The shape of render.hits_payload, built here so a forwarded search imports nothing heavy.
        payload = {"hits": to_plain(result.output), "warnings": result.warnings, "notes": result.notes}
        if variables.get("budget"):
            from pica.cli import render
            from pica.kernel.settings import Settings

            payload["tokens"] = render.hits_tokens(result.output, Settings().tokenizer)
        click.echo(json.dumps(payload, indent=2, ensure_ascii=False, default=str))
    else:
        text = getattr(result, "text", None)
        if text is None:
            from pica.cli import render

            text = render.render_hits(result.output, show_fields)
        click.echo(text)
    for warning in [] if as_json else result.warnings:
        click.echo(f"warning: {warning}", err=True)
    for note in [] if as_json else result.notes:
        # "kg: not configured" matters when a provider was asked for by name, not on every search.
        if named_sources or "not configured" not in note:
            click.echo(f"note: {note}", err=True)


def _default_without_server(variables: dict):
    """The default search in a process of its own: BM25 alone. Embedding the question here would
    cost seconds of imports and model loading (docs/benchmarks.md); a running `pica serve` has
    them loaded, so with one the default mode uses embeddings too."""
    from pica.kernel import runner
    from pica.kernel.settings import Settings
    from pica.stages.models import recorded_model

    result = runner.run("search/federated", variables=variables)
    if recorded_model(Settings().home / "lance"):
        result.notes.append(
            "ranked by BM25 alone: embeddings are used when `pica serve` runs (this process would "
            "spend seconds loading them); -m federated-hybrid uses them anyway"
        )
    else:
        result.notes.append("ranked by BM25 alone: no chunk has a vector yet (`pica embed` adds them)")
    return result


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
    click.echo(front_matter(document))
    click.echo(document["text"])


def front_matter(document: dict) -> str:
    """Where the text comes from and its metadata, as a YAML block between `---` lines, so that
    it never runs into the text's own Markdown."""
    import yaml

    head = {
        "id": document["id"],
        "lines": f"{document['line_start']}-{document['line_end']}",
        "title": document["title"],
    }
    if document["metadata"]:
        head["metadata"] = json.loads(json.dumps(document["metadata"], default=str))  # plain values
    block = yaml.safe_dump(head, sort_keys=False, allow_unicode=True, width=1_000_000)
    return f"---\n{block}---"


@main.command()
@click.argument("target")
@click.option("--modes", default="", help="Comma-separated modes (default: the recipe's).")
@click.option("--dataset", default=None, help="A bench recipe's dataset folder (or set PICA_DATASETS).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def bench(target: str, modes: str, dataset: str | None, as_json: bool) -> None:
    """Score search modes: TARGET is a questions .json file or a bench recipe (bench/scifact).

    Prints nDCG@10, MRR@10, Recall@10 and p50/p95 ms per mode; exits 1 if a row FAILs its
    expected score.
    """
    from pica.cli.progress import Progress
    from pica.kernel import runner
    from pica.stages.bench.evaluate import known_modes

    variables: dict = {}
    if modes:
        try:
            variables["modes"] = known_modes(_names(modes))
        except ValueError as error:
            raise click.BadParameter(str(error), param_hint="--modes") from None
    if target.endswith(".json"):
        if dataset is not None:
            raise click.UsageError(
                "--dataset is for bench recipes (bench/cranfield); questions are asked of the index"
            )
        recipe, variables["questions"] = "bench/questions", str(Path(target).expanduser().resolve())
    else:
        recipe = target
        if dataset is not None:
            variables["dataset"] = str(Path(dataset).expanduser().resolve())
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
        f"{'mode':16} {'nDCG@10':>8} {'MRR@10':>8} {'R@10':>8} {'p50 ms':>8} {'p95 ms':>8} {'empty':>6}"
        "  expected"
    )
    for row in report["rows"]:
        expected = ", ".join(f"{k}={v}" for k, v in row.get("expected", {}).items())
        verdict = f"  {row['verdict']}" if row.get("verdict", "-") != "-" else ""
        lines.append(
            f"{row['mode']:16} {row['ndcg@10']:8.4f} {row['mrr@10']:8.4f} {row['recall@10']:8.4f} "
            f"{row['p50_ms']:8.2f} {row['p95_ms']:8.2f} {row.get('empty', 0):6}  {expected}{verdict}"
        )
    return "\n".join(lines)


@main.command()
@click.argument("question")
@click.option("--q", "queries", multiple=True, help="Another phrasing, searched at the same time.")
@click.option("--thorough", is_flag=True, help="Read the top pages' main text, not only snippets.")
@click.option(
    "-k", "k", type=click.IntRange(1, MAX_K), default=10, show_default=True, help="How many results."
)
@click.option(
    "--budget", type=click.IntRange(min=0), default=4000, show_default=True, help="Most tokens; 0: no limit."
)
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def deepweb(
    question: str, queries: tuple[str, ...], thorough: bool, k: int, budget: int, as_json: bool
) -> None:
    """Ask the web (PICA_WEB_URL, SearXNG-compatible) QUESTION in several phrasings at once; one
    result per page, with how many independent sites corroborate it and what the answer costs."""
    from pica.cli import render
    from pica.kernel import runner
    from pica.kernel.errors import PicaError
    from pica.kernel.records import to_plain

    variables = {"query": question, "queries": list(queries), "thorough": thorough, "k": k, "budget": budget}
    result = runner.run("search/deepweb", variables=variables)
    if not result.output["hits"] and any("not configured" in note for note in result.notes):
        raise PicaError("deepweb needs a web search endpoint: set PICA_WEB_URL (a SearXNG-compatible URL)")
    if as_json:
        answer = {**to_plain(result.output), "warnings": result.warnings, "notes": result.notes}
        click.echo(json.dumps(answer, indent=2, ensure_ascii=False, default=str))
        return
    click.echo(render.render_hits(result.output["hits"]))
    click.echo(f"\n{len(result.output['hits'])} results, {result.output['tokens']} tokens")
    for warning in result.warnings:
        click.echo(f"warning: {warning}", err=True)
