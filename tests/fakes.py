"""Small deterministic stages for kernel tests, in a registry of their own."""

from __future__ import annotations

import threading
import time
from typing import Any

from pydantic import Field

from pica.kernel.recipe import Plan, build_plan
from pica.kernel.registry import Registry
from pica.kernel.stage import Context, Params, Stage

fakes = Registry(builtin_package=None, group="pica.tests.none")


class ConstParams(Params):
    values: list[int] = Field(default=[1, 2, 3])


@fakes.register
class Const(Stage):
    """Emit a fixed list of numbers."""

    id = "test.const.v1"
    Params = ConstParams
    outputs = {"numbers": list[int]}

    def run(self, ctx: Context) -> dict[str, Any]:
        return {"numbers": list(self.params.values)}


class ScaleParams(Params):
    factor: int = 2


@fakes.register
class Scale(Stage):
    """Multiply every number."""

    id = "test.scale.v1"
    Params = ScaleParams
    inputs = {"numbers": list[int]}
    outputs = {"numbers": list[int]}

    def run(self, ctx: Context, numbers: list[int]) -> dict[str, Any]:
        return {"numbers": [n * self.params.factor for n in numbers]}


@fakes.register
class Concat(Stage):
    """Join two lists of numbers."""

    id = "test.concat.v1"
    inputs = {"left": list[int], "right": list[int]}
    outputs = {"numbers": list[int]}

    def run(self, ctx: Context, left: list[int], right: list[int]) -> dict[str, Any]:
        return {"numbers": left + right}


@fakes.register
class Label(Stage):
    """Emit a string (for type-mismatch checks)."""

    id = "test.label.v1"
    outputs = {"text": str}

    def run(self, ctx: Context) -> dict[str, Any]:
        return {"text": "label"}


class SleepParams(Params):
    seconds: float = 30.0


@fakes.register
class Sleep(Stage):
    """Wait, checking for cancellation, then emit nothing."""

    id = "test.sleep.v1"
    Params = SleepParams
    outputs = {"numbers": list[int]}

    def run(self, ctx: Context) -> dict[str, Any]:
        end = time.monotonic() + self.params.seconds
        while time.monotonic() < end and not ctx.cancelled.is_set():
            time.sleep(0.01)
        return {"numbers": [99]}


@fakes.register
class Boom(Stage):
    """Raise an error."""

    id = "test.boom.v1"
    outputs = {"numbers": list[int]}

    def run(self, ctx: Context) -> dict[str, Any]:
        raise ValueError("boom")


class MeetParams(Params):
    group: str = "default"
    parties: int = 2


@fakes.register
class Meet(Stage):
    """Wait until `parties` stages of the same group run at the same time (proves concurrency)."""

    id = "test.meet.v1"
    Params = MeetParams
    outputs = {"numbers": list[int]}
    barriers: dict[str, threading.Barrier] = {}
    active = 0
    most_active = 0
    lock = threading.Lock()

    def run(self, ctx: Context) -> dict[str, Any]:
        cls = type(self)
        with cls.lock:
            barrier = cls.barriers.setdefault(self.params.group, threading.Barrier(self.params.parties))
            cls.active += 1
            cls.most_active = max(cls.most_active, cls.active)
        try:
            barrier.wait(timeout=10)  # raises BrokenBarrierError if the others never run alongside
            time.sleep(0.05)
        finally:
            with cls.lock:
                cls.active -= 1
        return {"numbers": [1]}


def plan(config: dict[str, Any]) -> Plan:
    return build_plan(config, fakes, source="test.yaml")
