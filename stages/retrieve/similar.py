"""Documents like a given one: the mean of its chunk vectors against all others; no model call."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import Field

from pica.kernel.records import Hit
from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage
from pica.stages.retrieve.vectors import collection_mask, hits_for, store_for, top_rows, vector_matrix
from pica.stages.trust import Trust, trust_field


class SimilarParams(Params):
    lance_dir: str = Field(description="The LanceDB database.")
    doc_id: str = Field(description="The document to find others like (collection/path).")
    k: int = Field(50, gt=0, le=5000, description="How many chunks to return.")
    collection: str = Field("", description="Only this collection (empty: all).")
    trust: Trust = trust_field()


@stage
class RetrieveSimilar(Stage):
    """Rank other documents' chunks by cosine to the mean vector of one document's chunks."""

    id = "retrieve.similar.v1"
    Params = SimilarParams
    outputs = {"hits": list[Hit]}
    run_params = frozenset({"doc_id", "k", "collection", "trust"})
    timeout_s = 10.0
    on_error = "fail"  # an unknown id is the caller's mistake, worth an error

    @classmethod
    def example(cls, workdir: Path) -> Example:
        from pica.kernel.records import Chunk, Document, FileChanges, FileRef
        from pica.stages.embed import EmbedChunksHashed
        from pica.stages.store.write import StoreLance

        home = workdir / "home"
        params = {"home": str(home), "lance_dir": str(home / "lance")}
        texts = {"a.md": "alpha beta gamma", "b.md": "alpha beta delta"}
        StoreLance(StoreLance.Params(**params)).run(
            Context(),
            files=FileChanges("c", str(workdir), changed=[FileRef(p, 1, 1) for p in texts]),
            documents=[Document(f"c/{p}", "c", p, p, t) for p, t in texts.items()],
            chunks=[
                Chunk(f"c/{p}#0", f"c/{p}", "c", p, p, t, 1, 1, char_end=len(t)) for p, t in texts.items()
            ],
            skipped=[],
        )
        embed = EmbedChunksHashed(EmbedChunksHashed.Params(**params))
        embed.warm_up(Context())
        embed.run(Context())
        return Example(params={"lance_dir": params["lance_dir"], "doc_id": "c/a.md"})

    def warm_up(self, ctx: Context) -> None:
        self.store = store_for(self.params.lance_dir)

    def run(self, ctx: Context) -> dict[str, Any]:
        import numpy as np

        matrix = vector_matrix(self.store)
        own = np.array([r["doc_id"] == self.params.doc_id for r in matrix.rows], dtype=bool)
        if not own.any():
            raise LookupError(
                f"no embedded chunks for '{self.params.doc_id}' (is it indexed? embedded by `pica embed`?)"
            )
        centre = matrix.vectors[own].mean(axis=0)
        centre /= np.linalg.norm(centre) or 1.0
        scores = matrix.vectors @ centre
        allowed = ~own
        mask = collection_mask(matrix, self.params.collection)
        if mask is not None:
            allowed &= mask
        picked = top_rows(scores, self.params.k, allowed)
        hits = hits_for(self.store, matrix, picked, scores, "similar", self.params.trust)
        return {"hits": hits}
