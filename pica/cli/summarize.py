"""`pica summarize SESSION_ID`: the guardrailed session summary (recipes/summarize/session.yaml)."""

from __future__ import annotations

import json

import click

from pica.cli import main


def render_summary(result: dict) -> str:
    """The verdict as text: the summary when trusted, else why not and where to read the session."""
    session = result.get("session", "")
    model, count = result.get("model", ""), result.get("messages", 0)
    head = f"session {session}  trust: {result['trust']}  (model {model}, {count} messages)"
    lines = [head, ""]
    if result["trust"] == "clean":
        lines += [result["summary"], ""]
        lines.append("probes: " + " · ".join(f"{p['probe']} pass" for p in result["probes"]))
        return "\n".join(lines)
    lines.append(result.get("reason", "no summary"))
    for probe in result["probes"]:
        if probe["passed"] is False:
            lines += [f"  {probe['probe']}: {evidence}" for evidence in probe["evidence"] or ["failed"]]
    lines += ["", f"read the session itself: {result.get('see', 'pica session ID')}"]
    return "\n".join(lines)


@main.command()
@click.argument("session_id")
@click.option(
    "--n-messages",
    type=click.IntRange(min=1),
    default=80,
    show_default=True,
    help="Summarize the last N messages.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as JSON.")
def summarize(session_id: str, n_messages: int, as_json: bool) -> None:
    """A short summary of session SESSION_ID by a local model (PICA_OLLAMA_HOST, PICA_LLM_MODEL),
    shown only if six probes find nothing wrong with it; otherwise which probes failed and why."""
    from pica.kernel import runner

    result = runner.run("summarize/session", variables={"session": session_id, "n_messages": n_messages})
    if as_json:
        payload = {**result.output, "warnings": result.warnings, "notes": result.notes}
        click.echo(json.dumps(payload, indent=2, ensure_ascii=False))
        return
    click.echo(render_summary(result.output))
    for warning in result.warnings:
        click.echo(f"warning: {warning}", err=True)
