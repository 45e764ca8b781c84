"""Query expansion: the model writes other phrasings of a question (keywords, a paraphrase, a
hypothetical answer passage, as qmd does); each is searched and the lists fused by reciprocal rank."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from pica.kernel.records import Hit
from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage
from pica.stages.llm import audit
from pica.stages.llm.client import Model, ModelUnavailable
from pica.stages.llm.summarize import ModelParams, recorded

# One short prompt per kind of phrasing (asked at once): small models follow "X, and nothing else"
# far better than a multi-line format.
KINDS = {
    "lex": "Give the 3 to 8 keywords a search engine should look for to answer this question, "
    "separated by spaces, and nothing else.\n\nQuestion: {query}",
    "vec": "Say this question again in other words, as one question, and nothing else.\n\nQuestion: {query}",
    "hyde": "Write two sentences that answer this question the way a document about it would, and "
    "nothing else.\n\nQuestion: {query}",
}
LABEL = re.compile(
    r"^\W*(?:keywords?|question|answer|rephrased|rewritten|lex|vec|hyde)\s*:\s*", re.IGNORECASE
)


class ExpandParams(ModelParams):
    query: str = Field(description="The question.")
    kinds: list[Literal["lex", "vec", "hyde"]] = Field(
        default=["lex", "vec", "hyde"], description="Which phrasings to ask for: lex, vec, hyde."
    )
    given: list[str] = Field(
        default=[], description="Phrasings the caller gave: when any, the model is not asked."
    )
    enabled: bool = Field(True, description="false: ask nothing (no model configured).")
    audit_log: str = Field("", description="The audit log (PICA_AUDIT_LOG); empty: none.")
    timeout_s: float = Field(30.0, gt=0, description="Seconds the model may take.")
    max_chars: int = Field(400, gt=10, description="Each phrasing is cut to this many characters.")


@stage
class ExpandLlm(Stage):
    """Ask a local model for other phrasings of a question (keywords, a paraphrase, a hypothetical
    answer), one short prompt each, at once; none (with a warning) when it fails."""

    id = "expand.llm.v1"
    Params = ExpandParams
    outputs = {"queries": list[str]}
    run_params = frozenset({"query", "given"})

    @classmethod
    def example(cls, workdir: Path) -> Example:
        replies = ["retry backoff", "How long should a client wait between retries?", "Retries wait longer."]
        return Example(params={"query": "retry delay", "host": recorded(workdir, *replies)})

    def warm_up(self, ctx: Context) -> None:
        self.model = Model(self.params.host, self.params.model, self.params.timeout_s)

    def run(self, ctx: Context) -> dict[str, Any]:
        p = self.params
        if p.given or not p.query.strip():
            return {"queries": []}
        if not p.enabled:
            return {"queries": []}
        with ThreadPoolExecutor(len(p.kinds)) as pool:
            answers = list(pool.map(self._ask, p.kinds))
        for answer in answers:
            audit.append(p.audit_log, answer[1])
        failures = [answer[2] for answer in answers if answer[2]]
        queries = unique([clean(reply, p.max_chars) for reply, _, _ in answers], p.query)
        if failures and len(failures) == len(answers):
            ctx.warn(f"{failures[0]}; searched for the question alone")
        elif not queries:
            ctx.warn("the model wrote no usable phrasings; searched for the question alone")
        return {"queries": queries}

    def _ask(self, kind: str) -> tuple[str, dict, str]:
        """(reply, the call's audit record, why it failed or "")."""
        content = KINDS[kind].format(query=self.params.query)
        try:
            reply, call = self.model.chat([{"role": "user", "content": content}], "expand", max_tokens=120)
        except ModelUnavailable as error:
            return "", error.call.record() if error.call else {}, str(error)
        return reply, {**call.record(), "kind": kind}, ""


def clean(reply: str, max_chars: int) -> str:
    """The first paragraph of a reply, without a label ("Keywords:") or quotes, cut to max_chars."""
    first = next((part.strip() for part in reply.strip().split("\n\n") if part.strip()), "")
    first = LABEL.sub("", " ".join(first.split())).strip().strip('"').strip()
    return first[:max_chars]


def unique(phrasings: list[str], query: str) -> list[str]:
    """Each phrasing once, none the question itself, none empty."""
    seen, out = {" ".join(query.lower().split())}, []
    for text in phrasings:
        key = " ".join(text.lower().split())
        if key and key not in seen:
            seen.add(key)
            out.append(text)
    return out


class PhrasingsParams(Params):
    recipe: str = Field("search/hybrid", description="The search recipe each phrasing runs.")
    query: str = Field(description="The question; searched first, with `original_weight`.")
    k: int = Field(30, gt=0, le=1000, description="Hits each phrasing's search hands on.")
    variables: dict[str, Any] = Field(
        default={}, description="More variables for the search recipe (collection, path, filters)."
    )
    include_query: bool = Field(
        True, description="Search the question itself too (false: only the phrasings)."
    )
    original_weight: float = Field(
        2.0, gt=0, description="RRF weight of the question's own list; each phrasing's is 1."
    )
    rrf_k: int = Field(60, gt=0, description="RRF constant.")


@stage
class SearchPhrasings(Stage):
    """Search the question and each other phrasing with one search recipe, fuse by reciprocal rank."""

    id = "search.phrasings.v1"
    Params = PhrasingsParams
    inputs = {"queries": list[str]}
    outputs = {"hits": list[Hit]}
    run_params = frozenset({"query"})
    timeout_s = 60.0

    @classmethod
    def example(cls, workdir: Path) -> Example:
        from pica.stages.retrieve.lexical import RetrieveLexical

        index = RetrieveLexical.example(workdir).params["index_dir"]
        recipe = workdir / "lexical.yaml"
        recipe.write_text(
            "kind: search\nquery: ???\nk: 10\nstages:\n  search:\n    use: retrieve.lexical.v1\n"
            f"    params: {{index_dir: '{index}', query: '${{query}}', k: '${{k}}'}}\noutput: search.hits\n",
            encoding="utf-8",
        )
        return Example(params={"recipe": str(recipe), "query": "alpha"}, inputs={"queries": ["alpha beta"]})

    def warm_up(self, ctx: Context) -> None:
        from pica.kernel.executor import StageCache
        from pica.kernel.settings import Settings

        self.settings = ctx.settings or Settings()
        self.plan = None  # composed on first use: a deepweb without phrasings never needs it
        self.cache = StageCache()

    def _plan(self):
        from pica.kernel import runner

        if self.plan is None:
            variables = {**self.params.variables, "query": "warm up", "k": self.params.k}
            self.plan = runner.plan(self.params.recipe, settings=self.settings, variables=variables)
        return self.plan

    def run(self, ctx: Context, queries: list[str]) -> dict[str, Any]:
        from pica.kernel.executor import execute

        p = self.params
        fused: dict[str, tuple[float, Hit]] = {}
        asked = [p.query, *queries] if p.include_query else [None, *queries]
        for n, query in enumerate(asked):
            if ctx.cancelled.is_set():
                break
            if query is None:
                continue
            inner = Context(settings=self.settings, cancelled=ctx.cancelled)
            result = execute(self._plan().with_params(query=query, pattern=query), inner, self.cache)
            if n == 0:
                for warning in result.warnings:
                    ctx.warn(warning)
            weight = p.original_weight if n == 0 else 1.0
            for rank, hit in enumerate(result.output or [], 1):
                score, first = fused.get(hit.chunk_id, (0.0, hit))
                fused[hit.chunk_id] = (score + weight / (p.rrf_k + rank), first)
        ordered = sorted(fused.values(), key=lambda pair: -pair[0])
        return {"hits": [replace(hit, score=score, via="expanded") for score, hit in ordered]}
