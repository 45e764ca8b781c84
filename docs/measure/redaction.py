"""Redaction recall and false positives on ../shared/corpus/secrets/secrets.jsonl, per class, on
each part of a fixed split of that file.

    python docs/measure/redaction.py [--part dev|check] [--misses] [--markdown]
    python docs/measure/redaction.py --file OTHER.jsonl [--misses] [--markdown]
    python docs/measure/redaction.py --json [...]

`--file` measures another file of the same format as one part (named after the file), unsplit:
material from other tools' test suites, never used to write the rules. `--json` measures each text
as JSON logs, notebooks and escaped tool output hold it: as a JSON string (`{"content": "…"}`,
its line breaks `\\n` and its quotes `\\"`), the secret escaped the same way.

The split: within each class, lines ordered by (negative after positive, SHA-1 of the text) go
alternately to the development part (first, third, ...) and the check part, so every class with
two or more lines is in both. Rules are written looking at the development part's misses only; the
check part is the measurement of how they generalise.

Recall: the labelled secret is gone: no longer in the redacted text, or, where the same letters
also occur elsewhere (a password `bria` beside a host `briaserver`), its labelled occurrence (the
first) lies inside a redacted span. False positive: a negative (a string the source tools' tests
say must not be reported) that was changed at all.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections import defaultdict
from pathlib import Path

from pica.stages.secrets import find_secrets, redact

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "secrets" / "secrets.jsonl"
PARTS = ("dev", "check")


def split(rows: list[dict]) -> dict[str, list[dict]]:
    """The deterministic development / check split, stratified by class."""
    by_class: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        by_class[row["class"]].append(row)
    parts: dict[str, list[dict]] = {part: [] for part in PARTS}
    for members in by_class.values():
        members.sort(key=lambda r: (r["secret"] is None, hashlib.sha1(r["text"].encode()).hexdigest()))
        for n, row in enumerate(members):
            parts[PARTS[n % 2]].append(row)
    return parts


def removed(text: str, secret: str) -> bool:
    redacted = redact(text)
    if secret not in redacted:
        return True
    start = text.index(secret)
    return any(s <= start and start + len(secret) <= e for s, e, _ in find_secrets(text))


def measure(rows: list[dict]) -> tuple[dict[str, list[int]], list[tuple[str, str, str]]]:
    """Per class [found, positives, false positives, negatives], and the misses."""
    per_class: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    misses = []
    for row in rows:
        stats = per_class[row["class"]]
        if row["secret"]:
            stats[1] += 1
            if removed(row["text"], row["secret"]):
                stats[0] += 1
            else:
                misses.append(("MISS", row["class"], row["text"][:200]))
        else:
            stats[3] += 1
            redacted = redact(row["text"])
            if redacted != row["text"]:
                stats[2] += 1
                misses.append(("FP", row["class"], redacted[:200]))
    return per_class, misses


def as_json(row: dict) -> dict:
    """The row with its text inside a JSON string, and its secret escaped as that string holds it."""
    secret = row["secret"] and json.dumps(row["secret"], ensure_ascii=False)[1:-1]
    return {**row, "text": json.dumps({"content": row["text"]}, ensure_ascii=False), "secret": secret}


def totals(per_class: dict[str, list[int]]) -> str:
    found, positives, false, negatives = (sum(s[i] for s in per_class.values()) for i in range(4))
    return (
        f"recall {found}/{positives} = {found / max(positives, 1):.1%}; "
        f"false positives {false}/{negatives} = {false / max(negatives, 1):.1%}; {len(per_class)} classes"
    )


def table(results: dict[str, dict[str, list[int]]], markdown: bool) -> None:
    names = sorted({name for per_class in results.values() for name in per_class})

    def cell(stats: list[int] | None, a: int, b: int) -> str:
        return f"{stats[a]}/{stats[b]}" if stats and stats[b] else "-"

    head = [f"{part} {what}" for part in results for what in ("recall", "FP")]
    if markdown:
        print("| class | " + " | ".join(head) + " |")
        print("|---" * (len(head) + 1) + "|")
    else:
        print(f"{'class':32}" + "".join(f"{h:>13}" for h in head))
    for name in names:
        cells = []
        for per_class in results.values():
            stats = per_class.get(name)
            cells += [cell(stats, 0, 1), cell(stats, 2, 3)]
        if markdown:
            print(f"| `{name}` | " + " | ".join(cells) + " |")
        else:
            print(f"{name:32}" + "".join(f"{c:>13}" for c in cells))


def main(argv: list[str]) -> None:
    if "--file" in argv:
        other = Path(argv[argv.index("--file") + 1])
        parts = {other.stem: [json.loads(line) for line in other.open(encoding="utf-8")]}
    else:
        parts = split([json.loads(line) for line in CORPUS.open(encoding="utf-8")])
    if "--json" in argv:
        parts = {part: [as_json(row) for row in rows] for part, rows in parts.items()}
    chosen = [argv[argv.index("--part") + 1]] if "--part" in argv else list(parts)
    results, all_misses = {}, []
    for part in chosen:
        results[part], misses = measure(parts[part])
        all_misses += [(part, *miss) for miss in misses]
    table(results, "--markdown" in argv)
    print()
    if "--misses" in argv:
        for part, kind, name, text in all_misses:
            print(part, kind, name, repr(text))
        print()
    for part in chosen:  # last lines: one summary per part, read by tests/stages/test_redaction.py
        print(f"{part}: {totals(results[part])}")


if __name__ == "__main__":
    main(sys.argv[1:])
