"""The MCP server driven by the SDK's own client, over streamable HTTP and stdio, as a subprocess."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from contextlib import asynccontextmanager

import anyio
import pytest

from pica.kernel.errors import RecipeError
from pica.mcp.server import tool_parameters
from pica.mcp.tools import filter_strings
from pica.mcp.toolsets import load_toolset
from tests import helpers
from tests.helpers import free_port, make_folder
from tests.web_server import local_web

ALL_TOOLS = {
    "search",
    "get",
    "similar",
    "recent",
    "session",
    "list_sessions",
    "stats",
    "status",
    "reindex",
    "deepweb",
}
SESSION = "s-ledger-2026"


def claude_line(n: int, text: str) -> str:
    return helpers.claude_line(n, text, SESSION)


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """A home with a notes collection, one Claude Code session and a knowledge graph, indexed."""
    root = tmp_path_factory.mktemp("mcp")
    claude = root / "claude" / "-work-ledger"
    claude.mkdir(parents=True)
    (claude / f"{SESSION}.jsonl").write_text(
        claude_line(1, "Why do ledger migrations lock the balances table?") + "\n"
        + claude_line(2, "Because alembic runs them in one transaction on deploy.") + "\n"
    )  # fmt: skip
    notes = make_folder(root / "notes", {
        "db.md": "---\ntitle: Database\nowner: ana\nstatus: draft\n---\nThe ledger uses Postgres 16.\n",
        "ops.md": "---\ntitle: Ops\nowner: bo\nstatus: done\n---\nThe ledger deploys on Fridays.\n",
    })  # fmt: skip
    kg = root / "memory.jsonl"
    kg.write_text(json.dumps({"type": "entity", "name": "ledger service", "entityType": "service",
                              "observations": ["stores balances in Postgres"]}))  # fmt: skip
    env = {**os.environ, "PICA_HOME": str(root / "home"), "PICA_CLAUDE_DIR": str(root / "claude"),
           "PICA_KG_PATH": str(kg), "HF_HUB_OFFLINE": "1"}  # fmt: skip
    env.pop("PICA_WEB_URL", None)
    pica = [sys.executable, "-m", "pica"]
    subprocess.run([*pica, "add", str(notes), "--name", "notes"], env=env, check=True, capture_output=True)
    subprocess.run([*pica, "index"], env=env, check=True, capture_output=True)
    return {"root": root, "env": env, "notes": notes}


@pytest.fixture
def http_server(world):
    """`pica serve` on a free port, as a real subprocess; stopped afterwards."""
    servers = []

    def start(*args: str, env: dict | None = None) -> str:
        port = free_port()
        process = subprocess.Popen(
            [sys.executable, "-m", "pica", "serve", "--port", str(port), *args],
            env=env or world["env"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )  # fmt: skip
        servers.append(process)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise AssertionError(f"pica serve exited: {process.stderr.read().decode()}")
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    return f"http://127.0.0.1:{port}/mcp"
            time.sleep(0.1)
        raise AssertionError("pica serve did not listen within 60 s")

    yield start
    for process in servers:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()


@asynccontextmanager
async def http_session(url: str):
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    async with streamable_http_client(url) as streams, ClientSession(streams[0], streams[1]) as session:
        yield session


@asynccontextmanager
async def stdio_session(env: dict, *args: str):
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    server = StdioServerParameters(
        command=sys.executable, args=["-m", "pica", "serve", "--stdio", *args], env=env
    )
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        yield session


async def call(session, tool: str, **arguments):
    result = await session.call_tool(tool, arguments)
    return result.is_error, (result.structured_content if not result.is_error else result.content[0].text)


def test_http_lists_tools_with_described_parameters_and_calls_every_tool(world, http_server):
    url = http_server()

    async def go():
        async with http_session(url) as session:
            init = await session.initialize()
            assert "- notes: files, 2 documents; fields: encoding, owner, status, title" in init.instructions
            assert "- claude-code: transcripts, 2 documents" in init.instructions
            assert "Sources for `search` `sources`: transcripts, files, kg." in init.instructions
            assert "deepweb" not in init.instructions  # not offered here: not mentioned
            tools = {t.name: t for t in (await session.list_tools()).tools}
            assert set(tools) == ALL_TOOLS - {"deepweb"}
            for tool in tools.values():
                assert tool.description
                for name, schema in tool.input_schema.get("properties", {}).items():
                    assert schema.get("description"), f"{tool.name}.{name} has no description"
            search = tools["search"].input_schema["properties"]
            assert search["mode"]["default"] == "default" and search["k"]["default"] == 10

            error, found = await call(session, "search", query="ledger Postgres")
            assert not error
            assert {h["source"] for h in found["hits"]} >= {"files", "kg"}
            top = found["hits"][0]
            assert {"id", "title", "lines", "score", "source", "trust"} <= set(top)
            assert top["source"] == "kg" and top["trust"] == "fact"
            error, found = await call(session, "search", query="ledger", mode="lexical",
                                      filters={"owner": ["ana", "zed"], "status": {"not": "done"}})  # fmt: skip
            assert [h["id"] for h in found["hits"]] == ["notes/db.md"]
            error, got = await call(session, "get", id="notes/db.md", lines="6-6")
            assert got["report"]["text"].strip() == "The ledger uses Postgres 16."
            error, sessions = await call(session, "list_sessions")
            assert [s["session"] for s in sessions["items"]] == [SESSION]
            error, messages = await call(session, "session", id=SESSION[:6])
            assert messages["items"][0]["text"].startswith("Why do ledger migrations")
            error, latest = await call(session, "recent", n=1)
            assert [m["text"] for m in latest["items"]] == [
                "Because alembic runs them in one transaction on deploy."
            ]
            error, stats = await call(session, "stats")
            assert stats["report"]["sources"]["files"]["documents"] == 2
            error, status = await call(session, "status")
            assert status["report"]["collections"]["notes"]["fields"] == [
                "encoding",
                "owner",
                "status",
                "title",
            ]
            error, similar = await call(session, "similar", id="notes/db.md")
            assert error and "embed" in similar  # no vectors yet: a clear tool error, not a crash
            subprocess.run(
                [sys.executable, "-m", "pica", "embed"], env=world["env"], check=True, capture_output=True
            )
            error, similar = await call(session, "similar", id="notes/db.md")
            assert not error and "notes/ops.md" in [h["id"] for h in similar["hits"]]
            for _ in range(2):  # the first call loads the model in the server; the second reuses it
                error, hybrid = await call(session, "search", query="which database engine", mode="hybrid")
                ids = [h["id"] for h in hybrid["hits"]]
                assert not error and ids.index("notes/db.md") < ids.index("notes/ops.md")
            error, reindexed = await call(session, "reindex", names=["notes"])
            assert not error and reindexed["report"]["notes"]["added_or_changed"] == 0

    anyio.run(go)


def test_bad_arguments_are_tool_errors_and_the_server_keeps_serving(world, http_server):
    url = http_server()

    async def go():
        async with http_session(url) as session:
            await session.initialize()
            for tool, arguments, says in [
                ("search", {"query": "x", "k": 0}, "`k` must be at least 1, not 0."),
                ("search", {"query": "x", "mode": "magic"}, "federated"),
                ("search", {"query": "x", "sources": ["wiki"]}, "'wiki' is not one of the choices"),
                (
                    "search",
                    {"query": "x", "mode": "lexical", "sources": ["files"]},
                    "works with the modes default, federated, federated-hybrid",
                ),
                ("search", {"query": "x", "filters": {"owner": {"near": 1}}}, "gt/gte/lt/lte"),
                ("search", {"query": "x", "sort": "-"}, ""),
                ("get", {"id": "notes/nope.md"}, "nope.md"),
                ("session", {"id": "no-such-session"}, "no indexed session"),
                ("reindex", {"names": ["nowhere"]}, "'nowhere'"),
                ("search", {}, "query"),
            ]:
                error, text = await call(session, tool, **arguments)
                if tool == "search" and arguments.get("sort") == "-":
                    continue  # an odd sort is not an error; it must not crash either
                assert error, (tool, arguments)
                assert says in text, (tool, arguments, text)
            error, found = await call(session, "search", query="Fridays")
            assert not error and found["hits"][0]["id"] == "notes/ops.md"

    anyio.run(go)


def test_a_slow_provider_is_a_warning_not_a_failure(world, http_server):
    team = world["root"] / "home" / "configs" / "team"
    team.mkdir(parents=True, exist_ok=True)
    (team / "slow-web.yaml").write_text("providers:\n  web:\n    timeout_s: 1\n")
    with local_web() as web:
        web.delays["/search"] = 3
        url = http_server(env={**world["env"], "PICA_WEB_URL": web.url, "PICA_TEAM": "slow-web"})

        async def go():
            async with http_session(url) as session:
                init = await session.initialize()
                assert "Sources for `search` `sources`: transcripts, files, kg, web." in init.instructions
                tools = {t.name for t in (await session.list_tools()).tools}
                assert "deepweb" in tools  # offered where an endpoint is configured
                error, found = await call(session, "search", query="ledger", sources=["files", "web"])
                assert not error
                assert {h["source"] for h in found["hits"]} == {"files"}
                assert any("web" in w and "timed out" in w for w in found["warnings"])

        anyio.run(go)


def test_changes_indexed_by_another_process_are_seen_without_a_restart(world, http_server):
    url = http_server()
    (world["notes"] / "new.md").write_text("# Zebra\nThe zebra crossing report arrived.\n")

    async def go():
        async with http_session(url) as session:
            await session.initialize()
            # BM25: the default mode, once chunks have vectors (an earlier test embeds), finds neighbours
            _, before = await call(session, "search", query="zebra crossing", mode="lexical")
            assert before["hits"] == []
            subprocess.run(
                [sys.executable, "-m", "pica", "index"], env=world["env"], check=True, capture_output=True
            )
            _, after = await call(session, "search", query="zebra crossing", mode="lexical")
            assert [h["id"] for h in after["hits"]] == ["notes/new.md"]

    try:
        anyio.run(go)
    finally:
        (world["notes"] / "new.md").unlink()
        subprocess.run(
            [sys.executable, "-m", "pica", "index"], env=world["env"], check=True, capture_output=True
        )


def test_stdio_serves_the_read_only_set(world):
    async def go():
        async with stdio_session(world["env"], "--toolset", "readonly") as session:
            init = await session.initialize()
            assert "read-only" in init.instructions
            tools = {t.name for t in (await session.list_tools()).tools}
            assert tools == ALL_TOOLS - {"deepweb", "reindex"}
            error, found = await call(session, "search", query="alembic transaction", budget_tokens=300)
            assert not error and found["hits"][0]["source"] == "transcripts"
            assert 0 < found["tokens"] <= 300

    anyio.run(go)


def test_tool_sets_are_checked_with_the_path_of_each_problem(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "kind: toolset\ntools:\n  serch: {}\n  search: {recipe: search/nope, defaults: {kk: 1}}\n"
        "  get: {recipe: search/get, color: red}\n"
    )
    with pytest.raises(RecipeError) as error:
        load_toolset(str(bad), tool_parameters())
    text = str(error.value)
    assert "tools.serch: no tool 'serch' (tools: deepweb, get," in text
    assert "tools.search.defaults.kk: not a parameter of search" in text
    assert "tools.search.recipe: no recipe 'search/nope'" in text
    assert "tools.get.color: Extra inputs are not permitted" in text
    with pytest.raises(RecipeError, match="no tool set 'nope' \\(shipped: default, llm, readonly\\)"):
        load_toolset("nope", tool_parameters())


def test_filters_take_a_value_a_list_a_negation_and_ranges():
    filters = {"owner": "ana", "tags": ["a", "b"], "status": {"not": ["done", "x"]},
               "created": {"gte": "2024-01", "lt": 2025}}  # fmt: skip
    expected = ["owner=ana", "tags=a,b", "status!=done,x", "created>=2024-01", "created<2025"]
    assert filter_strings(filters) == expected


# load


LOAD_CALLS = [
    ("search", {"query": "memory server knowledge graph"}),
    ("search", {"query": "retry backoff timeout", "mode": "lexical"}),
    ("search", {"query": "tests failing", "sources": ["transcripts"], "budget_tokens": 2000}),
    ("list_sessions", {"n": 10}),
    ("recent", {"n": 5}),
    ("status", {}),
]


@pytest.mark.slow
def test_load_16_clients_50_calls_each_over_http(tmp_path, http_server):
    """16 concurrent clients x 50 calls on the corpus (documents, transcripts, graphs); no errors.
    Prints p50/p95 per tool (docs/benchmarks.md). PICA_LOAD_CLIENTS=1 gives the one-client baseline."""
    clients = int(os.environ.get("PICA_LOAD_CLIENTS", "16"))
    from tests.conftest import CORPUS

    kg = tmp_path / "memory.jsonl"
    kg.write_text("\n".join(p.read_text().strip("\n") for p in sorted(CORPUS.glob("kg/*/*/memory.jsonl"))))
    env = {**os.environ, "PICA_HOME": str(tmp_path / "home"), "PICA_KG_PATH": str(kg), "HF_HUB_OFFLINE": "1",
           "PICA_CLAUDE_DIR": str(CORPUS / "transcripts/claude-code"),
           "PICA_CODEX_DIR": str(CORPUS / "transcripts/codex"),
           "PICA_GEMINI_DIR": str(CORPUS / "transcripts/gemini")}  # fmt: skip
    pica = [sys.executable, "-m", "pica"]
    subprocess.run(
        [*pica, "add", str(CORPUS / "documents"), "--name", "docs"], env=env, check=True, capture_output=True
    )
    subprocess.run([*pica, "index"], env=env, check=True, capture_output=True)
    url = http_server(env=env)
    timings: dict[str, list[float]] = {}
    errors: list[str] = []

    async def client(n: int) -> None:
        async with http_session(url) as session:
            await session.initialize()
            for i in range(50):
                tool, arguments = LOAD_CALLS[(n + i) % len(LOAD_CALLS)]
                started = time.perf_counter()
                result = await session.call_tool(tool, arguments)
                name = f"{tool} {arguments.get('mode') or ('transcripts' if 'sources' in arguments else '')}".strip()
                timings.setdefault(name, []).append(time.perf_counter() - started)
                if result.is_error:
                    errors.append(f"{tool}: {result.content[0].text}")

    async def go():
        async with anyio.create_task_group() as group:
            for n in range(clients):
                group.start_soon(client, n)

    started = time.perf_counter()
    anyio.run(go)
    wall = time.perf_counter() - started
    assert errors == []
    assert sum(len(t) for t in timings.values()) == clients * 50
    print(f"\n{clients} clients x 50 calls in {wall:.1f} s ({clients * 50 / wall:.0f} calls/s)")
    for name, values in sorted(timings.items()):
        values.sort()
        p50, p95 = values[len(values) // 2], values[int(len(values) * 0.95)]
        print(f"{name:24} n={len(values):4}  p50 {p50 * 1000:7.1f} ms  p95 {p95 * 1000:7.1f} ms")


def test_plans_are_shared_across_queries_only_where_the_query_is_a_query_param(tmp_path):
    from pica.kernel.runner import PlanCache
    from pica.kernel.settings import Settings

    plans = PlanCache(Settings(home=tmp_path))
    first = plans.get("search/federated", {"query": "alpha", "k": 5})
    second = plans.get("search/federated", {"query": "beta", "k": 5})
    assert first.stages["files"].params.query == "alpha" and second.stages["files"].params.query == "beta"
    assert second.stages["fuse"].params.query == "beta"
    assert first.stages["trim"].params is second.stages["trim"].params  # the same composed plan
    assert plans.get("search/federated", {"query": "beta", "k": 6}).stages["results"].params.k == 6
    grep = [plans.get("search/grep", {"query": q}).stages["grep"].params.pattern for q in ("one", "two")]
    assert grep == ["one", "two"]  # grep passes the query as `pattern`: never shared
