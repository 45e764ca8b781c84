"""Search modes are the search recipes: no list in code, so a recipe added is a mode."""

from __future__ import annotations

from pica.kernel.modes import search_modes
from pica.kernel.paths import RECIPES_DIR


def test_the_bundled_modes_are_todays_and_the_single_providers():
    assert set(search_modes()) == {
        *("default", "federated", "federated-hybrid", "lexical", "grep", "semantic", "hybrid", "rerank"),
        *("llm-rerank", "expanded"),
        *("files", "transcripts", "kg", "vector", "web"),
    }


def test_lookups_and_a_mapping_output_are_not_modes():
    for name in ("get", "similar", "deepweb"):
        assert (RECIPES_DIR / "search" / f"{name}.yaml").is_file()
        assert name not in search_modes()


def test_a_recipe_added_to_the_folder_is_a_mode(tmp_path):
    (tmp_path / "base.yaml").write_text("kind: search\nquery: ???\noutput: fuse.hits\nstages: {}\n")
    (tmp_path / "team.yaml").write_text("defaults:\n  - base\n  - _self_\nsources: [files]\n")  # inherits
    (tmp_path / "lookup.yaml").write_text("kind: search\nid: ???\noutput: fetch.document\n")  # no query
    (tmp_path / "both.yaml").write_text(
        "kind: search\nquery: ???\noutput: {hits: a.hits, tokens: a.tokens}\n"
    )
    (tmp_path / "ingest.yaml").write_text("kind: ingest\nquery: ???\noutput: a.b\n")
    (tmp_path / "broken.yaml").write_text("kind: [search\n")
    assert search_modes(tmp_path) == ("base", "team")


def test_the_mcp_search_tool_offers_the_recipes_as_modes():
    from pydantic import TypeAdapter

    from pica.mcp.tools import Mode

    assert tuple(TypeAdapter(Mode).json_schema()["enum"]) == search_modes()


def test_the_command_line_offers_the_recipes_as_modes():
    from click.testing import CliRunner

    from pica.cli import main

    result = CliRunner().invoke(main, ["search", "x", "-m", "nosuch"])
    assert result.exit_code == 2 and "'nosuch' is not one of 'default'" in result.output
    assert "federated-hybrid|files|grep" in CliRunner().invoke(main, ["search", "--help"]).output
