"""The LLM layer without a real model: each probe shown to fail on a crafted draft, and a fake
Ollama server (tests/llm_server.py, CannedBackend) that is down, slow, or answers garbage."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from pica.kernel.records import Document, Hit
from pica.kernel.stage import Context
from pica.stages.llm.client import Model, ModelUnavailable
from pica.stages.llm.expand import ExpandLlm, clean, unique
from pica.stages.llm.probes import (
    ProbeGrounding,
    ProbeIdentifiers,
    ProbeLength,
    ProbeProperNouns,
    ProbeRefusal,
    ProbeSelfVerify,
    draft_of,
)
from pica.stages.llm.rerank import RerankLlm, batch_scores
from pica.stages.llm.summarize import SummarizeDraft, SummarizeVerdict, example_messages
from tests.helpers import free_port
from tests.llm_server import CannedBackend, OllamaServer

GOOD = "The user asked to fix the retry loop in fetch.py. The assistant fixed it: it now stops after 3 tries."


def run_probe(cls, text: str, messages=None, **params) -> dict:
    probe = cls(cls.Params(**params))
    probe.warm_up(Context())
    return probe.run(Context(), draft=draft_of(text), messages=messages or example_messages())["verdicts"][0]


@pytest.fixture
def down_url() -> str:
    """A local address nobody listens on."""
    port = free_port()
    return f"http://127.0.0.1:{port}"


# each probe passes a faithful draft and fails the crafted one


@pytest.mark.parametrize(
    "cls", [ProbeLength, ProbeProperNouns, ProbeIdentifiers, ProbeRefusal, ProbeGrounding]
)
def test_a_faithful_draft_passes_every_local_probe(cls):
    verdict = run_probe(cls, GOOD)
    assert verdict["passed"] is True, verdict


def test_length_fails_an_empty_and_an_overlong_draft():
    short = run_probe(ProbeLength, "Done.")
    assert short["passed"] is False and "shorter than 40" in short["evidence"][0]
    long = run_probe(ProbeLength, " ".join(f"The fix of fetch.py went through step {i}." for i in range(40)))
    assert long["passed"] is False and "longer than" in long["evidence"][0]


def test_length_fails_a_model_stuck_in_a_loop():
    verdict = run_probe(ProbeLength, "The retry loop in fetch.py was fixed. " + "It was fixed. " * 3)
    assert verdict["passed"] is False and verdict["evidence"] == ["repeats itself: one sentence 3 times"]


def test_proper_nouns_fails_an_invented_name():
    verdict = run_probe(ProbeProperNouns, "Alice fixed the retry loop in fetch.py with Bob Stone.")
    assert verdict["passed"] is False
    assert verdict["evidence"] == [
        "'Alice' is not in the session",
        "'Bob' is not in the session",
        "'Stone' is not in the session",
    ]


def test_proper_nouns_accepts_names_the_metadata_gives_and_sentence_starts():
    # The agent (claude-code) and project come from the messages' metadata; "Then" opens a sentence.
    verdict = run_probe(ProbeProperNouns, "Then the retry loop in fetch.py was fixed in Claude Code.")
    assert verdict["passed"] is True, verdict


@pytest.mark.parametrize(
    ("draft", "kind", "token"),
    [
        ("The retry loop in src/net/retry.py was fixed.", "path", "src/net/retry.py"),
        ("The user upgraded requests to 2.31.0 in fetch.py.", "version", "2.31.0"),
        ("Retries in fetch.py now wait 250 ms each.", "quantity", "250 ms"),
        ("The fix is commit 9f3e2a1c in fetch.py.", "hash", "9f3e2a1c"),
        ("See https://example.org/retry for the fix in fetch.py.", "URL", "https://example.org/retry"),
        ("The fix closes JIRA-1234 in fetch.py.", "ticket", "JIRA-1234"),
        ("The user renamed retry_forever() in fetch.py.", "function", "retry_forever()"),
    ],
)
def test_identifiers_fails_an_invented_identifier(draft, kind, token):
    verdict = run_probe(ProbeIdentifiers, draft)
    assert verdict["passed"] is False
    assert f"{kind} '{token}' is not in the session" in verdict["evidence"]


def test_identifiers_accepts_a_function_called_with_arguments_in_the_session():
    messages = example_messages()
    messages[1]["text"] += " The loop is in retry_fetch(url, tries)."
    assert (
        run_probe(ProbeIdentifiers, "The user fixed retry_fetch() in fetch.py.", messages)["passed"] is True
    )


def test_identifiers_accepts_a_quantity_written_another_way():
    messages = example_messages()
    messages[1]["text"] += " Each try waits 2s."
    assert run_probe(ProbeIdentifiers, "Each try in fetch.py waits 2 s.", messages)["passed"] is True


@pytest.mark.parametrize(
    ("draft", "evidence"),
    [
        ("I'm sorry, but I cannot summarize this conversation about fetch.py.", "a refusal or apology"),
        ("The retry loop in fetch.py was fixed. I hope this helps!", "talk about the answer itself"),
        ("修复了 fetch.py 中的重试循环现在最多重试三次。", "written in CJK letters"),
        (
            "El usuario pidió arreglar el bucle de fetch.py y ahora se detiene tras tres intentos.",
            "not in English",
        ),
        (
            "The recipe mixes flour, sugar and butter before baking the cake for dinner.",
            "about something else",
        ),
    ],
)
def test_refusal_fails_refusals_meta_talk_and_drift(draft, evidence):
    verdict = run_probe(ProbeRefusal, draft)
    assert verdict["passed"] is False
    assert any(e.startswith(evidence) for e in verdict["evidence"]), verdict["evidence"]


def test_grounding_fails_an_unsupported_sentence():
    draft = GOOD + " The quarterly sales figures were emailed to the finance department."
    verdict = run_probe(ProbeGrounding, draft)
    assert verdict["passed"] is False
    assert verdict["evidence"][0].startswith("sentence 3 of 3: closest passage")
    assert verdict["scores"][0] > verdict["scores"][2]


def test_grounding_uses_the_stored_vectors_of_the_session(tmp_path):
    from pica.kernel.runner import run
    from pica.kernel.settings import Settings

    lance = index_messages(tmp_path / "home", example_messages())
    run("ingest/embed", settings=Settings(home=tmp_path / "home"), variables={"model": "all-MiniLM-L6-v2"})
    probe = ProbeGrounding(ProbeGrounding.Params(lance_dir=str(lance)))
    stored, covered = probe._stored(example_messages(), "all-MiniLM-L6-v2")
    assert stored.shape == (2, 384) and len(covered) == 2
    assert run_probe(ProbeGrounding, GOOD, lance_dir=str(lance))["passed"] is True


@pytest.mark.parametrize(
    ("reply", "evidence"),
    [
        ("1: yes\n2: no", "the model said sentence 2 of 2 is not supported"),
        ("Sure! Both look right to me.", "no yes/no answer for sentence 1, 2 of 2"),
    ],
)
def test_self_verify_fails_unless_the_model_says_yes_to_each_sentence(tmp_path, reply, evidence):
    from pica.stages.llm.summarize import recorded

    verdict = run_probe(ProbeSelfVerify, GOOD, host=recorded(tmp_path, reply))
    assert verdict["passed"] is False and evidence in verdict["evidence"]
    assert verdict["calls"][0]["ok"] is True
    assert run_probe(ProbeSelfVerify, GOOD, host=recorded(tmp_path, "1: yes\n2: Yes"))["passed"] is True


# the verdict: all or nothing


def verdict_of(text: str, verdicts: list[dict], audit_log: str = "") -> dict:
    stage = SummarizeVerdict(SummarizeVerdict.Params(audit_log=audit_log))
    return stage.run(Context(), draft=draft_of(text), verdicts=verdicts)["summary"]


def test_one_failed_probe_withholds_the_whole_summary():
    verdicts = [{"probe": "length", "passed": True, "evidence": []},
                {"probe": "proper_nouns", "passed": False, "evidence": ["'Alice' is not in the session"]}]  # fmt: skip
    result = verdict_of("Alice fixed the retry loop.", verdicts)
    assert result["trust"] == "degraded"
    assert "summary" not in result
    assert "fixed the retry loop" not in json.dumps(result)
    assert result["see"] == "pica session s1"
    assert result["reason"] == "no summary: the draft failed proper_nouns, so none is shown"


def test_a_clean_summary_is_redacted():
    secret = "AKIA" + "Q3EGRIXNLZ5KVMHF"
    result = verdict_of(f"The user set the key {secret} in fetch.py.", [{"probe": "length", "passed": True}])
    assert result["trust"] == "clean"
    assert secret not in result["summary"] and "[REDACTED" in result["summary"]


def test_a_probe_that_did_not_run_is_no_pass():
    result = verdict_of(GOOD, [{"probe": "length", "passed": True}, {"probe": "grounding", "passed": None}])
    assert result["trust"] == "degraded" and "summary" not in result


# the model server: down, slow, garbage


def draft_with(host: str, timeout_s: float = 5.0, model: str = "canned") -> dict:
    stage = SummarizeDraft(SummarizeDraft.Params(host=host, model=model, timeout_s=timeout_s))
    stage.warm_up(Context())
    return stage.run(Context(), messages=example_messages())["draft"]


def test_server_down_gives_a_clear_reason(down_url):
    draft = draft_with(down_url)
    assert draft["text"] == ""
    assert draft["error"] == f"no model server answers at {down_url} (start Ollama, or set PICA_OLLAMA_HOST)"
    assert draft["calls"][0]["ok"] is False


def test_a_slow_server_times_out():
    with OllamaServer(CannedBackend(["late"], delay_s=3)) as server:
        draft = draft_with(server.url, timeout_s=0.5)
    assert draft["error"] == "the model did not answer within 0.5 s"


def test_garbage_from_the_server_is_no_reply():
    with OllamaServer(CannedBackend(raw=b"<html>oops</html>")) as server:
        draft = draft_with(server.url)
    assert draft["error"] == f"the model server at {server.url} answered with something that is not a reply"


def test_a_missing_model_says_how_to_get_it():
    with OllamaServer(CannedBackend()) as server:
        draft = draft_with(server.url, model="nope:1b")
    assert "has no model 'nope:1b' (`ollama pull nope:1b`, or set PICA_LLM_MODEL)" in draft["error"]


def test_the_draft_drops_a_preamble_line():
    with OllamaServer(CannedBackend(["Here is a summary of the session:\n" + GOOD])) as server:
        draft = draft_with(server.url)
    assert draft["text"] == GOOD
    assert server.backend.asked[0]["options"]["temperature"] == 0


# the whole recipe against a fake server, through the front doors


def index_messages(home, messages):
    from pica.stages.store.lance_store import LanceStore, document_hash

    docs = [Document(m["id"], m["collection"], m["path"], "p · " + m["metadata"]["role"], m["text"],
                     m["metadata"], source="transcripts") for m in messages]  # fmt: skip
    from pica.kernel.records import Chunk

    chunks = [Chunk(d.id + "#0", d.id, d.collection, d.path, d.title, d.text, 1, 1, {}, "transcripts", 0,
                    len(d.text)) for d in docs]  # fmt: skip
    LanceStore(home / "lance").replace([(d, document_hash(d)) for d in docs], chunks, [])
    return home / "lance"


@pytest.fixture
def session_home(pica_home, monkeypatch):
    index_messages(pica_home, example_messages())
    audit = pica_home / "audit.jsonl"
    monkeypatch.setenv("PICA_AUDIT_LOG", str(audit))
    monkeypatch.setenv("PICA_LLM_MODEL", "canned")
    return pica_home


def test_pica_summarize_degraded_against_a_garbage_server(session_home, monkeypatch):
    from pica.cli import main

    with OllamaServer(CannedBackend(raw=b"not json")) as server:
        monkeypatch.setenv("PICA_OLLAMA_HOST", server.url)
        result = CliRunner().invoke(main, ["summarize", "s1"])
    assert result.exit_code == 0, result.output
    assert "trust: degraded" in result.output
    assert "answered with something that is not a reply" in result.output
    assert "read the session itself: pica session s1" in result.output
    lines = [json.loads(line) for line in (session_home / "audit.jsonl").read_text().splitlines()]
    assert [(line["purpose"], line["ok"]) for line in lines] == [("summarize", False)]


def test_pica_summarize_clean_and_audited(session_home, monkeypatch):
    from pica.cli import main

    with OllamaServer(CannedBackend([GOOD, "1: yes\n2: yes"])) as server:
        monkeypatch.setenv("PICA_OLLAMA_HOST", server.url)
        result = CliRunner().invoke(main, ["summarize", "s1", "--n-messages", "5", "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["trust"] == "clean" and answer["summary"] == GOOD
    assert [p["probe"] for p in answer["probes"]] == [
        "length", "proper_nouns", "identifiers", "refusal", "grounding", "self_verify"
    ]  # fmt: skip
    log = (session_home / "audit.jsonl").read_text()
    lines = [json.loads(line) for line in log.splitlines()]
    assert [line["purpose"] for line in lines] == ["summarize", "self_verify"]
    assert all(line["probes"]["grounding"] == "pass" and line["trust"] == "clean" for line in lines)
    assert all(len(line["prompt_sha256"]) == 64 and line["latency_ms"] >= 0 for line in lines)
    assert "retry loop" not in log and "fetch.py" not in log  # never the text


def test_python_api_summarize(session_home, monkeypatch, down_url):
    import pica

    monkeypatch.setenv("PICA_OLLAMA_HOST", down_url)
    result = pica.summarize("s1")
    assert result["trust"] == "degraded" and "summary" not in result
    assert result["reason"].startswith("no summary: no model server answers at")


def test_an_unknown_session_is_an_error_in_plain_words(session_home):
    from pica.cli import main

    result = CliRunner().invoke(main, ["summarize", "nope"])
    assert result.exit_code == 2
    assert "'nope' is no indexed session" in result.output


def test_the_summarize_tool_is_offered_only_by_the_llm_tool_set(session_home, monkeypatch, down_url):
    from pica.kernel.settings import Settings
    from pica.mcp.instructions import about, instructions
    from pica.mcp.server import _available, tool_parameters
    from pica.mcp.tools import Tools
    from pica.mcp.toolsets import load_toolset

    llm = load_toolset("llm", tool_parameters())
    tools = Tools(Settings(), llm.tools)
    told = instructions(about(tools, _available(llm, tools), llm), {})
    assert "`summarize`: a local model's summary" in told
    monkeypatch.setenv("PICA_OLLAMA_HOST", down_url)
    report = Tools(Settings(), llm.tools).summarize("s1", n_messages=5).report
    assert report["trust"] == "degraded" and "summary" not in report

    assert "summarize" not in load_toolset("default", tool_parameters()).tools
    assert "summarize" not in load_toolset("readonly", tool_parameters()).tools
    assert load_toolset("llm", tool_parameters()).tools["summarize"].recipe == "summarize/session"


# LLM rerank fails open


def hits(n: int = 3) -> list[Hit]:
    return [
        Hit(f"c/{i}", f"c/{i}#0", "c", f"{i}.md", "T", 1, 1, 1.0 / (i + 1), f"passage {i}") for i in range(n)
    ]


def rerank(host: str, timeout_s: float = 5.0, **params) -> tuple[list[Hit], list[str]]:
    stage = RerankLlm(
        RerankLlm.Params(query="passage two", host=host, model="canned", timeout_s=timeout_s, **params)
    )
    ctx = Context()
    stage.warm_up(ctx)
    return stage.run(ctx, hits=hits())["hits"], ctx.warnings


def test_rerank_reorders_by_the_models_scores(tmp_path):
    audit = tmp_path / "audit.jsonl"
    with OllamaServer(CannedBackend(['{"scores": [1, 2, 9]}'])) as server:
        ranked, warnings = rerank(server.url, audit_log=str(audit))
    assert [h.id for h in ranked] == ["c/2", "c/1", "c/0"] and warnings == []
    assert ranked[0].via == "llm-rerank"
    assert json.loads(audit.read_text())["purpose"] == "rerank"


def test_rerank_one_prompt_per_passage():
    with OllamaServer(CannedBackend(["3", "8", "5"])) as server:
        ranked, _ = rerank(server.url, batch=False, parallel=1)
    assert [h.id for h in ranked] == ["c/1", "c/2", "c/0"]


@pytest.mark.parametrize(
    ("backend", "timeout_s", "warning"),
    [
        (CannedBackend(raw=b"\x00garbage"), 5, "answered with something that is not a reply"),
        (CannedBackend(['{"scores": [1, 2]}']), 5, "the model's scores were not 3 numbers from 0 to 10"),
        (CannedBackend(["I think passage 2 is best."]), 5, "the model's scores were not 3 numbers"),
        (CannedBackend(["late"], delay_s=3), 0.5, "the model did not answer within 0.5 s"),
        (CannedBackend(status=500), 5, "refused the request (500"),
    ],
)
def test_rerank_fails_open_with_a_warning(backend, timeout_s, warning):
    with OllamaServer(backend) as server:
        ranked, warnings = rerank(server.url, timeout_s=timeout_s)
    assert [h.id for h in ranked] == ["c/0", "c/1", "c/2"]
    assert len(warnings) == 1 and warning in warnings[0] and warnings[0].endswith("the order stays as it was")


def test_rerank_with_the_server_down_keeps_the_order(down_url):
    ranked, warnings = rerank(down_url)
    assert [h.id for h in ranked] == ["c/0", "c/1", "c/2"] and "no model server answers" in warnings[0]


def test_batch_scores_reads_only_the_right_shape():
    assert batch_scores('{"scores": [1, 10, 0.5]}', 3) == [1.0, 10.0, 0.5]
    assert batch_scores("Scores: [3, 4]", 2) == [3.0, 4.0]
    assert batch_scores('{"scores": [1, 11]}', 2) is None
    assert batch_scores('{"scores": [true, 1]}', 2) is None
    assert batch_scores("no numbers", 2) is None


# query expansion


def test_expansion_keeps_the_first_paragraph_of_each_reply_without_labels():
    assert clean('Keywords: "retry backoff jitter"\n\nThese are the words.', 400) == "retry backoff jitter"
    assert clean("  \n\nHow long should a client wait\nbetween retries?", 400) == (
        "How long should a client wait between retries?"
    )
    assert unique(["Retry  delay", "backoff", "", "backoff"], "retry delay") == ["backoff"]


def test_expansion_asks_one_prompt_per_kind(tmp_path):
    audit = tmp_path / "audit.jsonl"
    with OllamaServer(CannedBackend(["retry backoff"])) as server:
        queries, ctx = expand(server.url, kinds=["lex", "hyde"], audit_log=str(audit))
    asked = sorted(r["messages"][0]["content"].split("\n")[0] for r in server.backend.asked)
    assert asked[0].startswith("Give the 3 to 8 keywords") and asked[1].startswith("Write two sentences")
    assert queries == ["retry backoff"] and ctx.warnings == []
    assert sorted(json.loads(line)["kind"] for line in audit.read_text().splitlines()) == ["hyde", "lex"]


def expand(host: str, **params) -> tuple[list[str], Context]:
    stage = ExpandLlm(ExpandLlm.Params(query="retry delay", host=host, model="canned", **params))
    ctx = Context()
    stage.warm_up(ctx)
    return stage.run(ctx)["queries"], ctx


def test_expansion_fails_open(down_url):
    queries, ctx = expand(down_url)
    assert queries == [] and "searched for the question alone" in ctx.warnings[0]
    with OllamaServer(CannedBackend(["retry delay", "", "  "])) as server:
        queries, ctx = expand(server.url)
    assert queries == [] and ctx.warnings == [
        "the model wrote no usable phrasings; searched for the question alone"
    ]


def test_expansion_asks_nothing_when_phrasings_are_given_or_no_model_is_configured(down_url):
    assert expand(down_url, given=["other words"])[0] == []
    queries, ctx = expand(down_url, enabled=False)
    assert queries == [] and ctx.warnings == [] and ctx.notes == []


def test_expanded_search_fuses_each_phrasing(pica_home, monkeypatch):
    from pica.kernel.runner import run
    from tests.helpers import index, make_folder

    folder = make_folder(pica_home.parent / "notes", {
        "retry.md": "# Retry\n\nExponential backoff doubles the wait between attempts.\n",
        "cake.md": "# Cake\n\nFlour, sugar and butter.\n",
    })  # fmt: skip
    index(folder, "notes")
    replies = ["exponential backoff", "doubling the wait between attempts", "The wait doubles."]
    with OllamaServer(CannedBackend(replies)) as server:
        monkeypatch.setenv("PICA_OLLAMA_HOST", server.url)
        monkeypatch.setenv("PICA_LLM_MODEL", "canned")
        result = run("search/expanded", variables={"query": "retry delay", "base": "lexical"})
    assert [h.path for h in result.output] == ["retry.md"]
    assert result.output[0].via == "expanded"


# nothing of the model clients is imported before a model is asked


def test_no_model_client_is_imported_by_the_cli_or_the_stages():
    code = (
        "import sys; import pica.cli; from pica.kernel.registry import registry; registry.all()\n"
        "print([m for m in ('ollama', 'llama_cpp', 'httpx') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_file_of_recorded_answers_must_be_one(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    with pytest.raises(ModelUnavailable, match="is not a file of recorded answers"):
        Model(bad.as_uri(), "m", 1).chat([{"role": "user", "content": "x"}], "test")


def test_deepweb_thorough_asks_the_models_phrasings_when_none_are_given(pica_home, monkeypatch):
    from tests.web_server import local_web, result

    replies = ["tower height metres", "how tall is the iron tower", "The tower is 330 metres tall."]
    with local_web() as web, OllamaServer(CannedBackend(replies)) as model:
        web.results["tower height"] = [result("https://a.example.org/t", "Tower", "The tower is tall.")]
        web.results["how tall is the iron tower"] = [
            result("https://b.example.net/h", "Height", "330 metres.")
        ]
        monkeypatch.setenv("PICA_WEB_URL", web.url)
        monkeypatch.setenv("PICA_OLLAMA_HOST", model.url)
        monkeypatch.setenv("PICA_LLM_MODEL", "canned")
        variables = {"query": "tower height", "thorough": True, "k": 5}
        found = run_recipe("search/deepweb", {**variables, "stages.read.enabled": False})
        asked = {q for q in web.asked if q.startswith("/search")}
        given = run_recipe(
            "search/deepweb", {**variables, "queries": ["eiffel"], "stages.read.enabled": False}
        )
    urls = [h.path for h in found.output["hits"]]
    assert "https://b.example.net/h" in "".join(urls) and len(model.backend.asked) == 3
    assert len(asked) == 4  # the question and the model's three phrasings
    assert len(model.backend.asked) == 3 and given.output is not None  # --q given: the model is not asked


def test_deepweb_thorough_without_a_model_configured_asks_none(pica_home, monkeypatch, down_url):
    from tests.web_server import local_web, result

    with local_web() as web:
        web.results["tower height"] = [result("https://a.example.org/t", "Tower", "The tower is tall.")]
        monkeypatch.setenv("PICA_WEB_URL", web.url)
        found = run_recipe(
            "search/deepweb", {"query": "tower height", "thorough": True, "stages.read.enabled": False}
        )
    assert len(found.output["hits"]) == 1 and found.warnings == [] and found.notes == []


def run_recipe(name: str, variables: dict):
    from pica.kernel import runner

    plain = {k: v for k, v in variables.items() if "." not in k}
    overrides = [f"{k}={str(v).lower()}" for k, v in variables.items() if "." in k]
    return runner.run(name, overrides, variables=plain)
