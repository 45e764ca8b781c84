"""Rescore the best candidates with a cross-encoder that reads query and passage together."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Any

from pydantic import Field

from pica.kernel.records import Hit
from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage
from pica.stages.models import model_location

DEFAULT_MODEL = "cross-encoder/ms-marco-MiniLM-L6-v2"


class RerankParams(Params):
    query: str = Field(description="The question the passages are scored against.")
    model: str = Field(DEFAULT_MODEL, description="Cross-encoder: a local folder or a hub id already cached.")
    top_n: int = Field(40, gt=0, le=1000, description="How many of the best candidates to rescore.")
    batch_size: int = Field(40, gt=0, description="Pairs per model call.")
    max_length: int = Field(256, gt=8, description="Word pieces read per pair; the rest is cut.")
    # 40 pairs take ~0.68 s with both cores and ~1.3 s with one (docs/benchmarks.md).
    threads: int = Field(0, ge=0, description="Torch threads while scoring; 0 = one per core.")


@stage
class RerankCrossEncoder(Stage):
    """Rescore the top candidates with a sentence-transformers cross-encoder; the rest follow."""

    id = "rerank.cross_encoder.v1"
    Params = RerankParams
    inputs = {"hits": list[Hit]}
    outputs = {"hits": list[Hit]}
    run_params = frozenset({"query", "top_n", "batch_size"})
    timeout_s = 30.0  # the first query of a process loads the model
    on_error = "fail"  # asked for by name: without its model, say so rather than pass hybrid off as it

    @classmethod
    def example(cls, workdir: Path) -> Example:
        model = tiny_cross_encoder(workdir / "tiny-cross-encoder")
        hits = [
            Hit(f"c/{n}", f"c/{n}#0", "c", str(n), "T", 1, 1, 1.0 / (n + 1), f"passage {n}") for n in range(3)
        ]
        return Example(params={"query": "passage", "model": str(model)}, inputs={"hits": hits})

    def warm_up(self, ctx: Context) -> None:
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
        from sentence_transformers import CrossEncoder

        try:
            self.model = CrossEncoder(
                model_location(self.params.model),
                max_length=self.params.max_length,
                device="cpu",
                local_files_only=True,
            )
        except (LookupError, OSError, ValueError):
            raise LookupError(
                f"cross-encoder '{self.params.model}' is not on this machine and Pica downloads nothing: "
                "give a local model folder with --reranker FOLDER (reranker=FOLDER with pica run)"
            ) from None

    def run(self, ctx: Context, hits: list[Hit]) -> dict[str, Any]:
        head, tail = hits[: self.params.top_n], hits[self.params.top_n :]
        if not head or not self.params.query.strip():
            return {"hits": hits}
        import torch

        pairs = [(self.params.query, f"{h.title}\n{h.passage}") for h in head]
        # Torch's thread count is per process: set it for this batch, then give it back.
        previous = torch.get_num_threads()
        torch.set_num_threads(self.params.threads or os.cpu_count() or 1)
        try:
            scores = self.model.predict(pairs, batch_size=self.params.batch_size, show_progress_bar=False)
        finally:
            torch.set_num_threads(previous)
        rescored = sorted(
            (replace(h, score=float(s), via="rerank") for h, s in zip(head, scores, strict=True)),
            key=lambda h: -h.score,
        )
        return {"hits": rescored + tail}


def tiny_cross_encoder(
    folder: Path, hidden: int = 32, layers: int = 2, heads: int = 2, intermediate: int = 64
) -> Path:
    """A randomly initialised BERT cross-encoder saved to `folder`: real loading code, no download.

    Its scores mean nothing; it exists to exercise and time the rerank path. With hidden=384,
    layers=6, heads=12, intermediate=1536 it has the shape of ms-marco-MiniLM-L6.
    """
    if (folder / "config.json").exists():
        return folder
    import torch
    from transformers import AutoTokenizer, BertConfig, BertForSequenceClassification

    torch.manual_seed(0)
    tokenizer = AutoTokenizer.from_pretrained(model_location("all-MiniLM-L6-v2"))
    config = BertConfig(
        vocab_size=tokenizer.vocab_size,
        hidden_size=hidden,
        num_hidden_layers=layers,
        num_attention_heads=heads,
        intermediate_size=intermediate,
        num_labels=1,
        max_position_embeddings=512,
    )
    BertForSequenceClassification(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder
