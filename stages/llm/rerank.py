"""LLM rerank: the model scores the best candidates for relevance to the query; anything short of a
well-formed answer leaves the order as it was, with a warning (fail open)."""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

from pydantic import Field

from pica.kernel.records import Hit
from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Stage
from pica.stages.llm import audit
from pica.stages.llm.client import Call, Model, ModelUnavailable
from pica.stages.llm.summarize import ModelParams, recorded

BATCH_PROMPT = (
    "Query: {query}\n\nPassages:\n{passages}\n\nRate how well each passage answers the query, "
    "from 0 (unrelated) to 10 (answers it exactly). "
    'Reply with JSON only: {{"scores": [{n} numbers, in passage order]}}'
)
ONE_PROMPT = (
    "Query: {query}\n\nPassage: {passage}\n\nHow well does the passage answer the query, from 0 (unrelated) "
    "to 10 (answers it exactly)? Reply with the number only."
)
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
KEPT = "the order stays as it was"


class LlmRerankParams(ModelParams):
    query: str = Field(description="The question the passages are scored against.")
    pool: int = Field(10, gt=0, le=100, description="How many of the best candidates the model scores.")
    batch: bool = Field(
        True, description="One prompt for the whole pool; false: one prompt per passage, in parallel."
    )
    parallel: int = Field(4, gt=0, le=16, description="Prompts at once when batch is false.")
    passage_chars: int = Field(500, gt=20, description="Each passage is cut to this many characters.")
    audit_log: str = Field("", description="The audit log (PICA_AUDIT_LOG); empty: none.")
    timeout_s: float = Field(30.0, gt=0, description="Seconds the model may take, in all.")


@stage
class RerankLlm(Stage):
    """Rescore the top candidates by asking a local model how well each answers the query; on any
    error, timeout or malformed answer the candidates keep their order (with a warning)."""

    id = "rerank.llm.v1"
    Params = LlmRerankParams
    inputs = {"hits": list[Hit]}
    outputs = {"hits": list[Hit]}
    passthrough = {"hits": "hits"}
    run_params = frozenset({"query", "pool"})
    on_error = "skip"

    @classmethod
    def example(cls, workdir: Path) -> Example:
        hits = [
            Hit(f"c/{n}", f"c/{n}#0", "c", str(n), "T", 1, 1, 1.0 / (n + 1), f"passage {n}") for n in range(3)
        ]
        return Example(
            params={"query": "passage 2", "host": recorded(workdir, '{"scores": [1, 2, 9]}')},
            inputs={"hits": hits},
        )

    def warm_up(self, ctx: Context) -> None:
        self.model = Model(self.params.host, self.params.model, self.params.timeout_s)

    def run(self, ctx: Context, hits: list[Hit]) -> dict[str, Any]:
        p = self.params
        head, tail = hits[: p.pool], hits[p.pool :]
        if len(head) < 2 or not p.query.strip():
            return {"hits": hits}
        passages = [f"{h.title}\n{h.passage}".strip()[: p.passage_chars] for h in head]
        calls: list[Call] = []
        try:
            scores = self._batch(passages, calls) if p.batch else self._each(passages, calls)
        except ModelUnavailable as error:
            ctx.warn(f"{error}; {KEPT}")
            return {"hits": hits}
        finally:
            for call in calls:
                audit.append(p.audit_log, call.record())
        if scores is None:
            ctx.warn(f"the model's scores were not {len(head)} numbers from 0 to 10; {KEPT}")
            return {"hits": hits}
        order = sorted(range(len(head)), key=lambda n: (-scores[n], n))  # ties keep their order
        top = max(h.score for h in hits)
        rescored = [replace(head[n], score=top + 1 + scores[n], via="llm-rerank") for n in order]
        return {"hits": rescored + tail}

    def _batch(self, passages: list[str], calls: list[Call]) -> list[float] | None:
        listed = "\n\n".join(f"[{n}] {text}" for n, text in enumerate(passages, 1))
        content = BATCH_PROMPT.format(query=self.params.query, passages=listed, n=len(passages))
        reply = self._chat([{"role": "user", "content": content}], calls, True, 8 * len(passages) + 24)
        return batch_scores(reply, len(passages))

    def _each(self, passages: list[str], calls: list[Call]) -> list[float] | None:
        prompts = [
            [{"role": "user", "content": ONE_PROMPT.format(query=self.params.query, passage=text)}]
            for text in passages
        ]
        with ThreadPoolExecutor(min(self.params.parallel, len(prompts))) as pool:
            replies = list(pool.map(lambda prompt: self._chat(prompt, calls, False, 6), prompts))
        scores = [one_score(reply) for reply in replies]
        return None if any(s is None for s in scores) else scores  # type: ignore[return-value]

    def _chat(
        self, prompt: list[dict[str, str]], calls: list[Call], json_format: bool, max_tokens: int
    ) -> str:
        try:
            reply, call = self.model.chat(prompt, "rerank", json_format=json_format, max_tokens=max_tokens)
        except ModelUnavailable as error:
            if error.call is not None:
                calls.append(error.call)
            raise
        calls.append(call)
        return reply


def _score(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 10:
        return None
    return float(value)


def batch_scores(reply: str, n: int) -> list[float] | None:
    """`{"scores": [n numbers 0..10]}` (or a bare list of them) from a reply, else None."""
    start, end = reply.find("{"), reply.rfind("}")
    candidates = [reply[start : end + 1]] if 0 <= start < end else []
    if "[" in reply:
        candidates.append(reply[reply.find("[") : reply.rfind("]") + 1])
    for text in candidates:
        try:
            data = json.loads(text)
        except ValueError:
            continue
        values = data.get("scores") if isinstance(data, dict) else data
        if isinstance(values, list) and len(values) == n:
            scores = [_score(v) for v in values]
            if all(s is not None for s in scores):
                return scores  # type: ignore[return-value]
    return None


def one_score(reply: str) -> float | None:
    match = NUMBER.search(reply)
    return _score(float(match.group(0))) if match else None
