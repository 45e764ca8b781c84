"""Mark hits `stale`: older than a configured age, or from a local file that is no longer there."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from pydantic import Field

from pica.kernel.records import Hit
from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage
from pica.stages.redact import MARK
from pica.stages.store.collections import Collections


class StaleParams(Params):
    home: str = Field(description="PICA_HOME, where the collections' folders are registered.")
    max_age_days: float = Field(0, ge=0, description="Older hits are stale; 0: age never makes them so.")
    date_fields: list[str] = Field(
        default=["timestamp", "modified", "updated", "date"],
        description="Metadata fields holding a hit's date, the first present wins.",
    )
    vanished: bool = Field(True, description="Hits from local files that no longer exist are stale.")


@stage
class MarkStale(Stage):
    """Set trust to `stale` (keeping the tier it had in metadata `trust_was`) for hits older than
    `max_age_days` by their date field, and for hits of a local collection whose file is gone."""

    id = "mark.stale.v1"
    Params = StaleParams
    inputs = {"hits": list[Hit]}
    outputs = {"hits": list[Hit]}
    passthrough = {"hits": "hits"}
    on_error = "skip"

    @classmethod
    def example(cls, workdir: Path) -> Example:
        def hit(doc: str, date: str) -> Hit:
            return Hit(doc, doc, "c", doc, doc, 1, 1, 1.0, "x", metadata={"date": date}, trust="reference")

        hits = [hit("a", "2001-01-01"), hit("b", datetime.now(UTC).date().isoformat())]
        return Example(params={"home": str(workdir), "max_age_days": 365}, inputs={"hits": hits})

    def run(self, ctx: Context, hits: list[Hit]) -> dict[str, Any]:
        p = self.params
        now = datetime.now(UTC)
        oldest = now - timedelta(days=p.max_age_days) if p.max_age_days else None
        roots = self._roots(ctx) if p.vanished else {}
        marked = []
        for hit in hits:
            why = ""
            if oldest is not None and (date := self._date(hit)) is not None and date < oldest:
                why = "old"
            elif (
                hit.collection in roots
                and MARK not in hit.path  # a path with a secret in it is stored redacted: not on disk
                and not (roots[hit.collection] / hit.path).exists()
            ):
                why = "vanished"
            if why and hit.trust != "stale":
                metadata = {**hit.metadata, "trust_was": hit.trust, "stale": why}
                hit = replace(hit, trust="stale", metadata=metadata)
            marked.append(hit)
        return {"hits": marked}

    def _roots(self, ctx: Context) -> dict[str, Path]:
        """collection -> its folder, for folders that exist: a missing folder (an unmounted disk, a
        setting that points elsewhere) says nothing about whether its files vanished."""
        roots = {c.name: Path(c.path) for c in Collections(Path(self.params.home)).all()}
        if ctx.settings is not None and hasattr(ctx.settings, "transcript_roots"):
            roots.update(ctx.settings.transcript_roots())
        return {name: root for name, root in roots.items() if root.is_dir()}

    def _date(self, hit: Hit) -> datetime | None:
        for name in self.params.date_fields:
            value = hit.metadata.get(name)
            if isinstance(value, str) and value:
                try:
                    date = datetime.fromisoformat(value.replace("Z", "+00:00"))
                except ValueError:
                    continue
                return date if date.tzinfo else date.replace(tzinfo=UTC)
        return None
