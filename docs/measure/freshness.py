"""How fresh live watching keeps the index (issue 18): append -> searchable while an agent-like
writer appends lines to a transcript, and document save -> searchable in a collection.

    python docs/measure/freshness.py [--rate 20] [--seconds 30] [--saves 30] [--documents 300]

Runs `pica watch` (what `pica serve` does in its process) on a throwaway PICA_HOME, and searches
from this process as `pica search --mode lexical` does. A line counts as searchable at the first search
that finds it (or a later line: lines become searchable in order, a prefix of the file at a time),
so the numbers include up to one search of polling (the bisection for where the searchable lines
stop: a few searches of ~25 ms).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")


def word(n: int) -> str:
    """A word no text holds: 'zq' and n in letters (the keyword index splits digits off)."""
    letters = ""
    while True:
        n, r = divmod(n, 26)
        letters = chr(97 + r) + letters
        if n == 0:
            return f"zq{letters}x"


def line(n: int) -> str:
    return json.dumps({
        "type": "user", "timestamp": "2026-05-01T10:00:00Z", "cwd": "/work/ledger", "sessionId": "s1",
        "uuid": f"u{n}",
        "message": {"role": "user", "content": [{"type": "text", "text": f"step {word(n)} done"}]},
    })  # fmt: skip


SEARCHES: list[float] = []  # how long each search took: the resolution of the measurement


def found(query: str) -> bool:
    from pica.kernel import runner

    started = time.monotonic()
    hits = runner.run("search/lexical", variables={"query": query, "k": 1}).output
    SEARCHES.append(time.monotonic() - started)
    return bool(hits)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def appends(root: Path, rate: float, seconds: float) -> list[float]:
    session = root / "claude" / "-work-ledger" / "s1.jsonl"
    session.parent.mkdir(parents=True)
    session.write_text(line(0) + "\n")
    while not found(word(0)):
        time.sleep(0.05)
    written: list[float] = []
    done = threading.Event()

    def writer() -> None:
        with session.open("a") as handle:
            for n in range(1, int(rate * seconds) + 1):
                handle.write(line(n) + "\n")
                handle.flush()
                written.append(time.monotonic())
                time.sleep(max(0.0, written[0] + n / rate - time.monotonic()))
        done.set()

    threading.Thread(target=writer, daemon=True).start()
    latencies: dict[int, float] = {}
    next_unseen = 1
    while not (done.is_set() and next_unseen > len(written)):
        low, high = next_unseen, len(written)  # the newest searchable line is in [low - 1, high]
        if high < low:
            time.sleep(0.01)
            continue
        if found(word(high)):
            low = high + 1
        else:  # lines become searchable in order: find where they stop, by bisection
            high -= 1
            while low <= high:
                middle = (low + high) // 2
                low, high = (middle + 1, high) if found(word(middle)) else (low, middle - 1)
        now = time.monotonic()
        for m in range(next_unseen, low):
            latencies[m] = now - written[m - 1]
        if low == next_unseen:
            time.sleep(0.01)
        next_unseen = low
    return list(latencies.values())


def saves(root: Path, count: int, documents: int) -> list[float]:
    from pica.stages.store.collections import Collections

    folder = root / "notes"
    folder.mkdir()
    for n in range(documents):
        (folder / f"doc{n}.md").write_text(f"# Note {n}\n" + "The ledger deploys on Fridays.\n" * 20)
    Collections(Path(os.environ["PICA_HOME"])).add(folder, "notes", {})
    while not found("ledger"):
        time.sleep(0.1)
    latencies = []
    for n in range(count):
        target = folder / f"doc{n * 7 % documents}.md"
        text = f"# Note {n}\nThe saved {word(100_000 + n)} paragraph.\n"
        saved = time.monotonic()
        target.write_text(text)
        while not found(word(100_000 + n)):
            time.sleep(0.02)
        latencies.append(time.monotonic() - saved)
        time.sleep(0.3)  # an editor's pause between saves
    return latencies


def storm(root: Path, files: int) -> tuple[float, float]:
    """A checkout writing FILES new files at once: (seconds to write them, seconds until the last
    one written is searchable)."""
    folder = root / "checkout"
    folder.mkdir()
    from pica.stages.store.collections import Collections

    Collections(Path(os.environ["PICA_HOME"])).add(folder, "checkout", {})
    time.sleep(2.0)  # the watcher looks for new collections every second
    started = time.monotonic()
    for n in range(files):
        sub = folder / f"src{n // 100}"
        sub.mkdir(exist_ok=True)
        (sub / f"file{n}.md").write_text(f"# File {n}\nThe {word(200_000 + n)} module.\n")
    written = time.monotonic() - started
    while not (found(word(200_000 + files - 1)) and found(word(200_000))):
        time.sleep(0.1)
    return written, time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=float, default=20.0, help="lines appended per second")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long the writer appends")
    parser.add_argument("--saves", type=int, default=30, help="documents saved, one at a time")
    parser.add_argument("--documents", type=int, default=300, help="documents in the collection")
    parser.add_argument("--debounce", type=float, default=None, help="the Watcher's debounce_s")
    parser.add_argument("--max-wait", type=float, default=None, help="the Watcher's max_wait_s")
    parser.add_argument("--storm", type=int, default=0, help="then write this many files at once")
    parser.add_argument("--poll", action="store_true", help="poll instead of OS notifications")
    args = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)
    root = Path(tempfile.mkdtemp(prefix="pica-freshness-"))
    os.environ["PICA_HOME"] = str(root / "home")
    os.environ["PICA_CLAUDE_DIR"] = str(root / "claude")
    for agent in ("CODEX", "GEMINI"):
        os.environ[f"PICA_{agent}_DIR"] = str(root / agent.lower())
    # The watcher in its own process, as `pica serve` / `pica watch` runs it; searched from here.
    command = [sys.executable, "-m", "pica", "watch", *(["--poll"] if args.poll else [])]
    if args.debounce is not None:
        command += ["--debounce", str(args.debounce)]
    if args.max_wait is not None:
        command += ["--max-wait", str(args.max_wait)]
    log = root / "watch.log"
    print(f"{' '.join(command[1:])} (log: {log}), load {os.getloadavg()[0]:.1f}")
    with log.open("w") as out:
        watcher = subprocess.Popen(command, stdout=out, stderr=out)
    try:
        appended = appends(root, args.rate, args.seconds)
        saved = saves(root, args.saves, args.documents)
        for name, values in (
            (f"append -> searchable ({args.rate:g} lines/s for {args.seconds:g} s)", appended),
            (f"save -> searchable ({args.saves} saves, {args.documents} documents)", saved),
        ):
            print(
                f"{name}: n={len(values)} p50 {percentile(values, 50):.2f} s, "
                f"p95 {percentile(values, 95):.2f} s, max {max(values):.2f} s"
            )
        if args.storm:
            written, searchable = storm(root, args.storm)
            runs = sum("'checkout':" in line for line in log.read_text().splitlines())
            print(
                f"storm: {args.storm} files written in {written:.1f} s, the first and last searchable "
                f"{searchable:.1f} s after the first was written, in {runs} runs"
            )
    finally:
        watcher.terminate()
        watcher.wait()
    print(f"one search: p50 {percentile(SEARCHES, 50):.2f} s, p95 {percentile(SEARCHES, 95):.2f} s")
    print(f"load afterwards {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
