"""Progress on stderr: a bar that redraws in place on a terminal, plain lines elsewhere."""

from __future__ import annotations

import sys
import time
from typing import TextIO

LINE_EVERY_S = 2.0  # plain output: at most one line per counter this often, and the last one


class Progress:
    def __init__(self, stream: TextIO = sys.stderr):
        self.stream = stream
        self.tty = stream.isatty()
        self.last_line: dict[str, float] = {}
        self.bar_open = False

    def message(self, text: str) -> None:
        self._end_bar()
        print(text, file=self.stream, flush=True)

    def count(self, stage: str, what: str, done: int, total: int) -> None:
        key = f"{stage}: {what}"
        if self.tty:
            width = 30
            filled = int(width * done / total) if total else width
            bar = "#" * filled + "-" * (width - filled)
            self.stream.write(f"\r{key:24} [{bar}] {done:,}/{total:,}")
            self.stream.flush()
            self.bar_open = done < total
            if done >= total:
                self.stream.write("\n")
            return
        now = time.monotonic()
        if done >= total or now - self.last_line.get(key, 0.0) >= LINE_EVERY_S:
            self.last_line[key] = now
            print(f"{key} {done:,}/{total:,}", file=self.stream, flush=True)

    def _end_bar(self) -> None:
        if self.bar_open:
            self.stream.write("\n")
            self.bar_open = False
