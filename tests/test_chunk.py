"""Chunking on line boundaries."""

from __future__ import annotations

import itertools

from pica.kernel.records import Document
from pica.kernel.stage import Context
from pica.stages.chunk import ChunkLines, split_lines


def test_spans_cover_every_nonblank_line_in_order():
    lines = [f"line {i} " + "x" * (i % 37) for i in range(300)]
    spans = split_lines(lines, 500, 1)
    covered = sorted({i for start, end, _ in spans for i in range(start, end + 1)})
    assert covered == list(range(300))
    for start, end, text in spans:
        assert text == "\n".join(lines[start : end + 1])
        assert len(text) <= 500


def test_size_splits_repeat_one_line_of_overlap():
    lines = ["a" * 90 for _ in range(20)]
    spans = split_lines(lines, 400, 1)
    for previous, following in itertools.pairwise(spans):
        assert following[0] == previous[1]


def test_headings_start_chunks_unless_the_chunk_is_tiny():
    lines = ["# One", "short", "## Two", *(["text " * 20] * 3), "## Three", "tiny", "## Four", "x"]
    spans = split_lines(lines, 1000, 1)
    # "Two" joins the tiny "One"; "Three" starts a chunk; "Four" joins the tiny "Three".
    assert [(s[0], s[1]) for s in spans] == [(0, 5), (6, 9)]


def test_heading_inside_code_fence_does_not_split():
    lines = ["# Top", "x" * 300, "```", "# comment in code", "```", "y" * 300]
    spans = split_lines(lines, 1000, 1)
    assert len(spans) == 1


def test_a_huge_line_is_cut_into_pieces_on_its_own_line_number():
    lines = ["short", "word " * 1000, "after"]
    spans = split_lines(lines, 500, 1)
    middle = [s for s in spans if s[0] == s[1] == 1]
    assert len(middle) >= 10
    assert all(len(text) <= 500 for _, _, text in middle)
    assert "".join(t for _, _, t in middle).replace(" ", "") == ("word " * 1000).replace(" ", "")


def test_chunk_line_numbers_are_file_line_numbers():
    doc = Document("c/a.md", "c", "a.md", "A", "# A\nbody\n", first_line=5)
    chunks = ChunkLines(ChunkLines.Params()).run(Context(), documents=[doc])["chunks"]
    assert [(c.line_start, c.line_end, c.id) for c in chunks] == [(5, 7, "c/a.md#0")]
