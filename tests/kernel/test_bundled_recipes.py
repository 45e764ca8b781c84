"""Every bundled recipe loads and dry-runs; the stages it names exist and its edges check."""

from __future__ import annotations

import pytest
import yaml

from pica.cli.render import render_plan
from pica.kernel import runner
from pica.kernel.paths import RECIPES_DIR, bundled_recipes
from pica.kernel.settings import Settings

EXAMPLE_VALUES = {"agent": "codex"}  # variables whose values are checked, not free text


def required_variables(path) -> list[str]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return [f"{key}={EXAMPLE_VALUES.get(key, 'x')}" for key, value in data.items() if value == "???"]


PIPELINES = [p for p in bundled_recipes() if p.parent.name != "mcp"]  # mcp/: tool sets, not pipelines


@pytest.mark.parametrize("path", PIPELINES, ids=lambda p: str(p.relative_to(RECIPES_DIR)))
def test_bundled_recipe_dry_runs(path, tmp_path):
    plan = runner.plan(path, required_variables(path), Settings(home=tmp_path))
    assert plan.levels and plan.stages
    text = render_plan(plan)
    for name in plan.stages:
        assert f"  {name}: " in text


@pytest.mark.parametrize(
    "path",
    [p for p in bundled_recipes() if p.parent.name == "ingest"],
    ids=lambda p: str(p.relative_to(RECIPES_DIR)),
)
def test_every_ingest_recipe_redacts_what_it_writes(path, tmp_path):
    plan = runner.plan(path, required_variables(path), Settings(home=tmp_path))
    for stage in plan.stages.values():
        for port in ("documents", "chunks"):
            if stage.stage_cls.id.startswith("store.") and port in stage.inputs:
                for source, _ in stage.inputs[port]:
                    redacted = plan.stages[source].stage_cls.id == "redact.secrets.v1" or any(
                        plan.stages[s].stage_cls.id == "redact.secrets.v1"
                        for s, _ in plan.stages[source].inputs.get("documents", [])
                    )
                    assert redacted, f"{stage.name}.{port} is written from {source}, not redacted"


def test_recipes_are_bundled():
    names = {str(p.relative_to(RECIPES_DIR)) for p in bundled_recipes()}
    assert {"ingest/markdown.yaml", "search/lexical.yaml"} <= names


def test_bundled_team_example_applies_on_top(tmp_path):
    plan = runner.plan("search/lexical", ["query=x", "team=example"], Settings(home=tmp_path))
    assert plan.stages["results"].params.k == 5


def test_every_package_folder_is_in_pyproject():
    import tomllib

    from tests.conftest import REPO

    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    for top, prefix in (("kernel", "pica.kernel"), ("stages", "pica.stages"), ("pica", "pica")):
        for init in (REPO / top).rglob("__init__.py"):
            parts = init.parent.relative_to(REPO / top).parts
            assert ".".join((prefix, *parts)) in listed, f"{init.parent} is missing from pyproject packages"


@pytest.mark.parametrize("path", sorted((RECIPES_DIR / "mcp").glob("*.yaml")), ids=lambda p: p.stem)
def test_bundled_tool_sets_load(path, tmp_path):
    from pica.mcp.server import tool_parameters
    from pica.mcp.toolsets import load_toolset

    toolset = load_toolset(path.stem, tool_parameters(), Settings(home=tmp_path))
    assert {"search", "get"} <= set(toolset.tools) and toolset.description
