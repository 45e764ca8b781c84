"""Redaction speed on transcript text: find_secrets over every file of
../shared/corpus/transcripts, whole files (as the redact stage sees documents) and line by line.

    python docs/measure/redaction_speed.py

Prints millions of characters per second for each; the best of three runs.
"""

from __future__ import annotations

import time
from pathlib import Path

from pica.stages.secrets import find_secrets

TRANSCRIPTS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "transcripts"


def best_rate(items: list[str], chars: int) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for item in items:
            find_secrets(item)
        best = min(best, time.perf_counter() - start)
    return chars / best / 1e6


def main() -> None:
    files = [p.read_text(errors="replace") for p in sorted(TRANSCRIPTS.rglob("*.jsonl"))]
    lines = [line for text in files for line in text.splitlines()]
    chars = sum(map(len, files))
    print(f"{len(files)} files, {chars / 1e6:.1f} M characters")
    print(f"whole files: {best_rate(files, chars):.2f} M chars/s")
    print(f"line by line: {best_rate(lines, sum(map(len, lines))):.2f} M chars/s")


if __name__ == "__main__":
    main()
