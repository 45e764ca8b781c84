"""The `pica` command. Heavy libraries load inside commands, so `pica --help` answers at once."""

from __future__ import annotations

import contextlib
import json
import os
import sys

import click


class PicaGroup(click.Group):
    """Prints user errors as one clear message, and tracebacks only with PICA_DEBUG=1."""

    def main(self, *args, **kwargs):  # type: ignore[override]
        from pica.kernel.errors import PicaError

        try:
            return super().main(*args, standalone_mode=False, **kwargs)
        except click.exceptions.Exit as done:
            sys.exit(done.exit_code)
        except click.ClickException as error:
            error.show()
            sys.exit(error.exit_code)
        except (click.exceptions.Abort, KeyboardInterrupt):
            _interrupted()
        except PicaError as error:
            if _debug():
                raise
            click.echo(f"error: {error}", err=True)
            sys.exit(2)
        except Exception as error:
            if _debug():
                raise
            click.echo(f"error: {type(error).__name__}: {error}", err=True)
            click.echo("(set PICA_DEBUG=1 to see the traceback)", err=True)
            sys.exit(1)

    def invoke(self, ctx: click.Context):  # type: ignore[override]
        """The command, then its opt-in telemetry event (pica/telemetry.py; off by default)."""
        import time

        started, failure = time.monotonic(), None
        try:
            return super().invoke(ctx)
        except click.exceptions.Exit as done:
            failure = None if done.exit_code == 0 else done
            raise
        except BaseException as error:
            failure = error
            raise
        finally:
            from pica import telemetry

            telemetry.record(ctx.invoked_subcommand or "other", time.monotonic() - started, failure)


STOP_WAIT_S = 30.0  # how long Ctrl-C waits for running stages to stop; a second Ctrl-C stops waiting


def _interrupted() -> None:
    """Exit 130 once the run's stages, told to stop, have stopped: they keep what they were
    committing, and Python shutting down while one is inside native code (torch) would abort
    ("terminate called without an active exception"). One that does not stop in time (or a
    second Ctrl-C) is left behind by an exit without shutdown; every write is atomic."""
    import threading
    import time

    click.echo("interrupted", err=True)
    stages = [t for t in threading.enumerate() if t.name.startswith("pica-stage-")]

    def wait(seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        for thread in stages:
            thread.join(max(0.0, deadline - time.monotonic()))
        return not any(thread.is_alive() for thread in stages)

    try:
        if not wait(1.0):
            click.echo("waiting for the running stages to stop (Ctrl-C again: quit now)", err=True)
            wait(STOP_WAIT_S)
    except KeyboardInterrupt:
        pass
    if any(thread.is_alive() for thread in stages):
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(130)
    sys.exit(130)


def _debug() -> bool:
    return os.environ.get("PICA_DEBUG", "").lower() in ("1", "true", "yes")


@click.group(cls=PicaGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pica")
def main() -> None:
    """Pica: local-first federated search for AI agents.

    Every job is a YAML recipe of stages; `pica run` runs one.
    """


@main.command(context_settings={"ignore_unknown_options": True})
@click.argument("recipe")
@click.argument("overrides", nargs=-1, type=click.UNPROCESSED)
@click.option("--dry-run", is_flag=True, help="Print the resolved plan; run nothing.")
@click.option("--print-config", is_flag=True, help="Print the composed configuration; run nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def run(recipe: str, overrides: tuple[str, ...], dry_run: bool, print_config: bool, as_json: bool) -> None:
    """Run RECIPE (a .yaml path or a bundled name like search/lexical).

    OVERRIDES are key=value: recipe variables (query="...", path=DIR, k=5), any key
    (stages.search.params.k=5), or team=NAME to apply configs/team/NAME.yaml on top.
    """
    from pica.cli import render
    from pica.kernel import runner
    from pica.kernel.records import to_plain
    from pica.kernel.settings import Settings

    settings = Settings()
    plan = runner.plan(recipe, list(overrides), settings)
    if dry_run or print_config:
        if print_config:
            import yaml

            click.echo(yaml.safe_dump(plan.config, sort_keys=False, allow_unicode=True).rstrip())
        if dry_run:
            click.echo(json.dumps(plan.to_dict(), indent=2) if as_json else render.render_plan(plan))
        return
    from pica.cli.progress import Progress

    with contextlib.nullcontext() if as_json else Progress() as progress:  # bars end before the output
        result = runner.execute_plan(plan, settings, progress=progress)
    output = result.output
    if as_json:
        # A search answers as `pica search --json` and MCP do: {hits, warnings, notes[, tokens]}.
        if plan.kind == "search" and isinstance(output, list):
            budget = plan.config.get("budget")
            tokens = render.hits_tokens(output, settings.tokenizer) if budget else None
            payload = render.hits_payload(output, result.warnings, result.notes, tokens)
        elif plan.kind == "search" and isinstance(output, dict) and "hits" in output:
            payload = {**to_plain(output), "warnings": result.warnings, "notes": result.notes}
        else:
            payload = {"output": to_plain(output), "warnings": result.warnings, "notes": result.notes}
        click.echo(json.dumps(payload, indent=2, ensure_ascii=False, default=str))
        return
    click.echo(render.render_output(output))
    for warning in result.warnings:
        click.echo(f"warning: {warning}", err=True)
    for note in result.notes:
        click.echo(f"note: {note}", err=True)


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def stages(as_json: bool) -> None:
    """List every stage id with its description and params, and plugins that failed to load."""
    from pica.kernel.registry import registry

    found = registry.all()
    if as_json:
        click.echo(
            json.dumps(
                {
                    "stages": {
                        sid: {
                            "description": cls.description(),
                            "params": cls.Params.model_json_schema().get("properties", {}),
                        }
                        for sid, cls in found.items()
                    },
                    "failures": registry.failures,
                },
                indent=2,
            )
        )
        return
    for sid, cls in found.items():
        click.echo(f"{sid}  {cls.description()}")
        for name, field in cls.Params.model_fields.items():
            default = "required" if field.is_required() else f"default {field.default!r}"
            about = f" — {field.description}" if field.description else ""
            click.echo(f"    {name}: {_annotation(field.annotation)} ({default}){about}")
    for name, why in registry.failures.items():
        click.echo(f"failed to load {name}: {why}", err=True)


@main.command()
def recipes() -> None:
    """List the bundled recipes."""
    import yaml

    from pica.kernel.paths import RECIPES_DIR, bundled_recipes

    for path in bundled_recipes():
        about = (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("description", "")
        click.echo(f"{path.relative_to(RECIPES_DIR).with_suffix('')}  {about}")


def _annotation(annotation: object) -> str:
    text = getattr(annotation, "__name__", None) or str(annotation)
    return text.replace("typing.", "")


# The other command groups register themselves on `main` when imported.
from pica.cli import collections, schedule, search, serve, summarize, telemetry, transcripts, ui, watch  # noqa: E402, F401
