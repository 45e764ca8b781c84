"""Reciprocal rank fusion of the ranked lists that several retrievers produced."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from pydantic import Field

from pica.kernel.records import Hit
from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage


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
