"""New redaction rules reach what is indexed already: a collection (and an agent's transcripts)
indexed under other rules is read again from the start at the next `pica index`, its documents
replaced (never duplicated), and the old text gone from the files under PICA_HOME."""

from __future__ import annotations

import sqlite3

import pytest

from pica.indexing import index_one
from pica.kernel.settings import Settings
from pica.stages import redact as redaction
from pica.stages.store.catalog import PURGE, RULES, Catalog
from tests.helpers import claude_line, make_folder

# Nothing the current rules redact: a made-up token that only the "new rules" below know.
MARKER = "zq7vortexquillmarker"
NOTE = f"# Deploy\n\nThe staging login is {MARKER} for now.\n\nlighthouse harbour\n"


class Progress:
    """What `pica index` would print on stderr."""

    def __init__(self):
        self.lines: list[str] = []

    def message(self, text: str) -> None:
        self.lines.append(text)

    def count(self, *args) -> None:
        pass

    def close(self, finished: bool = True) -> None:
        pass


def run_index(name: str, recipe: str, variables: dict) -> tuple[dict, list[str]]:
    progress = Progress()
    result = index_one(recipe, name, variables, progress)
    return result, progress.lines


def new_rules(monkeypatch) -> None:
    """A new Pica version's rules: another fingerprint, and MARKER is now a secret."""
    real = redaction.redact

    def redact(text, found=None):
        text = real(text, found)
        if MARKER not in text:
            return text
        if found is not None:
            found["new_token"] += text.count(MARKER)
        return text.replace(MARKER, "[REDACTED:new_token]")

    monkeypatch.setattr(redaction, "redact", redact)
    monkeypatch.setattr(redaction, "rules_fingerprint", lambda: "new-rules-0001")


def on_disk(home, data: bytes) -> list[str]:
    """Files under PICA_HOME (but the catalog) holding `data`."""
    return sorted(
        str(p.relative_to(home))
        for p in home.rglob("*")
        if p.is_file() and not p.name.startswith("catalog.sqlite") and data in p.read_bytes()
    )


def stored() -> dict[str, dict]:
    from pica.stages.store.lance_store import LanceStore

    store = LanceStore(Settings().home / "lance")
    return {
        d["id"]: d for d in store._select(store.documents, None, ["id", "path", "text", "title", "metadata"])
    }


@pytest.fixture
def world(pica_home, tmp_path):
    notes = make_folder(tmp_path / "notes", {"deploy.md": NOTE, "other.md": "# Other\n\nnothing secret\n"})
    claude = tmp_path / "claude"
    make_folder(claude, {"-work-ledger/s1.jsonl": ""})
    (claude / "-work-ledger/s1.jsonl").write_text(
        claude_line(1, "hello there", "s1") + "\n" + claude_line(2, f"use {MARKER} to log in", "s1") + "\n"
    )
    runs = {
        "notes": ("ingest/files", {"path": str(notes), "collection": "notes"}),
        "claude-code": ("ingest/transcripts", {"agent": "claude-code", "root": str(claude)}),
    }
    for name, (recipe, variables) in runs.items():
        run_index(name, recipe, variables)
    return {"home": pica_home, "runs": runs, "notes": notes, "claude": claude}


def test_new_rules_re_read_every_file_and_the_old_text_leaves_the_indexes(world, monkeypatch):
    home, runs = world["home"], world["runs"]
    before = stored()
    assert any(MARKER in d["text"] for d in before.values())
    assert on_disk(home, MARKER.encode())

    new_rules(monkeypatch)
    said = {}
    for name, (recipe, variables) in runs.items():
        result, lines = run_index(name, recipe, variables)
        said[name] = lines
        assert result["redacted"] == {"new_token": 1}, name
    assert (
        said["notes"].count(
            "redaction rules changed since this collection was indexed: re-reading its 2 files"
        )
        == 1
    )
    assert any("re-reading its 1 files" in line for line in said["claude-code"])

    after = stored()
    assert set(after) == set(before)  # replaced, not duplicated (transcripts too)
    assert not any(MARKER in str(d) for d in after.values())
    assert sum("[REDACTED:new_token]" in d["text"] for d in after.values()) == 2
    assert on_disk(home, MARKER.encode()) == [], on_disk(home, MARKER.encode())

    from tests.helpers import search

    assert not any(MARKER in str(h) for h in search(MARKER))
    assert search("lighthouse")

    # Same rules again: nothing is read.
    for name, (recipe, variables) in runs.items():
        result, lines = run_index(name, recipe, variables)
        assert result["added_or_changed"] == 0 and result["removed"] == 0
        assert not any("redaction rules" in line for line in lines)
        assert any("0 changed" in line for line in lines), lines
    assert stored() == after


def test_a_home_indexed_before_rules_were_recorded_is_read_again_once(world):
    home, runs = world["home"], world["runs"]
    db = sqlite3.connect(home / "catalog.sqlite")
    with db:  # as an older Pica left it: no rules table, no rules recorded
        db.execute("DROP TABLE rules")
        db.execute("DELETE FROM state WHERE key LIKE ?", (RULES + "%",))
    db.close()
    before = stored()
    for name, (recipe, variables) in runs.items():
        _, lines = run_index(name, recipe, variables)
        assert any("redaction rules changed since this collection was indexed" in line for line in lines)
    assert stored() == before
    for name, (recipe, variables) in runs.items():
        _, lines = run_index(name, recipe, variables)
        assert not any("redaction rules" in line for line in lines)
    with Catalog(home) as catalog:
        assert catalog.get(RULES + "notes") == redaction.rules_fingerprint()


def test_a_re_read_stopped_halfway_goes_on_where_it_stopped(pica_home, tmp_path, monkeypatch):
    from pica.kernel import runner

    notes = make_folder(tmp_path / "notes", {f"n{i}.md": f"# N{i}\n\nlogin {MARKER} {i}\n" for i in range(3)})
    variables = {"path": str(notes), "collection": "notes", "batch": 1}  # one file per batch
    run_index("notes", "ingest/files", variables)
    before = stored()
    new_rules(monkeypatch)
    first = runner.run("ingest/files", variables=variables)  # one batch, then Ctrl-C
    assert len(first.output["files"].postponed) == 2
    with Catalog(pica_home) as catalog:
        assert catalog.get(RULES + "notes") != "new-rules-0001" and catalog.get(PURGE) is None

    result, lines = run_index("notes", "ingest/files", variables)
    assert [line for line in lines if "redaction rules" in line] == [
        "redaction rules changed: still re-reading 2 files of this collection"
    ]
    assert result["notes"] == ["redaction rules changed: still re-reading 2 files of this collection"]
    with Catalog(pica_home) as catalog:
        assert catalog.get(RULES + "notes") == "new-rules-0001" and catalog.get(PURGE) is None
    after = stored()
    assert set(after) == set(before) and not any(MARKER in str(d) for d in after.values())
    assert on_disk(pica_home, MARKER.encode()) == []
    _, lines = run_index("notes", "ingest/files", variables)
    assert "scan: 0 changed, 0 deleted, 3 unchanged" in lines


def test_a_purge_that_stopped_is_done_by_the_next_run(world, monkeypatch):
    from pica.stages.store import write

    home, runs = world["home"], world["runs"]
    new_rules(monkeypatch)
    real = write._purge_old_versions

    def crash(store):
        raise KeyboardInterrupt

    monkeypatch.setattr(write, "_purge_old_versions", crash)
    recipe, variables = runs["notes"]
    with pytest.raises(KeyboardInterrupt):
        run_index("notes", recipe, variables)
    old = f"staging login is {MARKER}".encode()  # the note's, not the transcript's (not re-read)
    assert on_disk(home, old)
    with Catalog(home) as catalog:
        assert catalog.get(PURGE) == "lance"
    monkeypatch.setattr(write, "_purge_old_versions", real)
    result, lines = run_index("notes", recipe, variables)  # nothing changed; the purge is still due
    assert result["added_or_changed"] == 0 and not any("redaction rules" in line for line in lines)
    assert on_disk(home, old) == []
    with Catalog(home) as catalog:
        assert catalog.get(PURGE) is None
