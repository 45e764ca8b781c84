"""Literals handed to code rather than assigned: the fallback of a secret read from the
environment (`process.env.JWT_SECRET ?? '…'`), machine-made literals among the arguments of a
call that takes credentials (`cohere.ClientV2("…")`), and a password given after its user to a call
that logs in (`DBI->connect($dsn, "user", "…")`). The keyed scan (keyed.py) judges values by the
name they are assigned to; these have no name of their own beside them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from pica.stages.secrets.keyed import (
    CONCEPT_WORDS,
    IDENTIFIER,
    PATH_LIKE,
    SECRET_NAME,
    UUID,
    keyed_value_is_secret,
    kind_of,
)
from pica.stages.secrets.verify import (
    few_vowels,
    has_digit,
    is_stand_in,
    random_enough,
    random_letters,
    sequential_run,
)

Calls = Callable[[re.Pattern[str]], Iterator[re.Match[str]]]  # a call pattern's matches

# A literal as the fallback of a secret read from the environment: `process.env.JWT_SECRET ?? '…'`,
# `os.getenv("API_KEY") or "…"`: the operator and the literal, then the name before them.
# One pattern per operator, each led by its literal: the engine searches for a leading literal fast.
FALLBACKS = [
    re.compile(operator + r"[ \t]+(?P<q>[\"'])(?P<quoted>(?:[^\"'\n\\]|\\.)+)(?P=q)")
    # (Ruby's `ENV.fetch("X") { "…" }`, Groovy's and Kotlin's Elvis `?:`)
    for operator in (r"\?\?", r"\|\|", r" or", r"\)[ \t]*\{", r"\?:")
]
FALLBACK_NAME = re.compile(r"(?P<name>[\w.$-]*(?i:" + SECRET_NAME + r")s?)[\"']?\]?\)?[ \t]*\Z")


def find_fallback(text: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, class) of each literal given as the fallback of a secret-named value."""
    for match in (match for fallback in FALLBACKS for match in fallback.finditer(text)):
        before = text[max(text.rfind("\n", 0, match.start()) + 1, match.start() - 80) : match.start()]
        named = FALLBACK_NAME.search(before)
        if named is None:
            continue
        # (a string is no variable: a manual's `"password" or "oauth"`; `env["API_KEY"] or` is one)
        string = before[named.start() - 1 : named.start()] in ("'", '"')
        if string and before[named.start() - 2 : named.start() - 1] not in ("[", "("):
            continue
        if keyed_value_is_secret(named["name"], "=", match["quoted"], match["q"]):
            yield match.start("quoted"), match.end("quoted"), kind_of(named["name"])


# A call that takes credentials: a client, session or credentials provider built, an auth method
# (lowercased text; `author(…)` is not one) or `access_token(…)`, then its arguments:
# `cohere.ClientV2("…")`, `pdpyras.APISession('…')`, Go's `NewStaticCredentialsProvider(id, "…",
# "")`, Ruby's `config.omniauth :github, ENV['GITHUB_KEY'], '…'` (arguments without parentheses);
# an SDK's API object (`meraki.DashboardAPI('…')`, `HfApi(token=…)`), Blynk's `Blynk('…')`, Segment's
# `analytics.New("…")`, whose first argument is the key.
CREDENTIAL_CALLS = [
    re.compile(word + r"\w*(?:\(|[ \t]+:\w)")  # each led by its word (see FALLBACKS)
    for word in (
        "client",
        "session",
        "credential",
        "auth(?!or)",
        "access_?token",
        "access_?key",
        "api_?key",
        "api(?!error|exception)",  # (not an error's `ApiError('<request id>', …)`)
        "blynk",
        "wallet",  # ethers' `new Wallet("0x…")`, web3.js' `wallet.add("0x…")`
        "from_?key",  # eth-account's `Account.from_key("0x…")`
        "privatekeytoaccount",  # viem's and web3.js'
    )
] + [
    re.compile(r"analytics\.new\("),
    re.compile(r"jwt\.(?:sign|encode)\("),  # a JWT signed with a literal key: `jwt.sign(payload, '…')`
    re.compile(r"client\.(?:init|new\w*|create\w*|connect)\("),  # `TwilioClient.Init(…)`
    # a signing key: java-jwt's `Algorithm.HMAC256("…")`, `HMACSHA256(…)`
    re.compile(r"hmac(?:sha)?\d*\("),
    re.compile(r"gameanalytics\.initialize\("),  # (game key, secret key)
]
# a literal with a name of its own (`clientId: '…'`, `region="…"`): the keyed scan judges those
NAMED = re.compile(r"[\w$]\\?[\"']?[ \t]*[:=][ \t]*\Z")
ARGUMENT_LITERAL = re.compile(r"(?<![\w\\])\\?([\"'])([A-Za-z0-9+/=_.:~-]{16,200})\\?\1")  # `\"` too


def machine_made(value: str) -> bool:
    """A literal no one typed: letters and digits mixed at random, not a URL, path, date or id,
    nor a name made of words and numbers (`meta-llama/Meta-Llama-3-8B-Instruct`, `host:8786`)."""
    if not (re.search(r"[A-Za-z]", value) and has_digit(value)) or UUID.match(value):
        return False
    if re.fullmatch(r"0x[0-9a-fA-F]{40}", value):
        return False  # an Ethereum address: public
    parts = re.split(r"[^A-Za-z0-9]+", value)
    if all(part.isalpha() or part.isdigit() or len(part) <= 4 for part in parts):
        return False
    if "://" in value or PATH_LIKE.match(value) or re.match(r"\d{4}-\d\d-\d\d", value):
        return False
    if is_stand_in(value) or sequential_run(value) or IDENTIFIER.match(value):
        return False
    return random_enough(value) and random_enough(re.sub(r"[^A-Za-z0-9]", "", value))


def arguments_end(text: str, start: int) -> int:
    """Where the arguments of a call opened just before `start` end: at its closing parenthesis
    (or the line's end, without one), at most 300 characters on."""
    depth, end, limit = 1, start, min(len(text), start + 300)
    bracketed = text[start - 1] == "("
    while end < limit and depth:
        char = text[end]
        if bracketed:
            depth += (char == "(") - (char == ")")
        elif char == "\n":
            break
        end += 1
    return end


def find_given_to_clients(text: str, calls: Calls) -> Iterator[tuple[int, int, str]]:
    """(start, end, class) of each machine-made literal among the arguments of a credential call."""
    for call in (call for pattern in CREDENTIAL_CALLS for call in calls(pattern)):
        for literal in ARGUMENT_LITERAL.finditer(text, call.end(), arguments_end(text, call.end())):
            value = literal[2]
            if (machine_made(value) or random_letters(value)) and not NAMED.search(
                text, max(0, literal.start() - 40), literal.start()
            ):
                yield literal.start(2), literal.end(2), "generic_api_key"


# A call that connects or logs in with a user and then a password, in that order: Perl's
# `DBI->connect($dsn, "user", "…")`, C's `mysql_real_connect(conn, host, "user", "…", …)`,
# Groovy's `Sql.newInstance(url, 'user', '…', driver)`, Ruby's `Net::SMTP.start(host, port, helo,
# "user", "…", :login)`, Rust's `Credentials::new("user".to_owned(), "…".to_owned())`, Java's
# `new PasswordAuthentication("user", "…".toCharArray())`, OkHttp's `Credentials.basic("user", "…")`,
# Python's `auth=("user", "…")`.
LOGIN_CALLS = [
    re.compile(word + r"\(")  # each led by its word (see FALLBACKS)
    for word in (
        r"connect\w*",  # `connect(`, `real_connect(`, `getConnection(` (its `connection(`)
        "newinstance",
        "login",
        "authenticate",
        # C++'s `HTTPBasicCredentials creds("…", "…")`, Vonage's PHP `Credentials\Basic(key, secret)`
        r"credentials?(?:::new|\.basic|\\basic|[ \t]+\w+)?",
        "passwordauthentication",
        "changeuserpassword",  # mongosh's `db.changeUserPassword("user", "…")`
        r"smtp\.start",
        r"basicauth\w*",
        r"auth=",
        r"username_pw_set",  # paho-mqtt's `client.username_pw_set("user", "…")`
        "blitzgateway",  # OMERO's `BlitzGateway('user', '…', host=…)`
        r"wifi\w*\.(?:begin|addap)",  # Arduino's `WiFi.begin("ssid", "…")`, `wifiMulti.addAP(…)`
        r"pdo->__construct",  # a PHP stack trace's `PDO->__construct('mysql:…', 'user', '…')`
        "newdialer",  # gomail's `NewDialer(host, port, "user", "…")`
        r"ftp\.open",  # LuaSocket's
        r"->auth",  # Perl's Net::SMTP `$smtp->auth('user', '…')`
        r"\.bind",  # LDAP's `l.Bind("CN=…,DC=…", "…")`
        r"simple_bind\w*",  # python-ldap's `simple_bind_s(dn, "…")`
        "ldap_bind",  # PHP's `ldap_bind($c, "user", "…")`
        # ArcGIS' `GIS(url, "user", "…")` and `SignInToPortal(url, "user", "…")`, sentinelsat's
        # `SentinelAPI("user", "…", url)`, PocketBase's `authWithPassword("user", "…")`
        "gis",
        "signintoportal",
        "sentinelapi",
        r"auth_?with_?password",
    )
]
# One argument: a quoted literal, perhaps converted (`.to_owned()`, `.toCharArray()`), or anything else
ARGUMENT = re.compile(
    r"\s*(?:(?P<q>[\"'])(?P<literal>(?:[^\"'\n\\]|\\.)*)(?P=q)(?:\.\w+\(\))?\s*(?=[,)]|$)|[^,()]*(?:\([^()]*\)[^,()]*)*)"
)
CALLS = CREDENTIAL_CALLS + LOGIN_CALLS  # each led by literal words
USER = re.compile(r"[\w.@+-]{1,64}")
DISTINGUISHED_NAME = re.compile(r"(?i)(?:cn|uid)=[^,=]+(?:,[a-z]+=[^,=]+)+")  # an LDAP user
LOCATOR = re.compile(r".*(?:://|[:/;=]).*|[\w-]+(?:\.[\w-]+)+|\d+")  # a URL, DSN, path, host or number


def typed_or_random(value: str) -> bool:
    """A password as people choose them (a digit or a sign among letters), or random letters (an
    app password's 16): not a word or a name, which a call's argument list holds for other things."""
    if re.search(r"[^A-Za-z_]", value) is not None or few_vowels(value):
        return True
    # a passphrase: three words or more joined, none of them naming the idea (`walnut_maple_hazel`)
    words = value.split("_")
    return len(words) >= 3 and all(len(word) >= 3 for word in words) and not CONCEPT_WORDS.search(value)


def find_logins(text: str, calls: Calls) -> Iterator[tuple[int, int, str]]:
    """(start, end, class) of each password given after its user to a call that logs in."""
    for call in (call for pattern in LOGIN_CALLS for call in calls(pattern)):
        at, end, user = call.end(), arguments_end(text, call.end()), False
        while at < end:
            argument = ARGUMENT.match(text, at, end)
            if argument is None or argument.end() == at:
                break
            literal = argument["literal"]
            if user and literal is not None:
                if typed_or_random(literal) and keyed_value_is_secret(
                    "password", "=", literal, argument["q"]
                ):
                    yield argument.start("literal"), argument.end("literal"), "generic_password"
                break
            if literal in ("anonymous", "ftp"):
                break  # anonymous FTP's password is an address given as a courtesy
            user = literal is not None and (
                (USER.fullmatch(literal) is not None and not LOCATOR.fullmatch(literal))
                or DISTINGUISHED_NAME.fullmatch(literal) is not None
            )
            at = argument.end() + 1  # past the comma


def find_in_arguments(text: str, lowered: str, calls: Calls | None = None) -> Iterator[tuple[int, int, str]]:
    """(start, end, class) of each secret handed to code as a fallback or a credential call's argument.
    `calls(pattern)` gives a call pattern's matches in `lowered`, when the caller knows where they may
    start (the keyword automaton finds each pattern's leading words: CALLS)."""
    calls = calls or (lambda pattern: pattern.finditer(lowered))
    yield from find_fallback(text)
    yield from find_given_to_clients(text, calls)
    yield from find_logins(text, calls)
