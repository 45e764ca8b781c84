"""Run a plan level by level; the stages of one level run concurrently, at most 8 at once.

Each stage runs in a daemon thread so that one that hangs past its `timeout_s` can be abandoned
(Python cannot kill a thread; a daemon thread at least never blocks the process from exiting).
A stage that raises or times out either stops the run (`on_error: fail`) or yields empty outputs
(or, for outputs it names in `passthrough`, its inputs) and a warning the result carries
(`on_error: skip`). A stage the recipe disabled (`enabled: false`) does not run: it yields what a
skipped stage yields, without a warning, and its status is `off`.
"""

from __future__ import annotations

import copy
import queue
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from pica.kernel.errors import StageFailed
from pica.kernel.recipe import Plan, PlannedStage
from pica.kernel.stage import Context, Stage, conforms, empty, type_name

MAX_PARALLEL = 8
POLL_S = 0.2  # how often the waiting thread wakes to notice Ctrl-C and deadlines


@dataclass
class RunResult:
    output: Any
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what is worth knowing but went right
    status: dict[str, str] = field(default_factory=dict)  # stage -> ok | skipped | timed out | off
    seconds: dict[str, float] = field(default_factory=dict)


class StageCache:
    """Warmed-up stage instances kept across runs (a server answers many queries)."""

    def __init__(self) -> None:
        self._instances: dict[tuple[str, str], Stage] = {}
        self._lock = threading.Lock()

    def get(self, planned: PlannedStage, ctx: Context) -> Stage:
        cls = planned.stage_cls
        if cls.warm_up is Stage.warm_up:  # no heavy state to keep (and its params vary per call)
            return cls(planned.params)
        key = (cls.id, planned.params.model_dump_json(exclude=set(cls.run_params)))
        with self._lock:
            instance = self._instances.get(key)
        if instance is None:
            instance = cls(planned.params)
            instance.warm_up(ctx)
            with self._lock:
                instance = self._instances.setdefault(key, instance)
        if instance.params is planned.params:
            return instance
        # Same heavy state, this run's params: a shallow copy, so concurrent runs do not race.
        clone = copy.copy(instance)
        clone.params = planned.params
        return clone


def execute(
    plan: Plan, ctx: Context, cache: StageCache | None = None, max_parallel: int = MAX_PARALLEL
) -> RunResult:
    cache = cache or StageCache()
    values: dict[tuple[str, str], Any] = {}
    result = RunResult(output=None, warnings=ctx.warnings, notes=ctx.notes)
    for level in plan.levels:
        _run_level([plan.stages[n] for n in level], values, ctx, cache, max_parallel, result)
    result.output = _pick(plan.output, values)
    return result


def _gather(refs: list[tuple[str, str]], values: dict[tuple[str, str], Any]) -> Any:
    """One output as it is; several (a fan-in to a list input) concatenated in recipe order."""
    if len(refs) == 1:
        return values[refs[0]]
    return [item for ref in refs for item in values[ref]]


def _pick(ref: Any, values: dict[tuple[str, str], Any]) -> Any:
    if isinstance(ref, dict):
        return {name: _gather(r, values) for name, r in ref.items()}
    return _gather(ref, values)


def _run_level(
    stages: list[PlannedStage],
    values: dict[tuple[str, str], Any],
    ctx: Context,
    cache: StageCache,
    max_parallel: int,
    result: RunResult,
) -> None:
    done: queue.Queue[tuple[str, str, Any]] = queue.Queue()
    for planned in stages:
        if not planned.enabled:
            _stand_in_outputs(planned, values)
            result.status[planned.name], result.seconds[planned.name] = "off", 0.0
    waiting = [planned for planned in stages if planned.enabled]
    running: dict[str, tuple[PlannedStage, float, float]] = {}  # name -> (stage, started, deadline)

    def work(planned: PlannedStage, inputs: dict[str, Any]) -> None:
        stage_ctx = ctx.for_stage(planned.name)
        try:
            outputs = cache.get(planned, stage_ctx).run(stage_ctx, **inputs)
            _check_outputs(planned, outputs)
            done.put((planned.name, "ok", outputs))
        except BaseException as error:  # reported to the waiting thread, which decides
            done.put((planned.name, "error", error))

    try:
        while waiting or running:
            while waiting and len(running) < max_parallel:
                planned = waiting.pop(0)
                inputs = {i: _gather(refs, values) for i, refs in planned.inputs.items()}
                started = time.monotonic()
                deadline = started + planned.timeout_s if planned.timeout_s else float("inf")
                running[planned.name] = (planned, started, deadline)
                threading.Thread(
                    target=work,
                    args=(planned, inputs),
                    daemon=True,
                    name=f"pica-stage-{planned.name}",
                ).start()
            try:
                name, outcome, payload = done.get(timeout=POLL_S)
            except queue.Empty:
                now = time.monotonic()
                for name, (planned, started, deadline) in list(running.items()):
                    if now >= deadline:
                        del running[name]
                        error = TimeoutError(f"no answer within {planned.timeout_s:g} s")
                        _fail(planned, error, "timed out", values, ctx, result, now - started)
                continue
            if name not in running:
                continue  # it finished after it had already been given up on
            planned, started, _ = running.pop(name)
            seconds = time.monotonic() - started
            if outcome == "ok":
                for out, value in payload.items():
                    values[(name, out)] = value
                result.status[name], result.seconds[name] = "ok", seconds
            else:
                _fail(planned, payload, "skipped", values, ctx, result, seconds)
    except BaseException:
        ctx.cancelled.set()  # tell stages still running to stop at their next check
        raise


def _fail(
    planned: PlannedStage,
    error: BaseException,
    status: str,
    values: dict[tuple[str, str], Any],
    ctx: Context,
    result: RunResult,
    seconds: float,
) -> None:
    if planned.on_error == "fail" or isinstance(error, KeyboardInterrupt | SystemExit):
        ctx.cancelled.set()
        if isinstance(error, KeyboardInterrupt | SystemExit):
            raise error
        raise StageFailed(planned.name, planned.stage_cls.id, error) from error
    _stand_in_outputs(planned, values)
    result.status[planned.name], result.seconds[planned.name] = status, seconds
    outcome = "its inputs pass through" if planned.stage_cls.passthrough else "its outputs are empty"
    name = f"stage '{planned.name}' ({planned.stage_cls.id})"
    ctx.warnings.append(f"{name} {status}: {type(error).__name__}: {error}; {outcome}")


def _stand_in_outputs(planned: PlannedStage, values: dict[tuple[str, str], Any]) -> None:
    """What a stage that did not run yields: for outputs it names in `passthrough`, its inputs;
    empty values for the others."""
    passthrough = planned.stage_cls.passthrough
    for out, tp in planned.stage_cls.outputs.items():
        if out in passthrough and passthrough[out] in planned.inputs:
            values[(planned.name, out)] = _gather(planned.inputs[passthrough[out]], values)
        else:
            values[(planned.name, out)] = empty(tp)


def _check_outputs(planned: PlannedStage, outputs: Any) -> None:
    declared = planned.stage_cls.outputs
    if not isinstance(outputs, dict) or set(outputs) != set(declared):
        got = sorted(outputs) if isinstance(outputs, dict) else type(outputs).__name__
        raise TypeError(f"returned {got}; {planned.stage_cls.id} declares outputs {sorted(declared)}")
    for name, tp in declared.items():
        value = outputs[name]
        sample = value[:1] if isinstance(value, list) else value  # the first element stands for all
        if not conforms(sample, tp):
            raise TypeError(f"output '{name}' is {type(value).__name__}, declared {type_name(tp)}")
