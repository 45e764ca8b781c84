"""Reciprocal rank fusion of the ranked lists that several retrievers or providers produced."""

from __future__ import annotations

import hashlib
import re
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from pydantic import Field, model_validator

from pica.kernel.records import Hit
from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage
from pica.stages.terms import coverage, query_terms


class RrfParams(Params):
    k: int = Field(60, gt=0, description="RRF constant: score = sum of weight / (k + rank).")
    weights: dict[str, float] = Field(
        default={}, description="Weight per retriever (the hits' `via`); 1 when not given."
    )


@stage
class FuseRrf(Stage):
    """Fuse ranked hit lists (grouped by the retriever that found them) by reciprocal rank."""

    id = "fuse.rrf.v1"
    Params = RrfParams
    inputs = {"hits": list[Hit]}
    outputs = {"hits": list[Hit]}

    @classmethod
    def example(cls, workdir: Path) -> Example:
        def hit(chunk: str, via: str) -> Hit:
            return Hit(chunk.split("#")[0], chunk, "c", "a.md", "A", 1, 1, 1.0, "text", via=via)

        hits = [hit("a#0", "lexical"), hit("b#0", "lexical"), hit("b#0", "semantic"), hit("c#0", "semantic")]
        return Example(params={}, inputs={"hits": hits})

    def run(self, ctx: Context, hits: list[Hit]) -> dict[str, Any]:
        ranks: dict[str, int] = {}
        fused: dict[str, tuple[float, Hit]] = {}
        for hit in hits:  # each retriever's hits arrive best first
            rank = ranks[hit.via] = ranks.get(hit.via, 0) + 1
            contribution = self.params.weights.get(hit.via, 1.0) / (self.params.k + rank)
            score, first = fused.get(hit.chunk_id, (0.0, hit))
            fused[hit.chunk_id] = (score + contribution, first)
        ordered = sorted(fused.values(), key=lambda pair: -pair[0])
        return {"hits": [replace(hit, score=score, via="rrf") for score, hit in ordered]}


TIER_WEIGHTS = {"fact": 3.0, "reference": 2.0, "lead": 1.0, "stale": 0.3}
_NOT_WORD = re.compile(r"\W+", re.UNICODE)


class TrustParams(Params):
    k: int = Field(60, gt=0, description="RRF constant: a contribution is weight / (k + rank).")
    weights: dict[str, float] = Field(default=TIER_WEIGHTS, description="Weight per trust tier.")
    min_trust: str = Field("", description="Leave out hits of tiers weighing less than this one.")
    dedup: Literal["content", "url", "none"] = Field(
        "content", description="Collapse hits with the same normalised text, or the same URL."
    )
    query: str = Field("", description="The question, to measure how much of it each hit holds.")
    evidence: float = Field(
        0.0,
        ge=0,
        le=8,
        description=(
            "A hit's weight is its tier's times (share of the query's words it holds) ** evidence; "
            "0 is plain trust-weighted RRF. docs/federation.md has the measured choice."
        ),
    )
    similarity_lists: list[str] = Field(
        default=["vector", "semantic"],
        description="Lists (by `via`) whose scores are cosine similarities: their share is at least that.",
    )

    @model_validator(mode="after")
    def known_tier(self) -> TrustParams:
        if self.min_trust and self.min_trust not in self.weights:
            raise ValueError(f"min_trust '{self.min_trust}' is not a tier (tiers: {', '.join(self.weights)})")
        return self


@stage
class FuseTrust(Stage):
    """Fuse the ranked lists of several providers into one, by trust-weighted reciprocal rank.

    A list is the hits of one provider and retriever (`source`, `via`), best first. A hit adds
    `weight[trust] x share ** evidence / (k + rank)` to the score of its content, where share is
    how much of the query it holds (see `_evidence`); hits with the same normalised text (or URL)
    are one result, shown by its most trusted hit, that lists every other place it was found in
    `corroboration`. A list counts once per result, at its best rank.
    """

    id = "fuse.trust.v1"
    Params = TrustParams
    inputs = {"hits": list[Hit]}
    outputs = {"hits": list[Hit]}

    @classmethod
    def example(cls, workdir: Path) -> Example:
        def hit(doc: str, source: str, trust: str, text: str) -> Hit:
            return Hit(doc, f"{doc}#0", source, doc, doc, 1, 1, 1.0, text, source=source, trust=trust)

        hits = [
            hit("notes/a.md", "files", "reference", "The cache is flushed hourly."),
            hit("notes/b.md", "files", "reference", "Unrelated."),
            hit("kg/cache", "kg", "fact", "the cache is  FLUSHED hourly"),
        ]
        return Example(params={"query": "cache flush"}, inputs={"hits": hits})

    def run(self, ctx: Context, hits: list[Hit]) -> dict[str, Any]:
        p = self.params
        weights = p.weights
        floor = weights[p.min_trust] if p.min_trust else float("-inf")
        lists: dict[tuple[str, str], list[Hit]] = {}
        for hit in hits:  # each list's hits arrive best first
            lists.setdefault((hit.source, hit.via), []).append(hit)
        groups: dict[str, _Group] = {}
        for lst, ranked in lists.items():
            for rank, (hit, evidence) in enumerate(zip(ranked, self._evidence(ranked), strict=True), 1):
                weight = weights.get(hit.trust, weights.get("lead", 1.0))
                if weight < floor:
                    continue
                weight *= evidence
                group = groups.setdefault(self._key(hit), _Group())
                group.add(hit, lst, weight / (p.k + rank), weight)
        ordered = sorted(groups.values(), key=lambda g: -g.score)
        return {"hits": [g.result() for g in ordered]}

    def _evidence(self, ranked: list[Hit]) -> list[float]:
        """Per hit, share ** e, where share is the most of the query's words held by it or by any
        hit its list ranks below it (for embedding lists, at least the cosine similarity): a list's
        own order is kept (its ranker knows more than word counts); evidence only moves lists
        against each other."""
        if not self.params.evidence:
            return [1.0] * len(ranked)
        terms = query_terms(self.params.query)
        shares = [coverage(terms, f"{hit.title} {hit.passage}") for hit in ranked]
        if ranked[0].via in self.params.similarity_lists:  # a paraphrase shares few words but is close
            shares = [
                max(share, min(max(hit.score, 0.0), 1.0)) for share, hit in zip(shares, ranked, strict=True)
            ]
        for n in range(len(shares) - 2, -1, -1):
            shares[n] = max(shares[n], shares[n + 1])
        return [share**self.params.evidence for share in shares]

    def _key(self, hit: Hit) -> str:
        if self.params.dedup == "url":
            return normalise_url(hit.path or hit.id)
        text = _NOT_WORD.sub(" ", hit.passage.casefold()).strip()
        if self.params.dedup == "none" or not text:
            return f"{hit.source}\0{hit.chunk_id}"
        return hashlib.sha1(text.encode()).hexdigest()


class _Group:
    """The hits of one result: the contributions of each list, and who shows it."""

    def __init__(self) -> None:
        self.best: dict[tuple[str, str], float] = {}
        self.hits: list[tuple[float, Hit]] = []

    @property
    def score(self) -> float:
        return sum(self.best.values())

    def add(self, hit: Hit, lst: tuple[str, str], contribution: float, weight: float) -> None:
        self.best[lst] = max(self.best.get(lst, 0.0), contribution)
        self.hits.append((weight, hit))

    def result(self) -> Hit:
        shown = max(self.hits, key=lambda pair: pair[0])[1]  # most trusted; the earliest of equals
        seen = {(shown.source, shown.chunk_id)}
        places = []
        for _, hit in self.hits:
            if (hit.source, hit.chunk_id) not in seen:
                seen.add((hit.source, hit.chunk_id))
                places.append(
                    {
                        "source": hit.source,
                        "id": hit.id,
                        "collection": hit.collection,
                        "path": hit.path,
                        "lines": [hit.line_start, hit.line_end],
                        "trust": hit.trust,
                    }
                )
        return replace(shown, score=self.score, via="fused", corroboration=[*shown.corroboration, *places])


def normalise_url(url: str) -> str:
    """One spelling per page: lower-case scheme and host, no default port, fragment, tracking
    parameters or trailing slash, `www.` dropped."""
    parts = urlsplit(url.strip())
    if not parts.scheme or not parts.netloc:
        return url.strip()
    host = (parts.hostname or "").lower().removeprefix("www.")
    port = f":{parts.port}" if parts.port and parts.port not in (80, 443) else ""
    query = urlencode(sorted((k, v) for k, v in parse_qsl(parts.query) if not k.lower().startswith(TRACKING)))
    return urlunsplit((parts.scheme.lower(), host + port, parts.path.rstrip("/") or "/", query, ""))


TRACKING = ("utm_", "fbclid", "gclid", "mc_", "ref_src")
