"""The tools `pica serve` can expose. Each runs the recipe its tool set names, with the tool set's
defaults; results are structured and cite their source. No tool writes an answer.

(No `from __future__ import annotations` here: the MCP SDK reads these signatures' types.)
"""

import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from pica.kernel import runner
from pica.kernel.errors import PicaError, StageFailed
from pica.kernel.executor import RunResult, StageCache, execute
from pica.kernel.modes import search_modes
from pica.kernel.records import Hit, to_plain
from pica.kernel.settings import Settings
from pica.kernel.stage import Context
from pica.mcp.toolsets import ToolSpec

FEDERATED = ("default", "federated", "federated-hybrid")  # the modes that ask several providers
# The modes are the search recipes (pica/kernel/modes.py), read when the server starts, so a recipe
# added to recipes/search is a mode here too; the tool's schema lists them.
Mode = Literal[search_modes()]  # type: ignore[valid-type]
MODE_HELP = (
    "default: every provider, trust-ranked, local sources by BM25 and by embeddings where they have "
    "vectors (the notes say which); federated: the same by BM25 only; federated-hybrid: always both; "
    "grep: exact text; lexical: BM25; semantic: embeddings; hybrid: both; rerank: hybrid then a "
    "cross-encoder; llm-rerank: hybrid then a local model (Ollama) scores the top 10; expanded: the "
    "question and a local model's rephrasings, each searched by hybrid; files, transcripts, kg, vector, "
    "web: that provider alone."
)
Tier = Literal["fact", "reference", "lead", "stale"]
RANGES = {"gt": ">", "gte": ">=", "lt": "<", "lte": "<="}


class Citation(BaseModel):
    id: str = Field(description="Document id: pass it to `get` for the whole text.")
    title: str
    lines: list[int] = Field(description="First and last line of the passage in the file.")
    score: float
    source: str = Field(description="Provider: transcripts, files, kg, vector or web.")
    trust: str = Field(description="fact, reference, lead or stale.")
    # Left out of compact hits (None is not sent: pica/mcp/server.py):
    collection: str | None = None
    path: str | None = None
    passage: str | None = None
    metadata: dict[str, Any] | None = None
    corroboration: list[dict[str, Any]] | None = Field(
        default=None, description="Other places with the same content."
    )


COMPACT = ("id", "title", "lines", "score", "source", "trust")
DEFAULT_BUDGET = 3000  # counted over the JSON sent, generously: 6-8 KiB, under Codex's 10 KiB


class Hits(BaseModel):
    hits: list[Citation]
    tokens: int | None = Field(default=None, description="What the hits cost, when a budget was asked for.")
    warnings: list[str] = Field(default=[], description="Providers that failed or timed out, and why.")
    notes: list[str] = []


class Records(BaseModel):
    items: list[dict[str, Any]]
    warnings: list[str] = []
    notes: list[str] = Field(default=[], description="Why the list is empty, when it is.")


class Report(BaseModel):
    report: dict[str, Any]
    warnings: list[str] = []


def citation(hit: Hit, compact: bool = False) -> Citation:
    plain = {**to_plain(hit), "lines": [hit.line_start, hit.line_end]}
    plain["corroboration"] = plain.get("corroboration") or None  # said only when there is some
    fields = COMPACT if compact else Citation.model_fields
    return Citation(**{k: plain[k] for k in fields if k in plain})


def filter_strings(filters: dict[str, Any]) -> list[str]:
    """{"owner": "ana", "tags": ["a", "b"], "status": {"not": "done"}, "created": {"gte": "2024"}}
    as the shape stage's FIELD=VALUE strings."""
    out = []
    for field, wanted in filters.items():
        if isinstance(wanted, dict):
            unknown = set(wanted) - {"not", *RANGES}
            if unknown or not wanted:
                raise PicaError(
                    f"filter '{field}': use a value, a list, {{\"not\": ...}} or gt/gte/lt/lte, "
                    f"not {', '.join(sorted(unknown)) or 'an empty object'}"
                )
            if "not" in wanted:
                out.append(f"{field}!={_values(wanted['not'])}")
            out += [f"{field}{RANGES[op]}{value}" for op, value in wanted.items() if op in RANGES]
        else:
            out.append(f"{field}={_values(wanted)}")
    return out


def _values(value: Any) -> str:
    return ",".join(map(str, value)) if isinstance(value, list) else str(value)


class Tools:
    """What the tools share: settings; one stage cache, so models and index handles load once, on
    first use, and serve every later call; one plan cache, so a recipe is composed once. Stages
    read the index afresh each call, so what `pica index` changes elsewhere is seen at once."""

    def __init__(self, settings: Settings, specs: dict[str, ToolSpec]):
        self.settings = settings
        self.specs = specs
        self.cache = StageCache()
        self.plans = runner.PlanCache(settings)

    def run(self, recipe: str, variables: dict[str, Any]) -> RunResult:
        try:
            plan = self.plans.get(recipe, variables)
            return execute(plan, Context(settings=self.settings), self.cache)
        except StageFailed as error:  # a bad argument a stage found (no such session) says so plainly
            raise PicaError(error.reason) from None

    def recipe(self, tool: str) -> str:
        recipe = self.specs[tool].recipe
        if not isinstance(recipe, str) or not recipe:
            raise PicaError(f"the tool set gives {tool} no recipe (recipe: NAME)")
        return recipe

    # the tools

    def search(
        self,
        query: Annotated[
            str, Field(min_length=1, description="What to find: words, a phrase in quotes, a question.")
        ],
        mode: Annotated[Mode, Field(description=MODE_HELP)] = "default",
        k: Annotated[int, Field(ge=1, le=100, description="How many results.")] = 10,
        sources: Annotated[
            list[str] | None,
            Field(
                description=(
                    "federated: providers to ask (transcripts, files, kg, vector, web); "
                    "default: the local ones."
                )
            ),
        ] = None,
        collection: Annotated[
            str, Field(description="Only this collection (see the server's instructions).")
        ] = "",
        path: Annotated[str, Field(description="Only paths matching this glob, e.g. docs/**/*.md.")] = "",
        filters: Annotated[
            dict[str, Any] | None,
            Field(
                description=(
                    'Metadata filters: {"owner": "ana"}, {"tags": ["a", "b"]} (any of), '
                    '{"status": {"not": "done"}}, {"created": {"gte": "2024-01", "lt": "2025"}}.'
                )
            ),
        ] = None,
        fields: Annotated[
            list[str] | None, Field(description="Metadata fields to return; default all.")
        ] = None,
        compact: Annotated[
            bool,
            Field(description="Hits as id, title, lines, score, source, trust only (no passage, metadata)."),
        ] = False,
        all_passages: Annotated[
            bool, Field(description="Every matching passage, not one per document.")
        ] = False,
        sort: Annotated[
            str, Field(description="Sort by FIELD, or -FIELD for descending; default by score.")
        ] = "",
        budget_tokens: Annotated[
            int,
            Field(
                ge=0,
                description=(
                    "Most tokens the hits may cost, counted over the JSON sent and generously (about "
                    "1.5x a model's count); "
                    "the first hit that does not fit is cut short and the rest left out, and a note "
                    "says so. The default keeps an answer within the tool-output caps of Codex "
                    "(10 KiB) and Claude Code (25,000 tokens); 0: no limit."
                ),
            ),
        ] = DEFAULT_BUDGET,
        min_trust: Annotated[
            Tier | None, Field(description="federated: leave out tiers below this one.")
        ] = None,
        regex: Annotated[bool, Field(description="grep: the query is a regular expression.")] = False,
        ignore_case: Annotated[bool, Field(description="grep: match regardless of case.")] = False,
    ) -> Hits:
        """Search the user's sources at once (agent transcripts, document collections, knowledge
        graph, vector table, and the web when asked) and return trust-ranked hits that cite id,
        path and lines. Use `get` with a hit's id for the whole document."""
        variables: dict[str, Any] = {"query": query, "k": k, "collection": collection, "path": path,
                                     "filters": filter_strings(filters or {}), "sort": sort,
                                     "compact": compact}  # fmt: skip
        if all_passages:  # else the recipe's own (grep: every matching line)
            variables["all_passages"] = True
        if fields or compact:  # compact hits carry no metadata, so none may count against the budget
            variables["fields"] = [] if compact else fields
        if budget_tokens:
            variables["budget"] = budget_tokens
        for name, value in {"sources": sources, "min_trust": min_trust}.items():
            if value is not None and mode not in FEDERATED:
                raise PicaError(f"{name} works with the modes {', '.join(FEDERATED)}, not {mode}")
            if value is not None:
                variables[name] = value
        for name, value in {"regex": regex, "ignore_case": ignore_case}.items():
            if value and mode != "grep":
                raise PicaError(f"{name} works with the mode grep, not {mode}")
        if mode == "grep":
            variables.update(regex=regex, ignore_case=ignore_case)
        if regex:
            try:
                re.compile(query)
            except re.error as error:
                why = f"{error.msg} at position {error.pos}"
                raise PicaError(f"`query` is not a valid regular expression: {why}") from None
        result = self.run(self.recipe("search").format(mode=mode), variables)
        tokens = None
        if budget_tokens:
            from pica.stages.tokens import token_counter
            from pica.stages.trim import hit_text

            count = token_counter(self.settings.tokenizer)
            tokens = sum(count(hit_text(h)) for h in result.output)
        return Hits(
            hits=[citation(h, compact) for h in result.output],
            tokens=tokens,
            warnings=result.warnings,
            notes=result.notes,
        )

    def get(
        self,
        id: Annotated[
            str, Field(min_length=1, description="A document id from a hit, e.g. notes/ops/deploy.md.")
        ],
        lines: Annotated[
            str, Field(description="FIRST-LAST file lines, e.g. 14-23; empty: the whole document.")
        ] = "",
        fields: Annotated[
            list[str] | None, Field(description="Metadata fields to return; default all.")
        ] = None,
    ) -> Report:
        """One document (or a range of its lines) as the index holds it, with its metadata."""
        result = self.run(self.recipe("get"), {"id": id, "lines": lines, "fields": fields or ["*"]})
        return Report(report=result.output, warnings=result.warnings)

    def similar(
        self,
        id: Annotated[str, Field(min_length=1, description="A document id whose like to find.")],
        k: Annotated[int, Field(ge=1, le=100, description="How many results.")] = 10,
        collection: Annotated[str, Field(description="Only this collection.")] = "",
    ) -> Hits:
        """Documents like the given one, by their passages' embeddings (needs `pica embed`)."""
        result = self.run(self.recipe("similar"), {"id": id, "k": k, "collection": collection})
        return Hits(hits=[citation(h) for h in result.output], warnings=result.warnings, notes=result.notes)

    def recent(
        self,
        n: Annotated[int, Field(ge=1, le=1000, description="How many messages.")] = 30,
        session: Annotated[
            str, Field(description="A session id or unique prefix; default: the newest session.")
        ] = "",
    ) -> Records:
        """The latest messages of the newest agent session (or of the one named), oldest first."""
        return self._records("recent", {"session": session, "last": n})

    def session(
        self,
        id: Annotated[str, Field(min_length=1, description="A session id or a unique prefix of it.")],
    ) -> Records:
        """A whole agent session (Claude Code, Codex, Gemini) in order, message by message."""
        return self._records("session", {"session": id})

    def list_sessions(
        self,
        n: Annotated[int, Field(ge=1, le=1000, description="How many sessions, newest first.")] = 20,
        agent: Annotated[str, Field(description="Only claude-code, codex or gemini.")] = "",
        project: Annotated[str, Field(description="Only this project.")] = "",
    ) -> Records:
        """Recent agent sessions: id, agent, project, start, end and message count."""
        return self._records("list_sessions", {"n": n, "agent": agent, "project": project})

    def stats(self) -> Report:
        """Index size, when each source was last indexed, and counts per source and collection."""
        from pica.indexing import stats

        result = self.run(self.recipe("stats"), {})
        return Report(report=stats(self.settings, result.output), warnings=result.warnings)

    def status(self) -> Report:
        """Per collection: files, skipped files (and why), documents, chunks, embedded chunks,
        metadata fields, last indexed; sizes on disk."""
        result = self.run(self.recipe("status"), {})
        return Report(report=result.output, warnings=result.warnings)

    def reindex(
        self,
        names: Annotated[
            list[str] | None,
            Field(description="Collections or agents (claude-code, codex, gemini) to index; default all."),
        ] = None,
    ) -> Report:
        """Index what changed since the last run in every collection and agent transcript folder
        (or those named). Reads files; never writes to them."""
        from pica.indexing import index_one, planned_runs

        recipes = self.specs["reindex"].recipe
        runs = planned_runs(self.settings, tuple(names or ()), recipes if isinstance(recipes, dict) else None)
        return Report(report={name: index_one(recipe, name, variables) for recipe, name, variables in runs})

    def deepweb(
        self,
        question: Annotated[str, Field(min_length=1, description="The question.")],
        queries: Annotated[
            list[str] | None, Field(description="Other phrasings, searched at the same time.")
        ] = None,
        thorough: Annotated[
            bool, Field(description="Read the top pages' main text, not only snippets.")
        ] = False,
        k: Annotated[int, Field(ge=1, le=50, description="How many results.")] = 10,
        budget_tokens: Annotated[
            int, Field(ge=0, description="Most tokens the answer may cost; 0: no limit.")
        ] = 4000,
    ) -> Hits:
        """Ask the web several phrasings of a question at once; one result per page with the
        number of independent sites that say the same (metadata.corroborated_by)."""
        variables = {
            "query": question,
            "queries": queries or [],
            "thorough": thorough,
            "k": k,
            "budget": budget_tokens,
        }
        result = self.run(self.recipe("deepweb"), variables)
        hits = result.output["hits"]
        return Hits(
            hits=[citation(h) for h in hits],
            tokens=result.output["tokens"],
            warnings=result.warnings,
            notes=result.notes,
        )

    def summarize(
        self,
        session: Annotated[str, Field(min_length=1, description="A session id or a unique prefix of it.")],
        n_messages: Annotated[
            int, Field(ge=1, le=1000, description="Summarize the session's last N messages.")
        ] = 80,
    ) -> Report:
        """A local model's short summary of an agent session, returned only if six probes (length,
        names, identifiers, refusal, grounding, self-check) find nothing wrong: `trust` is `clean`
        with `summary`, or `degraded` with no summary, the failed probes' evidence and `see`. The
        summary is generated text: use `session` for what was actually said."""
        result = self.run(self.recipe("summarize"), {"session": session, "n_messages": n_messages})
        return Report(report=result.output, warnings=result.warnings)

    def _records(self, tool: str, variables: dict[str, Any]) -> Records:
        result = self.run(self.recipe(tool), variables)
        return Records(items=result.output, warnings=result.warnings, notes=result.notes)


TOOLS = (
    "search",
    "get",
    "similar",
    "recent",
    "session",
    "list_sessions",
    "stats",
    "status",
    "reindex",
    "deepweb",
    "summarize",
)
