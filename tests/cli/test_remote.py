"""A fresh `pica search` asks a running `pica serve` on the same home, and prints what a run of
its own would; with no such server it runs the search itself."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from pica.cli import remote
from pica.kernel.errors import PicaError
from pica.kernel.settings import Settings
from tests.helpers import free_port, make_folder

PICA = [sys.executable, "-m", "pica"]
HEAVY = ("pydantic", "pydantic_settings", "tantivy", "lancedb", "torch", "mcp", "numpy", "omegaconf")


def pica(*args: str, env: dict, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run([*PICA, *args], env=env, check=check, capture_output=True, text=True)


def make_home(root, name: str, files: dict[str, str], embed: bool = True) -> dict:
    """An environment whose home holds FILES indexed and embedded (the hash stand-in model)."""
    env = {**os.environ, "PICA_HOME": str(root / name / "home"), "HF_HUB_OFFLINE": "1"}
    for key in [k for k in env if k.upper() in ("PICA_NO_SERVER", "PICA_SERVE_HOST", "PICA_SERVE_PORT")]:
        del env[key]
    notes = make_folder(root / name / "notes", files)
    pica("add", str(notes), "--name", "notes", env=env)
    pica("index", env=env)
    if embed:
        pica("run", "ingest/embed", "embedder=embed.hash.v1", env=env)
    return env


@pytest.fixture(scope="module")
def homes(tmp_path_factory):
    root = tmp_path_factory.mktemp("remote")
    ledger = make_home(root, "ledger", {
        "db.md": "---\ntitle: Database\nowner: ana\n---\nThe ledger uses Postgres 16 for balances.\n",
        "ops.md": "---\ntitle: Ops\nowner: bo\n---\nThe ledger deploys on Fridays; balances freeze.\n",
        "api.md": "# API\n\nThe ledger API returns balances as decimal strings.\n\nSee ops.md.\n",
    })  # fmt: skip
    garden = make_home(
        root, "garden", {"roses.md": "# Roses\n\nThe ledger of roses: prune in March.\n"}, False
    )
    return {"root": root, "ledger": ledger, "garden": garden}


class Server:
    """`pica serve` as a real subprocess, its output in a file (uvicorn logs each request)."""

    def __init__(self, env: dict, log):
        self.port = free_port()
        self.log = log
        self.process = subprocess.Popen(
            [*PICA, "serve"], env={**env, "PICA_SERVE_PORT": str(self.port)},
            stdout=log.open("w"), stderr=subprocess.STDOUT,
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while "Uvicorn running" not in log.read_text():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise AssertionError(f"pica serve did not start: {log.read_text()}")
            time.sleep(0.1)

    def answered(self, status: int) -> int:
        """How many /pica/run requests got STATUS."""
        return self.log.read_text().count(f'"POST {remote.PATH} HTTP/1.1" {status}')

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture(scope="module")
def ledger_server(homes):
    server = Server(homes["ledger"], homes["root"] / "ledger.log")
    yield server
    server.stop()


@pytest.fixture
def start_server(homes, tmp_path):
    started = []

    def start(env: dict) -> Server:
        started.append(Server(env, tmp_path / f"server{len(started)}.log"))
        return started[-1]

    yield start
    for server in started:
        server.stop()


def client(env: dict, server: Server | None = None, **more: str) -> dict:
    port = str(server.port if server else free_port())  # a free port: nothing listens there
    return {**env, "PICA_SERVE_PORT": port, **more}


SEARCHES = [
    ["search", "ledger balances", "-m", "federated-hybrid", "--model", "hashed-words", "--json"],
    ["search", "ledger balances", "-m", "federated-hybrid", "--model", "hashed-words"],
    ["search", "ledger balances", "-m", "federated", "--json"],
    ["search", "ledger balances", "-m", "lexical", "-k", "2", "--fields", "*"],
    ["search", "Fridays", "-m", "grep", "--json"],
    ["search", "balances", "-m", "semantic", "--model", "hashed-words", "--json"],
    ["search", "balances", "-m", "federated-hybrid", "--model", "hashed-words", "--sources", "files,kg"],
    ["search", "nothing matches this", "-m", "lexical"],
    ["similar", "notes/db.md", "--json"],
]


@pytest.mark.parametrize("args", SEARCHES, ids=lambda args: " ".join(args[1:]))
def test_a_search_the_server_answers_prints_what_a_local_run_prints(homes, ledger_server, args):
    env = client(homes["ledger"], ledger_server)
    before = ledger_server.answered(200)
    forwarded = pica(*args, env=env)
    assert ledger_server.answered(200) == before + 1
    local = pica(*args, env={**env, "PICA_NO_SERVER": "1"})
    assert ledger_server.answered(200) == before + 1
    assert printed(forwarded) == printed(local)
    if "--json" in args:
        assert json.loads(forwarded.stdout)["hits"] or args[1] == "nothing matches this"


def test_the_default_mode_uses_embeddings_on_a_server_and_bm25_alone_without(homes, ledger_server):
    env = client(homes["ledger"], ledger_server)
    warm = json.loads(pica("search", "ledger balances", "--json", env=env).stdout)
    cold = json.loads(pica("search", "ledger balances", "--json", env={**env, "PICA_NO_SERVER": "1"}).stdout)
    assert "ranked by BM25 and by embeddings" in warm["notes"]
    assert any(note.startswith("ranked by BM25 alone: embeddings are used when") for note in cold["notes"])
    assert warm["hits"] and cold["hits"]


def printed(run: subprocess.CompletedProcess) -> tuple:
    """What a search printed, its warnings in any order: stages that fail at once in parallel
    report in the order they happen to fail, in a local run too."""
    stdout = run.stdout
    if stdout.startswith("{"):
        answer = json.loads(stdout)
        stdout = json.dumps({**answer, "warnings": sorted(answer["warnings"])}, indent=2, ensure_ascii=False)
    return run.returncode, stdout, sorted(run.stderr.splitlines())


def test_a_forwarded_search_loads_nothing_heavy(homes, ledger_server):
    """What makes it fast: the client imports neither the stages nor pydantic."""
    env = client(homes["ledger"], ledger_server)
    run = subprocess.run([sys.executable, "-X", "importtime", "-m", "pica", "search", "balances", "--json"],
                         env=env, capture_output=True, text=True, check=True)  # fmt: skip
    imported = {line.split("|")[-1].strip() for line in run.stderr.splitlines() if "|" in line}
    assert json.loads(run.stdout)["hits"]
    assert not {name for name in imported if name.split(".")[0] in HEAVY}


def test_user_errors_come_back_as_a_local_run_says_them(homes, ledger_server):
    env = client(homes["ledger"], ledger_server)
    for args in (["search", "x", "-m", "lexical", "-f", "owner"], ["similar", "notes/missing.md"]):
        before = ledger_server.answered(400)
        forwarded = pica(*args, env=env, check=False)
        assert ledger_server.answered(400) == before + 1
        local = pica(*args, env={**env, "PICA_NO_SERVER": "1"}, check=False)
        assert (forwarded.returncode, forwarded.stdout, forwarded.stderr) == (2, "", local.stderr)
        assert local.returncode == 2 and local.stderr.startswith("error: ")


def test_only_search_recipes_run_on_the_server(homes, ledger_server, monkeypatch):
    for key, value in client(homes["ledger"], ledger_server).items():
        monkeypatch.setenv(key, value)
    result = remote.run_remote("search/lexical", {"query": "Postgres"})
    assert [h.id for h in result.output] == ["notes/db.md"] and result.warnings == []
    assert result.output[0].title == "Database" and result.text is None
    before = ledger_server.answered(400)
    assert remote.run_remote("ingest/status", {}) is None  # not a search: the caller runs it itself
    assert ledger_server.answered(400) == before + 1
    with pytest.raises(PicaError, match="recipe 'search/nope' not found"):
        remote.run_remote("search/nope", {"query": "x"})


def test_a_server_on_another_home_or_with_other_settings_is_not_used(homes, ledger_server, start_server):
    garden = start_server(homes["garden"])
    env = client(homes["ledger"], garden)
    forwarded = pica("search", "ledger", "-m", "lexical", "--json", env=env)
    assert garden.answered(409) == 1 and garden.answered(200) == 0
    local = pica("search", "ledger", "-m", "lexical", "--json", env={**env, "PICA_NO_SERVER": "1"})
    assert printed(forwarded) == printed(local)
    assert {h["id"] for h in json.loads(forwarded.stdout)["hits"]} == {"notes/db.md", "notes/ops.md",
                                                                      "notes/api.md"}  # fmt: skip

    other = client(homes["ledger"], ledger_server, PICA_VECTOR_TABLE="other")  # settings differ
    before = ledger_server.answered(409)
    pica("search", "ledger", "-m", "lexical", env=other)
    assert ledger_server.answered(409) == before + 1


def test_with_no_server_the_search_runs_here(homes):
    env = client(homes["ledger"])
    alone = pica("search", "ledger balances", "-m", "lexical", "--json", env=env)
    local = pica("search", "ledger balances", "-m", "lexical", "--json", env={**env, "PICA_NO_SERVER": "1"})
    assert printed(alone) == printed(local) and json.loads(alone.stdout)["hits"]
    assert remote.run_remote("search/lexical", {"query": "x"}, Settings(serve_port=free_port())) is None


def test_the_server_address_settings_match_the_clients_defaults(monkeypatch):
    for key in ("PICA_SERVE_HOST", "PICA_SERVE_PORT"):
        monkeypatch.delenv(key, raising=False)
    settings = Settings()
    assert (settings.serve_host, settings.serve_port) == (remote.DEFAULT_HOST, remote.DEFAULT_PORT)


def test_importing_the_client_loads_nothing_heavy():
    code = f"import sys, pica.cli.remote; print([m for m in sys.modules if m.split('.')[0] in {HEAVY}])"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"
