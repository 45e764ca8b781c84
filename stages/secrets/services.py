"""Web services' own key formats and the places consoles show them (sets 79 to 86: cloud consoles,
research computing, healthcare, media and publishing, developer laptops): Ghost's Admin API key,
WordPress' application password, Bitrix24's and IFTTT's webhook URLs, Bunny's storage key,
express-session's signed cookie, a connection URL percent-encoded into another URL's query, a
console's `NAME    value` table row, and an Azure key under "Primary key".
"""

from __future__ import annotations

import re
import urllib.parse

from pica.stages.secrets import verify
from pica.stages.secrets.rules import E, Rule, literal_password, random_with_digit, rule

# Azure's account and access keys are 32 or 64 random bytes in base64 (44 or 88 characters)
AZURE_KEY = r"[A-Za-z0-9+/]{43}=|[A-Za-z0-9+/]{86}=="


def mixed_random(value: str) -> bool:
    """Random letters of both cases and digits: a generated password, not words or hex."""
    bare = value.replace(" ", "")
    return (
        random_with_digit(bare)
        and re.search(r"[a-z]", bare) is not None
        and re.search(r"[A-Z]", bare) is not None
        and not verify.is_stand_in(bare)
    )


def decoded_password(value: str) -> bool:
    """A percent-encoded password, judged as written."""
    return literal_password(urllib.parse.unquote(value))


SERVICES: list[Rule] = [
    # Ghost's Admin API key: a 24-hex id, a colon, a 64-hex secret (ghost.org/docs/admin-api,
    # "Token authentication")
    rule(
        "generic_api_key",
        "key ghost",
        r"(?<![0-9a-fA-F:])([0-9a-f]{24}:[0-9a-f]{64})(?![0-9a-fA-F])",
        not_after="",
    ),
    # WordPress' application password: 24 letters and digits shown in six groups of four
    # (make.wordpress.org/core/2020/11/05/application-passwords-integration-guide)
    rule(
        "generic_password",
        "wp wordpress application",
        r"(?<![\w ])([A-Za-z0-9]{4}(?: [A-Za-z0-9]{4}){5})(?![\w]| \w)",
        not_after="",
        check=mixed_random,
    ),
    # Bitrix24's inbound webhook: the portal, /rest/, the user's id, then the webhook's code
    # (apidocs.bitrix24.com, "Incoming webhooks")
    rule(
        "generic_api_key",
        "",
        r"bitrix24\.[a-z]{2,3}(?:\.[a-z]{2})?/rest/\d{1,9}/([a-z0-9]{8,32})(?=/|\b)",
        not_after="",
    ),
    # IFTTT's Webhooks (Maker) key in its trigger URL (ifttt.com/maker_webhooks)
    rule(
        "generic_api_key",
        "",
        r"maker\.ifttt\.com/(?:trigger/[\w-]+/(?:json/)?with/key|use)/([\w-]{16,64})",
        not_after="",
    ),
    # Bunny's storage zone password and API key: a UUID's groups with two more of four
    # (docs.bunny.net, "AccessKey")
    rule(
        "generic_api_key",
        "bunny accesskey access_key storage",
        r"(?<![0-9a-f-])([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-[0-9a-f]{4}-[0-9a-f]{4})(?![0-9a-f-])",
        not_after="",
    ),
    # express-session's signed cookie, `s:` (percent-encoded) + the session's id + `.` + its HMAC
    # (npmjs.com/package/cookie-signature)
    rule(
        "session_cookie",
        "",
        r"(s%3A[\w-]{16,128}\.[A-Za-z0-9+/]{43})(?![A-Za-z0-9+/])",
        not_after="",
    ),
    # A connection URL percent-encoded into another URL's query (TablePlus' `tableplus://?url=`, an
    # OAuth `redirect_uri`, a DSN in a link): `postgresql%3A%2F%2Fuser%3Apassword%40host`
    rule(
        "url_with_credentials",
        "",
        r"(?i)%3a%2f%2f[^%\s/@&\"'<>]{1,64}%3a([^\s/@&\"'<>]{3,200}?)%40",
        not_after="",
        check=decoded_password,
    ),
    # A URL with an empty user and a base64 key that holds a `/` (Azure Cache for Redis'
    # `rediss://:key@…`): the generic URL rule stops at the `/`
    rule(
        "url_with_credentials",
        "",
        r"://:([A-Za-z0-9+/]{20,200}={0,2})@[\w-]+\.[\w.-]+",
        not_after="",
        check=lambda value: "/" in value and random_with_digit(value),
    ),
    # A console's variables table, columns aligned with spaces: `AWS_SECRET_ACCESS_KEY    wJal…
    # env` (Terraform Cloud), `CLOUDFLARE_API_TOKEN     Plain     fO1Y…` (Spacelift)
    rule(
        "generic_api_key",
        "secret token password passwd api_key apikey access_key private_key",
        r"(?im)^[ \t]*[a-z][a-z0-9]*(?:_[a-z0-9]+)*_(?:secret|token|password|passwd|api_key|apikey|access_key"
        r"|private_key|secret_key|secret_access_key|auth_token)(?:[ \t]{2,}|\t)(?:(?:plain|secret|sensitive"
        r"|env|terraform|string|encrypted|plaintext)[ \t]{2,})?([^\s]{12,200})(?=[ \t]{2,}|\t|[ \t]*$)",
        not_after="",
        # (not a short hex digest: `fly secrets list` prints each secret's)
        check=lambda value: (
            random_with_digit(value)
            and not verify.is_stand_in(value)
            and not re.fullmatch(r"[0-9a-f]{1,31}", value)
        ),
    ),
    # An Azure key shown under its console label, on its line or the next ("Primary key:",
    # "PRIMARY KEY", "Secondary access key"); a database's primary key holds no base64 of 32 bytes
    rule(
        "azure_credential",
        "primary secondary",
        r"(?i)(?:primary|secondary)(?:[ \t]+access)?[ \t]+key[ \t]*:?[ \t]*(?:\r?\n[ \t]*)?("
        + AZURE_KEY
        + ")"
        + E,
        not_after="",
        check=lambda value: random_with_digit(value),
    ),
]
