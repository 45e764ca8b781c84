from __future__ import annotations

import json
import os
import socket
import tempfile
from pathlib import Path

import pytest

# Nothing may come from a model hub in tests: models load from installed packages or test folders.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
# Never index this machine's own agent transcripts: tests that want transcripts point at theirs.
for _agent in ("CLAUDE", "CODEX", "GEMINI"):
    os.environ[f"PICA_{_agent}_DIR"] = f"/nonexistent/pica-tests/{_agent.lower()}"

# `pica serve` started by a test does not index behind its back; tests of watching ask for it.
os.environ["PICA_WATCH"] = "0"

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus"
DOCUMENTS = CORPUS / "documents"


@pytest.fixture
def pica_home(tmp_path, monkeypatch) -> Path:
    """A fresh PICA_HOME for the test, set in the environment the code and subprocesses see."""
    home = tmp_path / "pica-home"
    monkeypatch.setenv("PICA_HOME", str(home))
    return home


@pytest.fixture
def no_network(monkeypatch):
    """Any attempt to open a network connection fails the test."""

    def refuse(*args, **kwargs):
        raise AssertionError(f"network access attempted: {args}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)


def needs_corpus():
    return pytest.mark.skipif(not DOCUMENTS.is_dir(), reason=f"corpus not found at {CORPUS}")


@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter, config):
    """Line and branch coverage as two numbers: pytest-cov's table gives one figure mixing both."""
    controller = getattr(config.pluginmanager.getplugin("_cov"), "cov_controller", None)
    cov = getattr(controller, "cov", None)
    if cov is None:  # --no-cov, or pytest-cov not installed
        return
    with tempfile.TemporaryDirectory() as folder:
        cov.json_report(outfile=f"{folder}/coverage.json")
        totals = json.loads(Path(folder, "coverage.json").read_text())["totals"]
    lines = 100 * totals["covered_lines"] / max(totals["num_statements"], 1)
    branches = 100 * totals["covered_branches"] / max(totals["num_branches"], 1)
    terminalreporter.write_line(f"coverage: lines {lines:.1f}%, branches {branches:.1f}%")
