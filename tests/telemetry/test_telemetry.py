"""Opt-in telemetry (pica/telemetry.py): off by default, and when on, nothing but counts and fixed
tokens reaches the wire, checked at a real HTTP receiver on 127.0.0.1."""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import sys
import threading

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pica import telemetry
from pica.cli import main
from pica.watch import wait_until


@pytest.fixture
def receiver():
    bodies: list[bytes] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            bodies.append(self.rfile.read(int(self.headers["Content-Length"])))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/collect", bodies
    server.shutdown()
    server.server_close()


@pytest.fixture
def on(pica_home, receiver, monkeypatch):
    monkeypatch.setenv("PICA_TELEMETRY", "1")
    monkeypatch.setenv("PICA_TELEMETRY_URL", receiver[0])
    monkeypatch.setenv("PICA_TELEMETRY_BATCH", "1000")  # sent by flush() here, not a detached process
    return receiver[1]


def test_off_by_default_nothing_is_queued_or_sent(pica_home, receiver, monkeypatch):
    monkeypatch.delenv("PICA_TELEMETRY", raising=False)
    monkeypatch.setenv("PICA_TELEMETRY_URL", receiver[0])
    assert not telemetry.enabled()
    telemetry.record("search", 0.2)
    assert telemetry.queued() == 0 and not telemetry.flush() and receiver[1] == []
    result = CliRunner().invoke(main, ["telemetry", "status"])
    assert "telemetry: off (by default)" in result.output


def test_enable_disable_and_the_environment(pica_home, monkeypatch):
    monkeypatch.delenv("PICA_TELEMETRY", raising=False)
    monkeypatch.delenv("PICA_TELEMETRY_URL", raising=False)
    runner = CliRunner()
    assert "telemetry: on" in runner.invoke(main, ["telemetry", "enable"]).output
    assert telemetry.enabled() and isinstance(telemetry.state()["install"], int)
    status = runner.invoke(main, ["telemetry", "status"]).output
    assert "nothing is sent" in status  # no receiver configured: Pica has no default one
    monkeypatch.setenv("PICA_TELEMETRY", "0")
    assert not telemetry.enabled()  # the environment wins
    monkeypatch.delenv("PICA_TELEMETRY")
    runner.invoke(main, ["telemetry", "disable"])
    assert not telemetry.enabled() and telemetry.queued() == 0


def test_a_search_sends_its_command_mode_and_counts(on, tmp_path):
    CliRunner().invoke(main, ["search", "anything", "--mode", "lexical"])
    assert telemetry.flush()
    (event,) = json.loads(on[0])["events"]
    assert event["command"] == "search" and event["mode"] == "lexical" and event["hits"] == 0
    assert set(event) <= set(telemetry.FIELDS) and event["latency_ms"] in (*telemetry.LATENCY_MS, 10**9)


SECRETS = [
    "AKIAIOSFODNN7EXAMPLE",
    "ghp_0123456789abcdefghijABCDEFGHIJ012345",
    "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789",
    "-----BEGIN OPENSSH PRIVATE KEY-----",
    "postgres://ana:hunter2@db.internal/ledger",
]
content = st.one_of(
    st.text(min_size=1, max_size=60),  # queries, transcript text
    st.builds(
        lambda parts: "/home/ana/" + "/".join(parts), st.lists(st.text(min_size=1, max_size=10), min_size=1)
    ),
    st.sampled_from(SECRETS),
)
names = st.one_of(st.sampled_from(sorted(telemetry.FIELDS)), st.text(min_size=1, max_size=12))
allowed_tokens = set().union(*(v for v in telemetry.FIELDS.values() if v != telemetry.NUMBER))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    command=content,
    error_name=st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,30}", fullmatch=True),
    noted=st.dictionaries(names, content, max_size=6),
    extra=st.dictionaries(names, st.one_of(content, st.integers(), st.floats(), st.booleans()), max_size=6),
)
def test_no_content_reaches_the_wire(on, command, error_name, noted, extra):
    on.clear()
    error = type(error_name, (Exception,), {})("boom " + command)
    telemetry.note(**{"mode": command, "hits": command, **noted})
    telemetry.record(command, 0.05, error)
    with (telemetry.home() / "telemetry-queue.jsonl").open("a") as queue:  # a queue tampered with
        queue.write(json.dumps({**extra, "command": command}) + "\n")
    assert telemetry.flush()
    (body,) = on
    wire = body.decode()
    for value in [command, error_name, *noted.values(), *(v for v in extra.values() if isinstance(v, str))]:
        if value in allowed_tokens or value.strip() == "" or len(value) < 4:
            continue  # a token of the fixed lists may pass; tiny strings collide with field names
        assert value not in wire and json.dumps(value)[1:-1] not in wire
    for event in json.loads(body)["events"]:
        for key, value in event.items():
            assert key in telemetry.FIELDS
            kind = telemetry.FIELDS[key]
            assert (type(value) in (int, float)) if kind == telemetry.NUMBER else (value in kind)


def test_sending_never_blocks_and_is_silent_offline(pica_home, receiver, monkeypatch):
    url, bodies = receiver
    env = {**os.environ, "PICA_TELEMETRY": "1", "PICA_TELEMETRY_URL": url, "PICA_TELEMETRY_BATCH": "1"}
    done = subprocess.run([sys.executable, "-m", "pica", "telemetry", "status"], env=env, capture_output=True)
    assert done.returncode == 0 and done.stderr == b""
    assert wait_until(lambda: bodies, 30)  # posted by a detached process after the command exited
    assert json.loads(bodies[0])["events"][0]["command"] == "telemetry"
    monkeypatch.setenv("PICA_TELEMETRY", "1")
    monkeypatch.setenv("PICA_TELEMETRY_URL", "http://127.0.0.1:9/nothing-listens")
    telemetry.record("index", 1.5)
    assert telemetry.flush() is False and telemetry.queued() >= 1  # kept for next time, nothing said
