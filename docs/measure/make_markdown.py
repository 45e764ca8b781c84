"""Write a deterministic collection of Markdown files for indexing benchmarks.

python docs/measure/make_markdown.py /tmp/md20k 20000
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

WORDS = [
    "index", "search", "query", "vector", "chunk", "token", "embed", "rank", "score", "passage",
    "document", "collection", "folder", "file", "line", "heading", "title", "agent", "transcript",
    "session", "memory", "graph", "entity", "relation", "source", "trust", "fusion", "latency",
    "throughput", "cache", "disk", "crash", "commit", "version", "schema", "layout", "recipe",
    "stage", "kernel",
]  # fmt: skip


def main(root: Path, count: int) -> None:
    rng = random.Random(42)
    for n in range(count):
        folder = root / f"area{n % 50:02d}" / f"topic{n % 7}"
        folder.mkdir(parents=True, exist_ok=True)
        sections = []
        for s in range(rng.randint(1, 5)):
            paragraphs = [
                " ".join(rng.choices(WORDS, k=rng.randint(15, 80))) + "." for _ in range(rng.randint(1, 4))
            ]
            sections.append(f"## Section {s}\n\n" + "\n\n".join(paragraphs))
        tags = f"[{rng.choice(WORDS)}, {rng.choice(WORDS)}]"
        front = f"---\ntitle: Note {n}\ntags: {tags}\ncreated: 2024-{n % 12 + 1:02d}-01\n---\n"
        (folder / f"note{n:05d}.md").write_text(front + f"# Note {n}\n\n" + "\n\n".join(sections) + "\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]))
