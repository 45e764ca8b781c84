"""Search, get and bench as a user meets them: wrong values are told plainly, in the user's terms."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys

import pytest

from pica.kernel import runner
from pica.kernel.errors import PicaError, RecipeError
from tests.helpers import claude_line, embed, index, make_folder

NOTES = {
    "alpha.md": "---\ntitle: Alpha plan\nowner: ana\ntags: [infra, search]\ncreated: 2023-11-02\n---\n"
    "# Alpha plan\nWe rebuild the search index nightly.\nThe crawler is running on two hosts.\n",
    "beta.md": "# Beta notes\nThe ledger crawler shows search results.\n",
}
SESSION = [claude_line(1, "the ledger crawler is slow", "s1"), claude_line(2, "try the nightly index", "s1")]


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    root = tmp_path_factory.mktemp("world")
    env = {"PICA_HOME": str(root / "home"), "PICA_NO_SERVER": "1"}
    with pytest.MonkeyPatch.context() as patch:
        for key, value in env.items():
            patch.setenv(key, value)
        index(make_folder(root / "notes", NOTES), "notes")
        make_folder(root / "claude", {"p/s1.jsonl": "\n".join(SESSION) + "\n"})
        runner.run("ingest/transcripts", variables={"agent": "claude-code", "root": str(root / "claude")})
        embed("embed.hash.v1")
        yield env


def pica(*args, env=None):
    return subprocess.run(
        [sys.executable, "-m", "pica", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "HF_HUB_OFFLINE": "1", "PICA_NO_SERVER": "1", **(env or {})},
        timeout=300,
    )


def plain(stderr: str) -> bool:
    """An error in the user's terms: no stage ids, no Python exception names."""
    leaks = ("stage '", ".v1)", "Traceback", "candidates")
    return not any(leak in stderr for leak in leaks) and not re.search(r"[a-z]Error\b", stderr)


# item 1, 13: bench datasets and modes


@pytest.fixture
def tiny_beir(tmp_path):
    from pica.stages.bench.beir import BenchBeir

    BenchBeir.example(tmp_path)
    return tmp_path / "tiny-beir"


def test_bench_takes_a_dataset_and_says_where_it_looked(tiny_beir, tmp_path, pica_home):
    missing = pica("bench", "bench/cranfield", "--dataset", str(tmp_path / "nowhere"), "--modes", "lexical")
    assert missing.returncode == 2, missing.stderr
    assert str(tmp_path / "nowhere") in missing.stderr and plain(missing.stderr)
    assert "--dataset" in missing.stderr and "PICA_DATASETS" in missing.stderr

    given = pica("bench", "bench/cranfield", "--dataset", str(tiny_beir), "--modes", "lexical", "--json")
    assert json.loads(given.stdout)["dataset"] == "tiny-beir", given.stderr

    shutil.copytree(tiny_beir, tmp_path / "sets" / "cranfield")
    by_setting = pica("bench", "bench/cranfield", "--modes", "lexical", "--json",
                      env={"PICA_DATASETS": str(tmp_path / "sets")})  # fmt: skip
    report = json.loads(by_setting.stdout)
    assert (report["dataset"], report["questions"]) == ("cranfield", 1)


def test_bench_refuses_an_unknown_mode_before_running(tiny_beir, tmp_path, pica_home):
    result = pica("bench", "bench/cranfield", "--dataset", str(tiny_beir), "--modes", "lexical,nosuch")
    assert result.returncode == 2 and "'nosuch'" in result.stderr and "hybrid" in result.stderr
    assert not (pica_home / "bench").exists()  # nothing was indexed: refused before running
    with pytest.raises(RecipeError, match="'nosuch' is not a search mode"):
        runner.plan("bench/questions", variables={"questions": "q.json", "modes": ["lexical", "nosuch"]})


# item 12: an invalid regular expression


def test_invalid_regex_is_a_usage_error(world):
    result = pica("search", "([", "-m", "grep", "--regex", env=world)
    assert result.returncode == 2
    assert "position 1" in result.stderr and "unterminated" in result.stderr and plain(result.stderr)
    with pytest.raises(RecipeError, match="not a valid regular expression"):
        runner.run("search/grep", variables={"query": "([", "regex": True})


# item 10: values that match nothing


@pytest.mark.parametrize(("option", "named"), [
    (["-c", "nosuch"], ["notes", "claude-code"]),
    (["--agent", "nosuch"], ["claude-code", "codex", "gemini"]),
    (["--since", "yesterday"], ["2026-05-01"]),
    (["--since", "2026-13-45"], ["2026-05-01"]),
    (["--until", "2026-05-01T25"], ["2026-05-01"]),
    (["--sort", "nosuchfield"], ["nosuchfield", "owner"]),
])  # fmt: skip
def test_bad_search_values_are_errors_naming_the_right_ones(world, option, named):
    result = pica("search", "crawler", "-m", "lexical", *option, env=world)
    assert result.returncode == 2, result.stdout + result.stderr
    assert all(name in result.stderr for name in named), result.stderr
    assert plain(result.stderr)


def test_a_filter_on_a_field_no_document_has_gets_a_note(world):
    result = pica("search", "crawler", "-m", "lexical", "-f", "nosuchfield=1", env=world)
    assert result.returncode == 0
    assert "note: no document has the field 'nosuchfield'" in result.stderr and "owner" in result.stderr
    fine = pica("search", "crawler", "-m", "lexical", "-c", "notes", "-f", "owner=ana", "--sort", "-created",
                "--since", "2023-11", "--agent", "claude-code", env=world)  # fmt: skip
    assert fine.returncode == 0 and "note:" not in fine.stderr, fine.stderr


# item 14: internals stay inside


def test_errors_are_one_sentence_in_the_users_terms(world, tmp_path):
    missing = pica("get", "nosuch/doc.md", env=world)
    assert missing.returncode == 2 and plain(missing.stderr)
    assert missing.stderr.strip() == (
        "error: no document 'nosuch/doc.md' in the index (ids look like collection/path)"
    )
    huge = pica("search", "crawler", "-k", "1000000", env=world)
    assert huge.returncode == 2 and "1<=x<=100" in huge.stderr and plain(huge.stderr)
    assert huge.stderr.count("\n\n") == 1 and huge.stderr.strip().count("\n") == 3  # usage, hint; error
    typed = pica("run", "search/lexical", "query=x", "k=abc", env=world)
    assert typed.returncode == 2 and plain(typed.stderr) and "resolving" not in typed.stderr
    assert "k: 'abc' is not a whole number" in typed.stderr
    for content in ('{"questions": 5}', "[1, 2]", "[{]"):
        questions = tmp_path / "q.json"
        questions.write_text(content)
        bad = pica("bench", str(questions), "--modes", "lexical", env=world)
        assert bad.returncode == 2 and str(questions) in bad.stderr and plain(bad.stderr), bad.stderr


# item 4: line ranges


def test_get_line_ranges_outside_the_text_are_refused(world, monkeypatch):
    from pica.kernel.settings import Settings
    from pica.mcp.server import tool_parameters
    from pica.mcp.tools import Tools
    from pica.mcp.toolsets import load_toolset

    for key, value in world.items():
        monkeypatch.setenv(key, value)

    def get(doc_id, lines):
        return runner.run("search/get", variables={"id": doc_id, "lines": lines}).output

    assert get("notes/alpha.md", "5-7")["text"] == "# Alpha plan"  # front matter ends at line 6
    for lines in ("3-4", "0-0", "20-30"):
        with pytest.raises(PicaError, match=r"lines 7-9"):
            get("notes/alpha.md", lines)
    tools = Tools(Settings(), load_toolset("default", tool_parameters(), Settings()).tools)
    with pytest.raises(PicaError, match=r"lines 7-9"):
        tools.get("notes/alpha.md", lines="1-2")
    message = runner.run("search/grep", variables={"query": "nightly index"}).output[0]
    assert message.source == "transcripts"
    with pytest.raises(PicaError, match=rf"the message is line {message.line_start} of its file"):
        get(message.id, f"{message.line_end + 5}-{message.line_end + 9}")
    # The cited file line gives the whole message; grep's line inside it is kept apart.
    whole = get(message.id, str(message.line_start))
    assert (whole["line_start"], whole["message_line_start"]) == (message.line_start, 1)
    inside = message.metadata["message_line_start"]
    assert "nightly index" in whole["text"].split("\n")[inside - 1]


# item 23: get's metadata is a front-matter block


def test_get_prints_metadata_as_front_matter(world):
    out = pica("get", "notes/alpha.md", env=world).stdout
    head, text = out.split("---\n")[1:3]
    assert out.startswith("---\n")
    assert {"id": "notes/alpha.md", "lines": "7-9", "title": "Alpha plan"}.items() <= _yaml(head).items()
    assert _yaml(head)["metadata"]["tags"] == ["infra", "search"]
    assert text.startswith("# Alpha plan\nWe rebuild")


def _yaml(text):
    import yaml

    return yaml.safe_load(text)


# item 25: one shape for hits


def test_run_json_has_the_shape_of_search_json(world):
    ran = json.loads(pica("run", "search/lexical", "query=crawler", "--json", env=world).stdout)
    searched = json.loads(pica("search", "crawler", "-m", "lexical", "--json", env=world).stdout)
    assert set(ran) == set(searched) == {"hits", "warnings", "notes"}
    assert ran["hits"] == searched["hits"]
    budgeted = json.loads(pica("run", "search/federated", "query=crawler", "budget=500", "--json",
                               env=world).stdout)  # fmt: skip
    assert budgeted["tokens"] > 0 and budgeted["hits"]
    for args in (["run", "search/lexical", "query=zzqqx"], ["search", "zzqqx", "-m", "lexical"]):
        assert pica(*args, env=world).stdout.strip() == "(no results)"


# item 24: one trust tier per source


@pytest.mark.parametrize("mode", ["federated", "grep"])
def test_a_source_has_one_trust_tier_in_every_mode(world, monkeypatch, mode):
    for key, value in world.items():
        monkeypatch.setenv(key, value)
    hits = runner.run(f"search/{mode}", variables={"query": "crawler", "k": 20}).output
    assert {h.trust for h in hits if h.source == "transcripts"} == {"lead"}
    assert {h.trust for h in hits if h.source == "files"} == {"reference"}


@pytest.mark.parametrize("mode", ["lexical", "hybrid"])
def test_a_source_has_one_trust_tier_in_the_single_retriever_modes(world, monkeypatch, mode):
    test_a_source_has_one_trust_tier_in_every_mode(world, monkeypatch, mode)


# item 3: the cross-encoder comes from this machine or not at all


@pytest.fixture
def online_but_watched(monkeypatch):
    """As a user's machine is: offline mode not set; every connection attempt is recorded."""
    import huggingface_hub.constants

    attempts = []

    def refuse(*args, **kwargs):
        attempts.append(args)
        raise OSError("network refused by the test")

    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.delenv("TRANSFORMERS_OFFLINE", raising=False)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setenv("HF_HOME", "/nonexistent/pica-tests/hf")
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    return attempts


def test_rerank_without_a_model_is_an_immediate_error(world, monkeypatch, online_but_watched):
    for key, value in world.items():
        monkeypatch.setenv(key, value)
    variables = {
        "query": "crawler",
        "model": "hashed-words",
        "reranker": "cross-encoder/ms-marco-MiniLM-L6-v2",
    }
    with pytest.raises(PicaError, match="--reranker FOLDER") as error:
        runner.run("search/rerank", variables=variables)
    assert "cross-encoder/ms-marco-MiniLM-L6-v2" in str(error.value)
    assert online_but_watched == []  # nothing tried the network, so nothing waited on retries
