"""Redaction recall and false positives on ../shared/corpus/secrets/secrets.jsonl, per class.

    python docs/measure/redaction.py [--misses]

Recall: the labelled secret is gone: no longer in the redacted text, or, where the same letters
also occur elsewhere (a password `bria` beside a host `briaserver`), its labelled occurrence (the
first) lies inside a redacted span. False positive: a negative (a string the source tools' tests
say must not be reported) that was changed at all.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

from pica.stages.secrets import find_secrets, redact

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "secrets" / "secrets.jsonl"


def removed(text: str, secret: str) -> bool:
    redacted = redact(text)
    if secret not in redacted:
        return True
    start = text.index(secret)
    return any(s <= start and start + len(secret) <= e for s, e, _ in find_secrets(text))


def main(show_misses: bool) -> None:
    rows = [json.loads(line) for line in CORPUS.open(encoding="utf-8")]
    per_class: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # found, positives, fp, negatives
    misses = []
    for row in rows:
        stats = per_class[row["class"]]
        if row["secret"]:
            stats[1] += 1
            if removed(row["text"], row["secret"]):
                stats[0] += 1
            else:
                misses.append(("MISS", row["class"], row["text"][:160]))
        else:
            stats[3] += 1
            redacted = redact(row["text"])
            if redacted != row["text"]:
                stats[2] += 1
                misses.append(("FP", row["class"], redacted[:160]))
    found = sum(s[0] for s in per_class.values())
    positives = sum(s[1] for s in per_class.values())
    false = sum(s[2] for s in per_class.values())
    negatives = sum(s[3] for s in per_class.values())
    print(f"{'class':32} {'recall':>8} {'false positives':>16}")
    for name, (f, p, fp, n) in sorted(per_class.items()):
        recall = f"{f}/{p}" if p else "-"
        fps = f"{fp}/{n}" if n else "-"
        print(f"{name:32} {recall:>8} {fps:>16}")
    print(
        f"\nrecall {found}/{positives} = {found / positives:.1%}; "
        f"false positives {false}/{negatives} = {false / negatives:.1%}; {len(per_class)} classes"
    )
    if show_misses:
        for kind, name, text in misses:
            print(kind, name, repr(text))


if __name__ == "__main__":
    main("--misses" in sys.argv)
