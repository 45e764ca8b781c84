"""Process settings, from the environment (`PICA_HOME`, `PICA_DEBUG`, ...) or a `.env` file.

These are facts about this machine and process; what a pipeline does lives in recipes.
"""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="PICA_", extra="ignore")

    home: Path = Field(
        default_factory=lambda: Path.home() / ".pica",
        description="Where indexes and state live.",
    )
    debug: bool = Field(default=False, description="Show Python tracebacks on errors.")
    cache_dir: Path = Field(
        default_factory=lambda: Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "pica",
        description="Disposable caches (composed recipes); safe to delete.",
    )

    claude_dir: Path = Field(
        default_factory=lambda: Path.home() / ".claude" / "projects",
        description="Claude Code's transcripts (one folder per project).",
    )
    codex_dir: Path = Field(
        default_factory=lambda: Path(os.environ.get("CODEX_HOME") or Path.home() / ".codex") / "sessions",
        description="Codex CLI's transcripts (sessions/YYYY/MM/DD/rollout-*.jsonl).",
    )
    gemini_dir: Path = Field(
        default_factory=lambda: Path.home() / ".gemini" / "tmp",
        description="Gemini CLI's transcripts (<project-hash>/chats/).",
    )

    team: str = Field("", description="A team's overrides (configs/team/NAME.yaml) applied to every recipe.")
    kg_path: str = Field(
        default_factory=lambda: os.environ.get("MEMORY_FILE_PATH", ""),
        description="The MCP memory server's knowledge graph (memory.jsonl); MEMORY_FILE_PATH if set.",
    )
    web_url: str = Field("", description="A SearXNG-compatible search endpoint, e.g. http://127.0.0.1:8888.")
    vector_uri: str = Field("", description="A LanceDB database of your own to search (a folder).")
    vector_table: str = Field("", description="The table in vector_uri to search.")
    tokenizer: str = Field("heuristic", description="How budgets count tokens: heuristic or tiktoken.")
    # Where `pica serve` listens, and where `pica search` looks for it (pica/cli/remote.py reads
    # these from the environment without this class, to start fast: keep the defaults in step).
    serve_host: str = Field("127.0.0.1", description="The address `pica serve` listens on (HTTP).")
    serve_port: int = Field(8765, description="The port `pica serve` listens on (HTTP).")
    watch: bool = Field(True, description="`pica serve` indexes folders as they change (--no-watch: off).")
    # The optional LLM layer (docs/llm.md): a server that speaks Ollama's API, and the model to ask.
    ollama_host: str = Field("http://localhost:11434", description="The Ollama-compatible model server.")
    llm_model: str = Field("llama3.2:3b", description="The model the summarizer, rerank and expansion ask.")
    audit_log: str = Field(
        "", description="Where model calls are logged; default $PICA_HOME/llm-audit.jsonl."
    )

    def transcript_roots(self) -> dict[str, Path]:
        """agent -> its transcript folder, as the transcripts recipe names agents."""
        return {
            "claude-code": self.claude_dir.expanduser(),
            "codex": self.codex_dir.expanduser(),
            "gemini": self.gemini_dir.expanduser(),
        }

    def as_config(self) -> dict[str, str | bool | dict[str, str]]:
        """The values recipes may interpolate as `${settings.NAME}`."""
        return {
            "home": str(self.home.expanduser()),
            "transcript_dirs": {agent: str(folder) for agent, folder in self.transcript_roots().items()},
            "kg_path": str(Path(self.kg_path).expanduser()) if self.kg_path else "",
            "web_url": self.web_url,
            "vector_uri": str(Path(self.vector_uri).expanduser()) if self.vector_uri else "",
            "vector_table": self.vector_table,
            "tokenizer": self.tokenizer,
            "ollama_host": self.ollama_host,
            "llm_model": self.llm_model,
            # A model counts as configured when PICA_OLLAMA_HOST or PICA_LLM_MODEL is set.
            "llm_configured": bool({"ollama_host", "llm_model"} & self.model_fields_set),
            "audit_log": str(Path(self.audit_log).expanduser())
            if self.audit_log
            else str(self.home.expanduser() / "llm-audit.jsonl"),
        }
