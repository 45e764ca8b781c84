"""The MCP server: the tools of a tool set (recipes/mcp/*.yaml), over streamable HTTP or stdio.

One process serves every client: the tools share one stage cache, so a model or an index handle
loads once, on the first call that needs it. Beside /mcp, `POST /pica/run` runs a search recipe
with the same caches and answers plain JSON: how a fresh `pica search` answers warm (pica/cli/remote.py).
"""

from __future__ import annotations

import difflib
import functools
import inspect
import json
from typing import Annotated, Any, get_args, get_origin

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

from pica import __version__
from pica.cli import remote
from pica.kernel.errors import PicaError
from pica.kernel.settings import Settings
from pica.mcp.instructions import about, instructions, overview
from pica.mcp.tools import TOOLS, Hits, Tools
from pica.mcp.toolsets import Toolset, load_toolset

NAME = "pica"


def tool_parameters() -> dict[str, set[str]]:
    return {name: set(inspect.signature(getattr(Tools, name)).parameters) - {"self"} for name in TOOLS}


class Server(MCPServer):
    """The SDK's server, strict about arguments: an unknown one is refused with the valid ones (the
    SDK would drop it unread), and a bad value is told in one plain sentence per problem, in the
    terms of the tool's schema (the SDK passes on pydantic's report, with its links and types)."""

    about: dict[str, Any] = {}  # what its instructions were built from (pica/mcp/instructions.py)

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        schema = next((t.input_schema for t in await self.list_tools() if t.name == name), None)
        if schema is not None and (problems := unknown_arguments(name, arguments, schema)):
            raise ToolError("\n".join(problems))
        try:
            return await super().call_tool(name, arguments, context)
        except UnexpectedToolError:
            raise
        except ToolError as error:
            if isinstance(error.__cause__, ValidationError):
                raise ToolError("\n".join(argument_problems(error.__cause__, schema or {}))) from None
            if isinstance(error.__cause__, ToolError):  # a Pica error, without the SDK's prefix
                raise ToolError(str(error.__cause__)) from None
            raise

    async def run_stdio_on(self, stdin: Any, stdout: Any) -> None:
        """`run_stdio_async` on given streams: async iterables of lines in, `write`/`flush` out."""
        from mcp.server.stdio import stdio_server

        async with stdio_server(stdin, stdout) as (read_stream, write_stream):
            lowlevel = self._lowlevel_server
            await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())


def build_server(toolset_name: str = "default", settings: Settings | None = None) -> Server:
    settings = settings or Settings()
    toolset = load_toolset(toolset_name, tool_parameters(), settings)
    tools = Tools(settings, toolset.tools)
    offered = _available(toolset, tools)
    known = about(tools, offered, toolset)
    server = Server(NAME, version=__version__, instructions=instructions(known, overview(settings)))
    server.about = known
    for name in offered:
        method, spec = getattr(tools, name), toolset.tools[name]
        description = inspect.cleandoc(spec.description or method.__doc__ or "")
        server.add_tool(
            _with_defaults(method, spec.defaults),
            name=name,
            title=TITLES[name],
            description=description,
            annotations=annotations(name, settings),
        )
    server.custom_route(remote.PATH, methods=["POST"])(run_route(tools))
    from pica.ui.routes import add_routes  # the browser UI, /ui/ (Jinja2 loads on its first page)

    add_routes(server, tools)
    return server


# Clients decide by these whether a call needs the user's approval (codex exec runs read-only tools
# under its default policy and refuses the rest), so they must be true of each tool.
TITLES = {
    "search": "Search everything",
    "get": "Read a document or its lines",
    "similar": "Documents like this one",
    "recent": "Latest transcript messages",
    "session": "A whole agent session",
    "list_sessions": "Agent sessions",
    "stats": "Index statistics",
    "status": "Collections and their state",
    "reindex": "Index what changed",
    "deepweb": "Search and read the web",
    "summarize": "Summarize a session (local model)",
}
CHANGES_THE_INDEX = {"reindex"}
ANSWER_VARIES = {"deepweb", "summarize"}  # the web changes; a model's draft is not repeatable


def annotations(tool: str, settings: Settings) -> ToolAnnotations:
    """What a tool does to the world: only `reindex` writes (the index, never the user's files);
    `deepweb` reaches the web, and `search` too when a web endpoint is configured."""
    web = tool == "deepweb" or (tool == "search" and bool(settings.web_url))
    return ToolAnnotations(
        title=TITLES[tool],
        read_only_hint=tool not in CHANGES_THE_INDEX,
        destructive_hint=False,
        idempotent_hint=tool not in ANSWER_VARIES,
        open_world_hint=web,
    )


def unknown_arguments(tool: str, arguments: dict[str, Any], schema: dict[str, Any]) -> list[str]:
    """One sentence per argument the tool does not take, naming those it does."""
    valid = list(schema.get("properties", {}))
    problems = []
    for name in (a for a in arguments if a not in valid):
        if not valid:
            problems.append(f"{tool} takes no arguments; leave out `{name}`.")
            continue
        close = difflib.get_close_matches(name, valid, n=1)
        hint = f" (did you mean `{close[0]}`?)" if close else ""
        problems.append(f"{tool} has no argument `{name}`{hint}; its arguments are {', '.join(valid)}.")
    return problems


BOUNDS = {"greater_than_equal": ("at least", "ge"), "less_than_equal": ("at most", "le"),
          "greater_than": ("more than", "gt"), "less_than": ("less than", "lt")}  # fmt: skip
JSON_TYPES = {"string": "a string", "integer": "an integer", "number": "a number", "boolean": "true or false",
              "object": "an object", "array": "an array", "null": "null"}  # fmt: skip


def argument_problems(error: ValidationError, schema: dict[str, Any]) -> list[str]:
    """Pydantic's report on a tool's arguments as one plain sentence per argument."""
    properties = schema.get("properties", {})
    problems: dict[str, str] = {}
    for e in error.errors(include_url=False):
        name = str(e["loc"][0]) if e["loc"] else ""
        where, expected = f"`{name}`", properties.get(name, {})
        items = [part for part in e["loc"][1:] if isinstance(part, int)]
        if items:
            where, expected = f"item {items[0] + 1} of `{name}`", _items(expected)
        kind, ctx, given = e["type"], e.get("ctx", {}), json.dumps(e.get("input"), default=str)
        if kind == "missing":
            problem = f"{where} is required."
        elif kind == "string_too_short":
            problem = f"{where} must not be empty."
        elif kind in BOUNDS:
            words, bound = BOUNDS[kind]
            problem = f"{where} must be {words} {ctx[bound]}, not {given}."
        else:
            problem = f"{where} must be {_expected(expected)}, not {given}."
        problems.setdefault(name, problem)
    return list(problems.values())


def _expected(schema: dict[str, Any]) -> str:
    """What a JSON schema accepts, in words: "an array of strings or null"."""
    if "anyOf" in schema:
        return " or ".join(_expected(s) for s in schema["anyOf"])
    if "enum" in schema:
        return "one of " + ", ".join(map(str, schema["enum"]))
    item = schema.get("items", {}).get("type")
    if schema.get("type") == "array" and item in JSON_TYPES:
        return f"an array of {item}s" if item not in ("boolean", "null") else "an array"
    return JSON_TYPES.get(schema.get("type", ""), "a valid value")


def _items(schema: dict[str, Any]) -> dict[str, Any]:
    arrays = [s for s in schema.get("anyOf", [schema]) if s.get("type") == "array"]
    return arrays[0].get("items", {}) if arrays else {}


class NotSearch(Exception):
    """A recipe /pica/run will not run: only search recipes answer there."""


def run_route(tools: Tools) -> Any:
    """The /pica/run endpoint: {"recipe", "variables", "home", "env", "render"} -> {"hits",
    "warnings", "notes", "home"[, "text"]}. 400: a bad request, a recipe not of kind search, or a
    Pica error (its message, as a run here would print it); 409: the caller has another home or
    other settings, so its own run could differ."""
    home = remote.resolved(tools.settings.home)
    env = remote.fingerprint()  # what this process's settings came from
    configs = [_configs_seen(tools)]

    async def run(request: Any) -> Any:
        import anyio.to_thread

        refused = _refused(request)
        if refused:
            return _answer(400, {"error": refused, "error_type": "bad-request"})
        try:
            asked = json.loads(await request.body())
            recipe, variables, render = asked["recipe"], asked.get("variables") or {}, asked.get("render")
            if not isinstance(recipe, str) or not isinstance(variables, dict):
                raise TypeError
        except (ValueError, KeyError, TypeError):
            error = 'expected JSON {"recipe": "search/NAME", "variables": {...}}'
            return _answer(400, {"error": error, "error_type": "bad-request"})
        if asked.get("home") is not None and remote.resolved(asked["home"]) != home:
            return _answer(409, {"error": f"this server serves {home}", "home": home})
        if asked.get("env") is not None and asked["env"] != env:
            return _answer(409, {"error": "this server runs with other PICA_ settings", "home": home})
        try:
            ran = functools.partial(_run_search, tools, recipe, variables, render, configs)
            answer = await anyio.to_thread.run_sync(ran)
        except NotSearch as error:
            return _answer(400, {"error": str(error), "error_type": "not-search"})
        except PicaError as error:
            return _answer(400, {"error": str(error), "error_type": "PicaError"})
        return _answer(200, {**answer, "home": home})

    return run


def _run_search(
    tools: Tools, recipe: str, variables: dict[str, Any], render: Any, configs: list[Any]
) -> dict[str, Any]:
    """Run a search recipe as `runner.run` would, with the server's plan and stage caches."""
    from pica.kernel import runner
    from pica.kernel.executor import execute
    from pica.kernel.records import to_plain
    from pica.kernel.stage import Context

    seen = _configs_seen(tools)
    if seen != configs[0]:  # a recipe or config file changed: compose afresh, as a new process would
        configs[0], tools.plans = seen, runner.PlanCache(tools.settings)
    plan = tools.plans.get(recipe, variables)
    if plan.kind != "search":
        raise NotSearch(f"{recipe} is a recipe of kind {plan.kind}: only search recipes run here")
    result = execute(plan, Context(settings=tools.settings), tools.cache)
    answer = {"hits": to_plain(result.output), "warnings": result.warnings, "notes": result.notes}
    if isinstance(render, dict) and isinstance(result.output, list):
        from pica.cli.render import render_hits

        answer["text"] = render_hits(result.output, bool(render.get("show_fields")))
    return answer


def _configs_seen(tools: Tools) -> frozenset[tuple[str, int, int]]:
    """Each recipe and config file plans are composed from (bundled, and the home's), as of now."""
    from pica.kernel.paths import config_files, stamps

    return frozenset(stamps(config_files(tools.settings.home)))


def _refused(request: Any) -> str:
    """Why a request may not run here: a browser page could post to a local port, so the body
    must be JSON (a cross-site page cannot send that without asking) and any Origin local."""
    from urllib.parse import urlsplit

    if not request.headers.get("content-type", "").lower().startswith("application/json"):
        return "Content-Type must be application/json"
    origin = request.headers.get("origin")
    if origin and urlsplit(origin).hostname not in ("127.0.0.1", "localhost", "::1"):
        return f"requests from {origin} are not accepted"
    return ""


def _answer(status: int, body: dict[str, Any]) -> Any:
    from starlette.responses import Response

    text = json.dumps(body, ensure_ascii=False, default=str)
    return Response(text.encode(), status_code=status, media_type="application/json")


def _available(toolset: Toolset, tools: Tools) -> list[str]:
    """The tool set's tools that can work here (deepweb needs a web search endpoint)."""
    return [name for name in toolset.tools if name != "deepweb" or _web_configured(tools)]


def _web_configured(tools: Tools) -> bool:
    from pica.kernel import runner

    plan = runner.plan(tools.recipe("deepweb"), settings=tools.settings, variables={"query": "x"})
    return bool(plan.config.get("providers", {}).get("web", {}).get("url"))


def _with_defaults(method: Any, defaults: dict[str, Any]) -> Any:
    """The tool with the tool set's defaults in its signature (so they show in its schema) and,
    with its limits, in each parameter's description (Codex gives its model only descriptions);
    its Pica errors (a bad filter, no such session) come back as tool errors with their message,
    and its result as compact JSON."""
    signature = inspect.signature(method)
    parameters = []
    for p in signature.parameters.values():
        p = p.replace(default=defaults[p.name]) if p.name in defaults else p
        parameters.append(p.replace(annotation=_described(p.annotation, p.default)))

    @functools.wraps(method)
    def tool(**arguments: Any) -> Any:
        try:
            return _result(method(**arguments))
        except PicaError as error:  # the caller's mistake, told plainly; anything else is a crash
            raise ToolError(str(error)) from None

    tool.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    return tool


def _described(annotation: Any, default: Any) -> Any:
    """`Annotated[T, Field(description=...)]` with its bounds and default added to the description:
    "How many results (1 to 100; default 10)." Unset defaults ("", None, []) go unsaid: each such
    parameter's description says what leaving it out means."""
    if get_origin(annotation) is not Annotated:
        return annotation
    kind, field, *rest = get_args(annotation)
    if not isinstance(field, FieldInfo) or not field.description:
        return annotation
    bounds = {type(m).__name__: m for m in field.metadata}
    said = []
    if "Ge" in bounds and "Le" in bounds:
        said.append(f"{bounds['Ge'].ge} to {bounds['Le'].le}")
    elif "Ge" in bounds:
        said.append(f"{bounds['Ge'].ge} or more")
    if default is inspect.Parameter.empty:
        said.append("required" + (", not empty" if "MinLen" in bounds else ""))
    elif default not in (None, "", []):
        said.append(f"default {json.dumps(default)}")
    if not said:
        return annotation
    described = FieldInfo.merge_field_infos(
        field, description=f"{field.description.rstrip('.')} ({'; '.join(said)})."
    )
    return Annotated[(kind, described, *rest)]  # type: ignore[valid-type]


def _result(result: Any) -> Any:
    """A tool's model as the SDK's result: hits without the fields they leave out (compact ones),
    and the text copy as compact JSON (the SDK's is indented: a fifth more to read)."""
    if not isinstance(result, BaseModel):
        return result
    data = result.model_dump(mode="json")
    if isinstance(result, Hits):
        data["hits"] = [{k: v for k, v in hit.items() if v is not None} for hit in data["hits"]]
        if data.get("tokens") is None:
            data.pop("tokens", None)
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)
