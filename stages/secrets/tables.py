"""Tables with a password column: a password manager's CSV export (Chrome, Firefox, Bitwarden,
1Password, LastPass), a spreadsheet, or a wiki's table (Markdown, Confluence, MediaWiki, HTML,
LaTeX) whose header names a column "Password": each row's cell in that column is a password. A
two-cell row whose first cell is "password" (a Markdown `| key | value |` table) holds one too.
A table inside a JSON string (a tool's output in a transcript) is read inside that string. A
column named for a secret rather than a password (`Key Secret`) holds random machine-made cells.
SQL's `INSERT INTO t (…, password, …) VALUES (…)` is a table too: its rows are read by the columns
it names (`find_in_inserts`).

Cells are judged as passwords a person wrote down: a remark (`(SSO)`, `n/a`, `LDAP account`,
`uses passkey`) is no password, nor is a word alone or a placeholder.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from pica.stages.secrets.keyed import keyed_value_is_secret
from pica.stages.secrets.verify import is_stand_in, random_enough, random_letters

# The words of a column's name that says it holds passwords, in the languages the prose rules know;
# the keyword automaton in __init__.py finds them in a long text, to find header lines (a hit inside a
# longer word, the `pin` of `mapping`, is skipped)
HEADER_WORDS = (
    "password", "passwd", "passwort", "kennwort", "pwd", "mot de passe", "contraseña", "senha", "wachtwoord",
    "hasło", "пароль", "密码", "密碼", "パスワード", "비밀번호", "pincode", "pin", "passcode", "secret",
    "cleartext", "cracked",  # (a cracker's or a capture's table)
    # (a query's `host user pass`; keys' and tokens' columns: not "token" alone, which an agent's
    # transcript holds thousands of times)
    "pass", "auth token", "access token", "api token", "api key", "app_key", "api_key",
    "psk", "pre-shared key",  # (a Wi-Fi's or a VPN's key)
)  # fmt: skip
# A column's name: those words, or `pin code`, perhaps after others (`login_password`, `BIOS password`)
# (or glued on in camelCase: `InitialPassword`, `RecoveryPassword`)
HEADER = re.compile(
    r"(?i)(?:[\w .-]*[ _.-]|(?-i:[A-Za-z]*[a-z](?=P)))?(?:"
    + "|".join(sorted({word.strip() for word in (*HEADER_WORDS, "pin code")}))
    + ")"
)
HEADER_WORD = re.compile("|".join(HEADER_WORDS))
# A column of secrets that people do not choose (`Key Secret`, `client_secret`): its cells are random
MACHINE_MADE = re.compile(r"(?i)secret$|token$|(?:api|app)[ _]?key$")
NOT_A_COLUMN = re.compile(r"(?i)hash|hint|policy|changed|reset|expir|length|age|last|date|strength|required")
DELIMITERS = ("\t", ",", ";")
NAME = re.compile(r"[^\W_][\w .'/-]{0,39}")  # a column's name
# a separator row: `|---|---|`, MediaWiki's `|-`, LaTeX's `\midrule`, an HTML row's start
SEPARATOR_ROW = re.compile(
    r"\s*(?:[|+]?[\s:|+-]*-[\s:|+-]*|\|-.*|\\(?:mid|top|bottom)rule|</?t(?:r|able|body|head)>)"
)
# A table inside a JSON string (`{"content": "name,url,username,password\n…"}`, its escapes read)
# starts after the string's opening quote and ends at its closing one; in the view that reads escaped
# quotes (`\\"url\\",\\"password\\"`), the string's own quotes are NUL.
JSON_OPENING = re.compile(r'\s*(?:[{\[,]\s*)*(?:"[\w.-]+"\s*:\s*"|\0(?:[\w.-]+\0\s*:\s*\0)?)')
STRING_END = re.compile(r'(?<!\\)"')
MARKUP = re.compile(
    r"^(?:\\texttt\{(.*)\}|`(.*)`|\*\*(.*)\*\*|<code>(.*)</code>|=(.*)=|~(.*)~|_(.*)_|''(.*)'')$"
)


def cells(line: str) -> tuple[str, list[tuple[int, int]]] | None:
    """The table syntax of a line and its cells' spans in it, or None when it is no table row."""
    if "<td" in line or "<th" in line:
        return "html", [m.span(1) for m in re.finditer(r"<t[dh][^>]*>(.*?)</t[dh]>", line)]
    stripped = line.strip()
    if stripped.startswith(("|", "!")) and not stripped.startswith("|-"):
        separator = r"\|\||!!" if ("||" in stripped or "!!" in stripped) else r"\|"
        return "pipe", spans_between(line, separator, r"^\s*(?:\|\||\||!)\s*|\s*(?:\|\||\|)?\s*$")
    if "&" in line and line.rstrip().endswith("\\\\"):
        return "latex", spans_between(line, r"&", r"\s*\\\\\s*$")
    for separator in DELIMITERS:
        if separator in line:
            return separator, delimited(line, separator)
    return None


def spans_between(line: str, separator: str, trim: str) -> list[tuple[int, int]]:
    """The spans of the parts of `line` between separators, after `trim`'s matches are cut."""
    start, end = 0, len(line)
    for match in re.finditer(trim, line):
        if match.start() == 0:
            start = match.end()
        elif match.end() == len(line):
            end = match.start()
    out, at = [], start
    for match in re.finditer(separator, line[:end]):
        if match.start() >= start:
            out.append((at, match.start()))
            at = match.end()
    out.append((at, end))
    return [strip(line, s, e) for s, e in out]


def delimited(line: str, separator: str) -> list[tuple[int, int]]:
    """A CSV or TSV line's fields, a quoted field without its quotes."""
    out, at = [], 0
    while at <= len(line):
        if line.startswith('"', at):
            close = at + 1
            while (close := line.find('"', close)) != -1 and line.startswith('""', close):
                close += 2
            if close == -1:
                return out
            out.append((at + 1, close))
            at = line.find(separator, close)
        else:
            end = line.find(separator, at)
            out.append(strip(line, at, len(line) if end == -1 else end))
            at = end
        if at == -1:
            break
        at += 1
    return out


def strip(line: str, start: int, end: int) -> tuple[int, int]:
    while start < end and line[start].isspace():
        start += 1
    while end > start and line[end - 1].isspace():
        end -= 1
    return start, end


# A cell that says where the password is kept: `1Password → "Staging / Grafana"`, `in Vault`
STORED_ELSEWHERE = re.compile(
    r"(?i)\b(?:1password|bitwarden|keepass(?:xc)?|lastpass|dashlane|keeper|vault)\b|→|->"
)


def is_password(cell: str) -> bool:
    """A password a person wrote in a table: not a remark, a word alone or a placeholder."""
    if (
        "(" in cell
        or cell.startswith(("[", "{"))
        or STORED_ELSEWHERE.search(cell)
        or re.fullmatch(r"[-\u2014\u2013]+|n/?a|none|[A-Z]{2,5}|\W*", cell, re.I)
    ):
        return False
    if len(cell.split()) >= 3 and re.fullmatch(r"[^\W\d_]+(?:[,;.:'()-]?\s*[^\W\d_]*)*[.)]?", cell):
        return False  # a remark of words, "sealed envelope, fire safe"; `Blue moon rising!` stays
    signed = re.search(r"[\d\W]", cell.replace(" ", "")) is not None  # `_` joins the words of a name
    if " " in cell and not signed:
        return False  # `SSO via Okta`, `customer keeps it`; a passphrase with a digit or a sign stays
    if not (signed or random_letters(cell)):
        return False  # a word or a name (`require_numbers`, `ADConnector`)
    return keyed_value_is_secret("password", "=", cell, '"')


def is_random(cell: str) -> bool:
    """A machine-made secret: 16 or more characters without spaces, random, no stand-in."""
    return len(cell) >= 16 and not re.search(r"\s", cell) and random_enough(cell) and not is_stand_in(cell)


def unwrapped(line: str, start: int, end: int) -> tuple[int, int]:
    """A cell's span without its markup: LaTeX's \\texttt{…}, Markdown's `…` or **…**, org's =…=."""
    match = MARKUP.match(line[start:end])
    if match is None:
        return start, end
    group = next(g for g in range(1, 9) if match.group(g) is not None)
    return start + match.start(group), start + match.end(group)


def inside_string(text: str, line_start: int, header: int) -> tuple[int, int]:
    """Where a table whose header line starts at `line_start` starts and ends: inside the JSON
    string opened before its `header` word if one is, else the line's start and the text's end."""
    opening = JSON_OPENING.match(text, line_start, header)
    if opening is None:
        return line_start, len(text)
    if text[opening.end() - 1] == "\0":
        close = text.find("\0", opening.end())
    else:
        match = STRING_END.search(text, opening.end())
        close = match.start() if match else -1
    return opening.end(), len(text) if close == -1 else close


def find_in_tables(
    text: str, lowered: str, starts: Iterable[int] | None = None
) -> Iterator[tuple[int, int, str]]:
    """(start, end, class) of each password in a table's password column; `starts`, where header
    words start if known."""
    done = 0
    hits = (
        HEADER_WORD.finditer(lowered) if starts is None else (HEADER_WORD.match(lowered, at) for at in starts)
    )
    for hit in hits:
        if hit is None or hit.start() < done:
            continue
        if lowered[hit.start() - 1 : hit.start()].isalnum() and not text[hit.start()].isupper():
            continue  # inside a word (but camelCase's `InitialPassword` is two)
        after = lowered[hit.end() : hit.end() + 2].removeprefix("s")
        if after[:1].isalnum() and hit.group().isascii():
            continue
        line_start = text.rfind("\n", 0, hit.start()) + 1
        line_end = text.find("\n", hit.start())
        line_end = len(text) if line_end == -1 else line_end
        line_start, limit = inside_string(text, line_start, hit.start())
        line_start += text.startswith("\ufeff", line_start)  # a spreadsheet's byte order mark
        line_end = min(line_end, limit)
        done = line_end
        row = cells(text[line_start:line_end])
        if row is None or len(row[1]) < 2:
            continue
        syntax, spans = row
        names = [text[line_start + s : line_start + e] for s, e in spans]
        if syntax in DELIMITERS and (len(names) < 3 or not all(NAME.fullmatch(name) for name in names)):
            continue  # a CSV header is three or more names; `f(user, password, host):` is code
        columns = [
            i for i, name in enumerate(names) if HEADER.fullmatch(name) and not NOT_A_COLUMN.search(name)
        ]
        if not columns:
            continue
        if len(names) >= 2 and columns[0] + 1 < len(names) and syntax in ("pipe", "html") and len(names) <= 3:
            # a key/value row, `| password | BellaFrodo341 |`: the next cell is the value
            s, e = unwrapped(
                text, line_start + spans[columns[0] + 1][0], line_start + spans[columns[0] + 1][1]
            )
            if is_password(text[s:e]):
                yield s, e, "generic_password"
                continue
        if syntax == "pipe" and line_start:
            above = cells(text[text.rfind("\n", 0, line_start - 1) + 1 : line_start - 1])
            if above is not None and above[0] == "pipe":
                continue  # a row inside a table (`| sidekiq_secret | … | sidekiq-secret |`), not its header
        column = columns[0]
        judge = is_random if MACHINE_MADE.search(names[column]) else is_password
        at = line_end + 1
        while at < limit:  # the rows below, until the table ends
            end = text.find("\n", at)
            end = limit if end == -1 else min(end, limit)
            line = text[at:end]
            below = cells(line)
            if syntax in DELIMITERS and line.strip() and (below is None or below[0] != syntax):
                at = end + 1  # a line of a multi-line field (an export's notes)
                continue
            if below is None or below[0] != syntax:
                if SEPARATOR_ROW.fullmatch(line):
                    at = end + 1
                    continue
                break
            if syntax in DELIMITERS and len(below[1]) != len(spans):
                at = end + 1  # a line of a multi-line field (an export's notes), or no row
                continue
            if len(below[1]) > column:
                s, e = unwrapped(text, at + below[1][column][0], at + below[1][column][1])
                if e > s and judge(text[s:e]):
                    yield s, e, "generic_password"
            at = end + 1
        done = at


# SQL's INSERT names its columns, then gives each row's values in that order: a dump's or a
# migration's `INSERT INTO users (email, password, …) VALUES ('…', '…', …), (…);`
# (MySQL's client continues a statement on lines led by `->`)
INSERT = re.compile(
    r"(?i)\binsert[ \t]+into[ \t]+[\w.\"`\[\]]+[ \t]*\(([^()]{1,2000})\)\s*(?:->\s*)?values\s*"
)
SECRET_COLUMN = re.compile(r"(?i)passw(?:or)?d|passwd|pwd|secret|token|api_?key|private_?key|access_?key")
# a quoted SQL string; `N'…'` Unicode, `E'…'` escapes; `''` or MySQL's `\'` a quote inside it
LITERAL = re.compile(r"[NnEe]?'((?:[^'\n\\]|''|\\.)*)'")
# A table of settings: a column naming each row's setting, another holding its value
# (`INSERT INTO app_config (config_key, config_value) VALUES ('twilio.auth_token', '…')`)
SETTING_NAME = re.compile(r"(?i)(?:^|_)(?:key|name)$")
SETTING_VALUE = re.compile(r"(?i)(?:^|_)value$")


def sql_row(text: str, at: int) -> tuple[list[tuple[int, int] | None], int]:
    """A row of values starting at its `(`: each value's literal span (None where it is no quoted
    literal: a number, NULL, a call), and where the row ends."""
    values: list[tuple[int, int] | None] = []
    depth, start, literal = 0, at + 1, None
    i = at
    while i < len(text):
        char = text[i]
        if char == "'" or (char in "NnEe" and text.startswith("'", i + 1) and not text[start:i].strip()):
            match = LITERAL.match(text, i)
            if match is None:
                break
            if depth == 1 and not text[start:i].strip():
                literal = match.span(1)
            i = match.end()
            continue
        if char == "(":
            depth += 1
        elif char in ",)" and depth == 1:
            values.append(literal if literal and not text[literal[1] + 1 : i].strip() else None)
            start, literal = i + 1, None
            if char == ")":
                return values, i + 1
        elif char == ")":
            depth -= 1
        i += 1
    return values, i


def find_in_inserts(text: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, class) of each quoted value in a secret-named column of an INSERT's rows (not a
    hash's, a hint's or an expiry's column)."""
    for insert in INSERT.finditer(text):
        names = [name.strip().strip('"`[]') for name in insert.group(1).split(",")]
        columns = {
            i: name
            for i, name in enumerate(names)
            if SECRET_COLUMN.search(name) and not NOT_A_COLUMN.search(name) and "_id" not in name.lower()
        }
        named = next((i for i, name in enumerate(names) if SETTING_NAME.search(name)), None)
        valued = next((i for i, name in enumerate(names) if SETTING_VALUE.search(name)), None)
        settings = named is not None and valued is not None
        at = insert.end()
        while (columns or settings) and text.startswith("(", at):
            values, at = sql_row(text, at)
            for i, name in columns.items():
                span = values[i] if i < len(values) else None
                if span and keyed_value_is_secret(name, "=", text[span[0] : span[1]], "'"):
                    yield span[0], span[1], "generic_password"
            if settings and max(named, valued) < len(values) and values[named] and values[valued]:
                setting, span = text[values[named][0] : values[named][1]], values[valued]
                if SECRET_COLUMN.search(setting) and keyed_value_is_secret(
                    setting, "=", text[span[0] : span[1]], "'"
                ):
                    yield span[0], span[1], "generic_password"
            while at < len(text) and text[at] in " \t\r\n,":
                at += 1
