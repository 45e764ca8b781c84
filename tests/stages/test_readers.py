"""Reading Markdown and text: encodings, front matter, titles, bad files."""

from __future__ import annotations

import codecs

import pytest

from pica.kernel.records import FileChanges, FileRef
from pica.kernel.stage import Context
from pica.stages.readers.decode import UndecodableError, decode
from pica.stages.readers.frontmatter import FrontMatterError, split_front_matter
from pica.stages.readers.text import ReadText, read_document, title_of
from tests.conftest import DOCUMENTS, needs_corpus

TEXT = "Grüße, Zürich — naïve café\nsecond line\n"


@pytest.mark.parametrize(
    "encoding",
    ["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"],
)
def test_unicode_encodings_with_and_without_bom(encoding):
    text, _ = decode(TEXT.encode(encoding))
    assert text == TEXT


def test_legacy_encoding_is_detected():
    text, encoding = decode(("Ce texte est écrit en français, très élégant. " * 5).encode("cp1252"))
    assert "français, très élégant" in text
    assert encoding != "utf-8"


def test_binary_is_refused():
    with pytest.raises(UndecodableError):
        decode(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00")


@needs_corpus()
def test_corpus_utf16_files_read_like_the_plain_one():
    plain = (DOCUMENTS / "txt/unstructured/fake-text.txt").read_text()
    for name in ("fake-text-utf-16.txt", "fake-text-utf-16-be.txt"):
        text, encoding = decode((DOCUMENTS / "txt/unstructured" / name).read_bytes())
        assert encoding.startswith("utf-16")
        assert text.split() == plain.split()


def test_front_matter_yaml_toml_json():
    assert split_front_matter("---\ntitle: T\ntags: [a, b]\n---\nbody\n") == (
        {"title": "T", "tags": ["a", "b"]},
        "body\n",
        4,
    )
    assert split_front_matter('+++\nauthor = "bob"\n+++\nbody') == ({"author": "bob"}, "body", 3)
    assert split_front_matter('{"title": "J"}\nbody') == ({"title": "J"}, "body", 1)
    assert split_front_matter("---\n---\nbody") == ({}, "body", 2)
    assert split_front_matter("no front matter\n---\n") == ({}, "no front matter\n---\n", 0)


def test_front_matter_dates_become_iso_strings():
    meta, _, _ = split_front_matter("---\ncreated: 2024-03-01\n---\nx")
    assert meta == {"created": "2024-03-01"}


def test_broken_front_matter_is_an_error():
    with pytest.raises(FrontMatterError):
        split_front_matter("---\ntitle: [unclosed\n---\nbody")


def test_title_rules():
    assert title_of({"title": "Given"}, "# Heading", "f.md") == "Given"
    assert title_of({}, "```\n# not a heading\n```\n## Real one\n", "f.md") == "Real one"
    assert title_of({}, "Setext title\n============\nbody", "f.md") == "Setext title"
    assert title_of({}, "just text", "f.md") == "f.md"


def changes_for(folder, *names):
    refs = [FileRef(n, (folder / n).stat().st_size, 0) for n in names]
    return FileChanges("c", str(folder), changed=refs)


def test_reader_reports_bad_files_and_keeps_going(tmp_path):
    (tmp_path / "good.md").write_text("# Good\ntext")
    (tmp_path / "empty.md").write_text("   \n")
    (tmp_path / "broken.md").write_text("---\ntitle: [unclosed\n---\nbody")
    (tmp_path / "binary.txt").write_bytes(b"\x00\x01\x02\x03" * 10)
    (tmp_path / "data.txt").write_text("x" * 200_001)
    (tmp_path / "other.pdf").write_text("not mine")
    stage = ReadText(ReadText.Params())
    ctx = Context()
    files = changes_for(tmp_path, "good.md", "empty.md", "broken.md", "binary.txt", "data.txt", "other.pdf")
    out = stage.run(ctx, files=files)
    assert [d.id for d in out["documents"]] == ["c/good.md"]
    assert {s.path: s.reason for s in out["skipped"]} == {
        "empty.md": "no text (empty or whitespace only)",
        "broken.md": out["skipped"][1].reason,
        "binary.txt": "binary data (NUL bytes), not text",
        "data.txt": "a line of 200,001 characters: data, not text (limit 100,000)",
    }
    assert out["skipped"][1].reason.startswith("YAML front matter does not parse")
    assert len(ctx.warnings) == 4


@needs_corpus()
def test_corpus_markdown_documents():
    doc = read_document(DOCUMENTS / "md/python-frontmatter/hello-toml.md", "hello-toml.md", "md")
    assert doc.metadata["author"] == "bob"
    assert doc.title == "Title"
    assert doc.first_line == 6
    lines = (DOCUMENTS / "md/python-frontmatter/hello-toml.md").read_text().split("\n")
    assert lines[doc.first_line - 1] == doc.text.split("\n")[0]
    chinese = read_document(DOCUMENTS / "txt/python-frontmatter/chinese.txt", "chinese.txt", "txt")
    assert chinese.metadata["language"] == "中文"
    assert chinese.title == "Let's try unicode"


def test_utf32_file_round_trip(tmp_path):
    path = tmp_path / "wide.txt"
    path.write_bytes(codecs.BOM_UTF32_LE + TEXT.encode("utf-32-le"))
    assert read_document(path, "wide.txt", "c").text == TEXT
