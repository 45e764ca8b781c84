"""Read the pages behind web hits: their main text, extracted with trafilatura."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

from pydantic import Field

from pica.kernel.records import Hit
from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage
from pica.stages.secrets import redact
from pica.stages.web.fetch import Guard, fetch

MAX_PARALLEL = 8


class ReadParams(Params):
    top: int = Field(5, ge=0, le=50, description="How many of the first web hits to read.")
    max_bytes: int = Field(2_000_000, gt=0, description="Most bytes read of one page.")
    timeout_s: float = Field(5.0, gt=0, description="Seconds allowed for one page.")
    allow_private: bool = Field(False, description="Read pages on loopback and private addresses too.")
    allow_hosts: list[str] = Field(default=[], description="Hosts read even on private addresses.")


@stage
class ReadPages(Stage):
    """Replace the snippet of the first `top` web hits with the main text of their page; a page
    that cannot be read (refused, too slow, not HTML or text) keeps its snippet and is a warning."""

    id = "read.pages.v1"
    Params = ReadParams
    inputs = {"hits": list[Hit]}
    outputs = {"hits": list[Hit]}
    passthrough = {"hits": "hits"}
    timeout_s = 30.0
    on_error = "skip"

    @classmethod
    def example(cls, workdir: Path) -> Example:
        hit = Hit("file:///x", "file:///x", "web", "file:///x", "X", 0, 0, 1.0, "snippet", source="web")
        return Example(params={}, inputs={"hits": [hit]})  # refused: not http(s); the snippet stays

    def run(self, ctx: Context, hits: list[Hit]) -> dict[str, Any]:
        chosen = [n for n, hit in enumerate(hits) if hit.source == "web"][: self.params.top]
        if not chosen:
            return {"hits": hits}
        with ThreadPoolExecutor(min(MAX_PARALLEL, len(chosen))) as pool:
            texts = list(pool.map(lambda n: self._read(hits[n].path), chosen))
        read = list(hits)
        for n, text in zip(chosen, texts, strict=True):
            if isinstance(text, Exception):
                ctx.warn(f"{hits[n].path}: not read ({type(text).__name__}: {text}); its snippet stays")
            elif text:
                passage = redact(text)  # a page's text is shown, never stored: redacted here
                read[n] = replace(hits[n], passage=passage, metadata={**hits[n].metadata, "read": True})
        return {"hits": read}

    def _read(self, url: str) -> str | Exception:
        p = self.params
        try:
            page = fetch(
                url, Guard(p.allow_private, tuple(h.lower() for h in p.allow_hosts)), p.max_bytes, p.timeout_s
            )
            if page.content_type == "text/plain":
                return page.body.decode("utf-8", errors="replace").strip()
            if page.content_type not in ("text/html", "application/xhtml+xml"):
                raise ValueError(f"{page.content_type} is not a web page")
            import trafilatura

            return trafilatura.extract(page.body, url=page.url, include_comments=False) or ""
        except Exception as error:  # a page that cannot be read is reported, never fatal
            return error
