"""Secret rules written from each provider's published token format (prefix, alphabet, length,
checksum) and from the syntaxes that carry credentials whatever their format.

Sources, cited per rule: gitleaks' config/gitleaks.toml (rule id in the comment, "gl:"), Nosey
Parker's crates/noseyparker/data/default/builtin/rules/*.yml ("np:"), detect-secrets'
detect_secrets/plugins/*.py ("ds:"), and the providers' own documentation where those cite it.

Each rule declares `keywords`: lowercase literals of which one must occur in the text for the rule
to run at all (gitleaks' `keywords`). That is the prefilter that keeps redaction fast: most text
holds none of them. Where a pattern starts with literals, the prefixes read from it are used
instead (`gate` in __init__.py), since they cannot be wrong. A pattern's first capturing group,
where it has one, is the secret (or the group named `secret`, where an earlier group is needed for a
back-reference); otherwise the whole match is.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from pica.stages.secrets import arguments, verify
from pica.stages.secrets.keyed import CONCEPT_WORDS, NAMED_THING, PATH_LIKE, keyed_value_is_secret
from pica.stages.secrets.verify import has_digit

UUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
# the token ends here (or runs into a shell's prompt: `cat token` prints no newline, `…ubuntu@box:~$`)
E = r"(?:(?![A-Za-z0-9])|(?=[a-z_][\w-]{0,31}@[\w.-]+:[~/]))"
# the end of a name that names a secret (a plist's `<key>`, an element's `name` attribute, where
# XML_NAME_END adds the attribute's closing quote)
SECRET_NAME_END = (
    r"(?:password|passwd|pwd|secret|token|(?:api|secret|access|auth|private|deployment)[_-]?key|apikey"
    r"|credentials?)\d*"
)
XML_NAME_END = SECRET_NAME_END + r")[\"']"
EW = r"(?![\w-])"  # ... for alphabets that include _ and -
GLUED = r"\w.-"  # a token right after a word character, `.` or `-` belongs to something longer
# A flag named in a sentence ("the --password option can't …", "… --proxy-password respectively,
# and") is followed by words, not a value; a manual's `\fIuser-id\fR` is a troff metavariable.
NOT_PROSE = r"(?![a-z]+(?:[ \t\n]+[a-z]{2,}[ \t\n.,']|[.,;:](?:\s|$))|\\f)"
# gitleaks' assignment between a keyword and its value: `=`, `:`, `:=`, `=>`, `?=`, `,`, `||`; the
# name may be an index's quoted key (`ENV["AWS_SECRET_ACCESS_KEY"] ||= …`) or a VB constant's
# (`Const AWS_SECRET_KEY As String = "…"`)
ASSIGN = (
    r"""[\w.-]{0,25}?\\?['"]?\]?(?:[ \t]+as[ \t]+string)?"""
    r"""\s{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|\+=|,)[\x60'"\s=\\]{0,5}"""
)


@dataclass(frozen=True)
class Rule:
    kind: str
    keywords: tuple[str, ...]  # () for a pattern led by literals: it always runs
    pattern: re.Pattern[str]
    check: Callable[[str], bool] | None = None  # verification of the secret
    min_entropy: float = 0.0
    # Characters that may not come right before the match: a token glued to the end of a longer
    # word, file name or path segment is not that token.
    not_after: frozenset[str] = frozenset()
    trusted: Callable[[str], bool] | None = None  # a check so strong it overrules the stand-in test
    lowered: bool = False  # case-insensitive: matched against the lowercased text (9x faster)
    near: re.Pattern[str] | None = None  # must match the 60 lowercased characters before the match
    grow: re.Pattern[str] | None = None  # must match right before the match; joins the secret
    unless: re.Pattern[str] | None = None  # rejects the match when found earlier on its line (lowercased)


def rule(
    kind: str,
    keywords: str,
    pattern: str,
    *,
    check: Callable[[str], bool] | None = None,
    entropy: float = 0.0,
    not_after: str = "A-Za-z0-9",
    trusted: Callable[[str], bool] | None = None,
    near: str | None = None,
    grow: str | None = None,
    unless: str | None = None,
) -> Rule:
    glue = frozenset(c for c in map(chr, range(128)) if not_after and re.match(f"[{not_after}]", c))
    lowered = pattern.startswith("(?i)")
    compiled = re.compile(lower_pattern(pattern[4:]) if lowered else pattern)
    # A pattern that starts with literals is gated on those (read from the pattern in __init__.py).
    always = not keywords or LITERAL_LED.match(compiled.pattern) is not None
    return Rule(
        kind,
        () if always else tuple(keywords.split()),
        compiled,
        check,
        entropy,
        glue,
        trusted,
        lowered,
        re.compile(near + r"\Z") if near else None,
        re.compile("(?:" + grow + r")\Z") if grow else None,
        re.compile(unless) if unless else None,
    )


def led(word: str, *not_before: str) -> str:
    """`word` (a pattern) as the literal that leads a pattern, with what may not come right before
    it looked for behind it. The regex engine searches for a leading literal; a pattern led by a
    lookbehind is tried at every position of the text (about 20 ms per million characters)."""
    return word + "".join(f"(?<!{before}{word})" for before in not_before)


# "is" in the languages of the told-in-a-sentence rule, with "now" after it ("is nu", "es ahora")
# Words that only ever mean "is"; Danish "er", Polish "je"/"to", Russian "теперь" ("now") and a
# dash are a copula only where no colon may follow instead; and "is" written onto the word before it
# in Chinese, Japanese and Korean
COPULA = "is|was|es|è|é|ist|lautet|est|c'est|är|jest|wordt|là|adalah|είναι|הוא|היא|هو|هي|คือ"
CJK_IS = "是|为|為|は|는"
PROSE_COPULA = (
    r"(?:(?:now|nu|ahora|ora|agora|jetzt|maintenant|teraz)[ \t]+)?"
    r"(?:" + COPULA + r"|er|je|to|теперь|—|-)"  # (not "on": "rotated the password on db01.")
    r"(?:[ \t]+(?:now|nu|ahora|ora|agora|jetzt|maintenant|teraz|теперь))?"
)


# Words before a colon do not cross a copula: "… é Floripa@2024casa (rede: ESCRITORIO-5G)" tells
# the password after "é", not the network's name after "rede:"
NOT_A_COPULA = r"(?!(?:" + COPULA + r")[ \t])"
# Full-width punctuation (CJK), the Arabic comma, the Devanagari danda, CJK quotes
WIDE_PUNCTUATION = "\uff09\uff0c\u3002\uff1b\uff01\uff1f\u060c\u0964\u3001\u300d\u300f"


# Where a value told in prose ends: white space, the text's end, or the close of the JSON string
# that holds the message (`{"text": "… lautet Winter1979!"}`)
PROSE_END = r'(?:\s|$|\\?"[,}\]])'
# A line's end, also where a JSON string holding the text closes (`…requirepass x"}`): after a
# value that would take the quote, the value is lazy
LINE_END = r'[ \t]*(?=\r?\n|$|\\?"[,}\]])'
# ... and a line's start, also where a JSON string opens (`{"content": "requirepass …`), and after
# the line's number where a listing shows one (`grep -n`'s `1037:`, `cat -n`'s, an agent's `12→`)
LINE_START = r'(?:^|\n|[:\[,][ \t]*\\?")[ \t]*(?:(?:[\w./-]+:)?\d+[:\t\u2192-][ \t]*)?'
# ... the same in a pattern, as `(?m)^` is: a line's start or a JSON string's opening quote
BOL = r'(?m)(?:^|(?<=[:\[,]")|(?<=[:\[,] "))'


# What a code is named for, before the word (English and compounds): a door's, a gate's, an alarm's
CODE_FOR = (
    r"(?:door|gate|keypad|alarm|disarm|entry|access|security|verification|confirmation|login|sign-in"
    r"|2fa|safe|locker|lockbox|key ?box|garage|building|bestätigungs|sicherheits|zugangs|unscharf-"
    r"|tür|digi|pin-?)"
)
# An error's, a status's, a place's or a product's code is no secret
NOT_A_SECRET_CODE = (
    r"(?:error|exit|status|return|response|reason|event|post|postal|zip|area|country|dial(?:l?ing)?|phone"
    r"|bar|uni|op|key|source|promo|discount|voucher|coupon|product|tracking|order|customer|article|item"
    r"|iso|ansi|language|currency|airport|region|colou?r|hex|char|page|sort|swift|bank|routing|tax|vat"
    r"|qr|machine|byte|class|program|sample|example|test|demo|http|ascii|shell|time|zone|err)"
    r"[ \t_-]?\Z"
)
# Words after the word for code, one of them a preposition ("de la carte", "del portal", "do
# domofonu", "for the gate"), and not what code is written in ("Code Snippets", "Code coverage")
CODE_OF = (
    r"(?![ \t]+(?:snippets?|coverage|lines?|review|quality|size|blocks?|files?|examples?|changes?)\b)"
    r"(?=(?:[ \t]+[^\s:]+){0,7}?[ \t]+(?:de|del|da|do|della|di|du|des|d'\w+|dell'\w+|for|of|to|für|zum"
    r"|zur|van|voor|bij|для|от|від|на|u|na|dla|pour|para|per|till|för|k|ke|pro|od|של)(?![^\W\d_]))"
)
# "is" after the words for what a code opens, in the languages above
CODE_COPULA = r"(?:is|ist|est|es|è|é|är|er|je|jest|era|είναι|הוא|היא|คือ)(?=[ \t])"
# The value of a code: 4 to 10 digits, or a letter and digits (a French digicode, B2487)
CODE_VALUE = r"([A-Za-z]?\d{4,10})(?![\d.,/:-]?\d)"


def secret_code(value: str) -> bool:
    """A code a person was given: not one digit repeated, a run (1234) or a year alone."""
    if len(set(value)) == 1 or re.fullmatch(r"(?:19|20)\d\d", value):
        return False
    return keyed_value_is_secret("pin_password", "=", value, '"')


# The names of machine-made secrets in English and the words a sentence may put between a name
# and its colon (each led by its literal, the words before `key` looked for behind it: "api", "app" are in
# every other line of a transcript)
ENGLISH_SECRET_WORDS = (
    (led("secret", ":", "/"), None),
    (led("token", "_"), None),  # (not a name's end, `id_token for deployment 41: <hash>`: the keyed scan's)
    ("key", r"(?:api|access|server|app|rest\sapi|channel|secret)[\s_-]?"),
)
PROSE_WORDS = r"(?:[ \t]+[^\s:\uff1a]{1,30}){0,8}?"


def machine_made(value: str, quote: str = "") -> bool:
    """A key or token, not a word, a name or a number: random, with letters and digits (judged as
    a literal with `quote`: a chat has no code, so `sk_b086acc975…` is no snake_case name there)."""
    has_both = has_digit(value) and re.search(r"[A-Za-z]", value) is not None
    return has_both and keyed_value_is_secret("api_key", "=", value, quote)


def literal_password(value: str) -> bool:
    """A value in a password's place that is a literal (quoted, printed, exported), judged as one."""
    return keyed_value_is_secret("password", "=", value, '"')


def told_in_a_sentence(value: str) -> bool:
    """A password given in prose: not a standard's name (SHA-256), an address, a path or a word
    (`available**`: Markdown's emphasis is no sign)."""
    if (
        value.strip("*_~").isalpha()
        or re.fullmatch(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+[\])]?", value)
        or "\\" in value
    ):
        return False  # also a constant's name (GNUTLS_E_DECRYPTION_FAILED) or troff (`locked\&.`)
    if re.fullmatch(
        r"(?i)(?:env|environment|vault|keychain|ssm|secrets?|config)[_-](?:vars?|variables?|files?|store)",
        value,
    ):
        return False  # where it went: "move the password to env_var"
    if re.fullmatch(r"[A-Z]{2,}[-_]?\d+(?:[-_]\d+)*[a-z]?|v?\d[\d.,:/-]*%?", value):
        return False
    if (
        "://" in value
        or value.startswith(
            ("/", "~", "$", "%", "{", "}", "]", ")", "(", "[")
        )  # a template's close: `{{ .x.password }}@…`; a remark's opening
        or re.fullmatch(r"[^@\s]+@[\w-]+\.[\w.]+", value)
        or re.fullmatch(
            r"[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|net|org|io|local|internal|lan|corp|dev|cloud)", value
        )
        or re.match(r"[A-Za-z_][\w.-]*=", value)  # a field, `user_id=41178`: "… email sent to user_id=…"
    ):
        return False
    return literal_password(value)  # prose has no code: a literal


def spaced_password(value: str) -> bool:
    """A value after a password's name and spaces alone (`password …` in msmtprc, `requirepass …`):
    a word there is a sentence's ("Password protected") or a manual's example (`foobared`), so it
    holds a digit or a sign, or is random letters (an app password, `igkdowqpetpndovo`)."""
    letters_only = re.search(r"[\d\W_]", value.rstrip(".,;:!?")) is None
    if letters_only and not (verify.random_letters(value) or verify.few_vowels(value)):
        return False  # a word, perhaps ending a sentence ("… the username/\n password combination.")
    return keyed_value_is_secret("secret_password", "=", value, "")


# A name that says it holds a secret (`db_admin_password`, `API_TOKEN`, `secret/apps/billing`)
SECRET_FIELD = (
    r"[\w./-]*(?:passw(?:or)?d|passwd|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key"
    r"|credentials?)[\w.-]*"
)
# The one line a command printed, after the rest of its own line (no pipe or redirection took it)
# (oclif's CLIs, Heroku's, put their warnings first, each line led by U+203A)
# (Codex's transcripts lead a command's output with `└`, Claude Code's with `⎿`)
OUTPUT_LEAD = r"(?:[ \t]*[\u2514\u23bf][ \t]*)?"
PRINTED = (
    r"[^\n|>]*(?:\|[ \t]*tee\b[^\n]*)?\r?\n"  # (a `| tee …` prints it too)
    + OUTPUT_LEAD
    + r"(?:directory:[^\n]*\r?\n)?(?:[ \t]*\u203a[^\n]*\r?\n)*(?:stdout:[ \t]*)?"
    # (a prompt for the store's own password first: `Enter password to unlock …:`)
    r"(?:(?:enter|type)[^\n]*(?:password|passphrase)[^\n]*:[ \t]*\r?\n)?"
    # (not the next line's `AUTH_ID=…`; matched on lowercased text, so told from base64 by its `_`)
    # (nor a YAML key, `repositories:`: the command was a config's value, not run)
    r"[\"']?(?![A-Za-z][A-Za-z0-9]*_[\w]*=)([^\s\"']{5,299}[^\s\"':])[\"']?[ \t]*"
    r"(?=\r?\n|$|\\?[\"'][,}\]])"
)
# A cookie named for a session, a login or its token (`JSESSIONID`, `PHPSESSID`, `laravel_session`,
# `connect.sid`, `__Host-sid`, `remember_token`); not a CSRF token, which grants nothing alone
SESSION_COOKIE = (
    r"(?i:(?!(?:__(?:host|secure)-)?[\w.-]*?(?:csrf|xsrf|state|nonce|verifier))"
    r"[\w.-]*?(?:sess|auth|token|jwt|remember|login|logged_in|identity|sid)[\w.-]*)"
)


def directive_password(value: str) -> bool:
    """The value of a directive that holds nothing but a password: a literal, unless a word (the
    manual's `requirepass foobared`)."""
    return spaced_password(value) or (not value.isalpha() and literal_password(value))


def shared_key(value: str) -> bool:
    """A network device's shared key, not the label a `show` command prints (` Key Data:`)."""
    return directive_password(value) and not value.endswith(":")


def session_value(value: str) -> bool:
    """A cookie's value that is a session's random id or token, not a flag, a time or a name."""
    bare = re.sub(r"%[0-9A-Fa-f]{2}", "", value)
    return not bare.isdigit() and not verify.is_stand_in(bare) and verify.random_enough(bare)


# A command-line argument: quoted (the quotes are not the password), or up to a space or shell operator
# `echo '…' |`, `printf "…" |`: the opening quote of what a command is given on its input
TYPED = r"[\"']([^\"'\n]{3,100})[\"']"  # what a test types into a field, quoted
ECHOED = r"(?:echo|printf)[ \t]+(?:-[ne]+[ \t]+)?(?P<q>['\"])"
CLI_VALUE = r"""(?:'([^'\n]{3,200})'|"([^"\n]{3,200})"|([^\s'"\x60;|&<>()]{3,200}))"""


def commands(tools: str, before: str) -> list[Rule]:
    """A password given on the command line of each of `tools` (space-separated names): after
    `before` (the flag, or the arguments that precede it), on the same line. One rule per tool, each
    led by the tool's name (`led`)."""
    return [
        rule(
            "cli_credentials",
            "",
            # (a command may go on past a line's end after a backslash: `… \` then `  -P '…'`)
            led(re.escape(tool), r"[\w.-]") + rf"(?![\w-])(?:[^\n]|\\\n){{0,200}}?{before}" + CLI_VALUE,
            not_after="",
            check=not_named_for_the_idea,
        )
        for tool in tools.split()
    ]


def typed_or_phrase(value: str) -> bool:
    """A password as people type them (letters and two of: a digit, a sign, both cases: `luna+Simba2`,
    `U?mjoO!-bN`; or a word and a number, `Noodle2012`) or three words or more joined by `.`/`-`
    (`rocket.maple.trumpet`), judged as a literal."""
    phrase = re.fullmatch(r"[a-z]{3,}(?:[.-][a-z]{3,}){2,}\d*", value) is not None
    return (verify.typed_password(value) or phrase) and literal_password(value)


def not_named_for_the_idea(value: str) -> bool:
    """`default_secret_key`, `new-password`: words that name what goes there (a manual's example);
    `passphrase:`, a label in a manual's sentence."""
    if value.startswith("@"):
        return False  # a file the tool reads it from (`-secret @secret-file`)
    if re.fullmatch(r"[A-Za-z]+:", value):
        return False
    return not re.fullmatch(r"[a-z]+(?:[_-][a-z]+)+", value) or not re.search(
        r"key|secret|pass|token|auth", value
    )


LITERAL_LED = re.compile(r"\\[$.\"#]|[\w<#~-]{2}")


def lower_pattern(pattern: str) -> str:
    """A case-insensitive pattern rewritten to match lowercased text: letters lowered, escapes
    (\\S, \\Z, \\x60) kept. Python's IGNORECASE disables the literal-prefix search; this keeps it."""
    out, escaped = [], False
    for char in pattern:
        out.append(char if escaped else char.lower())
        escaped = not escaped and char == "\\"
    return "".join(out).replace("(?p<", "(?P<")  # group names keep their case


def keyed(
    kind: str,
    names: str,
    value: str,
    keywords: str,
    *,
    entropy: float = 0.0,
    check: Callable[[str], bool] | None = None,
    not_after: str = "",
    unless: str | None = None,
) -> Rule:
    """A provider's secret written after its name (`SUMO_ACCESS_KEY = "…"`), the way gitleaks
    builds its context rules: the name, up to 25 more name characters, an assignment, the value."""
    # not a public key or an OAuth client's id written under the provider's name
    # (`DISCORD_PUBLIC_KEY`, `TWITCH_CLIENT_ID`: the same alphabet as the secret beside it); but
    # gitleaks' sumologic-access-id takes Sumo Logic's access id, half of a login, as a secret
    pattern = (
        r"(?i)(?:"
        + names
        + r")(?![\w.-]{0,25}(?:public|client[_.-]?id(?![a-z])))"
        + ASSIGN
        + r"("
        + value
        + r")(?![\w+/=-])"
    )
    return rule(kind, keywords, pattern, entropy=entropy, not_after=not_after, check=check, unless=unless)


def assignment(kind: str, prefix: str, keyword: str, value: str, keywords: str) -> Rule:
    """detect-secrets' build_assignment_regex: `<prefix>(-|_|)<keyword> <assignment> <value>` with
    optional quotes and brackets (ds: plugins/base.py), case-insensitive."""
    pattern = (
        r"(?i)(?:" + prefix + r")[-_]?(?:" + keyword + r")\\?['\"]?\]?\s*"
        r"(?:=|:|:=|=>| +|::)\s*\\?['\"]?(" + value + r")(?![\w-])"
    )
    return rule(kind, keywords, pattern, not_after=r"\w")


PEM_END = r"(?:-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----|\Z)"
GOOGLE_PUBLIC_KEYS = {  # gl: gcp-api-key allowlist, keys published in Google's own SDKs
    "AIzaSyabcdefghijklmnopqrstuvwxyz1234567",
    "AIzaSyAnLA7NfeLquW1tJFpx_eQCxoX-oo6YyIs",
    "AIzaSyCkEhVjf3pduRDt6d1yKOMitrUEke8agEM",
    "AIzaSyDMAScliyLx7F0NPDEJi1QmyCgHIAODrlU",
    "AIzaSyD3asb-2pEZVqMkmL6M9N6nHZRR_znhrh0",
    "AIzayDNSXIbFmlXbIE6mCzDLQAqITYefhixbX4A",
    "AIzaSyAdOS2zB6NCsk1pCdZ4-P6GBdi_UUPwX7c",
    "AIzaSyASWm6HmTMdYWpgMnjRBjxcQ9CKctWmLd4",
    "AIzaSyANUvH9H9BsUccjsu2pCmEkOPjjaXeDQgY",
    "AIzaSyA5_iVawFQ8ABuTZNUdcwERLJv_a_p4wtM",
    "AIzaSyA4UrcGxgwQFTfaI3no3t7Lt1sjmdnP5sQ",
    "AIzaSyDSb51JiIcB6OJpwwMicseKRhhrOq1cS7g",
    "AIzaSyBF2RrAIm4a0mO64EShQfqfd2AFnzAvvuU",
    "AIzaSyBcE-OOIbhjyR83gm4r2MFCu4MJmprNXsw",
    "AIzaSyB8qGxt4ec15vitgn44duC5ucxaOi4FmqE",
    "AIzaSyA8vmApnrHNFE0bApF4hoZ11srVL_n0nvY",
}


def pem_body_ok(block: str) -> bool:
    """A key block holds at least 50 base64 characters (np: pem.1), not `anything`."""
    return len(re.findall(r"[A-Za-z0-9+/=]", block.split("-----", 2)[-1])) >= 50


def words_joined(value: str) -> bool:
    """Words joined by dots, dashes or underscores (`expired.token.value`): a test's stand-in."""
    return re.fullmatch(r"[A-Za-z]+(?:[._-][A-Za-z]+)+", value) is not None


def random_with_digit(value: str) -> bool:
    """A machine-made token: as varied as a random one of its length, with a digit in it."""
    return verify.random_enough(value) and has_digit(value)


def user_password(value: str) -> bool:
    """The password half of `user:password` on a command line: not a call (`-u ".s:Escape(…`), a
    URL (beeline's `-u "jdbc:hive2://…"`) nor a placeholder's words (`-u ID:CLIENT_SECRET`)."""
    return (
        not re.search(r"\w\(", value)
        and "//" not in value
        and literal_password(value)
        and not metavariable(value)
    )


def random_or_typed(value: str) -> bool:
    """A value where either may stand: a machine-made key, or a password as people type them."""
    return random_with_digit(value) or literal_password(value)


def metavariable(value: str) -> bool:
    """A name in capitals standing for the value (`ACCESS_TOKEN`, `CLIENT_SECRET`), not a token made
    of capitals and digits (a GitHub runner's registration token)."""
    return re.fullmatch(r"[A-Z][A-Z0-9_]*", value) is not None and not random_with_digit(value)


def not_a_type_name(value: str) -> bool:
    """Not the type a command's help gives its option (`-p, --password string   Password for …`)."""
    return value not in ("string", "str", "text", "value", "secret", "password", "PASSWORD")


def not_a_constant(value: str) -> bool:
    """Not a constant's name (`POSTMARK_API_TEST`, Postmark's documented test token; a variable's
    name where a template wants the value)."""
    return re.fullmatch(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+", value) is None


def not_a_dotted_name(value: str) -> bool:
    """`api_key.value`, `self.creds.token` name a value in code; `oHIL3mk.Vhu0LY.FK1U…` (parts
    mixing digits into letters) is a dotted token."""
    dotted_name = re.fullmatch(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+", value) is not None
    if re.fullmatch(r"~?/[\w.-]+(?:/[\w.-]+)*", value):
        return False  # a file's path (`AWS_SHARED_CREDENTIALS_FILE`'s `/credentials/cloud`)
    return not dotted_name or re.search(r"\d[A-Za-z]", value) is not None


def random_base64(value: str) -> bool:
    """40 random base64 characters (an AWS secret key) hold a digit and both cases: all but 0.2%
    of them do, while `policy/AmazonLookoutVisionReadOnlyAccess` (an ARN's tail) does not."""
    return has_digit(value) and any(c.islower() for c in value) and any(c.isupper() for c in value)


# Provider token formats.
TOKENS: list[Rule] = [
    # RFC 7468 PEM; OpenSSH and PKCS#8 keys use the same armour (gl: private-key; np: pem.1).
    rule(
        "private_key",
        "-----begin",
        r"-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----(?:(?!-----END)[\s\S]){40,12000}?" + PEM_END,
        check=pem_body_ok,
        # a key's zero bytes are runs of `A` in base64 (OpenSSH's `AAAAAAAAAAAAA…`): not a stand-in
        trusted=lambda block: pem_body_ok(block) and not verify.marked_stand_in(block),
        not_after="",
    ),
    # np: pem.2, PEM base64-encoded again (Kubernetes secrets, kubeconfig client-key-data)
    rule("private_key", "ls0tls1crudjti", r"LS0tLS1CRUdJTi[A-Za-z0-9+/=]{40,}", check=verify.b64_pem_ok),
    # PuTTY .ppk: the private part follows `Private-Lines: N`
    rule(
        "private_key",
        "private-lines",
        r"Private-Lines: *\d+\r?\n((?:[A-Za-z0-9+/=]{4,}\r?\n?)+)",
        not_after="",
    ),
    # age identities are bech32 (np: age.2; age-encryption.org/v1)
    rule("private_key", "age-secret-key-1", r"AGE-SECRET-KEY-1[0-9A-Z]{58}" + E),
    # WireGuard keys are 32 bytes, base64 (np: wireguard.1, wireguard.2)
    rule("private_key", "privatekey", r"PrivateKey\s*=\s*([A-Za-z0-9+/]{42}[A-Za-z0-9+/=]=?)"),
    rule("generic_api_key", "presharedkey", r"PresharedKey\s*=\s*([A-Za-z0-9+/]{43}=)"),
    # Anthropic API and admin keys: version, 93 characters, then AA (gl: anthropic-api-key
    # `sk-ant-api03-[a-zA-Z0-9_\-]{93}AA`, anthropic-admin-api-key `sk-ant-admin01-…{93}AA`; np:
    # anthropic.1 `sk-ant-api\d{2}-` + 95, whose examples all end in AA). OAuth access/refresh
    # tokens have no published length: gl: anthropic-oauth-token / -refresh-token want 40 or more.
    rule(
        "anthropic_api_key",
        "sk-ant-",
        r"sk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{93}AA(?![\w-])"
        r"|sk-ant-(?:oat|ort|sid)\d{2}-[A-Za-z0-9_-]{40,}(?![\w-])",
        not_after=r"\w.-",
    ),
    # The same prefix with a body of another length: a key cut short or run on in a paste or an
    # export (`op item get`), still a key; not a run typed as a stand-in (gl: anthropic-admin-api-key
    # fps `…abc123xyz-456de-klMnopqrstuvwx…`)
    rule(
        "anthropic_api_key",
        "sk-ant-",
        r"sk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{40,}(?![\w-])",
        check=lambda token: random_with_digit(token.split("-", 3)[3]) and not verify.sequential_run(token),
        not_after=r"\w.-",
    ),
    # OpenAI: every key format carries T3BlbkFJ ("OpenAI" in base64) between two random parts
    # (gl: openai-api-key, project/service-account/admin keys and legacy `sk-` + 20 + T3BlbkFJ +
    # 20; ds: OpenAIDetector `sk-[A-Za-z0-9-_]*[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}`), so a
    # `sk-proj-…` without it is not a key. Nosey Parker's np: openai.1 also takes the legacy
    # `sk-` + 48 alphanumerics without the marker (its own example has none).
    rule(
        "openai_api_key",
        "sk-",
        r"sk-[A-Za-z0-9_-]*[A-Za-z0-9_-]{20}T3BlbkFJ[A-Za-z0-9_-]{20,}(?![\w-])"
        r"|sk-[A-Za-z0-9]{48}" + E,
        not_after=r"\w.-",
    ),
    # OpenRouter: `sk-or-v1-` + 64 hex (openrouter.ai/docs/api-reference/authentication)
    rule("openrouter_api_key", "sk-or-", r"sk-or-v1-[0-9a-f]{64}" + E, not_after=r"\w.-"),
    # DeepSeek and Alibaba's DashScope (Qwen): `sk-` + 32 hex (platform.deepseek.com/api_keys,
    # help.aliyun.com/zh/model-studio/get-api-key); machine-made, so a key wherever it stands
    rule("llm_api_key", "sk-", r"sk-[0-9a-f]{32}" + E, entropy=3.0, not_after=r"\w.-"),
    # AWS access key ids: a 4-letter prefix + 16 base32 (gl: aws-access-token, entropy 3; AWS IAM
    # "Unique identifiers"): a long-term or temporary key's id (AKIA, ASIA), a bearer token's, a
    # context credential's. The other prefixes of that table name a user (AIDA), a role (AROA), a
    # group, a policy or a certificate: `aws sts get-caller-identity` prints them; they open
    # nothing. `...EXAMPLE` keys are AWS's documentation.
    rule(
        "aws_access_key_id",
        "",  # its alternation of prefixes is searched as fast as any keyword
        r"(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}" + E,
        check=lambda s: not s.endswith("EXAMPLE"),
        entropy=3.0,
    ),
    # np: aws.6, a key id followed closely by its 40-character secret
    rule(
        "aws_secret_access_key",
        "",
        r"(?:A3T[A-Z0-9]|AKIA|ASIA)[A-Z0-9]{16}(?s:.){1,40}?(?<![A-Za-z0-9/+=])([A-Za-z0-9/+=]{40})"
        r"(?![A-Za-z0-9/+=])",
        entropy=3.5,
        check=random_base64,
    ),
    # AWS STS session tokens: base64 of a binary blob that starts with its own header, `\x21\n\t
    # origin_ec…` (`IQoJb3JpZ2luX2Vj`) since 2019, `\x17\n\x06er/aws…` before (`FwoGZXIvYXdzE`,
    # `FQoGZXIvYXdzE`), `AQoDYXdzE` in older documentation (aws sts get-session-token output)
    rule(
        "aws_session_token",
        "",
        r"(?:IQoJb3JpZ2luX2Vj|FwoGZXIvYXdzE|FQoGZXIvYXdzE|AQoDYXdzE)[A-Za-z0-9+/]{100,}={0,2}(?![A-Za-z0-9+/=])",
        not_after=r"\w+/",
    ),
    # `aws ecr get-login-password`'s answer, Docker's password for the registry for 12 hours: base64
    # of `{"payload":"…","datakey":"…",…}` (docs.aws.amazon.com/AmazonECR/latest/userguide/registry_auth.html)
    rule(
        "aws_session_token",
        "",
        r"eyJwYXlsb2FkIjoi[A-Za-z0-9+/]{100,}={0,2}(?![A-Za-z0-9+/=])",
        not_after=r"\w+/",
    ),
    # gl: aws-amazon-bedrock-api-key-long-lived / -short-lived
    rule("aws_bedrock_api_key", "absk", r"ABSK[A-Za-z0-9+/]{109,269}={0,2}"),
    rule(
        "aws_bedrock_api_key", "bedrock-api-key-", r"bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t[\w%+/=&-]*"
    ),
    # np: aws.5 Amazon MWS; np: appsync.1
    rule("aws_other_token", "amzn.mws.", r"amzn\.mws\." + UUID),
    rule("aws_other_token", "da2-", r"da2-[a-z0-9]{26}" + E),
    # GitHub: prefix _ + 30 base62 + 6-digit base62 CRC32 (github.blog 2021-04-05); gl: github-pat,
    # github-oauth, github-app-token, github-refresh-token, github-fine-grained-pat; np: github.1-7
    rule(
        "github_token",
        "ghp_ gho_ ghu_ ghs_ ghr_",
        r"gh[pousr]_[A-Za-z0-9]{36,76}" + E,
        trusted=verify.crc32_tail_ok,
        entropy=3.0,
    ),
    # (fine-grained tokens: 82 characters after the prefix, an underscore among them; 70 to 90 taken)
    rule("github_token", "github_pat_", r"github_pat_[A-Za-z0-9]{20,30}_[A-Za-z0-9]{50,70}" + E, entropy=3.0),
    rule("github_token", "github_pat_", r"github_pat_\w{82}" + E, entropy=3.0),
    # App installation tokens in the newer form: the app id, then a signed JWT
    # (secretlint: secretlint-rule-github ng.app_installation_token)
    rule(
        "github_token",
        "ghs_",
        r"ghs_\d+_eyJ[\w-]{10,}\.eyJ[\w-]{10,}\.[\w-]+" + EW,
        check=lambda s: verify.jwt_ok(s.split("_", 2)[2]),
    ),
    # A token as a URL's user name: GitHub's `https://<token>:x-oauth-basic@github.com/…` and
    # `https://<token>@github.com/…` (docs.github.com "Authenticating with a personal access token")
    rule(
        "github_token",
        "@github.com",
        r"://([A-Za-z0-9_]{30,})(?::x-oauth-basic)?@github\.com\b",
        check=lambda s: has_digit(s) and not s.isdigit(),
        entropy=3.0,
        not_after="",
    ),
    # GitLab token prefixes (docs.gitlab.com/ee/security/token_overview.html; gl: gitlab-*; ds:
    # GitLabTokenDetector; np: gitlab.1-3)
    rule(
        "gitlab_token",
        "glpat- gldt- glft- glsoat- glrt- glcbt- glffct- glimt- glptt- glagent- gloas-",
        r"gl(?:pat|dt|ft|soat|rt|cbt|ffct|imt|ptt|agent|oas)-[\w.-]{20,300}" + r"(?![\w.-])",
        entropy=3.0,
    ),
    rule("gitlab_token", "gr1348941", r"GR1348941[\w-]{20,50}" + EW),
    rule("gitlab_token", "_gitlab_session=", r"_gitlab_session=([0-9a-z]{32})" + E),
    # Slack (api.slack.com/authentication/token-types, /config-tokens), each shape as published:
    # gl: slack-bot-token (np: slack.2), slack-user-token (np: slack.4; xoxe- is its rotating
    # form), slack-legacy-bot-token (np: slack.6), slack-legacy-workspace-token, slack-legacy-token,
    # slack-app-token (np: slack.5), slack-config-access-token, slack-config-refresh-token; ds:
    # SlackDetector `xox[abposr]-(?:\d+-)+[a-z0-9]+`, here with its examples' 6+ digit ids and a
    # 10+ character random tail (`xoxb-12345-abcd234`, `xoxp-1234-1234-1234-…` are typed by hand).
    # A token glued after `.` or `-` is part of another token (`xoxe.xoxp-1-…` is a configuration
    # token, which only its own 163-166 character shape matches) or of a file name.
    rule(
        "slack_token",
        "xoxa- xoxb- xoxo- xoxp- xoxr- xoxs-",
        r"xox[abposr]-(?:\d-)?(?:\d{6,}-)+[A-Za-z0-9]{10,}" + EW,
        entropy=2.0,
        not_after=GLUED,
    ),
    rule(
        "slack_token",
        "xoxb-",
        r"xoxb-[0-9]{10,13}-[0-9]{10,13}[a-zA-Z0-9-]*" + EW,
        entropy=3.0,
        not_after=GLUED,
    ),
    rule(
        "slack_token",
        "xoxp- xoxe-",
        r"xox[pe](?:-[0-9]{10,13}){3}-[a-zA-Z0-9-]{28,34}" + EW,
        entropy=2.0,
        not_after=GLUED,
    ),
    rule("slack_token", "xoxb-", r"xoxb-[0-9]{8,14}-[a-zA-Z0-9]{18,26}" + E, entropy=2.0, not_after=GLUED),
    rule(
        "slack_token", "xoxa- xoxr-", r"xox[ar]-(?:\d-)?[0-9a-zA-Z]{8,48}" + E, entropy=2.0, not_after=GLUED
    ),
    rule("slack_token", "xoxo- xoxs-", r"xox[os]-\d+-\d+-\d+-[a-fA-F\d]+" + E, entropy=2.0, not_after=GLUED),
    rule("slack_token", "xoxe.xox", r"(?i)xoxe\.xox[bp]-\d-[A-Z0-9]{163,166}" + E, entropy=2.0),
    rule("slack_token", "xoxe-", r"(?i)xoxe-\d-[A-Z0-9]{146}" + E, entropy=2.0, not_after=GLUED),
    rule(
        "slack_token",
        "xapp-",
        r"(?i)xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+|xapp-\d{12}-[A-Za-z0-9/+]{24}" + E,
        entropy=2.0,
    ),
    # Teams incoming webhooks (np: msteams.1; gl: microsoft-teams-webhook)
    rule(
        "msteams_token",
        "webhook.office.com outlook.office",
        r"https://(?:[\w-]+\.webhook\.office\.com/webhookb2|outlook\.office(?:365)?\.com/webhook)/[\w@%/-]{30,}",
        not_after="",
    ),
    rule(
        "slack_webhook_url",
        "hooks.slack.com",
        r"hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_]{20,}",
        not_after="",
    ),
    # Stripe secret and restricted keys (stripe.com/docs/keys; gl: stripe-access-token; np: stripe)
    rule(
        "stripe_api_key",
        "",
        # Stripe caps no length (newer keys run to 99 characters and beyond; its docs allow 255)
        r"k_(?:live|test|prod)_[A-Za-z0-9]{10,247}" + E,
        entropy=2.0,
        not_after="",
        grow=r"(?<![\w.-])[sr]",
    ),
    # Google (gl: gcp-api-key + its allowlist; np: google.2-5)
    rule(
        "google_api_key",
        "aiza",
        r"AIza[\w-]{35}" + EW,
        check=lambda s: s not in GOOGLE_PUBLIC_KEYS,
        entropy=3.5,
    ),
    rule("google_oauth_client_secret", "gocspx-", r"GOCSPX-[\w-]{28}" + EW),
    rule(
        "google_oauth_client_secret",
        "secret",
        r"(?i)client.?secret.{0,10}?(?<![\w-])([a-z0-9_-]{24})(?![\w-])",
        entropy=3.5,
        check=random_with_digit,  # not `azurerm_key_vault_secret`, a reference of 24 letters
        not_after="",
    ),
    rule("google_oauth_access_token", "ya29.", r"ya29\.[\w-]{20,1024}|ya29\.[a-z]\.[\w.-]{20,1024}"),
    # Hugging Face (huggingface.co/docs/hub/security-tokens; gl: huggingface-*; np: huggingface.1)
    # (34 letters, or letters and digits: huggingface/transformers' CI token `hf_94wBhPGp…` has digits)
    rule(
        "huggingface_token",
        "hf_ api_org_",
        r"(?:hf_|api_org_)[A-Za-z0-9]{34}" + E,
        not_after=r"\w",
        check=lambda token: token.lower() != token and token.upper() != token and verify.random_enough(token),
    ),
    # Firecrawl's API key, `fc-` and 32 hex digits (docs.firecrawl.dev, "Authentication")
    rule("generic_api_key", "fc-", r"fc-[0-9a-f]{32}" + E, not_after=r"\w-"),
    # Rails' `secret_key_base` (config/secrets.yml, credentials): signs and encrypts its cookies
    rule(
        "rails_secret_key_base",
        "secret_key_base",
        r"(?i)secret_key_base\\?[\"']?[ \t]*(?::|=>?)[ \t]*\\?[\"']?([0-9a-f]{64,256})(?![0-9a-z])",
        not_after=r"\w",
    ),
    # Replicate API tokens: `r8_` + 37 base62 (replicate.com/docs/topics/security/api-tokens)
    rule("replicate_api_token", "r8_", r"r8_[A-Za-z0-9]{37}" + E, entropy=3.0, not_after=r"\w"),
    # npm granular tokens: npm_ + 36 base62 with the GitHub-style CRC32 tail (np: npm.1)
    rule("npm_token", "npm_", r"npm_[A-Za-z0-9]{36}" + E, trusted=verify.crc32_tail_ok),
    # PyPI tokens are macaroons whose base64 starts with the location "pypi.org" (np: pypi.1;
    # warehouse docs/development/token-scanning.rst)
    rule("pypi_token", "pypi-ageichlwas5vcmc", r"pypi-AgEIcHlwaS5vcmc[\w-]{50,}"),
    # ... and TestPyPI's, whose macaroon names test.pypi.org
    rule("pypi_token", "pypi-agendgvzdc5wexbplm9yzw", r"pypi-AgENdGVzdC5weXBpLm9yZw[\w-]{50,}"),
    # SendGrid: SG.<22>.<43> (np: sendgrid.1; ds: SendGridDetector)
    rule("sendgrid_api_key", "sg.", r"SG\.[\w-]{22}\.[\w-]{43}" + EW),
    # Twilio API key SIDs: SK + 32 hex (gl: twilio-api-key; np: twilio.1)
    rule("twilio_api_key", "sk", r"SK[0-9a-fA-F]{32}" + E, entropy=3.0, not_after=r"\w./-"),
    # Mailchimp: 32 hex + datacenter (ds: MailchimpDetector; np: mailchimp.1)
    rule("mailchimp_api_key", "-us", r"-us\d{1,3}" + E, not_after="", grow=r"(?<![\w./-])[0-9a-f]{32}"),
    # np: mailgun.1; gl: mailgun-private-api-token
    rule("mailgun_api_key", "key-", r"(?i)(?:mailgun|\bmg).{0,20}?key-([a-z0-9]{32})" + E, not_after=""),
    # ... and as the password of its documented `auth=("api", "key-…")`
    rule("mailgun_api_key", "key-", r"[\"']api[\"'],\s*[\"'](key-[0-9a-f]{32})[\"']", not_after=""),
    # Telegram bot tokens: bot id, colon, 35 characters starting with A (core.telegram.org/bots/api;
    # np: telegram.1; ds: TelegramBotTokenDetector)
    # The Bot API's URLs put the token right after `bot`: api.telegram.org/bot<token>/getMe
    rule(
        "telegram_bot_token",
        ":a",
        r":A[\w-]{33,34}" + EW,
        not_after="",
        grow=r"(?:(?<=/bot)|(?<!\w))\d{5,16}",
        check=lambda token: not verify.is_stand_in(token),  # the Bot API's documented example
    ),
    # Discord bot tokens: base64 user id . timestamp . HMAC (ds: DiscordBotTokenDetector)
    rule(
        "discord_bot_token",
        ".",
        r"\.[\w-]{6}\.[\w-]{27,38}" + EW,
        not_after="",
        grow=r"(?<![\w.-])[MNO][\w-]{23,25}",
        entropy=3.5,
    ),
    # Discord webhooks: /api/webhooks/{webhook.id}/{webhook.token} (discord.com/developers/docs,
    # "Execute Webhook"); the token is 68 base64url characters
    rule(
        "discord_webhook_url",
        "discord.com/api/webhooks/ discordapp.com/api/webhooks/",
        r"(?i)discord(?:app)?\.com/api/webhooks/\d{17,20}/([\w-]{60,70})" + EW,
        not_after="",
    ),
    # HashiCorp: Terraform Cloud tokens (gl: hashicorp-tf-api-token); Vault hvs./hvb./hvr. (>=1.10,
    # gl: vault-service-token, vault-batch-token; np: hashicorp.4-6); legacy s./b./r. tokens need a
    # digit (gl allowlist `s\.[A-Za-z]{24}`) and a vault/token word near (np: hashicorp.1-3)
    rule("hashicorp_token", "atlasv1", r"(?i)[a-z0-9]{14}\.atlasv1\.[a-z0-9_=-]{60,70}", entropy=3.0),
    rule("hashicorp_token", "hvs. hvb. hvr.", r"hv[sbr]\.[\w-]{24,300}" + EW, entropy=3.0),
    rule(
        "hashicorp_token",
        "vault token key client api",
        r"\.[A-Za-z0-9]{24,100}" + E,
        check=has_digit,
        entropy=3.0,
        not_after="",
        grow=r"(?<![\w.])[sbr]",
        near=r"(?:vault|client|token|key|api).{0,15}[sbr]",
    ),
    # Vault unseal keys as `vault operator init` prints them (np: hashicorp.7)
    rule("hashicorp_token", "", r"Unseal Key \d+: ([A-Za-z0-9+/]{43,44}={0,2})", not_after=""),
    # Databricks PATs (np: databricks.1; gl: databricks-api-token)
    rule("databricks_token", "dapi", r"dapi[a-f0-9]{32}(?:-\d+)?" + E, entropy=3.0),
    # DigitalOcean (np: digitalocean.1-3)
    rule("digitalocean_token", "doo_v1_ dop_v1_ dor_v1_", r"do[opr]_v1_[a-f0-9]{64}" + E),
    # New Relic (docs.newrelic.com/docs/apis/intro-apis/new-relic-api-keys; np: newrelic.1-9)
    rule(
        "newrelic_key",
        "nrak- nraa- nrii- nriq- nrra- nrjs-",
        r"(?i)NR(?:AK|AA|II|IQ|RA|JS)-[\w-]{19,42}" + EW,
    ),
    rule("newrelic_key", "", r"NRAL" + E, not_after="", grow=r"(?<!\w)[A-Za-z0-9]{6}[a-fA-F0-9]{30}"),
    rule(
        "newrelic_key",
        "new relic",
        r"(?i)associated with your New Relic account\.\s+license_key:\s*([a-f0-9]{40})" + E,
        not_after="",
    ),
    rule("newrelic_key", "px-api- px-dep-", r"(?i)px-(?:api|dep)-" + UUID + E),
    # SonarQube tokens: sq[pua]_ + 40 hex (docs.sonarsource.com user tokens; gl: sonar-api-token)
    rule("sonarqube_token", "sqp_ sqa_ squ_", r"sq[pua]_[A-Za-z0-9]{40}" + E),
    # Sourcegraph (np: sourcegraph.1; gl: sourcegraph-access-token), Segment (np: segment.1)
    rule("sourcegraph_token", "sgp_", r"sgp_(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}" + E),
    rule("sourcegraph_token", "sgs_", r"sgs_[a-fA-F0-9]{64}" + E),
    rule("segment_token", "sgp_", r"sgp_[A-Za-z0-9]{64}" + E),
    # Grafana (np: grafana.1-3; gl: grafana-*)
    rule("grafana_token", "eyjrijoi", r"eyJrIjoi[A-Za-z0-9]{60,400}={0,3}", entropy=3.0),
    rule("grafana_token", "glc_", r"glc_[A-Za-z0-9+/]{32,400}={0,3}", entropy=3.0),
    rule("grafana_token", "glsa_", r"glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}" + E),
    # Dependency-Track (np: dtrack.1)
    rule("dtrack_token", "odt_", r"odt_[A-Za-z0-9]{32,255}" + E),
    # Doppler (docs.doppler.com/reference/auth-token-formats; np: doppler.1-6)
    rule(
        "doppler_token",
        "dp.",
        r"dp\.(?:pt|sa|ct|scim|audit|st(?:\.[a-z0-9_-]{2,35})?)\.[A-Za-z0-9]{40,44}" + E,
    ),
    rule("pulumi_token", "pul-", r"pul-[a-f0-9]{40}" + E, not_after=r"\w./-"),  # gl: pulumi-api-token
    rule("postman_token", "pmak-", r"(?i)PMAK-[a-f0-9]{24}-[a-f0-9]{34}" + E),  # np: postman.1
    # Shopify: 32 hex, now 32-64 base62 (shopify.dev/changelog "app-secret-key-length-has-increased",
    # "length-of-the-shopify-access-token-is-increasing")
    rule("shopify_token", "shpat_ shpca_ shppa_ shpss_", r"shp(?:at|ca|pa|ss)_[a-zA-Z0-9]{32,64}" + E),
    # Shopify's theme access password, `shptka_` (shopify.dev, "Theme Access app")
    rule("shopify_token", "shptka_", r"shptka_[a-zA-Z0-9]{32,64}" + E),
    # Klaviyo's private API key, `pk_` and 34 hex digits (developers.klaviyo.com, "Authenticate"; its
    # public key is a six-character site id, and Stripe's `pk_live_`/`pk_test_` are others')
    rule("generic_api_key", "pk_", r"pk_[0-9a-f]{34}" + E, not_after=r"\w"),
    # Cloudflare's prefixed tokens: 40 characters, then an 8-character checksum
    # (developers.cloudflare.com/fundamentals/api/get-started/token-formats/)
    rule("cloudflare_token", "cfk_ cfut_ cfat_", r"(?:cfk|cfut|cfat)_[A-Za-z0-9]{48}" + E, entropy=3.0),
    # Vercel personal, integration, app access/refresh tokens and AI Gateway keys (vercel.com
    # changelog on token prefixes; secretlint-rule-vercel)
    rule("vercel_token", "vcp_ vci_ vca_ vcr_ vck_", r"vc[picrk]_[A-Za-z0-9]{20,60}" + E, entropy=3.0),
    # Atlassian API tokens end in =<8 hex CRC> (np: atlassian.1; gl: atlassian-api-token)
    rule("atlassian_token", "atatt3", r"ATATT3[\w=-]{150,250}" + EW),
    # Airtable personal access tokens: pat + 14 characters, a dot, 64 hex (airtable.com/developers/
    # web/guides/personal-access-tokens; gl: airtable-personnal-access-token)
    rule("airtable_token", "pat", led("pat", r"[\w-]") + r"[A-Za-z0-9]{14}\.[a-f0-9]{64}" + E),
    rule(
        "atlassian_token",
        "atlassian confluence jira",
        r"(?i)(?:atlassian|confluence|jira)" + ASSIGN + r"([a-z0-9]{20}[a-f0-9]{4})(?![\w-])",
        entropy=3.5,
        not_after="",
    ),
    rule("bitbucket_token", "atbb", r"ATBB[A-Za-z0-9]{32}" + E),  # np: bitbucket.1
    # Fly.io (gl: flyio-access-token, entropy 4)
    rule(
        "flyio_token",
        "fo1_ fm1 fm2_",
        r"fo1_[\w-]{43}|fm1[ar]_[A-Za-z0-9+/]{100,}={0,3}|fm2_[A-Za-z0-9+/]{100,}={0,3}",
        entropy=4.0,
    ),
    # X's (Twitter's) app-only bearer tokens: 22 `A`s, a few characters, `A`s again, then base62
    # and URL-escaped base64 (`%2B`, `%3D`) (developer.x.com, "OAuth 2.0 Bearer Token"); the runs
    # of `A` make it look typed, so the random tail vouches for it
    rule(
        "twitter_secret",
        "",
        r"AAAAAAAAAAAAAAAAAAAAA{0,4}[A-Za-z0-9]{2,12}A{4,}[A-Za-z0-9%]{40,160}" + E,  # led by its literal
        trusted=lambda token: verify.random_enough(token.rstrip("A")[-40:]),
        not_after=r"\w",
    ),
    # Sumo Logic's HTTP source: the URL's last segment is the token that lets anyone send to it
    # (help.sumologic.com, "HTTP Logs and Metrics Source")
    rule(
        "sumologic_key",
        "sumologic.com/receiver",
        r"sumologic\.com/receiver/v1/(?:http|otlp|kinesis|prometheus)/([A-Za-z0-9_=-]{40,400})",
        not_after="",
    ),
    # New Relic's PHP agent: `newrelic.license = "…"` (40 hex, or a key ending NRAL)
    rule(
        "newrelic_key",
        "newrelic.license",
        r"newrelic\.license[ \t]*=[ \t]*\"?([0-9a-f]{40}|[A-Za-z0-9]{36}NRAL)\"?",
        not_after="",
    ),
    # Graylog's API tokens are given as the user, with the word `token` as the password
    rule(
        "cli_credentials",
        ":token",
        r"(?:-u|--user)[ =]['\"]?([a-z0-9]{30,100}):token\b",
        not_after="",
        check=random_with_digit,
    ),
    rule("infracost_token", "ico-", r"ico-[A-Za-z0-9]{32}(?![\w.-])", not_after=r"\w./-", entropy=3.0),
    # gl: prefect-api-token; a service account's (bot's) key is `pnb_` (docs.prefect.io, "Service accounts")
    rule("prefect_token", "pnu_ pnb_", r"pn[ub]_[A-Za-z0-9]{36}" + E, entropy=2.0),
    rule("readme_token", "rdme_", r"rdme_[a-z0-9]{70}" + E, entropy=2.0),  # gl: readme-api-token
    rule("groq_token", "gsk_", r"gsk_[A-Za-z0-9]{52}" + E),  # np: groq.1
    # LaunchDarkly's server-side SDK keys: sdk- and a UUID (docs.launchdarkly.com, "Keys"); the
    # mobile key (mob-) and client-side id ship in apps
    rule("launchdarkly_sdk_key", "sdk-", led("sdk-", r"[\w-]") + UUID + E),
    # A PKCS#12 file (.p12, .pfx) in base64 holds a private key: DER of a PFX, version 3 (RFC 7292),
    # `MII…IBAzCC`; CI variables carry signing certificates this way (BUILD_CERTIFICATE_BASE64)
    rule(
        "private_key", "", r"MI[IJKL][A-Za-z0-9+/]{2}[AQgw]IBAzCC[A-Za-z0-9+/]{200,}={0,2}", not_after=r"\w+/"
    ),
    # W&B's API keys: 40 hex given to `wandb login` (docs.wandb.ai, "wandb login")
    rule(
        "wandb_api_key", "wandb", r"wandb[ \t]+login(?:[ \t]+--[\w-]+)*[ \t]+([a-f0-9]{40})" + E, not_after=""
    ),
    # xAI's API keys: xai- and 80 base62 characters (docs.x.ai; gl: xai-api-key)
    rule("xai_api_key", "xai-", led("xai-", r"[\w-]") + r"[A-Za-z0-9]{80}" + E),
    rule("tavily_token", "tvly-", r"tvly-(?:dev-|prod-)?[A-Za-z0-9]{32}" + E),  # np: tavily.1
    rule("firecrawl_token", "fc-", r"fc-[a-f0-9]{32}" + E, not_after=r"\w./-"),  # np: firecrawl.1
    rule("jina_token", "jina_", r"jina_[A-Za-z0-9]{60}" + E),  # np: jina.1
    rule("perplexity_token", "pplx-", r"pplx-[A-Za-z0-9]{48}" + E, entropy=4.0),  # gl: perplexity
    rule("adafruit_token", "aio_", r"aio_[A-Za-z0-9]{28}" + E),  # np: adafruit.1
    rule("adobe_token", "p8e-", r"(?i)p8e-[a-z0-9-]{32}(?![a-z0-9-])"),  # np: adobe.1
    rule("rubygems_token", "rubygems_", r"rubygems_[a-f0-9]{48}" + E),  # np: rubygems.1
    rule("scalingo_token", "tk-us-", r"tk-us-[\w-]{48}" + EW),  # gl: scalingo-api-token
    rule("stackhawk_token", "hawk.", r"hawk\.[\w-]{20}\.[\w-]{20}" + EW),  # np: stackhawk.1
    rule("linear_token", "lin_api_", r"(?i)lin_api_[a-z0-9]{40}" + E),  # gl: linear-api-key
    rule("clickhouse_token", "4b1d", r"4b1d[A-Za-z0-9]{38}" + E, entropy=3.0),  # gl: clickhouse
    rule("dockerhub_token", "dckr_pat_", r"dckr_pat_[\w-]{27}" + EW),  # np: dockerhub.1
    rule("nuget_token", "oy2", r"oy2[a-z0-9]{43}" + E),  # np: nuget.1
    rule("octopus_token", "api-", r"API-[A-Z0-9]{26}" + E, entropy=3.0, not_after=r"\w./-"),
    rule("sentry_token", "sntrys_", r"sntrys_eyJ[A-Za-z0-9+/=_]{50,}", entropy=4.5),  # gl: sentry-org
    rule("sentry_token", "sntryu_", r"sntryu_[a-f0-9]{64}" + E),  # gl: sentry-user-token
    # 1Password (gl: 1password-secret-key entropy 3.8, 1password-service-account-token entropy 4)
    rule("onepassword_secret", "ops_", r"ops_eyJ[A-Za-z0-9+/]{250,}={0,3}", entropy=4.0),
    rule(
        "onepassword_secret",
        "a3-",
        r"A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}" + E,
        entropy=3.8,
    ),
    # Notion integration secrets (gl: notion-api-token entropy 4; developers.notion.com)
    rule("notion_token", "ntn_", r"ntn_\d{11}[A-Za-z0-9]{35}" + E, entropy=4.0),
    rule("notion_token", "secret_", r"secret_[A-Za-z0-9]{43}" + E, entropy=4.0, not_after=r"\w"),
    # Salesforce session ids: 15-character org id ! opaque part (np: salesforce.1)
    rule("salesforce_token", "!", r"00[A-Za-z0-9]{13}![A-Za-z0-9._]{80,}", not_after=r"\w"),
    # Square (np: square.1-2; gl: square-access-token)
    rule("square_token", "sq0atp- sq0csp- sq0idp-", r"sq0(?:atp|csp)-[\w-]{22,43}" + EW),
    rule("square_token", "eaaa", r"EAAA[\w-]{22,60}" + EW, entropy=3.0),
    # Facebook (gl: facebook-page-access-token, facebook-access-token; np: facebook.2)
    rule("facebook_token", "eaam eaac", r"EAA[MC][A-Za-z0-9]{90,}" + E, entropy=4.0),
    rule("facebook_token", "facebook", r"\d{15,16}(?:\||%7C)[\w-]{27,40}" + EW, entropy=3.0),
    rule("intra42_token", "s-s4t2", r"s-s4t2(?:ud|af)-[a-fA-F0-9]{64}" + E),  # gl: intra42
    rule("cloudflare_token", "v1.0-", r"v1\.0-[a-f0-9]{24}-[a-f0-9]{146}" + E),  # gl: origin-ca
    rule("mapbox_token", "sk.eyj tk.eyj", r"[st]k\.eyJ[\w-]{20,}\.[\w-]{20,}"),  # np: mapbox.2-3
    rule("dynatrace_token", "dt0", r"dt0[a-z]\d{2}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}" + E),
    rule("django_secret_key", "django-insecure-", r"django-insecure-[^\s'\"]{20,}"),
    # Django's get_random_secret_key(): 50 characters of a-z, 0-9 and !@#$%^&*(-_=+) (django/core/
    # management/utils.py), written under SECRET_KEY; its `$` and `#` are characters, not the shell's
    rule(
        "django_secret_key",
        "secret_key",
        r"SECRET_KEY\b[\"']?[ \t]*[=:\t][ \t]*r?([\"'])(?P<secret>[a-z0-9!@#$%^&*(\-_=+)]{50})\1",
        trusted=lambda key: verify.entropy(key) >= 4.0,  # 5.1 bits a character when random
        not_after=r"\w",
    ),
    rule("openshift_token", "sha256~", r"sha256~[\w-]{43}" + EW),  # gl: openshift-user-token
    # np: dropbox.1 (130-152); Dropbox's newer short-lived tokens are `sl.u.` + a longer body
    rule("dropbox_token", "sl.", r"sl\.(?:u\.)?[\w-]{130,1000}" + EW, not_after=r"\w."),
    # Supabase: personal access tokens `sbp_` + 40 hex, secret API keys `sb_secret_…` (the
    # `sb_publishable_` ones are public) (supabase.com/docs/guides/api/api-keys)
    rule("supabase_token", "sbp_", r"sbp_[0-9a-f]{40}" + E, not_after=r"\w"),
    rule("supabase_token", "sb_secret_", r"sb_secret_[\w-]{20,}" + EW, not_after=r"\w"),
    # Contentful personal access tokens: CFPAT- + 43 (contentful.com/developers/docs/references/
    # authentication: "Personal Access Tokens")
    rule("contentful_token", "cfpat-", r"CFPAT-[\w-]{43}" + EW, not_after=r"\w"),
    # Stripe webhook signing secrets: whsec_ + base62 (docs.stripe.com/webhooks#verify-events); Svix's
    # (Clerk's, Resend's) are whsec_ + base64 (docs.svix.com, "Verifying payloads")
    rule(
        "stripe_api_key",
        "whsec_",
        r"whsec_[A-Za-z0-9+/]{24,}={0,2}(?![A-Za-z0-9+/=])",
        entropy=3.0,
        not_after=r"\w",
    ),
    # Brevo (Sendinblue) API keys: xkeysib- + 64 hex + - + 16 (developers.brevo.com, "API keys")
    rule("brevo_api_key", "xkeysib- xsmtpsib-", r"x(?:keysib|smtpsib)-[0-9a-f]{64}-[A-Za-z0-9]{16}" + E),
    # Typeform personal access tokens: tfp_ and about 59 more (gl: typeform-api-token)
    rule("typeform_token", "tfp_", r"tfp_[A-Za-z0-9_.=-]{40,80}" + EW, check=random_with_digit),
    # HubSpot private-app tokens: pat-<region>-<UUID> (developers.hubspot.com, "Private apps")
    rule("hubspot_token", "pat-na pat-eu pat-ap", r"pat-(?:na|eu|ap)\d-" + UUID + E, not_after=r"\w-"),
    # ClickUp personal tokens: pk_<user id>_<32 upper alphanumerics> (clickup.com/api, "Authentication")
    rule("clickup_token", "pk_", r"pk_\d{4,12}_[A-Z0-9]{32}" + E, not_after=r"\w"),
    # Braintree access tokens: access_token$<environment>$<merchant>$<32 hex> (np: braintree)
    rule(
        "braintree_token",
        "access_token$",
        r"access_token\$(?:production|sandbox)\$[0-9a-z]{16}\$[0-9a-f]{32}" + E,
    ),
    # Firebase Cloud Messaging legacy server keys: AAAA + 7 : APA91b… (firebase.google.com, "legacy HTTP")
    rule("firebase_token", "apa91b", r"AAAA[\w-]{7}:APA91b[\w-]{100,}" + EW, not_after=r"\w"),
    # Ably API keys: app id . key id : key secret (ably.com/docs/auth/basic)
    # (led by its `.`: a pattern led by a class would be tried at every position)
    rule(
        "ably_api_key", ".", r"\.(?<![\w-][\w-]{6}\.)(?<=[\w-]{6}\.)[\w-]{6}:([\w-]{43})" + EW, not_after=""
    ),
    # Intercom access tokens are base64 of `tok:<UUID>:1:0` (so they start dG9rO)
    rule("intercom_token", "dg9ro", r"dG9rO[A-Za-z0-9+/]{40,}={0,2}", not_after=r"\w+/"),
    # LangSmith API keys: lsv2_pt_/lsv2_sk_ + 32 hex + _ + 10 hex (docs.smith.langchain.com)
    rule("langsmith_api_key", "lsv2_", r"lsv2_(?:pt|sk)_[0-9a-f]{32}_[0-9a-f]{10}" + E, not_after=r"\w"),
    rule("twitch_token", "live_", r"live_\d{8,12}_[A-Za-z0-9]{30,36}" + E),  # np: twitch.1
    rule("heroku_api_key", "hrku-aa", r"HRKU-AA[\w-]{58}" + EW),  # gl: heroku-api-key-v2
    # Yandex OAuth tokens `y0_…` (yandex.ru/dev/id/doc), VK access tokens `vk1.a.…` (dev.vk.com),
    # Mercado Pago access tokens `APP_USR-<16>-<6>-<32 hex>-<id>` (mercadopago.com/developers),
    # Midtrans server keys `Mid-server-…` (`SB-` in the sandbox; its `Mid-client-` keys are public)
    rule("yandex_token", "y0_", r"y0_[A-Za-z0-9_-]{40,}" + EW, entropy=3.5, not_after=r"\w"),
    rule("vk_token", "vk1.a.", r"vk1\.a\.[A-Za-z0-9_-]{80,}" + EW, not_after=r"\w"),
    rule("mercadopago_token", "app_usr- test-", r"(?:APP_USR|TEST)-\d{16}-\d{6}-[0-9a-f]{32}-\d{6,12}" + E),
    rule(
        "midtrans_server_key", "mid-server-", r"(?:SB-)?Mid-server-[A-Za-z0-9_-]{20,}" + EW, not_after=r"\w"
    ),
    # CircleCI personal API tokens: CCIPAT_ + id + _ + 40 hex (circleci.com/docs, "Managing API tokens")
    rule("circleci_token", "ccipat_", r"CCIPAT_[A-Za-z0-9]{20,30}_[0-9a-f]{40}" + E),
    # Netlify personal access tokens: nfp_ + 36 (docs.netlify.com, "Personal access tokens")
    rule("netlify_token", "nfp_", r"nfp_[A-Za-z0-9]{36}" + E, entropy=3.0, not_after=r"\w"),
    # Pinecone API keys: pcsk_ + key id + _ + secret (docs.pinecone.io, "Authentication")
    rule("pinecone_api_key", "pcsk_", r"pcsk_[A-Za-z0-9]{4,10}_[A-Za-z0-9]{32,}" + E, not_after=r"\w"),
    # Buildkite API access tokens: bkua_ + 40 hex (buildkite.com/docs/apis/managing-api-tokens)
    rule("buildkite_token", "bkua_", r"bkua_[0-9a-f]{40}" + E, not_after=r"\w"),
    # PlanetScale service tokens and database passwords: pscale_tkn_, pscale_pw_, pscale_oauth_
    # (planetscale.com/docs/concepts/service-tokens, "Connection strings")
    rule("planetscale_token", "pscale_", r"pscale_(?:tkn|pw|oauth)_[\w.-]{32,64}" + EW, not_after=r"\w"),
    # Mollie API keys: live_ or test_ + 30 alphanumerics (docs.mollie.com, "Authentication"); the
    # prefixes are common words, so only a random body counts
    rule(
        "mollie_api_key",
        "live_ test_",
        r"(?:live|test)_[A-Za-z0-9]{30}" + E,
        check=lambda token: verify.random_enough(token[5:]) and has_digit(token),
        not_after=r"\w.-",
    ),
    rule(
        "easypost_token", "ezak eztk", r"EZ[AT]K[A-Za-z0-9]{54}" + E, entropy=2.0
    ),  # gl: easypost-api-token, easypost-test-api-token
    rule("maxmind_token", "_mmk", r"[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk" + E, entropy=4.0),
    # Artifactory API keys (AKCp + 69) and reference tokens (cmVmd + 59): gl: artifactory-*, np:
    # artifactory.1, entropy 4.5
    rule("artifactory_token", "akcp", r"AKCp[A-Za-z0-9]{69}" + E, entropy=4.5),
    rule("artifactory_token", "cmvmd", r"cmVmd[A-Za-z0-9]{59}" + E, entropy=4.5),
    # Azure AD client secrets: 3 chars, a digit, Q~, 31-34 chars (gl: azure-ad-client-secret)
    rule(
        "azure_credential",
        "q~",
        r"[\w~.]{3}\dQ~[\w~.-]{31,34}(?![\w~.-])",
        entropy=3.0,
        not_after=r"\w~.-",
    ),
    # Azure DevOps PATs: 52 base32 characters (np: azure.3)
    rule(
        "azure_credential",
        "ado_pat pat_token personal $token",
        r"(?i)(?:ado_pat|pat_token|personal_?access_?token|\$token)\s*=\s*[\"']([a-z0-9]{52})[\"']",
        not_after=r"\w",
    ),
    # ... and the 84-character format whose signature `AZDO` sits at position 76
    rule("azure_credential", "azdo", r"[A-Za-z0-9]{76}AZDO[A-Za-z0-9]{4}" + E, entropy=4.0),
    # crypt(3) password hashes (np: pwhash.1-5, krb5.asrep.23.1; hashcat example_hashes)
    rule(
        "password_hash",
        "",
        r"\$(?:1|2[abxy]?|5|6|7|8|9|y|gy|argon2(?:id|i|d)|scrypt|pbkdf2[\w-]*|krb5asrep\$\d+"
        # crypt's alphabet with its `$` fields, argon2's m=…,t=…, krb5's user@realm: not code
        r"|krb5tgs\$\d+)\$[\w./$=,+*:@-]{20,}",
        not_after="",
    ),
    # Kubernetes bootstrap tokens: 6 + 16 lowercase alphanumerics (kubernetes.io bootstrap-tokens
    # "Token format"; np: kubernetes.1); kubeadm's documented abcdef.0123456789abcdef is an example
    rule(
        "kubernetes_token",
        ".",
        r"\.[a-z0-9]{16}(?![\w.])",
        check=lambda s: s != "abcdef.0123456789abcdef" and has_digit(s[-16:]) and not s[-16:].isdigit(),
        entropy=3.0,
        not_after="",
        grow=r"(?<![\w.])[a-z0-9]{6}",
    ),
    # JWT: three base64url parts, the first two JSON objects (RFC 7519; gl: jwt; np: jwt.1;
    # ds: JwtTokenDetector); verified by decoding the header
    rule(
        "jwt",
        "eyj",
        r"eyJ[\w-]{10,}\.eyJ[\w/\\-]{10,}(?:\.[\w/\\-]+={0,2})?",
        check=lambda token: verify.jwt_ok(token) and not verify.public_jwt(token),
        not_after=r"\w",
    ),
    rule("jwt_token", "zxlk", r"ZXlK[A-Za-z0-9/\\_+-]{40,}={0,2}", entropy=2.0),  # gl: jwt-base64
]

# Credentials written in a provider's context: the name says which provider, the value has its
# format. Mirrors gitleaks' keyword rules and Nosey Parker's context rules.
CONTEXTUAL: list[Rule] = [
    keyed("sumologic_key", "sumo", r"su[a-zA-Z0-9]{12}|[a-zA-Z0-9]{64}", "sumo", entropy=3.0),
    keyed(
        "snyk_token",
        r"snyk[_.-]?(?:(?:api|oauth)[_.-]?)?(?:key|token)",
        UUID,
        "snyk",
    ),
    keyed("sonarqube_token", r"sonar[_.-]?(?:login|token)", r"[a-z0-9=_-]{40}", "sonar"),
    rule(
        "sonarqube_token",
        "sonar",
        r"(?i)sonar.{0,5}login.{0,5}\s*(?<![\w])([a-f0-9]{40})(?![\w])",
        not_after="",
    ),
    keyed("cohere_token", r"cohere|CO_API_KEY", r"[a-zA-Z0-9]{40}", "cohere co_api_key", entropy=4.0),
    keyed("cisco_token", r"meraki", r"[0-9a-f]{40}", "meraki", entropy=3.0),
    keyed("etsy_token", r"etsy", r"[a-z0-9]{24}", "etsy", entropy=3.0),
    keyed("twitch_token", r"twitch", r"[a-z0-9]{30}", "twitch"),
    keyed("discord_bot_token", r"discord", r"[a-f0-9]{64}|[a-z0-9=_-]{32}", "discord", entropy=2.0),
    keyed(
        "facebook_token",
        r"f(?:acebook|b)(?<![\w]fb)",
        r"[a-f0-9]{32}",
        "facebook fbapi fb_ fbkey fbsecret",
        entropy=3.0,
    ),
    keyed("heroku_api_key", r"heroku", UUID, "heroku"),
    keyed("hubspot_token", r"hubspot", UUID, "hubspot"),
    keyed(
        "messagebird_token",
        r"message[_-]?bird",
        UUID + r"|[a-z0-9]{25}",
        "messagebird message-bird message_bird",
    ),
    keyed("okta_token", r"okta", r"00[\w=-]{40}", "okta", entropy=4.0),
    keyed(
        "privateai_token", r"private[_-]?ai", r"[a-z0-9]{32}", "privateai private_ai private-ai", entropy=3.0
    ),
    keyed("figma_token", r"figma", r"[0-9a-f]{4}-" + UUID, "figma"),
    keyed("postmark_api_token", r"postmark", UUID, "postmark"),
    keyed("linkedin_secret", r"linked[_-]?in", r"[a-z0-9]{16}", "linkedin linked_in linked-in", entropy=2.0),
    keyed("twitter_secret", r"twitter", r"[a-z0-9]{35,50}", "twitter"),
    keyed("beamer_token", r"beamer", r"b_[a-z0-9=_-]{44}", "beamer"),
    keyed("cloudflare_token", r"cloudflare", r"[a-z0-9_-]{40}|[a-f0-9]{37}", "cloudflare", entropy=2.0),
    keyed("mapbox_token", r"mapbox", r"pk\.[a-z0-9]{60}\.[a-z0-9]{22}", "mapbox"),
    keyed("jenkins_token", r"jenkins", r"[0-9a-f-]{32,36}", "jenkins"),
    keyed("sauce_token", r"sauce", r"[0-9a-f-]{36}", "sauce"),
    keyed("kagi_token", r"kagi", r"[\w-]{11}\.[\w-]{43}", "kagi"),
    keyed("aws_session_token", r"aws.?session(?:.?token)?|aws.?token", r"[A-Za-z0-9/+=]{16,}", "aws"),
    # np: aws.2, the 40-character secret key under its name
    keyed(
        "aws_secret_access_key",
        r"aws_?(?:secret)?_?(?:access)?_?(?:key)?",
        r"[A-Za-z0-9/+=]{40}",
        "aws",
        entropy=3.0,
        check=random_base64,
        unless=r"arn:[^\s\"']*\Z",  # `arn:aws:iam::aws:policy/…` names no key; PowerShell's `$env:AWS_…` does
    ),
    # np: okta.1 (also `Authorization: SSWS 00…`)
    rule(
        "okta_token",
        "okta ssws",
        r"(?is)(?:okta|ssws).{0,40}?(?:(?<![\w-])|(?<=%20))(00[a-z0-9_-]{39}[a-z0-9_])(?![\w-])",
        not_after="",
    ),
    rule(
        "heroku_api_key", "heroku", r"(?i)heroku.{0,20}key.{0,20}?(?<![\w-])(" + UUID + r")" + E, not_after=""
    ),
    rule(
        "kagi_token",
        "kagi",
        r"(?s)(?:kagi|KAGI).{0,100}?(?<![\w-])([\w-]{11}\.[\w-]{43})(?![\w-])",
        not_after="",
    ),
    rule(
        "jenkins_token",
        "jenkins",
        r"(?i)jenkins.{0,10}(?:crumb|token)?.{0,10}?(?<![\w-])([0-9a-f-]{32,36})(?![\w-])",
        not_after="",
    ),
    rule("sauce_token", "sauce", r"(?i)sauce.{0,50}?(?<![\w-])([a-f0-9-]{36})(?![\w-])", not_after=""),
    rule(
        "postmark_api_token",
        "postmark",
        r"(?i)postmark[a-z0-9_-]{0,20}.{0,10}?(?<![\w-])(" + UUID + r")" + E,
        not_after="",
    ),
    rule("figma_token", "figma", r"(?i)figma.{0,20}?(?<![\w-])([0-9a-f]{4}-" + UUID + r")" + E, not_after=""),
    rule(
        "mailchimp_api_key",
        "mailchimp",
        r"(?i)(?:mailchimp|\bmc).{0,20}?([a-f0-9]{32}-us\d{1,3})" + E,
        not_after="",
    ),
    rule("twilio_api_key", "twilio", r"(?i)twilio.{0,20}?(?<![\w])(sk[a-f0-9]{32})" + E, not_after=""),
    rule(
        "facebook_token",
        "facebook fbapi fb_ fbkey fbsecret fbapp",
        r"(?i)(?<![a-z])(?:facebook|fb).?(?:api|app|application|client|consumer|customer|secret|key).?"
        r"(?:key|oauth|sec|secret)?.{0,2}\s{0,20}.{0,2}\s{0,20}.{0,2}?(?<![a-z0-9])([a-z0-9]{32})(?![a-z0-9])",
        not_after="",
    ),
    rule(
        "twitter_secret",
        "twitter",
        r"(?i)twitter.?(?:api|app|application|client|consumer|customer|secret|key).?(?:key|oauth|sec|secret)?"
        r".{0,2}\s{0,20}.{0,2}\s{0,20}.{0,2}?(?<![a-z0-9])([a-z0-9]{35,44})(?![a-z0-9])",
        not_after="",
    ),
    rule(
        "linkedin_secret",
        "linkedin",
        r"(?i)linkedin.?(?:api|app|application|client|consumer|customer|secret|key).?(?:key|oauth|sec|secret)?"
        r".{0,2}\s{0,20}.{0,2}\s{0,20}.{0,2}?(?<![a-z0-9])([a-z0-9]{16})(?![a-z0-9])",
        not_after="",
    ),
    rule(
        "github_token",
        "github",
        r"(?i)github.?(?:api|app|application|client|consumer|customer|secret|key).?(?:key|oauth|sec|secret)?"
        r".{0,2}\s{0,20}.{0,2}\s{0,20}.{0,2}?(?<![a-z0-9])([a-z0-9]{40})(?![a-z0-9])",
        not_after="",
    ),
    rule(
        "generic_api_key",
        "gitalk",
        r"new\s+Gitalk\s*\(\s*\{\s*clientID:\s*'[a-f0-9]{20}',\s*clientSecret:\s*'([a-f0-9]{40})'",
        not_after="",
    ),
    # Mapbox (np: mapbox.1-3 want "mapbox" within 30 characters)
    rule(
        "mapbox_token",
        "mapbox",
        r"(?is)mapbox.{0,30}?([spt]k\.[a-z0-9+/=-]{32,128}\.[a-z0-9+/=-]{20,30})(?![a-z0-9+/=-])",
        not_after="",
    ),
    # NASA (np: nasa.1), Blynk (np: blynk.*), particle.io (np: particleio.1-2), ThingsBoard
    # (np: thingsboard.1-3), TrueNAS (np: truenas.1-2): the token in its API URL or header
    rule("nasa_token", "nasa.gov", r"nasa\.gov/.{0,200}?api_key=([A-Za-z0-9]{40})" + E, not_after=""),
    rule(
        "blynk_token",
        "blynk.cloud",
        r"blynk\.cloud/[\w/\\?=&\s-]*?(?:token=|client_secret=|oa2-client-id_[\w-]{32}:|Bearer\s*)"
        r"([\w-]{32,40})" + EW,
        not_after="",
    ),
    rule(
        "blynk_token",
        "blynk.cloud",
        r"(?:Bearer\s*|oa2-client-id_[\w-]{32}:)([\w-]{40})[\"\s\\]*https://(?:\w+\.)*blynk\.cloud",
        not_after="",
    ),
    rule(
        "particleio_token",
        "api.particle.io",
        r"(?:access_token=|Authorization:\s*Bearer\s*)([a-zA-Z0-9]{40})" + E,
        not_after="",
    ),
    # (and a ThingsBoard server of one's own: its device API, `/api/v1/TOKEN/telemetry`; thingsboard.io,
    # "HTTP Device API")
    rule("thingsboard_token", "thingsboard", r"thingsboard\.cloud/api/v1/([a-z0-9]{20})" + E, not_after=""),
    rule(
        "thingsboard_token",
        "/api/v1/",
        r"/api/v1/([A-Za-z0-9]{20})/(?:telemetry|attributes|rpc|claim|firmware|software)\b",
        not_after="",
        check=random_with_digit,
    ),
    rule(
        "thingsboard_token",
        "provisiondevice",
        r"\"provisionDevice(?:Key|Secret)\"\s*:\s*\"([a-z0-9]{20})\"",
        not_after="",
    ),
    rule(
        "truenas_token",
        "params",
        r"params\\?\"\s*:\s*\[\s*\\?\"(\d+-[a-zA-Z0-9]{64})\\?\"",
        not_after="",
        near='"',  # the key's opening quote, looked for behind the literal that leads the pattern
    ),
    rule("truenas_token", "bearer", r"Bearer\s*(\d+-[a-zA-Z0-9]{64})" + E, not_after=""),
    # Sidekiq Enterprise credentials (gl: sidekiq-secret, sidekiq-sensitive-url)
    rule(
        "sidekiq_secret",
        "contribsys__com",
        r"(?i)BUNDLE_(?:ENTERPRISE|GEMS)__CONTRIBSYS__COM" + ASSIGN + r"([a-f0-9]{8}:[a-f0-9]{8})" + E,
        not_after="",
    ),
    rule(
        "url_with_credentials",
        "contribsys.com",
        r"(?i)https?://([a-f0-9]{8}:[a-f0-9]{8})@(?:gems|enterprise)\.contribsys\.com",
        not_after="",
    ),
    # JWT signing secrets in config (np: jwt.2-3)
    rule(
        "jwt_signing_secret",
        "jwt",
        r"(?im)^\s*(?:jwt:\s+secret:|jwtsecret:)\s+(?:\"([^\"\n]{6,200})\"|'([^'\n]{6,200})')",
        not_after="",
    ),
    # Django's generated settings (np: django.1)
    rule(
        "django_secret_key",
        "security warning",
        r"# SECURITY WARNING: keep the secret key used in production secret!\s*.{0,5}SECRET_KEY\s*=\s*"
        r"r?[\"']([^\"'\n]{5,100})[\"']",
        not_after="",
    ),
    # IBM Cloud (ds: IbmCloudIamDetector, IbmCosHmacDetector, SoftlayerDetector, CloudantDetector)
    assignment(
        "ibm_cloud_credential",
        r"ibm[_-]?cloud[_-]?iam|cloud[_-]?iam|ibm[_-]?cloud|ibm[_-]?iam|ibm|iam|cloud",
        r"(?:api|platform|)[_-]?(?:key|pwd|password|pass|token)",
        r"[a-zA-Z0-9_-]{44}",
        "ibm iam cloud",
    ),
    # IBM COS HMAC: ds' token_prefix `(?:(?:ibm)?[-_]?cos[-_]?(?:hmac)?|)` may be empty, so a
    # name starting with `secret_access_key`/`secret_key` and 48 hex is one
    rule(
        "ibm_cloud_credential",
        "secret",
        r"(?i)secret[-_]?(?:access)?[-_]?key\\?['\"]?\]?\s*(?:=|:|:=|=>| +|::)\s*\\?['\"]?"
        r"([a-f0-9]{48})(?![\w-])",
        not_after="",
        # the name starts here; COS speaks S3, its HMAC keys are also kept as AWS's (`aws_secret_access_key`)
        near=r"(?<![a-z0-9_])(?:(?:ibm)?[-_]?cos[-_]?(?:hmac)?[-_]?|aws_)?",
    ),
    assignment(
        "ibm_cloud_credential",
        r"(?:softlayer|sl)[_-]?(?:api|)",
        r"key|pwd|password|pass|token",
        r"[a-z0-9]{64}",
        "softlayer sl",
    ),
    rule(
        "ibm_cloud_credential",
        "api.softlayer.com",
        r"(?i)https?://api\.softlayer\.com/soap/(?:v3|v3\.1)/([a-z0-9]{64})",
        not_after="",
    ),
    assignment(
        "ibm_cloud_credential",
        r"cloudant|cl|clou",
        r"(?:api|)(?:key|pwd|pw|password|pass|token)",
        r"[0-9a-f]{64}|[a-z]{24}",
        "cloudant cl clou",
    ),
    rule(
        "ibm_cloud_credential",
        "cloudant.com",
        r"(?i)https?://[\w-]+:([0-9a-f]{64}|[a-z]{24})@[\w-]+\.cloudant\.com",
        not_after="",
    ),
    # Hadoop's ABFS/WASB account key setting, `fs.azure.account.key.<account>.dfs.core.windows.net`
    # (hadoop.apache.org, hadoop-azure): the storage account's 64-byte key in base64
    rule(
        "azure_credential",
        "fs.azure.account.key.",
        r"fs\.azure\.account\.key\.[\w.-]+[\"']?[ \t]*(?:[,=:][ \t]*)?[\"']?([A-Za-z0-9+/]{86}==)",
        not_after="",
    ),
    # Azure connection strings (np: azure.1-2; ds: AzureStorageKeyDetector)
    rule(
        "azure_credential",
        "accountkey sharedaccesskey sharedsecretvalue",
        r"(?i)(?:AccountKey|SharedAccessKey|SharedSecretValue)\s*=\s*([^${;<\[.\s*][^;\s\"'<]{2,100})",
        not_after=r"\w",
        check=lambda value: "(" not in value,  # code reading it: `accountKey = System.getenv(…)`
    ),
    rule(
        "azure_credential",
        "azconfig.io",
        r"azconfig\.io;Id=[^;\s]{4,40};Secret=([A-Za-z0-9+/]{36,50}=)",
        not_after="",
    ),
]

# Syntax that carries a credential whatever its format.
STRUCTURES: list[Rule] = [
    # scheme://user:password@host, also a comma-separated host list (user:pw@h1,user:pw@h2)
    # (np: postgres.1, mongodb.1; ds: BasicAuthDetector)
    rule(
        "url_with_credentials",
        "://",
        # (SMB's `DOMAIN;user`; not a template whose port is a word, `user:password@host:port`)
        # (the user may be a mail address left unescaped, `smtp://alerts@acme.io:…@smtp.host`)
        r"://(?:[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}"
        r"|[A-Za-z0-9._%+!$&*=~;-]{0,100})"
        # (not a template in capitals, `USER:PASSWORD@HOST`)
        r":(?![A-Z_]+@[A-Z][A-Z_]*(?:[:/\s'\"`]|$)|(?:PASSWORD|PASSWD|PASS|PWD|SECRET)@)"
        r"([^\s/'\"@]{1,200}(?:@[^\s/'\"@]{1,100})*)@"
        r"(?![\w.-]*:[A-Za-z])(?:[\w.-]*\w|\[[^\]\s]+\])",
        not_after="",
        # a mask (`guest:**@`, a log's), words naming the idea (`db_user:db_password@`, Symfony's
        # sample); documentation's `username:password@` stays a password for detect-secrets and
        # secretlint (their tests), so it is redacted too
        check=lambda value: (
            re.fullmatch(r"\*+|[a-z]+(?:_[a-z]+)*_(?:password|passwd|pass|pwd|secret)", value) is None
        ),
    ),
    rule(
        "url_with_credentials",
        "@",
        r",[A-Za-z0-9._%+-]{1,100}:([^\s/'\"@]{1,200})@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+",
        not_after="",
    ),
    # A database URI with an empty host: libpq's Unix socket (`postgresql://user:pass@/db?host=/run/…`),
    # Snowflake's account given as a parameter (`snowflake://user:pass@/db?account=…`)
    rule(
        "url_with_credentials",
        "://",
        r"(?i)(?:postgres(?:ql)?|mysql|mariadb|snowflake|redshift|mongodb|mssql|oracle|redis|amqp)(?:\+\w+)?"
        r"://[\w.%+-]{1,100}:([^\s/'\"@]{1,200})@/\w",
        not_after="",
        check=literal_password,
    ),
    # A UNC-style URL without a scheme, as fstab and mount.cifs write it: `//user:pass@nas.lan/share`
    rule(
        "url_with_credentials",
        "//",
        r"//(?<![:\w/]//)[\w.$;-]{1,64}:([^\s/'\"@]{3,200})@[\w-]+(?:\.[\w-]+)*/",
        not_after="",
        check=literal_password,
    ),
    # A token as a URL's whole user part (NATS, InfluxDB, a git host): `nats://<token>@host`, random;
    # not a Sentry DSN's, whose key is public (docs.sentry.io, "Data Source Name"), nor SSH's user
    rule(
        "url_with_credentials",
        "://",
        # (not an Ethereum node's `enode://<public key>@host`)
        r"(?<!ssh)(?<!enode)://([A-Za-z0-9_-]{20,200})@(?![\w.-]*sentry)[\w-]+(?:\.[\w-]+)*(?::\d+)?(?:[/\s'\"]|$)",
        not_after="",
        check=lambda token: verify.random_enough(token) and has_digit(token),
    ),
    # Oracle's JDBC thin URL, `jdbc:oracle:thin:user/password@host:port:SID` (Oracle JDBC guide)
    rule(
        "db_connection_string",
        "jdbc:oracle:thin:",
        r"jdbc:oracle:thin:[\w$#.-]+/([^@\s'\"]{3,200})@",
        not_after="",
        check=literal_password,
    ),
    # InfluxDB 1.x takes its login as query parameters, `?u=telegraf&p=…` (docs.influxdata.com)
    rule(
        "url_with_credentials",
        "&p=",
        r"[?&]u=[^&\s]{1,64}&p=([^&\s'\"]{3,200})",
        not_after="",
        check=literal_password,
    ),
    # An LDAP URL's bind password extension, `X-BINDPW=…` (RFC 4516 extensions; OpenLDAP)
    rule(
        "url_with_credentials",
        "x-bindpw=",
        r"(?i)x-bindpw=([^,\s'\"]{3,200})",
        not_after="",
    ),
    # PHP's database connections take the password by position: `new PDO($dsn, $user, '…')`,
    # `mysqli_connect($host, $user, '…', …)`, `new mysqli(…)` (php.net manual)
    rule(
        "generic_password",
        "pdo mysqli",
        r"(?i)(?:new[ \t]+pdo|mysqli_connect|new[ \t]+mysqli)[ \t]*\(\s*(?:[\"'][^\"'\n]*[\"']|\$\w+)\s*,"
        r"\s*(?:[\"'][^\"'\n]*[\"']|\$\w+)\s*,\s*[\"']([^\"'\n]{3,200})[\"']",
        not_after=r"\w",  # not a leading `\b`: it would cost the engine its fast scan
        check=literal_password,
    ),
    # A session cookie is the login itself (RFC 6265): a cookie named for a session, a login or its
    # token, with a random value, in a `Cookie:`/`Set-Cookie:` header, a cookie string (`"cookie":
    # "…"`, `document.cookie`), `curl -b`/`--cookie`, or a HAR file's cookies
    rule(
        "session_cookie",
        "cookie -b",
        # (a HAR file's `"name": "Cookie",` then `"value": "…"` on the next line)
        r"(?:(?i:cookie)|(?<![\w-])-b[ \t])(?:[^\n]|\n(?=[ \t]*\"value\")){0,400}?(?<![\w.%-])"
        + SESSION_COOKIE
        + r"=([\w%.~+/:!*-]{16,400}={0,2})(?![\w%.~+/=-])",
        check=session_value,
        not_after="",
    ),
    rule(
        "session_cookie",
        "cookies",
        r"\"name\":[ \t]*\"" + SESSION_COOKIE + r"\",\s*\"value\":[ \t]*\"([\w%.~+/:!*-]{16,400}={0,2})\"",
        check=session_value,
        not_after="",
    ),
    # RFC 7617 Basic, RFC 6750 Bearer, Okta SSWS (np: http.1-2; gl: curl-auth-header)
    # the header's name then its value: `Authorization: …`, a quoted name set by a call
    # (`Headers.Add("Authorization", "…")`), an index (`headers["Authorization"] = …`), PHP's `=>`;
    # Basic credentials are checked to be base64 of `user:password` where they decode to text
    *(
        rule(
            "http_auth_header",
            "authorization",
            r"(?i)\bauthorization\b(?:[\"']\]?\s*(?:=>|[:=,])\s*|\s*[:=]\s*|[ \t]+(?=[\"']))f?[\"']?"
            + schemes
            + r"\s+([\w+/=.~-][\w+/=.~:-]{5,})(?![\w+/=.~:-])",  # (Asana's `2/…/…:…`)
            not_after="",
            check=check,
        )
        for schemes, check in (
            # (not Census' `secret-token:<your workspace token>`, a prefix before a placeholder)
            (
                "(?:bearer|token|apikey|api-key|key|ssws|digest)",
                lambda token: (
                    not token.endswith((":", "=", "_"))
                    and not words_joined(token)
                    and not verify.STAND_IN_WORDS.match(token)
                ),  # (`Bearer undefined`)
            ),
            ("basic", verify.basic_credentials_ok),
        )
    ),
    # ... or any other scheme (RFC 7235: a token), Discord's and Kagi's `Bot …`, MessageBird's
    # `AccessKey …`, a provider's own: a random credential of 16 or more characters after it (not
    # AWS's signature scheme, whose `Credential=…` names the key id and scope)
    rule(
        "http_auth_header",
        "authorization",
        r"(?i)\bauthorization\b(?:[\"']\]?\s*(?:=>|[:=,])\s*|\s*[:=]\s*|[ \t]+(?=[\"']))[\"']?"
        r"(?!basic\b|negotiate\b|ntlm\b|aws4|hmac)[a-z][\w-]{1,30}[ \t]+([\w+/=.~-]{16,})(?=[\"'\s,]|$)",
        not_after="",
        # (`abc123def456ghi789…`, runs of three typed one after another, is a stand-in)
        check=lambda token: random_with_digit(token) and verify.typed_runs(token) < 4,
    ),
    # ... or Basic credentials wherever they are written, when they decode to `user:password` (a
    # proxy's log of the header, `{Basic …}`)
    rule(
        "http_auth_header",
        "basic",
        r"(?<![\w-])Basic[ \t]+([A-Za-z0-9+/]{8,}={0,2})(?![\w+/=])",
        not_after="",
        check=verify.decodes_to_login,
    ),
    # ... or a bare token as the header's whole value (Bitrise's, Linear's API): random, 20+ characters
    rule(
        "http_auth_header",
        "authorization",
        # (not after a comma: `("authorization", "x-amz-date")` is a list of header names)
        r"(?i)\bauthorization\b(?:[\"']\]?\s*(?:=>|[:=])\s*|\s*[:=]\s*)[\"']?"
        r"(?!(?:bearer|basic|token|apikey|api-key|key|ssws|digest|negotiate|ntlm|aws4|hmac|sharedkey)\b)"
        r"([\w+/=.~-]{20,})(?=[\"'\s]|$)",
        not_after="",
        check=random_with_digit,
        entropy=3.5,
    ),
    # Basic credentials under a name of their own: fastlane's `git_basic_authorization: "…"`,
    # `MATCH_GIT_BASIC_AUTHORIZATION=…`, checked to decode to `user:password`
    rule(
        "http_auth_header",
        "basic",
        r"(?i)basic[_-]?auth(?:orization)?[\"']?\]?[ \t]*(?:=>|[:=(])[ \t]*[\"']?"
        r"([A-Za-z0-9+/]{12,}={0,2})(?![\w+/=])",
        not_after="",
        check=verify.decodes_to_login,
    ),
    # A string that is a bearer credential by its form, RFC 6750's `Bearer <token>`, wherever it
    # goes: `auth = "Bearer …"`, `new AuthenticationHeaderValue("Bearer", "…")` has its own name
    rule(
        "http_auth_header",
        "bearer",
        r"(?i)bearer(?<=[\"']bearer)(?:[ \t]+|[\"'],[ \t]*[\"'])([\w+/=.~-]{16,})(?=[\"'])",
        not_after="",
        check=lambda token: not verify.sequential_run(token) and not words_joined(token),
        entropy=3.0,
    ),
    # ... or a bare `Bearer <token>` in a table or a log line (`Authorization | Bearer …`, Zapier's
    # step summary): a random token of 20 or more characters, not a word ("Bearer tokens expire")
    rule(
        "http_auth_header",
        "bearer",
        r"(?i)bearer(?<![\w\"'-]bearer)[ \t]+([\w+/=.~-]{20,400})(?=[\"'\s,;|)]|$)",
        not_after="",
        check=lambda token: random_with_digit(token) and verify.typed_runs(token) < 4,
        entropy=3.0,
    ),
    rule(
        "http_auth_header",
        "x- private-token",
        r"(?i)(?:x-[\w-]*(?:token|key|secret|auth)[\w-]*|private-token|x-honeycomb-team)"
        # (`=` in OpenTelemetry's header lists, `OTEL_EXPORTER_OTLP_HEADERS="x-honeycomb-team=…"`)
        r"[\"']?(?:\s*:\s*|[ \t]+(?=[\"'])|=)[\"']?([\w+/=.~%-]{16,})",  # (`%2F`: a URL's query)
        not_after=r"\w-",
        check=lambda value: not_a_dotted_name(value) and not_a_constant(value),
    ),
    rule(
        "http_auth_header",
        "curl",
        r"(?i)curl\b[^\n]*?(?:-H|--header)\s*[\"'](?:x-[\w-]*(?:key|token)|api-?key)\s*:\s*([\w+/=.~-]{8,})",
        not_after="",
        check=not_a_constant,
    ),
    # ODBC / ADO.NET: Password=...; among key=value; pairs (np: odbc.1)
    rule(
        "db_connection_string",
        "password pwd",
        # ODBC quotes a value holding `;` or `=` in braces, `}}` an escaped brace: `PWD={a=b;c}`
        r"(?i)(?:password|pwd)\s*=\s*(?:\{((?:[^}\n]|\}\})+)\}|([^;'\"\s{\\][^;'\"\n]{0,200}?)\s*(?=[;\"']|$))",
        not_after=r"\w-",
        # not a value of code, nor a directory (sudo's log: `TTY=pts/0 ; PWD=/srv/app ; USER=root`),
        # nor a number too short for one (supervisord's sample `;password=123`)
        check=lambda s: (
            not re.match(
                r"(?i)(?:null|undefined|none|nil|true|false)\b|.*(?:[!=]=|&&|\|\|)|(?:/[\w.@-]+)+/?$|\d{1,3}$",
                s,
            )
            and not s.startswith("{ ")  # (a template's `{{ db_password }}`, read inside its braces)
        ),
        near=r";[^\n]{0,20}",
    ),
    # .netrc: machine h login u password p
    rule(
        "cli_credentials",
        "machine",
        r"(?i)machine\s+\S+(?:\s+(?:login|account)\s+\S+)*\s+password\s+(\S+)",
        not_after="",
    ),
    # curl --user u:p (gl: curl-auth-user) and -u/--user elsewhere
    rule(
        "cli_credentials",
        "-u --user",
        # (not Perl's A::B; curl's `--user 'name':'password'` quotes each)
        # (-U: its proxy's)
        r"(?:--user|-[uU])[ =]\\?['\"]?[^\s:'\"\\]{1,100}['\"]?:(?!:)['\"]?([^\s'\"\\]{3,200})",
        check=user_password,
        entropy=2.0,
        not_after=r"\w-",
    ),
    # ... and in curl's flags run together (`curl -ku 'admin:…'`, `-su`)
    rule(
        "cli_credentials",
        "curl",
        r"curl\b[^\n]*?\s-[a-zA-Z]+u[ =]['\"]?[^\s:'\"\\]{1,100}:(?!:)([^\s'\"\\]{3,200})",
        check=user_password,
        not_after="",
    ),
    # ... or an API key as the user and no password (`curl -u 'KEY:'`: Stripe's, Segment's APIs)
    rule(
        "cli_credentials",
        "-u --user",
        r"(?:--user|-u)[ =]\\?['\"]?([A-Za-z0-9_-]{16,200}):X?(?=['\"]?(?:\s|$))",
        check=lambda key: random_with_digit(key) or verify.random_letters(key),
        not_after=r"\w-",
    ),
    # -u user -p pass (np: psexec.1 takes whatever follows -p, %VAR% included)
    rule(
        "cli_credentials",
        "-p",
        r"(?:-u|--user(?:name)?)[ =]\S+\s+(?:-p[ =]?['\"]?|--password[ =]['\"]?" + NOT_PROSE + r")"
        r"([^\s'\"-][^\s'\"]{1,199})",  # `psexec -u a -p pass cmd`: after `-p` the command's words follow
        not_after=r"\w-",
        # MySQL's `-p` takes its password glued (`-pSECRET`, the rule below); `mysql -u root -p db`
        # asks for it, and `db` is the database (MySQL manual, --password)
        unless=r"\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mysqlcheck|mariadb)\b",
        # a password spray's list (`nxc smb … -u users.txt -p passwords.txt`) is no password
        check=lambda value: (
            re.fullmatch(r"[\w./~-]+\.(?:txt|lst|list|dic|dict|csv)", value) is None
            and not NAMED_THING.fullmatch(value)
        ),  # (Control-M's agent `-p ALL`)
    ),
    rule(
        "cli_credentials",
        "pass pwd",
        # also `--admin-pass`, `--db-pwd`; not a switch that asks for one (`--ask-pass site.yml`)
        r"--(?!(?:ask|no|prompt|use|skip|require|read|with|generate)-)(?:(?:\w+-)*"
        # (and joined to what it is for: Ghost's `--dbpass`, Linode's `--root_pass`)
        r"(?:(?:db|root|admin|user|rpc|ftp|smtp|mail|proxy|ssh|sudo|master|server|vnc|ldap|bind)_?)?"
        r"(?:password|passwd|pass|pwd)"
        r"|requirepass|masterauth)"  # redis-server's
        r"[= ]\s?['\"]?" + NOT_PROSE + r"([^\s'\";)]{4,})",
        not_after=r"\w-",
        # (apksigner's `--ks-pass env:VAR` and `file:path`, geth's `--password pw.txt`: where it is)
        check=lambda value: (
            not_a_type_name(value)
            and not value.startswith("<")  # (`--password <new password>`)
            and not re.match(r"(?:env|file):|stdin$", value)
            and not PATH_LIKE.match(value)
        ),
    ),
    *(
        rule(
            "cli_credentials",
            "",
            flag + r"[= ]\s?['\"]?" + NOT_PROSE + r"([^\s'\";)(]{4,})",  # (not `(ConvertTo-SecureString …)`)
            not_after=r"\w-",
            check=not_a_type_name,
        )
        # (PowerShell's parameters in any case: `Add-VBRCredentials -Password "…"`)
        for flag in ("(?i:-password)", "/p:")
    ),
    # --token/--api-key flags (`az devops login --token …`, `huggingface-cli login --token …`),
    # also named for whose token it is (`--management-token`, `--bot-token`; not AWS's
    # `--next-token`, `--client-token`, `--lock-token`: pages and idempotency), and `--auth`
    # (`netlify deploy --auth …`), and Azure's `--account-key` (a storage account's key); in any
    # case (Octopus's `octo … --apiKey`)
    rule(
        "cli_credentials",
        "token api-key apikey secret --auth account-key",
        r"(?i)--(?:(?:(?:auth|access|api|bot|bearer|token|management|personal-access|refresh|service|admin|app|deploy"
        r"|registry|github|gitlab|npm|hf|hub|vault|oauth|user|master|root|webhook|signing|private|cli)-)?"
        r"(?:token|api-?key|apikey|secret)|account-key|auth(?=[= ]\s?['\"]?[^\s'\";)]{20}))[= ]\s?['\"]?"
        + NOT_PROSE
        + r"([^\s'\";)]{12,})",
        entropy=3.0,
        not_after=r"\w-",
        # not a metavariable (ACCESS_TOKEN), a phrase (my-Bitbucket-password) or a typed stand-in
        # (kubeadm's documented abcdef.0123456789abcdef): tokens are machine-made
        # nor Docker's `--secret id=…,env=…` (where a build secret comes from)
        check=lambda s: (
            not metavariable(s)
            and not re.fullmatch(r"[A-Za-z]+(?:-[A-Za-z]+)+|[A-Z_]+=[A-Z_]+", s)  # (`PROVIDER=KEY`: help)
            and not verify.sequential_run(s)
            and not re.match(r"(?:id|src|source|env|type)=", s)
            and not s.startswith("@")  # a file it is read from (`ibmcloud login --apikey @key.json`)
        ),
    ),
    # ... or named by its last words after any others (`--storage-s3-secret-key`, ngrok's
    # `--authtoken`): machine-made, as any key is
    rule(
        "cli_credentials",
        "secret-key secret_key authtoken -token _token deploy-key access-key presharedkey pre-shared",
        r"(?i)--(?:[a-z0-9]+[-_.])*(?:secret[-_]key|secret[-_]access[-_]key|authtoken|deploy[-_]key|access[-_]key"
        # (the tokens that authenticate, `--org-token`; AWS' CLI has a dozen that do not:
        # `--request-token`, `--lifecycle-action-token`, `--sequence-token`, `--next-token`)
        r"|(?:org|auth|access|private|deploy|refresh|session|service|bot|bearer|user|admin|app|account|project"
        r"|team|api|cli|registry)[-_]token"
        r"|pre-?shared-?key)[= ]\s?['\"]?([^\s'\";)]{16,200})",
        not_after=r"\w-",
        check=lambda value: random_with_digit(value) and not verify.is_stand_in(value),
    ),
    # A proxy's login in an option (ncat's `--proxy-auth user:pass`, curl's `--proxy-user`)
    rule(
        "cli_credentials",
        "--proxy-auth --proxy-user",
        r"--proxy-(?:auth|user)[= ]['\"]?[\w.@\\-]{1,64}:([^\s'\"]{3,200}?)['\"]?(?=\s|$)",
        not_after="",
        check=literal_password,
    ),
    # Go's MySQL driver DSN, user:password@tcp(host:port)/db
    # (github.com/go-sql-driver/mysql#dsn-data-source-name)
    rule(
        "db_connection_string",
        "@tcp( @unix(",
        r"(?<![\w.-])[\w.-]{1,64}:([^\s:'\"@]{1,200}(?:@[^\s:'\"@]{1,200})*)@(?:tcp|unix)\(",
        not_after="",
    ),
    # PowerShell: ConvertTo-SecureString "…" -AsPlainText (learn.microsoft.com, ConvertTo-SecureString)
    rule(
        "generic_password",
        "",
        r"(?i)convertto-securestring(?:\s+-string)?\s+" + CLI_VALUE + r"(?=[^\n]{0,80}-asplaintext)",
        not_after="",
    ),
    rule(
        "generic_password",
        "",
        r"(?i)convertto-securestring\s+-asplaintext\s+(?:-force\s+)?(?:-string\s+)?" + CLI_VALUE,
        not_after="",
        check=lambda value: not value.startswith("-") and literal_password(value),  # (not `-Force`)
    ),
    # Windows' own password switches (learn.microsoft.com, each command's reference): cmdkey's
    # `/pass:`, wmic's `/password:`, appcmd's `/processModel.password:`, netdom's `/PasswordD:` and
    # `/PasswordO:`, schtasks' `/RP` (the run-as password; `*` asks for it)
    rule(
        "cli_credentials",
        "/pass /password /processmodel.password /rp",
        r"(?i)(?<![\w/])/(?:pass|password|processmodel\.password|passwordd|passwordo|rp)(?::|[ \t]+(?=\S))"
        + CLI_VALUE,
        not_after="",
        check=literal_password,
    ),
    # dsadd/dsmod `-pwd …`, `net user NAME PASSWORD /add`, `reg add … /v DefaultPassword … /d …`
    # (Winlogon's auto-logon), SAP HANA's `hdbuserstore SET KEY host:port USER PASSWORD`
    rule(
        "cli_credentials",
        "dsadd dsmod",
        r"(?i)\bds(?:add|mod)\b[^\n]*?\s-pwd\s+" + CLI_VALUE,
        not_after="",
        check=literal_password,
    ),
    rule(
        "cli_credentials",
        "net user",
        "(?i)"
        + led("net", r"\w")
        + r"[ \t]+user[ \t]+\S+[ \t]+(?!/)"
        + CLI_VALUE
        + r"(?=[ \t]+/(?:add|domain)\b|[ \t]*(?:\r?\n|$|</))",  # (`/domain`; an event log's `</Data>`)
        not_after="",
        check=literal_password,
    ),
    rule(
        "generic_password",
        "/v",
        r"(?i)password\"?[ \t]+(?:/t[ \t]+\w+[ \t]+)?/d[ \t]+" + CLI_VALUE,
        near=r"/v[ \t]+\"?\w*",  # `reg add … /v DefaultPassword`, the value's name before
        not_after="",
        check=literal_password,
    ),
    rule(
        "cli_credentials",
        "hdbuserstore",
        r"(?i)\bhdbuserstore\b(?:[ \t]+-\w+)*[ \t]+set[ \t]+\S+[ \t]+\S+[ \t]+\S+[ \t]+" + CLI_VALUE,
        not_after="",
        check=literal_password,
    ),
    # Chocolatey's API key, given to `choco apikey --key …` or `choco push --api-key …`
    rule(
        "generic_api_key",
        "choco",
        r"(?i)\bchoco(?:latey)?\b[^\n]*?(?:--key|-k|--api-key|--apikey)[ =][\"']?("
        + UUID
        + r"|[A-Za-z0-9]{20,64})",
        not_after="",
    ),
    # WebSphere's `{xor}` passwords: XOR with `_`, then base64, a disguise, not a cipher (IBM docs)
    rule("generic_password", "{xor}", r"\{xor\}([A-Za-z0-9+/]{4,}={0,2})", not_after=""),
    # The line a `kubectl get secret … -o jsonpath='{.data.x}'` prints: the secret, base64 or decoded
    rule(
        "generic_password",
        "",
        r"kubectl(?<![\w-]kubectl)[ \t]+get[ \t]+secrets?\b[^\n]*jsonpath=[^\n]*\.data\b[^\n]*\r?\n"
        + OUTPUT_LEAD
        + r"(?i:directory:[^\n]*\r?\n)?(?i:stdout:[ \t]*)?"  # (Gemini CLI's report of a command)
        + r"(?![$#>])([^\s]{6,300})(?=\r?\n|$)",
        not_after="",
    ),
    # What a command prints when asked for one named secret is that secret, alone on the next line
    # (Gemini CLI writes `Directory: …` and `Stdout: ` before it; a JSON string may end right after it)
    *(
        rule(
            "generic_password",
            "",
            "(?i)" + led(tool, r"[\w.-]") + r"[ \t]" + asked + PRINTED,  # by path too: `…/bin/aws`
            not_after="",
            check=literal_password,
        )
        for tool, asked in (
            ("aws", r"+configure[ \t]+get[ \t]+(?:[\w-]+\.)?(?:aws_secret_access_key|aws_session_token)\b"),
            ("aws", r"[^\n|>]*?--query[ =]['\"]?[\w.\[\]*]*(?:secretaccesskey|sessiontoken)\b"),
            ("terraform", r"+output[ \t]+(?:-raw[ \t]+)?" + SECRET_FIELD),
            ("vault", r"+(?:kv[ \t]+get|read)[ \t][^\n|>]*?-field[= ]" + SECRET_FIELD),
            ("heroku", r"+config:get[ \t]+" + SECRET_FIELD),
            ("heroku", r"+auth:token\b"),
            ("printenv", r"+" + SECRET_FIELD),
            ("echo", r"+[\"']?\$\{?" + SECRET_FIELD + r"\}?[\"']?"),
            ("security", r"+find-(?:generic|internet)-password\b[^\n|>]*?[ \t]-w\b"),
            # cloud CLIs and password managers asked for one secret's value
            ("aws", r"+ecr[ \t]+get-login-password\b"),
            ("aws", r"+secretsmanager[ \t]+get-secret-value\b[^\n|>]*?--query[ =]['\"]?SecretString\b"),
            # (not AWS's public parameters, `/aws/service/…`: AMI ids, regions)
            (
                "aws",
                r"+ssm[ \t]+get-parameters?\b(?![^\n|>]*?/aws/service/)[^\n|>]*?"
                r"--query[ =]['\"]?Parameters?\b[^\n|>]*?\.Value\b",
            ),
            ("az keyvault", r"+secret[ \t]+show\b[^\n|>]*?--query[ =]['\"]?value\b"),
            # (an IoT Hub's or DPS enrollment's key, `--query attestation.symmetricKey.primaryKey`)
            ("az", r"+[^\n|>]*?--query[ =]['\"]?[\w.\[\]]*(?:primary|secondary)key\b"),
            ("gcloud", r"+secrets[ \t]+versions[ \t]+access\b"),
            ("bw unlock", r"[^\n|>]*?--raw\b"),
            ("bw get", r"+password\b"),
            ("op read", r"*['\"]?op://"),
            ("op item get", r"[^\n|>]*?--fields?[ =]['\"]?(?:label=)?password\b"),
            ("doppler", r"+secrets[ \t]+get\b[^\n|>]*?--plain\b"),
            ("infisical", r"+secrets[ \t]+get\b[^\n|>]*?--plain\b"),
            ("akeyless", r"+get-secret-value\b"),
            ("chamber", r"+read\b[^\n|>]*?[ \t]-q\b"),
            ("conjur", r"+variable[ \t]+(?:value|get)\b"),
            ("berglas", r"+access\b"),
            ("clipasswordsdk", r"+GetPassword\b"),
            ("gopass", r"+(?:cat|show[ \t]+(?:-o|--password))\b"),
            (
                "pass",
                r"+show\b(?![^\n]*[\"'])",
            ),  # (not a quoted command: systemd's `…_COMMAND="pass show …"`)
            ("keepassxc-cli", r"+show\b[^\n|>]*?(?:-a[ \t]+password|--show-protected|-s)\b"),
            ('keepassxc-cli\\.exe"', r"+show\b[^\n|>]*?(?:-a[ \t]+password|--show-protected|-s)\b"),
            ("sops", r"+(?:-d|--decrypt)\b[^\n|>]*?--extract\b"),
            # keys made or read on a server: WireGuard's, a key file shown, random bytes for a PSK,
            # Elasticsearch's keystore, NetworkManager's secrets (`-s`)
            ("wg", r"+gen(?:key|psk)\b(?:[ \t]*\|[ \t]*(?:sudo[ \t]+)?tee\b[^\n|>]*)?"),
            ("wp", r"+config[ \t]+get[ \t]+\w*(?:KEY|SALT|PASSWORD)\b"),  # WordPress's salts and keys
            ("php", r"+artisan[ \t]+key:generate\b[^\n|>]*--show\b"),  # Laravel's APP_KEY
            ("gitea", r"+generate[ \t]+secret\b[^\n|>]*"),
            ("nvram", r"+get[ \t]+\w*(?:passw(?:or)?d|psk|wpa_key|secret)\w*"),  # a router's settings
            (
                "cat",
                r"+[^\n|>]*?(?:privatekey|private\.key|\.psk|keyfile|master\.key|initialAdminPassword)\b",
            ),
            ("openssl", r"+rand[ \t]+-(?:hex|base64)[ \t]+\d+(?:[ \t]*\|[ \t]*(?:sudo[ \t]+)?tee\b)?"),
            ("elasticsearch-keystore", r"+show\b"),
            ("nmcli", r"(?:[^\n|>]*?[ \t])?-s\b[^\n|>]*?\bpsk\b"),
        )
    ),
    # What secret stores answer, by the shape of the answer: SSM's `"Type": "SecureString"` then its
    # `"Value"` (JSON, YAML), 1Password's CONCEALED field's `"value"`, Key Vault's secret bundle
    # (its `id` under `/secrets/`) and its `"value"`, a storage account's `keyName` then `value`,
    # Secret Manager's `payload.data` (base64 of the secret), a Kubernetes pull secret's
    # `.dockerconfigjson`/`.dockercfg` (base64 of registry logins), Bitwarden's `BW_SESSION`
    rule(
        "generic_password",
        "securestring",
        r"(?i)securestring\"?,?\s*\"?value\"?:[ \t]*\"?([^\"\s,]{3,300})",
        near=r"type\"?:[ \t]*\"?",  # `"Type": "SecureString"`, YAML's `Type: SecureString`
        not_after="",
        check=lambda value: not value.startswith("AQICAH"),  # (not decrypted: KMS's ciphertext)
    ),
    rule(
        "generic_password",
        "concealed",
        r"\"type\":[ \t]*\"CONCEALED\"[^{}]{0,300}?\"value\":[ \t]*\"((?:[^\"\\\n]|\\.){3,300})\"",
        not_after="",
    ),
    rule(
        "generic_api_key",
        "vault.azure.net/secrets/",
        r"\.vault\.azure\.net/secrets/[^\"\s]*\"(?:[^{}]|\{[^{}]*\}){0,600}?"
        r"\"value\":[ \t]*\"([^\"\n]{3,1000})\"",
        not_after="",
    ),
    rule(
        "azure_credential",
        "keyname",
        r"\"keyName\":[ \t]*\"[\w-]+\"[^{}]{0,200}?\"value\":[ \t]*\"([A-Za-z0-9+/]{86}==)\"",
        not_after="",
    ),
    rule(
        "generic_password",
        "payload",
        r"\"payload\":[ \t]*\{\s*\"data\":[ \t]*\"([A-Za-z0-9+/]{4,}={0,2})\"",
        not_after="",
    ),
    rule(
        "generic_password",
        ".dockerconfigjson .dockercfg",
        # (or folded onto the next line, `.dockerconfigjson: >-`)
        r"\.docker(?:configjson|cfg)\\?[\"']?:[ \t]*(?:>-?[ \t]*\r?\n[ \t]*)?"
        r"\\?[\"']?([A-Za-z0-9+/]{20,}={0,2})",
        not_after="",
    ),
    rule("generic_password", "bw_session", r"BW_SESSION=[\"']?([A-Za-z0-9+/]{40,}={0,2})", not_after=""),
    rule("generic_password", "--session", r"--session[ =][\"']?([A-Za-z0-9+/]{40,}={0,2})", not_after=r"\w"),
    # Cloudflare returns a new API token's value once, after its policies' permission groups
    # (developers.cloudflare.com, "Create token"): 40 characters
    rule(
        "cloudflare_token",
        "permission_groups",
        r"\\?\"permission_groups\\?\"[\s\S]{0,1500}?\\?\"value\\?\":[ \t]*\\?\"([A-Za-z0-9_-]{40})\\?\"",
        not_after="",
    ),
    # git's word diff marks a changed value `[-old-]{+new+}`: the old one is still a secret
    rule(
        "generic_password",
        "[-",
        r"\[-([^\s\]]{6,300}?)-\]",
        # the secret's name and its assignment before it (`\"` inside a JSON string)
        near=r"(?:secret|token|password|passwd|pwd|api_?key|access_?key)[\w.-]*\\?[\"']?[ \t]*[=:][ \t]*"
        r"\\?[\"']?",
        not_after="",
        check=literal_password,
    ),
    # A browser test typing into the password field: Playwright's `getByLabel("Password").fill("…")`
    # and `page.fill("#password", "…")`, Selenium's `…"password").send_keys("…")`, Cypress's `.type`
    # (and C#'s `Locator("#Input_Password").FillAsync("…")`, WebDriver's `By.id("login_pass"))`, a
    # field kept in a variable, `pw.send_keys("…")`, Capybara's `fill_in 'Password', with: '…'`, and
    # the DOM's `querySelector('input[name=pass]').value = '…'`)
    *(
        rule("generic_password", "pass pwd pw.", pattern, not_after="", check=literal_password)
        for pattern in (
            r"(?i)(?:pass(?:word|wd)?|pwd)[\w#.\[\]=\"' -]{0,30}?\)+\s*\."
            r"(?:fill(?:async)?|type(?:async)?|send_?keys|setvalue|presssequentially)"
            r"\(\s*" + TYPED,
            r"(?i)\.(?:fill|type)\(\s*(?:\"[^\"\n]{0,40}(?:pass|pwd)[^\"\n]{0,40}\"|'[^'\n]{0,40}(?:pass|pwd)[^'\n]{0,40}')"
            r"\s*,\s*" + TYPED,
            r"(?i)fill_in[ \t(]+[\"'][^\"'\n]{0,30}pass[^\"'\n]{0,30}[\"'][ \t]*,[ \t]*with:[ \t]*" + TYPED,
            r"(?i)(?:pass|pwd)[\w#.\[\]=\"' -]{0,30}?\)\s*\.value\s*=\s*" + TYPED,
        )
    ),
    # ... and a field kept in a variable named for it (`pw.send_keys("…")`), led by the call
    rule(
        "generic_password",
        ".send_keys( .sendkeys( .fill( .type( .setvalue(",
        r"(?i)\.(?:send_?keys|fill|type|setvalue)\(\s*" + TYPED,
        near=r"\b(?:pw|pwd|pass\w*)",
        not_after="",
        check=literal_password,
    ),
    # A literal password hashed in code (a seed or a fixture): bcrypt's `hash('…', 10)`, Laravel's
    # `Hash::make('…')`, PHP's `password_hash('…', …)`, Django's `make_password('…')`, Werkzeug's
    # `generate_password_hash('…')`, Spring's `passwordEncoder.encode("…")`
    rule(
        "generic_password",
        "bcrypt hash:: hashpw password_hash make_password argon2 passwordencoder hash_password",
        r"(?i)(?:bcrypt(?:js)?\.hash(?:sync)?|hash::make|password_hash|make_password|generate_password_hash"
        r"|hashpw|argon2\.hash|bcrypt::password\.create|passwordencoder\.encode|hash_password)"
        r"\(\s*b?[\"']([^\"'\n]{3,100})[\"']",
        not_after="",
        check=literal_password,
    ),
    # redis-cli prints a setting and its value as numbered lines: `1) "requirepass"`, `2) "…"`
    rule(
        "generic_password",
        "requirepass masterauth",
        r"\d\) \"(?:requirepass|masterauth)\"\r?\n\d+\) \"([^\"\n]{3,200})\"",
        not_after="",
        check=literal_password,
    ),
    # A command's arguments as a list (a Compose or Kubernetes `command:`, a JSON array): a password
    # option's value is the next item (`- --requirepass` then `- …`; `"--password", "…"`)
    rule(
        "cli_credentials",
        "pass pwd",
        r"(?i)--(?:(?<=[-\[,][ \t]--)|(?<=[\[,\"']--)|(?<=[-\[,][ \t][\"']--))"
        r"[\w-]*(?:password|passwd|pass|pwd)[\"']?[ \t]*"
        r"(?:\r?\n[ \t]*-[ \t]+|,[ \t]*)[\"']?([^\s\"',\]]{4,200})[\"']?[ \t]*(?=\r?\n|$|[,\]])",
        not_after="",
        # (apksigner's `--ks-pass stdin`, `env:VAR`, `file:path` say where it is read from)
        check=lambda value: not re.match(r"(?:env|file|pass):|stdin$", value) and literal_password(value),
    ),
    # Terraform marks a value sensitive: `terraform output -json` prints it anyway, and a state file
    # holds a `random_password`'s result in the clear
    rule(
        "generic_password",
        "",
        r'"sensitive":[ \t]*true,\s*"type":[ \t]*"string",\s*"value":[ \t]*"([^"\n]{4,500})"',
        not_after="",
        check=literal_password,
    ),
    rule(
        "generic_password",
        "",
        r'random_password"(?:(?!"type":)[\s\S]){0,3000}?"result":[ \t]*"([^"\n]{4,500})"',
        not_after="",
        check=literal_password,
    ),
    # Google's app passwords: sixteen lowercase letters shown in four groups of four, under a password
    rule(
        "google_app_password",
        "",
        r"(?i)(?:password|passwd|pass|pwd)[\w.-]{0,25}?\\?[\"']?\)?[ \t]*(?:=|:|=>)[ \t]*\\?[\"']?"
        r"([a-z]{4} [a-z]{4} [a-z]{4} [a-z]{4})(?![\w ])",
        not_after="",
    ),
    # HTTPie: `http -a user:password …`, `--auth user:password`
    *(
        rule(
            "cli_credentials",
            "",
            led(tool, r"[\w./-]")
            + r"(?![\w-])[^\n]{0,200}?\s(?:-a|--auth)[ =]['\"]?[^\s:'\"]{1,100}:"
            + CLI_VALUE,
            not_after="",
            check=not_named_for_the_idea,
        )
        for tool in ("http", "https")
    ),
    # mysql -pSECRET (no space: the password is glued to the flag)
    rule(
        "cli_credentials",
        "mysql mariadb",
        r"\b(?:mysql(?:dump|admin|import|show|check)?|mariadb(?:-dump|-admin)?)\b[^\n]{0,200}?\s-p"
        r"(?:'([^'\n]{3,200})'|\"([^\"\n]{3,200})\"|([^\s'\"-][^\s'\"]{3,}))",
        not_after="",
    ),
    # Connect-VIServer -User u -Password p (np: vmware.1)
    rule(
        "cli_credentials",
        "connect-viserver",
        r"(?i)Connect-VIServer.{0,50}-User\s+\S{3,60}\s+.{0,50}?-Password\s+" + CLI_VALUE,
        not_after="",
    ),
    # Twilio's Client(account_sid, auth_token): the 32-hex token after an `AC…` account SID
    rule(
        "twilio_api_key",
        "",
        r"AC[a-f0-9]{32}[\"']\s*,\s*[\"']([a-f0-9]{32})[\"']",
        not_after="",
    ),
    # ... and as a Basic login's two halves, `AC…:<token>` (a debug log may cut the SID short)
    rule("twilio_api_key", "", r"AC[a-f0-9]{6,32}(?:\.{3}|…)?:([a-f0-9]{32})" + E, not_after=r"\w"),
    # ... and as the literal right after the SID's (a bundle's `Sa="AC…",Ea="<token>"`)
    rule("twilio_api_key", "", r"AC[a-f0-9]{32}[\"'][^\"']{0,30}[\"']([a-f0-9]{32})[\"']", not_after=r"\w"),
    # An Azure Storage account key (64 bytes: 86 base64 characters and `==`) under an Azure or
    # storage name, though `storage_key` alone names a lookup key in code
    keyed("azure_credential", r"azure|storage|account", r"[A-Za-z0-9+/]{86}==", "azure storage account"),
    # Passwords on other tools' command lines, each where its manual puts it
    *commands("sshpass", r"\s-p\s*"),  # sshpass(1): -p password
    *commands("redis-cli", r"\s-a\s+"),  # redis-cli: -a <password>
    # ldapsearch(1) and the other OpenLDAP clients: -w passwd
    *commands(
        "ldapsearch ldapadd ldapmodify ldapdelete ldappasswd ldapwhoami ldapcompare ldapmodrdn", r"\s-w\s+"
    ),
    *commands("zip", r"\s-P\s+"),  # zip(1): -P password
    *commands("7z 7za 7zz rar unrar", r"\s-p"),  # 7-Zip: -p{Password}; rar: -p<pwd>
    *commands(
        "sqlcmd bcp osql isql ipmitool mosquitto_pub mosquitto_sub mosquitto_rr", r"\s-P\s*"
    ),  # -P password
    *commands("xfreerdp wlfreerdp sdl-freerdp", r"\s/p:"),  # FreeRDP: /p:<password>
    *commands("ssh-keygen", r"\s-N\s+"),  # ssh-keygen(1): -N new_passphrase
    *commands(
        "rabbitmqctl", r"\s(?:add_user|change_password)\s+\S+\s+"
    ),  # rabbitmqctl(8): add_user name password
    # htpasswd(1): -b[c…] passwordfile username password, or -nb username password
    *commands("htpasswd", r"\s-\w*b\w*\s+(?:-\w+\s+)*(?:(?<=n\s)|(?<=n\s\s)|\S+\s+)?\S+\s+"),
    *commands("lftp", r"\s-u\s+[^\s,]+,"),  # lftp(1): -u user[,pass]
    # wpa_passphrase(8): ssid passphrase (8 to 63 characters)
    *commands(
        "wpa_passphrase", r"(?<=wpa_passphrase)[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'|[\w][^\s<>|]*)[ \t]+(?=\S{8})"
    ),
    # hostapd.conf's `wpa_passphrase=…`: the rest of the line, spaces and all (hostapd.conf(5))
    rule(
        "generic_password",
        "wpa_passphrase=",
        BOL + r"[ \t]*wpa_passphrase=([^\n]{8,63}?)" + LINE_END,
        not_after="",
    ),
    *commands("nmcli", r"\spassword\s+"),  # nmcli(1): dev wifi connect SSID password PASSWORD
    # vault login [TOKEN] (`login` right after `vault`: not "the team vault or use … login --profile x")
    *commands("vault", r"(?<=vault)\s+login\s+(?:-\S+\s+)*(?:token=)?(?![\w.-]+=|-)"),
    *commands("aws", r"\sconfigure\s+set\s+(?:[\w-]+\.)?aws_(?:secret_access_key|session_token)\s+"),
    *commands("gpg gpg2", r"\s--passphrase[= ]\s*"),  # gpg(1): --passphrase string
    *commands("openssl", r"\s-k\s+"),  # openssl-enc(1): -k password
    *commands(
        "rclone", r"\sconfig\s+(?:create|update)\b[^\n]*?\spass(?:word)?\s+"
    ),  # rclone config create … pass X
    *commands("mc", r"\salias\s+set\s+\S+\s+\S+\s+\S+\s+"),  # MinIO mc alias set NAME URL ACCESS SECRET
    *commands(
        "b2", r"\s(?:account\s+authorize|authorize-account)\s+\S+\s+"
    ),  # Backblaze: keyID applicationKey
    *commands("vastai", r"\sset\s+api-key\s+"),  # vastai set api-key KEY
    *commands("cloudflared", r"\s(?:service\s+install|tunnel\s+run\s+--token)\s+"),  # a tunnel's token
    *commands(
        "poetry", r"\sconfig\s+http-basic\.\S+\s+\S+\s+"
    ),  # poetry config http-basic.REPO USER PASSWORD
    *commands("beeline", r"\s-p\s+"),  # Hive's beeline: -n user -p password
    *commands("databricks", r"\s--string-value[ =]"),  # databricks secrets put-secret … --string-value
    *commands("mosquitto_passwd", r"\s-b\s+\S+\s+\S+\s+"),  # mosquitto_passwd -b FILE USER PASSWORD
    *commands("pihole", r"\s(?:-a\s+-p|setpassword)\s+"),  # Pi-hole's web password
    *commands("radtest", r"\s+\S+\s+"),  # radtest(1): user password server port secret
    *commands("snyk", r"\s(?:auth\s+|config\s+set\s+api=)"),  # snyk auth TOKEN, snyk config set api=TOKEN
    *commands("sc saucectl", r"\s(?:-k|--api-key|--access-key)[= ]"),  # Sauce Connect: -k ACCESS_KEY
    # jenkins-cli's `-auth user:apitoken` (jenkins.io, "Jenkins CLI"), `--auth user:password` elsewhere
    rule(
        "cli_credentials",
        "-auth --auth",
        r"auth[ \t=]+['\"]?[\w.@-]+:([^\s'\"]{3,200})",
        near=r"(?:^|[^\w-])--?",
        not_after="",
        check=literal_password,
    ),
    # Bundler's credentials for a gem server, `bundle config [--local|--global] HOST USER:PASSWORD`
    # (bundler.io, "bundle config": Sidekiq Pro's and Enterprise's gems.contribsys.com)
    rule(
        "cli_credentials",
        "bundle config",
        r"bundle[ \t]+config[ \t]+(?:set[ \t]+)?(?:--\w+[ \t]+)*[\w-]+(?:\.[\w-]+)+[ \t]+"
        r"[^\s:]+:([^\s'\"]{3,200})",
        not_after="",
        check=literal_password,
    ),
    # kubectl create secret generic NAME --from-literal=password=…: a value under a secret's name
    rule(
        "cli_credentials",
        "--from-literal",
        r"--from-literal=['\"]?[\w.-]*(?:password|passwd|secret|token|key|pass|pwd)[\w.-]*=" + CLI_VALUE,
        not_after="",
    ),
    *commands(
        "npm yarn pnpm",
        r"\sconfig\s+set\s+\S*(?:_authToken|_auth|_password|npmAuthToken|npmAuthIdent)[=\s]\s*",
    ),
    # net use \\host\share password /user:name (either order, `/u:` too; Windows' net use)
    rule(
        "cli_credentials",
        "",
        led("net", r"[\w./-]")
        + r"[ \t]+use\b[^\n]{0,200}?\s(?:/u(?:ser)?:\S+|\\{1,2}\S+|\$\w+)[ \t]+(?!/)"
        + CLI_VALUE,
        not_after="",
    ),
    # Oracle's user/password@database as the first argument (sqlplus, Data Pump, SQL*Loader, RMAN)
    *(
        rule(
            "cli_credentials",
            "",
            led(tool, r"[\w.-]")  # (also as a path: `/u01/…/bin/expdp system/…@DB` in a crontab)
            # (`rman target / catalog u/p@…`; a password quoted inside: `system/'…'@DB`)
            + r"(?:\s+-[A-Za-z]+)*\s+(?:target\s+/\s+)?(?:target=|userid=|(?:target|catalog|auxiliary)\s+)?"
            r"['\"]?[\w$#]+/['\"]?([^\s/@'\"]{3,200})['\"]?(?=@|['\"\s]|$)",
            not_after="",
            check=literal_password,  # not a manual's `username/password@…`
        )
        for tool in ("sqlplus", "expdp", "impdp", "sqlldr", "rman")
    ),
    # A server's terminal: `echo 'user:pass' | chpasswd` and `chpasswd <<< 'user:pass'` (not `-e`,
    # whose input is hashes); a password piped into a command that reads it (`passwd --stdin`,
    # `kinit`, `realm join`, Elastic's `elasticsearch-keystore add -x …`); cloud-init's `chpasswd: list:`
    rule(
        "cli_credentials",
        "chpasswd",
        ECHOED
        + r"[\w.@-]+:(?P<secret>[^'\"\n]{3,200})(?P=q)[ \t]*\|[ \t]*(?:sudo[ \t]+)?chpasswd(?![ \t]+-e)",
        not_after="",
        check=literal_password,
    ),
    rule(
        "cli_credentials",
        "chpasswd",
        r"chpasswd(?![ \t]+-e)[ \t]*<<<[ \t]*(?P<q>['\"])[\w.@-]+:(?P<secret>[^'\"\n]{3,200})(?P=q)",
        not_after="",
        check=literal_password,
    ),
    rule(
        "cli_credentials",
        "chpasswd:",
        r"chpasswd:[ \t]*\r?\n[ \t]+list:[ \t]*\|[ \t]*\r?\n[ \t]+[\w.@-]+:([^\s:]{3,200}?)" + LINE_END,
        not_after="",
        check=literal_password,
    ),
    rule(
        "cli_credentials",
        "passwd kinit iinit devops realm keystore sudo gpg adcli gcloud kubeseal vault",
        ECHOED + r"(?P<secret>[^'\"\n]{3,200})(?P=q)[ \t]*\|[ \t]*"
        r"(?:sudo[ \t]+)?(?:passwd[ \t]+--stdin|kinit|iinit|az[ \t]+devops[ \t]+login|realm[ \t]+join"
        r"|\S*-keystore[ \t]+add\b"
        # (`sudo -S` reads the password from its input, gpg from descriptor 0 when told so)
        r"|sshfs\b[^\n]*password_stdin|sudo(?:[ \t]+-\w+)*[ \t]+-S\b|gpg\b[^\n|]*--passphrase-fd[ =]0\b"
        r"|adcli\b[^\n|]*--stdin-password|[^\n|]{0,200}?--passwd-on-stdin"  # (openconnect's)
        # (Unity's `ugs login --secret-key-stdin`)
        r"|[^\n|]{0,200}?--[\w-]*(?:secret|key|token)[\w-]*-stdin\b"
        # (secret stores reading the new secret from standard input)
        r"|gcloud[ \t]+secrets[ \t]+(?:create|versions[ \t]+add)\b|kubeseal\b"
        r"|vault[ \t]+kv[ \t]+put\b[^\n|]*=-)",
        not_after="",
        check=literal_password,
    ),
    rule(
        "cli_credentials",
        "kinit realm sudo vncpasswd",
        r"(?:kinit|realm[ \t]+join|sudo(?:[ \t]+-\w+)*[ \t]+-S|vncpasswd)\b[^\n<|]*<<<[ \t]*"
        r"(?:'([^'\n]{3,200})'|\"([^\"\n]{3,200})\")",
        not_after="",
        check=literal_password,
    ),
    # Tools whose password flag is their own: sqlcmd's, bcp's and osql's `-P` (MySQL's is a port),
    # `-w` of kadmin, smbpasswd and the LDAP tools, ldappasswd's `-s` (the new password),
    # ipmitool's `user set password <id> …`, nmcli's `wifi-sec.psk …`
    *(
        rule(
            "cli_credentials",
            "",
            "(?i)" + led(tool, r"[\w.-]") + flag + CLI_VALUE,  # run by path too: `/opt/…/bin/sqlcmd`
            not_after="",
            check=literal_password,
        )
        for tool, flag in (
            ("sqlcmd", r"\b[^\n|;]*?[ \t]-P[ \t]*"),
            ("bcp", r"\b[^\n|;]*?[ \t]-P[ \t]*"),
            ("osql", r"\b[^\n|;]*?[ \t]-P[ \t]*"),
            ("kadmin", r"\b[^\n|;]*?[ \t]-w[ \t]+"),
            ("smbpasswd", r"\b[^\n|;]*?[ \t]-w[ \t]+"),
            ("ldap", r"(?:search|add|modify|delete|passwd|whoami|compare|modrdn)\b[^\n|;]*?[ \t]-w[ \t]+"),
            ("ldappasswd", r"\b[^\n|;]*?[ \t]-s[ \t]+"),
            ("ipmitool", r"\b[^\n|;]*?\buser[ \t]+set[ \t]+password[ \t]+\d+[ \t]+"),
            ("nmcli", r"\b[^\n|;]*?\bcon(?:nection)?[ \t]+(?:modify|add)\b[^\n|;]*?\.psk[ \t]+"),
        )
    ),
    # SNMP v1/v2c's community string is its shared secret (`snmpwalk -v2c -c …`); `public` and
    # `private` are the defaults every device ships with
    rule(
        "cli_credentials",
        "snmp",
        r"snmp(?:walk|bulkwalk|get|getnext|bulkget|set|table|trap|df|status|netstat|check)\b"
        r"[^\n|;]*?[ \t]-c[ \t]*" + CLI_VALUE,
        not_after="",
        check=lambda value: value not in ("public", "private") and literal_password(value),
    ),
    # redis-cli: `AUTH [user] …` at its prompt, `CONFIG SET requirepass …`, and an ACL rule's
    # `>password` (`ACL SETUSER … >…`, a users.acl line `user app on >…`; redis.io, "ACL")
    rule(
        "generic_password",
        "auth",
        r"(?i):\d{2,5}(?:\[\d+\])?>[ \t]*auth[ \t]+(?:[\w.@-]+[ \t]+(?=\S))?" + CLI_VALUE + LINE_END,
        not_after="",
        check=literal_password,
    ),
    rule(
        "generic_password",
        "config set",
        r"(?i)config[ \t]+set[ \t]+(?:requirepass|masterauth)[ \t]+" + CLI_VALUE,
        not_after="",
        check=literal_password,
    ),
    rule(
        "generic_password",
        "setuser",
        r"(?i)acl[ \t]+setuser[ \t]+\S+[^\n>]*?[ \t]>([^\s]{3,200})",
        not_after="",
        check=literal_password,
    ),
    rule(
        "generic_password",
        "user",
        r"(?i)user[ \t]+\S+[^\n>]*?[ \t]>([^\s]{3,200})",
        near=LINE_START,  # a users.acl line, `user app on >…`
        not_after="",
        check=literal_password,
    ),
    # ~/.pgpass: `host:port:database:user:password` (postgresql.org, "The Password File")
    rule(
        "generic_password",
        ":5432: :*:",  # PostgreSQL's port or a wildcard one: the pattern has no literal to lead it
        # (a field escapes `:` and `\` with a backslash)
        BOL + r"[ \t]*[\w.*-]+:(?:\d{1,5}|\*):[\w.*-]+:[\w.@*-]+:((?:[^\s:\\]|\\[:\\]){3,200}?)" + LINE_END,
        not_after="",
        check=literal_password,
    ),
    # Dovecot's passwd-file with a cleartext scheme: `user:{PLAIN}password:uid:gid…`
    rule(
        "generic_password",
        "{plain} {cleartext} {clear}",
        r"(?i)\{(?:plain|cleartext|clear)\}([^:\s]{3,200})",
        not_after="",
    ),
    # A password written into the file a tool reads it from: `echo '…' > ~/.restic-pass`
    rule(
        "generic_password",
        "echo printf",
        # (not a public key appended to authorized_keys, known_hosts, a .pub, a keyring)
        ECHOED + r"(?P<secret>(?!(?:ssh|ecdsa|sk-ssh)-)[^'\"\n]{3,200})(?P=q)[ \t]*>>?[ \t]*"
        r"(?![^\s|;&]*(?:authorized_keys|known_hosts|\.pub\b|keyring|\.gpg|\.asc))"
        r"[^\s|;&]*(?:pass|secret|token|cred|key|(?<![a-z])pw(?![a-z]))[^\s|;&]*",  # (`pw.txt`: geth's)
        not_after="",
        check=literal_password,
    ),
    # Borg's key exported on paper (`borg key export --paper-less`): `BORG_KEY <id>`, then the key
    rule(
        "private_key",
        "borg_key",
        r"BORG_KEY[ \t]+[0-9a-f]{64}\r?\n((?:[A-Za-z0-9+/=]{16,}(?:\r?\n|$))+)",
        not_after="",
    ),
    # davfs2's secrets file: `URL-or-mountpoint user password` a line (davfs2.conf(5)), in the lines
    # after the file's name
    rule(
        "generic_password",
        "davfs2",
        r"davfs2/secrets[^\n]*\n(?:[^\n]*\n){0,20}?"
        r"(?:https?://|/)\S+[ \t]+\S+[ \t]+(\S{3,200})[ \t]*(?=\r?\n|$)",
        not_after="",
        check=literal_password,
    ),
    # A DNS TSIG key (BIND's `key "name" { algorithm hmac-…; secret "…"; }`, tsig-keygen's output),
    # its quotes perhaps escaped (the file inside a JSON string: its lines are more than the quoted view)
    rule(
        "generic_api_key",
        "algorithm",
        r"(?i)algorithm[ \t]+hmac-[\w-]+;\s*secret[ \t]+\\?\"([A-Za-z0-9+/]{16,}={0,2})\\?\"",
        not_after="",
    ),
    # chrony's and ntpd's symmetric keys: `ID TYPE [HEX:|ASCII:]KEY` (chrony.conf(5), "keyfile")
    rule(
        "generic_api_key",
        "",
        # led by the type (a literal the engine searches for), the key's number before it
        r"(?i)(?:md5|sha1|sha256|sha384|sha512|aes128|aes256)[ \t]+(?:hex:|ascii:)?([!-~]{8,128}?)"
        + LINE_END,
        near=r'(?:^|\n|[:\[,][ \t]*\\?")[ \t]*\d{1,5}[ \t]+',
        not_after="",
        check=lambda key: random_base64(key) or re.fullmatch(r"[0-9A-Fa-f]{16,}", key) is not None,
    ),
    # strongSwan's ipsec.secrets: `: PSK "…"`, `: RSA key.pem "passphrase"`, `user : EAP "…"`
    rule(
        "generic_password",
        "psk rsa ecdsa eap xauth ntlm",
        r"(?i)(?:psk|rsa|ecdsa|eap|xauth|ntlm)[ \t]+(?:[^\s\"]+[ \t]+)?\"([^\"\n]{3,200})\"",
        near=r":[ \t]*",
        not_after="",
        check=literal_password,
    ),
    # `klist -kK`'s keys: the key in hex after its encryption type, or after its principal when
    # `-e` is not given (MIT Kerberos, klist(1))
    rule(
        "private_key",
        "(0x",
        r"(?:\((?:aes|des|arcfour|camellia)[\w-]*\)|@[A-Za-z0-9.-]+)[ \t]+\(0x([0-9a-fA-F]{16,256})\)",
        not_after="",
    ),
    # Squid's cache_peer `login=user:password`
    rule(
        "generic_password", "cache_peer", r"cache_peer\b[^\n]*?\blogin=[^:\s]+:([^\s]{3,200})", not_after=""
    ),
    # AWS CDK's secret given in plain text: `SecretValue.unsafePlainText("…")`
    rule(
        "generic_password",
        "secretvalue.",
        r"SecretValue\.(?:unsafePlainText|plainText)\(\s*[\"'`]([^\"'`\n]{4,300})[\"'`]",
        not_after="",
        check=literal_password,
    ),
    # Elasticsearch's reset tool prints the new password after "New value:"
    rule(
        "generic_password",
        "elasticsearch-reset-password",
        r"elasticsearch-reset-password\b[^\n]*\r?\n(?:[^\n]*\r?\n){0,3}?New value:[ \t]*(\S{6,200})",
        not_after="",
    ),
    # Flags no other tool uses: OpenSSL's `-passin pass:…` (openssl-passphrase-options(1)), keytool's
    # and jarsigner's `-storepass`, `-keypass`, `-srcstorepass`, `-destkeypass`
    rule(
        "cli_credentials",
        "",
        led("-pass", r"[\w-]")
        + r"(?:in|out|word)?\s+(?:'pass:([^'\n]{3,200})'|\"pass:([^\"\n]{3,200})\"|pass:"
        + CLI_VALUE
        + ")",
        not_after="",
    ),
    rule(
        "cli_credentials",
        "",
        r"storepass(?:(?<=-storepass)|(?<=srcstorepass)|(?<=deststorepass))\s+" + CLI_VALUE,
        not_after="",
    ),
    rule(
        "cli_credentials",
        "",
        r"keypass(?:(?<=-keypass)|(?<=srckeypass)|(?<=destkeypass))\s+" + CLI_VALUE,
        not_after="",
    ),
    # Samba's user%password (smbclient(1) -U, --user), also in rpcclient, smbcacls, net rpc
    # (`CORP\transfer`: the `\t` is read as a tab where the text's escapes are read)
    rule("cli_credentials", "", r"-U(?<=\s-U)\s*['\"]?[\w.\\@\t-]+%" + CLI_VALUE, not_after=""),
    rule("cli_credentials", "", r"--user(?:name)?=['\"]?[\w.\\@\t-]+%" + CLI_VALUE, not_after=""),
    # A password piped to, or given as a here-string to, a login that reads standard input
    rule(
        "cli_credentials",
        "",
        led("echo", r"\w")
        + r"(?:\s+-n)?\s+"
        + CLI_VALUE
        + r"\s*\|\s*(?:[^\n|]{0,100}\blogin\b[^\n|]{0,200}--(?:password-stdin|with-token)"
        # ... or to a CLI that stores it (`| circleci context store-secret`, `| gh secret set`)
        + r"|[\w./-]*[ \t]*(?:\w+[ \t]+)?"
        + r"(?:context store-secret|secret set|secret put|env add|secret create)\b)",
        not_after="",
    ),
    rule("cli_credentials", "", r"--(?:password-stdin|with-token)\s*<<<\s*" + CLI_VALUE, not_after=""),
    # SQL that sets a password: CREATE/ALTER USER or GRANT … IDENTIFIED BY (MySQL; Oracle, where it
    # may be unquoted), CREATE/ALTER USER/ROLE/LOGIN … PASSWORD '…' (PostgreSQL) or = '…' (SQL
    # Server), SET PASSWORD. Led by the rarer word, with the statement's start looked for before it.
    rule(
        "generic_password",
        "",
        "(?i)" + led("identified", r"\w") + r"[ \t]+(?:with[ \t]+\w+[ \t]+)?by[ \t]+(?:password[ \t]+)?"
        r"(?:'([^'\n]{3,200})'|\"([^\"\n]{3,200})\"|([^\s'\";]{3,200})"
        # unquoted (Oracle), only where the statement ends or goes on with one of its own clauses
        r"(?=[ \t]*(?:;|\n|$)|[ \t]+(?:default|temporary|quota|profile|password|account|container)\b))",
        not_after="",
        # (Oracle's database link: `CREATE DATABASE LINK l CONNECT TO u IDENTIFIED BY …`)
        near=r"\b(?:(?:create|alter)[ \t]+user|grant|connect[ \t]+to)\b[^;\n]*",
        check=lambda value: not value.startswith("&"),  # SQL*Plus' substitution variable, `&&new_pw`
    ),
    rule(
        "generic_password",
        "",
        # SQL Server writes Unicode literals `N'…'` (CREATE LOGIN … WITH PASSWORD=N'…')
        "(?i)" + led("password", r"\w") + r"\s*=?\s*n?'([^'\n]{3,200})'",
        not_after="",
        check=lambda value: not verify.password_verifier(value),
        near=r"\b(?:create|alter)\s+(?:user|role|login)\b[^;\n]*",
    ),
    rule(
        "generic_password",
        "",
        "(?i)"
        + led("set", r"\w")
        + r"[ \t]+password\b[^;\n]{0,100}?=\s*(?:password\s*\(\s*)?'([^'\n]{3,200})'",
        not_after="",
    ),
    # ?token=… in URLs
    rule(
        "url_with_credentials",
        "=",
        # OpenWeatherMap's `appid` is its API key (Entra ID's, a UUID, names a public app); Azure API
        # Management's `subscription-key` one
        r"[?&](?:token|access_token|api_key|apikey|key|secret|password|sig|client_secret"
        r"|appid(?!=[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-)|app_key|appkey"
        r"|app_secret|api_token|apitoken|auth_token|authtoken|private_token|access_key|secret_key"
        r"|subscription[-_]key|passwd|pwd)="
        r"([A-Za-z0-9%._~+/-]{12,})",
        not_after="",
        # (not words, Directus' asset preset `?key=card-thumbnail`)
        check=lambda value: re.fullmatch(r"[a-z]+(?:[-_][a-z]+)+", value) is None,
    ),
    # a presigned URL's signature grants what it signs until it expires (AWS SigV4, GCS V4)
    rule("url_with_credentials", "", r"X-(?:Amz|Goog)-Signature=([0-9a-f]{64,})", not_after=""),
    # ... and in a log's query field, which has no `?` (CloudFront's tab-separated cs-uri-query)
    rule(
        "url_with_credentials",
        "\t",
        r"\t(?:apikey|api_key|access_token|token|sig|key)=([A-Za-z0-9%._~+/-]{12,})",
        not_after="",
    ),
    # <SomethingToken>value</SomethingToken> (gitleaks' xml sample templates), <pwd>, <credentials>;
    # a plist's <key> names one (and .NET's `<UserSecretsId>` names a folder); FileZilla's
    # `<Pass encoding="base64">…</Pass>`, OPNsense's `<auth_pass>`, `<ldap_bindpw>`; not a key's file
    rule(
        "generic_api_key",
        "token secret password passwd passphrase pwd credential key <pass <pin> storepass keypass "
        "bindpw _pass",
        r"(?i)<((?![\w-]*keyword|key>|usersecretsid>|authorized_?keys>|[\w-]*(?:type|name|id|usage|length|size|format)>)(?:[\w-]+:)?[\w.-]*(?:token|secret|password|passwd|passphrase|pwd|credentials?|apikey|api_key|key)[\w-]*"
        r"|pass|pin|storepass|keypass|psk|[\w-]*community|[\w-]*_(?:pass|bindpw))(?:\s[^<>]*)?>\s*(?P<secret>[^<\s]{8,})\s*</\1>",
        not_after="",
        # (not a path, nor a name: JetBrains' `<secret-storage>master_key</secret-storage>`)
        check=lambda value: re.match(r"[A-Za-z]:\\|[/~]|[a-z]+(?:_[a-z]+)+$", value) is None,
    ),
    # Android's string resources, `<string name="sync_server_pass">…</string>` (developer.android.com)
    rule(
        "generic_password",
        "<string",
        r"(?i)<string[ \t]+name=\"[\w.]*(?:pass|password|passwd|pwd|secret|token|api_?key)\"[^>\n]*>"
        r"([^<\n]{3,200})</string>",
        not_after="",
        check=literal_password,
    ),
    # ... and a CDATA section in an element named for a secret (WS-Security's `<wsse:Password>`)
    rule(
        "generic_password",
        "cdata",
        r"(?i)<([\w:-]*(?:password|passwd|secret|token|apikey|api_key)[\w-]*)(?:[ \t][^<>\n]*)?>"
        r"\s*<!\[cdata\[(?P<secret>[^\]\n]{3,200})\]\]>\s*</\1>",
        not_after="",
        check=literal_password,
    ),
    # Windows setup answer files (unattend.xml): `<AdministratorPassword>`, `<Password>` of a local
    # account or the auto-logon, then `<Value>…</Value>` (plain, or base64 of UTF-16 when
    # `<PlainText>false</PlainText>`: encoded, not encrypted); SSIS `.dtsConfig`'s `…Password]`
    # property then its `<ConfiguredValue>` (learn.microsoft.com); LibreOffice's settings,
    # `<prop oor:name="Password"><value>…</value>` (registrymodifications.xcu)
    rule(
        "generic_password",
        "<value> <configuredvalue>",
        r"(?i)(?:<\w*password>|\[\w*password\]\"[^>\n]*>|name=\"\w*password\"[^>\n]*>)\s*"
        r"<(value|configuredvalue)>(?P<secret>[^<\n]{3,300})</\1>",
        not_after="",
    ),
    # A secret named in a name/value pair: Kubernetes and Compose `env` lists (`- name: DB_PASSWORD`
    # then `value: …`; `AZDO_PAT`, a personal access token), JSON settings `{"name":
    # "registry-password", "value": "…"}`, Postman's variables `{"key": "token", "value": "…"}`
    # (also `- key: JWT_SECRET` then `value: …`: Render's and DigitalOcean's app specs)
    *(
        rule(
            "generic_password",
            word,
            r"(?i)"
            + word
            + r"\\?[\"']?\s*[:=]\s*\\?[\"']?[\w.-]*(?:password|passwd|secret|token|api[_-]?key|apikey"
            r"|credential|passphrase|(?:account|access|secret|private|master|encryption|signing)[_-]?key"
            r"|(?<![a-z])pat(?![a-z])|(?<![a-z])auth(?![a-z]))"
            # (the next line may carry a diff's `+`/`-` or a review's `> `)
            r"[\w.-]*\\?[\"']?\s*(?:,|\n(?:>[ \t]*)?[+-]?)\s*(?:-\s*)?"
            r"\\?[\"']?value\\?[\"']?\s*[:=]\s*\\?[\"']?"
            r"(?P<secret>[^\s\"',})\\]{4,})",
            not_after=r"\w",
            # (not a sanitizer's `<omitted by HAR sanitizer>`)
            # (nor a secret manager's reference, `berglas://…`, `sm://…`)
            check=lambda value: (
                not_a_dotted_name(value)
                and not value.startswith(("<", "(", "["))  # (`(sensitive - write only)`)
                # (nor code passing a variable or a call on: `value=minimum_password_length`)
                and "(" not in value
                and not value.endswith(":")  # (a YAML key: `value:` then `secretName: …`)
                # (nor a variable, `value: clientSecret`, nor a resource's name, `value: tailscale-state`)
                and re.fullmatch(r"[a-z]+(?:[A-Z][a-z]+)+|[a-z]+(?:-[a-z]+)+", value) is None
                and re.fullmatch(r"[a-z]+(?:_[a-z]+)+", value) is None
                and not metavariable(value)  # (Ansible's `VALUE_SPECIFIED_IN_NO_LOG_PARAMETER`)
                and not verify.is_stand_in(value)
                and not re.match(r"[a-z][a-z0-9+.-]*://[^@]*$", value)
            ),
        )
        for word in ("name", "key", "option")
    ),
    # ... and a Postman environment's `{"key": "mailgunKey", "value": "…"}`: a key's, a secret's or a
    # token's name, a random value (quoted: keyword arguments `key=…, value=…` are code)
    rule(
        "generic_api_key",
        "key",
        r"(?i)\"key\":[ \t]*\"[\w.-]*(?:key|secret|token)\",\s*\"value\":[ \t]*\"([\w.+/=-]{16,300})\"",
        not_after="",
        check=lambda value: keyed_value_is_secret("api_key", "=", value, '"'),
    ),
    # ... a password's (Postman's basic auth, `{"key": "password", "value": "…"}`, Portainer's stack
    # env `{"name": "PAPERLESS_DBPASS", "value": "…"}`), and a key's under `name` (n8n's body
    # parameters, `{"name": "routing_key", "value": "…"}`), judged as their names'
    rule(
        "generic_password",
        "key name",
        r"(?i)\"(?:key|name)\":[ \t]*\"[\w.-]*(?:password|passwd|pwd|pass)\",\s*"
        r"\"value\":[ \t]*\"((?:[^\"\\\n]|\\.){3,200})\"",
        not_after="",
        check=literal_password,
    ),
    rule(
        "generic_api_key",
        "name",
        r"(?i)\"name\":[ \t]*\"[\w.-]*[_-]key\",\s*\"value\":[ \t]*\"([\w.+/=-]{16,300})\"",
        not_after="",
        check=lambda value: keyed_value_is_secret("api_key", "=", value, '"'),
    ),
    # A secret named in a pair of strings: C#'s `{ "AccountKey", "…" }`, Python's `("api_key", "…")`;
    # only a random key-alphabet value, since a pair of names is a list too
    rule(
        "generic_api_key",
        "key secret token",
        r"(?i)(?:key|secret|token)[\"']\s*,\s*[\"']([a-z0-9+/=_.-]{20,})[\"']",
        check=random_base64,
        entropy=3.5,
        not_after="",
        near=r"[\"'][\w.-]*",  # the name is a quoted string
    ),
    # Android buildConfigField("String", "API_KEY", "\"…\"") (np: generic.2)
    rule(
        "generic_api_key",
        "buildconfigfield",
        r"buildConfigField\s*\(?\s*[\"']String[\"']\s*,\s*[\"']\w*(?:KEY|TOKEN|SECRET|PASSWORD)\w*"
        r"[\"']\s*,\s*[\"']\\?\"?([^\"'\\\s]{8,})",
        not_after="",
    ),
    # .NET NetworkCredential("user", "pass") and DirectoryEntry(path, user, pass) (np: generic.7-8)
    rule(
        "generic_password",
        "networkcredential",
        r"(?i)NetworkCredential\s*\(\s*\"[^\"\n]{3,50}\"\s*,\s*\"([^\"\n]{3,50})\"\s*\)",
        not_after="",
    ),
    rule(
        "generic_password",
        "directoryentry",
        r"(?i)DirectoryEntry\s*\(\s*\"[^\"\n]{3,100}\"\s*,\s*\"[^\"\n]{3,50}\"\s*,\s*\"([^\"\n]{3,50})\"",
        not_after="",
    ),
    # A login call's second string is the password: Python's smtplib/ftplib/imaplib/poplib
    # `.login(user, password)`, requests'/httpx' `auth=(user, password)`, `HTTPBasicAuth(u, p)`,
    # `HTTPDigestAuth`, `HTTPProxyAuth`, aiohttp's `BasicAuth(login, password)`
    rule(
        "generic_password",
        "",
        r"\.login\(\s*[\"'][^\"'\n]{1,100}[\"']\s*,\s*[\"']([^\"'\n]{3,200})[\"']\s*\)",
        not_after="",
    ),
    rule(
        "generic_password",
        "",
        r"auth\s*=\s*\(\s*[\"'][^\"'\n]{1,100}[\"']\s*,\s*[\"']([^\"'\n]{3,200})[\"']\s*\)",
        not_after=r"\w",
    ),
    rule(
        "generic_password",
        "",
        r"Auth\(\s*[\"'][^\"'\n]{1,100}[\"']\s*,\s*[\"']([^\"'\n]{3,200})[\"']",
        not_after="",
        near=r"(?:basic|digest|proxy)",
    ),
    # A setter named for the secret: Django's `user.set_password("…")`, `setApiKey("…")`,
    # `withToken("…")`, and a builder's `.password("…")` (Rust's sqlx, Java's JDBC builders); one
    # rule per word, each led by the literal `word(`. A method `.token("…")` may be a lexer's, and
    # `questionary.password("Enter password")` asks for one.
    *(
        rule(
            "generic_password",
            "",
            rf"(?i){word}\(\s*[\"']([^\"'\n]{{4,200}})[\"']\s*\)",
            not_after="",
            near=r"\b(?:set|with)_?[a-z_]*" + (r"|\." if "pass" in word or word == "secret" else ""),
            # not a prompt's words, nor a name (MATLAB's `setSecret("lims_readonly")` names a secret)
            check=lambda value: (
                re.search(r"^\s|\s$|[A-Za-z]{2,}[:?]?\s+[A-Za-z]{2,}", value) is None
                and re.fullmatch(r"[a-z]+(?:_[a-z]+)+", value) is None
            ),
        )
        for word in ("password", "passwd", "secret", "token", "apikey", "api_key")
    ),
    # ... and a key's setter (rentrez' `set_entrez_key("…")`), whose value is machine-made: a
    # cache's or a map's key is a name
    rule(
        "generic_api_key",
        "key(",
        r"(?i)key\(\s*[\"']([^\"'\n]{16,600})[\"']\s*\)",  # (Appwrite's are 256 hex and more)
        not_after="",
        near=r"\b(?:set|with)_?[a-z_]*",
        check=arguments.machine_made,  # (not words and numbers: `user-profile-1234`)
    ),
    # An HTML password field with a value
    rule(
        "generic_password",
        "",
        r"(?i)<input\b[^>\n]{0,200}?\btype=[\"']?password\b[^>\n]{0,200}?\bvalue=[\"']([^\"'\n]{3,200})[\"']",
        not_after="",
    ),
    # PostgreSQL's .pgpass: hostname:port:database:username:password, one entry a line
    rule(
        "generic_password",
        "pgpass",
        BOL + r"[^\s:#][^\s:]*:(?:\d{1,5}|\*):[^\s:]+:[^\s:]+:([^\s:]\S{2,199})$",
        not_after="",
    ),
    # Terraform: variable "db_password" { default = "…" }
    rule(
        "generic_password",
        "",
        r"variable\s+\"[\w-]*(?:password|passwd|secret|token|api_key|apikey|private_key)[\w-]*\"\s*\{"
        r"[^}]{0,300}?\bdefault\s*=\s*\"([^\"\n]{4,200})\"",
        not_after="",
    ),
    # <add key="…Password…" value="…"/> in .NET config (np: generic.9; gl: nuget-config-password),
    # and `…:ApiKey` (appSettings' sections are written `Section:Name`)
    rule(
        "generic_password",
        "<add",
        r"(?i)<\s*add\s+key\s*=\s*\"[^\n\"]{0,30}(?:pass|secret|token|api_?key|account_?key|access_?key)[^\n\"]{0,20}\"\s+value\s*=\s*"
        r"\"([^\n\"]{3,100})\"\s*/\s*>",
        not_after="",
        check=lambda value: not verify.prose_phrase(value),  # (`value="set by environment"`)
    ),
    # An element naming a secret in its `name` or `key` attribute, the value in its `value`
    # attribute or as its text: Ant's and Spring's `<property name="db.password" value="…"/>`,
    # Hibernate's `<property name="hibernate.connection.password">…</property>`, Java's XML
    # properties `<entry key="jdbc.password">…</entry>`, log4j's `<param name="Password" …/>`. The
    # name ends with the secret's word (`tokenizer.keyword` names no secret).
    *(
        rule(
            "generic_password",
            "name key",
            # led by the attribute (a rule led by `<` would try every tag); the tag's start before it
            r"(?i)(?:name|key)\s*=\s*[\"'](?:[\w.:-]{0,60}?" + XML_NAME_END + value,
            not_after=r"\w",
            near=r"<[\w:.-]+\s[^<>\n]*",
            check=lambda value: keyed_value_is_secret("password", "=", value, '"'),
        )
        for value in (
            r"[^<>\n]*?\bvalue\s*=\s*[\"'](?P<secret>[^\"'<>\n]{3,200})[\"']",
            r"[^<>\n/]*>(?P<secret>[^<>\n]{3,200})</[\w:.-]+>",
        )
    ),
    # Hadoop's and Hive's XML configuration: `<name>javax.jdo.option.ConnectionPassword</name>`,
    # `<name>fs.azure.account.key.ACCOUNT.dfs.core.windows.net</name>`, then `<value>…</value>`
    rule(
        "generic_password",
        "<name>",
        r"(?i)<name>\s*[\w.:-]*?(?:password|passwd|secret|token|account\.key(?:\.[\w.-]+)?)\s*</name>\s*"
        r"<value>\s*(?P<secret>[^<\s][^<\n]{2,300}?)\s*</value>",
        not_after="",
        check=lambda value: not value.isdigit() and literal_password(value),
    ),
    # "the password is 'x'" (np: generic.11-14)
    rule(
        "generic_password",
        "password is password for",
        r"(?i)the (?:default )?password (?:for (?:the )?(?:user|username) ['\"][^'\"\n]{2,24}['\"] )?is "
        r"(?:'([^'\n#$|\"{<+ ()\\][^'\n]{2,60})'|\"([^'\n#$|\"{<+ ()\\][^\"\n]{2,60})\")",
        not_after="",
    ),
    # "Password" in other languages, then a value of ASCII characters (passwords are typed in ASCII;
    # CJK writes no spaces, so the value ends where ASCII does): `WiFi密码` and a full-width colon,
    # `パスワードは …`, `Passwort: …`, `das Passwort ist ….`, judged as a keyed password (a verb as `is`).
    # One rule per word and separator, each led by its word: a rule runs only where its word occurs.
    *(
        rule(
            "generic_password",
            "",
            # not a word's end, nor a field of a list like `user:password:UID:GID`
            "(?i)"
            + led(word, r"\w:", *(() if cjk else (r"[^\W\d_]",)))
            + r"(?:[ \t]*\([^)\n]{0,20}\))?"
            + separator
            + r"[ \t]*(?:[\"'「『]([!-~]{3,200}?)[\"'」』]|([!-~]{4,200}?))"
            # full-width , ; ! ? ) and the close of a JSON string
            r"(?=[.,;:!?。、\uff0c\uff1b\uff01\uff1f]*(?:[\s\uff09」』]|[^!-~]|$|\\?\"[,}\]]))",
            not_after="",
            check=check,
        )
        for words, cjk in (
            ("密码 密碼 口令 パスワード 暗証番号 비밀번호 비번 암호", True),
            (
                "授权码 授權碼 シークレット 密钥 秘钥 令牌",
                True,
            ),  # an authorisation code, a secret, a key, a token
            ("पासवर्ड পাসওয়ার্ড รหัสผ่าน סיסמה סיסמת סיסמא", True),
            (r"كلمة\sالمرور كلمة\sمرور كلمة\sالسر رمز گذرواژه", True),
            (
                "contraseña contrasena passwort kennwort senha пароль parola wachtwoord hasło haslo lösenord "
                "lösenordet passord passordet adgangskode salasana heslo jelszó şifre şifresi κωδικός "
                "clave palavra-passe initialpasswort startpasswort schlüssel",
                False,
            ),
            (r"mot\sde\spasse mật\skhẩu kata\ssandi clé\sde\ssécurité", False),
        )
        for word in words.split()
        for separator, check in (
            # \uff1a: the full-width colon; は, 是, 为, 는: "is" as a particle or copula
            # prose has no code: what it tells is a literal (`密码是 =Barca3010`, a card's PIN)
            (
                r"[ \t]*(?:[:\uff1a=]|" + CJK_IS + ")",
                lambda value: (
                    keyed_value_is_secret("password", "=", value, "")
                    or told_in_a_sentence(value)
                    or (value.isdecimal() and secret_code(value))  # a PIN after the word and a colon
                ),
            ),
            (
                r"[ \t]+(?:ist|est|es|é|är|er|on|jest|là|adalah|είναι|הוא|היא|هو|هي|คือ)[ \t]",
                lambda value: (
                    keyed_value_is_secret("password", " is ", value, "") or told_in_a_sentence(value)
                ),
            ),
        )
    ),
    # A password told in a sentence, in any of these languages: "the temporary password for your
    # new laptop account is Cactus_falcon2772.", "La password del Wi-Fi ospiti è …", "Hasło do
    # panelu: …" (up to eight words, then a copula or a colon), or right after the word ("mot de
    # passe O8hprN^8W…", "пароль K8Va…"). The value must hold a digit or a sign, so the words of
    # a sentence ("… is required") are not taken; right after the word, letters and digits both.
    *(
        rule(
            "generic_password",
            "",
            "(?i)"
            + (word if glued else led(word, r"\w"))
            + suffix
            # a colon after words (not `password =`, the keyed scan's), or a copula after any; in
            # scripts without spaces between words the copula is written onto the last word
            + r"(?:(?:(?:[ \t]+"
            + NOT_A_COPULA
            + r"(?:[^\s.!?;:=]|\.(?=\S)){1,30}){1,8}?[ \t]*(?:[:\uff1a=]|คือ|"
            + CJK_IS
            + r"|은)"
            + r"|(?:[ \t]+(?:[^\s.!?;:=]|\.(?=\S)){1,30}){0,8}?[ \t]+"
            + PROSE_COPULA
            + r")[ \t]+"
            + r"(?:«[ \u00a0]?|[\"'“„])?(?=[^\s\"'»”]*[\d!@#$%^&*_+=~?]|[^\s\"'»”]*\w\.\w+\.\w)"
            + r"|[ \t]+[\"'«“„]?(?=[^\s\"'»”]*\d)(?=[^\s\"'»”]*[^\W\d_]))"
            # the value ends at a space, a text's end, a JSON string's close, or (full-width or
            # other scripts' punctuation, then) a letter of a script other than Latin: `Huawei@Lab2023），`
            + r"([^\s\"'»”\x60][^\s\"'»”]{4,62}?[^\s\"'»”\x60])[\"'»”]?(?=[.,;!?)"
            + WIDE_PUNCTUATION
            + r"]*(?:"
            + PROSE_END
            + r"|[^\x00-\u024f]))",
            not_after="",
            check=told_in_a_sentence,
        )
        for word, suffix, glued in (
            *(
                (w, "", False)
                for w in (
                    "password",
                    "passphrase",
                    "pw",
                    "passwort",
                    "kennwort",
                    "contraseña",
                    "senha",
                    "palavra-passe",
                )
            ),
            *(
                (w, "", False)
                for w in (
                    "wachtwoord",
                    "hasło",
                    "haslo",
                    "пароль",
                    "salasana",
                    "heslo",
                    "jelszó",
                )
            ),
            *((w, "", False) for w in (r"mot\sde\spasse", r"mật\skhẩu", r"kata\ssandi", "κωδικός", "κωδικό")),
            ("lösenord", "(?:et)?", False),  # Swedish, Norwegian, Danish: the definite form
            ("passord", "(?:et)?", False),
            ("adgangskode", "n?", False),
            ("şifre", "(?:si|niz)?", False),
            ("sifre", "(?:si|niz)?", False),
            # scripts that write particles, articles and prefixes onto the word: no word boundary
            *((w, "", True) for w in ("密码", "密碼", "口令", "パスワード", "비밀번호", "비번", "암호")),
            *((w, "", True) for w in ("पासवर्ड", "পাসওয়ার্ড", "รหัสผ่าน", "รหัส", "סיסמה", "סיסמת", "סיסמא")),
            *((w, "", True) for w in (r"كلمة\sالمرور", r"كلمة\sمرور", r"كلمة\sالسر", "رمز", "گذرواژه")),
        )
    ),
    # A remark between the name and its value, as the other languages' rule above allows:
    # `# password (plain, remove later): …`; docstrings' `password (str): The password to use` are
    # words, names and stand-ins, which the keyed judgement rejects
    rule(
        "generic_password",
        "",
        "(?i)"
        + led("password", r"[\w-]")
        + r"[ \t]*\([^)\n]{1,40}\)[ \t]*[:=][ \t]*(?:[\"']([^\"'\n]{3,200})[\"']|([!-~]{4,200}?))"
        + r"(?=[.,;]*(?:\s|$))",
        not_after="",
        check=lambda value: keyed_value_is_secret("password", "=", value, ""),
    ),
    # A password told in a sentence without a verb: "just use password Welcome2023!! for the admin
    # login": a value of letters and digits (not a word: "password reset for") before a preposition;
    # a quoted one is the keyed rule's (`password "…"`), a manual's ``secret99`` an inline literal
    rule(
        "generic_password",
        "",
        "(?i)"
        + led("password", r"[\w-]")
        + r"[ \t]+([^\s\x60'\"][!-~]{4,62}[^\s.,;:\x60'\"])"
        + r"(?=[.,;:]*[ \t]+(?:for|to|on|in|at|and|as|from|with)\b)",
        not_after="",
        check=lambda value: (  # and not a standard's name (SHA-256, PBKDF2, ISO-8859-1)
            re.fullmatch(r"[A-Z]{2,}[-_]?\d+(?:[-_]\d+)*", value) is None
            and has_digit(value)
            and re.search(r"[A-Za-z]", value) is not None
            and keyed_value_is_secret("password", "=", value, "")
        ),
    ),
    # A login told in prose: "the creds are user admin / password ravenRustic40", "login: deploy,
    # pw: …", "user svc-backup pass …": a user's name, a slash, comma, `and` or a space, then the
    # password
    *(
        rule(
            "generic_password",
            "",
            "(?i)"
            + led(word, r"\w")
            + r"(?:name)?(?![\w-])[ \t]*[:=]?[ \t]*[^\s/,;:=]{1,64}(?:[ \t]*(?:/|,|;|and)[ \t]*|[ \t]+)"
            # the password holds a digit and ends in no punctuation (`username: str, password: str)`)
            # (not in backticks: "user didn't pass `id2label/lable2id`" names code)
            + r"(?:password|passwd|pass|pwd|pw)[ \t]*[:=]?[ \t]+[\"']?(?=[^\s\"'\x60]*\d)"
            + r"([^\s\"'\x60]{3,99}?[^\s\"'\x60.,;:!?)])[\"']?"
            + r"(?=[.,;!?)]*"
            + PROSE_END
            + ")",
            not_after="",
            check=told_in_a_sentence,
        )
        for word in ("user", "login")
    ),
    # KeePass's XML export: <Key>Password</Key> then <Value ProtectInMemory="True">…</Value>
    rule(
        "generic_password",
        "",
        r"<Key>Password</Key>\s*<Value[^>]*>([^<]{1,300})</Value>",
        not_after="",
        trusted=lambda value: not value.startswith("{"),  # a password manager's value is a literal
        check=lambda value: not value.startswith("{REF:"),  # a reference to another entry's field
    ),
    # "the shared-inbox login: support@greywater.org / ?2C6HvFR%8~59r5V": an address, a slash with
    # a space beside it (`ana@acme.com/features.parquet` is a path), a password with a digit and a
    # sign or both cases
    rule(
        "generic_password",
        "",
        r"@[\w-]+(?:\.[\w-]+)+(?:[ \t]+/[ \t]*|/[ \t]+)([^\s\"'\x60/]{5,99}[^\s\"'\x60.,;:!?)/])(?=[.,;!?)]*"
        + PROSE_END
        + ")",
        not_after="",
        check=lambda value: (
            has_digit(value)
            and (re.search(r"[^\w]", value) is not None or not (value.islower() or value.isupper()))
            and told_in_a_sentence(value)
        ),
    ),
    # "log in with admin / yBAeSmsutirJrcM": a user's name, a slash, the password (letters and
    # digits or signs, or random letters: not "log in as admin / root")
    *(
        rule(
            "generic_password",
            "",
            "(?i)"
            + led(word, r"\w")
            + r"[ \t]+(?:with|as|using)[ \t]+[^\s/,;:=]{1,64}[ \t]*/[ \t]*"
            + r"([^\s\"'\x60]{3,99}[^\s\"'\x60.,;:!?)])"
            + r"(?=[.,;!?)]*"
            + PROSE_END
            + ")",
            not_after="",
            check=lambda value: (
                verify.random_letters(value)
                or (re.search(r"[\d\W_]", value) is not None and told_in_a_sentence(value))
            ),
        )
        for word in ("login", r"log\sin", r"sign\sin")
    ),
    # A personal identification number: "PIN 8891 for the side door", "PIN code: 4821", "die PIN
    # lautet 4821" (capitals: `pin 13` is a board's pin); not a run (1234) or one digit repeated
    rule(
        "generic_password",
        "",
        r"PIN(?<![\w-]PIN)(?![\w-])(?:[ \t-]?[Cc]ode)?"
        r"(?:(?:[ \t]+[^\s\d.!?;:=]{1,20}){0,6}?[ \t]*(?:[:=]|\bis\b|\blautet\b|\best\b|\bes\b|\bé\b)"
        r"|[ \t]*(?:#|no\.?)?)[ \t]*(\d{4,8})(?![\d.,:/-]\d|\d)",
        not_after="",
        unless=r"gpio|board|header|pinout|pin-out",  # a chip's or a board's pins
        check=lambda value: len(set(value)) > 1 and keyed_value_is_secret("pin_password", "=", value, '"'),
    ),
    # A code named for what it opens, in a note: "Front door keypad code: 4208", "Gate code 7605",
    # "Alarm system disarm code: 04594", "Ihr Bestätigungscode lautet: 685637", "Digicode : B2487",
    # and, where words with a preposition follow the word for code, "Code de la carte bleue BNP :
    # 7723", "Código del portal: 5004", "Kod do domofonu: 1876" (in Russian any words: "Код
    # домофона"). A code alone (`"code": 4001`, `Code: 404`, "Code Snippets: 2479") is no secret,
    # nor an error's, a status's, a place's or a product's code.
    rule(
        "generic_password",
        "",
        r"(?i)code(?![a-z])[ \t]*(?:(?:is|lautet|ist|est|es|é|era)[ \t]*)?[:\uff1a]?[ \t]*" + CODE_VALUE,
        not_after="",
        near=CODE_FOR + r"[^.\n]{0,40}",
        unless=NOT_A_SECRET_CODE,
        check=secret_code,
    ),
    *(
        rule(
            "generic_password",
            "",
            "(?i)"
            + word
            + r"(?![a-z])"
            + preposition
            + r"(?:[ \t]+(?:[^\s\d.!?;:=]|\.(?=\S)){1,20}){1,8}?(?:[ \t]*[:\uff1a]|[ \t]+"
            + copula
            + r")[ \t]*"
            + CODE_VALUE,
            not_after="",
            unless=NOT_A_SECRET_CODE,
            check=secret_code,
        )
        for word, preposition, copula in (
            # "Der Code für den Schlüsseltresor … ist 9027", "Il codice del lucchetto … è 6452",
            # "Koden till larmet … är 4139", "Kód k trezoru … je 3604", "הקוד של האזעקה … הוא 8142";
            # Polish "to" only after Polish "kod" (English "code … up to 4096" is a size)
            *(
                (w, CODE_OF, CODE_COPULA)
                for w in ("code", "código", "codigo", "codice", "koden", "kode", "kód", "קוד")
            ),
            ("kod", CODE_OF, r"(?:to|jest|är)(?=[ \t])"),
            ("код", "", CODE_COPULA),
        )
    ),
    # Thai writes the copula onto the words before it: "รหัสตู้เซฟห้องบัญชีคือ 1846"
    rule("generic_password", "", r"รหัส\S{0,40}?คือ[ \t]*" + CODE_VALUE, not_after="", check=secret_code),
    *(
        rule(
            "generic_password",
            "",
            "(?i)"
            + word
            + r"(?![a-z])(?:[ \t]+(?:[^\s\d.!?;:=]|\.(?=\S)){1,20}){0,8}?[ \t]*"
            + r"(?:(?:is|lautet|ist|est|es|é|era)[ \t]*)?[:\uff1a]?[ \t]*"
            + CODE_VALUE,
            not_after=r"A-Za-z",
            unless=NOT_A_SECRET_CODE,
            check=secret_code,
        )
        for word in (
            "passcode",
            "pincode",
            "pin-code",
            r"pin\scode",
            "пин-код",
            "digicode",
            "geheimzahl",
            "disarm with",
        )
    ),
    # A PIN under its name: `:CARD_PIN: 3383`, `sim_pin = "4821"`, `PIN_CODE: 4821` (not `spin`, not
    # a board's `pin: 13`)
    rule(
        "generic_password",
        "",
        # a name that is `pin` alone wants a quoted value (`"pin": 9231` is a vocabulary's id)
        r"(?i)pin(?:(?<=[_.-]pin)|(?=[_-]?code)|(?=[\"']?[ \t]*[:=][ \t]*[\"']))(?:[_-]?code)?[\"']?"
        r"(?:[ \t]*[:=][ \t]*|:[ \t]+)[\"']?(\d{4,8})[\"']?(?![\d.,/:-]?\d)",
        not_after="#A-Za-z0-9",  # not `spin`, nor a tokenizer's `"##pin": 8091`
        check=secret_code,
    ),
    # Wi-Fi QR payloads: WIFI:T:WPA;S:<network>;P:<password>;; (`\;` escapes a semicolon)
    rule("wifi_password", "", r"WIFI:(?:[^;\n]*;)*?P:((?:\\.|[^;\\\n]){1,200});", not_after=""),
    # Microsoft product keys: five groups of five from the 24 characters they use; led by the
    # first dash, the group before it grown back
    rule(
        "license_key",
        "",
        r"-[BCDFGHJKMPQRTVWXY2346789]{5}-[BCDFGHJKMPQRTVWXY2346789]{5}-[BCDFGHJKMPQRTVWXY2346789]{5}"
        r"-[BCDFGHJKMPQRTVWXY2346789]{5}(?![\w-])",
        not_after="",
        grow=r"(?<![\w-])[BCDFGHJKMPQRTVWXY2346789]{5}",
        check=lambda value: has_digit(value) and re.search(r"[A-Z]", value) is not None,
    ),
    # A license key after the word for one: "Klucz licencyjny …: XPQE-RL9S-5BBY-Z66P", "license key:
    # 7F3K-…", and a license block (Sublime Text's)
    rule(
        "license_key",
        "",
        # (not Windows' product ID, `00330-80000-00000-AA623`, which names an installation)
        r"(?i)(?:licen[cs]e|lizenz|licencia|licença|licencyjny|лицензи|product(?![ \t_-]*id))"
        r"[^\n]{0,60}?[:\uff1a][ \t]*"
        r"([a-z0-9]{4,6}(?:-[a-z0-9]{4,6}){2,7})(?![\w-])",
        not_after="",
        check=lambda value: has_digit(value) and re.search(r"[a-z]", value, re.I) is not None,
    ),
    rule(
        "license_key",
        "",
        r"(---+ ?BEGIN LICENSE ?---+[\s\S]{20,3000}?---+ ?END LICENSE ?---+)",  # led by its literal
        not_after="",
    ),
    # A wallet's recovery phrase: 12 to 24 lowercase words after the word for one
    rule(
        "seed_phrase",
        "",
        r"(?i)(?:seed|mnemonic|recovery phrase|backup phrase|frase|phrase|wiederherstellungsphrase"
        r"|復元フレーズ|フレーズ|助记词|助記詞|сид|мнемони)[^\n]{0,80}?(?:[:\uff1a][ \t]*\n?|\n)[ \t]*"
        r"((?:[a-z]{3,8}[ \t\n]+){11,23}[a-z]{3,8})[ \t]*(?=\n|$)",
        not_after="",
        # matched on the lowercased text: the words as written are lowercase, as a wallet shows them
        check=lambda value: value.islower() and len(value.split()) in (12, 15, 18, 21, 24),
    ),
    # A TOTP seed written down: base32 after "2FA", "TOTP", "authenticator", … and a colon
    rule(
        "totp_seed",
        "",
        r"(?i)(?:2fa|totp|otp|mfa|two-factor|zwei-faktor|authenticator|deux facteurs|dos factores)"
        r"[^\n]{0,80}?[:\uff1a][ \t]*\n?[ \t]*"
        r"([a-z2-7]{4}(?: [a-z2-7]{4}){3,7}|[a-z2-7]{16,64})(?![a-z0-9])",
        not_after="",
        check=lambda value: (
            re.search(r"[2-7]", value) is not None and len(value.replace(" ", "")) % 8 in (0, 2)
        ),
    ),
    # Backup codes listed under their heading, one a line: the whole list
    rule(
        "backup_codes",
        "",
        r"(?i)(?:(?:backup|recovery|sicherungs|secours|récupération|reserva|zapasow|резервн)[^\n]{0,60}codes?"
        r"|c[óo]digos[^\n]{0,20}(?:respaldo|recupera))[^\n]{0,80}\n(?:[ \t]*\n)?"
        r"((?:[ \t]*(?:\d{8}|\d{4} \d{4}|[a-z0-9]{4,5}-[a-z0-9]{4,5})[ \t]*(?:\n|$)){4,20})",
        not_after="",
    ),
    # A single backup or recovery code: "recovery code (…): HZLWL-Z684M-…", "backup code …: 612z-5kmz"
    rule(
        "recovery_code",
        "",
        r"(?i)(?:backup|recovery)[ \t]+code[^\n:]{0,60}[:\uff1a][ \t]*"
        r"([a-z0-9]{4,5}(?:-[a-z0-9]{4,5}){1,5})(?![\w-])",
        not_after="",
        check=lambda value: has_digit(value),
    ),
    # troff: "with password" then `.I value` on the next line
    rule(
        "generic_password",
        "",
        r"(?i)password[ \t]*\n\.[ib][ \t]+(\S{4,100})",
        not_after="",
        check=told_in_a_sentence,
    ),
    # An API key or token told in other languages: "mi clave de API: …", "вот мой токен: …",
    # "API 密钥" and a full-width colon (English is the keyed scan's): a machine-made value after
    # the word and a colon
    *(
        rule(
            "generic_api_key",
            "",
            "(?i)"
            + led(word, r"[^\W\d_]")
            + rest
            + r"[ \t]*[:\uff1a][ \t]*([A-Za-z0-9+/=_.-]{16,200}?)(?=[.,;!?。\uff0c]*(?:[^\w+/=.-]|$))",
            not_after="",
            check=lambda value: keyed_value_is_secret("api_key", "=", value, ""),
        )
        for word, rest in (
            ("clave", r"(?:\sde)?\sapi"),
            ("llave", r"(?:\sde)?\sapi"),
            ("chave", r"(?:\sd[ae])?\sapi"),
            ("clé", r"(?:\sd'|\s)api"),
            ("chiave", r"(?:\sdell')?\sapi"),
            ("api-schlüssel", ""),
            ("токен", ""),
            ("ключ", ""),
            ("密钥", ""),
            ("令牌", ""),
            ("秘钥", ""),
            ("キー", ""),
            ("トークン", ""),
            ("토큰", ""),
            ("키", ""),
        )
    ),
    # A key handed over in a chat with an agent: "here's my together key, can you …: <key>",
    # "cohere key is <key> -- add it to my shell profile"; a lookup's key is no secret ("cache key is")
    rule(
        "generic_api_key",
        "key token",
        # (led by the word, what comes before it looked for behind it: a scan for `my` or a line's
        # start would read every character)
        r"(?i)(?:key|token)\b(?![ \t]*ids?\b|[ \t]+(?:type|name|usage|length|size|algorithm|format|version)"
        r"\b)"
        r"(?:(?!\bids?\b)[^\n:]){0,60}?(?::|[ \t]is)[ \t]+([A-Za-z0-9_.+/=-]{16,200}?)"
        r"(?=[.,;!?)]*(?:\s|$))",
        near=r"(?:\bmy[ \t]+|(?:^|\n|[>.!?][ \t])[ \t]*)"
        r"(?!(?:cache|primary|foreign|sort|partition|idempotency|public|ssh|gpg|pgp|host|integration|the|this|that|a|an"
        r"|sync|next|page|self-signing|user-signing|signing|sender|identity|device)\b)"
        r"[\w.-]+(?:[ \t]+api)?[ \t]+",
        not_after="",
        check=lambda value: machine_made(value, '"'),
    ),
    # A machine-made secret told in a sentence, in any language, with words between its name and
    # the colon or copula: "Client secret aplikacji Allegro do synchronizacji ofert: …", "AppSecret
    # 是 …", "Channel secret ของ LINE OA ร้านค้า: …", "Server key Midtrans sandbox buat testing: …",
    # "REST API 키 공유드립니다: …". The value is random, holds letters and digits, 16 or more.
    *(
        rule(
            "generic_api_key",
            "",
            "(?i)"
            + word
            + between
            + r"[ \t]*([A-Za-z0-9+/=_.-]{16,200}?)"
            + r"(?=[.,;!?)"
            + WIDE_PUNCTUATION
            + r"]*(?:[^\w+/=.-]|[^\x00-\u024f]|$))",
            near=before,
            not_after="",
            check=machine_made,
        )
        for words, between in (
            # English names: words, then a colon; or CJK's colon or copula at once. "your API key is
            # …" and `clientSecret: …` are the keyed scan's judgement (a Trello API key is public);
            # not an ARN's `:secret:` or Pulumi's `fn::secret:`.
            (
                ENGLISH_SECRET_WORDS,
                PROSE_WORDS.replace("{0,8}", "{1,8}") + r"[ \t]*(?:[:\uff1a]|[ \t]—|" + CJK_IS + ")",
            ),
            (ENGLISH_SECRET_WORDS, r"[ \t]*(?:\uff1a|" + CJK_IS + ")"),
            (
                tuple(
                    (w, None)
                    for w in (
                        "токен",
                        "ключ",
                        "密钥",
                        "秘钥",
                        "令牌",
                        "キー",
                        "トークン",
                        "토큰",
                        "키",
                        "시크릿",
                    )
                ),
                PROSE_WORDS
                + r"[ \t]*(?:[:\uff1a]|[ \t]—|"
                + CJK_IS
                + r"|[ \t]+"
                + PROSE_COPULA
                + r"(?=[ \t]))",
            ),
        )
        for word, before in words
    ),
    # OpenVPN's static keys (tls-auth, tls-crypt, secret): 2048 bits of hex between its own markers
    rule(
        "private_key",
        "openvpn static key",
        r"-----BEGIN OpenVPN Static key V1-----\s*([0-9a-f\s]{64,}?)\s*-----END OpenVPN Static key V1-----",
        not_after="",
    ),
    # strongSwan/Libreswan ipsec.secrets: `[ids] : PSK "secret"` (also XAUTH, EAP)
    rule(
        "generic_password",
        "psk xauth eap",
        r"(?i):[ \t]*(?:PSK|XAUTH|EAP)[ \t]+"
        r"(?:\"([^\"\n]{3,200})\"|'([^'\n]{3,200})'|(0[xs][\w+/=]+))",
        not_after="",
        unless=r"#",  # a comment
    ),
    # net-snmp's snmpd.conf: rocommunity/rwcommunity STRING [SOURCE]; `public`/`private` are the
    # well-known defaults, not secrets
    rule(
        "generic_password",
        "community",
        r"r[ow]community6?[ \t]+(?!(?:public|private)\b)([^\s#]{4,200})",
        near=LINE_START,
        not_after="",
    ),
    # Network devices' configurations (Cisco IOS, NX-OS, ASA; Juniper; VyOS/EdgeOS; FortiOS). A
    # type 0 value is clear text, a type 7 one only disguised (Cisco's "Type 7" is reversible, and
    # `service password-encryption` writes it); types 5, 8, 9 are hashes and stay.
    # `enable password 0 …`, `username u privilege 15 secret 0 …`; `password 7 0822…` (a line's)
    rule(
        "generic_password",
        "password secret key",
        r"(?i)(?:password|secret|key|key-string|md5)[ \t]+"
        r"(?:0[ \t]+([^\s\"]{3,200})|7[ \t]+((?:0[0-9]|1[0-5])(?:[0-9A-F]{2}){2,100}))(?=[ \t]|\r?\n|$)",
        not_after=r"\w-",  # a word of its own (a leading `\b` would cost the engine its fast scan)
        check=lambda value: not value.isdigit(),
    ),
    # ... the shared keys of AAA servers, routing protocols and IKE, given without a type:
    # `tacacs-server host H key K`, `radius server X` / `aaa-server …` blocks' ` key K`, OSPF's
    # `message-digest-key 1 md5 K`, `authentication-key K`, key chains' `key-string K`, HSRP's
    # `authentication md5 key-string K`, NTP's `ntp authentication-key 1 md5 K`, BGP's
    # `neighbor A password K`, `crypto isakmp key K address A`, ASA's `pre-shared-key K`, VyOS's
    # `pre-shared-secret K`, Juniper's `plain-text-password-value "K"`
    rule(
        "generic_password",
        "key password pre-shared plain-text",
        r"(?i)(?:(?:tacacs|radius)-server[ \t]+(?:host[ \t]+\S+(?:[ \t]+[a-z-]+[ \t]+\d+)*[ \t]+)?key"
        r"|message-digest-key[ \t]+\d+[ \t]+md5|authentication-key(?:[ \t]+\d+[ \t]+md5)?"
        r"|key-string|authentication[ \t]+(?:md5[ \t]+key-string|text)"
        r"|neighbor[ \t]+\S+[ \t]+password|isakmp[ \t]+key|pre-shared-key|pre-shared-secret"
        r"|plain-text-password-value|psksecret)"
        r"[ \t]+(?!(?:[05-9]|ENC|ascii-text|hexadecimal|hex|keyring)[ \t])"
        # (not `<hidden by exporter>`, a manual's `(ascii-text | …)`)
        r"\"?([^\s\"<(][^\s\"]{3,199})\"?(?=[ \t]|\r?\n|$)",
        not_after="",
        check=shared_key,
    ),
    # ... and `key K` alone on its line inside a `tacacs server`, `radius server` or `aaa-server` block
    rule(
        "generic_password",
        "tacacs radius aaa-server",
        r"(?i)(?:(?:tacacs|radius)[ -]server\b[^\n]*|aaa-server\b[^\n]*\bhost\b[^\n]*)\n"
        r"(?:[ \t]+[^\n]*\n){0,8}?"
        r"[ \t]+key[ \t]+(?:[07][ \t]+)?\"?([^\s\"]{4,200})\"?[ \t]*(?=\r?\n|$)",
        not_after="",
        check=shared_key,
    ),
    # SNMP communities: Cisco's `snmp-server community C RO|RW|view|group …`, Juniper's
    # `community C {`; `public`/`private` are the defaults everyone knows
    rule(
        "generic_password",
        "community",
        r"(?i)community[ \t]+(?!(?:public|private)\b)\"?([^\s\"{]{4,200})\"?"
        r"(?=[ \t]+(?:ro|rw|view|group|\d+|\{)\b|[ \t]*\{|[ \t]*(?:\r?\n|$))",
        near=r"(?:snmp-server[ \t]+|" + LINE_START + ")",
        not_after="",
        check=lambda value: not value.lower().startswith(("$9$", "ro", "rw")) or len(value) > 8,
    ),
    # FortiOS's CLI: `set passwd …`, `set password …` (not `ENC …`, its own encryption)
    rule(
        "generic_password",
        "set",
        r"(?i)set[ \t]+(?:passwd|password|psksecret|secret|key)[ \t]+(?!ENC[ \t])"
        r"\"?([^\s\"]{3,200})\"?[ \t]*(?=\r?\n|$)",
        near=r"(?:^|\n|#[ \t])[ \t]*",
        not_after="",
        check=directive_password,
    ),
    # OpenWrt's UCI: `option key '…'` (a Wi-Fi interface's PSK; `1`-`4` pick a WEP key instead),
    # `option password`/`sae_password`/`auth_secret`, and `uci set wireless.….key='…'`
    rule(
        "generic_password",
        "option uci",
        r"(?:option[ \t]+|uci[ \t]+set[ \t]+[\w.@\[\]-]+\.)"
        r"(?:key|password|sae_password|auth_secret|acct_secret)"
        r"(?:[ \t]+|=)'([^'\n]{5,200})'",
        not_after="",
        check=literal_password,
    ),
    # hostapd's EAP user file: `"user" METHOD[,METHOD] "password" [2]`
    rule(
        "generic_password",
        "mschapv2 ttls md5 gtc",
        r"(?:PEAP|TTLS|MSCHAPV2|TTLS-[\w-]+|MD5|GTC|PWD)(?:,[\w-]+)*[ \t]+\"([^\"\n]{3,200})\"",
        near=r'(?:^|\n|[:\[,][ \t]*\\?")[ \t]*"[^"\n]+"[ \t]+',  # the user, quoted, starts the line
        not_after="",
        check=literal_password,
    ),
    # pppd's chap-secrets and pap-secrets: `client server secret [addresses]`, the secret quoted, in
    # the lines after the file's name or its own header ("Secrets for authentication using CHAP")
    rule(
        "generic_password",
        "chap-secrets pap-secrets chap pap",
        r"(?i)(?:(?:chap|pap)-secrets|authentication[ \t]+using[ \t]+(?:chap|pap))[^\n]*\n"
        r"(?:[^\n]*\n){0,20}?"
        r"[ \t]*\"?[\w.@\\-]+\"?[ \t]+\"?[\w.*-]+\"?[ \t]+\"([^\"\n]{3,200})\""
        r"(?:[ \t]+[\w.*/-]+)*[ \t]*(?=\r?\n|$)",
        not_after="",
        check=literal_password,
    ),
    # OpenVPN's `auth-user-pass` file shown: its user name, then its password, on two lines
    rule(
        "generic_password",
        "openvpn",
        led("cat", r"\w")
        + r"[ \t]+[^\n|>]*openvpn[^\n|>]*\r?\n[^\s$#][^\s]{0,100}\r?\n([^\s]{3,200})(?=\r?\n|$)",
        not_after="",
        check=literal_password,
    ),
    # An Ethereum account's private key, 0x and 32 bytes in hex, given to Hardhat's network
    # (`accounts: ['0x…']`) or to a wallet (`new ethers.Wallet('0x…')`, web3's `privateKeyToAccount`)
    rule(
        "private_key",
        "accounts wallet privatekeytoaccount",
        r"(?i)(?:accounts[\"']?[ \t]*[:=][ \t]*\[[ \t\r\n]*|wallet\(|privatekeytoaccount\()"
        r"[ \t]*[\"'](0x[0-9a-f]{64})[\"']",
        not_after="",
    ),
    # A JSON Web Key's private part: `"d"` of an EC, RSA or OKP key (RFC 7517, RFC 7518 §6.2.2.1)
    rule(
        "private_key",
        '"kty"',
        r"\"kty\"[ \t]*:[ \t]*\"(?:EC|RSA|OKP)\"[^{}]*?\"d\"[ \t]*:[ \t]*\"([A-Za-z0-9_-]{32,})\"",
        not_after="",
    ),
    # Zigbee2MQTT's network key: 16 bytes as a YAML list (zigbee2mqtt.io, "Adapter settings")
    rule(
        "generic_api_key",
        "network_key",
        r"network_key:[ \t]*(\[[ \t]*\d{1,3}(?:[ \t]*,[ \t]*\d{1,3}){15}[ \t]*\])",
        not_after="",
        trusted=lambda key: len(set(re.findall(r"\d+", key))) > 4,  # not the documented 1, 3, 5, 7, …
        check=lambda key: False,
    ),
    # Tasmota's console: `Password1 …` (Wi-Fi), `MqttPassword …`, `WebPassword …`, alone or in a `Backlog`
    rule(
        "generic_password",
        "password1 password2 mqttpassword webpassword",
        r"(?i)(?:^|\n|;|backlog|cmd:)[ \t]*(?:password[12]|mqttpassword|webpassword)[ \t]+([^;\s]{3,200})",
        not_after="",
        check=literal_password,
    ),
    # An expect script answering a password prompt: `expect "Password:"` then `send "…\r"`
    rule(
        "generic_password",
        "expect",
        r"(?i)expect[ \t]+(?:-\w+[ \t]+)*\"[^\"\n]*(?:assword|passphrase)[^\"\n]*\"[^\n]*\r?\n"
        r"[ \t]*send[ \t]+(?:--[ \t]+)?"
        r"\"([^\"\n]+?)(?:\\[rn])*\"",
        not_after="",
        check=literal_password,
    ),
    # Oracle's `user/password@db` given to SQL*Plus's `CONNECT` (docs.oracle.com, SQL*Plus "CONNECT";
    # on the command line, the rule for sqlplus above)
    rule(
        "generic_password",
        "connect conn",
        r"(?i)conn(?<!\wconn)(?:ect)?[ \t]+[\w.$#]+/([^\s@/\"']{3,200})@",
        not_after="",
        check=literal_password,
    ),
    # PgBouncer's auth_file: `"user" "password"` a line (md5 or SCRAM verifiers are hashes, not this)
    rule(
        "generic_password",
        "userlist",
        BOL + r"[ \t]*\"[^\"\n]+\"[ \t]+\"(?!md5[0-9a-f]{32}\"|SCRAM-SHA-256\$)([^\"\n]{3,200})\"[ \t]*$",
        not_after="",
        check=literal_password,
    ),
    # Confluent's Schema Registry client: `basic.auth.user.info=KEY:SECRET`; ProxySQL's
    # `admin_credentials="admin:…"`: a user and its password in one value
    rule(
        "generic_password",
        "user.info credentials",
        r"(?i)(?:basic\.auth\.user\.info|_credentials)[ \t]*[=:][ \t]*[\"']?[\w.@-]+:([^\s\"';]{3,200})",
        not_after="",
        check=literal_password,
    ),
    # WordPress's keys and salts: `define( 'AUTH_KEY', '…' )`, 64 printable characters of any kind
    # (api.wordpress.org/secret-key/1.1/salt/), which no template test may judge
    rule(
        "generic_password",
        "define",
        r"define\([ \t]*'(?:AUTH|SECURE_AUTH|LOGGED_IN|NONCE)_(?:KEY|SALT)'[ \t]*,[ \t]*"
        r"'((?:[^'\\\n]|\\.){32,})'",
        not_after="",
        trusted=lambda value: not verify.is_stand_in(value) and "unique phrase" not in value,
        check=lambda value: False,
    ),
    # Keycloak's admin CLI asked for a client's secret: `{"type" : "secret", "value" : "…"}`
    rule(
        "generic_password",
        '"secret"',
        r"\"type\"[ \t]*:[ \t]*\"secret\"[ \t]*,\s*\"value\"[ \t]*:[ \t]*\"([^\"\n]{8,200})\"",
        not_after="",
        check=literal_password,
    ),
    # Exim's database servers, `hide mysql_servers = host/database/user/password`
    rule(
        "generic_password",
        "mysql_servers pgsql_servers",
        r"(?:mysql|pgsql)_servers[ \t]*=[ \t]*[^/\s]+/[^/\s]+/[^/\s]+/([^\s:;]{3,200})",
        not_after="",
        check=literal_password,
    ),
    # Exim's passwd.client: `host:user:password` a line, in the lines after the file's name
    rule(
        "generic_password",
        "passwd.client",
        r"passwd\.client[^\n]*\n(?:[^\n]*\n){0,20}?[ \t]*(?!#)[\w*.-]+:[^:\s]+:(\S{3,200})[ \t]*(?=\r?\n|$)",
        not_after="",
        check=literal_password,
    ),
    # Synapse's signing key file: `ed25519 a_XXXX <base64 of 32 bytes>` (its public half is served
    # under `verify_keys` as JSON)
    rule(
        "private_key",
        "ed25519",
        r"(?m)^[ \t]*ed25519[ \t]+[\w]{1,20}[ \t]+([A-Za-z0-9+/]{43}=?)[ \t]*$",
        not_after="",
    ),
    # Nextcloud's `occ config:system:set mail_smtppassword --value='…'`
    rule(
        "cli_credentials",
        "config:system:set config:app:set",
        r"config:(?:system|app):set[ \t]+[^\n]*?(?:password|passwd|secret|salt)\w*[ \t]+--value[= ]"
        + CLI_VALUE,
        not_after="",
        check=literal_password,
    ),
    # HAProxy userlists: `user NAME insecure-password PASSWORD` (the `password` form holds a hash)
    rule("generic_password", "insecure-password", r"\binsecure-password[ \t]+(\S{3,200})", not_after=""),
    # macOS's `security` command given a keychain's or a certificate's password: `unlock-keychain -p`,
    # `create-keychain -p`, `import … -P` (a .p12's), `set-key-partition-list … -k` (man security)
    rule(
        "cli_credentials",
        "security",
        r"security[ \t]+(?:(?:unlock|create)-keychain\b[^\n]*?[ \t]-p|import\b[^\n]*?[ \t]-P"
        r"|set-key-partition-list\b[^\n]*?[ \t]-k)[ \t]+" + CLI_VALUE,
        not_after="",
        check=literal_password,
    ),
    # A property list's `<key>…Secret…</key>` then its `<string>…</string>` (Info.plist, a
    # .xcconfig's plist twin): a keyed value; a password judged as one (a profile's `IncomingPassword`)
    rule(
        "generic_password",
        "<key>",
        r"(?i)<key>[\w.-]{0,60}?(?:password|passwd|pwd)</key>\s*<string>([^<\n]{3,300})</string>",
        not_after="",
        check=literal_password,
    ),
    rule(
        "generic_api_key",
        "<key>",
        r"(?i)<key>[\w.-]{0,60}?" + SECRET_NAME_END + r"</key>\s*<string>([^<\n]{4,300})</string>",
        not_after="",
        check=lambda value: keyed_value_is_secret("secret", "=", value, '"'),
    ),
    # A Java-style property whose name and value a space separates (Spark's spark-defaults.conf,
    # `spark.hadoop.fs.s3a.secret.key  …`): a dotted name ending in a secret's word
    *(
        rule(
            "generic_password",
            "",
            "(?i)" + word + r"(?<=\." + word + r")[ \t]+([^\s#;=:\"'$][^\s#;]{3,200}?)" + LINE_END,
            near=LINE_START + r"(?:[\w-]+\.)+",
            not_after="",
            check=spaced_password,
        )
        for word in (r"secret\.key", "secret", "password", "token")
    ),
    # A line that is a password's name and its value: msmtp's `password …`, Dovecot's and others'
    # `key value` files, Fluent Bit's `HTTP_Passwd …`, spark-defaults.conf's `….keyStorePassword …`;
    # Redis's `requirepass …` and `masterauth …` (redis.conf), keepalived's
    # `auth_pass …`, nslcd's `bindpw …`, Apache's `AuthLDAPBindPassword …`, mod_auth_openidc's
    # `OIDCClientSecret …` and `OIDCCryptoPassphrase …`, directives that only
    # ever hold a password, whose value is a literal whatever its shape (`auth_pass xyVhisj2`)
    *(
        rule(
            "generic_password",
            "",
            # (a `#` inside the value is its own: only after a space does a comment start)
            rf"(?i)(?:{names})[ \t]+"
            r"(?:\"([^\"\n]{3,200})\"|([^\s#;=:\"'][^\s;]{3,200}?))"
            r"(?:[ \t]+[#;][^\n]*)?" + LINE_END,
            near=LINE_START + name_before,
            not_after="",
            check=check,
        )
        for names, name_before, check in (
            ("password|passwd", r"[\w.-]*", spaced_password),  # the rest of the name before the word
            ("pass", "", spaced_password),  # fetchmail's `pass "…"`, mbsync's `Pass …`
            ("api_?key", r"[\w.-]*", lambda value: machine_made(value)),  # Fluent Bit's `apikey  …`
            # Fluent Bit's `Splunk_Token  …`, `HTTP_Token …`
            (
                "token",
                r"[\w.-]*_",
                lambda value: machine_made(value) or re.fullmatch(UUID, value, re.I) is not None,
            ),
            (
                "requirepass|masterauth|auth_pass|bindpw|authldapbindpassword|oidcclientsecret|oidccryptopassphrase",
                "",
                directive_password,
            ),
        )
    ),
    # A password typed at a login's user-name prompt, logged as the user: sshd's `Invalid user …
    # from`, PAM's `ruser=…`. A name has no sign other than `.`, `_`, `-` beside letters and digits.
    rule(
        "generic_password",
        "invalid illegal ruser=",
        r"(?i)(?:(?:invalid|illegal)[ \t]+user[ \t]+(\S{6,64})[ \t]+from[ \t]|ruser=(\S{6,64})[ \t])",
        not_after=r"\w",
        check=lambda value: (
            re.search(r"[^\w.@-]", value) is not None
            and has_digit(value)
            and re.search(r"[A-Za-z]", value) is not None
        ),
    ),
    # A password in triple quotes, as grafana.ini wants one holding `#` or `;`
    # (grafana.com/docs/grafana/latest/setup-grafana/configure-grafana/#variable-expansion)
    rule(
        "generic_password",
        '"""',
        r"\"\"\"([^\"\n]{3,200})\"\"\"",  # led by its quotes, the name looked for behind them
        near=r"(?:passw(?:or)?d|passwd|secret|token|api_?key)[\w.-]*[ \t]*[=:][ \t]*",
        not_after="",
        check=literal_password,
    ),
    # Nagios's resource.cfg: `$USER3$=…` macros hold what checks must not show, passwords above all
    # (nagios.org, "Standard Macros": "$USERn$ … commonly used to store … passwords"); not
    # `$USER1$=/usr/lib/nagios/plugins`, a path, nor a user's name
    rule(
        "generic_password",
        "$user",
        BOL + r"[ \t]*\$USER\d{1,3}\$[ \t]*=[ \t]*(\S{4,200})[ \t]*$",
        not_after="",
        check=lambda value: not re.fullmatch(r"[a-z][a-z_.-]*\d*", value) and literal_password(value),
    ),
    # A server's directive that sets a named variable: Apache's `SetEnv DB_PASS …`, nginx's
    # `fastcgi_param DB_PASSWORD …;`
    rule(
        "generic_password",
        "setenv fastcgi_param uwsgi_param",
        r"(?i)\b(?:setenv|fastcgi_param|uwsgi_param)[ \t]+"
        r"[\w.-]*(?:pass(?:w(?:or)?d)?|pwd|secret|token|api_?key)[\w.-]*"
        r"[ \t]+[\"']?([^\s\"';]{4,200})[\"']?[ \t]*;?[ \t]*$",
        not_after="",
        check=literal_password,
    ),
    # HAProxy's statistics page login: `stats auth admin:…` (HAProxy configuration manual)
    rule(
        "generic_password",
        "stats auth",
        r"\bstats[ \t]+auth[ \t]+[^\s:]+:(\S{3,200})",
        not_after="",
        check=literal_password,
    ),
    # Postfix's sasl_passwd map: `[smtp.host]:587 user:password` (postfix.org/SASL_README.html)
    rule(
        "generic_password",
        "",
        # (Gmail's app passwords are four groups of four letters; `echo '…' > sasl_passwd` quotes it)
        r"\](?::\d{1,5})?[ \t]+[^\s:]+:([a-z]{4}(?: [a-z]{4}){3}|[^\s'\"]{4,200})"
        r"['\"]?(?:[ \t]*>[^\n]*)?" + LINE_END,
        # the line starts with the host in brackets
        near=r'(?:^|\n|[:\[,][ \t]*\\?"|echo[ \t]+[\'"])\[[\w.-]+',
        not_after="",
        check=literal_password,
    ),
    # Consul: ACL tokens in the agent's `tokens { … }` block are UUIDs; the gossip `encrypt` key is 16
    # or 32 bytes of base64 (developer.hashicorp.com/consul/docs/agent/config/config-files)
    rule(
        "hashicorp_token",
        "tokens",
        led("tokens", r"\w")
        + r"\s*\{[^}]{0,400}?\b(?:agent|default|initial_management|agent_recovery|replication|master"
        r"|agent_master|config_file_service_registration)\s*=\s*\"(" + UUID + r")\"",
        not_after="",
    ),
    rule(
        "hashicorp_token",
        "encrypt",
        r"encrypt[ \t]*=[ \t]*\"([A-Za-z0-9+/]{22}==|[A-Za-z0-9+/]{43}=)\"",
        near=r"(?:^|\n)[ \t]*",  # the line starts with it
        not_after="",
        check=lambda key: verify.random_enough(key.rstrip("="), 4.0),
    ),
    # Caddy's DNS challenge: `acme_dns cloudflare <token>`, `dns cloudflare <token>` (caddyserver.com
    # /docs/caddyfile/directives/tls; the DNS provider modules take their API token there)
    rule(
        "generic_api_key",
        "dns",
        r"(?m)dns[ \t]+[a-z0-9_]+[ \t]+([A-Za-z0-9_-]{20,200})[ \t]*$",
        near=r"(?:^|\n)[ \t]*(?:acme_)?",  # the directive starts its line
        not_after="",
        check=verify.random_enough,
    ),
    # `key value` configuration (mosquitto's remote_password, sssd's ldap_default_authtok, fluentd's
    # hec_token) and a table of names and values (`vault kv get`'s `api_key    …`): a snake_case name
    # ending in a secret word, spaces, one value, the line's end
    *(
        rule(
            kind,
            "",
            rf"(?m)_{word}[ \t]+({value})[ \t]*$",
            not_after="",
            near=r"(?:^|\n)[ \t]*[a-z][a-z0-9]*(?:_[a-z0-9]+)*",  # the name starts its line
            unless=unless,
            check=check,
        )
        for word, kind, value, unless, check in (
            # judged as a password that may also be a token (a UUID under `hec_token` is one)
            *(
                (
                    word,
                    "generic_password",
                    r"[^\s#;=:\"'][^\s#;]{3,200}",
                    None,
                    lambda value: keyed_value_is_secret("secret_password", "=", value, ""),
                )
                for word in ("password", "passwd", "secret", "token", "authtok")
            ),
            # `key` alone: a random value, and not a lookup's or a public key's name
            (
                "key",
                "generic_api_key",
                r"[A-Za-z0-9+/=_.-]{16,200}",
                r"(?:public|pub|primary|foreign|sort|partition|cache|lookup|host|ssh|gpg|signing|index)\Z",
                lambda value: keyed_value_is_secret("api_key", "=", value, ""),
            ),
        )
    ),
    # Android's string resources: <string name="…_secret">…</string> (res/values/strings.xml)
    rule(
        "generic_api_key",
        "<string",
        r"(?i)<string\s+name=\"[\w.]*(?:secret|password|passwd|token|api_?key)\"[^>\n]*>([^<\n]{6,300})</string>",
        not_after="",
        check=lambda value: keyed_value_is_secret("secret", "=", value, '"'),
    ),
    # A pair [name, value]: Rails' logged binds `[["password", "…"]]`, a tuple `("password", "…")`
    rule(
        "generic_password",
        "pass pwd",
        r"(?i)p(?:assword|asswd|wd)[\"'][ \t]*,[ \t]*[\"']([^\"'\n]{4,200})[\"'][ \t]*[\])]",
        not_after="",
        near=r"[\[(][ \t]*[\"'][\w.-]*",  # the pair's opening, before the name
        check=literal_password,
    ),
    # PHP's serialize(): `s:8:"password";s:19:"…";` (a WordPress option, a session)
    rule(
        "generic_password",
        "s:",
        r"\";s:\d+:\"([^\"\n]{4,300})\";",
        near=r"s:\d+:\"[\w-]*(?:password|passwd|pwd|secret|token|api_?key)",  # the key's name, before
        not_after="",
        check=literal_password,
    ),
    # Redis' AUTH command as MONITOR shows it and a client sends it: `"AUTH" ["user"] "…"`
    rule(
        "generic_password",
        "auth",
        r"(?i)\"auth\"[ \t]+(?:\"[^\"\n]{1,64}\"[ \t]+)?\"([^\"\n]{3,200})\"",
        not_after="",
        check=literal_password,
    ),
    # Apple property lists: <key>…Secret</key> then <string>…</string>
    rule(
        "generic_api_key",
        "</key>",
        r"(?i)<key>[^<\n]*(?:secret|password|passwd|token|api_?key)</key>\s*<string>([^<\n]{4,300})</string>",
        not_after="",
        check=lambda value: keyed_value_is_secret("secret", "=", value, '"'),
    ),
    # CloudFormation parameters: a password-named parameter's `Default:` (like Terraform's above);
    # one rule per word, each led by it
    *(
        rule(
            "generic_password",
            "",
            rf"(?m){word}\w*:[ \t]*\n(?:[ \t]+[^\n]*\n){{0,6}}?"
            r"[ \t]+Default:[ \t]*[\"']?(?P<secret>[^\s\"'#][^\n#\"']{2,200}?)[\"']?[ \t]*$",
            not_after="",
            check=literal_password,
        )
        for word in ("Password", "Secret", "Token", "Passwd")
    ),
    # Gradle credentials { username '…' password '…' } (np: gradle.1)
    rule(
        "generic_password",
        "credentials",
        r"(?i)credentials\s*\{(?:\s*//.*)*\s*(?:username|password)\s+\\?['\"][^'\"\\]{1,60}\\?['\"]"
        r"(?:\s*//.*)*\s*(?:username|password)\s+\\?['\"]([^'\"\\]{1,60})\\?['\"]",
        not_after="",
    ),
    # kubeconfig client keys are base64 PEM; the PEM rule decodes them, this names them
    rule(
        "private_key",
        "client-key-data",
        r"client-key-data:\s*([A-Za-z0-9+/=]{40,})",
        not_after="",
    ),
    # Unity's license serials: two characters then five groups of four (`E3-XXXX-XXXX-XXXX-XXXX-XXXX`,
    # docs.unity3d.com, "Command line arguments": `-serial`)
    rule(
        "generic_api_key",
        "unity serial",
        r"[A-Z][A-Z0-9]-(?:[A-Z0-9]{4}-){4}[A-Z0-9]{4}(?![\w-])",
        not_after=r"\w-",
        check=has_digit,
    ),
    # Apple's app-specific passwords: four groups of four lowercase letters (support.apple.com/102654)
    rule(
        "generic_password",
        "app-specific app_specific application_specific altool notarytool fastlane appleid icloud",
        r"-[a-z]{4}-[a-z]{4}-[a-z]{4}(?![\w-])",  # (led by a literal, the first group grown onto it)
        grow=r"[a-z]{4}",
        not_after=r"\w-",
        # (beside Apple's names or a password's, not a package's name: `pulp-wasm-simd-flag`)
        near=r"(?:app-specific|app_specific|apple|icloud|altool|notarytool|fastlane|pass|pw|-p)[^\n]{0,56}",
        check=lambda value: verify.few_vowels(value.replace("-", "")),
    ),
    # Google OAuth refresh tokens, `1//0…` (`firebase login:ci` prints one for CI; gl: gcp refresh token)
    rule("google_oauth_access_token", "1//0", r"1//0[A-Za-z0-9_-]{40,}" + EW, not_after=r"\w/"),
    # SteamCMD logs in with `+login user password` (developer.valvesoftware.com, "SteamCMD")
    *commands("steamcmd", r"\+login[ \t]+(?!anonymous\b)\S+[ \t]+"),
    # Agora's App Certificate signs its tokens: a secret despite its name (docs.agora.io, tokens)
    keyed("generic_api_key", r"app_?certificate", r"[0-9a-f]{32}", "certificate"),
    # WildFly's Elytron: a credential store's `secret-value` and a `credential-reference`'s `clear-text`
    rule(
        "generic_password",
        "clear-text secret-value",
        r"(?:clear-text|secret-value)\s*=\s*\"([^\"\n]{3,200})\"",
        not_after=r"\w-",
        check=literal_password,
    ),
    # JNDI's LDAP bind password: `env.put(Context.SECURITY_CREDENTIALS, "…")`, or its property name
    rule(
        "generic_password",
        "security_credentials java.naming.security.credentials",
        r"(?:SECURITY_CREDENTIALS\s*,\s*\"([^\"\n]{3,200})\"|java\.naming\.security\.credentials\s*[=:]\s*(\S{3,200}))",
        not_after="",
        check=literal_password,
    ),
    # sc.exe's `password= …` (a space after the `=`, as sc wants: learn.microsoft.com, "sc.exe create")
    rule(
        "cli_credentials",
        "obj=",
        r"(?i)\bobj=\s*\S+\s+password=\s+" + CLI_VALUE,
        not_after="",
        check=literal_password,
    ),
    # A literal key given to an HMAC or a JWT signer: Python's `hmac.new(b"…", …)`, `jwt.sign(payload, "…")`
    rule(
        "generic_api_key",
        "hmac.new",
        r"hmac\.new\(\s*b?([\"'])(?P<secret>[^\"'\n]{8,200})\1",
        not_after="",
        check=literal_password,
    ),
    rule(
        "jwt_signing_secret",
        "jwt.sign jwt.encode",
        r"jwt\.(?:sign|encode)\([^,()\n]+(?:\([^()\n]*\))?,\s*([\"'])(?P<secret>[^\"'\n]{8,200})\1",
        not_after="",
        check=literal_password,
    ),
    # Postmark's server and account tokens are UUIDs, handed to its clients
    rule(
        "generic_api_key",
        "serverclient accountclient",
        r"(?:ServerClient|AccountClient|ApiClient|AccountApiClient)(?:\.new)?\(\s*[\"'](" + UUID + r")[\"']",
        not_after="",
    ),
    # PHP's var_dump of a secret-named array key: `["password"]=>\n  string(8) "…"`
    rule(
        "generic_password",
        "]=>",
        r"(?i)\[\"\w*(?:password|passwd|secret|token|api_?key)\w*\"\]=>\s*string\(\d+\) \"([^\"\n]{1,200})\"",
        not_after="",
    ),
    # Rails' secret_key_base (128 hex) after its name in a Ruby hash, on the same line or the next
    rule(
        "generic_api_key",
        "secret_key_base",
        r"(?i)secret_key_base[\"']?\s*(?:=>|:)\s*\\?[\"']?([0-9a-f]{64,})",
        not_after="",
    ),
    # Elasticsearch's first start prints the elastic user's password on the line after its label
    rule(
        "generic_password",
        "password for the elastic user",
        r"(?i)password for the elastic user[^\n]*\n(?:[^\n|]*\|)?[ \t]*(\S{6,100})[ \t]*(?:\n|$)",
        not_after="",
    ),
    # A secret printed by the command that reads it (`kubectl get secret … -o jsonpath="{.data.password}"
    # | base64 -d`): the next line is the value
    rule(
        "generic_password",
        ".data.",
        r"\{\.data\.[\w.-]*(?:password|passwd|token|secret|key)[\w.-]*\}\\?[\"']?\s*\|\s*base64\s+(?:-d|--decode)"
        r"[^\n]*\n" + OUTPUT_LEAD + r"([^\s$#][^\s]{5,200})[ \t]*(?:\n|$)",
        not_after="",
        check=literal_password,
    ),
    # FTP's PASS command after USER, as a packet capture or a client's debug output shows them (RFC 959)
    rule(
        "generic_password",
        "",
        r"USER [^\s]{1,64}\r?\n(?:[^\n]{0,200}\n){0,4}?(?:[^\n]{0,40}[^\w\n])?PASS ([^\s]{3,100})",
        not_after="",
        # a digit or a sign in it, and no word for the idea: not a manual's `PASS fwpass` or `PASS
        # pass@fwpass`, nor "Send the PASS command."
        check=lambda value: (
            literal_password(value)
            and re.search(r"\d|[^\w.,;:!?]", value) is not None
            and not CONCEPT_WORDS.search(value)
        ),
    ),
    # IMAP's LOGIN command, `TAG LOGIN user password` (RFC 3501), as imaplib's debug output shows it
    rule(
        "generic_password",
        " login ",
        r" LOGIN [^\s'\"]+ \"?(?P<secret>[^\s'\"]{3,100})\"?'",
        not_after="",
        check=literal_password,
    ),
    # SMTP's `AUTH PLAIN` carries base64 of `\0user\0password` (RFC 4616), as smtplib's debug shows it
    rule(
        "generic_password",
        "auth plain",
        r"AUTH PLAIN ([A-Za-z0-9+/]{8,}={0,2})",
        not_after="",
        check=lambda blob: (verify.b64decode(blob) or b"").count(b"\0") == 2,
    ),
    # Payment providers' keys by their formats: WooCommerce's consumer secrets (`cs_` + 40 hex),
    # Plaid's access tokens (`access-<environment>-<uuid>`), Paddle's API keys, Checkout.com's
    # secret keys (`sk_` or `sk_sbox_` and 26 to 28), GoCardless' access tokens
    rule("generic_api_key", "cs_", r"cs_[0-9a-f]{40}" + E, check=random_with_digit),
    rule("generic_api_key", "access-", r"access-(?:sandbox|development|production)-" + UUID + E),
    rule("generic_api_key", "pdl_", r"pdl_(?:live|sdbx)_apikey_\w{30,100}" + E),
    rule("generic_api_key", "sk_", r"sk_(?:sbox_)?[a-z0-9]{26,28}" + E, check=random_with_digit),
    rule(
        "generic_api_key",
        "gocardless",
        r"(?i)gocardless[^\n]{0,100}?[=:'\"(\s]((?:live|sandbox)_[a-z0-9_-]{40})(?![\w-])",
        not_after="",
    ),
    # PayPal's classic API signature (56 characters, `A…`), beside its `…_api1.…` user name
    rule(
        "generic_api_key",
        "api1.",
        r"(?i)signature[\"']?\s*(?:=>|[=:])\s*[\"']?(A[A-Za-z0-9.-]{50,60})(?![\w.-])",
        not_after="",
        check=has_digit,
    ),
    # Razorpay's webhook secret, the last argument of its check
    rule(
        "generic_password",
        "validatewebhooksignature",
        r"validateWebhookSignature\((?:[^()]|\([^()]*\)){0,300}?,\s*([\"'])(?P<secret>[^\"'\n]{6,200})\1\s*\)",
        not_after="",
        check=literal_password,
    ),
    # express-basic-auth's `users: { 'name': '…' }`
    rule(
        "generic_password",
        "basicauth",
        r"users\s*:\s*\{\s*[\"'][^\"'\n]{1,64}[\"']\s*:\s*([\"'])(?P<secret>[^\"'\n]{3,200})\1",
        not_after="",
        check=literal_password,
    ),
    # Magento's `bin/magento config:show`: `payment/<module>/<secret field> - value`
    rule(
        "generic_api_key",
        "payment/ config:show klarna/ /api/",
        r"(?m)^(?:[a-z0-9_]+/){2}[a-z0-9_]*(?:secret|password|api_key|token|transaction_key)[a-z0-9_]*"
        r"(?:[ \t]+-)?[ \t]+(\S{8,200})[ \t]*$",
        not_after="",
        check=literal_password,
    ),
    # Authorize.Net's transaction key: 16 letters and digits (developer.authorize.net)
    keyed("generic_api_key", r"transaction[ _]?key", r"[A-Za-z0-9]{16}", "transaction"),
    # CI servers: a Jenkins agent's `-secret` (agent.jar), Bamboo's agent installer's `-t`, Codecov's
    # upload token (`-t`), a TeamCity token (`eyJ0eXAiOiAiVENWMiJ9.…`: `{"typ": "TCV2"}`) and the
    # super user token its log prints
    *commands("agent.jar", r"\s-secret\s+"),
    *commands("codecov", r"\s-t\s+"),
    rule("generic_api_key", "bamboo-agent", r"bamboo-agent[\w.-]*\.jar[^\n]*?\s-t\s+([0-9a-f]{40})" + E),
    rule("generic_api_key", "eyj0exaioiaivenwmij9.", r"eyJ0eXAiOiAiVENWMiJ9\.[\w-]{20,}\.[\w-]{20,}" + EW),
    rule(
        "generic_api_key", "super user authentication token", r"Super user authentication token: (\d{12,30})"
    ),
    # A secret stored by the CLI it is given to: `travis env set NAME value`, `drone secret add …
    # --data '…'`, `woodpecker-cli secret add … --value '…'`, or piped into one (`echo -n '…' |
    # circleci context store-secret`: the `echo … | login` rule above)
    rule(
        "generic_password",
        "env set",
        r"env set [A-Za-z0-9_]*(?:KEY|SECRET|TOKEN|PASSWORD|PASS)[A-Za-z0-9_]* " + CLI_VALUE,
        not_after="",
        check=literal_password,
    ),
    rule(
        "generic_password",
        "secret add",
        r"secret add[ \t][^\n]*?--(?:data|value)[ =]" + CLI_VALUE,
        check=literal_password,
    ),
    # Azure DevOps personal access tokens: 52 of base32's lowercase alphabet, or the newer 84 with
    # `AZDO` at 76 (learn.microsoft.com, "Use personal access tokens")
    rule(
        "generic_api_key",
        "dev.azure.com visualstudio.com devops azure_devops",
        r"(?::|echo[ \t]+)([a-z2-7]{52})(?![A-Za-z0-9])",
        not_after="",
        check=random_with_digit,
        near=r"(?:dev\.azure\.com|visualstudio\.com|az devops|azure_devops)[^\n]*\n?[^\n]*|-u[ \t]+|[^\n]*",
    ),
    rule(
        "generic_api_key", "azdo", r"AZDO[A-Za-z0-9]{4}(?![A-Za-z0-9])", grow=r"[A-Za-z0-9]{76}", not_after=""
    ),
    # Argo CD's first admin password, printed by the command that reads it
    rule(
        "generic_password",
        "initial-password",
        r"argocd admin initial-password[^\n]*\n([^\s$#][^\s]{5,100})[ \t]*(?:\n|$)",
        not_after="",
        check=literal_password,
    ),
    # A setter named for the secret it sets: `->setTransactionKey('…')`, `.setApiKey("…")`
    rule(
        "generic_api_key",
        "key( secret( token( password(",
        # (not a lookup's key: `setCacheKey("user-profile-1234")`)
        r"set(?!\w*?(?:[Cc]ache|[Ss]ort|[Pp]artition|[Ii]dempoten|[Hh]ash|[Ll]ookup|[Pp]rimary|[Ff]oreign|[Rr]ow|[Mm]ap))"
        r"\w*(?:[Kk]ey|[Ss]ecret|[Tt]oken|[Pp]assword)\(\s*([\"'])(?P<secret>[^\"'\n]{8,200})\1\s*\)",
        near=r"(?:\.|->)",
        not_after="",
        check=literal_password,
    ),
    # A user and password pair under `auth` (electrs' `auth = "user:password"`, bitcoind's RPC)
    rule(
        "generic_password",
        "auth",
        r"(?i)auth[\"']?[ \t]*[=:][ \t]*([\"'])[\w.@-]{1,64}:(?P<secret>[^\"'\s:]{3,200})\1",
        not_after=r"\w.-",
        check=literal_password,
    ),
    # A section that holds only passwords (Chainlink's `[Password]` `Keystore = '…'`): its quoted values
    rule(
        "generic_password",
        "[password] [passwords] [credentials] [secrets]",
        r"(?im)^\[(?:passwords?|credentials|secrets)\][ \t]*\r?\n(?:[ \t]*(?:[#;][^\n]*)?\r?\n)*"
        r"[ \t]*[\w.-]+[ \t]*=[ \t]*([\"'])(?P<secret>[^\"'\n]{3,200})\1",
        not_after="",
        check=literal_password,
    ),
    # Notes and chats: `user admin / …`, "router login is admin / …"; `pw …` ("wifi Home5G pw …");
    # "the guest wifi is …"; a labelled line of a note (`Windows login: …`, `Gmail: …`, "memorable
    # word: …"): a password as people type them (letters, a digit and a sign) or three words joined
    rule(
        "generic_password",
        "user login",
        # (led by the slash, the user before it looked for behind it: `(?:user|login)` would lead a
        # scan of every "user" in a transcript)
        r"/[ \t]+([^\s(\[{<]\S{3,63})(?=[\s\"]|\\n|$)",  # (not `(KeePass: "…")`, where it is)
        near=r"\b(?:user(?:name)?|login)(?:[ \t]+is)?[ \t:]+[\w.@+-]{1,64}[ \t]+",
        not_after="",
        check=typed_or_phrase,
    ),
    rule(
        "generic_password",
        "pw",
        r"(?i)pw[ \t]+([^\s$-]\S{5,63})(?=[\s\"]|\\n|$)",
        not_after=r"\w$-",  # (not PowerShell's `$pw -Enabled`)
        check=typed_or_phrase,
    ),
    rule(
        "generic_password",
        "wifi wi-fi wlan",
        r"(?i)(?:wifi|wi-fi|wlan)\b[^\n.!?]{0,40}?[ \t]is[ \t]+(\S{6,64}?)[.!]?(?=[\s\"]|\\n|$)",
        not_after=r"\w",
        check=typed_or_phrase,
    ),
    rule(
        "generic_password",
        "login memorable passcode gmail outlook icloud hotmail",
        r"(?im)^[ \t*-]*(?:[\w!-]+[ \t]+){0,3}?(?:login|memorable word|passcode|gmail|outlook|icloud|hotmail)"
        r"[ \t]*:[ \t]*(\S{6,64})[ \t]*$",
        not_after="",
        check=lambda value: typed_or_phrase(value) and not re.match(r"\d{4}-\d\d-\d\d|v?\d+\.\d+", value),
    ),
    # Windows' `netsh wlan show profile … key=clear`: `Key Content : …`
    rule(
        "generic_password",
        "key content",
        r"Key Content[ \t]*:[ \t]*([^\r\n]{3,64}?)[ \t]*(?:\r?\n|$)",
        not_after="",
    ),
    # Tailscale's keys: `tskey-auth-<id>CNTRL-<secret>` (tailscale.com/kb/1085/auth-keys)
    rule(
        "generic_api_key",
        "tskey-",
        r"tskey-(?:auth|api|client|scim|webhook)-[A-Za-z0-9]{6,}-[A-Za-z0-9]{16,}" + E,
    ),
    # A password manager's export: a field's `"value"` before its `"name"`/`"designation": "password"`
    rule(
        "generic_password",
        "designation",
        r"\{\"value\"\s*:\s*\"((?:[^\"\\\n]|\\.){1,200})\"[^{}\n]{0,100}\"designation\"\s*:\s*\"password\"",
        not_after="",
        check=literal_password,
    ),
    # OpenVPN's `auth-user-pass` file named in a comment, then its two lines: user, password
    rule(
        "generic_password",
        "auth.txt auth-user-pass",
        r"(?:auth(?:-user-pass)?\.txt|auth-user-pass)[^\n]*\n"
        r"[ \t]*[^\s#]{1,64}[ \t]*\n[ \t]*(\S{3,200})[ \t]*(?:\n|$)",
        not_after="",
        check=literal_password,
    ),
    # Research tools: anaconda.org's channel tokens (`conda.anaconda.org/t/<token>/channel`), Orthanc's
    # `"RegisteredUsers": {"user": "…"}`, OMERO's `config set omero.db.pass` and `login -w`,
    # `globusconnectpersonal -setup <key>`, Galaxy's `--galaxy_user_key`
    rule("generic_api_key", "anaconda.org/t/", r"anaconda\.org/t/([\w-]{20,})/", not_after=""),
    rule(
        "generic_password",
        "registeredusers",
        r"\"RegisteredUsers\"\s*:\s*\{\s*\"[^\"\n]{1,64}\"\s*:\s*\"([^\"\n]{3,200})\"",
        not_after="",
        check=literal_password,
    ),
    rule(
        "generic_password",
        "config set",
        r"config set [\w.-]*(?:pass|password|secret|token)[ \t]+" + CLI_VALUE,
        not_after="",
        check=literal_password,
    ),
    *commands("omero", r"\s-w\s+"),
    *commands("globusconnectpersonal", r"\s-setup\s+"),
    rule(
        "generic_api_key",
        "_key",
        r"--\w+_key[= ]['\"]?([A-Za-z0-9_-]{16,200})",
        not_after=r"\w-",
        check=random_with_digit,
    ),
    # IoT: MQTT clients' `-P` (mosquitto_pub/sub), ThingsBoard's device token as the MQTT user,
    # Arduino's `WiFi.begin("ssid", "…")` (in arguments.py), TTN's `NNSXS.` API keys, LoRaWAN root
    # keys given to ttn-lw-cli or written as C bytes, Z-Wave JS UI's network keys
    *commands("mosquitto_pub mosquitto_sub mqttx", r"\s-P\s+"),
    rule(
        "generic_api_key",
        "v1/devices/me",
        r"mosquitto_(?:pub|sub)\b(?=(?:[^\n]|\\\n)*v1/devices/me)(?:[^\n]|\\\n)*?\s-u\s+[\"']?([A-Za-z0-9_-]{16,64})",
        not_after="",
    ),
    rule("generic_api_key", "nnsxs.", r"NNSXS\.[A-Z0-9]{39}\.[A-Z0-9]{52}" + E),
    rule("generic_api_key", "key.key", r"--[\w.-]*key\.key[= ]([0-9A-Fa-f]{32})" + E, not_after=""),
    rule(
        "generic_api_key",
        "",
        r"(?i)(?:appkey|app_key|appskey|apps_key|nwkkey|nwk_key|nwkskey|nwks_key|networkkey|network_key)"
        r"\w*\s*(?:\[\w*\])?\s*=\s*\{\s*"
        r"((?:0x[0-9a-f]{2}\s*,\s*){15}0x[0-9a-f]{2})\s*\}",
        not_after=r"\w",
        check=lambda array: len(set(re.findall(r"0x(..)", array.lower()))) >= 8,  # not `{ 0x00, 0x00, … }`
    ),
    rule(
        "generic_api_key",
        "key_s0_legacy key_s2_",
        r"KEY_S(?:0_Legacy|2_(?:Unauthenticated|Authenticated|AccessControl))=([0-9A-Fa-f]{32})" + E,
    ),
    # Hosting panels: cPanel's and WHM's `Authorization: cpanel user:TOKEN`, Plesk's secret key
    # printed by `plesk bin secret_key -c`, Webmin's `changepass.pl DIR USER PASS`, a Render deploy
    # hook's `?key=`
    rule(
        "generic_api_key",
        "authorization",
        r"(?i)authorization:\s*(?:cpanel|whm)\s+[\w.-]+:([a-z0-9]{32})" + E,
    ),
    rule("generic_api_key", "secret_key -c", r"secret_key -c[^\n]*\n(" + UUID + r")", not_after=""),
    *commands("changepass.pl", r"\s\S+\s+\S+\s+"),
    rule(
        "generic_api_key", "api.render.com/deploy/", r"api\.render\.com/deploy/srv-[a-z0-9]+\?key=([\w-]{8,})"
    ),
]
