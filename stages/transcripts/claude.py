"""Claude Code: `~/.claude/projects/<project>/<session>.jsonl`, sub-agents in `agent-*.jsonl` beside
them (old layout) or in `<session>/subagents/` (new). One API response is written as several lines
sharing `message.id`, usually one content block each: they are merged into one message per kind.
"""

from __future__ import annotations

from typing import Any

from pica.stages.transcripts.lines import Line, Message, Parsed, Read, as_text, iter_objects, text_of

SKIPPED_TYPES = {  # bookkeeping lines with nothing said in them
    "progress", "file-history-snapshot", "file-history-delta", "queue-operation", "attachment",
    "permission-mode", "last-prompt", "mode", "ai-title",
}  # fmt: skip


def parse(read: Read, context: dict[str, Any], problems: list[tuple[int, str]]) -> Parsed:
    messages: dict[str, Message] = {}  # key -> message, in order of first appearance
    last_group: tuple[str, int, int] | None = None  # (message.id, offset, line) of the last response
    for line, obj in iter_objects(read, problems):
        kind = obj.get("type")
        if "sessionId" in obj and not context.get("session"):
            context["session"] = obj["sessionId"]
        if obj.get("cwd"):
            context["cwd"] = obj["cwd"]
        if obj.get("agentId"):
            context["agent_id"] = obj["agentId"]
        stamp = str(obj.get("timestamp") or "")
        if kind in ("user", "assistant") and isinstance(obj.get("message"), dict):
            group = obj["message"].get("id") if kind == "assistant" else None
            if group and (last_group is None or last_group[0] != group):
                last_group = (group, line.offset, line.number)
            elif not group:
                last_group = None
            _conversation(obj, line, stamp, group or obj.get("uuid") or f"L{line.number}", messages)
        elif kind == "system":
            last_group = None
            text = text_of(obj.get("content"))
            if text.strip():
                subtype = obj.get("subtype") or "system"
                kind_name = "compaction" if subtype == "compact_boundary" else subtype
                key = obj.get("uuid") or f"L{line.number}"
                messages[key] = Message(key, "system", kind_name, text, line.number, stamp)
        elif kind == "summary":
            if isinstance(obj.get("summary"), str):
                key = f"summary-{obj.get('leafUuid') or line.number}"
                messages[key] = Message(key, "system", "summary", obj["summary"], line.number, stamp)
        elif kind in SKIPPED_TYPES:
            last_group = None
        elif kind is None:
            problems.append((line.number, "no 'type'"))
        # unknown future types are skipped quietly: they are not damage
    resume = (last_group[1], last_group[2]) if last_group else None
    return Parsed(list(messages.values()), context, resume)


def _conversation(obj: dict[str, Any], line: Line, stamp: str, group: str, out: dict[str, Message]) -> None:
    message = obj["message"]
    role = message.get("role") or obj["type"]
    content = message.get("content")
    blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
    if not isinstance(blocks, list):
        return
    extra = {k: v for k, v in (("model", message.get("model")), ("sidechain", obj.get("isSidechain"))) if v}
    text_kind = "compact_summary" if obj.get("isCompactSummary") else "meta" if obj.get("isMeta") else "text"
    for block in blocks:
        if not isinstance(block, dict):
            continue
        block_type = block.get("type")
        if block_type in ("text", "image"):
            text = text_of([block])
            _merge(out, f"{group}:{text_kind}", role, text_kind, text, line, stamp, extra)
        elif block_type == "thinking" and block.get("thinking"):
            _merge(out, f"{group}:thinking", role, "thinking", block["thinking"], line, stamp, extra)
        elif block_type == "tool_use":
            key = block.get("id") or f"{group}:tool{line.number}"
            text = f"{block.get('name', '?')}({as_text(block.get('input', {}))})"
            tool = {**extra, "tool": block.get("name", "")}
            out[key] = Message(key, role, "tool_call", text, line.number, stamp, tool)
        elif block_type == "tool_result":
            key = f"{block.get('tool_use_id') or line.number}:result"
            result = block.get("content")
            text = text_of(result) if isinstance(result, list) else as_text(result or "")
            if block.get("is_error"):
                text = f"[error] {text}"
            out[key] = Message(key, "tool", "tool_result", text, line.number, stamp, dict(extra))


def _merge(
    out: dict[str, Message],
    key: str,
    role: str,
    kind: str,
    text: str,
    line: Line,
    stamp: str,
    extra: dict[str, Any],
) -> None:
    """Add a block's text to its message; lines of one response repeat nothing, but be safe."""
    if not text.strip():
        return
    found = out.get(key)
    if found is None:
        out[key] = Message(key, role, kind, text, line.number, stamp, dict(extra))
    elif text not in found.text:
        found.text += "\n\n" + text
        found.line_end = line.number
