"""Recipes: YAML pipelines of stages, checked completely before anything runs.

    kind: search                      # ingest | search | bench | toolset
    description: BM25 over the keyword index
    query: ???                        # recipe variables, set on the command line: query="..."
    stages:
      search:                         # a name of your choosing
        use: retrieve.lexical.v1      # a stage id (`pica stages` lists them)
        params: {query: "${query}"}   # checked against the stage's Params
        inputs: {chunks: chunk.chunks}  # input <- stage.output
        timeout_s: 5                  # optional; the stage's own default otherwise
        on_error: skip                # fail (stop the run) | skip (empty outputs + a warning)
        enabled: true                 # false: the stage does not run; its outputs are empty
    output: search.hits               # or a mapping {name: stage.output, ...}

`load_plan` reports every problem at once, each with its path in the file.
"""

from __future__ import annotations

import re
import typing
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pica.kernel.compose import compose, mistyped
from pica.kernel.errors import Problem, RecipeError
from pica.kernel.registry import Registry, UnknownStage
from pica.kernel.stage import Params, Stage, compatible, type_name

KINDS = ("ingest", "search", "bench", "toolset")
STAGE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")


class StageSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    use: str
    params: dict[str, Any] = Field(default_factory=dict)
    # input name -> "<stage>.<output>", or a list of them for a list input (concatenated)
    inputs: dict[str, str | list[str]] = Field(default_factory=dict)
    timeout_s: float | None = Field(default=None, gt=0)
    on_error: Literal["fail", "skip"] | None = None
    enabled: bool = True


@dataclass
class PlannedStage:
    name: str
    stage_cls: type[Stage]
    params: Params
    inputs: dict[str, list[tuple[str, str]]]  # input name -> [(stage name, output name), ...]
    timeout_s: float | None
    on_error: str
    enabled: bool = True


@dataclass
class Plan:
    source: str
    kind: str
    description: str
    stages: dict[str, PlannedStage]
    levels: list[list[str]]
    output: dict[str, list[tuple[str, str]]] | list[tuple[str, str]]
    config: dict[str, Any] = field(default_factory=dict)

    def with_params(self, **values: Any) -> Plan:
        """The same plan with these params set in every stage that has them (a new question for a
        composed plan: no composition or checks again, and warmed stages are reused)."""
        stages = {}
        for name, planned in self.stages.items():
            updates = {k: v for k, v in values.items() if k in planned.stage_cls.Params.model_fields}
            stages[name] = (
                replace(planned, params=planned.params.model_copy(update=updates)) if updates else planned
            )
        return replace(self, stages=stages)

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "kind": self.kind,
            "description": self.description,
            "levels": self.levels,
            "stages": {
                name: {
                    "use": s.stage_cls.id,
                    "params": s.params.model_dump(mode="json"),
                    "inputs": {i: [f"{src}.{out}" for src, out in refs] for i, refs in s.inputs.items()},
                    "timeout_s": s.timeout_s,
                    "on_error": s.on_error,
                    "enabled": s.enabled,
                }
                for name, s in self.stages.items()
            },
            "output": _ref_text(self.output),
        }


def load_plan(
    recipe: Path,
    overrides: list[str],
    registry: Registry,
    settings: dict[str, Any],
    config_dirs: list[Path] = (),  # type: ignore[assignment]
    variables: dict[str, Any] | None = None,
    cache_dir: Path | None = None,
) -> Plan:
    config = compose(recipe, overrides, settings, list(config_dirs), variables, cache_dir)
    try:
        return build_plan(config, registry, source=str(recipe))
    except RecipeError as error:  # `compact=maybe`: name the value given, not the param it reached
        problems = mistyped(recipe, overrides, list(config_dirs), cache_dir) if overrides else []
        if problems:
            raise RecipeError(str(recipe), problems) from error
        raise


def build_plan(config: dict[str, Any], registry: Registry, source: str = "<recipe>") -> Plan:
    """Check a composed recipe and turn it into a runnable plan, or raise every problem at once."""
    problems: list[Problem] = []
    kind = config.get("kind")
    if kind is None:
        problems.append(Problem("kind", f"required (one of: {', '.join(KINDS)})"))
    elif kind not in KINDS:
        problems.append(Problem("kind", f"'{kind}' is not one of: {', '.join(KINDS)}"))

    raw_stages = config.get("stages")
    specs: dict[str, StageSpec] = {}
    classes: dict[str, type[Stage]] = {}
    params: dict[str, Params] = {}
    if not isinstance(raw_stages, dict) or not raw_stages:
        problems.append(Problem("stages", "required: a mapping of stage names to {use, params, inputs}"))
        raw_stages = {}
    declared = [str(name) for name in raw_stages]
    for name, raw in raw_stages.items():
        path = f"stages.{name}"
        if not STAGE_NAME.match(str(name)):
            problems.append(Problem(path, "a stage name is letters, digits, '_' or '-' (no dots)"))
            continue
        try:
            spec = StageSpec.model_validate(raw)
        except ValidationError as error:
            problems += _pydantic_problems(error, path)
            continue
        specs[name] = spec
        try:
            classes[name] = registry.get(spec.use)
        except UnknownStage as error:
            problems.append(Problem(f"{path}.use", str(error)))
            continue
        try:
            params[name] = classes[name].Params.model_validate(spec.params)
        except ValidationError as error:
            problems += _pydantic_problems(error, f"{path}.params", classes[name].Params)

    edges: dict[str, dict[str, list[tuple[str, str]]]] = {name: {} for name in specs}
    for name, spec in specs.items():
        cls = classes.get(name)
        for input_name, refs in spec.inputs.items():
            path = f"stages.{name}.inputs.{input_name}"
            if cls is not None and input_name not in cls.inputs:
                known = ", ".join(cls.inputs) or "none"
                problems.append(Problem(path, f"{cls.id} has no input '{input_name}' (inputs: {known})"))
                continue
            many = isinstance(refs, list)
            expected = cls.inputs[input_name] if cls is not None else None
            if many and expected is not None and typing.get_origin(expected) is not list:
                problems.append(
                    Problem(
                        path,
                        (
                            f"only a list input can take several outputs; '{input_name}' is "
                            f"{type_name(expected)}"
                        ),
                    )
                )
                continue
            edges[name][input_name] = []
            for n, ref in enumerate(refs if many else [refs]):
                where = f"{path}[{n}]" if many else path
                resolved = _resolve_ref(ref, declared, specs, classes, where, problems)
                if resolved is None:
                    continue
                edges[name][input_name].append(resolved)
                src, out = resolved
                if expected is not None and src in classes:
                    produced = classes[src].outputs[out]
                    if not compatible(produced, expected):
                        problems.append(
                            Problem(
                                where,
                                (
                                    f"{ref} is {type_name(produced)} but {cls.id} expects "
                                    f"{type_name(expected)} for '{input_name}'"
                                ),
                            )
                        )
        if cls is not None:
            for missing in (i for i in cls.inputs if i not in spec.inputs):
                problems.append(
                    Problem(
                        f"stages.{name}.inputs",
                        (
                            f"input '{missing}' ({type_name(cls.inputs[missing])}) is not "
                            f"connected; add {missing}: <stage>.<output>"
                        ),
                    )
                )

    output = _check_output(config.get("output"), declared, specs, classes, problems)
    levels, cycle = _levels(edges)
    if cycle:
        problems.append(Problem("stages", f"cycle: {' -> '.join(cycle)}; a recipe must be a DAG"))
    if problems:
        raise RecipeError(source, problems)

    return Plan(
        source=source,
        kind=kind,
        description=str(config.get("description", "")),
        stages={
            name: PlannedStage(
                name=name,
                stage_cls=classes[name],
                params=params[name],
                inputs=edges[name],
                timeout_s=spec.timeout_s if spec.timeout_s is not None else classes[name].timeout_s,
                on_error=spec.on_error or classes[name].on_error,
                enabled=spec.enabled,
            )
            for name, spec in specs.items()
        },
        levels=levels,
        output=output,  # type: ignore[arg-type]
        config=config,
    )


def _resolve_ref(
    ref: str,
    declared: list[str],
    specs: dict[str, StageSpec],
    classes: dict[str, type[Stage]],
    path: str,
    problems: list[Problem],
) -> tuple[str, str] | None:
    src, dot, out = str(ref).partition(".")
    if not dot or not src or not out:
        problems.append(Problem(path, f"'{ref}' must look like <stage>.<output>"))
        return None
    if src not in specs:
        if src not in declared:  # a declared stage with problems of its own is already reported
            problems.append(Problem(path, f"no stage named '{src}' (stages: {', '.join(declared)})"))
        return None
    if src in classes and out not in classes[src].outputs:
        outputs = ", ".join(classes[src].outputs)
        problems.append(
            Problem(
                path,
                f"stage '{src}' ({classes[src].id}) has no output '{out}' (outputs: {outputs})",
            )
        )
        return None
    return src, out


def _check_output(raw: Any, declared, specs, classes, problems) -> Any:
    """`<stage>.<output>`, a list of them (concatenated), or a mapping of names to either."""

    def refs(value: Any, path: str) -> list[tuple[str, str]] | None:
        many = value if isinstance(value, list) else [value]
        found = [
            _resolve_ref(
                v,
                declared,
                specs,
                classes,
                f"{path}[{n}]" if isinstance(value, list) else path,
                problems,
            )
            for n, v in enumerate(many)
        ]
        return None if None in found else found  # type: ignore[return-value]

    if raw is None or raw == "" or raw == {}:
        problems.append(
            Problem("output", "required: the <stage>.<output> the recipe returns, e.g. search.hits")
        )
        return None
    if isinstance(raw, dict):
        return {k: refs(v, f"output.{k}") for k, v in raw.items()}
    return refs(raw, "output")


def _levels(
    edges: dict[str, dict[str, list[tuple[str, str]]]],
) -> tuple[list[list[str]], list[str]]:
    """Stages grouped so each depends only on earlier groups; or a cycle if there is one."""
    deps = {name: {src for refs in ins.values() for src, _ in refs} for name, ins in edges.items()}
    levels: list[list[str]] = []
    done: set[str] = set()
    while len(done) < len(deps):
        ready = [n for n in deps if n not in done and deps[n] <= done]
        if not ready:
            return levels, _find_cycle({n: d - done for n, d in deps.items() if n not in done})
        levels.append(ready)
        done.update(ready)
    return levels, []


def _find_cycle(deps: dict[str, set[str]]) -> list[str]:
    start = next(iter(deps))
    seen: list[str] = []
    node = start
    while node not in seen:
        seen.append(node)
        node = sorted(deps[node])[0]
    cycle = seen[seen.index(node) :][::-1]  # deps point upstream; show the direction data flows
    first = min(cycle, key=list(deps).index)  # start where the recipe does, for a stable message
    cycle = cycle[cycle.index(first) :] + cycle[: cycle.index(first)]
    return [*cycle, cycle[0]]


def _ref_text(ref: Any) -> Any:
    if isinstance(ref, list):
        texts = [f"{src}.{out}" for src, out in ref]
        return texts[0] if len(texts) == 1 else texts
    if isinstance(ref, dict):
        return {k: _ref_text(v) for k, v in ref.items()}
    return ref


def _pydantic_problems(
    error: ValidationError, path: str, model: type[BaseModel] | None = None
) -> list[Problem]:
    problems = []
    for item in error.errors():
        where = ".".join([path, *(str(p) for p in item["loc"])])
        if item["type"] == "extra_forbidden":
            allowed = ", ".join(model.model_fields) if model is not None else ""
            message = f"unknown parameter (allowed: {allowed or 'none'})" if model else "unknown key"
        elif item["type"] == "missing":
            message = "required"
        elif item["type"] == "value_error":  # a validator's own words, without pydantic's prefix
            message = str(item.get("ctx", {}).get("error", item["msg"]))
        else:
            message = f"{item['msg']}, got {item['input']!r}"
        problems.append(Problem(where, message))
    return problems
