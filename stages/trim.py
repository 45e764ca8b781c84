"""Fit a ranked list of hits into a token budget, best first, never over it."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from pydantic import Field

from pica.kernel.records import Hit
from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage
from pica.stages.tokens import TOKENIZERS, TokenCounter, cut_to_tokens, token_counter

MARK = " …"  # ends a passage that was cut


def hit_text(hit: Hit) -> str:
    """What a hit costs the reader: its citation, title, trust, metadata and passage."""
    head = f"{hit.id}:{hit.line_start}-{hit.line_end} [{hit.source}/{hit.trust}] {hit.title}"
    metadata = json.dumps(hit.metadata, ensure_ascii=False, default=str) if hit.metadata else ""
    places = " ".join(f"{c.get('source')}:{c.get('id')}" for c in hit.corroboration)
    return "\n".join(part for part in (head, metadata, places, hit.passage) if part)


class BudgetParams(Params):
    budget: int = Field(0, ge=0, description="Most tokens the whole list may cost; 0: no limit.")
    tokenizer: str = Field("heuristic", description=f"How tokens are counted: {', '.join(TOKENIZERS)}.")


@stage
class TrimBudget(Stage):
    """Keep hits in order while they fit the budget; the first that does not fit is cut to the
    tokens left (passage first, then metadata, then title) and the rest are dropped. Also says what
    the list costs, whether or not there is a budget."""

    id = "trim.budget.v1"
    Params = BudgetParams
    inputs = {"hits": list[Hit]}
    outputs = {"hits": list[Hit], "tokens": int}

    @classmethod
    def example(cls, workdir: Path) -> Example:
        hits = [Hit(f"d{n}", f"d{n}#0", "c", f"d{n}.md", "T", 1, 3, 1.0, "word " * 40) for n in range(3)]
        return Example(params={"budget": 60}, inputs={"hits": hits})

    def run(self, ctx: Context, hits: list[Hit]) -> dict[str, Any]:
        count = token_counter(self.params.tokenizer)
        budget = self.params.budget
        kept: list[Hit] = []
        total = 0
        for hit in hits:
            cost = count(hit_text(hit))
            if budget and total + cost > budget:
                cut = _cut(hit, budget - total, count)
                if cut is not None:
                    kept.append(cut)
                    total += count(hit_text(cut))
                break
            kept.append(hit)
            total += cost
        return {"hits": kept, "tokens": total}


def _cut(hit: Hit, left: int, count: TokenCounter) -> Hit | None:
    """The hit made to cost at most `left` tokens, or None when not even its citation fits."""
    bare = replace(hit, passage="")
    for smaller in (bare, replace(bare, metadata={}), replace(bare, metadata={}, corroboration=[])):
        room = left - count(hit_text(smaller))
        if room > count(MARK):  # a passage of a word or more
            passage = cut_to_tokens(hit.passage, room - count(MARK) - 1, count).rstrip()
            cut = replace(smaller, passage=passage + MARK if passage else "")
            if count(hit_text(cut)) <= left:
                return cut
        if room >= 0 and smaller is not bare:
            return smaller
    title_only = replace(bare, metadata={}, corroboration=[], title="")
    return title_only if count(hit_text(title_only)) <= left else None
