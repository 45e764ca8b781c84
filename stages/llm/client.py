"""One way to ask a model: the `ollama` client against PICA_OLLAMA_HOST, with a timeout, errors told
in plain words, and the call's prompt hash and latency kept for the audit log (never its text).

A host `file:///path/answer.json` ({"reply": "..."} or {"replies": [...]}, taken in turn) answers
from a file instead of a server: recorded answers for the stage examples and for demos."""

from __future__ import annotations

import hashlib
import itertools
import json
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

DEFAULT_HOST = "http://localhost:11434"
DEFAULT_MODEL = "llama3.2:3b"  # a small instruct model Ollama serves (`ollama pull llama3.2:3b`)


class ModelUnavailable(Exception):
    """The model could not answer; the message says why in the user's words. `call` is the failed
    call's record, for the audit log."""

    call: Call | None = None


@dataclass
class Call:
    """What the audit log keeps of one model call."""

    purpose: str
    model: str
    prompt_sha256: str
    latency_ms: float
    ok: bool
    error: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def record(self) -> dict[str, Any]:
        return {
            "purpose": self.purpose,
            "model": self.model,
            "prompt_sha256": self.prompt_sha256,
            "latency_ms": round(self.latency_ms, 1),
            "ok": self.ok,
            **({"error": self.error} if self.error else {}),
            **self.extra,
        }


def prompt_hash(messages: list[dict[str, str]]) -> str:
    text = json.dumps(messages, ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class Model:
    """A chat model on an Ollama-compatible server (or a file of recorded answers)."""

    def __init__(self, host: str, model: str, timeout_s: float, options: dict[str, Any] | None = None):
        self.host = host or DEFAULT_HOST
        self.model = model or DEFAULT_MODEL
        self.timeout_s = timeout_s
        self.options = {"temperature": 0, **(options or {})}
        self._client: Any = None
        self._replies: Any = None
        self._lock = threading.Lock()

    def chat(
        self, messages: list[dict[str, str]], purpose: str, json_format: bool = False, max_tokens: int = 512
    ) -> tuple[str, Call]:
        """The model's reply to `messages`, and the call's record. Raises ModelUnavailable."""
        call = Call(purpose, self.model, prompt_hash(messages), 0.0, False)
        started = time.perf_counter()
        try:
            if self.host.startswith("file:"):
                reply = self._recorded()
            else:
                reply = self._ask(messages, json_format, max_tokens)
        except ModelUnavailable as error:
            call.latency_ms, call.error = 1000 * (time.perf_counter() - started), str(error)
            failure = ModelUnavailable(str(error))
            failure.call = call
            raise failure from None
        call.latency_ms, call.ok = 1000 * (time.perf_counter() - started), True
        return reply, call

    def _recorded(self) -> str:
        with self._lock:
            if self._replies is None:
                path = Path(unquote(urlsplit(self.host).path))
                try:
                    data = json.loads(path.read_text(encoding="utf-8"))
                    replies = data["replies"] if "replies" in data else [data["reply"]]
                except (OSError, ValueError, KeyError, TypeError):
                    raise ModelUnavailable(
                        f'{path} is not a file of recorded answers ({{"reply": ...}} or {{"replies": [...]}})'
                    ) from None
                self._replies = itertools.cycle([str(r) for r in replies])
            return next(self._replies)

    def _ask(self, messages: list[dict[str, str]], json_format: bool, max_tokens: int) -> str:
        import httpx
        import ollama

        with self._lock:
            if self._client is None:
                self._client = ollama.Client(host=self.host, timeout=self.timeout_s)
        try:
            response = self._client.chat(
                model=self.model,
                messages=messages,
                format="json" if json_format else None,
                options={**self.options, "num_predict": max_tokens},
                stream=False,
            )
        except ollama.ResponseError as error:
            if error.status_code == 404:
                raise ModelUnavailable(
                    f"the model server at {self.host} has no model '{self.model}' "
                    f"(`ollama pull {self.model}`, or set PICA_LLM_MODEL)"
                ) from None
            raise ModelUnavailable(
                f"the model server at {self.host} refused the request ({error.status_code}: {error.error})"
            ) from None
        except httpx.TimeoutException:
            raise ModelUnavailable(f"the model did not answer within {self.timeout_s:g} s") from None
        except (ConnectionError, httpx.ConnectError, httpx.NetworkError):
            raise ModelUnavailable(
                f"no model server answers at {self.host} (start Ollama, or set PICA_OLLAMA_HOST)"
            ) from None
        except Exception:  # an answer that is not Ollama's shape: not JSON, fields missing
            raise ModelUnavailable(
                f"the model server at {self.host} answered with something that is not a reply"
            ) from None
        content = getattr(getattr(response, "message", None), "content", None)
        if not isinstance(content, str):
            raise ModelUnavailable(
                f"the model server at {self.host} answered with something that is not a reply"
            )
        return content
