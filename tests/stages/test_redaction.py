"""Redaction: the detector on the labelled secrets corpus, what it must leave alone, and an end-to-end
check that no secret's bytes reach any file under PICA_HOME."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from pica.kernel import runner
from pica.stages.secrets import find_secrets, redact
from tests.conftest import CORPUS, REPO

SECRETS = CORPUS / "secrets" / "secrets.jsonl"
needs_secrets = pytest.mark.skipif(not SECRETS.exists(), reason=f"no secrets corpus at {SECRETS}")

# One real-format credential per core class (fake, published test values), as agents meet them.
SAMPLES = {
    "aws_access_key_id": "AKIAQYLPMN5HHHFPZAM2",
    "github_token": "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",
    "gitlab_token": "glpat-Vz8mR3kq9Xh2LtP5wN7a",
    "slack_token": "xoxb-263594206564-2343594206574-FGqddMF8t08v8N7Oq4i57vs1",
    "stripe_api_key": "sk_live_51HbQrKLm0pQrStUvWxYz12345",
    "google_api_key": "AIzaSyNHxIf32IQ1a1yjl3ZJIqKZqzLAK1XhDk-",
    "openai_api_key": "sk-proj-Rb3vJ9zWq2Lk8Yt5Xn1MT3BlbkFJp4Hs7Dc0Fg6Ae2Bi9Ku5",
    "anthropic_api_key": "sk-ant-api03-"
    + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5bC7dE9fG1hJ3kL5mN7pQ9rS1tU3vW5xY7zA9bC1dE3fG5hJ7kL9mN2pQ-AA",
    "huggingface_token": "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",
    "npm_token": "npm_4y2CaxGzT3qPe8Wm7Ry9Lk1Jh6Gf5Ds0Ab3c",
    "sendgrid_api_key": "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",
    "jwt": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
    "db_password": "Hunter2Rocks!x9",
}
CARRIERS = {  # where each sample is written in the material indexed below
    "aws_access_key_id": "export AWS_ACCESS_KEY_ID={}",
    "db_password": "DATABASE_URL=postgres://app:{}@db.internal:5432/app",
}


def carrier(kind: str) -> str:
    return CARRIERS.get(kind, "token = {}").format(SAMPLES[kind])


@needs_secrets
def test_recall_and_false_positives_on_both_parts_of_the_labelled_corpus():
    result = subprocess.run(
        [sys.executable, str(REPO / "docs" / "measure" / "redaction.py")],
        capture_output=True,
        text=True,
        check=True,
    )
    summary = dict(line.split(": ", 1) for line in result.stdout.strip().splitlines()[-2:])
    for part, line in summary.items():
        recall = float(line.split("recall ")[1].split("= ")[1].split("%")[0])
        false_positives = float(line.split("false positives ")[1].split("= ")[1].split("%")[0])
        assert recall >= 98.0, (part, line)
        # Pins today's level so it can only improve (docs/redaction.md says which remain and why;
        # the target is 2%). Dev's 4th is `password = 'super$ecret'`, which Nosey Parker lists as a
        # negative of its double-quote rule while its single-quote rule np.generic.6 matches it;
        # check's 4th the four OAuth credentials of `Twitter(auth=OAuth('MjuH…', …))`, a negative
        # of np.twitter.2 that the credential-call rule redacts on purpose.
        assert false_positives <= {"dev": 6.3, "check": 6.6}[part], (part, line)


@pytest.mark.parametrize(
    "text",
    [
        "commit 3f786850e387550fdab836ed7e6dc881de23001b fixed it",
        "request id 123e4567-e89b-12d3-a456-426614174000 failed",
        "sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "def get_token(self, password_hash):\n    return self.tokens[password_hash]",
        "password = os.environ['DB_PASSWORD']",
        "api_key = settings.API_KEY",
        "token: ${{ secrets.GITHUB_TOKEN }}",
        "total_tokens: 76365",
        "the key: setup-uv-1-x86_64-unknown-linux-gnu-0.7.13",
        "mkdir -p /tmp/build && ssh -p 2222 host",
        "password: str = Field(description='the password')",
        "AWS_SECRET_ACCESS_KEY=<your secret key here>",
    ],
)
def test_ids_references_and_placeholders_are_left_alone(text):
    assert find_secrets(text) == []


def test_each_sample_is_redacted_with_its_class_named():
    for kind, secret in SAMPLES.items():
        redacted = redact(carrier(kind))
        assert secret not in redacted and "[REDACTED:" in redacted, kind


def test_a_redacted_key_block_keeps_the_line_count():
    block = (
        "-----BEGIN RSA PRIVATE KEY-----\n"
        + "MIIEowIBAAKCAQEAo3k8Xh2LtP5wN7aVz8mR3kq9\n" * 5
        + "-----END RSA PRIVATE KEY-----"
    )
    text = f"before\n{block}\nafter"
    redacted = redact(text)
    assert "MIIEow" not in redacted and "[REDACTED:private_key]" in redacted
    assert redacted.count("\n") == text.count("\n") and redacted.endswith("\nafter")


def _claude_session(lines: list[dict]) -> str:
    base = {"sessionId": "sess-secret", "cwd": "/home/me/app", "timestamp": "2026-03-01T10:00:00Z"}
    return "".join(json.dumps({**base, "uuid": f"u{n}", **line}) + "\n" for n, line in enumerate(lines))


def test_no_secret_reaches_any_file_under_pica_home(tmp_path, pica_home):
    kinds = list(SAMPLES)
    said = [carrier(k) for k in kinds]
    claude = tmp_path / "claude" / "-home-me-app"
    claude.mkdir(parents=True)
    (claude / "sess-secret.jsonl").write_text(
        _claude_session(
            [
                {"type": "user", "message": {"role": "user", "content": "please use " + said[0]}},
                {
                    "type": "assistant",
                    "message": {
                        "id": "msg_1",
                        "role": "assistant",
                        "content": [
                            {"type": "thinking", "thinking": "they gave " + said[1]},
                            {"type": "text", "text": "I will store " + said[2]},
                            {
                                "type": "tool_use",
                                "id": "toolu_1",
                                "name": "Bash",
                                "input": {"command": said[3], "description": said[4]},
                            },
                        ],
                    },
                },
                {
                    "type": "user",
                    "message": {
                        "role": "user",
                        "content": [
                            {
                                "type": "tool_result",
                                "tool_use_id": "toolu_1",
                                "content": said[5] + "\n" + said[6],
                            },
                        ],
                    },
                },
                {"type": "summary", "summary": "session about " + said[7], "leafUuid": "u2"},
            ]
        )
    )
    codex = tmp_path / "codex" / "2026" / "03" / "01"
    codex.mkdir(parents=True)
    (codex / "rollout-2026-03-01T10-00-00-x.jsonl").write_text(
        "".join(
            json.dumps({"timestamp": "2026-03-01T10:00:00Z", **line}) + "\n"
            for line in [
                {"type": "session_meta", "payload": {"id": "codex-secret", "cwd": "/home/me/app"}},
                {
                    "type": "response_item",
                    "payload": {
                        "type": "function_call",
                        "name": "shell",
                        "arguments": json.dumps({"cmd": said[8]}),
                        "call_id": "c1",
                    },
                },
                {
                    "type": "response_item",
                    "payload": {"type": "function_call_output", "call_id": "c1", "output": said[9]},
                },
                {"type": "event_msg", "payload": {"type": "user_message", "message": said[10]}},
            ]
        )
    )
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "notes.md").write_text(
        f"---\ntitle: keys {SAMPLES['huggingface_token']}\napi_token: {SAMPLES['npm_token']}\n---\n"
        f"# Setup\n\n{said[11]}\n\n{said[12]}\n"
    )
    (docs / "records.jsonl").write_text(json.dumps({"id": "r1", "title": "creds", "text": said[0]}) + "\n")

    runner.run("ingest/transcripts", variables={"agent": "claude-code", "root": str(tmp_path / "claude")})
    runner.run("ingest/transcripts", variables={"agent": "codex", "root": str(tmp_path / "codex")})
    runner.run("ingest/files", variables={"path": str(docs), "collection": "docs"})
    runner.run("ingest/embed", variables={"embedder": "embed.hash.v1"})

    # Read back everything stored: documents, chunks, keyword-index hits with their stored fields.
    from pica.stages.store.lance_store import LanceStore

    store = LanceStore(pica_home / "lance")
    rows = store.documents_where(None, ["id", "collection", "title", "text", "metadata", "path"])
    assert {r["collection"] for r in rows} == {"claude-code", "codex", "docs"}
    stored = json.dumps(rows) + json.dumps([c.text for c in store.iter_chunks()])
    for query in ("token", "REDACTED", "please", "session", "Setup", "creds", "shell"):
        hits = runner.run("search/lexical", variables={"query": query, "k": 100, "fields": ["*"]}).output
        stored += json.dumps([h.passage + h.title + json.dumps(h.metadata) for h in hits])
    assert "[REDACTED:" in stored
    for kind, secret in SAMPLES.items():
        assert secret not in stored, f"{kind} was stored"
    # ... and every byte of every file Pica wrote.
    files = [p for p in pica_home.rglob("*") if p.is_file()]
    assert len(files) > 10
    for path in files:
        data = path.read_bytes()
        for kind, secret in SAMPLES.items():
            assert secret.encode() not in data, f"{kind} found in {path.relative_to(pica_home)}"
