"""What each collection holds, as the catalog recorded it: cheap enough for a server's first answer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import Field

from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage
from pica.stages.store.catalog import Catalog


class OverviewParams(Params):
    home: str = Field(description="PICA_HOME: the catalog lives here.")


@stage
class StoreOverview(Stage):
    """Per collection, its documents, source and metadata fields as the catalog recorded them at
    its last index run: read from the catalog alone, without opening LanceDB or Tantivy, so an MCP
    server can tell a client what it holds within its first half second."""

    id = "store.overview.v1"
    Params = OverviewParams
    outputs = {"collections": dict}

    @classmethod
    def example(cls, workdir: Path) -> Example:
        with Catalog(workdir / "home") as catalog:  # one collection, as an index run leaves it
            about = {"source": "files", "documents": 1, "fields": ["owner"]}
            catalog.record("c", [("a.md", 10, 1, "ok", "", 1)], [], 1, about=about)
        return Example(params={"home": str(workdir / "home")})

    def run(self, ctx: Context) -> dict[str, Any]:
        with Catalog(self.params.home) as catalog:
            return {"collections": catalog.overview()}
