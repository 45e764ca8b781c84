"""read.transcripts.v1: the changed transcript files of one agent, as one document per message."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from pica.kernel.records import Document, FileChanges, FileRef, Skipped
from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage
from pica.stages.readers.decode import strip_terminal_codes
from pica.stages.store.catalog import Catalog
from pica.stages.transcripts import claude, codex, gemini
from pica.stages.transcripts.lines import Message, Parsed, head_hash, read_lines, resume_point

FORMATS = {"claude-code": claude.parse, "codex": codex.parse, "gemini": gemini.parse}


class TranscriptParams(Params):
    agent: Literal["claude-code", "codex", "gemini"] = Field(description="Whose transcripts these are.")
    home: str = Field(description="PICA_HOME: where the catalog keeps each file's cursor.")


@stage
class ReadTranscripts(Stage):
    """Read new and changed transcripts (a file that only grew from where it stopped) into one
    document per message: user and assistant text, thinking (kind=thinking), tool calls and
    results, each with session, project, agent, role, kind, timestamp, cwd and line. Bad lines
    are skipped and reported; a half-written last line waits for the next run."""

    id = "read.transcripts.v1"
    Params = TranscriptParams
    inputs = {"files": FileChanges}
    outputs = {"documents": list[Document], "skipped": list[Skipped], "files": FileChanges}

    @classmethod
    def example(cls, workdir: Path) -> Example:
        session = workdir / "projects" / "-home-me-app" / "s1.jsonl"
        session.parent.mkdir(parents=True)
        session.write_text(
            '{"type":"user","sessionId":"s1","uuid":"u1","cwd":"/home/me/app",'
            '"timestamp":"2026-01-02T03:04:05Z","message":{"role":"user","content":"hello"}}\n'
        )
        files = FileChanges(
            "claude-code", str(workdir / "projects"), changed=[FileRef("-home-me-app/s1.jsonl", 1, 1)]
        )
        return Example(
            params={"agent": "claude-code", "home": str(workdir / "home")}, inputs={"files": files}
        )

    def run(self, ctx: Context, files: FileChanges | None) -> dict[str, Any]:
        if files is None:
            return {"documents": [], "skipped": [], "files": FileChanges("", "")}
        with Catalog(self.params.home) as catalog:
            cursors = catalog.cursors(files.collection)
        out = dataclasses.replace(files, partial=[], cursors={})
        documents: list[Document] = []
        skipped: list[Skipped] = []
        for ref in files.changed:
            try:
                read = self._read(Path(files.root) / ref.path, ref.path, cursors.get(ref.path), skipped)
            except (OSError, ValueError) as error:
                skipped.append(Skipped(ref.path, str(error)))
                continue
            messages, cursor, partial = read
            documents += [self._document(files.collection, ref.path, m, cursor["context"]) for m in messages]
            out.cursors[ref.path] = cursor
            if partial:
                out.partial.append(ref.path)
        bad = sum(1 for s in skipped if ":" in s.path)
        ctx.report(
            f"{len(documents)} messages from {len(out.cursors)} files"
            + (f", {len(out.partial)} read from where they stopped" if out.partial else "")
            + (f", {bad} bad lines skipped" if bad else "")
        )
        return {"documents": documents, "skipped": skipped, "files": out}

    def _read(
        self, path: Path, relative: str, cursor: dict[str, Any] | None, skipped: list[Skipped]
    ) -> tuple[list[Message], dict[str, Any], bool]:
        problems: list[tuple[int, str]] = []
        if self.params.agent == "gemini" and path.suffix == ".json":
            context: dict[str, Any] = {}
            messages = gemini.parse_legacy(path, context, problems)
            start = 0
            end = {"context": context, "bad": len(problems)}  # read whole every time: no offset
        else:
            start, first_line = resume_point(path, cursor)
            context = dict(cursor["context"]) if start and cursor else {}
            read = read_lines(path, start, first_line)
            parsed: Parsed = FORMATS[self.params.agent](read, context, problems)
            if parsed.restart:
                start, context, problems = 0, {}, []
                read = read_lines(path, 0, 1)
                parsed = FORMATS[self.params.agent](read, context, problems)
            messages = parsed.messages
            offset, line = parsed.resume or (read.complete_end, read.first_line + read.complete_lines)
            earlier_bad = int(cursor.get("bad", 0)) if start and cursor else 0
            end = {
                "offset": offset,
                "line": line,
                "head": head_hash(path, offset),
                "context": parsed.context,
                "bad": earlier_bad + len(problems),
            }
        skipped += [Skipped(f"{relative}:{n}", why) for n, why in problems]
        return messages, end, start > 0

    def _document(
        self, collection: str, relative: str, message: Message, context: dict[str, Any]
    ) -> Document:
        project = _project(context, relative)
        metadata = {
            "session": str(context.get("session") or Path(relative).stem),
            "project": project,
            "agent": self.params.agent,
            "role": message.role,
            "kind": message.kind,
            "timestamp": message.timestamp,
            "cwd": str(context.get("cwd") or ""),
            "line": message.line,
            "line_end": message.line_end or message.line,  # a response merged from several lines
            **message.extra,
        }
        if context.get("agent_id"):
            metadata["subagent"] = context["agent_id"]
        return Document(
            id=f"{collection}/{relative}#{message.key}",
            collection=collection,
            path=relative,
            title=f"{project} · {message.role}",
            text=strip_terminal_codes(message.text),  # command output's colours, for every agent
            metadata=metadata,
            source="transcripts",
            first_line=message.line,
        )


def _project(context: dict[str, Any], relative: str) -> str:
    if context.get("cwd"):
        return Path(str(context["cwd"])).name or str(context["cwd"])
    if context.get("project"):
        return str(context["project"])
    return Path(relative).parts[0] if len(Path(relative).parts) > 1 else ""
