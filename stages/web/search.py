"""A SearXNG-compatible JSON search endpoint as a provider; several phrasings at once."""

from __future__ import annotations

import json
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from pydantic import Field

from pica.kernel.records import Hit
from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage
from pica.stages.redact import redact_hit

USER_AGENT = "pica (local-first search; +https://github.com/)"
MAX_PARALLEL = 8


class WebParams(Params):
    url: str = Field(
        "", description="The endpoint, e.g. http://127.0.0.1:8888 (file:// a saved answer); empty: none."
    )
    query: str = Field(description="The question.")
    queries: list[str] = Field(default=[], description="More phrasings, searched in parallel with it.")
    k: int = Field(10, gt=0, le=100, description="Results kept per phrasing.")
    language: str = Field("", description="SearXNG language code (e.g. en); empty: the endpoint's.")
    categories: str = Field("", description="SearXNG categories (e.g. general,it); empty: its default.")
    timeout_s: float = Field(5.0, gt=0, description="Seconds per request.")
    trust: str = Field("lead", description="Trust tier of what it finds.")


@stage
class RetrieveWeb(Stage):
    """Ask a SearXNG-compatible endpoint (GET /search?format=json) each phrasing of the question at
    once; every phrasing's results are a ranked list of their own (`via` q0, q1, ...). A phrasing
    that fails is a warning; only when all fail does the provider fail."""

    id = "retrieve.web.v1"
    Params = WebParams
    outputs = {"hits": list[Hit]}
    run_params = frozenset({"query", "queries", "k", "trust", "language", "categories"})
    timeout_s = 10.0
    on_error = "skip"

    @classmethod
    def example(cls, workdir: Path) -> Example:
        answer = workdir / "searxng.json"
        results = [{"url": "https://example.org/a", "title": "A", "content": "alpha", "engine": "x"}]
        answer.write_text(json.dumps({"query": "alpha", "results": results}), encoding="utf-8")
        return Example(params={"url": answer.as_uri(), "query": "alpha"})

    def run(self, ctx: Context) -> dict[str, Any]:
        p = self.params
        if not p.url:
            ctx.note("not configured: set PICA_WEB_URL to a SearXNG-compatible endpoint")
            return {"hits": []}
        phrasings = [q for q in dict.fromkeys([p.query, *p.queries]) if q.strip()]
        if not phrasings:
            return {"hits": []}
        with ThreadPoolExecutor(min(MAX_PARALLEL, len(phrasings))) as pool:
            answers = list(pool.map(self._ask_safely, phrasings))
        failures = [(q, a) for q, a in zip(phrasings, answers, strict=True) if isinstance(a, Exception)]
        if len(failures) == len(phrasings):
            raise failures[0][1]
        for query, error in failures:
            ctx.warn(f"phrasing {query!r} failed: {type(error).__name__}: {error}")
        hits = []
        for n, answer in enumerate(answers):
            if not isinstance(answer, Exception):
                hits += [self._hit(result, f"q{n}") for result in answer[: p.k]]
        return {"hits": hits}

    def _ask_safely(self, query: str) -> list[dict[str, Any]] | Exception:
        try:
            return self._ask(query)
        except Exception as error:  # reported by run, per phrasing
            return error

    def _ask(self, query: str) -> list[dict[str, Any]]:
        import urllib.request  # ~10 ms of imports a search without the web does not pay

        p = self.params
        base = p.url.rstrip("/")
        if base.startswith("file:"):  # a saved answer, replayed for every phrasing (offline runs)
            endpoint = base
            data = json.loads(Path(urllib.request.url2pathname(urllib.parse.urlsplit(base).path)).read_text())
        else:
            endpoint = base if base.endswith("/search") else f"{base}/search"
            arguments = {"q": query, "format": "json", "language": p.language, "categories": p.categories}
            address = f"{endpoint}?{urllib.parse.urlencode({k: v for k, v in arguments.items() if v})}"
            request = urllib.request.Request(address, headers={"User-Agent": USER_AGENT})
            with urllib.request.urlopen(request, timeout=p.timeout_s) as response:
                data = json.loads(response.read(10_000_000))
        results = data.get("results") if isinstance(data, dict) else None
        if not isinstance(results, list):
            raise ValueError(f"{endpoint} answered without a 'results' list; is it SearXNG with format=json?")
        return [r for r in results if isinstance(r, dict) and isinstance(r.get("url"), str)]

    def _hit(self, result: dict[str, Any], via: str) -> Hit:
        url = result["url"]
        engines = result.get("engines") or ([result["engine"]] if result.get("engine") else [])
        metadata = {"domain": urllib.parse.urlsplit(url).hostname or "", "engines": engines}
        if result.get("publishedDate"):
            metadata["published"] = result["publishedDate"]
        hit = Hit(
            id=url,
            chunk_id=url,
            collection="web",
            path=url,
            title=str(result.get("title") or url),
            line_start=0,
            line_end=0,
            score=float(result.get("score") or 0.0),
            passage=str(result.get("content") or ""),
            source="web",
            metadata=metadata,
            trust=self.params.trust,
            via=via,
        )
        return redact_hit(hit)  # what the web says is shown, never stored: redacted here
