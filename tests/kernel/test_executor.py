"""DAG shapes the executor must run: chain, fan-out/fan-in, diamond, timeouts, failures."""

from __future__ import annotations

import pytest

from pica.kernel.errors import StageFailed
from pica.kernel.executor import execute
from pica.kernel.stage import Context
from tests.fakes import Meet, plan


def run(config):
    return execute(plan(config), Context())


def test_chain():
    result = run(
        {
            "kind": "search",
            "stages": {
                "a": {"use": "test.const.v1", "params": {"values": [1, 2]}},
                "b": {"use": "test.scale.v1", "inputs": {"numbers": "a.numbers"}},
                "c": {
                    "use": "test.scale.v1",
                    "params": {"factor": 10},
                    "inputs": {"numbers": "b.numbers"},
                },
            },
            "output": "c.numbers",
        }
    )
    assert result.output == [20, 40]
    assert result.warnings == []
    assert result.status == {"a": "ok", "b": "ok", "c": "ok"}


def test_fan_out_fan_in_levels_and_values():
    config = {
        "kind": "search",
        "stages": {
            "src": {"use": "test.const.v1", "params": {"values": [1]}},
            "double": {"use": "test.scale.v1", "inputs": {"numbers": "src.numbers"}},
            "triple": {
                "use": "test.scale.v1",
                "params": {"factor": 3},
                "inputs": {"numbers": "src.numbers"},
            },
            "join": {
                "use": "test.concat.v1",
                "inputs": {"left": "double.numbers", "right": "triple.numbers"},
            },
        },
        "output": {"joined": "join.numbers", "first": "src.numbers"},
    }
    assert plan(config).levels == [["src"], ["double", "triple"], ["join"]]
    assert run(config).output == {"joined": [2, 3], "first": [1]}


def test_diamond_runs_independent_stages_concurrently():
    Meet.barriers.clear()
    result = run(
        {
            "kind": "search",
            "stages": {
                "top": {"use": "test.const.v1"},
                "left": {"use": "test.meet.v1", "params": {"group": "diamond"}},
                "right": {"use": "test.meet.v1", "params": {"group": "diamond"}},
                "bottom": {
                    "use": "test.concat.v1",
                    "inputs": {"left": "left.numbers", "right": "right.numbers"},
                },
            },
            "output": "bottom.numbers",
        }
    )
    # Each meet stage waits for the other at a barrier: run one after the other, both would fail.
    assert result.output == [1, 1]
    assert result.warnings == []


def test_at_most_eight_stages_run_at_once():
    Meet.barriers.clear()
    Meet.most_active = 0
    stages = {f"s{i}": {"use": "test.meet.v1", "params": {"group": f"g{i // 2}"}} for i in range(12)}
    stages["all"] = {
        "use": "test.concat.v1",
        "inputs": {"left": "s0.numbers", "right": "s11.numbers"},
    }
    result = run({"kind": "search", "stages": stages, "output": "all.numbers"})
    assert result.output == [1, 1]
    assert 2 <= Meet.most_active <= 8


def test_a_stage_that_times_out_yields_empty_output_and_a_warning():
    result = run(
        {
            "kind": "search",
            "stages": {
                "slow": {"use": "test.sleep.v1", "timeout_s": 0.3, "on_error": "skip"},
                "fast": {"use": "test.const.v1", "params": {"values": [7]}},
                "join": {
                    "use": "test.concat.v1",
                    "inputs": {"left": "slow.numbers", "right": "fast.numbers"},
                },
            },
            "output": "join.numbers",
        }
    )
    assert result.output == [7]
    assert result.status["slow"] == "timed out"
    assert result.warnings == [
        "stage 'slow' (test.sleep.v1) timed out: TimeoutError: no answer within 0.3 s; its outputs are empty"
    ]


def test_a_stage_that_raises_with_skip_yields_empty_output_and_a_warning():
    result = run(
        {
            "kind": "search",
            "stages": {
                "bad": {"use": "test.boom.v1", "on_error": "skip"},
                "after": {"use": "test.scale.v1", "inputs": {"numbers": "bad.numbers"}},
            },
            "output": "after.numbers",
        }
    )
    assert result.output == []
    assert result.status == {"bad": "skipped", "after": "ok"}
    assert result.warnings == ["stage 'bad' (test.boom.v1) skipped: ValueError: boom; its outputs are empty"]


def test_a_stage_that_raises_with_fail_stops_the_run():
    config = {
        "kind": "search",
        "stages": {
            "bad": {"use": "test.boom.v1", "on_error": "fail"},
            "after": {"use": "test.scale.v1", "inputs": {"numbers": "bad.numbers"}},
        },
        "output": "after.numbers",
    }
    ctx = Context()
    with pytest.raises(StageFailed) as failure:
        execute(plan(config), ctx)
    assert str(failure.value) == "boom"  # a stage's ValueError: its own words, no stage ids
    assert ctx.cancelled.is_set()


def test_a_timeout_with_fail_stops_the_run():
    config = {
        "kind": "search",
        "stages": {"slow": {"use": "test.sleep.v1", "timeout_s": 0.2, "on_error": "fail"}},
        "output": "slow.numbers",
    }
    with pytest.raises(StageFailed, match=r"TimeoutError: no answer within 0\.2 s"):
        run(config)


def test_wrong_outputs_from_a_stage_are_an_error(monkeypatch):
    from tests.fakes import Const

    monkeypatch.setattr(Const, "run", lambda self, ctx: {"number": 1})
    config = {"kind": "search", "stages": {"a": {"use": "test.const.v1"}}, "output": "a.numbers"}
    with pytest.raises(
        StageFailed, match=r"returned \['number'\]; test.const.v1 declares outputs \['numbers'\]"
    ):
        run(config)


def test_interrupt_cancels_running_stages(monkeypatch):
    from tests.fakes import Const

    def interrupted(self, ctx):
        raise KeyboardInterrupt

    monkeypatch.setattr(Const, "run", interrupted)
    config = {
        "kind": "search",
        "stages": {"a": {"use": "test.const.v1"}, "b": {"use": "test.sleep.v1"}},
        "output": {"a": "a.numbers", "b": "b.numbers"},
    }
    ctx = Context()
    with pytest.raises(KeyboardInterrupt):
        execute(plan(config), ctx)
    assert ctx.cancelled.is_set()


def test_with_params_asks_a_composed_plan_again():
    base = plan(
        {
            "kind": "search",
            "stages": {
                "a": {"use": "test.const.v1", "params": {"values": [1, 2]}},
                "b": {"use": "test.scale.v1", "inputs": {"numbers": "a.numbers"}},
            },
            "output": "b.numbers",
        }
    )
    again = base.with_params(factor=5)
    assert execute(again, Context()).output == [5, 10]
    assert execute(base, Context()).output == [2, 4]  # the original plan is unchanged
    assert again.stages["a"] is base.stages["a"]  # stages without that param are shared


def test_a_disabled_stage_does_not_run_and_yields_empty_outputs_without_a_warning():
    result = run(
        {
            "kind": "search",
            "stages": {
                "a": {"use": "test.const.v1", "params": {"values": [1, 2]}},
                "boom": {"use": "test.boom.v1", "enabled": False},
                "join": {"use": "test.concat.v1", "inputs": {"left": "a.numbers", "right": "boom.numbers"}},
            },
            "output": "join.numbers",
        }
    )
    assert result.output == [1, 2]
    assert result.warnings == []
    assert result.status["boom"] == "off"


def test_the_stage_cache_keeps_only_stages_with_heavy_state():
    from pica.kernel.executor import StageCache

    config = {"kind": "search", "stages": {"a": {"use": "test.const.v1"}}, "output": "a.numbers"}
    cache = StageCache()
    for values in ([1], [2], [3]):  # per-call params, as a query is: a server must not keep each
        the_plan = plan({**config, "stages": {"a": {"use": "test.const.v1", "params": {"values": values}}}})
        assert execute(the_plan, Context(), cache).output == values
    assert cache._instances == {}
