"""Ingest fixes, each on real corpus files where the corpus has them: Gemini tool output as text,
terminal codes stripped, transcript citations on the message's file line, legacy encodings,
BOM + front-matter-only Markdown, nested JSON Lines fields."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from pica.kernel import runner
from pica.kernel.records import FileChanges, FileRef
from pica.kernel.stage import Context
from pica.stages.readers.decode import decode
from pica.stages.readers.jsonl import ReadJsonl
from pica.stages.readers.text import read_document
from pica.stages.store.lance_store import LanceStore
from tests.conftest import CORPUS, DOCUMENTS, needs_corpus
from tests.helpers import index, search

TRANSCRIPTS = CORPUS / "transcripts"
GEMINI = TRANSCRIPTS / "gemini" / "vibecodingtracker" / "gemini.jsonl"
SPOTTER = TRANSCRIPTS / "claude-code" / "marot-spotter"


def _ingest(agent: str, root: Path) -> dict:
    return runner.run("ingest/transcripts", variables={"agent": agent, "root": str(root)}).output


def _documents(collection: str) -> dict[str, dict]:
    store = LanceStore(Path(os.environ["PICA_HOME"]) / "lance")
    rows = store.documents_where(
        f"collection = '{collection}'", ["id", "path", "text", "metadata", "first_line"]
    )
    return {r["id"]: {**r, "metadata": json.loads(r["metadata"])} for r in rows}


@pytest.fixture(scope="module")
def transcripts_home(tmp_path_factory):
    """Real Gemini and Claude Code sessions from the corpus, indexed once."""
    if not TRANSCRIPTS.is_dir():
        pytest.skip(f"corpus not found at {TRANSCRIPTS}")
    base = tmp_path_factory.mktemp("fixes")
    gemini = base / "gemini" / "hash" / "chats"
    gemini.mkdir(parents=True)
    shutil.copy(GEMINI, gemini / "session.jsonl")
    claude = base / "claude" / "-home-me-app"
    claude.mkdir(parents=True)
    for name in ("short.jsonl", "tool_heavy.jsonl"):
        shutil.copy(SPOTTER / name, claude / name)
    with pytest.MonkeyPatch.context() as env:
        env.setenv("PICA_HOME", str(base / "home"))
        _ingest("gemini", base / "gemini")
        _ingest("claude-code", base / "claude")
        yield base


# --- 15. Gemini tool calls and results as text, not JSON strings ---------------------------------


def test_gemini_tool_results_are_text_with_real_lines(transcripts_home):
    docs = _documents("gemini")
    tools = [d for d in docs.values() if d["metadata"]["kind"] in ("tool_call", "tool_result")]
    # Line breaks are real (source code may still hold a few literal `\\n`s of its own).
    assert tools and all(d["text"].count("\n") >= d["text"].count("\\n") for d in tools)
    readme = next(d for d in tools if d["metadata"]["kind"] == "tool_result" and "Discord Bot" in d["text"])
    assert "# AI-Powered Discord Bot" in readme["text"].split("\n")
    write = next(d for d in tools if d["text"].startswith("write_file("))
    assert "# GEMINI.md - Project Context & Instructions" in write["text"].split("\n")
    # Words at line starts no longer fuse with the escape's `n`.
    assert search("nimport", collection="gemini") == []
    assert search("nfrom", collection="gemini") == []
    assert search("import logging", collection="gemini")


@pytest.mark.skipif(not TRANSCRIPTS.is_dir(), reason="corpus not found")
def test_codex_json_string_arguments_and_outputs_are_text():
    from pica.stages.transcripts import codex
    from pica.stages.transcripts.lines import read_lines

    path = TRANSCRIPTS / "codex" / "vibecodingtracker" / "codex.jsonl"
    messages = codex.parse(read_lines(path, 0, 1), {}, []).messages
    listing = next(m.text for m in messages if m.kind == "tool_result" and m.text.startswith("total 124"))
    assert "\\n" not in listing and len(listing.split("\n")) > 5  # `ls -la`, a line per entry
    assert any(m.text == "shell(command: bash -lc ls -la)" for m in messages)


# --- 16. terminal colour and control codes ---------------------------------------------------------


def test_terminal_codes_are_stripped():
    from pica.stages.readers.decode import strip_terminal_codes

    assert strip_terminal_codes("Kept model as \x1b[1mopus\x1b[22m") == "Kept model as opus"
    assert strip_terminal_codes("\x1b[38;5;196mred\x1b[0m \x1b[2K\x1b[1Gdone") == "red done"
    assert strip_terminal_codes("\x1b]8;;https://x.org\x1b\\link\x1b]8;;\x07 \x1b]0;title\x07ok") == "link ok"
    assert strip_terminal_codes("tab\tand\nnew line, ä 中") == "tab\tand\nnew line, ä 中"


def test_transcripts_are_stored_without_terminal_codes(transcripts_home):
    docs = _documents("claude-code")
    kept = [d["text"] for d in docs.values() if "Kept model as" in d["text"]]
    assert kept and all("\x1b" not in t and "[1m" not in t for t in kept)
    assert any("Kept model as Default (recommended)" in t for t in kept)
    assert not any("\x1b" in d["text"] for d in docs.values())


def test_text_files_are_stored_without_terminal_codes(tmp_path):
    log = tmp_path / "build.txt"
    log.write_text("\x1b[1mCompiling\x1b[0m pica v1\n\x1b[32mok\x1b[0m: 12 passed\n")
    doc = read_document(log, "build.txt", "c")
    assert doc.text == "Compiling pica v1\nok: 12 passed\n"


# --- 17. transcript citations point at the message's line of the file -----------------------------


def _words(value) -> set[str]:
    """Every word of the strings (and keys) in a parsed JSON line."""
    if isinstance(value, str):
        return set(re.findall(r"\w{4,}", value))
    if isinstance(value, dict):
        value = [*value, *value.values()]
    if isinstance(value, list):
        return set().union(*map(_words, value))
    return {json.dumps(value)}  # true, false, null, numbers


def test_transcript_chunks_cite_the_file_line_of_their_message(transcripts_home):
    path = transcripts_home / "claude" / "-home-me-app" / "tool_heavy.jsonl"
    file_lines = path.read_text().split("\n")
    docs = _documents("claude-code")
    store = LanceStore(Path(os.environ["PICA_HOME"]) / "lance")
    chunks = [c for c in store.iter_chunks() if c.path == "-home-me-app/tool_heavy.jsonl"]
    assert any(c.char_start > 0 for c in chunks), "the session should hold messages of several chunks"
    for chunk in chunks:
        line = docs[chunk.doc_id]["metadata"]["line"]
        assert (chunk.line_start, chunk.line_end) == (line, line)
        said = _words(json.loads(file_lines[line - 1]))
        assert set(re.findall(r"\w{4,}", chunk.text)) <= said, chunk.id  # the message is on that line


def test_transcript_hits_carry_their_lines_inside_the_message(transcripts_home):
    docs = _documents("claude-code")
    store = LanceStore(Path(os.environ["PICA_HOME"]) / "lance")
    later = next(c for c in store.iter_chunks() if c.path.endswith("tool_heavy.jsonl") and c.char_start > 0)
    words = sorted(set(re.findall(r"[A-Za-z]{6,}", later.text)), key=len, reverse=True)[:4]
    hits = [h for h in search(" ".join(words), collection="claude-code", k=20) if h.chunk_id == later.id]
    assert hits, words
    hit = hits[0]
    text = docs[hit.id]["text"].split("\n")
    first, last = hit.metadata["message_line_start"], hit.metadata["message_line_end"]
    assert first > 1 and hit.line_start == hit.line_end == hit.metadata["line"]
    assert later.text in "\n".join(text[first - 1 : last])  # a piece, when a long line was cut


def test_lines_inside_the_message_survive_a_keyword_index_built_from_lancedb(tmp_path, pica_home):
    root = tmp_path / "claude" / "-home-me-app"
    root.mkdir(parents=True)
    shutil.copy(SPOTTER / "tool_heavy.jsonl", root / "s.jsonl")
    _ingest("claude-code", tmp_path / "claude")  # a fresh keyword index: built from LanceDB
    hits = search("Phoenix server", collection="claude-code")
    assert hits and all("message_line_start" in h.metadata for h in hits)


# --- 18. legacy encodings: the common ones first -------------------------------------------------

SENTENCES = [  # (text, encodings it is written in)
    (
        "Vielä on aikaa. Hyvää päivää, ystäväni! Tämä järvi on syvä, ja Åland on kaunis.",
        ["latin-1", "cp1252"],
    ),
    ("Die Straße führt über die Brücke zum Rathaus. Müller hat fünf Äpfel gekauft.", ["latin-1", "cp1252"]),
    ("L'été dernier, nous sommes allés à la plage près de Nîmes; c'était très agréable.", ["latin-1"]),
    ("Le garçon a reçu une lettre de sa sœur — elle coûte 3,50 € « seulement ».", ["cp1252"]),
    ("Москва - столица России, крупнейший по численности населения город страны.", ["cp1251", "koi8-r"]),
    ("東京は日本の首都であり、世界最大級の都市圏を形成している。", ["shift_jis"]),
    ("서울은 대한민국의 수도이며 가장 큰 도시이다. 한강이 도시를 가로질러 흐른다.", ["euc_kr"]),
]


@pytest.mark.parametrize(
    ("text", "encoding"), [(text, encoding) for text, encodings in SENTENCES for encoding in encodings]
)
def test_legacy_encodings_decode_to_the_original(text, encoding):
    assert decode(text.encode(encoding))[0] == text


@needs_corpus()
def test_corpus_cp1252_html_is_read_as_cp1252():
    data = (DOCUMENTS / "html/unstructured/fake-html-cp1252.html").read_bytes()
    text, encoding = decode(data)
    assert text == data.decode("cp1252") and encoding == "cp1252"
    assert "L'été était très chaud" in text and "El niño" in text and "Kvinnan åt" in text


@needs_corpus()
@pytest.mark.parametrize("encoding", ["latin-1", "cp1252"])
def test_corpus_spanish_text_in_legacy_encodings(encoding):
    original = (DOCUMENTS / "txt/unstructured/eng_spa_mult.txt").read_text(encoding="utf-8")
    assert decode(original.encode(encoding))[0] == original


@needs_corpus()
def test_corpus_chinese_in_gb18030_and_big5():
    simplified = (DOCUMENTS / "md/langchain-chatchat/大模型应用技术原理.md").read_text(encoding="utf-8")
    assert decode(simplified.encode("gb18030")) == (simplified, "gb18030")
    answer = json.loads(GEMINI.read_text(encoding="utf-8").split("\n")[19])["content"]  # traditional Chinese
    traditional = "".join(c for c in answer if c.encode("big5", errors="ignore"))  # within Big5's repertoire
    assert decode(traditional.encode("big5"))[0] == traditional


# --- 19. a BOM before front matter that is all the file holds -----------------------------------


def test_bom_and_front_matter_only_markdown_is_indexed_by_its_title(tmp_path):
    note = tmp_path / "stub.md"
    note.write_bytes("\ufeff---\ntitle: Release checklist\ntags: [ops]\n---\n".encode())
    doc = read_document(note, "stub.md", "c")
    assert doc.title == "Release checklist" and doc.metadata["tags"] == ["ops"]
    assert "Release checklist" in doc.text and doc.first_line == 1


def test_bom_and_front_matter_only_markdown_is_searchable(tmp_path, pica_home):
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "stub.md").write_bytes("\ufeff---\ntitle: Release checklist\n---\n".encode())
    out = index(folder, "notes")
    assert out["skipped"] == []
    assert [h.id for h in search("release checklist")] == ["notes/stub.md"]


# --- 20. JSON Lines with nested fields -----------------------------------------------------------

ELEMENTS = DOCUMENTS / "jsonl/unstructured/spring-weather.html.ndjson"  # records with nested metadata


def _elements() -> list[dict]:
    return [json.loads(line) for line in ELEMENTS.read_text().splitlines() if line.strip()]


def _read_jsonl(folder: Path, name: str, **params) -> list:
    files = FileChanges("c", str(folder), changed=[FileRef(name, 1, 0)])
    return ReadJsonl(ReadJsonl.Params(**params)).run(Context(), files)["documents"]


@needs_corpus()
def test_jsonl_dotted_paths_reach_nested_fields():
    docs = _read_jsonl(ELEMENTS.parent, ELEMENTS.name, title_fields=["metadata.data_source.url"])
    assert docs and {d.title for d in docs} == {"abfs://container1/spring-weather.html"}
    assert "url" not in docs[0].metadata["metadata"]["data_source"]  # used, so not repeated
    assert "version" in docs[0].metadata["metadata"]["data_source"]  # its siblings stay


@needs_corpus()
def test_jsonl_dotted_paths_read_vespa_and_elasticsearch_shapes(tmp_path):
    records = _elements()
    vespa = [
        {"put": f"id:w:el::{r['element_id']}", "fields": {"title": r["type"], "text": r["text"]}}
        for r in records
    ]
    (tmp_path / "feed.jsonl").write_text("\n".join(json.dumps(v) for v in vespa) + "\n")
    docs = _read_jsonl(
        tmp_path, "feed.jsonl", id_fields=["put"], title_fields=["fields.title"], text_fields=["fields.text"]
    )
    assert [d.text for d in docs] == [r["text"] for r in records]
    assert [d.title for d in docs] == [r["type"] for r in records]
    assert docs[0].metadata == {"record_id": f"id:w:el::{records[0]['element_id']}"}  # nothing repeated

    hits = [
        {"_id": r["element_id"], "_source": {"title": r["type"], "body": {"text": r["text"]}}}
        for r in records
    ]
    (tmp_path / "feed.jsonl").write_text("\n".join(json.dumps(h) for h in hits) + "\n")
    docs = _read_jsonl(tmp_path, "feed.jsonl", id_fields=["_id"], title_fields=["_source.title"],
                       text_fields=["_source.body.text"])  # fmt: skip
    assert [(d.metadata["record_id"], d.text) for d in docs] == [
        (r["element_id"], r["text"]) for r in records
    ]


@needs_corpus()
def test_jsonl_nested_fields_through_the_collection_options(tmp_path, pica_home):
    folder = tmp_path / "feed"
    folder.mkdir()
    records = _elements()
    vespa = [
        {"put": f"id:w:el::{r['element_id']}", "fields": {"title": r["type"], "text": r["text"]}}
        for r in records
    ]
    (folder / "feed.jsonl").write_text("\n".join(json.dumps(v) for v in vespa) + "\n")
    out = index(
        folder,
        "feed",
        jsonl_text_fields=["fields.text"],
        jsonl_id_fields=["put"],
        jsonl_title_fields=["fields.title"],
    )
    assert out["skipped"] == [] and len(out["stored"].added) == len(records)
    assert search("News Around NOAA", k=1)[0].id == f"feed/feed.jsonl#id:w:el::{records[0]['element_id']}"
