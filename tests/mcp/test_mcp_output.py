"""What an agent reads from Pica's tools: every limit and default in the parameter's own words (some
clients pass their model nothing else of the schema), compact hits that are compact, a default
token budget that keeps an answer within clients' caps, and compact JSON text."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import anyio
import pytest

from tests.helpers import make_folder
from tests.mcp.test_mcp import stdio_session

PICA = [sys.executable, "-m", "pica"]
COMPACT = {"id", "title", "lines", "score", "source", "trust"}


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    """Thirty long notes about the same thing, with front matter: more than a budget holds."""
    root = tmp_path_factory.mktemp("output")
    words = random.Random(7).choices(["ledger", "payment", "queue", "worker", "timeout", "jitter"], k=9000)

    def body(i: int) -> str:  # each note its own words: identical texts would be one hit
        return " ".join(words[i * 300 : (i + 1) * 300]) + " backoff."

    notes = make_folder(root / "notes", {
        f"n{i:02}.md": f"---\ntitle: Note {i}\nowner: ana\nstatus: draft\n---\n{body(i)}\n" for i in range(30)
    })  # fmt: skip
    env = {**os.environ, "PICA_HOME": str(root / "home"), "XDG_CACHE_HOME": str(root / "cache")}
    for key in ("PICA_WEB_URL", "PICA_KG_PATH", "MEMORY_FILE_PATH", "PICA_VECTOR_URI", "PICA_TEAM"):
        env.pop(key, None)
    subprocess.run([*PICA, "add", str(notes), "--name", "notes"], env=env, check=True, capture_output=True)
    subprocess.run([*PICA, "index"], env=env, check=True, capture_output=True)
    return env


def session_calls(env: dict, calls: list[tuple[str, dict]]) -> tuple[list, list]:
    """(the tools listed, each call's result) from one stdio session."""

    async def go():
        async with stdio_session(env) as session:
            await session.initialize()
            listed = (await session.list_tools()).tools
            return listed, [await session.call_tool(tool, arguments) for tool, arguments in calls]

    return anyio.run(go)


def test_every_limit_and_default_is_said_in_the_description_too(home):
    listed, _ = session_calls(home, [])
    checked = 0
    for tool in listed:
        for name, schema in tool.input_schema["properties"].items():
            said = schema.get("description", "")
            if "minimum" in schema and "maximum" in schema:
                assert f"{schema['minimum']} to {schema['maximum']}" in said, (tool.name, name, said)
            elif "minimum" in schema:
                assert f"{schema['minimum']} or more" in said, (tool.name, name, said)
            if schema.get("default") not in (None, "", [], {}, "__missing__") and "default" in schema:
                assert f"default {json.dumps(schema['default'])}" in said, (tool.name, name, said)
                checked += 1
            if name in tool.input_schema.get("required", []):
                assert "required" in said, (tool.name, name, said)
    assert checked >= 10  # k, mode, n, budget_tokens, the flags...
    search = next(t for t in listed if t.name == "search").input_schema["properties"]
    assert search["k"]["description"] == "How many results (1 to 100; default 10)."
    assert "default 3000" in search["budget_tokens"]["description"]


def test_compact_hits_are_only_what_cites_them_and_the_text_is_compact_json(home):
    _, (full, compact) = session_calls(home, [
        ("search", {"query": "backoff", "budget_tokens": 0}),
        ("search", {"query": "backoff", "compact": True, "k": 30}),
    ])  # fmt: skip
    assert set(full.structured_content["hits"][0]) >= COMPACT | {"passage", "metadata", "path"}
    hits = compact.structured_content["hits"]
    assert len(hits) == 30 and all(set(hit) == COMPACT for hit in hits)
    text = compact.content[0].text
    assert json.loads(text) == compact.structured_content
    assert "\n" not in text and ", " not in text[:200] and '": ' not in text  # no indentation or padding
    full_hit = json.dumps(full.structured_content["hits"][0], separators=(",", ":"))
    assert all(len(json.dumps(hit, separators=(",", ":"))) * 5 < len(full_hit) for hit in hits)


def test_the_default_budget_keeps_an_answer_small_and_says_what_it_left_out(home):
    _, (default, unlimited, lexical, wide) = session_calls(home, [
        ("search", {"query": "backoff", "k": 30}),
        ("search", {"query": "backoff", "k": 30, "budget_tokens": 0}),
        ("search", {"query": "backoff", "k": 30, "mode": "lexical"}),  # the budget holds in every mode
        ("search", {"query": "backoff", "all_passages": True, "k": 100}),
    ])  # fmt: skip
    budgeted = default.structured_content
    assert 0 < budgeted["tokens"] <= 3000
    assert len(budgeted["hits"]) < len(unlimited.structured_content["hits"]) == 30
    assert any("of 30 hits fit the budget of 3000 tokens" in n for n in budgeted["notes"]), budgeted["notes"]
    assert "tokens" not in unlimited.structured_content  # no budget, no count
    assert lexical.structured_content["tokens"] <= 3000
    assert any("fit the budget" in n for n in lexical.structured_content["notes"])
    for result in (default, lexical, wide):
        assert len(result.content[0].text.encode()) < 10 * 1024  # Codex keeps the first 10 KiB
    assert len(unlimited.content[0].text.encode()) > 10 * 1024  # so the budget is what kept it small


def test_with_no_transcripts_every_door_says_what_was_looked_for_and_where(tmp_path):
    claude = tmp_path / "claude"
    claude.mkdir()  # there, but holding nothing; the other two folders are not there at all
    env = {**os.environ, "PICA_HOME": str(tmp_path / "home"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "PICA_CLAUDE_DIR": str(claude), "PICA_CODEX_DIR": str(tmp_path / "codex"),
           "PICA_GEMINI_DIR": str(tmp_path / "gemini")}  # fmt: skip
    subprocess.run([*PICA, "index"], env=env, check=True, capture_output=True)  # finds nothing
    _, (recent, session, listed) = session_calls(env, [
        ("recent", {}), ("session", {"id": "abc"}), ("list_sessions", {}),
    ])  # fmt: skip
    said = f"No agent transcripts are indexed in {tmp_path / 'home'}. The agents' folders looked in: "
    folders = (f"claude-code in {claude}, codex in {tmp_path / 'codex'} (no such folder), "
               f"gemini in {tmp_path / 'gemini'} (no such folder).")  # fmt: skip
    for result in (recent, session):
        assert result.is_error and said + folders in result.content[0].text
    assert listed.structured_content["items"] == []
    assert any(said + folders in note for note in listed.structured_content["notes"])
    cli = subprocess.run([*PICA, "recent"], env=env, capture_output=True, text=True)
    assert cli.returncode == 2 and said + folders in " ".join(cli.stderr.split())
    cli = subprocess.run([*PICA, "list"], env=env, capture_output=True, text=True)
    assert cli.returncode == 0 and cli.stdout == "" and said in cli.stderr
