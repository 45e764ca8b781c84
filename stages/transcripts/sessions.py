"""Sessions read back from the index: the list of sessions, and one session's messages in order."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import Field

from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage
from pica.stages.store.lance_store import BATCH, LanceStore, in_list

WHERE = "source = 'transcripts'"


def _rows(lance_dir: str, where: str, columns: list[str]) -> list[dict[str, Any]]:
    rows = LanceStore(lance_dir).documents_where(where, columns)
    for row in rows:
        row["metadata"] = json.loads(row.get("metadata") or "{}")
    return rows


def nothing_indexed(home: str, folders: dict[str, str]) -> str:
    """What was looked for and where, when no transcript is indexed: the same words for `recent`,
    `session` and `list`, on the command line and over MCP."""
    places = ", ".join(
        f"{agent} in {folder}" + ("" if Path(folder).expanduser().is_dir() else " (no such folder)")
        for agent, folder in folders.items()
    )
    looked = f" The agents' folders looked in: {places}." if places else ""
    return (
        f"No agent transcripts are indexed in {home or 'this home'}.{looked} `pica index` (or the "
        "`reindex` tool) indexes what those folders hold; PICA_CLAUDE_DIR, PICA_CODEX_DIR and "
        "PICA_GEMINI_DIR name other folders."
    )


def _order(message: dict[str, Any]) -> tuple:
    meta = message["metadata"]
    return (meta.get("timestamp") or "", message["path"], meta.get("line") or 0)


class WhereParams(Params):
    lance_dir: str = Field(description="The LanceDB database.")
    home: str = Field("", description="PICA_HOME, named when nothing is indexed.")
    folders: dict[str, str] = Field(default={}, description="agent -> its transcript folder, likewise.")


class SessionsParams(WhereParams):
    n: int = Field(20, ge=1, description="How many sessions, newest first.")
    agent: str = Field("", description="Only this agent's sessions (claude-code, codex, gemini).")
    project: str = Field("", description="Only this project's sessions.")


@stage
class ListSessions(Stage):
    """Recent sessions with their project, agent, first and last timestamp and message count."""

    id = "transcripts.sessions.v1"
    Params = SessionsParams
    outputs = {"sessions": list[dict]}

    @classmethod
    def example(cls, workdir: Path) -> Example:
        return Example(params={"lance_dir": _indexed_example(workdir)})

    def run(self, ctx: Context) -> dict[str, Any]:
        sessions: dict[str, dict[str, Any]] = {}
        rows = _rows(self.params.lance_dir, WHERE, ["path", "metadata"])
        if not rows:
            ctx.note(nothing_indexed(self.params.home, self.params.folders), run_wide=True)
            return {"sessions": []}
        agents = sorted({row["metadata"].get("agent", "") for row in rows} - {""})
        if self.params.agent and self.params.agent not in agents:
            raise LookupError(
                f"no sessions of agent '{self.params.agent}' are indexed "
                f"(agents with sessions: {', '.join(agents) or 'none'})"
            )
        for row in rows:
            meta = row["metadata"]
            if (self.params.agent and meta.get("agent") != self.params.agent) or (
                self.params.project and meta.get("project") != self.params.project
            ):
                continue
            stamp = meta.get("timestamp") or ""
            entry = sessions.setdefault(
                meta.get("session", ""),
                {"session": meta.get("session", ""), "project": meta.get("project", ""),
                 "agent": meta.get("agent", ""), "start": stamp, "end": stamp, "messages": 0,
                 "files": set()},
            )  # fmt: skip
            entry["messages"] += 1
            entry["files"].add(row["path"])
            if stamp:
                entry["start"] = min(entry["start"] or stamp, stamp)
                entry["end"] = max(entry["end"], stamp)
        if not sessions and self.params.project:
            projects = sorted({row["metadata"].get("project", "") for row in rows} - {""})
            shown = ", ".join(projects[:20]) + (
                f", and {len(projects) - 20} more" if len(projects) > 20 else ""
            )
            ctx.note(f"no sessions of project '{self.params.project}' (projects: {shown})", run_wide=True)
        found = sorted(sessions.values(), key=lambda s: s["end"], reverse=True)[: self.params.n]
        for entry in found:
            entry["files"] = sorted(entry["files"])
        return {"sessions": found}


class MessagesParams(WhereParams):
    session: str = Field("", description="The session id (a unique prefix will do); empty: the newest.")
    last: int = Field(0, ge=0, description="Only the last N messages (0: all).")


@stage
class SessionMessages(Stage):
    """One session's messages in order (the newest session when none is named)."""

    id = "transcripts.messages.v1"
    Params = MessagesParams
    outputs = {"messages": list[dict]}

    @classmethod
    def example(cls, workdir: Path) -> Example:
        return Example(params={"lance_dir": _indexed_example(workdir)})

    def run(self, ctx: Context) -> dict[str, Any]:
        # Pick the messages from metadata alone; read the text of only those.
        rows = _rows(self.params.lance_dir, WHERE, ["id", "collection", "path", "metadata"])
        if not rows:
            raise LookupError(nothing_indexed(self.params.home, self.params.folders))
        sessions = {r["metadata"].get("session", "") for r in rows}
        if self.params.session:
            chosen = [s for s in sessions if s == self.params.session] or [
                s for s in sessions if s.startswith(self.params.session)
            ]
            if len(chosen) != 1:
                what = "matches several sessions" if chosen else "is no indexed session"
                raise LookupError(f"'{self.params.session}' {what}; `pica list` shows them")
            session = chosen[0]
        else:
            session = max(rows, key=_order)["metadata"].get("session", "")
        messages = sorted((r for r in rows if r["metadata"].get("session", "") == session), key=_order)
        if self.params.last:
            messages = messages[-self.params.last :]
        ids = [m["id"] for m in messages]
        texts = {}
        for start in range(0, len(ids), BATCH):
            for row in _rows(
                self.params.lance_dir, in_list("id", ids[start : start + BATCH]), ["id", "text"]
            ):
                texts[row["id"]] = row["text"]
        return {"messages": [{**m, "text": texts.get(m["id"], "")} for m in messages]}


def _indexed_example(workdir: Path) -> str:
    from pica.kernel.records import Document
    from pica.stages.store.lance_store import document_hash

    lance_dir = workdir / "home" / "lance"
    doc = Document(
        "claude-code/p/s.jsonl#u1", "claude-code", "p/s.jsonl", "p · user", "hello",
        {"session": "s1", "project": "p", "agent": "claude-code", "role": "user", "kind": "text",
         "timestamp": "2026-01-02T03:04:05Z", "line": 1},
        source="transcripts",
    )  # fmt: skip
    LanceStore(lance_dir).replace([(doc, document_hash(doc))], [], [])
    return str(lance_dir)
