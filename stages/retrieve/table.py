"""A LanceDB table the user already has, as a search provider: cosine over its vector column."""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path
from typing import Any

from pydantic import Field

from pica.kernel.records import Hit
from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage
from pica.stages.models import HASHED, query_encoder
from pica.stages.redact import redact_hit


class VectorParams(Params):
    uri: str = Field("", description="The LanceDB database (a folder); empty: not configured.")
    table: str = Field("", description="The table to search.")
    query: str = Field(description="The question, embedded with `model`.")
    k: int = Field(20, gt=0, le=1000, description="How many rows to return.")
    text_column: str = Field("text", description="The column holding each row's text.")
    vector_column: str = Field("vector", description="The column holding each row's vector.")
    title_column: str = Field("", description="A column to show as the title (optional).")
    id_column: str = Field("", description="A column naming each row (optional; else its text).")
    model: str = Field("all-MiniLM-L6-v2", description="The model the table's vectors came from.")
    trust: str = Field("lead", description="Trust tier of what it finds.")


@stage
class RetrieveVector(Stage):
    """The rows of an existing LanceDB table nearest the query by cosine; the query is embedded
    with the model the table's vectors came from (dimensions are checked)."""

    id = "retrieve.vector.v1"
    Params = VectorParams
    outputs = {"hits": list[Hit]}
    run_params = frozenset({"query", "k", "trust"})
    timeout_s = 30.0  # the first query of a process loads the model
    on_error = "skip"

    @classmethod
    def example(cls, workdir: Path) -> Example:
        import lancedb

        from pica.stages.embed import hashed_vectors

        texts = ["alpha beta", "gamma delta"]
        rows = [
            {"name": t, "text": t, "vector": v.tolist()}
            for t, v in zip(texts, hashed_vectors(texts), strict=True)
        ]
        lancedb.connect(workdir / "own").create_table("notes", data=rows)
        params = {"uri": str(workdir / "own"), "table": "notes", "query": "alpha", "model": HASHED}
        return Example(params={**params, "id_column": "name"})

    def warm_up(self, ctx: Context) -> None:
        self._lock = threading.Lock()
        self._table: Any = None
        self._encode: Any = None

    def run(self, ctx: Context) -> dict[str, Any]:
        p = self.params
        if not p.uri or not p.table:
            ctx.note("not configured: set PICA_VECTOR_URI and PICA_VECTOR_TABLE (or providers.vector)")
            return {"hits": []}
        if not p.query.strip():
            return {"hits": []}
        table, encode = self._open()
        query = encode([p.query])[0]
        rows = (
            table.search(query, vector_column_name=p.vector_column)
            .distance_type("cosine")
            .limit(p.k)
            .to_list()
        )
        return {"hits": [self._hit(row) for row in rows]}

    def _open(self) -> tuple[Any, Any]:
        """The table at its latest version, and the query encoder (loaded once)."""
        with self._lock:
            if self._table is None:
                import lancedb

                self._table = lancedb.connect(Path(self.params.uri).expanduser()).open_table(
                    self.params.table
                )
                self._check_columns(self._table.schema)
            else:
                self._table.checkout_latest()  # see rows written since
            if self._encode is None:
                self._encode = query_encoder(self.params.model)
                column = self._table.schema.field(self.params.vector_column).type
                size = getattr(column, "list_size", None)
                if size is None:
                    raise ValueError(
                        f"column '{self.params.vector_column}' is {column}, not a vector column "
                        "(a fixed-size list of floats)"
                    )
                got = len(self._encode(["dimension check"])[0])
                if got != size:
                    raise ValueError(
                        f"model '{self.params.model}' makes {got}-dimension vectors but column "
                        f"'{self.params.vector_column}' holds {size}; set providers.vector.model "
                        "to the model the table was built with"
                    )
            return self._table, self._encode

    def _check_columns(self, schema: Any) -> None:
        p = self.params
        wanted = [p.text_column, p.vector_column, p.title_column, p.id_column]
        missing = [c for c in wanted if c and c not in schema.names]
        if missing:
            raise ValueError(
                f"table '{p.table}' has no column {', '.join(map(repr, missing))} "
                f"(columns: {', '.join(schema.names)})"
            )

    def _hit(self, row: dict[str, Any]) -> Hit:
        p = self.params
        text = str(row.get(p.text_column) or "")
        name = (
            str(row.get(p.id_column))
            if p.id_column
            else hashlib.blake2b(text.encode(), digest_size=6).hexdigest()
        )
        title = str(row.get(p.title_column) or "") if p.title_column else text.split("\n", 1)[0][:80]
        skip = {p.text_column, p.vector_column, p.title_column, p.id_column, "_distance"}
        metadata = {k: v for k, v in row.items() if k not in skip and _plain(v)}
        hit = Hit(
            id=f"vector/{p.table}/{name}",
            chunk_id=f"vector/{p.table}/{name}",
            collection=p.table,
            path=f"{p.uri}#{p.table}",
            title=title,
            line_start=0,
            line_end=0,
            score=1.0 - float(row["_distance"]),
            passage=text,
            source="vector",
            metadata=metadata,
            trust=p.trust,
            via="vector",
        )
        return redact_hit(hit)  # the table is the user's, read at query time: redacted here


def _plain(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)
