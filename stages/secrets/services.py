"""Web services' own key formats and the places consoles show them (sets 79 to 86: cloud consoles,
research computing, healthcare, media and publishing, developer laptops): Ghost's Admin API key,
WordPress' application password, Bitrix24's and IFTTT's webhook URLs, Bunny's storage key,
express-session's signed cookie, a connection URL percent-encoded into another URL's query, a
console's `NAME    value` table row or a Markdown one, an Azure key under "Primary key" or after
its name, .NET's `Section:Password` keys, log4net's `<password value=…>` and WLST's `set(…)`.
"""

from __future__ import annotations

import re
import urllib.parse

from pica.stages.secrets import verify
from pica.stages.secrets.rules import (
    CLI_VALUE,
    LINE_END,
    E,
    Rule,
    literal_password,
    random_or_typed,
    random_with_digit,
    rule,
)

# Azure's account and access keys are 32 or 64 random bytes in base64 (44 or 88 characters)
AZURE_KEY = r"[A-Za-z0-9+/]{43}=|[A-Za-z0-9+/]{86}=="


def generated_password(value: str) -> bool:
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
        r":[0-9a-f]{64}(?![0-9a-fA-F])",  # (led by the colon; the id is grown back)
        grow=r"(?<![0-9a-fA-F:])[0-9a-f]{24}",
        not_after="",
    ),
    # WordPress' application password: 24 letters and digits shown in six groups of four
    # (make.wordpress.org/core/2020/11/05/application-passwords-integration-guide)
    rule(
        "generic_password",
        "wordpress wp-json wp_ application_password application-password",
        r"(?<![\w ])([A-Za-z0-9]{4}(?: [A-Za-z0-9]{4}){5})(?![\w]| \w)",
        not_after="",
        check=generated_password,
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
        "bunny",
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
        r"://[\w.%-]{0,64}:([A-Za-z0-9+/_-]{20,200}={0,2})@[\w-]+\.[\w.-]+",
        not_after="",
        check=lambda value: "/" in value and random_with_digit(value),
    ),
    # A console's variables table, columns aligned with spaces: `AWS_SECRET_ACCESS_KEY    wJal…
    # env` (Terraform Cloud), `CLOUDFLARE_API_TOKEN     Plain     fO1Y…` (Spacelift)
    rule(
        "generic_api_key",
        "secret token password passwd api_key apikey access_key private_key",
        r"(?i)_(?:secret|token|password|passwd|api_key|apikey|access_key|private_key|secret_key|auth_token)"
        r"(?:[ \t]{2,}|\t)(?:(?:plain|secret|sensitive|env|terraform|string|encrypted|plaintext)[ \t]{2,})?"
        r"([^\s]{12,200})(?=[ \t]{2,}|\t|[ \t]*$|[ \t]*\n)",
        near=r"(?:^|\n)[ \t]*[a-z][a-z0-9]*(?:_[a-z0-9]+)*",  # (the name's start, at its line's)
        not_after="",
        # (not a short hex digest: `fly secrets list` prints each secret's)
        check=lambda value: (
            random_with_digit(value)
            and not verify.is_stand_in(value)
            and not re.fullmatch(r"[0-9a-f]{1,31}", value)
        ),
    ),
    # A table row naming a secret in its first cell and holding it in the next (GitLab's CI/CD
    # variables as a Markdown table, a wiki's list of environment variables)
    rule(
        "generic_api_key",
        "|",
        r"\|[ \t]*`?[A-Z][A-Z0-9_]*(?:KEY|SECRET|TOKEN|PASSWORD|PASSWD|PWD|PASS)[A-Z0-9_]*`?[ \t]*\|"
        r"[ \t]*`?([^|`\s]{8,200})`?[ \t]*\|",
        near=r"(?:^|\n)",  # (a row's first cell)
        not_after="",
        check=lambda value: random_or_typed(value) and not verify.is_stand_in(value),
    ),
    # .NET's configuration keys, sections joined by `:` (`"Smtp:Password": "…"` in appsettings.json
    # or secrets.json), and `dotnet user-secrets set "Section:Key" "…"`
    rule(
        "generic_password",
        ':password" :pwd" secret" apikey" api_key" :key" :token" user-secrets',
        r"(?i)(?:user-secrets[ \t]+set[ \t]+)?\"(?:[\w.-]+:)+\w*"
        r"(?:password|pwd|secret|apikey|api_key|key|token)\"(?:[ \t]*:[ \t]*|[ \t]+)\"([^\"\n]{6,300})\"",
        not_after="",
        check=lambda value: random_or_typed(value) and not verify.is_stand_in(value),
    ),
    # An Azure account key after its name and a space (a properties file, a tool's listing)
    rule(
        "azure_credential",
        "accountkey account_key",
        r"(?i)account_?key[\"']?[ \t]+[\"']?(" + AZURE_KEY + ")" + E,
        not_after="",
        check=random_with_digit,
    ),
    # log4net's and NLog's `<password value="…" />`
    rule(
        "generic_password",
        "<password <smtppassword",
        r"(?i)<\w*password[ \t]+value=\"([^\"\n]{3,200})\"[ \t]*/>",
        not_after="",
        check=literal_password,
    ),
    # WebLogic's WLST: `set('PasswordEncrypted', '…')` (the value is given in clear, encrypted on save)
    rule(
        "generic_password",
        "set(",
        r"(?i)\bset\([ \t]*['\"]\w*password\w*['\"][ \t]*,[ \t]*['\"]([^'\"\n]{3,200})['\"][ \t]*\)",
        not_after="",
        check=literal_password,
    ),
    # ECMWF's and Copernicus' `.cdsapirc`: `key: <user id>:<API key, a UUID>`
    rule(
        "generic_api_key",
        "key:",
        r"(?im)^key:[ \t]*(\d{3,9}:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})",
        not_after="",
    ),
    # GDAL's `--config <option> <value>` for a secret's option (`AWS_SECRET_ACCESS_KEY`)
    rule(
        "cli_credentials",
        "--config",
        r"(?i)--config[ \t]+\w*(?:secret|password|passwd|token|key)\w*[ \t]+" + CLI_VALUE,
        not_after="",
        check=random_or_typed,
    ),
    # Oracle's `user/password@service` in a MapServer CONNECTION or an OGR `OCI:` name
    rule(
        "db_connection_string",
        "connection oci:",
        r"(?i)(?:connection[ \t]+\"|oci:)[\w$#]+/([^\s/@\"']{3,100})@[\w.:/-]+",
        not_after="",
        check=literal_password,
    ),
    # Convex's deploy key: `<kind>:<deployment>|<base64 JSON>` (docs.convex.dev, "Deploy keys")
    rule(
        "generic_api_key",
        "|eyj2mii6",
        r"(?:prod|preview|dev|project):[\w:-]{3,100}\|eyJ2MiI6[A-Za-z0-9+/=_-]{20,400}",
        not_after=r"\w",
    ),
    # Lambda Cloud's API key: `secret_<name>_<32 hex>.<32 random>`
    rule(
        "generic_api_key", "secret_", r"secret_[\w-]{1,64}_[0-9a-f]{32}\.[A-Za-z0-9]{32}" + E, not_after=r"\w"
    ),
    # Microsoft Teams' incoming webhook: `…webhook.office.com/webhookb2/<ids>/IncomingWebhook/<32 hex>/…`
    rule(
        "generic_api_key",
        "",
        r"webhook\.office\.com/webhookb2/[\w@-]+/IncomingWebhook/([0-9a-f]{32})/",
        not_after="",
    ),
    # Trello's API token: `ATTA`, 64 hex, an 8-hex checksum in capitals
    rule("generic_api_key", "", r"ATTA[0-9a-f]{64}[0-9A-F]{8}" + E, not_after=r"\w"),
    # Basic credentials written unencoded with a space (REST Client's `Basic user password`)
    rule(
        "http_auth_header",
        "basic",
        r"(?i)authorization:[ \t]*basic[ \t]+[\w.@-]{1,64}[ \t]+(\S{6,200})" + LINE_END,
        not_after="",
        check=random_or_typed,
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
