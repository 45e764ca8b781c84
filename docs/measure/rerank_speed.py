"""How long a cross-encoder of MiniLM-L6's shape takes to rescore 40 candidates on this CPU.

    python docs/measure/rerank_speed.py

The model is randomly initialised (no cross-encoder can be downloaded here), so this measures
speed only, never ranking quality.
"""

from __future__ import annotations

import os
import random
import statistics
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")


def main() -> None:
    import torch
    from sentence_transformers import CrossEncoder

    from pica.stages.rerank import tiny_cross_encoder

    folder = tiny_cross_encoder(
        Path(tempfile.mkdtemp()) / "minilm-l6-shaped", hidden=384, layers=6, heads=12, intermediate=1536
    )
    rng = random.Random(0)
    words = ["index", "search", "vector", "chunk", "passage", "document", "kernel", "recipe", "stage",
             "latency", "fusion", "trust"]  # fmt: skip
    passages = [" ".join(rng.choices(words, k=rng.randint(80, 110))) for _ in range(40)]  # ~600 characters
    query = "how does the kernel fuse search results by trust"
    for threads in (1, 2):
        torch.set_num_threads(threads)
        for max_length in (256, 512):
            model = CrossEncoder(str(folder), max_length=max_length, device="cpu")
            pairs = [(query, p) for p in passages]
            model.predict(pairs, batch_size=40, show_progress_bar=False)  # warm
            times = []
            for _ in range(10):
                started = time.perf_counter()
                model.predict(pairs, batch_size=40, show_progress_bar=False)
                times.append(time.perf_counter() - started)
            print(
                f"threads={threads} max_length={max_length}: 40 pairs in median "
                f"{1000 * statistics.median(times):.0f} ms (min {1000 * min(times):.0f})"
            )


if __name__ == "__main__":
    main()
