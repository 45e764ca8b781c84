"""Find what changed in a collection's folder since its last committed run."""

from __future__ import annotations

import fnmatch
import hashlib
import os
from pathlib import Path
from typing import Any

from pydantic import Field

from pica.kernel.records import FileChanges, FileRef
from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage
from pica.stages.store.catalog import Catalog

SUPPORTED = [
    "*.md", "*.markdown", "*.mdx", "*.txt", "*.text", "*.rst", "*.org",
    "*.jsonl", "*.ndjson",
    "*.pdf", "*.docx", "*.pptx", "*.xlsx", "*.odt", "*.ods", "*.odp", "*.rtf", "*.epub",
    "*.html", "*.htm",
]  # fmt: skip


def redaction_rules() -> str:
    """A fingerprint of the secret-redaction code: its source files, read, not imported (compiling
    the rules costs 0.1 s that a run with nothing to read need not spend)."""
    here = Path(__file__).parent
    digest = hashlib.sha256()
    for path in [here / "redact.py", *sorted((here / "secrets").glob("*.py"))]:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


class ScanParams(Params):
    root: str = Field(description="The collection's folder.")
    collection: str = Field("", description="The collection's name; the folder's name if empty.")
    home: str = Field(description="Where the catalog of indexed files lives (PICA_HOME).")
    include: list[str] = Field(default=SUPPORTED, description="File name patterns to index.")
    exclude: list[str] = Field(default=[], description="Path patterns to leave out.")
    batch: int = Field(
        0, ge=0, description="Hand on at most this many changed files (0: all); the rest wait."
    )


@stage
class ScanFiles(Stage):
    """List a folder's files whose (mtime, size) differ from the last run, and those deleted."""

    id = "scan.files.v1"
    Params = ScanParams
    outputs = {"files": FileChanges}

    @classmethod
    def example(cls, workdir: Path) -> Example:
        (workdir / "docs").mkdir()
        (workdir / "docs" / "a.md").write_text("# A\n")
        return Example(
            params={"root": str(workdir / "docs"), "collection": "c", "home": str(workdir / "home")}
        )

    def run(self, ctx: Context) -> dict[str, Any]:
        root = Path(self.params.root).expanduser().resolve()
        if not root.is_dir():
            raise FileNotFoundError(f"{root} is not a folder")
        collection = self.params.collection or root.name
        with Catalog(self.params.home) as catalog:
            # Text indexed under other redaction rules is read again, every file of it: a secret
            # the old rules missed must not stay in the index (nor in its backups) for good.
            if catalog.reread_unless_redacted_with(collection, redaction_rules()):
                ctx.report("the secret-redaction rules changed since the last run: reading every file again")
            known = catalog.files(collection)
        changes = FileChanges(collection, str(root))
        present = set()
        for ref in self._walk(root):
            present.add(ref.path)
            before = known.get(ref.path)
            if before is not None and before[:2] == (ref.size, ref.mtime_ns):
                changes.unchanged.append(ref.path)
            else:
                changes.changed.append(ref)
        changes.deleted = sorted(set(known) - present)
        if self.params.batch and len(changes.changed) > self.params.batch:
            changes.postponed = [f.path for f in changes.changed[self.params.batch :]]
            changes.changed = changes.changed[: self.params.batch]
        later = f", {len(changes.postponed)} for the next batch" if changes.postponed else ""
        ctx.report(
            f"{len(changes.changed)} changed, {len(changes.deleted)} deleted, "
            f"{len(changes.unchanged)} unchanged{later}"
        )
        return {"files": changes}

    def _walk(self, root: Path):
        include = [p.lower() for p in self.params.include]
        for folder, dirs, names in os.walk(root):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))  # .git, .obsidian, ...
            base = Path(folder)
            for name in sorted(names):
                if name.startswith(".") or not any(fnmatch.fnmatch(name.lower(), p) for p in include):
                    continue
                path = base / name
                relative = path.relative_to(root).as_posix()
                if any(fnmatch.fnmatch(relative, p) for p in self.params.exclude):
                    continue
                try:
                    stat = path.stat()
                except OSError:
                    continue  # vanished between listing and stat
                if path.is_file():
                    yield FileRef(relative, stat.st_size, stat.st_mtime_ns)
