"""Machine-made values announced by a word for a secret, in prose or on the line after it: "the
token for staging is 9fKq…", "Your new API token (copy it now):" and the token alone below it,
"Token generated:" then the token. No name is assigned here (the keyed scan judges those), and no
tool's syntax is known: the announcing word and a value no person typed are the whole evidence, so
the value must be machine-made (letters and digits mixed at random, a long hex run, or a UUID after
a key's or a token's word), and the announcing line must not say the value is an id, a hash or a
public key.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from pica.stages.secrets.arguments import machine_made
from pica.stages.secrets.keyed import UUID
from pica.stages.secrets.verify import is_stand_in, sequential_run, wif_key

# Words that announce a secret, lowercase: the automaton finds them (a text without any costs nothing)
ANNOUNCING_WORDS = frozenset(
    (
        "token",
        "secret",
        "key",
        "password",
        "passphrase",
        "passcode",
        "credential",
        "密码",
        "密钥",
        "秘钥",
        "令牌",
        "トークン",
        "パスワード",
        "비밀번호",
        "토큰",
        "пароль",
        "токен",
        "ключ",
    )
)
WORD = (
    r"(?P<word>(?<![a-z0-9_/.])(?:tokens?|secrets?|keys?|passwords?|passphrases?|passcodes?|credentials?)"
    r"(?![a-z0-9_]|\.[a-z])"  # (not a file's name: `keys.txt`, `/secrets/`)
    r"|密码|密钥|秘钥|令牌|トークン|パスワード|비밀번호|토큰|пароль|токен|ключ)"
)
VALUE = r"[\"'`\u201c\u2018「]?(?P<value>[A-Za-z0-9+/=_.~-]{16,200})(?![A-Za-z0-9+/=_.~-])"
# "the token for staging is …", "secret is …", "API key was …": a copula, or a colon or arrow after a
# phrase (a name joined by `:` or `=` alone is the keyed scan's to judge), or a table's next column
# (`API Key       J_JT7q…` as a CLI prints it, Slack's "Signing Secret  5a7c…")
SAME_LINE = re.compile(
    WORD + r"(?P<between>[^\n\"'`=(){}\[\]<>]{0,40}?)"
    r"(?:[ \t](?:is|was|will be|becomes|are|est|ist|es|é|è|—)[ \t]*[:\uff1a]?"
    r"|(?:は|是|为|는|은)[ \t]*[:\uff1a]?"
    r"|(?P<colon>[ \t]*(?::[ \t]|\uff1a|->|→|=>))|(?P<column>[ \t]{2,}|\t))[ \t]*" + VALUE
)
# "New access token expires on …", "Your API key (copy it now):", then the value alone on a line
# below it, perhaps after one blank line
NEXT_LINE = re.compile(
    WORD
    + r"(?P<between>[^\n]{0,100})\r?\n(?:[ \t]*\r?\n)?[ \t>]*"
    + VALUE
    + r"[\"'`\u201d\u2019」]?[ \t]*(?=\r?\n|$|\\?\"[,}\]])"
)
# words on the announcing line that say the value is no secret: an id, a hash, a public key, a
# lookup key, an example of a format
NOT_SECRET = re.compile(
    r"(?<![a-z])(?:ids?|identifier|hash(?:es)?|digest|checksum|fingerprint|sha\d*|md5|crc\d*|public|pub"
    r"|commit|revision|nonce|example|sample|format|prefix|length|type|name|placeholder|primary|foreign"
    r"|sort|partition|cache|lookup|index|row|idempotency|dedup|object|bucket|map|translation|i18n"
    r"|request|trace|build|version|etag|serial|license|product|activation|file|path|env|variable|header"
    r"|field|column|parameter|param|argument|option|flag|setting|count|size|bits?)(?![a-z])"
)
HEX = re.compile(r"[0-9a-f]{32,}")
WIF_SHAPE = re.compile(r"[5KLc9][1-9A-HJ-NP-Za-km-z]{50,51}")
PASSWORD_WORDS = ("pass", "密码", "パスワード", "비밀번호", "пароль")


def announced_value(value: str, word: str) -> bool:
    """A value no person typed: machine-made, a long lowercase hex run, or a UUID after a key's or a
    token's word; not words joined into a name (`OAUTH2_CLIENT_CREDENTIALS`, `my-app-prod-key`)."""
    words = sum(len(part) >= 3 and part.isalpha() for part in re.split(r"[_.-]", value))
    if value.startswith("/") or words >= 2 or is_stand_in(value) or sequential_run(value):
        return False
    if WIF_SHAPE.fullmatch(value) and not wif_key(value):
        return False  # a Bitcoin key's shape with a wrong checksum: no key
    if machine_made(value):
        return True
    if HEX.fullmatch(value.lower()) is not None:
        return True
    return UUID.match(value) is not None and word.startswith(("key", "token"))


def find_announced(
    text: str, lowered: str, starts: Sequence[int] | None = None
) -> Iterator[tuple[int, int, str]]:
    """(start, end, class) of each machine-made value announced by a secret's word before it, on its
    line or alone on a line below. `starts`: where the announcing words are, in a long text."""
    for pattern in (SAME_LINE, NEXT_LINE):
        found = (
            pattern.finditer(lowered)
            if starts is None
            else (m for at in starts if (m := pattern.match(lowered, at)) is not None)
        )
        for match in found:
            line_start = lowered.rfind("\n", 0, match.start()) + 1
            announcing = lowered[line_start : match.end("between")]
            if NOT_SECRET.search(announcing) or announcing.lstrip().startswith((">>>", "...")):
                continue  # an id's or a hash's word, or an interpreter's example
            if "-----" in announcing:
                continue  # PEM armour: the PEM rules judge the block
            if lowered[match.end("word") : match.end("word") + 1] in (")", ",", "]"):
                continue  # the word is a variable passed on: `decipher(msg, key)`
            if match.groupdict().get("column") and match["between"].strip():
                continue  # a table's columns: the value must be the word's own, the next one
            colon = (match.groupdict().get("colon") or "").strip()
            if colon in (":", "\uff1a") and " " not in match["between"].strip():
                continue  # `secret: …`, a name and its value: the keyed scan's to judge
            start, end = match.span("value")
            value = text[start:end]
            if value.endswith("..") or text.startswith("…", end):
                continue  # cut short: an elided value
            value = value.rstrip(".")
            if announced_value(value, match["word"]):
                kind = "generic_password" if match["word"].startswith(PASSWORD_WORDS) else "generic_api_key"
                yield start, start + len(value), kind
