"""Redaction speed on transcript text: find_secrets over every file of
../shared/corpus/transcripts: whole files as written, line by line, and decoded (the strings of
each JSON record joined, one text per record: what the transcript readers hand the redact stage,
with one level of JSON escaping fewer).

    python docs/measure/redaction_speed.py

Prints millions of characters per second for each; the best of three runs. The files as written
are JSON through and through, every quote inside a message escaped (`\\"`), which the redactor
also reads as a quote (a second look at each line holding one), so they are its slowest input.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

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


def strings(value: Any) -> list[str]:
    """Every string inside a decoded JSON value."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    return [s for item in value for s in strings(item)] if isinstance(value, list) else []


def decoded(line: str) -> str:
    try:
        return "\n".join(strings(json.loads(line)))
    except json.JSONDecodeError:
        return line


def main() -> None:
    files = [p.read_text(errors="replace") for p in sorted(TRANSCRIPTS.rglob("*.jsonl"))]
    lines = [line for text in files for line in text.splitlines()]
    chars = sum(map(len, files))
    print(f"{len(files)} files, {chars / 1e6:.1f} M characters")
    print(f"whole files: {best_rate(files, chars):.2f} M chars/s")
    print(f"line by line: {best_rate(lines, sum(map(len, lines))):.2f} M chars/s")
    records = [decoded(line) for line in lines]
    print(f"decoded records: {best_rate(records, sum(map(len, records))):.2f} M chars/s")


if __name__ == "__main__":
    main()
