"""Gemini CLI: `~/.gemini/tmp/<project-hash>/chats/session-*.jsonl` (a journal: a metadata line,
message records, `{"$set": …}` and `{"$rewindTo": id}`; a re-appended id replaces the earlier
record) and the older single `.json` object with a `messages` list.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pica.stages.transcripts.lines import Message, Parsed, Read, as_text, iter_objects, text_of

ROLES = {"user": "user", "gemini": "assistant", "model": "assistant"}


def parse(read: Read, context: dict[str, Any], problems: list[tuple[int, str]]) -> Parsed:
    records: dict[str, tuple[int, dict[str, Any]]] = {}  # id -> (line, record); last copy wins
    for line, obj in iter_objects(read, problems):
        if "$rewindTo" in obj or isinstance(obj.get("$set", {}).get("messages"), list):
            if read.start > 0:
                return Parsed([], context, restart=True)  # it rewrites what an earlier run read
            if "$rewindTo" in obj:
                ids = list(records)
                if obj["$rewindTo"] in records:
                    for dropped in ids[ids.index(obj["$rewindTo"]) :]:
                        del records[dropped]
            else:
                records = {
                    str(r.get("id", n)): (line.number, r) for n, r in enumerate(obj["$set"]["messages"])
                }
        elif "$set" in obj:
            continue
        elif "sessionId" in obj and "type" not in obj:
            _metadata(obj, context)
        elif "id" in obj and "type" in obj:
            records.pop(str(obj["id"]), None)  # re-appended: moves to its latest place
            records[str(obj["id"])] = (line.number, obj)
        else:
            problems.append((line.number, "neither a message, metadata nor an update"))
    messages = [m for number, record in records.values() for m in _messages(record, number)]
    return Parsed(messages, context)


def parse_legacy(path: Path, context: dict[str, Any], problems: list[tuple[int, str]]) -> list[Message]:
    """The single-object `.json` session (read whole, every time it changes)."""
    try:
        session = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as error:
        raise ValueError(f"not a JSON session file: {error}") from error
    if not isinstance(session, dict) or not isinstance(session.get("messages"), list):
        raise ValueError("not a Gemini session (no 'messages' list)")
    _metadata(session, context)
    out = []
    for n, record in enumerate(session["messages"]):
        if isinstance(record, dict):
            out += _messages(record, 1, key=str(record.get("id") or n))
        else:
            problems.append((1, f"message {n}: not an object"))
    return out


def _metadata(obj: dict[str, Any], context: dict[str, Any]) -> None:
    context["session"] = obj.get("sessionId") or context.get("session")
    directories = obj.get("directories")
    if isinstance(directories, list) and directories:
        context["cwd"] = str(directories[0])
    elif obj.get("projectHash"):
        context.setdefault("project", str(obj["projectHash"])[:12])


def _messages(record: dict[str, Any], number: int, key: str | None = None) -> list[Message]:
    key = key or str(record.get("id"))
    stamp = str(record.get("timestamp") or "")
    role = ROLES.get(record.get("type", ""), "system")
    extra = {"model": record["model"]} if record.get("model") else {}
    out = []
    text = text_of(record.get("content"))
    if text.strip():
        out.append(Message(f"{key}:text", role, "text", text, number, stamp, extra))
    thoughts = [
        f"{t.get('subject', '')}: {t.get('description', '')}".strip(": ")
        for t in record.get("thoughts") or []
        if isinstance(t, dict)
    ]
    if any(thoughts):
        out.append(Message(f"{key}:thinking", role, "thinking", "\n\n".join(thoughts), number, stamp, extra))
    for n, call in enumerate(record.get("toolCalls") or []):
        if not isinstance(call, dict):
            continue
        name = str(call.get("name") or "?")
        call_key = f"{key}:{call.get('id') or n}"
        text = f"{name}({as_text(call.get('args', {}))})"
        out.append(Message(f"{call_key}:call", role, "tool_call", text, number, stamp, {"tool": name}))
        result = _result(call)
        if result.strip():
            out.append(
                Message(f"{call_key}:result", "tool", "tool_result", result, number, stamp, {"tool": name})
            )
    return out


def _result(call: dict[str, Any]) -> str:
    parts = []
    for part in call.get("result") or []:
        if isinstance(part, dict) and isinstance(part.get("functionResponse"), dict):
            response = part["functionResponse"].get("response", "")
            if isinstance(response, dict) and list(response) == ["output"]:
                response = response["output"]  # the usual wrapper: its key says nothing
            parts.append(as_text(response))
        elif isinstance(part, dict | str):
            parts.append(text_of([part]))
    return "\n".join(p for p in parts if p) or as_text(call.get("resultDisplay") or "")
