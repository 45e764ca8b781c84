"""A stdio server answers `initialize` and `tools/list` before the MCP SDK has loaded, from what the
SDK answered at its last start (pica/mcp/stdio.py); these tests check that what it replays is what
the SDK says, that it notices when that is no longer so, and that everything after works as usual.
(How fast it answers is a benchmark, docs/measure/mcp_startup.py, never a test.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import anyio
import pytest

from tests.helpers import make_folder
from tests.mcp.test_mcp import stdio_session


@pytest.fixture
def home(tmp_path):
    notes = make_folder(tmp_path / "notes", {
        "a.md": "---\ntitle: Alpha\nowner: ana\n---\nThe ledger uses Postgres 16.\n",
    })  # fmt: skip
    env = {**os.environ, "PICA_HOME": str(tmp_path / "home"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env.pop("PICA_WEB_URL", None)
    pica = [sys.executable, "-m", "pica"]
    subprocess.run([*pica, "add", str(notes), "--name", "notes"], env=env, check=True, capture_output=True)
    subprocess.run([*pica, "index"], env=env, check=True, capture_output=True)
    return {"env": env, "notes": notes, "cache": tmp_path / "cache" / "pica" / "mcp", "pica": pica}


def start(env: dict) -> tuple[dict, list, str]:
    """(initialize result, tools, the answer to a search) from one stdio session."""

    async def go():
        async with stdio_session(env) as session:
            init = await session.initialize()
            tools = (await session.list_tools()).tools
            found = await session.call_tool("search", {"query": "Postgres"})
            return init, tools, found.structured_content["hits"][0]["id"]

    return anyio.run(go)


def replayed(cache: Path) -> dict:
    (file,) = cache.glob("stdio-*.json")
    return json.loads(file.read_text())


def test_a_second_start_replays_exactly_what_the_sdk_answered_the_first(home):
    first_init, first_tools, first_hit = start(home["env"])
    known = replayed(home["cache"])
    assert known["about"]["offered"][0] == "search"
    assert {key.split()[0] for key in known["answers"]} == {"initialize", "tools/list"}
    second_init, second_tools, second_hit = start(home["env"])  # answered from the file, then the SDK
    assert second_init.instructions == first_init.instructions
    assert "- notes: files, 1 documents; fields: encoding, owner, title" in second_init.instructions
    assert second_init.server_info == first_init.server_info
    assert [t.model_dump() for t in second_tools] == [t.model_dump() for t in first_tools]
    assert first_hit == second_hit == "notes/a.md"  # calls after the early answers reach the tools


def test_the_instructions_are_fresh_though_the_rest_is_replayed(home):
    start(home["env"])
    (home["notes"] / "b.md").write_text("Another note about the ledger.\n")
    subprocess.run([*home["pica"], "index"], env=home["env"], check=True, capture_output=True)
    init, _, _ = start(home["env"])
    assert "(1 collection, 2 documents)" in init.instructions


def test_a_replayed_tool_list_that_is_wrong_is_corrected_and_the_client_told(home):
    start(home["env"])
    (file,) = home["cache"].glob("stdio-*.json")
    known = json.loads(file.read_text())
    for key in [k for k in known["answers"] if k.startswith("tools/list ")]:
        known["answers"][key]["tools"][0]["description"] = "a stale description"
    file.write_text(json.dumps(known))
    told = []

    async def go():
        from mcp import ClientSession
        from mcp.client.stdio import StdioServerParameters, stdio_client

        async def heard(message):
            told.append(getattr(getattr(message, "root", message), "method", None) or str(message))

        server = StdioServerParameters(command=sys.executable, args=["-m", "pica", "serve", "--stdio"],
                                       env=home["env"])  # fmt: skip
        async with (
            stdio_client(server) as (read, write),
            ClientSession(read, write, message_handler=heard) as session,
        ):
            await session.initialize()
            early = (await session.list_tools()).tools
            await session.call_tool("stats", {})  # answered by the SDK: it has loaded by now
            later = (await session.list_tools()).tools
            return early, later

    early, later = anyio.run(go)
    assert early[0].description == "a stale description"  # the replay answered the first list
    assert later[0].description != "a stale description"
    assert any("tools/list_changed" in str(m) for m in told), told
    assert "a stale description" not in file.read_text()  # the file is right for the next start


def test_a_client_that_leaves_at_once_ends_the_server(home):
    process = subprocess.run(
        [*home["pica"], "serve", "--stdio"], input=b"", env=home["env"], capture_output=True, timeout=60
    )
    assert process.returncode == 0, process.stderr.decode()


def test_a_bad_tool_set_is_still_reported_on_stdio(home):
    process = subprocess.run(
        [*home["pica"], "serve", "--stdio", "--toolset", "nosuch"],
        input=b"", env=home["env"], capture_output=True, timeout=60,
    )  # fmt: skip
    assert process.returncode != 0
    assert "no tool set 'nosuch'" in process.stderr.decode()


STATELESS = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
             "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
             "io.modelcontextprotocol/clientCapabilities": {}}  # fmt: skip


def raw_session(env: dict, requests: list[dict]) -> list[dict]:
    """Each request's answer, as JSON-RPC over the server's pipes (no client library speaks the
    stateless protocol here; Claude Code does, and asks exactly this on connecting)."""
    process = subprocess.Popen([*PICA_SERVE], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL)  # fmt: skip
    answers = []
    for request in requests:
        process.stdin.write(json.dumps(request).encode() + b"\n")
        process.stdin.flush()
        while True:  # its answer; for a subscription, the notification acknowledging it
            answer = json.loads(process.stdout.readline())
            if answer.get("id") == request["id"] or answer.get("method") == ACK:
                break
        answers.append(answer)
    process.stdin.close()
    assert process.wait(60) == 0
    return answers


PICA_SERVE = [sys.executable, "-m", "pica", "serve", "--stdio"]
ACK = "notifications/subscriptions/acknowledged"


def test_the_stateless_protocol_is_replayed_too(home):
    listen = {"_meta": STATELESS, "notifications": {"toolsListChanged": True}}
    requests = [
        {"jsonrpc": "2.0", "id": 0, "method": "server/discover", "params": {"_meta": STATELESS}},
        {"jsonrpc": "2.0", "id": "listen:0", "method": "subscriptions/listen", "params": listen},
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": STATELESS}},
    ]  # what Claude Code asks, and it waits for the subscription's acknowledgement
    first = raw_session(home["env"], requests)  # the SDK's answers
    known = replayed(home["cache"])
    assert {"server/discover 2026-07-28", "tools/list 2026-07-28"} <= set(known["answers"])
    assert any(key.startswith("subscriptions/listen 2026-07-28") for key in known["answers"])
    second = raw_session(home["env"], requests)  # the replay's
    assert second == first
    assert "- notes: files, 1 documents" in second[0]["result"]["instructions"]
    assert second[1]["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == "listen:0"
    assert len(second[2]["result"]["tools"]) == 9
    (file,) = home["cache"].glob("stdio-*.json")
    known["answers"]["server/discover 2026-07-28"]["ttlMs"] = 12345  # marks what the replay sends
    file.write_text(json.dumps(known))
    assert raw_session(home["env"], requests)[0]["result"]["ttlMs"] == 12345


def test_a_ping_while_the_sdk_loads_is_answered(home):
    start(home["env"])  # something to replay
    initialize = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
                  "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                             "clientInfo": {"name": "test", "version": "1"}}}  # fmt: skip
    ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    answers = raw_session(home["env"], [initialize, ping])
    assert answers[0]["result"]["protocolVersion"] == "2025-06-18"
    assert answers[1] == {"jsonrpc": "2.0", "id": 1, "result": {}}
