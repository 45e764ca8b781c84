"""How many word pieces do chunks of each size take? (all-MiniLM-L6-v2 reads 256.)

PICA_HOME=/tmp/corpus-home pica add ../shared/corpus/documents --name corpus && pica index
PICA_HOME=/tmp/corpus-home python docs/measure/chunk_size.py
"""

from __future__ import annotations

import os
import statistics

from pica.kernel.settings import Settings
from pica.stages.chunk import split_lines
from pica.stages.models import model_location
from pica.stages.store.lance_store import LanceStore

os.environ.setdefault("HF_HUB_OFFLINE", "1")


def main() -> None:
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(model_location("all-MiniLM-L6-v2"))
    store = LanceStore(Settings().home / "lance")
    docs = store._select(store.documents, None, ["title", "text"])
    print(f"{len(docs)} documents")
    print("max_chars  chunks  median  p90  p99  over 256 word pieces")
    for max_chars in (400, 500, 600, 700, 800, 1000, 1200):
        texts = []
        for doc in docs:
            text = doc["text"]
            for span in split_lines(text.split("\n"), max_chars, 1):
                texts.append(f"{doc['title']}\n{text[span.char_start : span.char_end]}")
        lengths = sorted(len(ids) for ids in tokenizer(texts, truncation=False)["input_ids"])
        over = sum(n > 256 for n in lengths) / len(lengths)
        print(
            f"{max_chars:9}  {len(lengths):6}  {statistics.median(lengths):6.0f}  "
            f"{lengths[int(0.9 * len(lengths))]:4}  {lengths[int(0.99 * len(lengths))]:4}  {over:6.1%}"
        )


if __name__ == "__main__":
    main()
