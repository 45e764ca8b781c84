"""The `pica` command as a user runs it, in a subprocess."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap

import pytest

from tests.conftest import DOCUMENTS, REPO, needs_corpus


def pica(*args, env=None, check=False):
    result = subprocess.run(
        [sys.executable, "-m", "pica", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=120,
    )
    if check:
        assert result.returncode == 0, result.stderr
    return result


def test_help_does_not_import_heavy_libraries():
    code = (
        "import sys; from pica import cli\n"
        "try:\n    cli.main(['--help'])\nexcept SystemExit:\n    pass\n"
        "heavy = [m for m in ('hydra', 'omegaconf', 'tantivy', 'pydantic', 'yaml') if m in sys.modules]\n"
        "print('HEAVY', heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "HEAVY []" in out.stdout


def test_run_help_lists_the_options():
    out = pica("run", "--help", check=True).stdout
    for option in ("--dry-run", "--print-config", "--json", "team=NAME"):
        assert option in out


def test_broken_recipe_prints_every_problem_and_exits_nonzero(tmp_path, pica_home):
    recipe = tmp_path / "broken.yaml"
    recipe.write_text(
        textwrap.dedent("""\
        kind: search
        stages:
          search:
            use: retrieve.lexcal.v1
          chunk:
            use: chunk.lines.v1
            params: {max_chars: many, colour: red}
            inputs: {documents: read.documents}
    """)
    )
    result = pica("run", str(recipe))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert lines[0] == f"error: {recipe}: 5 problems"
    assert lines[1].startswith(
        "  stages.search.use: unknown stage 'retrieve.lexcal.v1' "
        "(did you mean 'retrieve.lexical.v1'? available: "
    )
    assert lines[2:] == [
        "  stages.chunk.params.max_chars: Input should be a valid integer, unable to parse string "
        "as an integer, got 'many'",
        "  stages.chunk.params.colour: unknown parameter (allowed: max_chars, overlap_lines)",
        "  stages.chunk.inputs.documents: no stage named 'read' (stages: search, chunk)",
        "  output: required: the <stage>.<output> the recipe returns, e.g. search.hits",
    ]


def test_unknown_recipe_and_debug_traceback(tmp_path):
    result = pica("run", "nope/nothing")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "recipe 'nope/nothing' not found" in result.stderr
    debug = pica("run", "nope/nothing", env={"PICA_DEBUG": "1"})
    assert debug.returncode != 0 and "Traceback" in debug.stderr


def test_dry_run_and_print_config(pica_home):
    out = pica("run", "search/lexical", "query=cats", "k=3", "--dry-run", "--json", check=True).stdout
    plan = json.loads(out)
    assert plan["levels"] == [["lexical"], ["results"], ["trim"]]
    assert plan["stages"]["results"]["params"]["k"] == 3
    assert plan["stages"]["lexical"]["params"]["index_dir"] == f"{pica_home}/tantivy"
    assert not pica_home.exists()  # a dry run touches nothing
    config = pica("run", "search/lexical", "query=cats", "--print-config", check=True).stdout
    assert "query: cats" in config and "tantivy_dir:" in config


def test_stages_lists_ids_descriptions_and_params():
    out = pica("stages", check=True).stdout
    assert "retrieve.lexical.v1  Keyword search" in out
    assert "    k: int (default 10)" in out


@needs_corpus()
def test_ingest_then_search_from_the_command_line(pica_home):
    ingest = pica("run", str(REPO / "recipes/ingest/markdown.yaml"), f"path={DOCUMENTS / 'md'}", check=True)
    assert "chunks" in ingest.stdout
    found = pica(
        "run",
        str(REPO / "recipes/search/lexical.yaml"),
        "query=liquid permalink",
        "--json",
        check=True,
    )
    payload = json.loads(found.stdout)
    assert payload["warnings"] == []
    top = payload["hits"][0]
    assert top["id"] == "md/jekyll/front-matter.md"
    assert {"path", "title", "line_start", "line_end", "score", "passage"} <= set(top)


@pytest.fixture
def plugin_path(tmp_path):
    """A third-party distribution on PYTHONPATH: one good stage, one that fails to import."""
    (tmp_path / "goodplugin.py").write_text(
        textwrap.dedent("""\
        import time
        from pica.kernel.stage import Stage, Params

        class Wait(Stage):
            '''Wait a long time (to be interrupted).'''
            id = "plugin.wait.v1"
            outputs = {"text": str}
            def run(self, ctx):
                print("waiting", flush=True)
                while not ctx.cancelled.is_set():
                    time.sleep(0.05)
                return {"text": "done"}
    """)
    )
    (tmp_path / "brokenplugin.py").write_text("raise ImportError('missing dependency foo')\n")
    info = tmp_path / "someplugins-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: someplugins\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[pica.stages]\nplugin.wait.v1 = goodplugin:Wait\nplugin.broken.v1 = brokenplugin:Nope\n"
    )
    return tmp_path


def test_plugins_load_from_entry_points_and_a_broken_one_is_reported(plugin_path):
    result = pica("stages", env={"PYTHONPATH": str(plugin_path)})
    assert result.returncode == 0
    assert "plugin.wait.v1  Wait a long time" in result.stdout
    assert "retrieve.lexical.v1" in result.stdout
    assert (
        "failed to load plugin.broken.v1: brokenplugin:Nope: ImportError: missing dependency foo"
        in result.stderr
    )


def default_sigint() -> None:
    """Run in the child before exec: Ctrl-C back to its default. A background job (`cmd &`)
    ignores SIGINT and passes that on, and Python raises KeyboardInterrupt only if it is not ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_stops_cleanly(plugin_path, tmp_path):
    recipe = tmp_path / "wait.yaml"
    recipe.write_text("kind: search\nstages:\n  w: {use: plugin.wait.v1}\noutput: w.text\n")
    process = subprocess.Popen(
        [sys.executable, "-m", "pica", "run", str(recipe)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(plugin_path)},
        preexec_fn=default_sigint,
    )
    try:
        assert process.stdout.readline().strip() == "waiting"
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode == 130
    assert stderr.strip() == "interrupted"
