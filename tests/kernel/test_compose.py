"""Recipe composition: defaults from configs/, interpolation, overrides, teams, settings."""

from __future__ import annotations

import os
import textwrap

import pytest

from pica.kernel.compose import compose
from pica.kernel.errors import RecipeError


@pytest.fixture
def layout(tmp_path):
    configs = tmp_path / "configs"
    (configs / "storage").mkdir(parents=True)
    (configs / "team").mkdir()
    (configs / "storage" / "local.yaml").write_text("index_dir: ${settings.home}/idx\n")
    (configs / "team" / "acme.yaml").write_text("k: 3\nlabel: acme\n")
    recipe = tmp_path / "recipes" / "r.yaml"
    recipe.parent.mkdir()
    recipe.write_text(
        textwrap.dedent("""\
        defaults:
          - storage: local
          - _self_
        kind: search
        query: ???
        k: 10
        label: plain
        stages:
          s: {use: x, params: {q: "${query}", k: "${k}", dir: "${storage.index_dir}"}}
        output: s.hits
    """)
    )
    return recipe, configs


def compose_in(layout, overrides=(), variables=None):
    recipe, configs = layout
    return compose(recipe, list(overrides), {"home": "/h"}, [configs], variables)


def test_defaults_interpolation_and_overrides(layout):
    config = compose_in(layout, ["query=cats", "k=5"])
    assert config["stages"]["s"]["params"] == {"q": "cats", "k": 5, "dir": "/h/idx"}
    assert config["settings"] == {"home": "/h", "recipe_dir": str(layout[0].parent)}


def test_team_is_applied_on_top_of_the_recipe(layout):
    config = compose_in(layout, ["query=cats", "team=acme"])
    assert (config["k"], config["label"]) == (3, "acme")
    assert config["stages"]["s"]["params"]["k"] == 3


def test_unknown_team_is_a_problem(layout):
    with pytest.raises(RecipeError) as error:
        compose_in(layout, ["query=cats", "team=nobody"])
    assert [str(p) for p in error.value.problems] == [
        "team: no config team/nobody.yaml (available: acme, example)"
    ]


def test_values_hydra_cannot_parse_are_taken_as_strings(layout):
    config = compose_in(layout, ['query=(cats OR "dogs") AND NOT mice:1, 2'])
    assert config["query"] == '(cats OR "dogs") AND NOT mice:1, 2'


def test_variables_are_set_verbatim(layout):
    config = compose_in(layout, [], {"query": '"exact phrase" ${not.interpolated}'})
    assert config["stages"]["s"]["params"]["q"] == '"exact phrase" ${not.interpolated}'


def test_composition_leaves_the_working_directory_alone(layout, tmp_path, monkeypatch):
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    compose_in(layout, ["query=cats"])
    assert os.getcwd() == str(work)
    assert list(work.iterdir()) == []  # no outputs/ or .hydra/ folders


def test_a_cached_composition_equals_a_fresh_one_and_follows_config_changes(layout, tmp_path):
    recipe, configs = layout
    cache = tmp_path / "cache"

    def composed():
        return compose(recipe, ["query=cats"], {"home": "/h"}, [configs], {"k": 4}, cache_dir=cache)

    fresh = composed()
    assert len(list(cache.iterdir())) == 1
    assert composed() == fresh == compose(recipe, ["query=cats"], {"home": "/h"}, [configs], {"k": 4})
    (configs / "storage" / "local.yaml").write_text("index_dir: /elsewhere\n")
    assert composed()["stages"]["s"]["params"]["dir"] == "/elsewhere"  # a changed config is a new key
