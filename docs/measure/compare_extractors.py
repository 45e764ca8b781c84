"""Compare document-to-Markdown libraries on ../shared/corpus/documents (one venv each).

python docs/measure/compare_extractors.py kreuzberg|markitdown|docling > results-NAME.json
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "documents"
FORMATS = ["pdf", "docx", "pptx", "xlsx", "odt", "ods", "odp", "rtf", "epub", "html"]


def converter(name: str):
    if name == "kreuzberg":
        from kreuzberg import ExtractionConfig, extract_file_sync

        config = ExtractionConfig(output_format="markdown")
        return lambda path: extract_file_sync(str(path), config=config).content
    if name == "markitdown":
        from markitdown import MarkItDown

        md = MarkItDown()
        return lambda path: md.convert(str(path)).text_content
    if name == "docling":
        from docling.document_converter import DocumentConverter

        dc = DocumentConverter()
        return lambda path: dc.convert(str(path)).document.export_to_markdown()
    raise SystemExit(f"unknown library {name}")


def main() -> None:
    name = sys.argv[1]
    started = time.perf_counter()
    convert = converter(name)
    setup = time.perf_counter() - started
    results = []
    for fmt in FORMATS:
        for path in sorted((CORPUS / fmt).rglob("*")):
            if not path.is_file():
                continue
            t = time.perf_counter()
            try:
                text = convert(path) or ""
                error = ""
            except BaseException as e:  # a comparison records every failure
                text, error = "", f"{type(e).__name__}: {str(e)[:160]}"
            results.append(
                {
                    "file": str(path.relative_to(CORPUS)),
                    "seconds": round(time.perf_counter() - t, 3),
                    "chars": len(text),
                    "words": len(text.split()),
                    "error": error,
                    "head": " ".join(text.split())[:200],
                }
            )
    print(
        json.dumps(
            {"library": name, "setup_s": round(setup, 2), "results": results},
            indent=1,
            ensure_ascii=False,
        )
    )


if __name__ == "__main__":
    main()
