"""Progress on stderr: on a terminal, one rich bar per counter (with its rate and time left) under
the messages; elsewhere (pipes, CI) plain lines. rich is imported only when a bar is drawn."""

from __future__ import annotations

import atexit
import sys
import threading
import time
from typing import Any, TextIO

LINE_EVERY_S = 2.0  # plain output: at most one line per counter this often, and the last one


class Progress:
    """Use it as a context manager, or call `close()` when a run ends: the bars are left on the
    screen (completed if the run finished) and what is printed next starts on a line of its own."""

    def __init__(self, stream: TextIO = sys.stderr):
        self.stream = stream
        self.tty = stream.isatty()
        self.last_line: dict[str, float] = {}
        self.counts: dict[tuple[str, str], tuple[int, int]] = {}  # (stage, what) -> (done, total)
        self.bars: Any = None  # the rich display, while bars are shown
        self.tasks: dict[str, Any] = {}  # counter -> its bar
        self.lock = threading.RLock()
        self.interrupted = False  # closed unfinished: stages still stopping no longer draw bars

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, kind: object, *_: object) -> None:
        self.close(finished=kind is None)

    def message(self, text: str) -> None:
        with self.lock:
            if self.bars is not None:
                self.bars.console.out(text, highlight=False)  # above the bars
            else:
                print(text, file=self.stream, flush=True)

    def count(self, stage: str, what: str, done: int, total: int) -> None:
        key = f"{stage}: {what}"
        with self.lock:
            if self.interrupted:
                return
            self.counts[stage, what] = (done, total)
            if self.tty:
                if self.bars is None:
                    self.bars = _bars(self.stream)
                    self.bars.start()
                    atexit.register(self.close, False)  # a caller that never closes
                if key in self.tasks:
                    self.bars.update(self.tasks[key], completed=done, total=total)
                else:
                    self.tasks[key] = self.bars.add_task(key, completed=done, total=total)
                return
            now = time.monotonic()
            if done >= total or now - self.last_line.get(key, 0.0) >= LINE_EVERY_S:
                self.last_line[key] = now
                print(f"{key} {done:,}/{total:,}", file=self.stream, flush=True)

    def close(self, finished: bool = True) -> None:
        """End this run's counters; a run that finished completed them, even one that stopped
        telling its count before the end."""
        with self.lock:
            if finished:
                for (stage, what), (done, total) in list(self.counts.items()):
                    if done < total:
                        self.count(stage, what, total, total)
            if self.bars is not None:
                self.bars.stop()
                atexit.unregister(self.close)
            self.bars, self.tasks, self.counts, self.last_line = None, {}, {}, {}
            self.interrupted = not finished


def _bars(stream: TextIO) -> Any:
    from rich.console import Console
    from rich.progress import BarColumn, ProgressColumn, TextColumn, TimeRemainingColumn
    from rich.progress import Progress as Bars
    from rich.text import Text

    class Rate(ProgressColumn):
        def render(self, task: Any) -> Text:
            speed = task.finished_speed or task.speed
            if speed is None:
                return Text("")
            return Text(f"{speed:,.1f}/s" if speed < 10 else f"{speed:,.0f}/s", style="progress.data.speed")

    return Bars(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed:,.0f}/{task.total:,.0f}"),
        Rate(),
        TimeRemainingColumn(elapsed_when_finished=True),
        console=Console(file=stream, force_terminal=True),
    )
