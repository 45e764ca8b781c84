"""How often a word taken from a CJK passage finds that passage, old tokenizer against new.

    python docs/measure/cjk_recall.py [CORPUS]

Passages are the lines of the shared corpus's Chinese documents; queries are 2-4 character
substrings of their CJK runs (seeded). The old index is Tantivy's en_stem (a run of Han
characters is one token); the new one is Pica's (each character a token; a query's run searched
as overlapping bigram phrases). Reports success@10 (the passage among the first 10) and how many
queries found nothing.
"""

from __future__ import annotations

import json
import random
import re
import sys
import tempfile
from pathlib import Path

import tantivy

from pica.stages.index.keyword_index import STEMMED, analyzer
from pica.stages.retrieve.query import QueryBuilder

RUN = re.compile(r"[\u4e00-\u9fff]{4,}")


def passages(corpus: Path) -> list[str]:
    lines = (corpus / "documents/md/langchain-chatchat/大模型应用技术原理.md").read_text().splitlines()
    for line in (corpus / "documents/jsonl/pyserini/documents.jsonl").read_text().splitlines():
        lines.append(json.loads(line)["contents"])
    return [line for line in lines if RUN.search(line)]


def build(texts: list[str], tokenizer: str) -> tantivy.Index:
    schema = tantivy.SchemaBuilder().add_text_field("text", stored=True, tokenizer_name=tokenizer).build()
    index = tantivy.Index(schema, path=tempfile.mkdtemp())
    index.register_tokenizer(STEMMED, analyzer(STEMMED))
    writer = index.writer(num_threads=1)
    for n, text in enumerate(texts):
        writer.add_document(tantivy.Document(text=f"{n}\n{text}"))
    writer.commit()
    index.reload()
    return index


def main(corpus: Path) -> None:
    texts = passages(corpus)
    rng = random.Random(7)
    queries = []
    for n, text in enumerate(texts):
        for run in RUN.findall(text)[:3]:
            size = rng.randint(2, min(4, len(run)))
            start = rng.randrange(len(run) - size + 1)
            queries.append((n, run[start : start + size]))
    old, new = build(texts, "en_stem"), build(texts, STEMMED)
    builder = QueryBuilder(new.schema, 1.0, 0.25, True, fields=["text"])
    for name, index, make in (
        ("en_stem (before)", old, lambda q: old.parse_query(q, ["text"])),
        ("CJK characters + bigram phrases (after)", new, builder.build),
    ):
        searcher, found, empty = index.searcher(), 0, 0
        for n, query in queries:
            hits = searcher.search(make(query), limit=10).hits
            top = [int(searcher.doc(address)["text"][0].split("\n", 1)[0]) for _, address in hits]
            found += n in top
            empty += not hits
        print(f"{name}: {len(queries)} queries, success@10 {found / len(queries):.3f}, empty {empty}")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/corpus"))
