"""Codex CLI: `~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<thread>.jsonl`, lines of
`{timestamp, type, payload}`. User and assistant text arrive twice (as `response_item` and as
`event_msg`): the response items are indexed, an event only when no item said the same. Reasoning
is indexed from its readable summary; its `encrypted_content` never is.
"""

from __future__ import annotations

import json
from typing import Any

from pica.stages.transcripts.lines import Message, Parsed, Read, as_text, iter_objects, text_of

INJECTED = ("<environment_context>", "<user_instructions>", "<permissions instructions>", "# AGENTS.md",
            "# Context from my IDE setup", "<INSTRUCTIONS>")  # fmt: skip
ROLES = {"user": "user", "assistant": "assistant", "developer": "system", "system": "system"}


def parse(read: Read, context: dict[str, Any], problems: list[tuple[int, str]]) -> Parsed:
    messages: list[Message] = []
    events: list[Message] = []
    said: set[str] = set()
    for line, obj in iter_objects(read, problems):
        kind, payload = obj.get("type"), obj.get("payload")
        stamp = str(obj.get("timestamp") or "")
        if "payload" not in obj and ("record_type" in obj or "instructions" in obj or "id" in obj):
            kind, payload = _legacy(obj)  # mid-2025 files: bare items, no envelope
        if not isinstance(payload, dict):
            if kind is None:
                problems.append((line.number, "no 'type'"))
            continue
        if kind == "session_meta":
            context.update(session=payload.get("id") or context.get("session"), cwd=payload.get("cwd", ""))
        elif kind == "turn_context" and payload.get("cwd"):
            context["cwd"] = payload["cwd"]
        elif kind == "response_item":
            found = _item(payload, line.number, stamp)
            if found is not None:
                messages.append(found)
                if found.kind == "text":
                    said.add(found.text.strip())
        elif kind == "event_msg" and payload.get("type") in ("user_message", "agent_message"):
            role = "user" if payload["type"] == "user_message" else "assistant"
            text = str(payload.get("message") or "")
            if text.strip():
                events.append(Message(f"L{line.number}", role, "text", text, line.number, stamp))
        elif kind == "compacted" and isinstance(payload.get("message"), str):
            messages.append(
                Message(f"L{line.number}", "system", "compaction", payload["message"], line.number, stamp)
            )
    messages += [e for e in events if e.text.strip() not in said]
    messages.sort(key=lambda m: m.line)
    return Parsed(messages, context)


def _legacy(obj: dict[str, Any]) -> tuple[str | None, Any]:
    if "record_type" in obj:
        return None, None
    if "instructions" in obj and "type" not in obj:
        return "session_meta", obj
    return "response_item", obj


def _item(item: dict[str, Any], number: int, stamp: str) -> Message | None:
    key = f"L{number}"
    kind = item.get("type")
    if kind == "message":
        text = text_of(item.get("content"))
        if not text.strip():
            return None
        role = ROLES.get(item.get("role", ""), "system")
        injected = role == "system" or text.lstrip().startswith(INJECTED)
        return Message(
            key, "system" if injected else role, "context" if injected else "text", text, number, stamp
        )
    if kind == "reasoning":
        summary = text_of(item.get("summary")) or text_of(item.get("content"))
        return Message(key, "assistant", "thinking", summary, number, stamp) if summary.strip() else None
    if kind in ("function_call", "custom_tool_call", "local_shell_call", "web_search_call"):
        name = item.get("name") or kind.removesuffix("_call")
        arguments = _decoded(item.get("arguments", item.get("input", item.get("action", ""))))
        return Message(
            key, "assistant", "tool_call", f"{name}({as_text(arguments)})", number, stamp, {"tool": name}
        )
    if kind in ("function_call_output", "custom_tool_call_output"):
        output = item.get("output")
        if isinstance(output, str):
            envelope = _decoded(output)  # older Codex: {"output": …, "metadata": …} in a string
            if isinstance(envelope, dict) and isinstance(envelope.get("output"), str):
                output = envelope["output"]
        elif isinstance(output, dict):
            output = output.get("output", output.get("content", output))
        text = text_of(output) if isinstance(output, list) else as_text(output or "")
        return Message(key, "tool", "tool_result", text, number, stamp) if text.strip() else None
    return None


def _decoded(value: Any) -> Any:
    """JSON inside a string (a function call's `arguments`), decoded so that its text keeps its
    real lines instead of literal `\\n`s. Other strings (patches, plain output) stay."""
    if isinstance(value, str) and value.lstrip().startswith("{"):
        try:
            return json.loads(value)
        except ValueError:
            pass
    return value
