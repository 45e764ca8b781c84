"""Maps under a secret's plural name: YAML's `tokens:` with one entry per line below it
(NuVotifier's `tokens:` / `default: …`), JSON's `"secrets": { "github": "…" }`, TOML's `[secrets]`
table. An entry's name says what the secret is for (`default`, `github`, `staging`), not that it
is one; the section's name says so. Only machine-made values are taken (random, with a digit, 16
or more characters), or, under `passwords`, what a person types as one: a section holds ids,
names and paths too (Compose's `secrets:` lists `file: ./db_password.txt`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from pica.stages.secrets.keyed import NOT_SECRET_NAME, VALUE_KIND, keyed_value_is_secret
from pica.stages.secrets.verify import has_digit, random_enough

# The section names' last words, for the keyword automaton (lowercased text)
SECTION_WORDS = ("tokens", "secrets", "passwords", "credentials", "api_keys", "apikeys", "api-keys")
# What follows a section's name: a YAML map's colon and line end, a JSON object's opening, a TOML
# table's closing bracket
OPENS = re.compile(r"[\"']?[ \t]*(?::[ \t]*(?:#[^\n]*)?\r?\n|:[ \t]*\{|\][ \t]*\r?\n)")
# What may precede the name on its line: indentation, a JSON quote, a TOML table's dotted path
LEAD = re.compile(r"[ \t]*(?:[\"']|\[(?:[\w-]+\.)*)?[\w-]*\Z")
# An entry: `name: value`, `"name": "value"`, `name = "value"`
ENTRY = re.compile(
    r"[ \t]*[\"']?(?P<name>[\w.@-]{1,64})[\"']?[ \t]*[:=][ \t]*"
    r"(?:(?P<q>[\"'])(?P<quoted>[^\"'\n]{3,300})(?P=q)|(?P<bare>[^\s\"'#,{}\[\]]{3,300}))"
    r"[ \t]*,?[ \t]*(?:#[^\n]*)?$"
)
NOT_AN_ENTRY_NAME = re.compile(
    r"(?i)^(?:name|user(?:name)?|login|email|region|file|path|id|type|mount\w*|key_?id)$"
)


def find_in_sections(text: str, lowered: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, class) of each machine-made value in a map under a secret's plural name."""
    for word in SECTION_WORDS:
        at = lowered.find(word)
        while at != -1:
            end = at + len(word)
            line_start = lowered.rfind("\n", 0, at) + 1
            opened = OPENS.match(lowered, end)
            if opened and LEAD.match(lowered, line_start, at):
                yield from entries(text, line_start, opened.end(), word)
            at = lowered.find(word, end)


def entries(text: str, line_start: int, body: int, word: str) -> Iterator[tuple[int, int, str]]:
    """The secret entries of the section whose name's line starts at `line_start`, its body at
    `body`: the lines indented deeper (YAML), up to the object's close (JSON) or the next table (TOML)."""
    indent = len(text[line_start:]) - len(text[line_start:].lstrip(" \t"))
    json_object = text[body - 1] == "{"
    toml_table = text[line_start:body].lstrip().startswith("[")
    end = text.find("}", body) if json_object else len(text)
    for line in re.finditer(r"[^\n]*", text[body : end if end != -1 else len(text)]):
        line_text = line.group()
        if not line_text.strip():
            continue
        depth = len(line_text) - len(line_text.lstrip(" \t"))
        if toml_table and line_text.lstrip().startswith("["):
            return
        if not json_object and not toml_table and depth <= indent:
            return
        entry = ENTRY.match(line_text)
        if entry is None or NOT_AN_ENTRY_NAME.match(entry["name"]) or NOT_SECRET_NAME.search(entry["name"]):
            continue
        if VALUE_KIND.search(entry["name"]):
            continue
        group = "quoted" if entry["quoted"] is not None else "bare"
        value = entry[group]
        if value_is_secret(word, value, entry["q"] or ""):
            start = body + line.start() + entry.start(group)
            yield start, start + len(value), "generic_password" if word == "passwords" else "generic_api_key"


def value_is_secret(word: str, value: str, quote: str) -> bool:
    """A machine-made value; under `passwords`, a password as a person types one."""
    if word == "passwords":
        return keyed_value_is_secret("password", "=", value, quote or '"')
    machine_made = len(value) >= 16 and random_enough(value) and has_digit(value)
    return machine_made and keyed_value_is_secret("api_key", "=", value, quote)
