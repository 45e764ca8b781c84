"""Where redaction's time goes: find_secrets over every transcript file as written, with each of
its parts timed (keyword search, unescaping, lowercasing, the keyed scan, credential calls'
arguments, tables, the second look at lines holding escaped quotes; the rules are the rest of
`secret_spans`).

    python docs/measure/redaction_parts.py

Prints the total and each part in seconds. The parts nest: `secret_spans` holds the keyed scan,
the arguments and the tables.
"""

from __future__ import annotations

import functools
import time
from collections import defaultdict
from pathlib import Path

import pica.stages.secrets as secrets

TRANSCRIPTS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "transcripts"
PARTS = ("unescaped", "lower", "keywords_in", "secret_spans", "find_keyed", "find_in_arguments", "tables_in")


def main() -> None:
    cost: dict[str, float] = defaultdict(float)

    def timed(name: str, function):  # type: ignore[no-untyped-def]
        @functools.wraps(function)
        def wrapper(*args, **kwargs):  # type: ignore[no-untyped-def]
            start = time.perf_counter()
            result = function(*args, **kwargs)
            if hasattr(result, "__next__"):
                result = list(result)  # a generator's work happens when it is read
            cost[name] += time.perf_counter() - start
            return result

        return wrapper

    for name in PARTS:
        setattr(secrets, name, timed(name, getattr(secrets, name)))
    texts = [p.read_text(errors="replace") for p in sorted(TRANSCRIPTS.rglob("*")) if p.is_file()]
    for text in texts[:3]:
        secrets.find_secrets(text)  # compile the rules first
    cost.clear()
    start = time.perf_counter()
    for text in texts:
        secrets.find_secrets(text)
    total = time.perf_counter() - start
    print(f"total {total:.3f} s for {sum(map(len, texts)) / 1e6:.2f} M characters")
    for name, seconds in sorted(cost.items(), key=lambda item: -item[1]):
        print(f"{name:18s} {seconds:.3f} s")


if __name__ == "__main__":
    main()
