"""Every line of the README's Quickstart, run as written in a shell, on a temporary home.

The home holds the shared corpus: its Markdown documents (plus the `ops/deploy.md` note the
README's examples name) as `~/notes`, and real Claude Code, Codex and Gemini sessions in the
folders those agents write to. Each line must exit 0 without a traceback, and the lines whose
answer is known from that material must give it.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import CORPUS, REPO, needs_corpus
from tests.web_server import local_web, result

TRANSCRIPTS = CORPUS / "transcripts"
# Only `pica bench bench/cranfield` is left to the slow run: it indexes and embeds 1,400 abstracts.
SLOW = ("pica bench bench/",)

DEPLOY = """---
title: Deploying the shop
owner: ana
created: 2024-07-02
tags: [ops]
---
# Deploying the shop

The deploy runs from the release branch after the tests pass.

## Steps

1. Tag the release.
2. Build the image.
3. Push it to the registry.
4. Run the migration job.
5. Roll the web pods one at a time.
6. Watch the error rate for ten minutes.

## When it fails

Retry with backoff: the registry answers 503 under load.
A flaky test blocks the deploy; rerun it once before looking deeper.
Error: ENOENT means the build folder was not made.
Roll back with the previous tag.
"""


def quickstart_lines() -> list[str]:
    """The commands of the README's Quickstart block, comments dropped."""
    readme = (REPO / "README.md").read_text()
    block = readme.split("## Quickstart", 1)[1].split("```bash", 1)[1].split("```", 1)[0]
    lines = []
    for line in block.splitlines():
        command = re.split(r"(?:^|\s)#", line, maxsplit=1)[0].strip()  # no line quotes a " #"
        if command:
            lines.append(command)
    return lines


def python_example() -> str:
    readme = (REPO / "README.md").read_text()
    return readme.split("From Python:", 1)[1].split("```python", 1)[1].split("```", 1)[0]


@pytest.fixture(scope="module")
def user(tmp_path_factory):
    """A user's home: ~/notes, the agents' transcript folders, a `pica` on PATH, a local web."""
    if not TRANSCRIPTS.is_dir():
        pytest.skip(f"corpus not found at {CORPUS}")
    home = tmp_path_factory.mktemp("user")
    notes = home / "notes"
    shutil.copytree(CORPUS / "documents" / "md", notes)
    (notes / "ops").mkdir()
    (notes / "ops" / "deploy.md").write_text(DEPLOY)
    claude = home / ".claude" / "projects" / "-home-me-marot"
    claude.mkdir(parents=True)
    for name in ("short.jsonl", "tool_heavy.jsonl", "subagent.jsonl"):
        shutil.copy(TRANSCRIPTS / "claude-code" / "marot-spotter" / name, claude / name)
    shutil.copytree(TRANSCRIPTS / "codex" / "vibecodingtracker", home / ".codex" / "sessions" / "2026")
    shutil.copytree(TRANSCRIPTS / "gemini" / "vibecodingtracker", home / ".gemini" / "tmp" / "h" / "chats")
    (home / "questions.json").write_text(
        json.dumps([{"query": "roll back the deploy", "relevant": ["notes/ops/deploy.md"]}])
    )
    bin_dir = home / "bin"
    bin_dir.mkdir()
    (bin_dir / "pica").write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m pica "$@"\n')
    (bin_dir / "pica").chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PICA_")}
    env.update(
        HOME=str(home),
        PATH=f"{bin_dir}{os.pathsep}{env['PATH']}",
        PICA_NO_SERVER="1",  # never forward to a `pica serve` this machine may be running
    )
    env.pop("CODEX_HOME", None)
    with local_web() as web:
        page = web.page("/x-removal", "<html><body><article><h1>X removal</h1><p>"
                        + "X is deprecated since version 3 and removed in version 4. " * 20
                        + "</p></article></body></html>")  # fmt: skip
        web.results["is X deprecated"] = [result(page, "X removal", "X is deprecated")]
        web.results["X removal"] = [result(page, "X removal", "removed in version 4")]
        allow = home / ".pica" / "configs" / "team"
        allow.mkdir(parents=True)
        (allow / "local-web.yaml").write_text("providers:\n  pages:\n    allow_hosts: [127.0.0.1]\n")
        env["PICA_WEB_URL"] = web.url
        yield home, env


def run_line(line: str, home: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    if line.startswith("pica deepweb"):  # the stand-in's pages are on this machine: allow it
        env = {**env, "PICA_TEAM": "local-web"}
    return subprocess.run(
        ["bash", "-c", line], cwd=home, env=env, capture_output=True, text=True, timeout=600
    )


# What the material guarantees a line prints (a regular expression over stdout).
EXPECTED = {
    "pica add": r"notes",
    "pica status": r"notes",
    "pica list": r"d6e0bada",
    "pica session d6e0bada": r"\S",
    "pica stats": r"claude-code",
    'pica search "deploy" -c notes': r"ops/deploy\.md",
    'pica search "deploy" --json': r'"owner": ?"ana"',
    "pica get notes/ops/deploy.md --lines 14-23": r"Roll the web pods",
    "pica bench questions.json": r"hybrid",
    "pica deepweb": r"x-removal",
    'pica search "Error: ENOENT" -m grep': r"ENOENT",
    "pica stages": r"retrieve\.lexical",
    "pica recipes": r"search/default",
}


@needs_corpus()
def test_every_quickstart_line_runs_as_written(user):
    home, env = user
    lines = quickstart_lines()
    assert len(lines) > 30 and lines[-1] == "pica rm notes"
    assert all(any(line.startswith(start) for line in lines) for start in EXPECTED)
    failures = []
    for line in lines:
        if line.startswith(SLOW):
            continue
        started = time.monotonic()
        done = run_line(line, home, env)
        print(f"{time.monotonic() - started:5.1f} s  {line}")  # shown with -s, or on a failure
        said = done.stdout + done.stderr
        if done.returncode != 0 or "Traceback" in said:
            failures.append(f"{line}\n  exit {done.returncode}: {said[-600:]}")
            continue
        for start, pattern in EXPECTED.items():
            if line.startswith(start) and not re.search(pattern, done.stdout):
                failures.append(f"{line}\n  printed no match for {pattern!r}: {done.stdout[-600:]}")
    assert not failures, "\n".join(failures)
    # The last line dropped the collection: its documents no longer come back.
    gone = run_line('pica search "deploy" -c notes', home, env)
    assert "ops/deploy.md" not in gone.stdout


@needs_corpus()
def test_the_python_example_runs(user):
    home, env = user
    done = subprocess.run(["bash", "-c", "pica add ~/notes --name notes && pica index"],
                          cwd=home, env=env, capture_output=True, text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr
    done = subprocess.run([sys.executable, "-c", python_example()],
                          cwd=home, env=env, capture_output=True, text=True)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert re.search(r"^notes/\S+ \d+ \d+ ", done.stdout, re.M), done.stdout


@pytest.mark.slow
@needs_corpus()
def test_the_quickstart_benchmark_line(user):
    home, env = user
    line = next(line for line in quickstart_lines() if line.startswith(SLOW))
    env = {**env, "PICA_DATASETS": str(CORPUS.parent / "datasets")}
    done = run_line(line, home, env)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "OK" in done.stdout and "FAIL" not in done.stdout
