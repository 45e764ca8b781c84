"""The guardrailed session summarizer: a draft from the model, six probes (stages/llm/probes.py),
and a verdict that returns the summary only when every probe passed (docs/llm.md)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pydantic import Field

from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage
from pica.stages.llm import audit
from pica.stages.llm.client import DEFAULT_HOST, DEFAULT_MODEL, Model, ModelUnavailable
from pica.stages.llm.source import conversation

SYSTEM = (
    "You summarize an AI coding agent's session for its user, who was away. Use only what the "
    "messages say; do not guess or add anything. Name files, commands, errors and decisions exactly "
    "as written. Write 3 to 6 short sentences of plain prose, in the language of the messages, with "
    "no preamble and no closing remarks."
)
ASK = (
    "The last messages of the session, oldest first:\n\n{conversation}\n\n"
    "In 3 to 6 sentences: what was this session working on, what got done, and what was left unfinished?"
)
# A first line that only announces the summary ("Here is a summary of the session:") carries no
# content; it is dropped before the probes read the draft, so it neither passes nor fails one.
PREAMBLE = re.compile(
    r"^\s*(?:\*\*)?(?:here(?:'s| is)|sure|certainly|of course|below is|summary)\b[^\n]*:\s*(?:\*\*)?\s*\n",
    re.IGNORECASE,
)


class ModelParams(Params):
    host: str = Field(DEFAULT_HOST, description="The Ollama-compatible server (PICA_OLLAMA_HOST).")
    model: str = Field(DEFAULT_MODEL, description="The model to ask (PICA_LLM_MODEL).")
    timeout_s: float = Field(120.0, gt=0, description="Seconds one model call may take.")


class DraftParams(ModelParams):
    max_chars: int = Field(12000, gt=200, description="Most characters of messages the model reads.")
    message_chars: int = Field(1500, gt=50, description="Each message is cut to this many characters.")
    max_tokens: int = Field(300, gt=10, description="Most tokens the draft may have.")
    context_tokens: int = Field(8192, gt=512, description="The context window asked of the server.")


@stage
class SummarizeDraft(Stage):
    """Ask the model for a short summary of a session's messages: a draft the probes then check."""

    id = "summarize.draft.v1"
    Params = DraftParams
    inputs = {"messages": list[dict]}
    outputs = {"draft": dict}

    @classmethod
    def example(cls, workdir: Path) -> Example:
        return Example(
            params={"host": recorded(workdir, "The user fixed the retry loop in fetch.py.")},
            inputs={"messages": example_messages()},
        )

    def warm_up(self, ctx: Context) -> None:
        p = self.params
        self.model = Model(p.host, p.model, p.timeout_s, {"num_ctx": p.context_tokens})

    def run(self, ctx: Context, messages: list[dict]) -> dict[str, Any]:
        p = self.params
        # Room in the context window for the instructions (~200 tokens) and the answer.
        room = p.context_tokens - p.max_tokens - 400
        text, used = conversation(messages, p.max_chars, p.message_chars, room)
        session = next((m["metadata"].get("session", "") for m in messages if m.get("metadata")), "")
        draft: dict[str, Any] = {
            "session": session,
            "messages": used,
            "source": text,
            "text": "",
            "error": "",
            "model": self.model.model,
            "calls": [],
        }
        if not text:
            draft["error"] = "the session has no message text to summarize"
            return {"draft": draft}
        prompt = [
            {"role": "system", "content": SYSTEM},
            {"role": "user", "content": ASK.format(conversation=text)},
        ]
        ctx.report(f"asking {self.model.model} for a summary of {used} messages")
        try:
            reply, call = self.model.chat(prompt, "summarize", max_tokens=p.max_tokens)
        except ModelUnavailable as error:
            draft["error"] = str(error)
            draft["calls"] += [error.call.record()] if error.call else []
            return {"draft": draft}
        draft["calls"].append(call.record())
        draft["text"] = PREAMBLE.sub("", reply.strip(), count=1).strip()
        return {"draft": draft}


class VerdictParams(Params):
    audit_log: str = Field("", description="The audit log (PICA_AUDIT_LOG); empty: none.")


@stage
class SummarizeVerdict(Stage):
    """Trust the draft only if every probe passed: `clean` with the summary, else `degraded` with
    no summary text, the failed probes' evidence and where to read the session itself."""

    id = "summarize.verdict.v1"
    Params = VerdictParams
    inputs = {"draft": dict, "verdicts": list[dict]}
    outputs = {"summary": dict}

    @classmethod
    def example(cls, workdir: Path) -> Example:
        draft = {
            "session": "s1",
            "messages": 2,
            "source": "",
            "text": "The user fixed fetch.py.",
            "error": "",
            "model": "m",
            "calls": [{"purpose": "summarize", "ok": True}],
        }
        verdicts = [{"probe": "length", "passed": True, "evidence": []}]
        return Example(
            params={"audit_log": str(workdir / "audit.jsonl")}, inputs={"draft": draft, "verdicts": verdicts}
        )

    def run(self, ctx: Context, draft: dict, verdicts: list[dict]) -> dict[str, Any]:
        from pica.stages.secrets import redact

        failed = [v for v in verdicts if v.get("passed") is False]
        clean = bool(draft.get("text")) and not draft.get("error") and not failed and bool(verdicts)
        clean = clean and all(v.get("passed") is True for v in verdicts)
        session = draft.get("session", "")
        result: dict[str, Any] = {
            "session": session,
            "trust": "clean" if clean else "degraded",
            "model": draft.get("model", ""),
            "messages": draft.get("messages", 0),
            "probes": [
                {"probe": v.get("probe", ""), "passed": v.get("passed"), "evidence": v.get("evidence", [])}
                for v in verdicts
            ],
        }
        if clean:
            result["summary"] = redact(draft["text"])
        else:
            if draft.get("error"):
                result["reason"] = f"no summary: {draft['error']}"
            else:
                names = ", ".join(v.get("probe", "") for v in failed) or "the checks"
                result["reason"] = f"no summary: the draft failed {names}, so none is shown"
            result["see"] = f"pica session {session}" if session else "pica session ID"
        calls = [*draft.get("calls", []), *(c for v in verdicts for c in v.get("calls", []))]
        probes = {v.get("probe", ""): _word(v.get("passed")) for v in verdicts}
        for call in calls:
            audit.append(
                self.params.audit_log,
                {**call, "session": session, "trust": result["trust"], "probes": probes},
            )
        return {"summary": result}


def _word(passed: Any) -> str:
    return "pass" if passed is True else "fail" if passed is False else "not run"


def recorded(workdir: Path, *replies: str) -> str:
    """A file of recorded answers for stage examples: the host `file://...` answers from it."""
    import json

    path = workdir / "recorded-answers.json"
    path.write_text(json.dumps({"replies": list(replies)}), encoding="utf-8")
    return path.as_uri()


def example_messages() -> list[dict]:
    def message(n: int, role: str, text: str) -> dict:
        meta = {
            "session": "s1",
            "role": role,
            "kind": "text",
            "agent": "claude-code",
            "project": "p",
            "timestamp": f"2026-01-02T03:04:0{n}Z",
            "line": n,
        }
        return {
            "id": f"claude-code/p/s.jsonl#{n}",
            "collection": "claude-code",
            "path": "p/s.jsonl",
            "metadata": meta,
            "text": text,
        }

    return [
        message(1, "user", "The retry loop in fetch.py never stops; please fix it."),
        message(2, "assistant", "I fixed the retry loop in fetch.py: it now stops after 3 tries."),
    ]
