"""SIGKILL at random moments: both indexes stay openable and the next run converges."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.helpers import snapshot

KILLS = 12


def write_collection(root: Path, seed: int, files: int = 800) -> None:
    rng = random.Random(seed)
    words = [
        "alpha",
        "beta",
        "gamma",
        "delta",
        "epsilon",
        "zeta",
        "eta",
        "theta",
        "iota",
        "kappa",
        "lambda",
        "omicron",
        "sigma",
    ]
    for n in range(files):
        folder = root / f"part{n % 7}"
        folder.mkdir(parents=True, exist_ok=True)
        paragraphs = [" ".join(rng.choices(words, k=rng.randint(20, 90))) for _ in range(rng.randint(2, 9))]
        (folder / f"note{n}.md").write_text(
            f"---\ntitle: Note {n}\n---\n# Note {n}\n\n" + "\n\n".join(paragraphs)
        )
    records = [json.dumps({"id": str(i), "text": " ".join(rng.choices(words, k=30))}) for i in range(200)]
    (root / "records.jsonl").write_text("\n".join(records) + "\n")


def mutate(root: Path, rng: random.Random) -> None:
    notes = sorted(root.rglob("note*.md"))
    for path in rng.sample(notes, 150):
        path.write_text(path.read_text() + f"\n\nedited {rng.random()}\n")
    for path in rng.sample(notes, 5):
        if path.exists():
            path.unlink()
    (root / "part0" / f"new{rng.randint(0, 10**6)}.md").write_text("# New\nfresh words\n")


def pica(home: Path, *args: str, **kwargs) -> subprocess.Popen:
    env = {**os.environ, "PICA_HOME": str(home), "HF_HUB_OFFLINE": "1"}
    return subprocess.Popen(
        [sys.executable, "-m", "pica", *args],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        **kwargs,
    )


def finish(home: Path, *args: str) -> float:
    started = time.monotonic()
    process = pica(home, *args)
    _, err = process.communicate(timeout=600)
    assert process.returncode == 0, err
    return time.monotonic() - started


def assert_openable(home: Path) -> None:
    """Both indexes open and answer after a kill (before any repair run)."""
    from pica.stages.index.keyword_index import open_for_search, read_marker
    from pica.stages.store.lance_store import LanceStore

    store = LanceStore(home / "lance")
    store.documents.count_rows()
    store.chunks.count_rows()
    if read_marker(home / "tantivy"):
        index = open_for_search(home / "tantivy")
        index.searcher().num_docs  # noqa: B018 - opening and reading is the check


def comparable(state: dict) -> dict:
    return {k: v for k, v in state.items() if k != "skipped"} | {
        "skipped": {path: reason for (_, path), reason in state["skipped"].items()}
    }


def test_killing_index_at_random_moments_converges_to_a_clean_index(tmp_path, monkeypatch):
    rng = random.Random(20261130)
    folder = tmp_path / "notes"
    write_collection(folder, seed=1)
    crashed, clean = tmp_path / "crashed", tmp_path / "clean"
    for home in (crashed, clean):
        finish(home, "add", str(folder), "--name", "notes")
    landed = 0
    for kill in range(KILLS):
        if kill:
            mutate(folder, rng)  # every round has work: edits, deletions, a new file
        # The clean home indexes the same folder state uninterrupted; its time aims the kill.
        full = finish(clean, "index")
        process = pica(crashed, "index")
        time.sleep(rng.uniform(0.2, full))
        process.send_signal(signal.SIGKILL)
        landed += process.wait(timeout=60) == -signal.SIGKILL
        assert_openable(crashed)
    assert landed >= 10  # most kills hit a running index, not one that had finished

    finish(crashed, "index")
    monkeypatch.setenv("PICA_HOME", str(crashed))
    after_crashes = snapshot()
    monkeypatch.setenv("PICA_HOME", str(clean))
    reference = snapshot()
    assert after_crashes["in_step"] and after_crashes["catalog_version_ok"]
    assert comparable(after_crashes) == comparable(reference)
    assert len(reference["documents"]) > 800


def test_killing_embed_resumes_where_it_stopped(tmp_path, monkeypatch):
    rng = random.Random(7)
    folder = tmp_path / "notes"
    write_collection(folder, seed=2, files=400)
    crashed, clean = tmp_path / "crashed", tmp_path / "clean"
    embed = ["run", "ingest/embed", "embedder=embed.hash.v1", "slab=25"]
    for home in (crashed, clean):
        finish(home, "add", str(folder), "--name", "notes")
        finish(home, "index")
    full = finish(clean, *embed)
    kills_landed = 0
    for _ in range(5):
        process = pica(crashed, *embed)
        time.sleep(rng.uniform(0.2, full))
        process.send_signal(signal.SIGKILL)
        kills_landed += process.wait(timeout=60) == -signal.SIGKILL
        assert_openable(crashed)
    assert kills_landed >= 3
    monkeypatch.setenv("PICA_HOME", str(crashed))
    partial = snapshot()
    done_before = sum(c[-1] is not None for c in partial["chunks"].values())
    finish(crashed, *embed)
    after = snapshot()
    monkeypatch.setenv("PICA_HOME", str(clean))
    reference = snapshot()
    assert after["chunks"] == reference["chunks"]  # every vector there, and the same
    assert all(c[-1] is not None for c in after["chunks"].values())
    assert done_before > 0  # the killed runs had committed slabs that the last run kept
