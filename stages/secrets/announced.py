"""Values announced by a word for a secret, in prose, right after it or on the line below: "the
token for staging is 9fKq…", "client secret qxgP…", `API Key       J_JT7q…` (a table's next
column), "Your new API token (copy it now):" and the token alone below it. No name is assigned here
(the keyed scan judges those), and no tool's syntax is known: the announcing word and the value are
the whole evidence, so the value must be one no person typed (letters and digits mixed at random, a
long hex run, or a UUID after a key's or a token's word), or after a password's word one typed the
way people type passwords; and the announcing line must not say the value is an id, a hash, a
public key or an option.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from pica.stages.secrets.arguments import machine_made
from pica.stages.secrets.keyed import UUID
from pica.stages.secrets.verify import has_digit, is_stand_in, sequential_run, typed_password, wif_key

# Words that announce a secret, lowercase: the automaton finds them (a text without any costs nothing)
ANNOUNCING_WORDS = frozenset(
    (
        "token",
        "secret",
        "key",
        "password",
        "passphrase",
        "passcode",
        "pw",
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
    r"(?P<word>(?<![a-z0-9_/.$])(?:tokens?|secrets?|keys?|passwords?|passphrases?|passcodes?|credentials?|pw)"
    r"(?![a-z0-9_]|\.[a-z])"  # (not a file's name: `keys.txt`, `/secrets/`)
    r"|密码|密钥|秘钥|令牌|トークン|パスワード|비밀번호|토큰|пароль|токен|ключ)"
)
# (a machine-made value is of these characters; a typed password may hold any sign; a value cut at a
# colon is part of something longer, a SCRAM verifier's `SCRAM-SHA-256$4096:…`)
VALUE = r"[\"'`\u201c\u2018「(]?(?P<value>[\w+/=.~!#$%&*@^?-]{8,200})(?![\w+/=.~!#$%&*@^?:-])"
# "the token for staging is …", "secret is …", "API key was …": a copula, or a colon or arrow after a
# phrase (a name joined by `:` or `=` alone is the keyed scan's to judge)
SAME_LINE = re.compile(
    WORD + r"(?P<between>(?:[^\n\"'=(){}\[\]<>]|\([^()\n]{0,40}\)){0,60}?)"
    r"(?:[ \t](?:is|was|will be|becomes|are|est|ist|es|é|è|—)[ \t]*[:\uff1a]?"
    r"|(?:は|是|为|는|은)[ \t]*[:\uff1a]?"
    r"|(?P<colon>[ \t]*(?::[ \t]|\uff1a|->|→|=>)))[ \t]*" + VALUE
)
# ... or right after the word, perhaps after a remark in brackets: a table's next column (`API Key
# J_JT7q…` as a CLI prints it, Slack's "Signing Secret  5a7c…"), or the next word ("client secret
# qxgP1F…", "auth token (959a31…)")
SPACED = re.compile(WORD + r"(?P<between>[ \t]*\([^()\n]{0,40}\))?(?P<space>[ \t]+)" + VALUE)
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
    r"|field|column|parameter|param|argument|option|flag|setting|count|size|bits?"
    r"|gpg|pgp|gnupg|keyserver|keyring|recv-keys|using|rsa|dsa|ecdsa|eddsa|ed25519"
    r"|default-key|trusted-key|encrypt-to|local-user"  # (gpg.conf's options name keys by their ids)
    r"|verified|signed|kid)(?![a-z])"  # ("verified with key <kid>": a key's id)
)
HEX = re.compile(r"[0-9a-f]{32,}")
PATH = re.compile(r"(?:^|/)[a-z]{4,}(?:/|$)")  # a word between slashes: a path, not base64
WIF_SHAPE = re.compile(r"[5KLc9][1-9A-HJ-NP-Za-km-z]{50,51}")
PROMPT = re.compile(r"(?:enter|type|input)\b[^\n]*(?:password|passphrase)|to unlock|will be hidden")
POD_NAME = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*-[a-z0-9]{5,10}-[a-z0-9]{5}")
# (password, passphrase, passcode, pw)
PASSWORD_WORDS = ("pass", "pw", "密码", "パスワード", "비밀번호", "пароль")


def announced_value(value: str, word: str) -> bool:
    """A value no person typed (machine-made, a long lowercase hex run, or a UUID after a key's or a
    token's word), or after a password's word one a person did (`Pelican$Harbor2024`); not words
    joined into a name (`OAUTH2_CLIENT_CREDENTIALS`, `my-app-prod-key`)."""
    if word.startswith(PASSWORD_WORDS) and typed(value):
        return True
    if len(value) < 16 or re.search(r"[!#$%&*@^?]", value):
        return False
    words = sum(len(part) >= 3 and part.isalpha() for part in re.split(r"[_.-]", value))
    if value.startswith("/") or words >= 2 or is_stand_in(value) or sequential_run(value):
        return False
    if POD_NAME.fullmatch(value):
        return False  # a Deployment's pod, `payments-6f7c9d8b4-q8mzl` (`istioctl proxy-config secret <pod>`)
    if WIF_SHAPE.fullmatch(value) and not wif_key(value):
        return False  # a Bitcoin key's shape with a wrong checksum: no key
    if machine_made(value):
        return True
    if HEX.fullmatch(value.lower()) is not None:
        return True
    return UUID.match(value) is not None and word.startswith(("key", "token"))


# (an address, a path, a URL, `name=value`, a ticket's key: `OPS-1712`)
NOT_TYPED = re.compile(
    r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|~?/.*|[\w.-]*://.*|[A-Za-z_][\w.-]*[=:].*|[A-Z][A-Z0-9]{1,9}-\d+\)?"
)


def typed(value: str) -> bool:
    """A password a person typed: eight characters or more, letters, a digit and a sign or both
    cases; not an address, a path or a stand-in."""
    value = value.rstrip(".,;:!?")
    if len(value) < 8 or not has_digit(value) or not typed_password(value) or is_stand_in(value):
        return False
    return NOT_TYPED.fullmatch(value) is None


def find_announced(
    text: str, lowered: str, starts: Sequence[int] | None = None
) -> Iterator[tuple[int, int, str]]:
    """(start, end, class) of each value announced by a secret's word before it, on its line or alone
    on a line below. `starts`: where the announcing words start (None: look everywhere)."""
    for pattern in (SAME_LINE, SPACED, NEXT_LINE):
        found = (
            pattern.finditer(lowered)
            if starts is None
            else (m for at in starts if (m := pattern.match(lowered, at)) is not None)
        )
        for match in found:
            line_start = lowered.rfind("\n", 0, match.start()) + 1
            if pattern is SPACED:  # "client id 0oab…, secret qxgP…": the word's own clause
                line_start = max(line_start, *(lowered.rfind(c, 0, match.start()) + 1 for c in ",;"))
            announcing = lowered[line_start : match.end("between") if match["between"] else match.end("word")]
            if NOT_SECRET.search(announcing) or announcing.lstrip().startswith((">>>", "...")):
                continue  # an id's or a hash's word, or an interpreter's example
            if "-----" in announcing or "docker secret" in announcing or "docker config" in announcing:
                continue  # PEM armour (the PEM rules judge the block); Docker printing a secret's id
            if re.search(r"(?:^|\s)--?[\w-]*\Z", lowered[line_start : match.start("word")]):
                continue  # an option's name (`--change-token …`): the command-line rules judge those
            if lowered[match.end("word") : match.end("word") + 1] in (")", ",", "]"):
                continue  # the word is a variable passed on: `decipher(msg, key)`
            if pattern is SPACED and (UUID.match(match["value"]) or PATH.search(match["value"])):
                continue  # "key <uuid>", "key torchelastic/data0": after the word alone, a random blob only
            if pattern is NEXT_LINE and re.match(r"[\w-]*[ \t]*=[ \t]*\S", match["between"]):
                continue  # the word has its own value on its line (`password=REDACTED`, `password-flags=2`)
            if pattern is NEXT_LINE and PROMPT.search(announcing):
                continue  # a prompt (`Enter password to unlock …:`): its answer is hidden; output follows
            if pattern is NEXT_LINE and (
                match["between"].rstrip().endswith("\\") or match["value"].startswith("-")
            ):
                continue  # a command continued on the next line: its next option, not a value
            colon = (match.groupdict().get("colon") or "").strip()
            if colon in (":", "\uff1a") and " " not in match["between"].strip():
                continue  # `secret: …`, a name and its value: the keyed scan's to judge
            start, end = match.span("value")
            value = text[start:end]
            if value.endswith("..") or text.startswith("…", end):
                continue  # cut short: an elided value
            value = value.rstrip(".,;:!?") if typed(value) else value.rstrip(".")
            if pattern is NEXT_LINE and re.fullmatch(r"[A-Za-z_][\w.-]{0,40}=[^=\s]\S*", value):
                continue  # the next line is a setting of its own (`protocol=dyndns2`), not the value
            if announced_value(value, match["word"]):
                kind = "generic_password" if match["word"].startswith(PASSWORD_WORDS) else "generic_api_key"
                yield start, start + len(value), kind
