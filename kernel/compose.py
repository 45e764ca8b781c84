"""Turn a recipe file plus `key=value` overrides into one resolved, plain configuration.

Composition is Hydra's (defaults lists from configs/, overrides, `team=NAME` on top) through its
compose API, which neither changes the working directory nor writes output folders. Problems come
back as `Problem`s with the path of the key, so the caller can report them all at once.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import threading
import warnings
from pathlib import Path
from typing import Any

import yaml

from pica.kernel.errors import PicaError, Problem, RecipeError
from pica.kernel.files import write_atomically
from pica.kernel.paths import CONFIGS_DIR

# Hydra keeps its configuration in a process-wide singleton: one composition at a time.
_HYDRA_LOCK = threading.Lock()


def compose(
    recipe: Path,
    overrides: list[str],
    settings: dict[str, Any],
    config_dirs: list[Path],
    variables: dict[str, Any] | None = None,
    cache_dir: Path | None = None,
) -> dict[str, Any]:
    """The recipe with its defaults, overrides and team merged, every interpolation resolved.

    `overrides` follow Hydra's grammar (`k=5`, `stages.search.params.k=5`, `team=NAME`);
    `variables` are set verbatim afterwards, for values such as queries that must not be parsed.
    With `cache_dir`, Hydra's result (before variables and settings) is kept there, keyed by the
    recipe, its config files and the overrides: a repeated call skips Hydra, ~0.45 s of a CLI run.
    """
    problems = _check_yaml(recipe)
    if problems:
        raise RecipeError(str(recipe), problems)

    from omegaconf import OmegaConf
    from omegaconf.errors import OmegaConfBaseException

    _register_resolvers()
    search_path = [d for d in [*config_dirs, CONFIGS_DIR] if d.is_dir()]
    cached = _cache_path(cache_dir, recipe, overrides, search_path)
    if cached is not None and cached.exists():
        cfg = OmegaConf.create(cached.read_text(encoding="utf-8"))
    else:
        cfg = _hydra(recipe, overrides, search_path)
        if cached is not None:
            _write_cache(cached, OmegaConf.to_yaml(cfg))

    OmegaConf.set_struct(cfg, False)
    cfg.settings = {**settings, "recipe_dir": str(recipe.parent)}
    problems = []
    for key, value in (variables or {}).items():
        if not _has_key(cfg, key):
            problems.append(Problem(key, "not a variable of this recipe"))
        else:
            OmegaConf.update(cfg, key, _verbatim(value), merge=False)
    problems += [
        Problem(key, f"missing value; give it on the command line as {key}=...") for key in _missing_keys(cfg)
    ]
    if problems:
        raise RecipeError(str(recipe), problems)
    _SELECTIONS.asked = {}
    try:
        resolved = OmegaConf.to_container(cfg, resolve=True)
    except OmegaConfBaseException as error:
        key = getattr(error, "full_key", "") or ""
        message = str(error).splitlines()[0]
        problems = mistyped(recipe, overrides, config_dirs, cache_dir) or [Problem(key, message)]
        raise RecipeError(str(recipe), problems) from None
    problems = _unknown_selections(resolved)  # type: ignore[arg-type]
    if problems:
        raise RecipeError(str(recipe), problems)
    return resolved  # type: ignore[return-value]


def mistyped(
    recipe: Path, overrides: list[str], config_dirs: list[Path], cache_dir: Path | None = None
) -> list[Problem]:
    """Overrides giving text where the recipe's default is a number or true/false: what to tell
    when something computed from them fails (`k=abc` breaks `candidates`, which the user never set).
    Composes the recipe without overrides, so only call it once something has failed."""
    from omegaconf import OmegaConf

    given = [o.partition("=") for o in overrides if "=" in o and not o.startswith(("team=", "+", "~"))]
    if not given:
        return []
    search_path = [d for d in [*config_dirs, CONFIGS_DIR] if d.is_dir()]
    cached = _cache_path(cache_dir, recipe, [], search_path)
    if cached is not None and cached.exists():
        defaults = OmegaConf.create(cached.read_text(encoding="utf-8"))
    else:
        defaults = _hydra(recipe, [], search_path)
    problems = []
    for key, _, text in given:
        default = OmegaConf.select(defaults, key, default=None, throw_on_resolution_failure=False)
        try:
            value = yaml.safe_load(text)
        except yaml.YAMLError:
            value = text
        if isinstance(default, bool) and not isinstance(value, bool):
            problems.append(
                Problem(key, f"'{text}' is not true or false (the default is {str(default).lower()})")
            )
        elif isinstance(default, int) and not isinstance(default, bool) and type(value) is not int:
            problems.append(Problem(key, f"'{text}' is not a whole number (the default is {default})"))
        elif isinstance(default, float) and (isinstance(value, bool) or not isinstance(value, int | float)):
            problems.append(Problem(key, f"'{text}' is not a number (the default is {default})"))
    return problems


def _hydra(recipe: Path, overrides: list[str], search_path: list[Path]) -> Any:
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir
    from hydra.errors import HydraException
    from omegaconf.errors import OmegaConfBaseException

    hydra_overrides = [f"hydra.searchpath=[{','.join(f'file://{d}' for d in search_path)}]"]
    hydra_overrides += [_hydra_override(o) for o in overrides]
    try:
        with _HYDRA_LOCK, warnings.catch_warnings():
            warnings.simplefilter("ignore")  # Hydra's advice about `_self_` is noise here
            with initialize_config_dir(version_base=None, config_dir=str(recipe.parent)):
                return hydra_compose(config_name=recipe.stem, overrides=hydra_overrides)
    except (HydraException, OmegaConfBaseException) as error:
        raise RecipeError(str(recipe), [_hydra_problem(error, search_path)]) from None


def _cache_path(
    cache_dir: Path | None, recipe: Path, overrides: list[str], search_path: list[Path]
) -> Path | None:
    """Where a composition is cached: named by everything that can change its result."""
    if cache_dir is None:
        return None
    digest = hashlib.sha256()
    for path in [recipe, *sorted(f for d in search_path for f in d.rglob("*.yaml"))]:
        stat = path.stat()
        digest.update(f"{path}\0{stat.st_mtime_ns}\0{stat.st_size}\0".encode())
    digest.update("\0".join(overrides).encode())
    return cache_dir / f"{recipe.stem}-{digest.hexdigest()[:24]}.yaml"


def _write_cache(path: Path, text: str) -> None:
    with contextlib.suppress(OSError):  # a cache that cannot be written only costs time
        write_atomically(path, text)


def _register_resolvers() -> None:
    """Small arithmetic for recipes, ${max:200,${mul:5,${k}}}, and ${selected:kg,${sources}}: whether
    a name is in a list of chosen ones (an empty list chooses all)."""
    from omegaconf import OmegaConf

    if not OmegaConf.has_resolver("max"):
        OmegaConf.register_new_resolver("max", lambda *values: max(values))
        OmegaConf.register_new_resolver("mul", lambda a, b: a * b)
        OmegaConf.register_new_resolver("selected", _selected)


# The names each list of chosen ones was asked about while one composition resolved, so that a
# chosen name nothing asks about (a typo in --sources) is an error rather than silently nothing.
_SELECTIONS = threading.local()


def _selected(name: str, chosen: Any) -> bool:
    chosen = [str(c) for c in chosen]
    _SELECTIONS.asked.setdefault(tuple(chosen), set()).add(str(name))
    return not chosen or name in chosen


def _unknown_selections(resolved: dict[str, Any]) -> list[Problem]:
    problems = []
    for chosen, asked in getattr(_SELECTIONS, "asked", {}).items():
        key = next((k for k, v in resolved.items() if v == list(chosen)), "")
        problems += [
            Problem(key, f"'{name}' is not one of the choices ({', '.join(sorted(asked))})")
            for name in chosen
            if name not in asked
        ]
    return problems


def _has_key(cfg: Any, key: str) -> bool:
    """Whether a dotted key exists, even with the value `???` (which `in` would deny)."""
    from omegaconf import DictConfig, OmegaConf

    parent, _, last = key.rpartition(".")
    node = OmegaConf.select(cfg, parent, default=None) if parent else cfg
    return isinstance(node, DictConfig) and last in node.keys()  # noqa: SIM118 (`in node` denies keys set to ???)


def _missing_keys(cfg: Any, prefix: str = "") -> list[str]:
    """Keys whose value is `???`, found without resolving interpolations (which would raise)."""
    from omegaconf import DictConfig, OmegaConf

    missing = []
    for key in cfg:
        path = f"{prefix}{key}"
        node = cfg._get_node(key)
        if isinstance(node, DictConfig):
            missing += _missing_keys(node, f"{path}.")
        elif OmegaConf.is_missing(cfg, key):
            missing.append(path)
    return missing


def _verbatim(value: Any) -> Any:
    """A string OmegaConf will not interpolate (`${` escaped)."""
    return value.replace("${", "\\${") if isinstance(value, str) else value


def _check_yaml(recipe: Path) -> list[Problem]:
    """Plain YAML errors with a line number, before Hydra reports them less clearly."""
    try:
        data = yaml.safe_load(recipe.read_text(encoding="utf-8"))
    except OSError as error:
        raise PicaError(f"cannot read recipe {recipe}: {error.strerror}") from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        return [Problem("", f"not valid YAML: {where}{getattr(error, 'problem', error)}")]
    if not isinstance(data, dict):
        return [Problem("", "a recipe must be a YAML mapping (kind, stages, output, ...)")]
    return []


def _hydra_override(override: str) -> str:
    """`team=NAME` loads configs/team/NAME.yaml on top; a value Hydra cannot parse is a string."""
    key, sep, value = override.partition("=")
    if not sep:
        raise PicaError(f"override '{override}' must look like key=value")
    if key == "team":
        return f"+team@_global_={value}"
    from hydra.core.override_parser.overrides_parser import OverridesParser
    from hydra.errors import HydraException

    try:
        parsed = OverridesParser.create().parse_override(override)
        if not parsed.is_sweep_override():
            return override
    except HydraException:
        pass
    quoted = value.replace("\\", "\\\\").replace("'", "\\'")
    return f"{key}='{quoted}'"


def _hydra_problem(error: Exception, search_path: list[Path]) -> Problem:
    message = str(error).strip().splitlines()[0]
    missing = re.search(r"Could not find '([^/']+)/([^']+)'", message)
    if missing:
        group, option = missing.groups()
        options = sorted({p.stem for d in search_path for p in (d / group).glob("*.yaml")})
        where = "team" if group == "team" else "defaults"
        return Problem(where, f"no config {group}/{option}.yaml (available: {', '.join(options) or 'none'})")
    if "Could not override" in message:
        key = message.split("'")[1] if "'" in message else ""
        return Problem(key, f"not a key of this recipe (to add it anyway, write +{key}=...)")
    if "Could not find" in message or "Could not load" in message:
        return Problem("defaults", message)
    return Problem("", message)
