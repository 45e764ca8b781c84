"""`pica serve --stdio` that answers a client at once.

Clients start a stdio server with each session and wait for what they ask on connecting: Codex
shows only servers ready within about a second, Claude Code marks a slow one `pending`. Loading the
MCP SDK and Pica's tools takes about a second, so this process answers those requests itself
(`initialize`, `tools/list`, the stateless protocol's `server/discover` and the acknowledgement of
`subscriptions/listen`, and `ping`) from what the SDK answered the last time it started with the
same settings, recipes and code (a file in the cache folder), with instructions built fresh from
the catalog, while the SDK loads in a thread. Everything else waits for the SDK, which then reads
the client's messages in order: each request answered early is handed to it under an id of our
own (its answer dropped), so its session starts as the client's did and the replay is checked.

If the SDK's tool list turns out to differ from the one replayed, the client is told
(`notifications/tools/list_changed`) and the file is corrected. The first start after an install
or a change of settings has nothing to replay and waits for the SDK, as any server would.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import queue
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from pica import __version__
from pica.cli import remote
from pica.kernel.files import write_atomically
from pica.kernel.paths import config_files, stamps
from pica.kernel.settings import Settings
from pica.mcp.instructions import instructions, overview

OURS = "pica-early:"  # the ids of requests this module makes of the SDK; their answers stay here
READY = object()  # put in the message queue once the SDK server is built
EARLY = ("initialize", "server/discover", "tools/list", "subscriptions/listen")  # asked on connecting
LISTEN, ACK = "subscriptions/listen", "notifications/subscriptions/acknowledged"  # Claude Code waits
SUBSCRIPTION = "io.modelcontextprotocol/subscriptionId"  # for the ack before it lists the tools
VERSION_META = "io.modelcontextprotocol/protocolVersion"  # where a stateless request names its version


def serve(toolset: str, settings: Settings, build: Callable[[], Any], started: Callable[[], None]) -> None:
    """Serve MCP on this process's stdin and stdout. `build` makes the SDK server (in a thread);
    `started` runs once it is built (the folder watcher: not before, so it does not slow this)."""
    wire_in, wire_out = _take_stdio()
    messages: queue.Queue[Any] = queue.Queue()
    threading.Thread(target=_read_lines, args=(wire_in, messages), daemon=True).start()
    replay = Replay(cache_file(settings, toolset))
    if replay.about:  # before the SDK loads beside it, competing for the interpreter
        with contextlib.suppress(Exception):  # an optimisation: the SDK answers, or says what is wrong
            replay.told = instructions(replay.about, overview(settings))
    built: list[Any] = []
    threading.Thread(target=_build, args=(build, built, messages), daemon=True).start()
    held, gone = [], False
    while (message := messages.get()) is not READY:
        if message is None:
            if replay.replayed:  # it left with its answers (`mcp list` does): go, not after the load
                _leave()
            gone = True  # it left unanswered: whether the server could start is still worth saying
            continue
        answer, forward = replay.early(message)
        if answer is not None:
            _write(wire_out, answer)
        if forward is not None:
            held.append(forward)
    if isinstance(built[0], BaseException):
        raise built[0]
    if gone:
        return
    server = built[0]
    replay.learned_about(server.about)
    started()
    import anyio

    anyio.run(server.run_stdio_on, Lines(held, messages, replay), Wire(wire_out, replay))


def cache_file(settings: Settings, toolset: str) -> Path:
    """Where the last answers are kept, named by everything that decides them: Pica's and the
    SDK's versions and code, the tool set asked for, the settings and every recipe and config."""
    from importlib.metadata import version

    files = [*sorted(Path(__file__).parent.glob("*.py")), *config_files(settings.home)]
    if Path(toolset).is_file():
        files.append(Path(toolset).resolve())
    stats = stamps(files)
    decided_by = [__version__, version("mcp"), sys.executable, toolset, remote.resolved(settings.home),
                  remote.fingerprint(), stats]  # fmt: skip
    key = hashlib.sha256(json.dumps(decided_by).encode()).hexdigest()[:24]
    return settings.cache_dir.expanduser() / "mcp" / f"stdio-{key}.json"


class Replay:
    """The SDK's last answers to the requests a client makes on connecting, per protocol version:
    `initialize` (the handshake's, per version asked), `server/discover` (the stateless protocol's:
    Claude Code sends it, and no `initialize`) and `tools/list`; and what the instructions were
    built from. Learned as the SDK answers; instructions are never replayed, always fresh."""

    def __init__(self, path: Path):
        self.path = path
        self.told = ""  # the instructions to answer with, when the rest is known
        try:
            known = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            known = {}
        self.about: dict[str, Any] | None = known.get("about")
        self.answers: dict[str, Any] = known.get("answers", {})  # "method version" -> result
        self.version = ""  # the protocol version agreed by `initialize` with this client
        self.replayed: dict[str, Any] = {}  # "method version" -> the result sent early
        self.asked: dict[Any, tuple[str, str]] = {}  # request id -> (method, version)
        self.listens: dict[Any, str] = {}  # subscription (its request's id) -> its answers' key
        self.acknowledged: set[Any] = set()  # subscriptions acknowledged early

    def early(self, line: str) -> tuple[dict[str, Any] | None, str | None]:
        """(the answer to send now, the line to hand the SDK later) for one message of the client.
        A request answered here goes to the SDK too, under an id of ours: its answer is dropped,
        but it starts the SDK's session as the client's started, and shows if the replay is stale."""
        try:
            message = json.loads(line)
        except ValueError:
            return None, line
        if not isinstance(message, dict) or "id" not in message:
            return None, line
        if message.get("method") == "ping" and self.version and not self._stateless(message):
            return {"jsonrpc": "2.0", "id": message["id"], "result": {}}, None  # Gemini CLI pings
        if message.get("method") not in EARLY:
            return None, line
        method, version = message["method"], self._version(message)
        if method == LISTEN:  # acknowledged now; the SDK serves the subscription, its own ack unsent
            known = self.answers.get(self._listen_key(message))
            if known is None:
                return None, line
            self.acknowledged.add(message["id"])
            ack = {
                "jsonrpc": "2.0",
                "method": ACK,
                "params": {"_meta": {SUBSCRIPTION: message["id"]}, **known},
            }
            return ack, line
        known = self.answers.get(f"{method} {version}")
        if known is None or (method != "tools/list" and not self.told):
            return None, line
        if method == "tools/list" and "cursor" in (message.get("params") or {}):
            return None, line
        result = known if method == "tools/list" else {**known, "instructions": self.told}
        if method == "initialize":
            self.version = known["protocolVersion"]
        self.replayed[f"{method} {version}"] = result
        answer = {"jsonrpc": "2.0", "id": message["id"], "result": result}
        return answer, json.dumps({**message, "id": f"{OURS}{method}"})

    def passing(self, line: str) -> None:
        """Note the requests whose answers are worth keeping, as they go to the SDK."""
        try:
            message = json.loads(line)
        except ValueError:
            return
        if isinstance(message, dict) and message.get("method") == LISTEN:
            self.listens[message.get("id")] = self._listen_key(message)
        elif isinstance(message, dict) and message.get("method") in EARLY:
            self.asked[message.get("id")] = (message["method"], self._version(message))

    def ack(self, message: dict[str, Any]) -> bool:
        """Whether the client should get this acknowledgement of a subscription (not if it was
        acknowledged early); the SDK's is kept for the next start."""
        params = message.get("params") or {}
        subscription = (params.get("_meta") or {}).get(SUBSCRIPTION)
        key = self.listens.pop(subscription, None)
        kept = {k: v for k, v in params.items() if k != "_meta"}
        if key is not None and self.answers.get(key) != kept:
            self.answers[key] = kept
            self._save()
        return subscription not in self.acknowledged

    def _listen_key(self, message: dict[str, Any]) -> str:
        asked = (message.get("params") or {}).get("notifications")
        return f"{LISTEN} {self._version(message)} {json.dumps(asked, sort_keys=True)}"

    def answered(self, message: dict[str, Any]) -> tuple[bool, list[dict[str, Any]]]:
        """(whether the client should get this answer of the SDK's, what else to send it)."""
        method, version = self.asked.pop(message.get("id"), ("", ""))
        ours = str(message.get("id", "")).startswith(OURS)
        result = message.get("result")
        also = []
        if method and isinstance(result, dict) and "nextCursor" not in result:
            if method == "initialize":
                self.version = result.get("protocolVersion", "")
            version = version or self.version  # a handshake's tools/list: the version agreed
            key = f"{method} {version}"
            kept = (
                result if method == "tools/list" else {k: v for k, v in result.items() if k != "instructions"}
            )
            replayed = self.replayed.get(key)
            if method == "tools/list" and ours and replayed is not None and result != replayed:
                also.append({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
            if self.answers.get(key) != kept:
                self.answers[key] = kept
                self._save()
        return not ours, also

    @staticmethod
    def _stateless(message: dict[str, Any]) -> bool:
        return bool(((message.get("params") or {}).get("_meta") or {}).get(VERSION_META))

    def _version(self, message: dict[str, Any]) -> str:
        """The protocol version a request is asked in: `initialize` names it; the stateless
        protocol's requests carry it; otherwise the one `initialize` agreed."""
        params = message.get("params") or {}
        if message.get("method") == "initialize":
            return str(params.get("protocolVersion", ""))
        return str((params.get("_meta") or {}).get(VERSION_META) or self.version)

    def learned_about(self, about: dict[str, Any]) -> None:
        if about != self.about:
            self.about = about
            self._save()

    def _save(self) -> None:
        known = {"about": self.about, "answers": self.answers}
        with contextlib.suppress(OSError):  # a cache: a start without it is only slower
            write_atomically(self.path, json.dumps(known, ensure_ascii=False))


class Lines:
    """The client's messages for the SDK: those that came while it loaded, then the rest."""

    def __init__(self, held: list[str], messages: queue.Queue[Any], replay: Replay):
        self.held, self.messages, self.replay = list(held), messages, replay
        for line in self.held:
            replay.passing(line)

    def __aiter__(self) -> Lines:
        return self

    async def __anext__(self) -> str:
        import anyio.to_thread

        if self.held:
            return self.held.pop(0)
        line = await anyio.to_thread.run_sync(self.messages.get, abandon_on_cancel=True)
        if line is None:
            raise StopAsyncIteration
        self.replay.passing(line)
        return line


class Wire:
    """The SDK's messages for the client, less the answers to requests this module made."""

    def __init__(self, out: BinaryIO, replay: Replay):
        self.out, self.replay = out, replay

    async def write(self, text: str) -> None:
        for line in text.splitlines():
            message = json.loads(line)
            if "id" in message:
                keep, also = self.replay.answered(message)
            else:
                keep, also = message.get("method") != ACK or self.replay.ack(message), []
            if keep:
                self.out.write(line.encode() + b"\n")
            for extra in also:
                _write(self.out, extra)

    async def flush(self) -> None:
        self.out.flush()


def _take_stdio() -> tuple[BinaryIO, BinaryIO]:
    """The client's pipes, on descriptors of our own; fd 0 then reads nothing and fd 1 writes to
    stderr, so nothing a library prints can corrupt the protocol (the SDK does the same)."""
    wire_in = os.fdopen(os.dup(0), "rb")
    wire_out = os.fdopen(os.dup(1), "wb")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    return wire_in, wire_out


def _read_lines(wire_in: BinaryIO, messages: queue.Queue[Any]) -> None:
    for raw in wire_in:
        if raw.strip():
            messages.put(raw.decode("utf-8", errors="replace"))
    messages.put(None)


def _build(build: Callable[[], Any], built: list[Any], messages: queue.Queue[Any]) -> None:
    try:
        built.append(build())
    except BaseException as error:  # raised again in the main thread, as a start-up failure
        built.append(error)
    messages.put(READY)


def _leave() -> None:
    """End the process now. A normal exit would wait for the SDK's import in its thread, or kill it
    mid-import, which can abort the interpreter ("FATAL: exception not rethrown"); nothing is
    half-written here (the answers file is replaced whole)."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def _write(out: BinaryIO, message: dict[str, Any]) -> None:
    out.write(json.dumps(message, ensure_ascii=False).encode() + b"\n")
    out.flush()
