"""Trading, banking and payments: exchanges' keys (Kraken's key file, Adyen's API key and HMAC
key), Up's personal access token, Alpha Vantage's key, hummingbot's prompts and password flag,
and a bank login's PIN as people choose one.
"""

from __future__ import annotations

import re

from pica.stages.secrets.rules import E, Rule, has_digit, literal_password, rule
from pica.stages.secrets.shapes import QUOTED_OR_BARE


def chosen_pin(value: str) -> bool:
    """An online-banking PIN chosen like a password (`Rhein2019!Kiel`): 8 or more characters with
    letters, digits and a sign or both cases; not a pin's number or name (`GPIO5`, `D4`, `1234`), nor
    a pinned version."""
    return (
        len(value) >= 8
        and "/" not in value  # (Renovate's `Pin: actions/checkout@<sha>`)
        and has_digit(value)
        and re.search(r"[A-Za-z]", value) is not None
        and (re.search(r"[^\w\s]", value) is not None or (value.lower() != value and value.upper() != value))
        and literal_password(value)
    )


FINANCE: list[Rule] = [
    # Kraken's private key: base64 of 64 bytes, 88 characters (docs.kraken.com, "Authentication");
    # krakenex's key file holds the key on its first line, this on its second
    rule(
        "exchange_api_secret",
        "kraken eapi:",
        r"(?<![A-Za-z0-9+/])([A-Za-z0-9+/]{86}==)(?![A-Za-z0-9+/=])",
        not_after="",
        check=lambda value: has_digit(value) and re.search(r"[+/]", value) is not None,
    ),
    # Adyen's API key, `AQE…` in three parts joined by `-` (docs.adyen.com, "API credentials")
    rule(
        "exchange_api_secret",
        "aqe",
        r"AQE[A-Za-z0-9+/]{30,}={0,2}-[A-Za-z0-9+/]{20,}={0,2}-[^\s\"',;]{8,}",
        not_after=r"\w",
    ),
    # Adyen's HMAC key for webhooks, 64 hex digits in capitals (docs.adyen.com, "Verify HMAC signatures")
    rule(
        "exchange_api_secret",
        "hmac",
        r"(?i)hmac(?:[_-]?key)?[\"']?[ \t]*[:=][ \t]*[\"']?([0-9a-f]{64})(?![0-9a-z])",
        not_after=r"\w",
        check=lambda value: value.isupper() and has_digit(value),
    ),
    # Up's personal access token, `up:yeah:…` (developer.up.com.au, "Authentication")
    rule("bank_api_token", "up:yeah:", r"up:yeah:[A-Za-z0-9]{64,200}" + E, not_after=r"\w"),
    # Alpha Vantage's key: 16 capitals and digits, in code that names the provider
    rule(
        "generic_api_key",
        "alpha_vantage alphavantage",
        r"(?i)(?:api_?key|key)[\"']?[ \t]*[=:][ \t]*[\"']?([a-z0-9]{16})(?![a-z0-9])",
        not_after=r"\w",
        check=lambda value: value.isupper() and has_digit(value),
    ),
    # hummingbot's prompts, `Enter your OKX passphrase >>> …`, and its `-p`/`--config-password`
    rule(
        "exchange_api_secret",
        "enter your",
        r"(?i)enter your[^\n>]{0,60}?(?:password|passphrase|secret(?: key)?|api key|private key)[^\n>]{0,20}"
        r">>>[ \t]*(\S[^\n]{2,300}?)[ \t]*(?:\r?\n|$)",
        not_after=r"\w",
        check=literal_password,
    ),
    rule(
        "generic_password",
        "hummingbot",
        r"hummingbot\w*(?:\.py)?\b[^\n]*?[ \t](?:-p|--config-password)[ \t]+" + QUOTED_OR_BARE,
        not_after="",
        check=literal_password,
    ),
    # A bank login's PIN (FinTS importers' `pin = "…"`, aqbanking's `--pin=…`)
    rule(
        "generic_password",
        "pin",
        r"(?i)pin[\"']?[ \t]*[=:][ \t]*[\"']?([^\s\"']{8,64})",
        not_after=r"\w",
        check=chosen_pin,
    ),
]
