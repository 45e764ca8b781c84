"""Agent transcripts: the three formats on the corpus, incremental reads, and the session commands."""

from __future__ import annotations

import json
import os
import shutil
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from pica.cli import main
from pica.kernel import runner
from pica.stages.store.catalog import Catalog
from pica.stages.store.lance_store import LanceStore
from tests.conftest import CORPUS

TRANSCRIPTS = CORPUS / "transcripts"
pytestmark = pytest.mark.skipif(not TRANSCRIPTS.is_dir(), reason=f"corpus not found at {TRANSCRIPTS}")


def ingest(agent: str, root: Path) -> dict:
    return runner.run("ingest/transcripts", variables={"agent": agent, "root": str(root)}).output


def stored(collection: str) -> dict[str, dict]:
    """id -> document row (metadata parsed) of one collection."""
    rows = LanceStore(Path(os.environ["PICA_HOME"]) / "lance").documents_where(
        f"collection = '{collection}'", ["id", "path", "text", "metadata", "first_line"]
    )
    return {r["id"]: {**r, "metadata": json.loads(r["metadata"])} for r in rows}


@pytest.fixture(scope="module")
def corpus_home(tmp_path_factory):
    """The whole transcripts corpus indexed once (read-only for the tests using it)."""
    home = tmp_path_factory.mktemp("transcripts-home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PICA_HOME", str(home))
        for agent in ("claude-code", "codex", "gemini"):
            patch.setenv(f"PICA_{agent.split('-')[0].upper()}_DIR", str(TRANSCRIPTS / agent))
        outputs = {agent: ingest(agent, TRANSCRIPTS / agent) for agent in ("claude-code", "codex", "gemini")}
        yield home, outputs, patch


def test_every_corpus_file_is_read_and_every_bad_line_counted(corpus_home):
    home, outputs, _ = corpus_home
    files = sorted(p.relative_to(TRANSCRIPTS).as_posix() for p in TRANSCRIPTS.rglob("*.json*")
                   if not p.name.endswith(".meta.json"))  # fmt: skip
    with Catalog(home) as catalog:
        seen = {f"{c}/{p}": v for c in outputs for p, v in catalog.files(c).items()}
        assert sorted(seen) == files
        assert {status for _, _, status in seen.values()} == {"ok"}
        assert catalog.skipped() == []
    bad = Counter(s.path.rsplit(":", 1)[0] for o in outputs.values() for s in o["skipped"])
    # edge_cases.jsonl: three lines that are JSON but not objects and one without a type;
    # the malformed Codex rollout ends in a line that is not JSON.
    assert bad == {
        "claude-code-log-synthetic/edge_cases.jsonl": 4,
        "claude-code-log-synthetic/malformed/rollout-66666666-6666-4666-8666-666666666666.jsonl": 1,
    }


def test_claude_response_split_over_lines_is_one_message_per_kind(corpus_home):
    docs = stored("claude-code")
    path = "marot-spotter/4d5611e5-241a-462a-8d15-5122611a9569.jsonl"
    lines = [json.loads(x) for x in (TRANSCRIPTS / "claude-code" / path).read_text().splitlines()]
    texts: dict[str, list[str]] = {}
    for line in lines:
        if line.get("type") == "assistant":
            for block in line["message"]["content"]:
                if block.get("type") == "text" and block["text"].strip():
                    texts.setdefault(line["message"]["id"], []).append(block["text"])
    split = {mid: parts for mid, parts in texts.items() if len(parts) > 1} or texts
    mid, parts = next(iter(split.items()))
    doc = docs[f"claude-code/{path}#{mid}:text"]
    assert all(part in doc["text"] for part in parts)
    assert doc["metadata"]["role"] == "assistant"
    assert sum(1 for d in docs if d.startswith(f"claude-code/{path}#{mid}:text")) == 1
    kinds = Counter(d["metadata"]["kind"] for d in docs.values() if d["path"] == path)
    assert kinds["thinking"] > 0 and kinds["tool_call"] > 0 and kinds["tool_result"] > 0
    assert kinds["compaction"] == 1 and kinds["compact_summary"] == 1
    meta = doc["metadata"]
    assert meta["session"] == "4d5611e5-241a-462a-8d15-5122611a9569" and meta["agent"] == "claude-code"
    assert meta["cwd"] and meta["timestamp"].startswith("2026-") and meta["line"] == doc["first_line"]


def test_claude_images_are_noted_not_indexed(corpus_home):
    docs = stored("claude-code")
    with_image = [
        d for d in docs.values() if d["path"].startswith("claude-code-log/-Users-dain-workspace-danieldemmel")
    ]
    assert any("[image" in d["text"] for d in with_image)
    assert max(len(d["text"]) for d in with_image) < 100_000  # the 548 KB base64 image is not in


def test_codex_text_is_indexed_once_and_encrypted_reasoning_never(corpus_home):
    docs = stored("codex")
    turn = [
        d
        for d in docs.values()
        if d["path"] == "codemie-code/turn-2.jsonl" and d["metadata"]["role"] == "user"
    ]
    assert Counter(d["text"] for d in turn).most_common(1)[0][1] == 1
    assert any(d["text"] == "What languages can you work with?" for d in turn)
    blobs = []
    for path in (TRANSCRIPTS / "codex").rglob("*.jsonl"):
        for line in path.read_text().splitlines():
            try:
                payload = json.loads(line).get("payload") or {}
            except ValueError:
                continue
            if isinstance(payload, dict) and payload.get("encrypted_content"):
                blobs.append(payload["encrypted_content"][:60])
    assert blobs, "the corpus should hold encrypted reasoning"
    everything = "\n".join(d["text"] for d in docs.values())
    assert not any(blob in everything for blob in blobs)
    assert any(d["metadata"]["kind"] == "thinking" for d in docs.values())


def test_gemini_last_copy_of_a_reappended_message_wins(corpus_home):
    docs = stored("gemini")
    path = TRANSCRIPTS / "gemini" / "vibecodingtracker" / "gemini.jsonl"
    last: dict[str, dict] = {}
    for line in path.read_text().splitlines():
        record = json.loads(line)
        if "id" in record and "type" in record:
            last[record["id"]] = record
    for record_id, record in last.items():
        text = docs.get(f"gemini/vibecodingtracker/gemini.jsonl#{record_id}:text")
        content = (
            record["content"]
            if isinstance(record["content"], str)
            else "\n".join(p.get("text", "") for p in record["content"])
        )
        if content.strip():
            assert text is not None and text["text"] == content


def test_session_commands(corpus_home):
    del corpus_home  # indexed, with the transcript folders in the environment
    cli = CliRunner()
    listed = cli.invoke(main, ["list", "--json", "--n", "100"])
    assert listed.exit_code == 0, listed.output
    sessions = json.loads(listed.output)
    assert {s["agent"] for s in sessions} == {"claude-code", "codex", "gemini"}
    assert [s["end"] for s in sessions] == sorted((s["end"] for s in sessions), reverse=True)
    spotter = next(s for s in sessions if s["session"] == "4d5611e5-241a-462a-8d15-5122611a9569")
    assert spotter["project"] and spotter["messages"] > 100 and spotter["start"] < spotter["end"]

    whole = json.loads(cli.invoke(main, ["session", "4d5611e5", "--json"]).output)
    assert len(whole) == spotter["messages"]
    stamps = [m["metadata"]["timestamp"] for m in whole]
    assert stamps == sorted(stamps)

    recent = json.loads(cli.invoke(main, ["recent", "--n", "5", "--json"]).output)
    assert len(recent) == 5 and recent[-1]["metadata"]["session"] == sessions[0]["session"]
    recent = json.loads(cli.invoke(main, ["recent", "--n", "3", "--session", "4d5611e5", "--json"]).output)
    assert recent == whole[-3:]

    missing = cli.invoke(main, ["session", "no-such-session"])
    assert missing.exit_code != 0 and "is no indexed session" in missing.output

    stats = json.loads(cli.invoke(main, ["stats", "--json"]).output)
    transcripts = stats["sources"]["transcripts"]
    assert set(transcripts["collections"]) == {"claude-code", "codex", "gemini"}
    assert transcripts["documents"] == sum(len(stored(c)) for c in transcripts["collections"])
    assert transcripts["indexed_at"] and stats["lance_bytes"] > 0


def test_search_filters_over_transcripts(corpus_home):
    cli = CliRunner()

    def hits(*args: str) -> list[dict]:
        result = cli.invoke(main, ["search", "project", "-k", "50", "--json", "--fields", "*", *args])
        assert result.exit_code == 0, result.output
        return json.loads(result.output)["hits"]

    every = hits()
    assert {h["metadata"]["agent"] for h in every} >= {"claude-code", "codex"}
    codex_users = hits("--agent", "codex", "--role", "user")
    assert codex_users and all(
        h["metadata"]["agent"] == "codex" and h["metadata"]["role"] == "user" for h in codex_users
    )
    may = hits("--since", "2026-05-01", "--until", "2026-05-31")
    assert may and all("2026-05-01" <= h["metadata"]["timestamp"][:10] <= "2026-05-31" for h in may)
    project = every[0]["metadata"]["project"]
    assert all(h["metadata"]["project"] == project for h in hits("--project", project))


# --- incremental reads, on a copy that the tests change ----------------------------------------


@pytest.fixture
def session_copy(tmp_path, pica_home):
    source = TRANSCRIPTS / "claude-code" / "marot-spotter" / "tool_heavy.jsonl"
    root = tmp_path / "projects"
    (root / "-home-me-app").mkdir(parents=True)
    target = root / "-home-me-app" / "s.jsonl"
    shutil.copy(source, target)
    return root, target, source.read_bytes().splitlines(keepends=True)


def _ids(collection: str = "claude-code") -> dict[str, str]:
    return {doc_id: d["text"] for doc_id, d in stored(collection).items()}


def test_a_file_that_grew_is_read_from_where_it_stopped(session_copy):
    root, target, lines = session_copy
    target.write_bytes(b"".join(lines[: len(lines) // 2]))
    ingest("claude-code", root)
    first = _ids()
    target.write_bytes(b"".join(lines))
    out = ingest("claude-code", root)
    assert out["files"].partial == ["-home-me-app/s.jsonl"]
    assert set(out["stored"].removed) <= set(out["stored"].added)  # only a re-read last response
    with Catalog(os.environ["PICA_HOME"]) as catalog:
        cursor = catalog.cursors("claude-code")["-home-me-app/s.jsonl"]
    grown = _ids()
    assert set(first) <= set(grown) and len(grown) > len(first)
    # The same as reading the whole file at once:
    shutil.rmtree(os.environ["PICA_HOME"])
    ingest("claude-code", root)
    assert _ids() == grown
    assert cursor["offset"] <= target.stat().st_size


def test_half_written_last_line_waits_for_the_next_run(session_copy):
    root, target, lines = session_copy
    cut = next(n for n in range(20, len(lines)) if b'"tool_result"' in lines[n])
    whole_last = lines[cut]
    target.write_bytes(b"".join(lines[:cut]) + whole_last[: len(whole_last) // 2])
    out = ingest("claude-code", root)
    assert out["skipped"] == []  # a line still being written is not damage
    before = _ids()
    with open(target, "ab") as handle:
        handle.write(whole_last[len(whole_last) // 2 :])
    out = ingest("claude-code", root)
    assert out["skipped"] == []
    after = _ids()
    assert set(before) < set(after)
    shutil.rmtree(os.environ["PICA_HOME"])
    ingest("claude-code", root)
    assert _ids() == after


def test_rewritten_in_place_at_the_same_size_is_read_again(session_copy):
    root, target, lines = session_copy
    target.write_bytes(b"".join(lines[:40]))
    ingest("claude-code", root)
    data = target.read_bytes()
    word = data.index(b'"text":"') + len(b'"text":"')
    changed = (
        data[:word]
        + bytes(ord("Z") if c != ord("Z") else ord("Y") for c in data[word : word + 5])
        + data[word + 5 :]
    )
    assert len(changed) == len(data)
    target.write_bytes(changed)
    os.utime(target, ns=(target.stat().st_atime_ns, target.stat().st_mtime_ns + 1_000_000_000))
    ingest("claude-code", root)
    after = _ids()
    shutil.rmtree(os.environ["PICA_HOME"])
    ingest("claude-code", root)
    assert _ids() == after


def test_truncated_file_loses_the_cut_messages_and_deleted_file_all(session_copy):
    root, target, lines = session_copy
    ingest("claude-code", root)
    full = _ids()
    target.write_bytes(b"".join(lines[:15]))
    ingest("claude-code", root)
    truncated = _ids()
    assert truncated and set(truncated) < set(full)
    shutil.rmtree(os.environ["PICA_HOME"])
    ingest("claude-code", root)
    assert _ids() == truncated
    target.unlink()
    ingest("claude-code", root)
    assert _ids() == {}
    with Catalog(os.environ["PICA_HOME"]) as catalog:
        assert catalog.cursors("claude-code") == {} and catalog.files("claude-code") == {}


def test_gemini_rewind_in_appended_lines_rereads_the_file(tmp_path, pica_home):
    chats = tmp_path / "tmp" / "hash" / "chats"
    chats.mkdir(parents=True)
    path = chats / "session-1.jsonl"
    meta = {"sessionId": "g1", "projectHash": "abc", "startTime": "2026-01-01T00:00:00Z"}

    def record(i: int, text: str) -> str:
        return json.dumps(
            {"id": f"m{i}", "timestamp": f"2026-01-01T00:00:0{i}Z", "type": "user", "content": text}
        )

    path.write_text(
        "\n".join([json.dumps(meta), record(1, "alpha"), record(2, "bravo"), record(3, "charlie")]) + "\n"
    )
    ingest("gemini", tmp_path / "tmp")
    assert sorted(d["text"] for d in stored("gemini").values()) == ["alpha", "bravo", "charlie"]
    with open(path, "a") as handle:
        handle.write(json.dumps({"$rewindTo": "m2"}) + "\n" + record(4, "delta") + "\n")
    ingest("gemini", tmp_path / "tmp")
    assert sorted(d["text"] for d in stored("gemini").values()) == ["alpha", "delta"]
    with open(path, "a") as handle:
        handle.write(record(4, "delta, edited") + "\n")
    ingest("gemini", tmp_path / "tmp")
    assert sorted(d["text"] for d in stored("gemini").values()) == ["alpha", "delta, edited"]


# --- backup --------------------------------------------------------------------------------------


def test_backup_to_a_local_folder_copies_and_never_deletes(tmp_path, pica_home, monkeypatch):
    root = tmp_path / "projects"
    shutil.copytree(TRANSCRIPTS / "claude-code" / "marot-spotter", root / "spotter")
    monkeypatch.setenv("PICA_CLAUDE_DIR", str(root))
    monkeypatch.setenv("PICA_CODEX_DIR", str(tmp_path / "none"))
    monkeypatch.setenv("PICA_GEMINI_DIR", str(tmp_path / "none"))
    monkeypatch.setenv("HOME", str(tmp_path / "user"))  # the default destination is ~/pica-backup
    backup = tmp_path / "user" / "pica-backup"
    cli = CliRunner()
    shown = cli.invoke(main, ["backup", "--show-config"])
    assert shown.exit_code == 0 and str(backup) in shown.output and "(not found)" in shown.output

    dry = cli.invoke(main, ["backup", "--dry-run"])
    assert dry.exit_code == 0 and "would copy 6 files" in dry.output
    assert not backup.exists()

    done = cli.invoke(main, ["backup"])
    assert done.exit_code == 0, done.output
    copied = backup / "claude-code" / "spotter" / "short.jsonl"
    assert copied.read_bytes() == (root / "spotter" / "short.jsonl").read_bytes()

    (root / "spotter" / "short.jsonl").unlink()  # the agent deleted an old session
    again = cli.invoke(main, ["backup"])
    assert again.exit_code == 0 and "copied 0 files" in again.output
    assert copied.exists()  # the copy survives

    destination = tmp_path / "elsewhere"
    pica_home.mkdir(exist_ok=True)
    (pica_home / "backup.env").write_text(f"# where\nDESTINATION={destination}\n")
    assert "copied 5 files" in cli.invoke(main, ["backup"]).output
    (pica_home / "backup.env").write_text("DESTINATION=/x\nPASSWORD=nope\n")
    bad = cli.invoke(main, ["backup"])
    assert bad.exit_code != 0 and "unknown keys PASSWORD" in bad.output


def test_backup_over_ssh_runs_rsync_without_delete(tmp_path, pica_home, monkeypatch):
    from pica.cli.backup import BackupConfig, remote_commands

    config = BackupConfig("me@host:/srv/backup", "-p 2222")
    assert config.remote and not BackupConfig(str(tmp_path)).remote
    commands = remote_commands({"codex": tmp_path}, config)
    flat = [part for command in commands for part in command]
    assert "--delete" not in flat and "me@host:/srv/backup/codex/" in flat
    # A real SSH copy, rsync and scp, against sshd on 127.0.0.1: tests/cli/test_backup_ssh.py.
