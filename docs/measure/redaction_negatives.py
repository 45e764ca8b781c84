"""What the redactor changes in real material that holds no secrets: every file of
../shared/corpus/documents and ../shared/corpus/transcripts that is UTF-8 text.

    python docs/measure/redaction_negatives.py [--show]

Prints the number of redactions per class (each one a false positive, since the corpus holds
only published material) and, with --show, each redacted value with the 40 characters before it.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from pica.stages.secrets import find_secrets

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"


def texts() -> list[tuple[Path, str]]:
    found = []
    for root in ("documents", "transcripts"):
        for path in sorted((CORPUS / root).rglob("*")):
            try:
                found.append((path, path.read_text(encoding="utf-8")))
            except (UnicodeDecodeError, IsADirectoryError):
                continue  # binary formats (pdf, docx, epub) reach the redactor as extracted text
    return found


def main(show: bool) -> None:
    files = texts()
    per_class: Counter[str] = Counter()
    for path, text in files:
        for start, end, kind in find_secrets(text):
            per_class[kind] += 1
            if show:
                before = text[max(0, start - 40) : start].replace("\n", " ")
                print(f"{kind} {path.relative_to(CORPUS)}: {before!r} >> {text[start:end][:60]!r}")
    chars = sum(len(text) for _, text in files)
    print(
        f"{len(files)} text files, {chars / 1e6:.1f} M characters: "
        f"{sum(per_class.values())} redactions {dict(per_class)}"
    )


if __name__ == "__main__":
    main("--show" in sys.argv)
