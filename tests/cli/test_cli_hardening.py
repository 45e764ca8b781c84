"""The CLI under stress and at its edges: Ctrl-C while embedding, names of every collection the
index holds, where backups go, unknown agents, progress bars, saying that a model loads."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from pica.cli import main
from pica.cli.progress import Progress
from pica.kernel import runner
from tests.cli.test_cli import default_sigint
from tests.helpers import claude_line, index, make_folder

# --- Ctrl-C during `pica embed` --------------------------------------------------------------------


def test_ctrl_c_during_embed_stops_cleanly_and_keeps_committed_vectors(tmp_path, pica_home):
    words = ["river", "stone", "lantern", "copper", "meadow", "signal", "harbor", "violet", "ledger"]
    records = [{"id": str(i), "text": " ".join(words[(i + j) % 9] for j in range(120))} for i in range(1600)]
    folder = make_folder(tmp_path / "notes", {"r.jsonl": "\n".join(json.dumps(r) for r in records)})
    index(folder, "notes")
    process = subprocess.Popen(
        [sys.executable, "-m", "pica", "embed"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "HF_HUB_OFFLINE": "1"},
        preexec_fn=default_sigint,  # the test may itself run where SIGINT is ignored
    )
    seen = []
    try:
        for line in process.stderr:  # wait until vectors are being written
            seen.append(line)
            if line.startswith("embed: embedded"):
                break
        time.sleep(1)  # well inside the model's next call
        process.send_signal(signal.SIGINT)
        _, rest = process.communicate(timeout=120)
    finally:
        process.kill()
    stderr = "".join(seen) + rest
    assert process.returncode == 130, stderr
    assert "terminate called" not in stderr and "interrupted" in stderr
    assert "loading the embedding model" in stderr
    status = runner.run("ingest/status").output["collections"]["notes"]
    assert 0 < status["embedded"] < status["chunks"]  # what was committed stays; the rest waits


def test_the_embed_bar_moves_every_batch(tmp_path, pica_home):
    folder = make_folder(tmp_path / "notes", {f"n{i}.md": f"note {i}\n" for i in range(300)})
    index(folder, "notes")
    counts = []

    class Counting(Progress):
        def count(self, stage, what, done, total):
            counts.append(done)

    runner.run("ingest/embed", variables={"embedder": "embed.hash.v1"}, progress=Counting())
    assert counts[-1] == 300
    assert max(b - a for a, b in zip([0, *counts], counts, strict=False)) <= 64


def test_embed_says_it_is_loading_the_model(tmp_path, pica_home, monkeypatch):
    from pica.kernel.stage import Context
    from pica.stages import embed

    monkeypatch.setattr(embed, "load_sentence_transformer", lambda name, threads: object())
    said = []
    stage = embed.EmbedChunks(embed.EmbedChunks.Params(home=str(pica_home), lance_dir=str(pica_home)))
    stage.warm_up(Context(stage="embed", progress=said.append))
    assert said == ["embed: loading the embedding model all-MiniLM-L6-v2…"]


# --- every collection the index holds --------------------------------------------------------------


@pytest.fixture
def three_kinds(tmp_path, pica_home, monkeypatch):
    """A registered folder, Claude Code transcripts, and a collection a recipe run made."""
    claude = make_folder(tmp_path / "claude", {"p/s1.jsonl": claude_line(1, "hello there", "s1") + "\n"})
    monkeypatch.setenv("PICA_CLAUDE_DIR", str(claude))
    cli = CliRunner()
    notes = make_folder(tmp_path / "notes", {"a.md": "# A\nalpha\n"})
    assert cli.invoke(main, ["add", str(notes)]).exit_code == 0
    assert cli.invoke(main, ["index"]).exit_code == 0
    made = make_folder(tmp_path / "made", {"b.md": "# B\nbeta\n"})
    assert cli.invoke(main, ["run", "ingest/markdown", f"path={made}"]).exit_code == 0
    status = json.loads(cli.invoke(main, ["status", "--json"]).output)["collections"]
    assert set(status) == {"notes", "claude-code", "made"}
    return cli


def test_rm_takes_agents_and_recipe_made_collections(three_kinds):
    cli = three_kinds
    for name in ("claude-code", "made", "notes"):
        removed = cli.invoke(main, ["rm", name])
        assert removed.exit_code == 0, removed.output
        assert f"removed collection '{name}' (1 documents)" in removed.output
    assert json.loads(cli.invoke(main, ["status", "--json"]).output)["collections"] == {}
    missing = cli.invoke(main, ["rm", "notes"])
    assert missing.exit_code == 2 and "no collection 'notes'" in missing.output


def test_unknown_names_list_every_collection_and_agent(three_kinds):
    from pica.indexing import planned_runs
    from pica.kernel.errors import PicaError
    from pica.kernel.settings import Settings

    cli = three_kinds
    for command in (["index", "nosuch"], ["rm", "nosuch"]):
        result = cli.invoke(main, command)
        assert result.exit_code == 2
        assert all(name in result.output for name in ("notes", "made", "claude-code")), result.output
    with pytest.raises(PicaError, match="claude-code"):  # what MCP `reindex` says
        planned_runs(Settings(), ("nosuch",))
    made = cli.invoke(main, ["index", "made"])
    assert made.exit_code == 2 and "pica add PATH --name made" in made.output
    assert cli.invoke(main, ["index", "claude-code", "notes"]).exit_code == 0


# --- backup ------------------------------------------------------------------------------------------


def test_backup_goes_outside_pica_home_and_says_it_is_raw(tmp_path, pica_home, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    claude = make_folder(tmp_path / "claude", {"p/s1.jsonl": claude_line(1, "token sk-live", "s1") + "\n"})
    monkeypatch.setenv("PICA_CLAUDE_DIR", str(claude))
    cli = CliRunner()
    shown = cli.invoke(main, ["backup", "--show-config"])
    assert f"destination: {tmp_path / 'user' / 'pica-backup'} " in shown.output
    done = cli.invoke(main, ["backup"])
    assert done.exit_code == 0, done.output
    assert (tmp_path / "user" / "pica-backup" / "claude-code" / "p" / "s1.jsonl").exists()
    assert not (pica_home / "backup").exists()
    assert "unredacted" in done.output and "unredacted" in cli.invoke(main, ["backup", "--dry-run"]).output


# --- unknown agent -----------------------------------------------------------------------------------


def test_list_of_an_unknown_agent_names_the_agents(tmp_path, pica_home, monkeypatch):
    claude = make_folder(tmp_path / "claude", {"p/s1.jsonl": claude_line(1, "hello", "s1") + "\n"})
    monkeypatch.setenv("PICA_CLAUDE_DIR", str(claude))
    cli = CliRunner()
    assert cli.invoke(main, ["index"]).exit_code == 0
    assert cli.invoke(main, ["list", "--agent", "claude-code"]).exit_code == 0
    result = cli.invoke(main, ["list", "--agent", "nosuch"])
    assert result.exit_code == 2
    assert "no sessions of agent 'nosuch'" in result.output and "claude-code" in result.output


# --- progress ----------------------------------------------------------------------------------------


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_terminal_progress_one_line_per_task_with_rate_and_eta_completed_when_done():
    screen = Terminal()
    with Progress(screen) as progress:
        for done in range(1, 4):  # two readers at once
            progress.count("read_pdf", "read", done, 3)
            progress.count("read_text", "read", done * 10, 30)
            time.sleep(0.01)
        for done in (1000, 2000):  # a stage that stops counting before the end
            progress.count("keyword", "keyword-indexed", done, 3767)
            time.sleep(0.01)
        progress.message("keyword: done")
    shown = screen.getvalue()
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", shown)
    assert plain.endswith("\n") and "keyword: done\n" in plain  # lines of their own
    last = shown.rsplit("\x1b[1A\x1b[2K", 1)[-1]  # what the last redraw left on the screen
    lines = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", last).splitlines()
    assert len(lines) == 3 and "read_pdf: read" in lines[0] and "read_text: read" in lines[1]
    assert "3/3" in lines[0] and "30/30" in lines[1] and "3,767/3,767" in lines[2]
    assert all(re.search(r"/s +\d+:\d\d:\d\d$", line) for line in lines)  # rate and time


def test_plain_progress_completes_finished_counters():
    out = io.StringIO()
    with Progress(out) as progress:
        progress.count("keyword", "keyword-indexed", 2000, 3767)
    assert out.getvalue().splitlines() == [
        "keyword: keyword-indexed 2,000/3,767",
        "keyword: keyword-indexed 3,767/3,767",
    ]
    interrupted = io.StringIO()
    with pytest.raises(KeyboardInterrupt), Progress(interrupted) as progress:
        progress.count("keyword", "keyword-indexed", 2000, 3767)
        raise KeyboardInterrupt
    assert interrupted.getvalue().splitlines() == ["keyword: keyword-indexed 2,000/3,767"]


def test_help_does_not_import_rich():
    code = "import sys; from pica import cli\ntry:\n    cli.main(['--help'])\nexcept SystemExit:\n    pass\nprint('rich' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().endswith("False")
