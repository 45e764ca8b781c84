"""Checks on a candidate secret beyond its pattern: checksums and structure where the format has
them, entropy, and the marks of a value written to stand for a secret (`xxxx`, `<your key>`)."""

from __future__ import annotations

import base64
import binascii
import hashlib
import itertools
import json
import math
import re
import urllib.parse
import zlib
from collections import Counter

BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def entropy(value: str) -> float:
    """Shannon entropy in bits per character (gitleaks' `entropy` threshold uses the same)."""
    if not value:
        return 0.0
    counts = Counter(value)
    return -sum(c / len(value) * math.log2(c / len(value)) for c in counts.values())


def has_digit(value: str) -> bool:
    return any(c.isdecimal() for c in value)


def random_enough(value: str, ceiling: float = 3.0) -> bool:
    """Whether `value` reaches `ceiling` bits per character, or is a short machine-made token as
    varied as a random one of its length. A fixed bar fits long values only: a random 16-character
    hex token falls under 3.0 bits one time in seven, a random 8-character base62 one four times in
    ten, since so few characters cannot all differ. For hex, and for letters and digits mixed
    together (a digit between letters or a letter between digits; not `tagvalue1`, not a `0x…`
    number), the bar is the expected number of distinct characters, k(1 - (1 - 1/k)^n) over an
    alphabet of k, less 0.7 bit: about the first percentile of random strings of that shape.
    Punctuation keeps the fixed bar: `**kwargs`, `|SPEAKER|` and `#comment` are words."""
    bits = entropy(value)
    if bits >= ceiling:
        return True
    if not value.isascii() or not value.isalnum() or re.match(r"0[xX]", value):
        return False
    if re.fullmatch(r"[0-9a-f]+|[0-9A-F]+", value):  # hex: any mix of digits and letters
        if value.isdigit() or value.isalpha():
            return False
        k = 16
    elif re.search(r"[A-Za-z]\d+[A-Za-z]|\d[A-Za-z]+\d", value) is None:
        return False
    else:
        k = 10 + 26 * (re.search("[a-z]", value) is not None) + 26 * (re.search("[A-Z]", value) is not None)
    distinct = k * (1 - (1 - 1 / k) ** len(value))
    return bits >= math.log2(distinct) - 0.7


def random_letters(value: str) -> bool:
    """Whether a value of letters alone (perhaps joined by `_`/`-`) is random rather than words: 12
    or more letters that split at their case changes into parts of three letters or fewer on
    average (`MKKZcpOrmQQUJaVOHFQa`; camelCase words split into whole words, `getAccessToken`), with
    under 30% vowels (words have about 40%, random letters 19%). About 70% of random 12- to
    32-letter strings pass; of 58,000 mixed-case identifiers in the Python library and installed
    packages, 191 do, most of them base64 fragments."""
    letters = re.sub(r"[_-]", "", value)
    if len(letters) < 12 or not letters.isascii() or not letters.isalpha():
        return False
    parts = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+", letters)
    vowels = sum(c in "aeiouAEIOU" for c in letters)
    return len(parts) >= len(letters) / 3 and vowels < 0.3 * len(letters)


def base62(number: int, width: int) -> str:
    digits = ""
    while number:
        number, rest = divmod(number, 62)
        digits = BASE62[rest] + digits
    return digits.rjust(width, "0")


def crc32_tail_ok(token: str) -> bool:
    """GitHub (`ghp_…`) and npm (`npm_…`) tokens end in six base62 digits of the CRC32 of the
    random part before them (github.blog 2021-04-05 "Behind GitHub's new authentication token
    formats"; npm adopted the same scheme for its granular tokens)."""
    body = token.split("_", 1)[1] if "_" in token else token
    if len(body) < 7:
        return False
    return base62(zlib.crc32(body[:-6].encode()), 6) == body[-6:]


def b64decode(part: str) -> bytes | None:
    try:
        return base64.b64decode(part + "=" * (-len(part) % 4), altchars=b"-_", validate=False)
    except (binascii.Error, ValueError):
        return None


def basic_credentials_ok(value: str) -> bool:
    """RFC 7617's Basic credentials are base64 of `user:password`: a value that decodes to a word
    without a colon or a digit (`dXNlcg==`, "user") is none. Random bytes, and text with a digit
    (OneSignal's REST keys are base64 of a UUID), are kept."""
    if value.lower() == "base64" or re.fullmatch(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*", value):
        return False  # a manual's `Basic base64(…)`, `Basic username password`, `base64-user-password`
    if ":" in value:  # written unencoded (REST Client's `Basic user:password`): judged as typed
        password = value.split(":", 1)[1]
        return typed_password(password) or random_enough(password)
    if not re.fullmatch(r"[A-Za-z0-9+/]+={0,2}", value) or len(value) % 4:
        return True
    decoded = b64decode(value)
    if decoded is None or not decoded.isascii() or not decoded.decode().isprintable():
        return True
    return b":" in decoded or re.search(rb"\d", decoded) is not None


def decodes_to_login(value: str) -> bool:
    """Base64 of `user:password` (RFC 7617's Basic credentials) whatever it is called: fastlane's
    `git_basic_authorization`, a CI variable."""
    decoded = b64decode(value)
    return decoded is not None and re.fullmatch(rb"[^:\s]{1,100}:[!-~]{3,200}", decoded) is not None


def jwt_ok(token: str) -> bool:
    """A JWT's first part is a base64url JSON object naming its algorithm (RFC 7515 §4.1.1); the
    second is a JSON object too. Test suites corrupt bytes in the middle of real tokens, so the
    header must start like JSON and name `alg`/`typ`, not parse completely."""
    parts = token.split(".")
    if len(parts) < 2:
        return False
    header, payload = b64decode(parts[0]), b64decode(parts[1][:16])
    if header is None or payload is None or not header.lstrip().startswith(b"{"):
        return False
    return (b'"alg"' in header or b'"typ"' in header) and payload.lstrip().startswith(b"{")


def public_jwt(token: str) -> bool:
    """Supabase's anon key, a JWT whose payload says `"role": "anon"`, is made to ship in a browser
    (supabase.com/docs, "API keys"); its `service_role` twin is a secret."""
    parts = token.split(".")
    payload = b64decode(parts[1]) if len(parts) > 1 else None
    if payload is None:
        return False
    try:
        claims = json.loads(payload)
    except ValueError:
        return False
    return isinstance(claims, dict) and claims.get("iss") == "supabase" and claims.get("role") == "anon"


def b64_pem_ok(blob: str) -> bool:
    """A base64-encoded PEM block is a private key only if its decoded header says so."""
    head = b64decode(blob[:64]) or b""
    return b"PRIVATE KEY" in head


# Marks of a value written to stand for a secret: runs of x or of bullets (also JSON-escaped),
# "your…", "here", "changeme", `<…>`, ASP.NET's `AutoGenerate`, and "your"/"here" in Russian,
# Chinese and Japanese.
STAND_IN = re.compile(
    r"(?i)x{4,}|(?<![a-z])x{3}(?![a-z])|\*{3,}|[•●]{3,}|(?:\\u(?:2022|25cf)){3,}|\.\.\.|…|redacted|example|placeholder"
    r"|(?:change|replace|set)[_-]?me(?![a-z0-9])|(?:change|replace)[_-]?this(?![a-z])"
    r"|change[_-]?(?:before|on|at|in|after)[_-]?(?:deploy|install|first|prod|setup|use|login)"
    r"|autogenerate|value_specified_in_no_log|your"
    r"|(?<!sp)(?<!w)(?<!t)here\b|(?-i:[a-z]Here\b)|<[^>]*>|ваш[_ ]|[_ ]здесь|你的|您的|あなたの"
    # (Korean's, Japanese's and Chinese's "here"; autoconf's `@X@`; Burp Intruder's `§payload§`;
    # Windows setup's log; "REPLACE_WITH_…")
    r"|여기에|ここに|在此|not[_-]a[_-]real|^@@?[A-Za-z_][\w.]*@@?$|§|sensitive\*data\*deleted|replace[_-]with"
    r"|^#[\w:.@-]+#$"  # (an RMM's variable, Kaseya's `#global:kadminPass#`)
    r"|to[_-]?be[_-]?modified"  # (Strapi's sample `.env`: `APP_KEYS="toBeModified1,toBeModified2"`)
)


def random_mixed(value: str) -> bool:
    """Whether letters and digits in both cases are random rather than an identifier: the test of
    `random_letters` on the letters (8 or more) of a value with a digit between two of them
    (`EJALgz4rp`, not `oauth2Token`, whose letters split into whole words)."""
    if not value.isascii() or not value.isalnum() or not re.search(r"[A-Za-z]\d+[A-Za-z]", value):
        return False
    letters = re.sub(r"\d", "", value)
    if len(letters) < 8 or letters.islower() or letters.isupper():
        return False
    parts = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+", letters)
    vowels = sum(c in "aeiouAEIOU" for c in letters)
    return len(parts) >= 3 and len(parts) >= len(letters) / 3 and vowels < 0.3 * len(letters)


def few_vowels(value: str) -> bool:
    """Twelve or more letters with under 30% vowels: random lowercase (an app password's 16,
    `bktxdxjmiunhsftq`), not a word (words have about 40%)."""
    return (
        len(value) >= 12
        and value.isascii()
        and value.isalpha()
        and sum(c in "aeiouAEIOU" for c in value) < 0.3 * len(value)
    )


def marked_stand_in(value: str) -> bool:
    """Whether `value` holds a stand-in's mark as a person writes it: each word in one case,
    capitalised or camelCase (`your`, `YOUR`, `AutoGenerate`), not `YOUr` inside random base64,
    which holds such letters by chance."""
    return any(
        all(TYPED_CASE.fullmatch(word) for word in re.findall("[A-Za-z]+", mark.group()))
        for mark in STAND_IN.finditer(value)
    )


TYPED_CASE = re.compile(r"[A-Z]+|(?:[A-Z]?[a-z]+)+")


STAND_IN_WORDS = re.compile(
    r"(?i)^(?:null|nullptr|none|nil|undefined|true|false|string|required|optional|secret|password|passwd|pass"
    r"|token|key|value|test|example|sample|dummy|empty|default|username|user|todo|tbd|fixme|\$?\{\{.*\}\}"
    # what a log writes in a password's place (Fluentd's `obfuscated`, Rails' `[FILTERED]`)
    r"|obfuscated|masked|hidden|redacted|\[filtered\]|filtered|~?removed~?"
    # the word itself in other languages (a translation file's `"login.password": "Passwort"`)
    r"|passwort|kennwort|mot de passe|contraseña|senha|wachtwoord|hasło|lösenord|adgangskode|salasana|parola"
    r"|heslo|jelszó|пароль|密码|密碼|パスワード|비밀번호)"
    r"(?:\?|\[\])?$"
)


# How people name variables: `$FROM_EMAIL`, `$_POST`, `$db_pass`, `$dbPassword`, `$Password1`
VARIABLE = re.compile(
    r"_*(?:[A-Z][A-Z0-9_]*|[a-z][a-z0-9_]*|[a-z]+(?:[A-Z][a-z0-9]+)+|(?:[A-Z][a-z0-9]+)+)|_+"
)


def typed_mix(value: str) -> bool:
    """Both cases and a digit: how people type a password, not how they name a variable."""
    return (
        re.search(r"[A-Z]", value) is not None and re.search(r"[a-z]", value) is not None and has_digit(value)
    )


def dollar_as_character(value: str, quoted: bool = True) -> str:
    """The value with each `$` between letters or digits read as a character (`super$ecret`,
    `9MP05ne$C4EJZ…`; in a quoted literal), and each `$` before a name no one would give a variable
    (`#$TQpmTi^`, `ZVY$tGbF@`: a generated password, quoted or not), so the template test does not
    take it for a shell variable; `$ecret` alone still is one, and so is `:$FROM_EMAIL` in Perl's
    or a shell's double quotes."""
    if quoted:
        value = re.sub(r"(?<=[A-Za-z0-9])\$(?=[A-Za-z0-9])", "S", value)

    def character(dollar: re.Match[str]) -> str:  # (unquoted, a value that starts with `$` is a variable)
        named = VARIABLE.fullmatch(dollar.group(1)) or (not quoted and dollar.start() == 0)
        glued = dollar.start() > 0 and value[dollar.start() - 1].isalnum()
        if named and glued and re.fullmatch(r"(?:[A-Z][a-z]+)+\d*", dollar.group(1)):
            return "S"  # `Tamarind$Ledge4`: no one glues such a variable to a word (`super$ecret` is one)
        if named and glued and dollar.group(1)[0].islower() and typed_mix(value):
            return "S"  # `Tavi$tock#Imap7`, `CobaltDesk$upport1`: a typed password's `$` for an `s`
        return "$" if named else "S"

    return re.sub(r"\$(?=([A-Za-z_]\w*))", character, value)


# Templates and references: ${X}, $VAR, $(cmd), %(x)s, {{x}}, #{x}, %VAR%, <x>. A `${…}`, `{{…}}`
# or `#{…}` counts when it is closed and well formed: a name (or `{{`'s expression) then the closing
# brace or an operator (`${VAR:-x}`, `${arr[0]}`, `${{ secrets.X }}`), or the end of the value (an
# unquoted value stops before `}`: `password: ${link}` reads `${link`). Braces and dollars that open
# nothing (`m{{h}o)p${e]nob(…}}`) are characters of a password: detect-secrets' KeywordDetector
# reports that very value (tests/plugins/keyword_test.py, COMMON_SECRET) and drops only values that
# are a template as a whole (filters/heuristic.py `is_templated_secret`: `{…}`, `<…>`, `${…}`; so
# `password = '{password}'`, a str.format placeholder, is one). Jenkins' `{AQAAAB…}` stays out too:
# ciphertext, like an Ansible vault's (two blind sets disagreed on it; the twelfth's call is kept).
TEMPLATE = re.compile(
    r"\$\{[!#]?[\w.-]*(?:[^\w{}\]][^{}]*)?(?:\}|$)|\$\{\{|\$\(|\$[A-Za-z_]|%\(|\{\{[^{}]*(?:\}\}|$)"
    r"|#\{[^{}]*(?:\}|$)"
    r"|^\{.*\}$|<[^>]*>|^\[.*\]?$|^%\w+%$|::|\.\.\.|…|\[Redacted\]"
    r"|^@(?:keychain|env):"  # altool's and notarytool's `-p @keychain:NAME`: where the password is
    r"|^%env\("  # Symfony's `%env(APP_SECRET)%`
    # a deployment's token to replace (`__SMTP_PASSWORD__`, `%%KEY%%`, TeamCity's `%docker.password%`)
    r"|^__?[A-Z][A-Z0-9_]*__?$|^%%\w+%%$|^%\w+(?:\.\w+)+%$"
    # WebLogic Deploy Tooling's `@@SECRET:…@@`, Spinnaker's `encrypted:vault!…`, Auth0's deploy CLI's
    # `##NAME##`, a placeholder cut at its space (`<INSERT …`)
    r"|^@@\w+:|^encrypted:\w+!|^##\w+##$|^<[A-Za-z]|^__n8n_BLANK_VALUE_"  # (and n8n's export's blank)
    # a secret manager's `name:latest`, `name:3` (`gcloud run deploy --set-secrets=X=name:latest`)
    r"|(?-i:(?:^|=)[a-z][a-z0-9_]*-[a-z0-9_-]*:(?:latest|\d+)$)"
    r"|^@Microsoft\.KeyVault\("  # Azure App Service's Key Vault reference
    r"|^%\w+\(|^&\w+\.?$"  # SAS's macro calls and variables (`%sysget(DB_PASS)`, `&dbpass`)
    r"|^@@\w+@@$",  # a Debian package's template, filled in on install (Bacula's `@@DIR_PASSWORD@@`)
    re.I,
)


# A str.format / f-string field, `{auth_token}` (three or more name characters, so the braces of a
# password like `m{{h}o)p…` are not one), or a printf one, `%s`.
FIELD = re.compile(r"(?<!\{)\{[A-Za-z_][\w.]{2,}(?:![rsa])?(?::[^{}]*)?\}|%[-#0-9.]*[sdr](?![A-Za-z0-9])")


# Characters that follow one another: digits in keyboard order (…8, 9, 0) and the alphabet.
NEXT = {a: b for seq in ("12345678901", "abcdefghijklmnopqrstuvwxyz") for a, b in itertools.pairwise(seq)}


def sequential_run(value: str, length: int = 8) -> bool:
    """Whether `value` holds `length` characters in sequence: `12345678`, `abcdefgh`, `87654321`,
    or two such runs interleaved (`a1b2c3d4`). A person typing a stand-in writes these; a random
    token almost never holds one. Over an alphabet of k characters the chance that a given place
    starts such a run is at most 4 (up, down, straight, interleaved) times (1/k)^(length - 1): for
    a 40-character value, under 4e-11 for base62, 5e-7 for hex and 7e-6 for digits alone.
    (detect-secrets drops a secret that is wholly sequential, `is_sequential_string`; gitleaks'
    global stopword is the alphabet.)"""
    text = value.lower()
    for step in (1, 2):  # neighbours, then every other character (interleaved)
        for forward in (True, False):
            run = 1
            for i in range(step, len(text)):
                a, b = (text[i - step], text[i]) if forward else (text[i], text[i - step])
                if NEXT.get(a) == b and (step == 1 or text[i - 1].isdigit() != b.isdigit()):
                    run += 1
                    if run + step - 1 >= length:
                        return True
                else:
                    run = 1
    return False


def typed_runs(value: str) -> int:
    """How many places start three characters in sequence (`abc`, `456`, `cba`): over 36
    characters a random value has one such place in about 300."""
    text = value.lower()
    return sum(
        (NEXT.get(a) == b and NEXT.get(b) == c) or (NEXT.get(b) == a and NEXT.get(c) == b)
        for a, b, c in zip(text, text[1:], text[2:], strict=False)
    )


def wholly_sequential(value: str) -> bool:
    """detect-secrets' is_sequential_string: the whole value is a stretch of `0123456789`,
    `ABC…XYZ`, `0123456789ABCDEF` (each repeated), or of the base64 alphabet."""
    upper = value.upper()
    digits, letters = "0123456789", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    sequences = (
        letters * 2 + digits + "+/",
        digits + letters * 2 + "+/",
        (digits + letters) * 2,
        digits * 2,
        (digits + "ABCDEF") * 2,
        letters + "=/",
    )
    return any(upper in sequence for sequence in sequences)


# Keys made to be published: Stripe's, Paystack's and Clerk's publishable `pk_live_`/`pk_test_`,
# Mapbox's public `pk.` tokens, Razorpay's key ids (`rzp_live_`; the secret is separate), Twilio
# account SIDs (`AC` + 32 hex, an account's name), Supabase's `sb_publishable_` keys
# (and the Bot API's documented example token, core.telegram.org/bots/api "Authorizing your bot")
PUBLISHED = re.compile(
    r"pk_(?:live|test)_|pk\.eyJ|rzp_(?:live|test)_|AC[0-9a-f]{32}$|sb_publishable_"
    r"|123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11$"
    # defaults shipped in sample configurations: Symfony's APP_SECRET, Roundcube's des_key
    r"|ThisTokenIsNotSoSecretChangeIt$|rcmail-!24ByteDESkey\*Str$"
    # Solana's own programs' addresses: Token, Associated Token Account, Token Metadata
    r"|TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA$|ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL$"
    r"|metaqbxxUerdq28cj1RbAWkYQm3ybzjb6a8bt518x1s$"
)
# The fixed DER start of a SubjectPublicKeyInfo in base64 (RFC 5280): EC P-256, RSA 2048, Ed25519.
PUBLIC_KEY_DER = ("MFkwEwYHKoZIzj0CAQ", "MIIBIjANBgkqhkiG9w0BAQEFAAOC", "MCowBQYDK2Vw")


PERMISSIONS = re.compile(r"[a-z]+(?:,[a-z]+)*")


# A NATS public nkey: its type's letter (User, Account, Operator, server, Cluster, curve) and base32
NATS_PUBLIC_KEY = re.compile(r"[UAONCX][A-Z2-7]{55}")


def prose_phrase(value: str) -> bool:
    """Lowercase words with one of prose's small words among them: a remark where a value would be
    (`set by environment`, `stored in the vault`), not a passphrase."""
    return (
        re.fullmatch(r"[a-z]+(?: [a-z]+){2,}", value) is not None
        and re.search(r"\b(?:by|from|in|the|of|at|on|for|via|see|is|are|was|not)\b", value) is not None
    )


def is_stand_in(value: str) -> bool:
    """xxxx, 0000…, ***, YOUR_KEY_HERE, a truncated `abc...`: written to stand for a secret; or a
    public key, which is published."""
    if not value or marked_stand_in(value) or STAND_IN_WORDS.match(value):
        return True
    if "%" in value and (decoded := urllib.parse.unquote(value)) != value and is_stand_in(decoded):
        return True  # URL-encoded: `%2A%2A%2A%2A`, `%5BFILTERED%5D`
    word, at, rest = value.partition("@")
    if at and STAND_IN_WORDS.match(word) and PERMISSIONS.fullmatch(rest):
        return True  # MPD's sample `password "password@read,add,control,admin"` (mpd.conf(5))
    if (
        value.startswith(PUBLIC_KEY_DER)
        or PUBLISHED.match(value)
        or NATS_PUBLIC_KEY.fullmatch(value)
        or re.fullmatch(r"0x[0-9a-fA-F]{40}", value)  # an Ethereum address
        or re.fullmatch(r"(?:nodekey|mkey|discokey|nlpub):[0-9a-f]{64}", value)  # Tailscale's public keys
        or (value.startswith("eyJ") and public_jwt(value))
    ):
        return True
    return len(value) >= 8 and Counter(value).most_common(1)[0][1] > len(value) / 2


def token_is_stand_in(token: str) -> bool:
    """Provider token formats: judge the body after the prefix."""
    decoded = urllib.parse.unquote(token) if "%" in token else token
    if decoded != token and (marked_stand_in(decoded) or STAND_IN_WORDS.match(decoded)):
        return True  # URL-encoded: `%2A%2A%2A%2A`, `%5BFILTERED%5D`
    body = re.sub(r"^[A-Za-z0-9]{1,8}[_.-](?:[a-z0-9]{2,7}[_.-])?", "", token)
    if marked_stand_in(token) or re.search(r"(.)\1{11,}", body):
        return True  # gitleaks' fps and Nosey Parker's negatives are mostly runs like these
    # A phrase of capitalised words, like SlackAppConfigurationAccessTokenHere, is an example (but
    # one or two after a prefix are a typed password's: `R3dW1ne-Cellar`)
    return (
        re.fullmatch(r"(?:[A-Z][a-z]{2,})+" if body == token else r"(?:[A-Z][a-z]{2,}){3,}", body) is not None
    )


BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def base58check(value: str) -> bytes | None:
    """The payload of a Base58Check string (Bitcoin's addresses and keys: the last 4 bytes are the
    first 4 of the double SHA-256 of the rest), or None when the checksum fails."""
    number = 0
    for char in value:
        number = number * 58 + BASE58.index(char)
    raw = number.to_bytes((number.bit_length() + 7) // 8, "big")
    raw = b"\0" * (len(value) - len(value.lstrip("1"))) + raw
    payload, checksum = raw[:-4], raw[-4:]
    return payload if hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4] == checksum else None


def wif_key(value: str) -> bool:
    """A private key in Wallet Import Format: version 0x80 (mainnet) or 0xEF (testnet), 32 bytes,
    then 0x01 when its public key is compressed (en.bitcoin.it/wiki/Wallet_import_format)."""
    payload = base58check(value)
    return (
        payload is not None
        and payload[:1] in (b"\x80", b"\xef")
        and (len(payload) == 33 or (len(payload) == 34 and payload[-1] == 1))
    )


def extended_private_key(value: str) -> bool:
    """A BIP-32 extended private key: 78 bytes, its key data a 0 byte then the key's 32."""
    payload = base58check(value)
    return payload is not None and len(payload) == 78 and payload[45] == 0


def password_verifier(value: str) -> bool:
    """PostgreSQL's stored form of a password, `SCRAM-SHA-256$<iterations>:<salt>$<keys>` or `md5`
    and 32 hex (postgresql.org, "Password Authentication"): a verifier, not the password."""
    return re.match(r"SCRAM-SHA-(?:1|256)\$\d+:|md5[0-9a-f]{32}$", value) is not None


def typed_password(value: str) -> bool:
    """A password as people type them: letters and two of a digit, a sign and both cases
    (`luna+Simba2`, `U?mjoO!-bN`), or a word and a number (`Noodle2012`); a sentence's stop at the
    end is no sign (`Thanks!`)."""
    word = value.rstrip(".,;:!?")
    kinds = (r"\d", r"[^\w\s]", r"[a-z](?=.*[A-Z])|[A-Z](?=.*[a-z])")
    mixed = (
        re.search("[A-Za-z]", word) is not None and sum(re.search(k, word) is not None for k in kinds) >= 2
    )
    return mixed or re.fullmatch(r"[A-Za-z]{4,}\d{2,}", word) is not None
