"""How long a client waits for `pica serve`, from starting the process to the answers to
`initialize` and `tools/list`, over stdio and over HTTP (docs/benchmarks.md, "MCP start-up").

    python3 docs/measure/mcp_startup.py [--runs 5] [--home DIR]

A client that starts a stdio server with each session waits this long before its model sees
Pica's tools. The first stdio start after an install (or a change of settings, recipes or code)
has no answers to replay yet (pica/mcp/stdio.py), so it is timed apart. Messages are written as
raw JSON-RPC, so no client library's own start is counted.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                         "clientInfo": {"name": "bench", "version": "1"}}}  # fmt: skip
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
TOOLS = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}


def stdio_once(env: dict) -> tuple[float, float, int]:
    started = time.perf_counter()
    command = [sys.executable, "-m", "pica", "serve", "--stdio"]
    pipe = subprocess.PIPE
    process = subprocess.Popen(command, env=env, stdin=pipe, stdout=pipe, stderr=subprocess.DEVNULL)

    def send(message: dict) -> None:
        process.stdin.write(json.dumps(message).encode() + b"\n")
        process.stdin.flush()

    send(INITIALIZE)
    process.stdout.readline()
    initialized = time.perf_counter() - started
    send(INITIALIZED)
    send(TOOLS)
    tools = json.loads(process.stdout.readline())["result"]["tools"]
    listed = time.perf_counter() - started
    process.stdin.close()
    process.wait(60)
    return initialized, listed, len(tools)


def http_once(env: dict, running: list[tuple[float, float, int]]) -> tuple[float, float, int]:
    """From the process's start; and, into `running`, a second client's wait on the running server."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}/mcp"
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "pica", "serve", "--port", str(port)], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        first = _http_client(url, started)
        running.append(_http_client(url, time.perf_counter()))
        return first
    finally:
        process.terminate()
        process.wait(30)


def _http_client(url: str, started: float) -> tuple[float, float, int]:
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    while True:  # the port listens at once; the answer comes when the server is built
        try:
            with urllib.request.urlopen(_post(url, INITIALIZE, headers), timeout=60) as response:
                session = response.headers.get("mcp-session-id")
                response.read()
            break
        except OSError:
            time.sleep(0.01)
    initialized = time.perf_counter() - started
    headers = {**headers, "mcp-session-id": session, "mcp-protocol-version": "2025-06-18"}
    urllib.request.urlopen(_post(url, INITIALIZED, headers), timeout=60).read()
    with urllib.request.urlopen(_post(url, TOOLS, headers), timeout=60) as response:
        body = response.read().decode()
    listed = time.perf_counter() - started
    data = (
        next(line[5:] for line in body.splitlines() if line.startswith("data:")) if "data:" in body else body
    )
    return initialized, listed, len(json.loads(data)["result"]["tools"])


def _post(url: str, message: dict, headers: dict) -> urllib.request.Request:
    return urllib.request.Request(url, json.dumps(message).encode(), headers, method="POST")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--home", help="a PICA_HOME to serve (default: an empty one)")
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="pica-startup-"))
    env = {**os.environ, "PICA_HOME": args.home or str(scratch / "home"), "PICA_WATCH": "0",
           "XDG_CACHE_HOME": str(scratch / "cache"), "HF_HUB_OFFLINE": "1"}  # fmt: skip
    try:
        rows = [("stdio, first start (nothing to replay)", [stdio_once(env)])]
        rows.append(("stdio", [stdio_once(env) for _ in range(args.runs)]))
        running: list[tuple[float, float, int]] = []
        rows.append(("HTTP", [http_once(env, running) for _ in range(args.runs)]))
        rows.append(("HTTP, to a server already running", running))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print("| transport | runs | initialize answered (median) | tools/list answered (median, max) | tools |")
    print("| --- | --- | --- | --- | --- |")
    for name, runs in rows:
        init = statistics.median(r[0] for r in runs)
        listed = [r[1] for r in runs]
        median = statistics.median(listed)
        print(f"| {name} | {len(runs)} | {init:.2f} s | {median:.2f} s, {max(listed):.2f} s | {runs[0][2]} |")


if __name__ == "__main__":
    main()
