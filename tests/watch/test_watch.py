"""Live watching (pica/watch.py): changes in a collection or a transcript folder become searchable
without anyone running `pica index`. No wall-clock asserts: each test polls for the outcome with a
generous deadline."""

from __future__ import annotations

import errno
import shutil

import pytest

from pica.kernel.settings import Settings
from pica.stages.store.collections import Collections
from pica.watch import Watcher, wait_until
from tests.helpers import claude_line, free_port, make_folder, search

pytest.importorskip("watchdog")

DEADLINE = 60.0


def paths(query: str) -> set[str]:
    return {h.path.rsplit("/", 1)[-1] for h in search(query, k=100)}


@pytest.fixture
def world(tmp_path, pica_home, monkeypatch):
    claude = tmp_path / "claude"
    monkeypatch.setenv("PICA_CLAUDE_DIR", str(claude))
    notes = make_folder(tmp_path / "notes", {"a.md": "# Alpha\nThe aardvark audit.\n"})
    return {"claude": claude, "notes": notes, "home": pica_home}


def register(home, folder, name):
    Collections(home).add(folder, name, {})


def watching(**options) -> Watcher:
    return Watcher(Settings(), debounce_s=0.2, max_wait_s=0.6, check_s=0.2, **options)


def test_an_appended_transcript_line_becomes_searchable(world):
    session = world["claude"] / "-work-ledger" / "s1.jsonl"
    session.parent.mkdir(parents=True)
    session.write_text(claude_line(1, "the quokka migration started", "s1") + "\n")
    with watching() as watcher:
        assert wait_until(lambda: paths("quokka"), DEADLINE) == {"s1.jsonl"}
        with session.open("a") as handle:
            handle.write(claude_line(2, "the wombat rollback finished", "s1") + "\n")
        assert wait_until(lambda: paths("wombat"), DEADLINE) == {"s1.jsonl"}
        assert not any(run.error for run in watcher.runs)


def test_a_save_storm_is_coalesced_into_few_runs(world):
    register(world["home"], world["notes"], "notes")
    with watching() as watcher:
        assert wait_until(lambda: paths("aardvark"), DEADLINE)
        assert wait_until(watcher.idle, DEADLINE)
        before = len([r for r in watcher.runs if r.name == "notes"])
        for n in range(200):  # an editor saving, a checkout writing: as fast as Python can
            (world["notes"] / f"n{n % 40}.md").write_text(f"# Note {n}\nThe pangolin note {n}.\n")
        assert wait_until(lambda: len(paths("pangolin")) == 40, DEADLINE)
        assert wait_until(watcher.idle, DEADLINE)
        runs = [r for r in watcher.runs if r.name == "notes"][before:]
        events = sum(r.changes for r in runs)
        assert events >= 40 and len(runs) <= events // 10, (len(runs), events)


def test_a_deleted_file_is_gone_from_the_index(world):
    register(world["home"], world["notes"], "notes")
    with watching() as watcher:
        assert wait_until(lambda: paths("aardvark"), DEADLINE) == {"a.md"}
        (world["notes"] / "a.md").unlink()
        assert wait_until(lambda: not paths("aardvark"), DEADLINE)
        assert not any(run.error for run in watcher.runs)


def test_a_folder_removed_and_created_again_is_watched_again(world):
    register(world["home"], world["notes"], "notes")
    messages = []
    with watching(report=messages.append):
        assert wait_until(lambda: paths("aardvark"), DEADLINE)
        shutil.rmtree(world["notes"])
        assert wait_until(lambda: any("is gone" in m for m in messages), DEADLINE), messages
        assert paths("aardvark") == {"a.md"}  # left as indexed while gone (an unmounted drive)
        make_folder(world["notes"], {"b.md": "# Beta\nThe bandicoot brief.\n"})
        assert wait_until(lambda: paths("bandicoot"), DEADLINE) == {"b.md"}
        (world["notes"] / "c.md").write_text("# Gamma\nThe capybara census.\n")  # watched, not just rescanned
        assert wait_until(lambda: paths("capybara"), DEADLINE) == {"c.md"}
        assert wait_until(lambda: not paths("aardvark"), DEADLINE)


def test_the_watch_limit_reached_falls_back_to_polling(world, monkeypatch):
    register(world["home"], world["notes"], "notes")
    messages = []
    watcher = watching(report=messages.append)
    from watchdog.observers import Observer

    def refuse(*args, **kwargs):
        raise OSError(errno.ENOSPC, "inotify watch limit reached")

    monkeypatch.setattr(Observer, "schedule", refuse)
    with watcher:
        assert any("watch limit" in m and "polling" in m for m in messages), messages
        assert wait_until(lambda: paths("aardvark"), DEADLINE)
        (world["notes"] / "d.md").write_text("# Delta\nThe dugong digest.\n")
        assert wait_until(lambda: paths("dugong"), DEADLINE) == {"d.md"}


def test_new_chunks_are_embedded_when_the_index_has_vectors(world):
    from tests.helpers import embed

    register(world["home"], world["notes"], "notes")
    with watching() as watcher:
        assert wait_until(lambda: paths("aardvark"), DEADLINE)
        assert wait_until(watcher.idle, DEADLINE)
        embed()  # the index now holds hashed-words vectors: the watcher keeps them up to date
        (world["notes"] / "e.md").write_text("# Epsilon\nThe echidna essay.\n")
        assert wait_until(lambda: watcher.embedded >= 1, DEADLINE)


def test_pica_serve_watches_unless_told_not_to(world, tmp_path):
    import os
    import subprocess
    import sys

    register(world["home"], world["notes"], "notes")
    port = free_port()
    env = {**os.environ, "PICA_WATCH": "1", "PICA_NO_SERVER": "1"}  # the tests' default is off
    log = (tmp_path / "serve.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "pica", "serve", "--port", str(port)], env=env, stderr=log
    )
    try:
        found = wait_until(lambda: paths("aardvark"), 2 * DEADLINE)  # the server starts first
        assert found == {"a.md"}, (tmp_path / "serve.log").read_text()  # what changed before it started
        (world["notes"] / "f.md").write_text("# Phi\nThe fennec file.\n")
        assert wait_until(lambda: paths("fennec"), 2 * DEADLINE) == {"f.md"}, (
            tmp_path / "serve.log"
        ).read_text()
    finally:
        server.terminate()
        server.wait(30)
        log.close()
    assert (
        "--no-watch"
        in subprocess.run(
            [sys.executable, "-m", "pica", "serve", "--help"], capture_output=True, text=True
        ).stdout
    )
