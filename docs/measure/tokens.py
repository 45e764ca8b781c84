"""The heuristic token count against OpenAI's cl100k_base on corpus text.

    python docs/measure/tokens.py

Samples (seeded): raw lines of the transcripts and knowledge graphs, and 2,000-character slices of
the Markdown and text documents. Prints the ratio heuristic / cl100k at p5, median and p95, and
the samples the heuristic counts below cl100k.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

from pica.stages.tokens import heuristic_tokens, token_counter

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"


def samples() -> list[str]:
    texts = []
    for path in [*CORPUS.glob("transcripts/**/*.jsonl"), *CORPUS.glob("kg/**/*.jsonl")]:
        texts += [line for line in path.read_text(errors="replace").splitlines() if 50 < len(line) < 20000]
    for path in [*CORPUS.glob("documents/**/*.md"), *CORPUS.glob("documents/**/*.txt")]:
        text = path.read_text(errors="replace")
        texts += [text[i : i + 2000] for i in range(0, len(text), 2000)]
    random.Random(1).shuffle(texts)
    return texts[:3000]


def main() -> None:
    exact = token_counter("tiktoken")
    texts = samples()
    ratios = sorted((heuristic_tokens(t) / max(1, exact(t)), t) for t in texts)
    n = len(ratios)
    print(f"{n} samples: heuristic / cl100k p5 {ratios[n // 20][0]:.2f}, median {ratios[n // 2][0]:.2f}, "
          f"p95 {ratios[-n // 20][0]:.2f}")  # fmt: skip
    under = [t for r, t in ratios if r < 1]
    blobs = [t for t in under if re.search(r"[A-Za-z0-9+/=_-]{200,}", t)]
    print(f"below cl100k: {len(under)}, of which {len(blobs)} hold a base64 or encrypted blob")


if __name__ == "__main__":
    main()
