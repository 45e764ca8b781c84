"""Live watching: every registered collection folder and the agents' transcript folders, followed
with watchdog, changes handed to the same incremental indexing as `pica index` (pica/indexing.py).

- Bursts coalesce per collection: a run starts once the folder has been quiet for `debounce_s`,
  or `max_wait_s` after the first unhandled change (so a writer appending without pause, an agent
  at 20 lines/s, is still indexed every `max_wait_s`).
- One run at a time, from one worker thread; the stages' writer lock (writer.lock in PICA_HOME)
  keeps this and any other process (`pica index`, MCP `reindex`) from writing at once.
- New chunks are embedded afterwards, in the same worker, when the index already holds vectors
  (their model is then the one to use); searches never wait for it: the indexes are read, not
  locked, and the lexical index reloads its commits on every search.
- A folder that disappears stops being watched and is left as indexed (an unmounted drive must not
  empty the index); when it comes back it is watched again and indexed. Collections registered
  later (`pica add`) are picked up too: the folders are looked at every `check_s`.
- When the OS refuses another watch (inotify's max_user_watches), it says so and polls instead.

watchdog is imported here, and this module only inside `pica watch` / `pica serve`.
"""

from __future__ import annotations

import contextlib
import errno
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pica.kernel.settings import Settings

LIMIT_ERRNOS = {errno.ENOSPC, errno.EMFILE}  # inotify: out of watches / out of instances


@dataclass
class Target:
    """A folder to follow and the ingest run that indexes it."""

    name: str
    folder: Path
    recipe: str
    variables: dict[str, Any]


@dataclass
class _Followed:
    target: Target
    watch: Any = None  # watchdog's ObservedWatch, when the folder exists
    identity: tuple[int, int] | None = None  # (st_dev, st_ino) of the folder when it was scheduled
    polling: bool = False
    watched: bool = False  # was watched once: a folder that comes back


@dataclass
class WatchRun:
    name: str
    changes: int  # file events coalesced into this run
    result: dict[str, Any] | None = None
    error: str = ""
    seconds: float = 0.0


@dataclass
class _Pending:
    first: float
    last: float
    events: int = 0


@dataclass
class Watcher:
    settings: Settings = field(default_factory=Settings)
    debounce_s: float = 0.25
    max_wait_s: float = 0.5
    check_s: float = 1.0
    embed: bool = True
    polling: bool = False  # poll from the start (watchdog's PollingObserver)
    report: Callable[[str], None] = lambda message: None
    catch_up: bool = True  # index what changed while nobody watched, at start

    def __post_init__(self) -> None:
        self.runs: list[WatchRun] = []
        self.embedded = 0
        self._followed: dict[str, _Followed] = {}
        self._pending: dict[str, _Pending] = {}
        self._lock = threading.Condition()
        self._stop = threading.Event()
        self._observer: Any = None
        self._poller: Any = None
        self._threads: list[threading.Thread] = []
        self._home = self.settings.home.expanduser().resolve()
        self._model_failed = False
        self._plans: dict = {}  # composed ingest plans, per folder
        self._embed_cache: Any = None

    # -- what to follow -------------------------------------------------------------------------

    def targets(self) -> dict[str, Target]:
        """Every registered collection and the three agents' folders, existing or not yet."""
        from pica.indexing import RECIPES, planned_runs
        from pica.stages.store.collections import Collections

        found: dict[str, Target] = {}
        for agent, root in self.settings.transcript_roots().items():
            variables = {"agent": agent, "root": str(root)}
            found[agent] = Target(agent, root, RECIPES["transcripts"], variables)
        names = tuple(c.name for c in Collections(self.settings.home).all())
        for recipe, name, variables in planned_runs(self.settings, names) if names else []:
            found[name] = Target(name, Path(variables["path"]).expanduser(), recipe, variables)
        return found

    # -- lifecycle ------------------------------------------------------------------------------

    def start(self) -> Watcher:
        from watchdog.observers import Observer
        from watchdog.observers.polling import PollingObserver

        self._observer = PollingObserver(timeout=0.5) if self.polling else Observer()
        self._poller = self._observer if self.polling else None
        self._observer.start()
        self._check_folders(initial=True)
        for target, name in ((self._work, "pica-watch-index"), (self._check_loop, "pica-watch-folders")):
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
            self._threads.append(thread)
        return self

    def stop(self, timeout: float = 30.0) -> None:
        self._stop.set()
        with self._lock:
            self._lock.notify_all()
        for observer in {id(o): o for o in (self._observer, self._poller) if o is not None}.values():
            observer.stop()
        for thread in self._threads:
            thread.join(timeout)

    def __enter__(self) -> Watcher:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def idle(self) -> bool:
        """No change waiting and no run going (what tests and the freshness script wait for)."""
        with self._lock:
            return not self._pending and not self._busy

    _busy = False

    # -- folders coming and going ---------------------------------------------------------------

    def _check_loop(self) -> None:
        while not self._stop.wait(self.check_s):
            try:
                self._check_folders()
            except Exception as error:  # never let the watcher die of one bad look
                self.report(f"watch: checking the folders failed: {type(error).__name__}: {error}")

    def _check_folders(self, initial: bool = False) -> None:
        targets = self.targets()
        for name in set(self._followed) - set(targets):  # a collection removed with `pica rm`
            self._unschedule(self._followed.pop(name))
        for name, target in targets.items():
            followed = self._followed.setdefault(name, _Followed(target))
            followed.target = target
            identity = _identity(target.folder)
            if followed.watch is not None and identity != followed.identity:
                gone = identity is None
                self._unschedule(followed)
                if gone:
                    self.report(f"watch: {target.folder} is gone; '{name}' stays as indexed until it is back")
            if identity is not None and followed.watch is None:
                again = "is back" if followed.watched else "is here"
                self._schedule(followed, identity)
                if not initial:
                    self.report(f"watch: {target.folder} {again}; indexing '{name}'")
                if self.catch_up or not initial:
                    self._changed(name)

    def _schedule(self, followed: _Followed, identity: tuple[int, int]) -> None:
        handler = _Handler(self, followed.target.name)
        folder = str(followed.target.folder)
        try:
            followed.watch = self._observer.schedule(handler, folder, recursive=True)
            followed.polling = self.polling
        except OSError as error:
            if error.errno not in LIMIT_ERRNOS:
                raise
            self.report(
                f"watch: the OS watch limit is reached ({error.strerror or error}; on Linux raise "
                f"fs.inotify.max_user_watches); polling {folder} instead"
            )
            followed.watch = self._polling_observer().schedule(handler, folder, recursive=True)
            followed.polling = True
        followed.identity = identity
        followed.watched = True

    def _polling_observer(self) -> Any:
        if self._poller is None:
            from watchdog.observers.polling import PollingObserver

            self._poller = PollingObserver(timeout=0.5)
            self._poller.start()
        return self._poller

    def _unschedule(self, followed: _Followed) -> None:
        observer = self._poller if followed.polling else self._observer
        with contextlib.suppress(KeyError, OSError):  # its emitter may have stopped with the folder
            observer.unschedule(followed.watch)
        followed.watch = followed.identity = None

    # -- changes --------------------------------------------------------------------------------

    def _changed(self, name: str) -> None:
        now = time.monotonic()
        with self._lock:
            pending = self._pending.setdefault(name, _Pending(now, now))
            pending.last = now
            pending.events += 1
            self._lock.notify_all()

    def _ignored(self, path: str) -> bool:
        try:
            Path(path).resolve().relative_to(self._home)
            return True  # Pica's own writes, when a collection holds PICA_HOME
        except ValueError:
            return False

    def _ready(self, now: float) -> tuple[str | None, float]:
        """A collection due for a run, or how long until the first one is."""
        wait = float("inf")
        for name, p in self._pending.items():
            due = min(p.last + self.debounce_s, p.first + self.max_wait_s)
            if due <= now:
                return name, 0.0
            wait = min(wait, due - now)
        return None, wait

    def _work(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                name, wait = self._ready(time.monotonic())
                if name is None:
                    self._busy = False
                    self._lock.notify_all()
                    self._lock.wait(None if wait == float("inf") else wait)
                    continue
                pending = self._pending.pop(name)
                self._busy = True
            self._index(name, pending.events)
            with self._lock:
                more = bool(self._pending)
            if not more:
                self._embed()

    def _index(self, name: str, events: int) -> None:
        from pica.indexing import index_one

        followed = self._followed.get(name)
        if followed is None or not followed.target.folder.is_dir():
            return  # removed, or gone: left as indexed
        target = followed.target
        run = WatchRun(name, events)
        started = time.monotonic()
        try:
            run.result = index_one(target.recipe, name, dict(target.variables), plans=self._plans)
        except Exception as error:
            run.error = f"{type(error).__name__}: {error}"
            self.report(f"watch: indexing '{name}' failed: {run.error}")
        run.seconds = time.monotonic() - started
        self.runs.append(run)
        result = run.result
        if result and (result["added_or_changed"] or result["removed"]):
            changed, removed = result["added_or_changed"], result["removed"]
            self.report(
                f"watch: '{name}': {changed} added or changed, {removed} removed "
                f"({run.seconds:.2f} s, {events} changes)"
            )

    def _embed(self) -> None:
        """Vectors for new chunks, with the model the index's vectors came from, if it has any."""
        if not self.embed or self._model_failed:
            return
        from pica.kernel import runner
        from pica.stages.models import recorded_name

        model = recorded_name(self._home / "lance")
        if model is None:
            return  # nothing embedded yet: `pica embed` chooses the model first
        variables: dict[str, Any] = {"model": model, "slab": 256}
        overrides = []
        if model == "hashed-words":
            variables["embedder"] = "embed.hash.v1"
        else:
            overrides.append("+stages.embed.params.threads=1")  # a core left to the searches
        try:
            if self._embed_cache is None:
                from pica.kernel.executor import StageCache

                self._embed_cache = StageCache()  # the model stays loaded between runs
            report = runner.run(
                "ingest/embed", overrides, self.settings, variables, cache=self._embed_cache
            ).output
            self.embedded += report["embedded"]
        except Exception as error:
            self._model_failed = True
            self.report(f"watch: embedding with {model} failed, new chunks stay keyword-only: {error}")


class _Handler:
    """watchdog's handler protocol (dispatch) without subclassing, so watchdog loads lazily."""

    def __init__(self, watcher: Watcher, name: str) -> None:
        self.watcher, self.name = watcher, name

    def dispatch(self, event: Any) -> None:
        if event.event_type in ("opened", "closed_no_write"):
            return  # reads, ours included
        if event.is_directory and event.event_type == "modified":
            return  # a folder's mtime: the file event inside it says more
        paths = [event.src_path, getattr(event, "dest_path", "")]
        if all(not p or self.watcher._ignored(os.fsdecode(p)) for p in paths):
            return
        self.watcher._changed(self.name)


def _identity(folder: Path) -> tuple[int, int] | None:
    try:
        stat = folder.stat()
    except OSError:
        return None
    import stat as kinds

    return (stat.st_dev, stat.st_ino) if kinds.S_ISDIR(stat.st_mode) else None


def wait_until(condition: Callable[[], Any], timeout: float = 30.0, step: float = 0.05) -> Any:
    """Poll `condition` until truthy; its value, or None after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(step)
    return None
