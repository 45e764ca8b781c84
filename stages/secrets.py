"""Secret detection: provider token formats, credential-bearing syntax, and keyed assignments.

`find_secrets(text)` returns (start, end, class) spans; `redact(text)` replaces each with
`[REDACTED:<class>]`. Three kinds of rule, tried in this order:

1. TOKENS: formats a provider gives its credentials (`ghp_…`, `AKIA…`, PEM blocks). Each must
   stand alone (no word character, dot, slash or dash glued to its front), and a body that is a
   placeholder (`xxxx`, `0000…`, `abcdefgh`, `…HERE`, a truncated `…`) is left alone.
2. STRUCTURES: syntax that carries a credential whatever its format: `scheme://user:pass@host`,
   `Authorization: Bearer …`, `Password=…;` in connection strings, `curl --user u:p`.
3. KEYED: `name <sep> value` where the name says secret (password, token, api_key, …) and the
   value looks like one: not a placeholder, a variable reference, a call, a word or an id.

Hex ids, UUIDs and git SHAs standing alone match none of these and are never touched.
"""

from __future__ import annotations

import math
import re
from collections import Counter

# A token must not be the tail of a longer word, file name, path or URL segment.
B = r"(?<![\w./-])"
P = r"(?<![A-Za-z0-9])"  # enough for long, distinctive prefixes (they may follow a dot or a slash)
E = r"(?![\w])"

# (class, pattern); group 1, where the pattern has one, is the secret.
TOKENS: list[tuple[str, str]] = [
    (
        "private_key",
        r"-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----\s*[A-Za-z0-9+/=:,\s\\-]{40,}?"
        r"(?:-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----|$)",
    ),
    ("private_key", P + r"LS0tLS1CRUdJTi[A-Za-z0-9+/=]{40,}"),  # a PEM block, base64-encoded
    ("private_key", P + r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}" + E),
    ("anthropic_api_key", P + r"sk-ant-(?:api|admin|sid)\d{2}-[A-Za-z0-9_-]{80,}"),
    (
        "openai_api_key",
        P + r"sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,}"
        r"|" + B + r"sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}" + E + r"|" + B + r"sk-[A-Za-z0-9]{48}" + E,
    ),
    (
        "aws_access_key_id",
        r"(?<![A-Za-z0-9])(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA"
        r"|APKA|AROA|ASCA)[A-Z2-7]{16}(?![A-Za-z0-9])",
    ),
    ("aws_bedrock_api_key", P + r"ABSK[A-Za-z0-9+/]{109,269}={0,2}|bedrock-api-key-[A-Za-z0-9+/=]{20,}"),
    (
        "github_token",
        P
        + r"(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,255}"
        + E
        + r"|"
        + P
        + r"github_pat_[A-Za-z0-9_]{82}"
        + E,
    ),
    (
        "gitlab_token",
        P + r"gl(?:pat|dt|ptt|rt|soat|ft|imt|agent|cbt|oas|ffct|ddt)-[A-Za-z0-9_.-]{20,}"
        r"|" + P + r"GR1348941[A-Za-z0-9_-]{20}" + E,
    ),
    ("slack_webhook_url", r"https?://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/]{20,}"),
    ("slack_token", P + r"xox[abeposr](?:\.xox[bp])?-(?:\d+-)?[A-Za-z0-9-]{10,}"),
    (
        "msteams_webhook_url",
        r"https?://(?:[\w-]+\.webhook\.office\.com|outlook\.office(?:365)?\.com)"
        r"/webhook(?:b2)?/[\w@/-]{30,}",
    ),
    ("stripe_api_key", B + r"(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,99}" + E),
    ("google_api_key", P + r"AIza[0-9A-Za-z_-]{35}" + E),
    ("google_oauth_client_secret", P + r"GOCSPX-[A-Za-z0-9_-]{28}" + E),
    ("google_oauth_access_token", P + r"ya29\.[0-9A-Za-z_-]{20,}"),
    ("huggingface_token", B + r"(?:hf_|api_org_)[A-Za-z]{34}" + E),
    ("npm_token", P + r"npm_[A-Za-z0-9]{36}" + E),
    ("pypi_token", P + r"pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}"),
    ("sendgrid_api_key", P + r"SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}" + E),
    ("twilio_api_key", B + r"SK[0-9a-fA-F]{32}" + E),
    ("mailchimp_api_key", B + r"[0-9a-f]{32}-us\d{1,2}" + E),
    ("telegram_bot_token", B + r"\d{5,16}:AA[A-Za-z0-9_-]{32,33}" + E),
    ("discord_bot_token", B + r"[MNO][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}" + E),
    (
        "hashicorp_token",
        P + r"(?:hvs|hvb|hvr)\.[A-Za-z0-9_-]{24,}|[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}",
    ),
    ("databricks_token", P + r"dapi[a-f0-9]{32}(?:-\d)?" + E),
    ("digitalocean_token", P + r"do[opr]_v1_[a-f0-9]{64}" + E),
    (
        "newrelic_key",
        P
        + r"NR(?:AK|II|JS|AA|IQ|RA|RI)-[A-Za-z0-9_-]{27,32}"
        + E
        + r"|"
        + B
        + r"(?:[a-f0-9]{36}|eu01xx[a-f0-9]{30})NRAL"
        + E,
    ),
    ("sonarqube_token", P + r"sq[pua]_[A-Za-z0-9]{40}" + E),
    (
        "sourcegraph_token",
        P + r"sgp_(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}" + E + r"|" + P + r"sgs_[a-fA-F0-9]{64}",
    ),
    (
        "grafana_token",
        P + r"glc_[A-Za-z0-9+/]{32,400}={0,2}|" + P + r"glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}"
        r"|" + P + r"eyJrIjoi[A-Za-z0-9]{70,400}={0,2}",
    ),
    ("dtrack_token", P + r"odt_[A-Za-z0-9]{32,}"),
    ("doppler_token", P + r"dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}"),
    ("pulumi_token", B + r"pul-[a-f0-9]{40}" + E),
    ("postman_token", P + r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}" + E),
    ("shopify_token", P + r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}" + E),
    ("atlassian_token", P + r"ATATT3[A-Za-z0-9_=-]{186}"),
    ("flyio_token", P + r"fo1_[\w-]{43}|" + P + r"fm[12][ar]?_[A-Za-z0-9+/]{100,}={0,3}"),
    ("infracost_token", B + r"ico-[A-Za-z0-9]{32}" + E),
    ("prefect_token", P + r"pnu_[A-Za-z0-9]{36}" + E),
    ("readme_token", P + r"rdme_[a-z0-9]{70}" + E),
    ("groq_token", P + r"gsk_[A-Za-z0-9]{52}" + E),
    ("tavily_token", P + r"tvly-(?:dev-)?[A-Za-z0-9]{32}" + E),
    ("firecrawl_token", B + r"fc-[a-f0-9]{32}" + E),
    ("clickhouse_token", B + r"4b1d[A-Za-z0-9]{38}" + E),
    ("dockerhub_token", P + r"dckr_pat_[A-Za-z0-9_-]{27}"),
    ("nuget_token", B + r"oy2[a-z0-9]{43}" + E),
    ("octopus_token", B + r"API-[A-Z0-9]{26,}" + E),
    ("sentry_token", P + r"sntry[su]_[A-Za-z0-9+/=_]{40,}"),
    (
        "onepassword_secret",
        P + r"ops_eyJ[A-Za-z0-9+/=_-]{100,}|" + B + r"A3-[A-Z0-9]{6}-(?:[A-Z0-9]{5,6}-){3,}[A-Z0-9]{5}",
    ),
    ("notion_token", P + r"ntn_\d{11}[A-Za-z0-9]{35}" + E + r"|" + B + r"secret_[A-Za-z0-9]{43}" + E),
    ("salesforce_token", B + r"00D[A-Za-z0-9]{12,15}![A-Za-z0-9_.]{80,}"),
    ("square_token", B + r"sq0(?:csp|atp|idp)-[A-Za-z0-9_-]{22,43}|" + B + r"EAAA[A-Za-z0-9_-]{60}" + E),
    ("facebook_token", B + r"EAA[A-Za-z0-9]{90,}" + E),
    ("intra42_token", B + r"s-s4t2(?:ud|af)-[a-f0-9]{64}" + E),
    ("cloudflare_token", B + r"v1\.0-[a-f0-9]{24}-[a-f0-9]{146}" + E),
    ("mapbox_token", P + r"[st]k\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}"),
    ("dynatrace_token", P + r"dt0[a-z]\d{2}\.[A-Z0-9]{24}\.[A-Z0-9]{64}" + E),
    ("django_secret_key", P + r"django-insecure-[^\s'\"]{20,}"),
    ("pixie_token", P + r"px-(?:api|dep)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}" + E),
    (
        "hashicorp_token",
        r"(?<![\w.])s\.CAES[A-Za-z0-9_-]{20,}|(?<![\w.])[sbr]\.(?=\w*\d)(?=\w*[a-z])[A-Za-z0-9]{24}(?![\w.])",
    ),
    # abcdef.0123456789abcdef is the kubeadm documentation's example
    (
        "kubernetes_token",
        r"(?<![\w.])(?!abcdef\.0123456789abcdef)[a-z0-9]{6}\.(?=[a-z]*\d)(?=\d*[a-z])[a-z0-9]{16}(?![\w.])",
    ),
    ("jwt", P + r"eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}(?:\.[A-Za-z0-9_-]+)?"),
    ("azure_credential", B + r"[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![\w~.-])"),
    (
        "password_hash",
        r"\$(?:1|2[abxy]?|5|6|7|8|9|y|gy|argon2(?:id|i|d)|scrypt|pbkdf2[\w-]*|sha512crypt"
        r"|krb5asrep\$\d+|krb5tgs\$\d+)\$[^\s'\"]{20,}",
    ),
    ("twitch_token", B + r"live_\d{6,12}_[A-Za-z0-9]{30}" + E),
    ("okta_token", B + r"00[A-Za-z0-9_-]{40}(?![\w-])"),
    ("heroku_api_key", P + r"HRKU-AA[0-9a-zA-Z_-]{58}" + E),
    ("truenas_token", r"\"params\"\s*:\s*\[\s*\"(\d+-[A-Za-z0-9]{64})\""),
    ("thingsboard_token", r"/api/v1/([a-z0-9]{20})/(?:telemetry|attributes|rpc)"),
    (
        "sidekiq_secret",
        r"(?i)BUNDLE_(?:ENTERPRISE|GEMS)__CONTRIBSYS__COM[\"']?\s*[:=]\s*[\"']?([a-f0-9]{8}:[a-f0-9]{8})",
    ),
    ("sumologic_key", r"(?i)sumo[\w.-]{0,30}[\"']?\s*[:=]\s*[\"']?(su[A-Za-z0-9]{12})(?![\w])"),
    ("snyk_token", r"(?i)snyk[\w.-]*\W{1,6}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"),
    ("cohere_token", r"(?i)cohere[\w.-]*\W{1,6}([A-Za-z0-9]{40})(?![\w])"),
    ("sonarqube_token", r"(?i)sonar[\w.-]*(?:login|token|key)\s*[=:]\s*[\"']?([a-f0-9]{40})(?![\w])"),
    (
        "generic_api_key",
        r"buildConfigField\s*\(?\s*[\"']String[\"']\s*,\s*[\"']\w*(?:KEY|TOKEN|SECRET|PASSWORD)\w*"
        r"[\"']\s*,\s*[\"']\\?\"?([^\"'\\\s]{8,})",
    ),
]

STRUCTURES: list[tuple[str, str]] = [
    # scheme://user:password@host, also a comma-separated host list (user:pw@h1,user:pw@h2)
    (
        "url_with_credentials",
        r"(?:[a-zA-Z][a-zA-Z0-9+.-]{1,20}://|,)[^\s:/@'\",]{1,100}:([^\s/'\"]{1,200})@[\w.-]+",
    ),
    (
        "http_auth_header",
        r"(?i)\bauthorization\b[\"']?\s*[:=]\s*[\"']?(?:bearer|basic|token|apikey|api-key|key|ssws)"
        r"\s+([A-Za-z0-9+/=._~-]{8,})",
    ),
    (
        "http_auth_header",
        r"(?i)\b(?:x-[\w-]*(?:token|key|secret|auth)[\w-]*)\b[\"']?\s*[:=]\s*[\"']?"
        r"([A-Za-z0-9+/=._~-]{16,})",
    ),
    # ODBC / ADO.NET: Password=...; among other key=value; pairs
    ("db_connection_string", r"(?i)(?<=;)\s*(?:password|pwd)\s*=\s*([^;'\"\n]{1,200})"),
    ("azure_credential", r"(?i)(?:AccountKey|SharedAccessKey)\s*=\s*([A-Za-z0-9+/=]{20,})"),
    ("cli_credentials", r"(?:--user|-u)[ =]['\"]?[^\s:'\"]{1,100}:['\"]?([^\s'\"]{3,200})"),
    ("cli_credentials", r"(?:-u|--user(?:name)?)[ =]\S+\s+(?:-p|--password)[ =]['\"]?([^\s'\"]{2,200})"),
    ("cli_credentials", r"(?<![\w-])(?:--password|-password|--pass|/p:)[= ]\s?['\"]?([^\s'\";)]{4,})"),
    (
        "url_with_credentials",
        r"[?&](?:token|access_token|api_key|apikey|key|secret|password|sig)="
        r"([A-Za-z0-9%._~+/-]{12,})",
    ),
    # <SomethingToken>value</SomethingToken>
    (
        "generic_api_key",
        r"(?i)<([\w-]*(?:token|secret|password|apikey|api_key)[\w-]*)>\s*([^<\s]{8,})\s*</\1>",
    ),
]

SECRET_NAME = (
    r"(?:secret|token|passw(?:or)?d|passwd|pwd|pw|pass|api[_-]?key|apikey|access[_-]?key|private[_-]?key"
    r"|credential|auth|auth[_-]?key|pat|license[_-]?key|account[_-]?key|key|salt|seed)"
)
# `name <sep> value`: the name ends in a secret word (any case, or as a camelCase tail like PresharedKey).
KEYED = re.compile(
    r"(?P<name>(?<![\w.-])[\w.-]*?(?i:" + SECRET_NAME + r")s?(?:[ _-]?\d+)?)(?![A-Za-z])[\"']?"
    r"(?P<sep>[ \t]*(?:===?|!==?|=>|:=|\?=|=|:)[ \t]*|[ \t]+is[ \t]+|[ \t]+(?=[\"']))"
    r"(?:\w+\()?[ \t]*"
    r"(?:(?P<q>[\"'`])(?P<quoted>[^\"'`\n]{1,300})(?P=q)|(?P<bare>(?:(?!\\[nrt])[^\s\"'`,;)}\]]){4,300}))"
)
TEMPLATE = re.compile(
    r"\$\{|\$\(|\$[A-Za-z_]|%\(|\{\{|<[^>]*>|^\[.*\]?$|^%\w+%$|::|\.\.\.|…|\[Redacted\]", re.I
)
# Marks of a value written to stand for a secret: runs of x, "here", "your…", "changeme".
STAND_IN = re.compile(
    r"(?i)x{4,}|redacted|(?<![a-z])x{3}(?![a-z])|example|\*{3,}|\.\.\.|…|\[redacted\]|<[^>]*>|your|here$|here\b|changeme|placeholder"
)
STAND_IN_WORDS = re.compile(
    r"(?i)^(?:null|none|nil|undefined|true|false|string|required|optional|secret|password|passwd|token|key"
    r"|value|test|example|sample|dummy|empty)$"
)
# A phrase of words naming the idea rather than being it: real_key, shorter-version, a-fake-key.
CONCEPT_WORDS = re.compile(
    r"(?i)key|secret|pass|token|auth|value|version|fake|dummy|sample|test|example|short|long"
)
MALFORMED_TOKEN = re.compile(
    r"^(?:dapi|gh[pousr]_|glpat-|xox[bpae]-|sk-|sk_live_|npm_|hf_|px-(?:api|dep)-|NR[A-Z]{2}-)|NRAL$"
)
UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.I)
IDENTIFIER = re.compile(
    r"^(?:[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:\(.*)?|[A-Za-z_]\w*\(.*|[A-Za-z_]\w*\[.*|[a-z]+(?:[A-Z][a-z0-9]+)+)$"
)


def entropy(value: str) -> float:
    counts = Counter(value)
    return -sum(c / len(value) * math.log2(c / len(value)) for c in counts.values())


def is_stand_in(value: str) -> bool:
    """xxxx, 0000…, ***, YOUR_KEY_HERE, a truncated `abc...`: written to stand for a secret."""
    if not value or STAND_IN.search(value) or STAND_IN_WORDS.match(value):
        return True
    return len(value) >= 8 and Counter(value).most_common(1)[0][1] > len(value) / 2


def token_is_stand_in(token: str) -> bool:
    """Provider token formats: judge the body after the prefix."""
    body = re.sub(r"^[A-Za-z]{1,8}[_-](?:[a-z]{2,6}[_-])?", "", token)
    # A phrase of capitalised words, like SlackAppConfigurationAccessTokenHere, is an example.
    return is_stand_in(body) or re.fullmatch(r"(?:[A-Z][a-z]{2,})+", body) is not None


def keyed_value_is_secret(name: str, sep: str, value: str, quote: str) -> bool:
    """Whether `name = value` holds a credential rather than a placeholder, a word or a reference."""
    password_name = re.search(r"(?i)pass|pwd|pw\b|pw$", name) is not None
    if sep.strip() == "" and not password_name:
        return False  # `name "value"` with only a space between is how Gradle writes passwords
    if re.search(
        r"(?i)public|publish|_id$|[a-z]Id$|path|file|url|uri|host|type|name|length|size|count", name
    ):
        return False
    if is_stand_in(value) or TEMPLATE.search(value) or (quote == "`" and " " in value):
        return False  # a placeholder, a template or variable, a command substitution
    if value.startswith(
        ("http://", "https://", "/", "./", "~/", "%", "@", "env.", "process.env", "os.environ")
    ):
        return False
    if MALFORMED_TOKEN.match(value):
        return False  # a provider's prefix on a body that is not that provider's format: made up
    if UUID.match(value):
        return re.search(r"(?i)key|token|secret", name) is not None
    if IDENTIFIER.match(value):
        return False  # a call, an attribute, an indexing, a camelCase identifier
    if quote and password_name and re.fullmatch(r"[A-Z0-9_]+", value):
        return True  # password "ADMIN_PASS": a quoted literal, not a constant's name
    if re.fullmatch(r"[A-Za-z]+(?:[_-][A-Za-z]+)+", value):
        return password_name and not CONCEPT_WORDS.search(value)
    if re.fullmatch(r"\d+|[A-Z][a-z]+(?:[A-Z][a-z]+)*", value):
        return password_name and quote != "" and len(value) >= 4  # a number, or a type (password: SecretStr)
    if re.fullmatch(r"(?i)key", name):  # `key` alone names anything in code: want a random blob
        return re.fullmatch(r"[A-Za-z0-9+/=]{20,}", value) is not None and entropy(value) >= 3.5
    if password_name:
        return len(value) >= 4 if quote else len(value) >= 6 and not re.fullmatch(r"[A-Z_]+", value)
    if quote and " " in value:
        return False
    if re.fullmatch(r"[A-Za-z]+", value) or re.fullmatch(r"[A-Z_]{3,}", value):
        return False  # a word or a CONSTANT name
    return len(value) >= 8 and entropy(value) >= 3.0


def find_secrets(text: str) -> list[tuple[int, int, str]]:
    spans: list[tuple[int, int, str]] = []

    def add(start: int, end: int, kind: str) -> None:
        if end > start and not any(s < end and start < e for s, e, _ in spans):
            spans.append((start, end, kind))

    for kind, pattern in _TOKENS:
        for match in pattern.finditer(text):
            group = next((g for g in range(1, (pattern.groups or 0) + 1) if match.group(g)), 0)
            if not token_is_stand_in(match.group(group)):
                add(match.start(group), match.end(group), kind)
    for kind, pattern in _STRUCTURES:
        for match in pattern.finditer(text):
            group = max(g for g in range(1, pattern.groups + 1) if match.group(g) is not None)
            if not (TEMPLATE.search(match.group(group)) or STAND_IN.search(match.group(0))):
                add(match.start(group), match.end(group), kind)
    for match in KEYED.finditer(text):
        name, quote = match.group("name"), match.group("q") or ""
        group = "quoted" if quote else "bare"
        if keyed_value_is_secret(name, match.group("sep"), match.group(group), quote):
            kind = "generic_password" if re.search(r"(?i)pass|pwd|pw\b", name) else "generic_api_key"
            add(match.start(group), match.end(group), kind)
    return sorted(spans)


def redact(text: str, found: Counter[str] | None = None) -> str:
    """The text with each secret replaced by [REDACTED:<class>] (counted into `found`), the same
    object when there is none. A multi-line secret (a PEM block) leaves its line breaks behind, so
    the line numbers of what follows still match the source."""
    spans = find_secrets(text)
    if not spans:
        return text
    parts, last = [], 0
    for start, end, kind in spans:
        if found is not None:
            found[kind] += 1
        parts += [text[last:start], f"[REDACTED:{kind}]", "\n" * text.count("\n", start, end)]
        last = end
    parts.append(text[last:])
    return "".join(parts)


_TOKENS = [(kind, re.compile(pattern)) for kind, pattern in TOKENS]
_STRUCTURES = [(kind, re.compile(pattern)) for kind, pattern in STRUCTURES]
