"""Literals handed to code rather than assigned: the fallback of a secret read from the
environment (`process.env.JWT_SECRET ?? '…'`) and machine-made literals among the arguments of a
call that takes credentials (`cohere.ClientV2("…")`). The keyed scan (keyed.py) judges values by
the name they are assigned to; these have no name of their own beside them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from pica.stages.secrets.keyed import (
    IDENTIFIER,
    PATH_LIKE,
    SECRET_NAME,
    UUID,
    keyed_value_is_secret,
    kind_of,
)
from pica.stages.secrets.verify import is_stand_in, random_enough, sequential_run

# A literal as the fallback of a secret read from the environment: `process.env.JWT_SECRET ?? '…'`,
# `os.getenv("API_KEY") or "…"`: the operator and the literal, then the name before them.
# One pattern per operator, each led by its literal: the engine searches for a leading literal fast.
FALLBACKS = [
    re.compile(operator + r"[ \t]+(?P<q>[\"'])(?P<quoted>(?:[^\"'\n\\]|\\.)+)(?P=q)")
    for operator in (r"\?\?", r"\|\|", r" or", r"\)[ \t]*\{")  # Ruby's ENV.fetch("X") { "…" }
]
FALLBACK_NAME = re.compile(r"(?P<name>[\w.$-]*(?i:" + SECRET_NAME + r")s?)[\"']?\]?\)?[ \t]*\Z")


def find_fallback(text: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, class) of each literal given as the fallback of a secret-named value."""
    for match in (match for fallback in FALLBACKS for match in fallback.finditer(text)):
        before = text[max(text.rfind("\n", 0, match.start()) + 1, match.start() - 80) : match.start()]
        named = FALLBACK_NAME.search(before)
        if named and keyed_value_is_secret(named["name"], "=", match["quoted"], match["q"]):
            yield match.start("quoted"), match.end("quoted"), kind_of(named["name"])


# A call that takes credentials: a client, session or credentials provider built, an auth method
# (lowercased text; `author(…)` is not one) or `access_token(…)`, then its arguments:
# `cohere.ClientV2("…")`, `pdpyras.APISession('…')`, Go's `NewStaticCredentialsProvider(id, "…",
# "")`, Ruby's `config.omniauth :github, ENV['GITHUB_KEY'], '…'` (arguments without parentheses).
CREDENTIAL_CALLS = [
    re.compile(word + r"\w*(?:\(|[ \t]+:\w)")  # each led by its word (see FALLBACKS)
    for word in ("client", "session", "credential", "auth(?!or)", "access_?token", "access_?key", "api_?key")
] + [re.compile(r"client\.(?:init|new\w*|create\w*|connect)\(")]  # `TwilioClient.Init(…)`
ARGUMENT_LITERAL = re.compile(r"(?<![\w\\])\\?([\"'])([A-Za-z0-9+/=_.:~-]{16,200})\\?\1")  # `\"` too


def machine_made(value: str) -> bool:
    """A literal no one typed: letters and digits mixed at random, not a URL, path, date or id,
    nor a name made of words and numbers (`meta-llama/Meta-Llama-3-8B-Instruct`, `host:8786`)."""
    if not (re.search(r"[A-Za-z]", value) and re.search(r"\d", value)) or UUID.match(value):
        return False
    parts = re.split(r"[^A-Za-z0-9]+", value)
    if all(part.isalpha() or part.isdigit() or len(part) <= 4 for part in parts):
        return False
    if "://" in value or PATH_LIKE.match(value) or re.match(r"\d{4}-\d\d-\d\d", value):
        return False
    if is_stand_in(value) or sequential_run(value) or IDENTIFIER.match(value):
        return False
    return random_enough(value) and random_enough(re.sub(r"[^A-Za-z0-9]", "", value))


def find_given_to_clients(text: str, lowered: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, class) of each machine-made literal among the arguments of a credential call,
    up to its closing parenthesis (or the line's end, without one), at most 300 characters on."""
    for call in (call for pattern in CREDENTIAL_CALLS for call in pattern.finditer(lowered)):
        depth, end, limit = 1, call.end(), min(len(text), call.end() + 300)
        bracketed = text[call.end() - 1] == "("
        while end < limit and depth:
            char = text[end]
            if bracketed:
                depth += (char == "(") - (char == ")")
            elif char == "\n":
                break
            end += 1
        for literal in ARGUMENT_LITERAL.finditer(text, call.end(), end):
            if machine_made(literal[2]):
                yield literal.start(2), literal.end(2), "generic_api_key"


def find_in_arguments(text: str, lowered: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, class) of each secret handed to code as a fallback or a credential call's argument."""
    yield from find_fallback(text)
    yield from find_given_to_clients(text, lowered)
