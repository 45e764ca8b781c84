"""How results look on a terminal. JSON output is `records.to_plain` and needs nothing here."""

from __future__ import annotations

import dataclasses
import json
import textwrap
from typing import Any

from pica.kernel.recipe import Plan
from pica.kernel.records import Hit, Skipped, to_plain

PASSAGE_CHARS = 300
EMPTY = "(no results)"  # what an empty answer says, whatever the command


def render_output(value: Any) -> str:
    if isinstance(value, list) and value and all(isinstance(v, Hit) for v in value):
        return "\n\n".join(render_hit(rank, hit) for rank, hit in enumerate(value, 1))
    if isinstance(value, list) and not value:
        return EMPTY
    if isinstance(value, list) and all(isinstance(v, Skipped) for v in value):
        return "\n".join(f"skipped {s.path}: {s.reason}" for s in value)
    if dataclasses.is_dataclass(value):
        return ", ".join(f"{k}={_brief(v)}" for k, v in dataclasses.asdict(value).items())
    if isinstance(value, dict):
        return "\n".join(f"{k}: {_short(_nested(v))}" for k, v in value.items())
    return json.dumps(to_plain(value), indent=2, ensure_ascii=False, default=str)


def render_hits(hits: list[Hit], show_fields: bool = False) -> str:
    if not hits:
        return EMPTY
    return "\n\n".join(render_hit(rank, hit, show_fields) for rank, hit in enumerate(hits, 1))


def hits_payload(
    hits: list[Hit], warnings: list[str], notes: list[str], tokens: int | None = None
) -> dict[str, Any]:
    """A search's answer as JSON, the same from every command: {hits, warnings, notes}, and
    `tokens` (what the hits cost) when a budget was asked for."""
    payload: dict[str, Any] = {"hits": to_plain(hits), "warnings": warnings, "notes": notes}
    if tokens is not None:
        payload["tokens"] = tokens
    return payload


def hits_tokens(hits: list[Hit], tokenizer: str) -> int:
    """What HITS cost a reader, counted as a budget counts them."""
    from pica.stages.tokens import token_counter
    from pica.stages.trim import hit_text

    count = token_counter(tokenizer)
    return sum(count(hit_text(hit)) for hit in hits)


def render_hit(rank: int, hit: Hit, show_fields: bool = False) -> str:
    where = f"{hit.id}:{hit.line_start}-{hit.line_end}" if hit.line_end else hit.id
    about = [f"score {hit.score:.3f}", *([f"{hit.source} {hit.trust}"] if hit.trust else [])]
    if hit.corroboration:
        about.append(f"also in {len(hit.corroboration)} more")
    if "corroborated_by" in hit.metadata:
        about.append(f"{hit.metadata['corroborated_by']} sites")
    lines = [f"{rank}. {where}  {hit.title}  ({', '.join(about)})"]
    lines += [f"   = {c['id']}:{c['lines'][0]}-{c['lines'][1]} ({c['source']})" for c in hit.corroboration]
    if show_fields:
        lines += [
            f"   {k}: {json.dumps(v, ensure_ascii=False, default=str)}" for k, v in hit.metadata.items()
        ]
    passage = " ".join(hit.passage.split())
    if passage:
        if len(passage) > PASSAGE_CHARS:
            passage = passage[: PASSAGE_CHARS - 1] + "…"
        lines.append(textwrap.indent(textwrap.fill(passage, 96), "   "))
    return "\n".join(lines)


def render_plan(plan: Plan) -> str:
    lines = [f"recipe  {plan.source}", f"kind    {plan.kind}"]
    if plan.description:
        lines.append(f"about   {plan.description}")
    for number, level in enumerate(plan.levels, 1):
        lines.append(f"level {number}: {', '.join(level)}")
        for name in level:
            stage = plan.stages[name]
            limits = f"timeout {stage.timeout_s:g} s, " if stage.timeout_s else ""
            off = "" if stage.enabled else "OFF, "
            lines.append(f"  {name}: {stage.stage_cls.id}  ({off}{limits}on_error {stage.on_error})")
            for key, value in stage.params.model_dump(mode="json").items():
                lines.append(f"      {key} = {json.dumps(value, ensure_ascii=False)}")
            for input_name, refs in stage.inputs.items():
                sources = " + ".join(f"{src}.{out}" for src, out in refs)
                lines.append(f"      {input_name} <- {sources}")
    lines.append(f"output  {json.dumps(plan.to_dict()['output'])}")
    return "\n".join(lines)


def _nested(value: Any) -> Any:
    if isinstance(value, list) or dataclasses.is_dataclass(value):
        return render_output(value)
    if isinstance(value, dict):
        return ", ".join(f"{k}={_brief(v)}" for k, v in value.items())
    return value


def _brief(value: Any) -> str:
    """A long list as its length, so a record fits on a line."""
    if isinstance(value, list) and len(value) > 3:
        return f"[{len(value)} items]"
    return json.dumps(value, ensure_ascii=False, default=str)


def _short(value: Any) -> str:
    text = str(value)
    return text if "\n" not in text else "\n" + textwrap.indent(text, "  ")
