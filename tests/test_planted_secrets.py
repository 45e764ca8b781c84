"""Secrets planted in every store Pica reads, read back through every way out: each search mode,
`similar`, `deepweb`, `get`, the transcripts' session view, the command line (`index`, `search`,
`get`, `stats`) and the MCP tools. The hits must still be found by the ordinary words beside the
secrets; the secrets themselves must never come out, nor be written anywhere under PICA_HOME but
the catalog's record of a file's real name (docs/architecture.md, "Where redaction happens").

The secrets are well-formed (a GitHub token with its CRC32 tail, AWS and Slack keys of the
published shapes, a live Stripe key, a real RSA key), so that no detector rule can call them
stand-ins."""

from __future__ import annotations

import json
import random
import string
import zlib
from pathlib import Path

import pytest
from click.testing import CliRunner

import pica
from pica.cli import main
from pica.kernel import runner
from pica.kernel.errors import PicaError
from pica.kernel.modes import search_modes
from pica.kernel.records import to_plain
from tests.web_server import local_web, result

BASE62 = string.digits + string.ascii_uppercase + string.ascii_lowercase
# Marks of a made-up value a detector may rightly leave alone: never in a planted secret.
STAND_IN = ("xxx", "example", "test", "sample", "fake", "dummy", "here", "your", "todo", "redact")
WORDS = {  # the ordinary word beside each store's secrets, to find its hits by
    "files": "harbour",
    "transcripts": "lighthouse",
    "kg": "beacon",
    "web": "tidewater",
    "vector": "quayside",
}


class Secrets:
    """A new well-formed secret of each kind per call, all remembered to look for."""

    def __init__(self) -> None:
        self.rng = random.Random(15)
        self.planted: dict[str, str] = {}  # where -> the secret (a PEM key: one of its body lines)

    def _random(self, alphabet: str, n: int) -> str:
        while True:
            value = "".join(self.rng.choice(alphabet) for _ in range(n))
            if not any(mark in value.lower() for mark in STAND_IN):
                return value

    def _keep(self, where: str, secret: str) -> str:
        self.planted[where] = secret
        return secret

    def github(self, where: str) -> str:
        body = self._random(BASE62, 30)
        crc, tail = zlib.crc32(body.encode()), ""
        while crc:
            crc, digit = divmod(crc, 62)
            tail = BASE62[digit] + tail
        return self._keep(where, f"ghp_{body}{tail.rjust(6, '0')}")

    def aws(self, where: str) -> str:
        return self._keep(where, "AKIA" + self._random(string.ascii_uppercase + "234567", 16))

    def slack(self, where: str) -> str:
        digits = string.digits
        token = f"xoxb-{self._random(digits, 13)}-{self._random(digits, 13)}-{self._random(BASE62, 24)}"
        return self._keep(where, token)

    def stripe(self, where: str) -> str:
        return self._keep(where, "sk_live_" + self._random(BASE62, 24))

    def pem(self, where: str) -> str:
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import rsa

        key = rsa.generate_private_key(public_exponent=65537, key_size=1024)
        text = key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.TraditionalOpenSSL,
            serialization.NoEncryption(),
        ).decode()
        self._keep(where, text.splitlines()[3])  # a body line: 64 characters of the key
        return text


def _jsonl(lines: list[dict]) -> str:
    return "".join(json.dumps(line) + "\n" for line in lines)


def plant(root: Path, s: Secrets) -> dict[str, str]:
    """Documents, three agents' transcripts, a knowledge graph and a vector table, each holding
    secrets; returns the environment that points Pica at them."""
    word = WORDS["files"]
    notes = root / "notes"
    (notes / "ops").mkdir(parents=True)
    (notes / "ops" / f"{word}-{s.aws('file name')}.md").write_text(
        f"---\ntitle: {word.title()} deploy {s.stripe('document title')}\n"
        f"owner: ana\nslack_bot: {s.slack('front matter')}\n---\n"
        f"# The {word} deploy\n\nThe {word} deploy pushes with {s.github('document text')} today.\n\n"
        f"The {word} signing key:\n\n{s.pem('document key')}\nKeep the {word} key safe.\n"
    )
    (notes / "plain.md").write_text("# Plain\n\nNothing secret about the weather.\n")

    word = WORDS["transcripts"]
    claude = root / "claude" / "-home-me-app"
    claude.mkdir(parents=True)
    base = {"sessionId": "c1", "cwd": "/home/me/app", "timestamp": "2026-03-01T10:00:00Z"}
    (claude / "c1.jsonl").write_text(
        _jsonl(
            [
                {
                    **base,
                    "uuid": "u1",
                    "type": "user",
                    "message": {
                        "role": "user",
                        "content": f"the {word} deploy token is {s.github('claude user message')}",
                    },
                },
                {
                    **base,
                    "uuid": "u2",
                    "type": "assistant",
                    "message": {
                        "id": "m1",
                        "role": "assistant",
                        "content": [
                            {
                                "type": "tool_use",
                                "id": "t1",
                                "name": "Bash",
                                "input": {
                                    "command": f"{word}-deploy --aws-key {s.aws('claude tool argument')}"
                                },
                            }
                        ],
                    },
                },
                {
                    **base,
                    "uuid": "u3",
                    "type": "user",
                    "message": {
                        "role": "user",
                        "content": [
                            {
                                "type": "tool_result",
                                "tool_use_id": "t1",
                                "content": f"{word} deployed by bot {s.slack('claude tool result')}",
                            }
                        ],
                    },
                },
            ]
        )
    )
    codex = root / "codex" / "2026" / "03" / "01"
    codex.mkdir(parents=True)
    stamp = {"timestamp": "2026-03-01T11:00:00Z"}
    (codex / "rollout-2026-03-01T11-00-00-k.jsonl").write_text(
        _jsonl(
            [
                {**stamp, "type": "session_meta", "payload": {"id": "k1", "cwd": "/home/me/app"}},
                {
                    **stamp,
                    "type": "event_msg",
                    "payload": {
                        "type": "user_message",
                        "message": f"check the {word} key {s.stripe('codex user message')}",
                    },
                },
                {
                    **stamp,
                    "type": "response_item",
                    "payload": {
                        "type": "function_call",
                        "name": "shell",
                        "call_id": "c1",
                        "arguments": json.dumps(
                            {"cmd": ["curl", "-H", f"x-{word}: {s.github('codex tool argument')}"]}
                        ),
                    },
                },
                {
                    **stamp,
                    "type": "response_item",
                    "payload": {
                        "type": "function_call_output",
                        "call_id": "c1",
                        "output": f"{word} answered for {s.aws('codex tool result')}",
                    },
                },
            ]
        )
    )
    gemini = root / "gemini" / "hash" / "chats"
    gemini.mkdir(parents=True)
    (gemini / "session-g1.jsonl").write_text(
        _jsonl(
            [
                {"sessionId": "g1", "projectHash": "abc", "startTime": "2026-03-01T12:00:00Z"},
                {
                    "id": "r1",
                    "type": "user",
                    "timestamp": "2026-03-01T12:00:01Z",
                    "content": f"the {word} bot uses {s.slack('gemini user message')}",
                },
                {
                    "id": "r2",
                    "type": "gemini",
                    "timestamp": "2026-03-01T12:00:02Z",
                    "content": "running it",
                    "toolCalls": [
                        {
                            "id": "t1",
                            "name": "run_shell_command",
                            "args": {"command": f"{word} --token {s.github('gemini tool argument')}"},
                            "result": [
                                {
                                    "functionResponse": {
                                        "response": {
                                            "output": f"{word} ok, key {s.stripe('gemini tool result')}"
                                        }
                                    }
                                }
                            ],
                        }
                    ],
                },
            ]
        )
    )

    word = WORDS["kg"]
    memory = root / "memory.jsonl"
    memory.write_text(
        _jsonl(
            [
                {
                    "type": "entity",
                    "name": f"{word.title()} service",
                    "entityType": "service",
                    "observations": [f"the {word} service authenticates with {s.github('kg observation')}"],
                },
                {
                    "type": "relation",
                    "from": f"{word.title()} service",
                    "to": "Ops",
                    "relationType": "owned by",
                },
            ]
        )
    )

    import lancedb
    import pyarrow as pa

    from pica.stages.embed import hashed_vectors

    word = WORDS["vector"]
    texts = [f"The {word} crane logs in with {s.aws('vector table row')}.", "Bread rises in a warm kitchen."]
    vectors = hashed_vectors(texts)
    lancedb.connect(root / "vectors").create_table(
        "rows",
        data=pa.table(
            {
                "text": pa.array(texts),
                "vector": pa.FixedSizeListArray.from_arrays(
                    pa.array(vectors.ravel(), pa.float32()), vectors.shape[1]
                ),
            }
        ),
    )
    return {
        "PICA_CLAUDE_DIR": str(root / "claude"),
        "PICA_CODEX_DIR": str(root / "codex"),
        "PICA_GEMINI_DIR": str(root / "gemini"),
        "PICA_KG_PATH": str(memory),
        "PICA_VECTOR_URI": str(root / "vectors"),
        "PICA_VECTOR_TABLE": "rows",
        "PICA_TEAM": "planted",
        "PICA_NO_SERVER": "1",
    }


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    root = tmp_path_factory.mktemp("planted")
    home = root / "pica-home"
    secrets = Secrets()
    with pytest.MonkeyPatch.context() as env, local_web() as web:
        for name, value in plant(root, secrets).items():
            env.setenv(name, value)
        env.setenv("PICA_HOME", str(home))
        env.setenv("PICA_WEB_URL", web.url)
        team = home / "configs" / "team"
        team.mkdir(parents=True)
        (team / "planted.yaml").write_text(
            "providers:\n  vector: {model: hashed-words}\n  pages: {allow_hosts: [127.0.0.1]}\n"
        )
        word = WORDS["web"]
        page = web.page(
            "/tide",
            f"<html><body><article><h1>The {word} gauge</h1>"
            + f"<p>The {word} gauge reports every hour to the harbour office. </p>" * 5
            + f"<p>Its upload key is {secrets.github('web page')}.</p></article></body></html>",
        )
        snippet = f"{word} gauge key {secrets.slack('web snippet')}"
        web.results[word] = [result(page, f"{word.title()} gauge {secrets.aws('web title')}", snippet)]
        cli = CliRunner()
        assert cli.invoke(main, ["add", str(root / "notes"), "--name", "notes"]).exit_code == 0
        indexed = cli.invoke(main, ["index"])
        assert indexed.exit_code == 0, indexed.output
        runner.run("ingest/embed", variables={"embedder": "embed.hash.v1"})
        yield {"home": home, "secrets": secrets.planted, "cli": cli, "index_output": indexed.output}


def leaks(world, text: str) -> list[str]:
    return [where for where, secret in world["secrets"].items() if secret in text]


LOCAL, EVERYTHING = {"files", "transcripts"}, set(WORDS)
EXPECTED = {  # mode -> the stores whose words it finds
    "default": EVERYTHING, "federated": EVERYTHING, "federated-hybrid": EVERYTHING, "files": {"files"},
    "transcripts": {"transcripts"}, "grep": LOCAL, "lexical": LOCAL, "semantic": LOCAL, "hybrid": LOCAL,
    "rerank": LOCAL, "kg": {"kg"}, "vector": {"vector"}, "web": {"web"},
}  # fmt: skip
MODEL = {"semantic": "hashed-words", "hybrid": "hashed-words", "rerank": "hashed-words"}


def test_every_search_mode_finds_the_hits_and_shows_no_secret(world, tmp_path):
    from pica.stages.rerank import tiny_cross_encoder

    reranker = str(tiny_cross_encoder(tmp_path / "tiny"))
    found: dict[str, set[str]] = {}
    for mode in search_modes():
        variables = {"k": 50, "fields": ["*"]}
        if mode in MODEL:
            variables["model"] = MODEL[mode]
        if mode == "rerank":
            variables["reranker"] = reranker
        if mode in ("federated", "federated-hybrid", "default"):
            variables["sources"] = list(WORDS)
        for source, word in WORDS.items():
            try:
                answer = runner.run(f"search/{mode}", variables={"query": word, **variables})
            except PicaError as error:  # a mode of a layer still being built may need more
                assert mode not in EXPECTED, f"{mode}: {error}"
                assert not leaks(world, str(error)), mode
                continue
            said = json.dumps(to_plain(answer.output)) + json.dumps(answer.warnings + answer.notes)
            assert not leaks(world, said), f"{mode} '{word}' showed {leaks(world, said)}"
            if any(word in hit.passage.lower() for hit in answer.output):
                found.setdefault(mode, set()).add(source)
    assert set(EXPECTED) <= set(search_modes())
    for mode, sources in EXPECTED.items():  # a mode added later is checked for leaks above
        assert found.get(mode) == sources, mode


def test_the_document_with_a_secret_in_its_name_is_found_and_got_by_its_redacted_id(world):
    hits = pica.search("harbour deploy", mode="lexical", collection="notes", k=5)
    assert hits and hits[0].path.startswith("ops/harbour-[REDACTED:")
    doc_id = hits[0].id
    assert doc_id == f"notes/{hits[0].path}" and not leaks(world, doc_id)
    document = runner.run("search/get", variables={"id": doc_id, "fields": ["*"]}).output
    assert "harbour deploy pushes with [REDACTED:" in document["text"]
    assert not leaks(world, json.dumps(document))
    assert document["metadata"]["owner"] == "ana"
    assert "[REDACTED:" in document["metadata"]["slack_bot"] and "[REDACTED:" in document["title"]
    similar = runner.run("search/similar", variables={"id": doc_id, "k": 10}).output
    assert not leaks(world, json.dumps(to_plain(similar)))
    # Not marked stale: its redacted path is not on disk, but the file is.
    federated = pica.search("harbour", mode="federated", sources=["files"], k=5)
    assert federated and federated[0].trust == "reference"


def test_get_of_every_transcript_message_and_the_session_views_show_no_secret(world):
    hits = pica.search("lighthouse", mode="transcripts", k=50, all_passages=True)
    kinds = {(h.collection, h.metadata.get("kind")) for h in hits}
    for agent in ("claude-code", "codex", "gemini"):
        assert {(agent, "text"), (agent, "tool_call"), (agent, "tool_result")} <= kinds, agent
    for hit in hits:
        document = runner.run("search/get", variables={"id": hit.id, "fields": ["*"]}).output
        assert "lighthouse" in document["text"] and "[REDACTED:" in document["text"]
        assert not leaks(world, json.dumps(document)), hit.id
    for session in ("c1", "k1", "g1"):
        messages = runner.run("transcripts/session", variables={"session": session}).output
        assert messages and not leaks(world, json.dumps(messages)), session
    listed = runner.run("transcripts/list", variables={}).output
    assert not leaks(world, json.dumps(listed))


def test_deepweb_reads_the_page_and_shows_no_secret(world):
    answer = runner.run("search/deepweb", variables={"query": "tidewater", "thorough": True})
    hits = answer.output["hits"]
    assert hits and hits[0].metadata.get("read") and "reports every hour" in hits[0].passage
    assert "[REDACTED:" in hits[0].passage and "[REDACTED:" in hits[0].title
    assert not leaks(world, json.dumps(to_plain(answer.output)) + json.dumps(answer.warnings))


def test_the_command_line_shows_no_secret(world):
    cli = world["cli"]
    said = world["index_output"]
    for args in (
        ["search", "harbour"],
        ["search", "lighthouse", "--json", "-k", "50"],
        ["search", "harbour", "-m", "grep"],
        ["search", "beacon", "-m", "kg"],
        ["search", "tidewater", "-m", "web"],
        ["deepweb", "tidewater", "--thorough"],
        ["recent", "--n", "50"],
        ["list"],
        ["stats"],
        ["stats", "--json"],
        ["status", "--json"],
    ):
        done = cli.invoke(main, args)
        assert done.exit_code == 0, (args, done.output)
        said += done.output
    doc_id = json.loads(cli.invoke(main, ["search", "harbour", "--json", "-c", "notes"]).output)
    doc_id = (doc_id["hits"] if isinstance(doc_id, dict) else doc_id)[0]["id"]
    got = cli.invoke(main, ["get", doc_id])
    assert got.exit_code == 0 and "harbour deploy pushes" in got.output
    said += got.output
    assert "harbour" in said and "lighthouse" in said and "tidewater" in said
    assert not leaks(world, said), leaks(world, said)


def test_the_mcp_tools_show_no_secret(world):
    from pica.kernel.settings import Settings
    from pica.mcp.server import tool_parameters
    from pica.mcp.tools import Tools
    from pica.mcp.toolsets import load_toolset

    settings = Settings()
    tools = Tools(settings, load_toolset("default", tool_parameters(), settings).tools)
    said = ""
    for word in WORDS.values():
        answer = tools.search(query=word, mode="default", k=50, sources=list(WORDS))
        assert any(word in h.passage.lower() for h in answer.hits), word
        said += answer.model_dump_json()
        for hit in answer.hits:
            if hit.source in ("files", "transcripts"):
                said += tools.get(id=hit.id).model_dump_json()
    said += tools.stats().model_dump_json()
    assert not leaks(world, said), leaks(world, said)


def test_nothing_under_pica_home_holds_a_secret_but_the_catalogs_real_file_name(world):
    for path in (p for p in world["home"].rglob("*") if p.is_file()):
        data = path.read_bytes()
        held = [where for where, secret in world["secrets"].items() if secret.encode() in data]
        if path.name.startswith("catalog.sqlite"):
            assert set(held) <= {"file name"}, path
        else:
            assert not held, f"{held} in {path.relative_to(world['home'])}"


def test_index_and_stats_count_the_redactions_per_class(world):
    said = world["index_output"]
    line = next(line for line in said.splitlines() if line.startswith("  redacted") and "private_key" in line)
    assert "github_token 1" in line and "aws_access_key_id 1" in line and "slack_token 1" in line
    report = json.loads(world["cli"].invoke(main, ["stats", "--json"]).output)
    notes = report["sources"]["files"]["collections"]["notes"]["redacted"]
    # The title's key twice: it is the front matter's `title` too, kept in the metadata.
    assert notes == {"aws_access_key_id": 1, "github_token": 1, "private_key": 1, "slack_token": 1,
                     "stripe_api_key": 2}  # fmt: skip
    transcripts = report["sources"]["transcripts"]
    assert transcripts["collections"]["claude-code"]["redacted"] == {
        "aws_access_key_id": 1, "github_token": 1, "slack_token": 1}  # fmt: skip
    assert sum(transcripts["redacted"].values()) == 9
    assert sum(report["redacted"].values()) == 15
    text = world["cli"].invoke(main, ["stats"]).output
    assert "redacted 6 secrets: stripe_api_key 2, aws_access_key_id 1" in text
    assert "redacted in all: 15 secrets:" in text


def test_the_counts_follow_the_files_as_they_change(tmp_path, pica_home, monkeypatch):
    from pica.stages.store.catalog import Catalog
    from tests.helpers import claude_line, index, make_folder

    def counts() -> dict:
        with Catalog(pica_home) as catalog:
            return catalog.redactions()

    monkeypatch.delenv("PICA_TEAM", raising=False)  # the module's world may have set it
    s = Secrets()
    notes = make_folder(tmp_path / "notes", {"a.md": f"one {s.aws('a')}\n", "b.md": f"two {s.github('b')}\n"})
    assert index(notes, "n")["redacted"] == {"aws_access_key_id": 1, "github_token": 1}
    assert counts() == {"n": {"aws_access_key_id": 1, "github_token": 1}}
    (notes / "a.md").write_text(f"one again {s.slack('a2')} and {s.slack('a3')}\n")
    assert index(notes, "n")["redacted"] == {"slack_token": 2}  # this run's: b.md was not read
    assert counts() == {"n": {"github_token": 1, "slack_token": 2}}  # what the index holds
    (notes / "b.md").unlink()
    index(notes, "n")
    assert counts() == {"n": {"slack_token": 2}}

    session = tmp_path / "claude" / "p" / "s1.jsonl"
    session.parent.mkdir(parents=True)
    session.write_text(claude_line(1, f"first {s.github('t1')}", "s1") + "\n")
    variables = {"agent": "claude-code", "root": str(tmp_path / "claude")}
    runner.run("ingest/transcripts", variables=variables)
    with open(session, "a") as handle:  # read from where it stopped: its count grows
        handle.write(claude_line(2, f"second {s.github('t2')}", "s1") + "\n")
    assert runner.run("ingest/transcripts", variables=variables).output["redacted"] == {"github_token": 1}
    assert counts()["claude-code"] == {"github_token": 2}
    runner.run("ingest/remove", variables={"collection": "n"})
    assert "n" not in counts()
