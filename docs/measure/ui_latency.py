"""Warm latency of a search in the browser UI against the same search as the MCP tool, one server.

    PICA_HOME=<home> python docs/measure/ui_latency.py [--queries N] [--mode M]

Starts `pica serve` on a free port of 127.0.0.1 over the home (watching off), warms it with a few
searches, then asks each query both ways, alternating: the UI's results fragment as htmx fetches it
(GET /ui/?q=...&mode=M with HX-Request: true; HTML rendered by Jinja2) and the MCP `search` tool
over streamable HTTP with the SDK's client (JSON), both k = 20 (the UI's default). Prints the
median and 95th percentile, ms.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse
import urllib.request

import anyio

QUERIES = ["memory server knowledge graph", "retry backoff timeout", "tests failing on CI",
           "how is the index rebuilt", "front matter fields", "session transcript search",
           "football club history", "climate policy", "database migration",
           "neural network training"]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--queries", type=int, default=60)
    parser.add_argument("--mode", default="default")
    args = parser.parse_args()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "PICA_WATCH": "0"}
    server = subprocess.Popen([sys.executable, "-m", "pica", "serve", "--port", str(port)], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(600):
            try:
                urllib.request.urlopen(base + "/ui/status", timeout=5).read()
                break
            except OSError:
                time.sleep(0.1)
        queries = (QUERIES * (args.queries // len(QUERIES) + 1))[: args.queries]
        ui, mcp = anyio.run(measure, base, queries, args.mode)
    finally:
        server.terminate()
        server.wait(10)
    for name, times in (("UI  GET /ui/ (htmx fragment)", ui), ("MCP search tool (HTTP)", mcp)):
        ms = sorted(t * 1000 for t in times)
        p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
        median = statistics.median(ms)
        print(f"{name:30} mode {args.mode}: median {median:6.1f} ms, p95 {p95:6.1f} ms, n={len(ms)}")


async def measure(base: str, queries: list[str], mode: str) -> tuple[list[float], list[float]]:
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    def ui_get(query: str) -> None:
        address = base + "/ui/?" + urllib.parse.urlencode({"q": query, "mode": mode})
        request = urllib.request.Request(address, headers={"HX-Request": "true"})
        with urllib.request.urlopen(request, timeout=60) as answer:
            answer.read()

    ui, mcp = [], []
    async with (
        streamable_http_client(base + "/mcp") as streams,
        ClientSession(streams[0], streams[1]) as session,
    ):
        await session.initialize()
        for query in QUERIES[:3]:  # warm: models, index handles, plans, templates
            ui_get(query)
            await session.call_tool("search", {"query": query, "mode": mode, "k": 20})
        for query in queries:
            started = time.perf_counter()
            await anyio.to_thread.run_sync(ui_get, query)
            ui.append(time.perf_counter() - started)
            started = time.perf_counter()
            result = await session.call_tool("search", {"query": query, "mode": mode, "k": 20})
            mcp.append(time.perf_counter() - started)
            assert not result.is_error, result.content
    return ui, mcp


if __name__ == "__main__":
    main()
