"""`pica serve` told the truth and its tools strict: the bound address announced, a busy port named,
the home served said on connecting, unknown arguments refused, errors in the agent's terms."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time

import anyio
import pytest

from tests.helpers import make_folder
from tests.mcp.test_mcp import call, http_session, stdio_session

PICA = [sys.executable, "-m", "pica"]


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    """A home with one collection of two notes, indexed."""
    root = tmp_path_factory.mktemp("hardening")
    notes = make_folder(root / "notes", {
        "db.md": "# Database\n\nThe ledger uses Postgres 16.\n",
        "ops.md": "# Ops\n\nThe ledger deploys on Fridays.\n",
    })  # fmt: skip
    env = {**os.environ, "PICA_HOME": str(root / "home"), "PICA_CLAUDE_DIR": str(root / "none"),
           "PICA_CODEX_DIR": str(root / "none"), "PICA_GEMINI_DIR": str(root / "none"),
           "HF_HUB_OFFLINE": "1"}  # fmt: skip
    for key in ("PICA_WEB_URL", "PICA_KG_PATH", "MEMORY_FILE_PATH", "PICA_VECTOR_URI", "PICA_TEAM"):
        env.pop(key, None)
    subprocess.run([*PICA, "add", str(notes), "--name", "notes"], env=env, check=True, capture_output=True)
    subprocess.run([*PICA, "index"], env=env, check=True, capture_output=True)
    return {"root": root, "env": env}


# 7: announce only what is bound


def test_a_busy_port_is_one_line_naming_the_port_and_nothing_is_announced(home):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([*PICA, "serve", "--port", str(port)], env=home["env"], capture_output=True,
                              text=True, timeout=60)  # fmt: skip
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert str(port) in lines[0] and "--port" in lines[0] and "MCP on" not in lines[0]


def test_port_0_announces_the_port_bound(home, tmp_path):
    log = tmp_path / "serve.log"
    with log.open("w") as out:
        process = subprocess.Popen([*PICA, "serve", "--port", "0"], env=home["env"], stdout=out, stderr=out)
    try:
        deadline = time.monotonic() + 60
        while not (found := re.search(r"MCP on http://127\.0\.0\.1:(\d+)/mcp", log.read_text())):
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        port = int(found.group(1))
        assert port != 0

        async def go():
            async with http_session(f"http://127.0.0.1:{port}/mcp") as session:
                await session.initialize()
                error, found = await call(session, "search", query="Fridays", mode="lexical")
                assert not error and found["hits"][0]["id"] == "notes/ops.md"

        anyio.run(go)
    finally:
        process.terminate()
        process.wait(10)


# 8: the home served, said on connecting


def test_the_instructions_name_the_home_and_its_documents(home):
    async def go():
        async with stdio_session(home["env"]) as session:
            init = await session.initialize()
            assert f"Home: {home['root'] / 'home'} (1 collection, 2 documents)" in init.instructions

    anyio.run(go)


def test_a_client_that_drops_the_environment_is_told_the_home_is_empty(tmp_path):
    """MCP clients start stdio servers with a minimal environment: PICA_HOME is lost."""
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "HF_HUB_OFFLINE": "1"}

    async def go():
        async with stdio_session(env) as session:
            init = await session.initialize()
            assert f"Home: {tmp_path / '.pica'} holds nothing indexed" in init.instructions
            assert "PICA_HOME" in init.instructions and "env" in init.instructions

    anyio.run(go)


# 11: unknown arguments refused; grep's options


def test_unknown_arguments_are_refused_with_the_valid_ones(home):
    async def go():
        async with stdio_session(home["env"]) as session:
            await session.initialize()
            error, text = await call(session, "search", query="ledger", budget=100)
            assert error and "`budget`" in text and "did you mean `budget_tokens`" in text
            assert "query, mode, k" in text
            error, text = await call(session, "get", id="notes/db.md", line="1-2")
            assert error and "`line`" in text and "id, lines, fields" in text
            error, text = await call(session, "stats", verbose=True)
            assert error and "`verbose`" in text and "takes no arguments" in text

    anyio.run(go)


def test_search_takes_the_grep_options_and_refuses_them_with_other_modes(home):
    async def go():
        async with stdio_session(home["env"]) as session:
            await session.initialize()
            error, found = await call(session, "search", query="POSTGRES", mode="grep", ignore_case=True)
            assert not error and [h["id"] for h in found["hits"]] == ["notes/db.md"]
            error, found = await call(session, "search", query="POSTGRES", mode="grep")
            assert not error and found["hits"] == []
            error, found = await call(session, "search", query="Postgres 1[0-9]", mode="grep", regex=True)
            assert not error and [h["id"] for h in found["hits"]] == ["notes/db.md"]
            error, found = await call(session, "search", query="Postgres 1[0-9]", mode="grep")
            assert not error and found["hits"] == []
            error, text = await call(session, "search", query="Postgres (", mode="grep", regex=True)
            assert error and text.startswith("`query` is not a valid regular expression: missing )"), text
            error, text = await call(session, "search", query="Postgres", mode="lexical", regex=True)
            assert error and "regex works with the mode grep, not lexical" in text
            error, text = await call(session, "search", query="Postgres", ignore_case=True)
            assert error and "ignore_case works with the mode grep, not default" in text

    anyio.run(go)


# 26: clean descriptions, plain errors


def test_tool_descriptions_carry_no_docstring_indentation(home):
    async def go():
        async with stdio_session(home["env"]) as session:
            await session.initialize()
            for tool in (await session.list_tools()).tools:
                assert tool.description == tool.description.strip()
                assert not re.search(r"\n\s", tool.description), (tool.name, tool.description)

    anyio.run(go)


def test_bad_values_are_one_plain_sentence_each_without_links_or_python_types(home):
    async def go():
        async with stdio_session(home["env"]) as session:
            await session.initialize()
            for arguments, says in [
                ({"query": "x", "k": 0}, "`k` must be at least 1, not 0."),
                ({"query": "x", "k": 500}, "`k` must be at most 100, not 500."),
                ({"query": "x", "k": "many"}, '`k` must be an integer, not "many".'),
                ({"query": ""}, "`query` must not be empty."),
                ({}, "`query` is required."),
                ({"query": "x", "mode": "magic"}, "`mode` must be one of default, expanded, federated,"),
                ({"query": "x", "sources": 3}, "`sources` must be an array of strings or null, not 3."),
                ({"query": "x", "filters": [1]}, "`filters` must be an object or null, not [1]."),
                ({"query": "x", "compact": "maybe"}, '`compact` must be true or false, not "maybe".'),
            ]:
                error, text = await call(session, "search", **arguments)
                assert error and says in text, (arguments, text)
                for python in ("pydantic", "https://", "type=", "input_value", "dict", "list[", "int_"):
                    assert python not in text, (arguments, text)
            error, text = await call(session, "search", k=0, mode="magic")
            assert error and len(text.splitlines()) == 3, text  # one line per problem

    anyio.run(go)


def test_the_instructions_mention_only_what_is_offered(home):
    async def go():
        async with stdio_session(home["env"]) as session:
            init = await session.initialize()
            assert "deepweb" not in init.instructions and "web" not in init.instructions
            assert "not configured" not in init.instructions
            assert "Sources for `search` `sources`: transcripts, files." in init.instructions

    anyio.run(go)


# issue 19, item 2: annotations clients act on (codex exec runs only read-only tools unasked)


def test_every_tool_says_truthfully_what_it_does_to_the_world(home):
    async def go():
        async with stdio_session(home["env"]) as session:
            await session.initialize()
            tools = {t.name: t for t in (await session.list_tools()).tools}
        assert "reindex" in tools and "search" in tools
        for tool in tools.values():
            assert tool.title and tool.annotations is not None, tool.name
            assert tool.annotations.read_only_hint is (tool.name != "reindex"), tool.name
            assert tool.annotations.destructive_hint is False
        assert tools["search"].annotations.open_world_hint is False  # no web endpoint configured

    anyio.run(go)


def test_the_web_tools_are_marked_as_reaching_the_open_world(tmp_path, monkeypatch):
    from pica.kernel.settings import Settings
    from pica.mcp.server import build_server

    monkeypatch.setenv("PICA_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PICA_WEB_URL", "http://127.0.0.1:9")
    tools = {t.name: t for t in anyio.run(build_server("llm", Settings()).list_tools)}
    assert tools["deepweb"].annotations.open_world_hint and tools["search"].annotations.open_world_hint
    assert not tools["deepweb"].annotations.idempotent_hint  # the web changes between calls
    assert not tools["get"].annotations.open_world_hint
