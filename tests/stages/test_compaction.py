"""LanceDB compaction during index runs, and the repair of a replace a crash cut short."""

from __future__ import annotations

import os
from collections import Counter

import pytest

from pica.kernel import runner
from pica.kernel.errors import StageFailed
from pica.stages.store import lance_store
from pica.stages.store.lance_store import LanceStore
from tests.helpers import index, make_folder, search, snapshot


def fragments(store: LanceStore) -> dict[str, int]:
    return {
        name: table.stats()["fragment_stats"]["num_fragments"]
        for name, table in (("documents", store.documents), ("chunks", store.chunks))
    }


def test_one_file_index_runs_compact_and_keep_the_keyword_index_updated(tmp_path, pica_home, monkeypatch):
    monkeypatch.setattr(lance_store, "COMPACT_AT", 4)
    folder = make_folder(tmp_path / "notes", {f"n{i}.md": f"# N{i}\nword{i} shared\n" for i in range(5)})
    index(folder, "notes")
    for run in range(12):
        (folder / f"n{run % 5}.md").write_text(f"# N{run % 5}\nword{run % 5} shared edit{run}\n")
        if run == 10:
            (folder / "n4.md").unlink()
        out = index(folder, "notes")
        assert out["keyword"]["action"] == "updated"  # compaction does not force a rebuild
        store = LanceStore(pica_home / "lance")
        assert max(fragments(store).values()) < 4
    state = snapshot()
    assert state["in_step"] and state["catalog_version_ok"]
    assert sorted(state["documents"]) == [f"notes/n{i}.md" for i in range(4)]
    assert sorted(state["chunks"]) == state["keyword"] == [f"notes/n{i}.md#0" for i in range(4)]
    assert [h.id for h in search("edit11")] == ["notes/n1.md"]
    assert sorted(h.id for h in search("shared")) == [f"notes/n{i}.md" for i in range(4)]


@pytest.mark.parametrize("cut", ["after chunks", "after documents deleted"])
def test_a_replace_cut_short_is_repaired_by_the_next_one(tmp_path, pica_home, monkeypatch, cut):
    """A crash between the commits of a replace (simulated by failing the next commit) leaves
    chunks no document matches; the next index run removes them and writes no chunk twice."""
    folder = make_folder(tmp_path / "notes", {"a.md": "# A\nalpha\n", "b.md": "# B\nbeta\n"})
    index(folder, "notes")
    (folder / "a.md").write_text("# A\nalpha again\n\nmore\n")
    (folder / "c.md").write_text("# C\ngamma\n")

    class Crash(Exception):
        pass

    real_replace = LanceStore.replace

    def crashing(self, *args, **kwargs):
        table = self.documents
        method = "delete" if cut == "after chunks" else "add"

        def crash(*_a, **_k):
            raise Crash

        monkeypatch.setattr(table, method, crash)
        return real_replace(self, *args, **kwargs)

    monkeypatch.setattr(LanceStore, "replace", crashing)
    with pytest.raises(StageFailed, match="Crash"):
        index(folder, "notes")
    monkeypatch.setattr(LanceStore, "replace", real_replace)
    (folder / "c.md").unlink()  # gone before the replay: its chunks must not be left behind
    index(folder, "notes")

    store = LanceStore(pica_home / "lance")
    rows = store._select(store.chunks, None, ["id", "doc_id", "doc_hash"])
    docs = {d["id"]: d["hash"] for d in store._select(store.documents, None, ["id", "hash"])}
    assert max(Counter(r["id"] for r in rows).values()) == 1
    assert all(docs.get(r["doc_id"]) == r["doc_hash"] for r in rows)
    assert sorted(docs) == ["notes/a.md", "notes/b.md"]
    state = snapshot()
    assert state["in_step"] and state["keyword"] == sorted(state["chunks"])
    assert [h.id for h in search("again")] == ["notes/a.md"]
    assert not (pica_home / "lance" / lance_store.PENDING_FILE).exists()


def test_a_replay_with_the_same_hash_writes_the_chunks_again(tmp_path, pica_home):
    """Cut short after the chunks of a changed file were replaced, then the file changed back:
    its stored document has the old hash, so the repair has it written again, chunks included."""
    store = LanceStore(pica_home / "lance")
    folder = make_folder(tmp_path / "notes", {"a.md": "# A\nalpha\n"})
    index(folder, "notes")
    store.documents.checkout_latest()
    (doc_row,) = store._select(store.documents, None, ["id", "hash"])
    # As a crash would leave it: the document's chunks deleted, and the ids still listed.
    store._write_pending({"notes": [doc_row["id"]]})
    store.chunks.delete("doc_id = 'notes/a.md'")
    os.utime(folder / "a.md", ns=(1, 1))  # the catalog shows it changed, as after a crash
    assert index(folder, "notes")["stored"].added == ["notes/a.md"]  # same hash, written again
    assert [h.id for h in search("alpha")] == ["notes/a.md"]
    assert sorted(snapshot()["chunks"]) == ["notes/a.md#0"]


def test_embedding_slab_by_slab_compacts_and_keeps_every_vector(tmp_path, pica_home, monkeypatch):
    monkeypatch.setattr(lance_store, "COMPACT_AT", 4)
    folder = make_folder(tmp_path / "notes", {f"n{i}.md": f"# N{i}\nword{i} shared\n" for i in range(12)})
    index(folder, "notes")
    report = runner.run("ingest/embed", variables={"embedder": "embed.hash.v1", "slab": 2}).output
    assert report["embedded"] == 12 and report["remaining"] == 0  # six slabs, six commits
    store = LanceStore(pica_home / "lance")
    assert fragments(store)["chunks"] < 4
    assert store.chunks.count_rows("vector IS NOT NULL") == 12
