"""grep over the stored chunk text: literal or regular expression, line-exact results.

Fast on a large index because it never scans everything it can avoid: the words a match must
contain are looked up in the keyword index first, and only those chunks are checked with the
pattern. Words at the edges of a literal part are left out of that lookup, since the text
around them may extend them (`unning` matches inside `running`).
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from pydantic import Field, model_validator

from pica.kernel.records import Hit
from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage
from pica.stages.filters import HitFilter
from pica.stages.index.keyword_index import open_for_search, stored_hit
from pica.stages.trust import Trust, trust_field

TOKEN = re.compile(r"[^\W_]+")  # what Tantivy's tokenizer keeps as one word
MAX_TOKEN = 40  # Tantivy drops longer tokens, so they cannot be looked up
SCAN_LIMIT = 2_000_000


class GrepParams(Params):
    index_dir: str = Field(description="Folder of the keyword index (it stores the chunk text).")
    pattern: str = Field(description="Text to find, exactly; a regular expression with regex=true.")
    regex: bool = Field(False, description="Treat the pattern as a Python regular expression.")
    ignore_case: bool = Field(False, description="Match regardless of case.")
    k: int = Field(200, gt=0, le=100_000, description="How many matching lines to return.")
    collection: str = Field("", description="Only this collection (empty: all).")
    path: str = Field("", description="Only paths matching this glob (empty: all).")
    # Checked once, by the recipe's last stage (shape.results.v1), so a bad one is told once.
    filters: list[str] = Field(default=[], description="Metadata conditions FIELD=VALUE, !=, >, >=, <, <=.")
    trust: Trust = trust_field()

    @model_validator(mode="after")
    def _pattern_compiles(self) -> GrepParams:
        if self.regex:
            compiled(self.pattern, True, self.ignore_case)
        return self


@stage
class RetrieveGrep(Stage):
    """Find exact text or a regular expression in the stored text; one hit per matching line.

    Filters (collection, path, metadata) apply to each matching chunk before its lines are
    collected, so the first `k` lines come from documents that pass.
    """

    id = "retrieve.grep.v1"
    Params = GrepParams
    outputs = {"hits": list[Hit]}
    run_params = frozenset({"pattern", "regex", "ignore_case", "k", "collection", "path", "filters", "trust"})
    timeout_s = 10.0
    on_error = "skip"

    @classmethod
    def example(cls, workdir: Path) -> Example:
        from pica.stages.retrieve.lexical import RetrieveLexical

        params = RetrieveLexical.example(workdir).params
        return Example(params={"index_dir": params["index_dir"], "pattern": "alpha be"})

    def warm_up(self, ctx: Context) -> None:
        self.index = open_for_search(self.params.index_dir)

    def run(self, ctx: Context) -> dict[str, Any]:
        p = self.params
        pattern = compiled(p.pattern, p.regex, p.ignore_case)
        if not p.pattern:
            return {"hits": []}
        self.index.reload()
        searcher = self.index.searcher()
        words = required_words(p.pattern, p.regex)
        query = self._prefilter(words)
        found = searcher.search(query, limit=min(max(searcher.num_docs, 1), SCAN_LIMIT)).hits
        keep = HitFilter(path=p.path, filters=p.filters)  # the collection is in the prefilter
        hits: list[Hit] = []
        seen: set[tuple[str, int]] = set()
        for _, address in sorted(found, key=lambda pair: (pair[1].segment_ord, pair[1].doc)):
            chunk = stored_hit(searcher.doc(address), 1.0, p.trust, "grep")
            if not keep.accepts(chunk):
                continue
            text = chunk.passage
            # A transcript chunk cites its message's line in the file; lines count inside the message.
            inside = "message_line_start" in chunk.metadata
            first = chunk.metadata["message_line_start"] if inside else chunk.line_start
            for match in pattern.finditer(text):
                line = first + text.count("\n", 0, match.start())
                if (chunk.id, line) in seen:
                    continue  # chunks overlap by a line: report it once
                seen.add((chunk.id, line))
                begin = text.rfind("\n", 0, match.start()) + 1
                end = text.find("\n", match.end())
                lines = {"start": line, "end": line + match.group(0).count("\n")}
                cited = (
                    {"metadata": {**chunk.metadata, "message_line_start": lines["start"],
                                  "message_line_end": lines["end"]}}
                    if inside
                    else {"line_start": lines["start"], "line_end": lines["end"]}
                )  # fmt: skip
                hits.append(replace(chunk, passage=text[begin : end if end != -1 else len(text)], **cited))
        hits.sort(key=lambda h: (h.id, h.line_start))
        return {"hits": hits[: p.k]}

    def _prefilter(self, words: list[str]) -> Any:
        import tantivy

        clauses = [f'text:"{w}"' for w in words]
        if self.params.collection:
            clauses.append(f'collection:"{self.params.collection}"')
        if not clauses:
            return tantivy.Query.all_query()
        return self.index.parse_query(" AND ".join(clauses), ["text"])


def compiled(pattern: str, regex: bool, ignore_case: bool) -> re.Pattern[str]:
    """The pattern compiled; ValueError saying where and what is wrong in an invalid one."""
    try:
        return re.compile(pattern if regex else re.escape(pattern), re.I if ignore_case else 0)
    except re.error as error:
        raise ValueError(
            f"'{pattern}' is not a valid regular expression: {error.msg} at position {error.pos}"
        ) from None


def required_words(pattern: str, regex: bool) -> list[str]:
    """Whole words every match must contain, for the keyword-index prefilter."""
    runs = literal_runs(pattern) if regex else [pattern]
    words = []
    for run in runs:
        tokens = list(TOKEN.finditer(run))
        for token in tokens:
            touches_edge = token.start() == 0 or token.end() == len(run)
            if not touches_edge and len(token.group()) <= MAX_TOKEN:
                words.append(token.group().lower())
    return sorted(set(words))


def literal_runs(pattern: str) -> list[str]:
    """Stretches of plain characters at the top level of a regular expression."""
    try:
        from re import _parser as parser  # type: ignore[attr-defined]
    except ImportError:  # Python < 3.11
        import sre_parse as parser  # type: ignore[no-redef]

    runs, current = [], []
    for op, value in parser.parse(pattern):
        if str(op) == "LITERAL":
            current.append(chr(value))
        else:
            if current:
                runs.append("".join(current))
            current = []
    if current:
        runs.append("".join(current))
    return runs
