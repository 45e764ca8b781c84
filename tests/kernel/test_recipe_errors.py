"""Every class of recipe problem, with the exact line it prints."""

from __future__ import annotations

import textwrap

import pytest

from pica.kernel.errors import RecipeError
from pica.kernel.recipe import load_plan
from tests.fakes import fakes, plan


def problems(config) -> list[str]:
    with pytest.raises(RecipeError) as error:
        plan(config)
    return [str(p) for p in error.value.problems]


def recipe(**stages):
    return {"kind": "search", "stages": stages, "output": "a.numbers"}


def test_unknown_stage_id_lists_the_available_ones():
    assert problems(recipe(a={"use": "test.const.v2"})) == [
        "stages.a.use: unknown stage 'test.const.v2' (did you mean 'test.const.v1'? available: "
        "test.boom.v1, test.concat.v1, test.const.v1, test.label.v1, test.meet.v1, test.scale.v1, "
        "test.sleep.v1)",
    ]


def test_unknown_param():
    assert problems(recipe(a={"use": "test.const.v1", "params": {"valeus": [1]}})) == [
        "stages.a.params.valeus: unknown parameter (allowed: values)",
    ]


def test_ill_typed_param():
    assert problems(recipe(a={"use": "test.const.v1", "params": {"values": "many"}})) == [
        "stages.a.params.values: Input should be a valid list, got 'many'",
    ]


def test_edge_to_a_missing_output():
    config = recipe(a={"use": "test.const.v1"}, b={"use": "test.scale.v1", "inputs": {"numbers": "a.nums"}})
    assert problems(config) == [
        "stages.b.inputs.numbers: stage 'a' (test.const.v1) has no output 'nums' (outputs: numbers)",
    ]


def test_edge_to_a_missing_stage():
    config = recipe(
        a={"use": "test.const.v1"}, b={"use": "test.scale.v1", "inputs": {"numbers": "z.numbers"}}
    )
    assert problems(config) == ["stages.b.inputs.numbers: no stage named 'z' (stages: a, b)"]


def test_type_mismatch_between_output_and_input():
    config = recipe(a={"use": "test.scale.v1", "inputs": {"numbers": "l.text"}}, l={"use": "test.label.v1"})
    assert problems(config) == [
        "stages.a.inputs.numbers: l.text is str but test.scale.v1 expects list[int] for 'numbers'",
    ]


def test_unconnected_input():
    assert problems(recipe(a={"use": "test.scale.v1"})) == [
        "stages.a.inputs: input 'numbers' (list[int]) is not connected; add numbers: <stage>.<output>",
    ]


def test_cycle():
    config = recipe(
        a={"use": "test.scale.v1", "inputs": {"numbers": "c.numbers"}},
        b={"use": "test.scale.v1", "inputs": {"numbers": "a.numbers"}},
        c={"use": "test.scale.v1", "inputs": {"numbers": "b.numbers"}},
    )
    assert problems(config) == ["stages: cycle: a -> b -> c -> a; a recipe must be a DAG"]


def test_missing_output():
    config = {"kind": "search", "stages": {"a": {"use": "test.const.v1"}}}
    assert problems(config) == [
        "output: required: the <stage>.<output> the recipe returns, e.g. search.hits",
    ]


def test_bad_kind_timeout_and_on_error():
    config = {
        "kind": "query",
        "stages": {"a": {"use": "test.const.v1", "timeout_s": 0, "on_error": "ignore"}},
        "output": "a.numbers",
    }
    assert problems(config) == [
        "kind: 'query' is not one of: ingest, search, bench, toolset",
        "stages.a.timeout_s: Input should be greater than 0, got 0",
        "stages.a.on_error: Input should be 'fail' or 'skip', got 'ignore'",
    ]


def test_every_problem_is_reported_at_once():
    config = {
        "stages": {
            "a": {"use": "test.nope.v1"},
            "b": {
                "use": "test.scale.v1",
                "params": {"factor": "x"},
                "inputs": {"numbers": "a.numbers"},
            },
            "c": {"use": "test.concat.v1", "inputs": {"left": "b.numbers", "right": "b.missing"}},
        },
    }
    found = problems(config)
    assert [p.split(":")[0] for p in found] == [
        "kind",
        "stages.a.use",
        "stages.b.params.factor",
        "stages.c.inputs.right",
        "output",
    ]


def test_missing_recipe_variable_and_unknown_override(tmp_path):
    path = tmp_path / "r.yaml"
    path.write_text(
        textwrap.dedent("""\
        kind: search
        values: ???
        stages:
          a: {use: test.const.v1, params: {values: "${values}"}}
        output: a.numbers
    """)
    )
    with pytest.raises(RecipeError) as error:
        load_plan(path, [], fakes, {"home": str(tmp_path)})
    assert [str(p) for p in error.value.problems] == [
        "values: missing value; give it on the command line as values=...",
    ]
    with pytest.raises(RecipeError) as error:
        load_plan(path, ["valuez=[1]"], fakes, {"home": str(tmp_path)})
    assert [str(p) for p in error.value.problems] == [
        "valuez: not a key of this recipe (to add it anyway, write +valuez=...)",
    ]


def test_invalid_yaml_names_the_line(tmp_path):
    path = tmp_path / "r.yaml"
    path.write_text("kind: search\nstages:\n  a: {use: [\n")
    with pytest.raises(RecipeError) as error:
        load_plan(path, [], fakes, {})
    assert len(error.value.problems) == 1
    assert str(error.value.problems[0]).startswith("not valid YAML: line 4, column 1:")


def test_error_message_header_counts_problems():
    with pytest.raises(RecipeError) as error:
        plan({"kind": "search", "stages": {"a": {"use": "test.const.v1"}}})
    assert str(error.value).splitlines()[0] == "test.yaml: 1 problem"
