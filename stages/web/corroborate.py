"""How many independent sites say the same thing as each web hit."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from pydantic import Field

from pica.kernel.records import Hit
from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage
from pica.stages.terms import STOPWORDS, WORD, fold

# Second-level labels under which a registrable domain has three labels (bbc.co.uk).
SECOND_LEVEL = {"co", "com", "org", "net", "ac", "gov", "edu"}


def site(url: str) -> str:
    """The registrable domain of a URL, roughly (no public-suffix list): news.bbc.co.uk -> bbc.co.uk."""
    host = (urlsplit(url).hostname or url).lower().removeprefix("www.")
    labels = host.split(".")
    if host.replace(".", "").isdigit() or ":" in host or len(labels) <= 2:
        return host
    keep = 3 if labels[-2] in SECOND_LEVEL and len(labels[-1]) == 2 else 2
    return ".".join(labels[-keep:])


class CorroborateParams(Params):
    overlap: float = Field(
        0.5, gt=0, le=1, description="Share of the shorter text's words two hits must have in common."
    )
    min_words: int = Field(5, gt=0, description="Texts with fewer distinct words corroborate nothing.")


@stage
class CorroborateSites(Stage):
    """Add `sites` (the independent domains saying it) and `corroborated_by` (their number) to each
    hit's metadata: the hit's own domain, those of the places it was merged from, and those of
    other hits whose text mostly repeats it (shared words / words of the shorter text >= overlap)."""

    id = "web.corroborate.v1"
    Params = CorroborateParams
    inputs = {"hits": list[Hit]}
    outputs = {"hits": list[Hit]}

    @classmethod
    def example(cls, workdir: Path) -> Example:
        text = "The tower is 330 metres tall and was finished in 1889 for the fair"

        def hit(url: str, passage: str) -> Hit:
            return Hit(url, url, "web", url, "T", 0, 0, 1.0, passage, source="web")

        hits = [
            hit("https://a.example.org/x", text),
            hit("https://b.example.com/y", text + "."),
            hit("https://c.net/z", "other"),
        ]
        return Example(params={}, inputs={"hits": hits})

    def run(self, ctx: Context, hits: list[Hit]) -> dict[str, Any]:
        words = [{w for w in WORD.findall(fold(h.passage)) if w not in STOPWORDS} for h in hits]
        out = []
        for n, hit in enumerate(hits):
            sites = {site(hit.path)} | {
                site(c.get("path", "")) for c in hit.corroboration if c.get("source") == "web"
            }
            for m, other in enumerate(hits):
                if m != n and self._repeats(words[n], words[m]):
                    sites.add(site(other.path))
            metadata = {**hit.metadata, "sites": sorted(sites), "corroborated_by": len(sites)}
            out.append(replace(hit, metadata=metadata))
        return {"hits": out}

    def _repeats(self, a: set[str], b: set[str]) -> bool:
        shorter = min(len(a), len(b))
        return shorter >= self.params.min_words and len(a & b) / shorter >= self.params.overlap
