"""Document collections: every format, bad files, incremental updates, embedding, the CLI verbs."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from pica.kernel import runner
from pica.kernel.errors import StageFailed
from pica.stages.index.keyword_index import LAYOUT
from tests.conftest import DOCUMENTS, needs_corpus
from tests.helpers import embed, index, make_folder, search, snapshot

EXPECTED_SKIPS = {
    "txt/unstructured/fake-text-all-whitespace.txt": "no text (empty or whitespace only)",
    "txt/unstructured/test-file-contents.txt": "a line of 395,623 characters",
    "ods/calamine/issue_594_dos.ods": "Cell limit exceeded",
    "pdf/markitdown/MEDRPT-2024-PAT-3847_medical_report_scan.pdf": "no text layer",
    "pdf/qpdf/issue-1503.pdf": "Invalid PDF",
    "pdf/unstructured/password.pdf": "password-protected",
    "xlsx/unstructured/password_protected.xlsx": "password protected",
}


@pytest.fixture(scope="module")
def corpus_home(tmp_path_factory):
    """The whole documents corpus indexed once, for the read-only tests of this module."""
    home = tmp_path_factory.mktemp("corpus-home")
    with pytest.MonkeyPatch.context() as env:
        env.setenv("PICA_HOME", str(home))
        yield home, index(DOCUMENTS, "corpus")


@needs_corpus()
def test_every_corpus_file_becomes_a_document_or_is_reported(corpus_home, monkeypatch):
    home, output = corpus_home
    monkeypatch.setenv("PICA_HOME", str(home))
    on_disk = {p.relative_to(DOCUMENTS).as_posix() for p in DOCUMENTS.rglob("*") if p.is_file()}
    state = snapshot()
    with_documents = {doc_id.split("/", 1)[1].split("#")[0] for doc_id in state["documents"]}
    skipped = {path: reason for (_, path), reason in state["skipped"].items()}
    assert with_documents | set(skipped) == on_disk
    assert not with_documents & set(skipped)
    assert set(skipped) == set(EXPECTED_SKIPS)
    for path, words in EXPECTED_SKIPS.items():
        assert words in skipped[path], (path, skipped[path])
    assert {s.path for s in output["skipped"]} == set(EXPECTED_SKIPS)
    assert state["in_step"] and state["catalog_version_ok"]


@needs_corpus()
@pytest.mark.parametrize(("query", "expected"), [
    ("crazy ones misfits rebels", "corpus/pdf/pypdf/crazyones.pdf"),
    ("Lorem ipsum Miagi", "corpus/docx/unstructured/fake.docx"),  # author from properties
    ("bullet slide layout", "corpus/pptx/unstructured/fake-power-point.pptx"),
    ("freshwater ducks 2019", "corpus/xlsx/docling/xlsx_05_table_with_title.xlsx"),
    ("odfdo first paragraph", "corpus/odt/odfdo/example.odt"),
    ("Stanley Cups Location", "corpus/xlsx/unstructured/stanley-cups.xlsx"),
    ("Example odfdo project second page", "corpus/odp/odfdo/example.odp"),  # the XML fallback
    ("Docling Image test", "corpus/pptx/docling/powerpoint_with_image.pptx"),  # the XML fallback
    ("Proszę zapoznanie klauzulą", "corpus/rtf/striprtf/ansicpg1250.rtf"),
    ("Winter Sports Switzerland Benson", "corpus/epub/unstructured/winter-sports.epub"),
    ("Basic duck facts", "corpus/html/docling/html_rich_table_cells.html"),
    ("Dissecting social engineering", "corpus/jsonl/pyserini/simple_scifact.jsonl#bf003bb2d52304fea114d824bc0bf7bfbc7c3106"),
])  # fmt: skip
def test_each_format_is_searchable(corpus_home, monkeypatch, query, expected):
    home, _ = corpus_home
    monkeypatch.setenv("PICA_HOME", str(home))
    assert search(query, k=3)[0].id == expected


@needs_corpus()
def test_document_properties_become_metadata(corpus_home, monkeypatch):
    home, _ = corpus_home
    monkeypatch.setenv("PICA_HOME", str(home))
    hit = search("Winter Sports Switzerland", k=1)[0]
    assert hit.title == "Winter Sports in Switzerland"
    assert hit.metadata["authors"] == ["E. F. Benson"]
    assert hit.metadata["language"] == "en"
    docx = search("Lorem ipsum Miagi", k=1)[0]
    assert docx.metadata["created"].startswith("2013-12-23")
    assert docx.metadata["format"] == "docx"


@needs_corpus()
def test_unicode_and_legacy_encodings_survive(corpus_home, monkeypatch):
    home, _ = corpus_home
    monkeypatch.setenv("PICA_HOME", str(home))
    from pica.stages.store.lance_store import LanceStore

    store = LanceStore(home / "lance")
    texts = {d["id"]: d["text"] for d in store._select(store.documents, None, ["id", "text"])}
    assert "柔道" in texts["corpus/rtf/striprtf/unicode.rtf"]
    assert "Proszę" in texts["corpus/rtf/striprtf/ansicpg1250.rtf"]
    assert "欢迎来到大连水产学院" in texts["corpus/txt/python-frontmatter/chinese.txt"]
    cp1252 = texts["corpus/html/unstructured/fake-html-cp1252.html"]
    assert "CP1252-specific characters" in cp1252 and "\ufffd" not in cp1252


def test_jsonl_bad_lines_are_skipped_and_reported(tmp_path, pica_home):
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "a.jsonl").write_text(
        "\n".join(
            [
                '{"id": "1", "title": "One", "text": "first record about apples"}',
                "{not json",
                '{"id": "2", "title": "Two"}',
                '{"id": "1", "text": "a repeated id"}',
                '["a", "list"]',
                '{"id": "3", "body": "third record about pears", "tag": "fruit"}',
            ]
        )
        + "\n"
    )
    out = index(folder, "rec")
    assert sorted(out["stored"].added) == ["rec/a.jsonl#1", "rec/a.jsonl#3"]
    assert {s.path: s.reason for s in out["skipped"]} == {
        "a.jsonl:2": "not JSON (Expecting property name enclosed in double quotes at column 2)",
        "a.jsonl:3": "no text in any of the fields text, contents, content, body",
        "a.jsonl:4": "repeats the id '1' of an earlier line",
        "a.jsonl:5": "a JSON list, not an object",
    }
    assert search("pears")[0].metadata["tag"] == "fruit"


def test_jsonl_fields_are_chosen_per_collection(tmp_path, pica_home):
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "a.jsonl").write_text('{"key": "k1", "heading": "Hello", "passage": "custom fields work"}\n')
    out = index(
        folder, "rec", jsonl_text_fields=["passage"], jsonl_id_fields=["key"], jsonl_title_fields=["heading"]
    )
    assert out["stored"].added == ["rec/a.jsonl#k1"]
    assert search("custom fields")[0].title == "Hello"


def test_incremental_add_change_delete(tmp_path, pica_home):
    folder = make_folder(
        tmp_path / "notes",
        {
            "a.md": "# Apples\napples are red\n",
            "b.md": "# Bananas\nbananas are yellow\n",
            "sub/c.txt": "cherries are dark\n",
        },
    )
    first = index(folder, "notes")
    assert sorted(first["stored"].added) == ["notes/a.md", "notes/b.md", "notes/sub/c.txt"]
    embed()
    before = snapshot()

    unchanged = index(folder, "notes")
    assert unchanged["stored"].added == unchanged["stored"].removed == []
    assert unchanged["keyword"]["action"] == "none"
    assert snapshot() == before  # nothing parsed, written or re-embedded

    (folder / "a.md").write_text("# Apples\napples are green now\n")
    (folder / "sub/c.txt").unlink()
    (folder / "d.md").write_text("# Dates\ndates are sweet\n")
    os.utime(folder / "b.md")  # touched, same content: read again, but not rewritten
    changed = index(folder, "notes")
    assert sorted(changed["stored"].added) == ["notes/a.md", "notes/d.md"]
    assert sorted(changed["stored"].removed) == ["notes/a.md", "notes/sub/c.txt"]
    after = snapshot()
    assert set(after["documents"]) == {"notes/a.md", "notes/b.md", "notes/d.md"}
    assert after["chunks"]["notes/b.md#0"] == before["chunks"]["notes/b.md#0"]  # vector kept
    assert after["chunks"]["notes/a.md#0"][-1] is None  # changed: to be embedded again
    assert [h.id for h in search("cherries")] == []
    assert [h.id for h in search("green apples")] == ["notes/a.md"]
    assert embed()["embedded"] == 2


def test_jsonl_record_level_update(tmp_path, pica_home):
    folder = tmp_path / "records"
    folder.mkdir()
    lines = [json.dumps({"id": str(i), "text": f"record number {i} about topic{i}"}) for i in range(5)]
    (folder / "r.jsonl").write_text("\n".join(lines) + "\n")
    index(folder, "rec")
    embed()
    before = snapshot()
    lines[2] = json.dumps({"id": "2", "text": "record two rewritten"})
    del lines[4]
    lines.insert(0, json.dumps({"id": "new", "text": "a new first record"}))
    (folder / "r.jsonl").write_text("\n".join(lines) + "\n")
    out = index(folder, "rec")
    assert sorted(out["stored"].added) == ["rec/r.jsonl#2", "rec/r.jsonl#new"]
    assert sorted(out["stored"].removed) == ["rec/r.jsonl#2", "rec/r.jsonl#4"]
    after = snapshot()
    for kept in ("0", "1", "3"):  # moved down a line, otherwise untouched: vectors kept
        assert after["chunks"][f"rec/r.jsonl#{kept}#0"] == before["chunks"][f"rec/r.jsonl#{kept}#0"]


def test_a_file_that_breaks_keeps_its_last_good_documents_until_fixed(tmp_path, pica_home):
    folder = make_folder(tmp_path / "notes", {"a.md": "---\ntitle: A\n---\nalpha text\n"})
    index(folder, "notes")
    (folder / "a.md").write_text("---\ntitle: [broken\n---\nalpha beta\n")
    out = index(folder, "notes")
    assert [s.path for s in out["skipped"]] == ["a.md"]
    assert [h.id for h in search("alpha")] == ["notes/a.md"]  # nothing lost
    again = index(folder, "notes")
    assert again["skipped"] == []  # not retried until it changes
    (folder / "a.md").write_text("---\ntitle: A\n---\nalpha gamma\n")
    assert index(folder, "notes")["stored"].added == ["notes/a.md"]
    assert [h.id for h in search("gamma")] == ["notes/a.md"]


def test_keyword_index_is_rebuilt_when_it_disagrees_with_lancedb(tmp_path, pica_home):
    folder = make_folder(tmp_path / "notes", {"a.md": "alpha\n", "b.md": "beta\n"})
    index(folder, "notes")
    marker = pica_home / "tantivy" / "pica-layout.json"
    marker.write_text(json.dumps({"layout": LAYOUT, "lance_version": 1}))  # as after a crash
    (folder / "c.md").write_text("gamma\n")
    out = index(folder, "notes")
    assert out["keyword"]["action"] == "rebuilt"
    assert snapshot()["keyword"] == ["notes/a.md#0", "notes/b.md#0", "notes/c.md#0"]


def test_an_old_keyword_index_layout_is_upgraded(tmp_path, pica_home):
    folder = make_folder(tmp_path / "notes", {"a.md": "alpha\n"})
    old = pica_home / "tantivy"
    old.mkdir(parents=True)
    (old / "pica-layout.json").write_text(json.dumps({"layout": 1}))
    (old / "stale-file").write_text("from an older Pica")
    out = index(folder, "notes")
    assert out["keyword"]["action"] == "rebuilt"
    assert not (old / "stale-file").exists()
    assert [h.id for h in search("alpha")] == ["notes/a.md"]


def test_embedding_model_mismatch_is_refused(tmp_path, pica_home):
    folder = make_folder(tmp_path / "notes", {"a.md": "alpha\n"})
    index(folder, "notes")
    embed("embed.hash.v1")
    with pytest.raises(StageFailed, match="the stored vectors come from pica/hashed-words"):
        embed("embed.chunks.v1")
    cli = subprocess.run(
        [sys.executable, "-m", "pica", "embed"],
        capture_output=True,
        text=True,
        env={**os.environ, "HF_HUB_OFFLINE": "1"},
    )
    assert cli.returncode == 2
    assert (
        "the stored vectors come from pica/hashed-words (384 dims), not "
        "sentence-transformers/all-MiniLM-L6-v2" in cli.stderr
    )


def test_packaged_model_embeds_and_similar_texts_are_close(tmp_path, pica_home, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    folder = make_folder(
        tmp_path / "notes",
        {
            "cat.md": "The cat sat on the mat and purred.",
            "dog.md": "A dog slept on the rug.",
            "tax.md": "Quarterly tax filings are due in April.",
        },
    )
    index(folder, "notes")
    report = embed("embed.chunks.v1")
    assert report == {
        "model": "sentence-transformers/all-MiniLM-L6-v2",
        "embedded": 3,
        "remaining": 0,
        "vector_index": False,
    }
    import numpy as np

    from pica.stages.store.lance_store import LanceStore

    store = LanceStore(pica_home / "lance")
    vectors = {
        r["doc_id"]: np.array(r["vector"]) for r in store._select(store.chunks, None, ["doc_id", "vector"])
    }
    assert all(abs(np.linalg.norm(v) - 1) < 1e-4 for v in vectors.values())
    cat, dog, tax = (vectors[f"notes/{n}.md"] for n in ("cat", "dog", "tax"))
    assert cat @ dog > cat @ tax


def test_cli_add_index_status_rm(tmp_path, pica_home):
    folder = make_folder(tmp_path / "notes", {"a.md": "# A\nalpha\n", "bad.pdf": "not a pdf"})

    def pica(*args):
        return subprocess.run(
            [sys.executable, "-m", "pica", *args],
            capture_output=True,
            text=True,
            env={**os.environ, "HF_HUB_OFFLINE": "1"},
        )

    empty = pica("index")  # nothing to index is not an error; it says where it looked and how to add
    assert (
        empty.returncode == 0
        and "pica add PATH" in empty.stdout
        and "/nonexistent/pica-tests" in empty.stdout
    )
    added = pica("add", str(folder), "--name", "notes")
    assert added.returncode == 0 and "added collection 'notes'" in added.stdout
    clash = pica("add", str(tmp_path), "--name", "notes")
    assert clash.returncode == 2 and "already indexes" in clash.stderr
    indexed = pica("index")
    assert indexed.returncode == 0, indexed.stderr
    assert "notes: 1 documents added or changed, 0 removed, 1 skipped" in indexed.stdout
    assert "skipped bad.pdf:" in indexed.stdout
    assert "scan: 2 changed" in indexed.stderr  # plain progress lines when not on a terminal
    status = json.loads(pica("status", "--json").stdout)
    notes = status["collections"]["notes"]
    assert (notes["files"], notes["skipped"], notes["documents"], notes["chunks"], notes["embedded"]) == (
        2,
        1,
        1,
        1,
        0,
    )
    assert notes["path"] == str(folder) and notes["indexed_at"] > 0
    assert status["lance_bytes"] > 0 and status["keyword_bytes"] > 0
    removed = pica("rm", "notes")
    assert removed.returncode == 0 and "1 documents" in removed.stdout
    assert json.loads(pica("status", "--json").stdout)["collections"] == {}
    assert folder.joinpath("a.md").exists()
    assert [h.id for h in search("alpha")] == []


def test_second_writer_waits_for_the_first(tmp_path, pica_home):
    from pica.stages.store.catalog import writer_lock

    folder = make_folder(tmp_path / "notes", {"a.md": "alpha\n"})
    subprocess.run([sys.executable, "-m", "pica", "add", str(folder)], check=True, capture_output=True)
    with writer_lock(pica_home, lambda message: None):
        process = subprocess.Popen(
            [sys.executable, "-m", "pica", "index"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        waiting = ""
        for line in process.stderr:
            waiting += line
            if "waiting for it" in line:
                break
        assert f"another indexer (pid {os.getpid()}) is writing" in waiting
        assert process.poll() is None  # still waiting
    out, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    assert "1 documents added" in out


def test_search_works_while_indexing(tmp_path, pica_home):
    folder = make_folder(
        tmp_path / "notes", {f"n{i}.md": f"# Note {i}\nshared words {i}\n" for i in range(300)}
    )
    index(make_folder(tmp_path / "first", {"a.md": "alpha\n"}), "first")
    process = subprocess.Popen(
        [sys.executable, "-m", "pica", "run", "ingest/files", f"path={folder}", "collection=notes"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        searches = 0
        while process.poll() is None and searches < 200:
            result = runner.run("search/lexical", variables={"query": "alpha"})
            assert result.warnings == [] and [h.id for h in result.output] == ["first/a.md"]
            searches += 1
    finally:
        process.wait(timeout=120)
    assert process.returncode == 0
    assert searches > 0
    assert len(search("shared words", k=400)) == 300


def test_copying_the_corpus_folder_elsewhere(tmp_path, pica_home):
    if not DOCUMENTS.is_dir():
        pytest.skip("no corpus")
    copy = tmp_path / "docs"
    shutil.copytree(DOCUMENTS / "md", copy)
    assert len(index(copy, "md")["stored"].added) == 8


def test_a_store_from_a_newer_pica_is_refused(tmp_path, pica_home):
    from pica.stages.store.lance_store import LanceStore

    (pica_home / "lance").mkdir(parents=True)
    (pica_home / "lance" / "layout.json").write_text('{"layout": 99}')
    with pytest.raises(RuntimeError, match="written by a newer Pica"):
        LanceStore(pica_home / "lance")


def test_progress_is_a_bar_on_a_terminal(tmp_path, pica_home):
    import pty

    folder = make_folder(tmp_path / "notes", {f"n{i}.md": f"note {i}\n" for i in range(30)})
    subprocess.run([sys.executable, "-m", "pica", "add", str(folder)], check=True, capture_output=True)
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "pica", "index"], stdout=subprocess.DEVNULL, stderr=follower
    )
    os.close(follower)
    output = b""
    while True:
        try:
            data = os.read(leader, 4096)
        except OSError:
            break
        if not data:
            break
        output += data
    process.wait(timeout=60)
    os.close(leader)
    text = output.decode()
    assert "\x1b[2Ktext: read" in text and "30/30" in text and "/s" in text  # rich bars, with a rate


def test_index_works_in_batches_and_keeps_postponed_files(tmp_path, pica_home):
    folder = make_folder(tmp_path / "notes", {f"n{i}.md": f"note {i} words\n" for i in range(5)})
    first = index(folder, "notes", batch=2)
    assert len(first["stored"].added) == 2 and len(first["files"].postponed) == 3
    (folder / "n4.md").write_text("note 4 changed\n")  # a postponed file that changes meanwhile
    second = index(folder, "notes", batch=2)
    assert len(second["stored"].added) == 2 and second["stored"].removed == []  # nothing taken as deleted
    third = index(folder, "notes", batch=2)
    assert len(third["stored"].added) == 1 and third["files"].postponed == []
    assert len(snapshot()["documents"]) == 5
    assert index(folder, "notes", batch=2)["stored"].added == []


def test_cli_index_loops_over_batches(tmp_path, pica_home):
    folder = make_folder(tmp_path / "notes", {f"n{i}.md": f"note {i}\n" for i in range(7)})
    subprocess.run(
        [sys.executable, "-m", "pica", "add", str(folder), "--batch", "3"], check=True, capture_output=True
    )
    result = subprocess.run([sys.executable, "-m", "pica", "index"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "notes: 7 documents added or changed" in result.stdout
    assert result.stderr.count("for the next batch") == 2
