"""Replace secrets in documents with `[REDACTED:<class>]` before anything is written."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

from pica.kernel.records import Document
from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage
from pica.stages.secrets import redact


class RedactParams(Params):
    pass


@stage
class RedactSecrets(Stage):
    """Redact secrets in each document's text, title and metadata; report how many per class."""

    id = "redact.secrets.v1"
    Params = RedactParams
    inputs = {"documents": list[Document]}
    outputs = {"documents": list[Document]}

    @classmethod
    def example(cls, workdir: Path) -> Example:
        doc = Document("c/a.md", "c", "a.md", "A", "token: ghp_" + "aB3dE5" * 6 + "\n")
        return Example(params={}, inputs={"documents": [doc]})

    def run(self, ctx: Context, documents: list[Document]) -> dict[str, Any]:
        found: Counter[str] = Counter()
        out = []
        for doc in documents:
            text = redact(doc.text, found)
            title = redact(doc.title, found)
            metadata = redact_value(doc.metadata, found)
            changed = text is not doc.text or title is not doc.title or metadata is not doc.metadata
            out.append(replace(doc, text=text, title=title, metadata=metadata) if changed else doc)
        if found:
            ctx.report(
                f"redacted {sum(found.values())} secrets: "
                + ", ".join(f"{kind} {n}" for kind, n in found.most_common())
            )
        return {"documents": out}


def redact_value(value: Any, found: Counter[str]) -> Any:
    """Strings inside metadata (nested dicts and lists too), redacted; unchanged values kept as is."""
    if isinstance(value, str):
        return redact(value, found)
    if isinstance(value, dict):
        items = {k: redact_value(v, found) for k, v in value.items()}
        return items if any(items[k] is not value[k] for k in value) else value
    if isinstance(value, list):
        values = [redact_value(v, found) for v in value]
        return values if any(a is not b for a, b in zip(values, value, strict=True)) else value
    return value
