"""Test automation: Robot Framework's variables and keywords, a TOTP seed handed to a test's code,
the `--key` of a cloud browser grid's tunnel or a test recorder (BrowserStack, LambdaTest, Cypress
Cloud, TestRail), a login given to an option as `user:password`, JMeter's and Postman's name and
value pairs, and Keycloak's credential representation.
"""

from __future__ import annotations

import re

from pica.stages.secrets import arguments, verify
from pica.stages.secrets.rules import LINE_END, Rule, literal_password, rule

BASE32 = r"[A-Z2-7]{16,64}"  # a TOTP seed (RFC 4648's alphabet, as authenticator apps take it)


def base32_seed(value: str) -> bool:
    """Base32 as a generator writes it, not a word in capitals: capitals and digits, no stand-in."""
    return (
        verify.has_digit(value) and re.search(r"[A-Z]", value) is not None and not verify.is_stand_in(value)
    )


QA_TOOLS: list[Rule] = [
    # Robot Framework: a variable table's `${PASSWORD}    value`, and the keywords that take one
    # (`Input Password    locator    value`, SSHLibrary's `Login    user    password`)
    rule(
        "generic_password",
        "${",
        r"(?i)\$\{\w*(?:password|passwd|pwd|pass|secret|token|api_?key)\w*\}(?:[ \t]{2,}|\t)"
        r"([^\s$]\S*(?: \S+)*)" + LINE_END,  # (one cell: `${pw}=    Generate Random String    16` is a call)
        near=r"(?:^|\n)[ \t]*",
        not_after="",
        # (not a locator, `${LOCATOR_PASSWORD}    id=login-password`)
        check=lambda value: (
            re.match(r"(?:id|css|xpath|name|link|class|dom|tag|//)[=:/]", value) is None
            and literal_password(value)
        ),
    ),
    rule(
        "generic_password",
        "input",
        r"(?i)input password(?:[ \t]{2,}|\t)\S+(?:[ \t]{2,}|\t)([^\s$][^\n]{2,200}?)" + LINE_END,
        near=r"(?:^|\n)[ \t]*",
        not_after="",
        check=literal_password,
    ),
    rule(
        "generic_password",
        "login",
        r"Login(?:[ \t]{2,}|\t)[^\s$]\S*(?:[ \t]{2,}|\t)([^\s$][^\n]{2,200}?)" + LINE_END,
        near=r"\n[ \t]+",
        not_after="",
        check=literal_password,
    ),
    # A TOTP seed handed to code: PyOTP's `pyotp.TOTP("…")`, otplib's `authenticator.generate('…')`,
    # Robot's `Get Otp    …`
    rule(
        "totp_seed",
        "pyotp authenticator totp otp oathtool",
        r"(?i)(?:pyotp\.[th]otp\(|authenticator\.generate\(|totp\.generate\(|get otp(?:[ \t]{2,}|\t)"
        r"|oathtool\b[^\n]*?[ \t]-b[ \t]+)"
        r"[ \t]*[\"']?(" + BASE32 + r")(?![A-Za-z0-9])",
        not_after="",
        check=base32_seed,
    ),
    # A tunnel's or a recorder's `--key …` (BrowserStackLocal, LambdaTest's LT, Cypress Cloud,
    # TestRail's CLI): machine-made, not a file or a name
    rule(
        "cli_credentials",
        "--key",
        r"--key[= ][\"']?([A-Za-z0-9_-]{16,600})(?![\w./-])",
        not_after=r"\w-",
        check=lambda value: arguments.machine_made(value) and not re.fullmatch(r"[0-9a-f]{1,40}", value),
    ),
    # A login handed to an option as `user:password`: Locust's `--web-auth`, Solr's `-credentials`,
    # Beats' and Fluent Bit's `cloud.auth` / `Cloud_Auth`
    rule(
        "cli_credentials",
        "--web-auth -credentials cloud.auth cloud_auth",
        r"(?i)(?:[ \t](?:--web-auth|-credentials)[= ]|cloud[._]auth[\"']?[ \t]*[:=]?[ \t]*)[\"']?"
        r"[\w.@\\-]{1,64}:([^\s\"'@]{3,200}?)[\"']?(?=\s|$)",
        not_after="",
        check=literal_password,
    ),
    # JMeter's arguments, a name then its value (`Argument.name` / `Argument.value`)
    rule(
        "generic_password",
        "argument.name",
        r"(?i)argument\.name\">[^<\n]*(?:pass|pwd|secret|token|key)[^<\n]*</stringprop>\s*(?:<[^\n]*\n\s*){0,3}?"
        r"<stringprop name=\"argument\.value\">([^<\n]{3,200})</stringprop>",
        not_after="",
        check=lambda value: (
            not value.startswith("${") and (literal_password(value) or arguments.machine_made(value))
        ),
    ),
    # Postman's API-key auth: `"apikey": [{"key": "value", "value": "…"}, …]`
    rule(
        "generic_api_key",
        "apikey",
        r"\"apikey\"\s*:\s*\[[^\]]{0,300}?\{\s*\"key\"\s*:\s*\"value\"\s*,\s*\"value\"\s*:\s*\"([^\"\n]{8,300})\"",
        not_after="",
        check=lambda value: not verify.is_stand_in(value) and "{{" not in value,
    ),
    # Keycloak's credential representation, `{"type": "password", "value": "…"}` (a realm's users)
    rule(
        "generic_password",
        '"type"',
        r"\"type\"\s*:\s*\"password\"\s*,\s*\"value\"\s*:\s*\"([^\"\n]{3,200})\"",
        not_after="",
        check=literal_password,
    ),
]
