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
    """What a hit costs the reader: the hit as an agent gets it, compact JSON with the keys, quotes
    and the id repeated in collection and path (the MCP tools and `--json` send that; counting the
    text alone let ten-odd short hits cost twice their budget). The command line shows less."""
    cited = {
        "id": hit.id, "title": hit.title, "lines": [hit.line_start, hit.line_end], "score": hit.score,
        "source": hit.source, "trust": hit.trust, "collection": hit.collection, "path": hit.path,
        "passage": hit.passage, "metadata": hit.metadata, "corroboration": hit.corroboration,
    }  # fmt: skip
    shown = {key: value for key, value in cited.items() if value not in ("", {}, [])}
    return json.dumps(shown, ensure_ascii=False, separators=(",", ":"), default=str)


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
                # Said, so a reader of the list knows it is not all there is.
                last = " (the last cut short)" if cut is not None else ""
                ctx.note(f"{len(kept)} of {len(hits)} hits fit the budget of {budget} tokens{last}; "
                         "a larger budget, or compact hits, would show more", run_wide=True)  # fmt: skip
                break
            kept.append(hit)
            total += cost
        return {"hits": kept, "tokens": total}


def _cut(hit: Hit, left: int, count: TokenCounter) -> Hit | None:
    """The hit made to cost at most `left` tokens, or None when not even its citation fits."""
    bare = replace(hit, passage="")
    for smaller in (bare, replace(bare, metadata={}), replace(bare, metadata={}, corroboration=[])):
        room = left - count(hit_text(smaller)) - count(MARK) - 1
        while room > 0:  # a passage of a word or more; escaped in JSON it may cost more: shrink
            passage = cut_to_tokens(hit.passage, room, count).rstrip()
            if not passage:
                break
            cut = replace(smaller, passage=passage + MARK)
            over = count(hit_text(cut)) - left
            if over <= 0:
                return cut
            room -= over
        if count(hit_text(smaller)) <= left and smaller is not bare:
            return smaller
    title_only = replace(bare, metadata={}, corroboration=[], title="")
    return title_only if count(hit_text(title_only)) <= left else None
