"""`pica embed` throughput against the bare model's `encode` on the same chunks, in one process.

PICA_HOME=/tmp/embed-bench pica add ../shared/corpus/documents --name corpus
PICA_HOME=/tmp/embed-bench pica index
PICA_HOME=/tmp/embed-bench python docs/measure/embed_overhead.py
"""

from __future__ import annotations

import os
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")


def main() -> None:
    from pica.kernel.settings import Settings
    from pica.kernel.stage import Context
    from pica.stages.embed import EmbedChunks
    from pica.stages.models import MODEL_FILE
    from pica.stages.store.lance_store import LanceStore

    home = Settings().home
    store = LanceStore(home / "lance")
    store.chunks.update(values={"vector": None})  # start from nothing embedded
    (home / "lance" / MODEL_FILE).unlink(missing_ok=True)
    rows = store.pending(10**9)
    texts = [f"{title}\n{text}" for _, _, title, text in rows]

    threads = int(os.environ.get("THREADS", "0"))  # 0: one per core, as `pica embed` does
    stage = EmbedChunks(EmbedChunks.Params(home=str(home), lance_dir=str(home / "lance"), threads=threads))
    stage.warm_up(Context())
    stage.encode(texts[:32])  # warm the model up

    def bare_encode() -> float:
        started = time.perf_counter()
        stage.encode(texts)
        return time.perf_counter() - started

    before = bare_encode()
    started = time.perf_counter()
    report = stage.run(Context())["report"]
    pipeline = time.perf_counter() - started
    bare = (before + bare_encode()) / 2  # one run each side of the pipeline, against drift

    n = len(texts)
    print(f"{n} chunks, {threads or os.cpu_count()} torch threads")
    print(f"bare model encode: {bare:.1f} s = {n / bare:.1f} chunks/s")
    print(f"pica embed stage:  {pipeline:.1f} s = {report['embedded'] / pipeline:.1f} chunks/s")
    print(f"pipeline overhead: {100 * (pipeline / bare - 1):+.1f}%")


if __name__ == "__main__":
    main()
