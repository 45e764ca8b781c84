"""LanceDB after many small index runs (as watching a folder makes, one per edit), with and without
compaction (docs/benchmarks.md, "LanceDB compaction").

    python3 docs/measure/compaction.py [RUNS] [--no-compact]

300 notes are indexed into a fresh PICA_HOME; then RUNS times one note is edited and indexed.
Printed: each table's fragments, versions and size, and the median of five `get` and `status`.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path


def main() -> None:
    runs = int(next((a for a in sys.argv[1:] if a.isdigit()), "150"))
    root = Path(tempfile.mkdtemp(prefix="pica-compaction-"))
    os.environ["PICA_HOME"] = str(root / "home")
    from pica.indexing import index_one
    from pica.kernel import runner
    from pica.stages.store import lance_store

    if "--no-compact" in sys.argv:
        lance_store.COMPACT_AT = 10**9
    docs = root / "docs"
    docs.mkdir()
    for i in range(300):
        (docs / f"n{i:03}.md").write_text(
            f"---\ntitle: Note {i}\nowner: ana\n---\n" + f"harbour note {i} " * 200
        )
    variables = {"path": str(docs), "collection": "docs"}
    index_one("ingest/files", "docs", variables)
    started = time.perf_counter()
    for run in range(runs):
        note = docs / f"n{run % 300:03}.md"
        note.write_text(note.read_text() + f"\nedit {run}\n")
        index_one("ingest/files", "docs", variables)
    took = time.perf_counter() - started

    def median_ms(recipe: str, variables: dict) -> str:
        times = []
        for _ in range(5):
            begun = time.perf_counter()
            runner.run(recipe, variables=variables)
            times.append(time.perf_counter() - begun)
        return f"{statistics.median(times) * 1000:.0f} ms"

    store = lance_store.LanceStore(root / "home" / "lance")
    for name, table in (("documents", store.documents), ("chunks", store.chunks)):
        folder = root / "home" / "lance" / f"{name}.lance"
        size = sum(f.stat().st_size for f in folder.rglob("*") if f.is_file()) / 1e6
        fragments = table.stats()["fragment_stats"]["num_fragments"]
        print(f"{name}: {fragments} fragments, {len(table.list_versions())} versions, {size:.1f} MB")
    print(f"{runs} runs in {took:.1f} s; get {median_ms('search/get', {'id': 'docs/n007.md'})}, "
          f"status {median_ms('ingest/status', {})}")  # fmt: skip


if __name__ == "__main__":
    main()
