"""The contract every registered stage keeps, checked for each one without writing a test for it."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from pica.kernel.registry import check_stage_class, registry
from pica.kernel.stage import Context, conforms

STAGES = registry.all()


def test_every_builtin_stage_module_loads():
    assert registry.failures == {}
    assert len(STAGES) >= 4


@pytest.mark.parametrize("stage_id", sorted(STAGES))
def test_stage_is_well_formed(stage_id):
    assert check_stage_class(STAGES[stage_id]) == []


@pytest.mark.parametrize("stage_id", sorted(STAGES))
def test_params_forbid_unknown_keys(stage_id, tmp_path):
    cls = STAGES[stage_id]
    example = cls.example(tmp_path)
    with pytest.raises(ValidationError) as error:
        cls.Params.model_validate({**example.params, "no_such_param": 1})
    assert [e["type"] for e in error.value.errors()] == ["extra_forbidden"]


@pytest.mark.parametrize("stage_id", sorted(STAGES))
def test_run_produces_declared_outputs_without_network(stage_id, tmp_path, no_network):
    cls = STAGES[stage_id]
    example = cls.example(tmp_path)
    assert set(example.inputs) == set(cls.inputs), "the example must give every declared input"
    instance = cls(cls.Params.model_validate(example.params))
    ctx = Context()
    instance.warm_up(ctx)
    outputs = instance.run(ctx, **example.inputs)
    assert set(outputs) == set(cls.outputs)
    for name, tp in cls.outputs.items():
        assert conforms(outputs[name], tp), f"output {name} is not {tp}"
    assert any(outputs[name] for name in cls.outputs), "the example should produce something"
