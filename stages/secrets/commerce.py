"""Shops, CRMs and their plugins: an SDK built from a store's URL and its key (PrestaShop's
webservice, ActiveCampaign), Salesforce's numeric consumer secrets, Magento's crypt key,
WordPress' application passwords and the secrets in its PHP-serialized options.
"""

from __future__ import annotations

import re

from pica.stages.secrets import verify
from pica.stages.secrets.rules import Rule, has_digit, literal_password, random_with_digit, rule

# Lengths of the hex digests a URL is often passed with (MD5, SHA-1, SHA-224, SHA-256, SHA-384, SHA-512)
DIGEST_LENGTHS = frozenset((32, 40, 56, 64, 96, 128))


def key_after_url(value: str) -> bool:
    """A machine-made key, not a checksum given with the URL it is for, nor a key made to be public
    (Supabase's `sb_publishable_…`, a `pk_…`)."""
    digest = re.fullmatch(r"[0-9a-fA-F]+", value) is not None and len(value) in DIGEST_LENGTHS
    public = re.match(r"(?i)pk_|sb_publishable_|.*public", value) is not None
    return random_with_digit(value) and not digest and not public


COMMERCE: list[Rule] = [
    # An SDK built from the store's URL and its key, `new PrestaShopWebservice('https://…', '…')`,
    # `new ActiveCampaign('https://….api-us1.com', '…')`, prestapyt's `PrestaShopWebServiceDict(…)`
    rule(
        "generic_api_key",
        "('http (\"http",
        r"\([\"']https?://[^\"'\s]+[\"'][ \t]*,[ \t]*[\"']([A-Za-z0-9_-]{24,200})[\"']",
        not_after="",
        near=r"[a-z]\w*",  # a class's or a function's name right before
        check=key_after_url,
    ),
    # Salesforce's connected apps made before 2018 have numeric consumer secrets (help.salesforce.com)
    rule(
        "generic_api_key",
        "consumer secret",
        r"(?i)consumer[ _]secret[\"']?[ \t]*[:=][ \t]*[\"']?(\d{16,20})(?!\d)",
        not_after=r"\w",
    ),
    # Magento's crypt key, 32 hex digits (`app/etc/env.php`'s `'crypt' => ['key' => …]`, in notes)
    rule(
        "generic_api_key",
        "crypt",
        r"(?i)crypt[^\n]{0,40}?key[^\n]{0,60}?[:=][ \t]*[\"']?([0-9a-f]{32})(?![0-9a-z])",
        not_after=r"\w",
    ),
    # WordPress' application password, six groups of four shown once (make.wordpress.org,
    # "Application Passwords: Integration Guide")
    rule(
        "generic_password",
        "application password application_password app_password app-password",
        r"(?i)app(?:lication)?[ _-]password(?s:.){0,200}?(?<![\w ])"
        r"([a-z0-9]{4}(?: [a-z0-9]{4}){5})(?![\w ])",
        not_after="",
        check=lambda value: has_digit(value) and value.lower() != value and verify.typed_runs(value) < 2,
    ),
    # A secret in PHP's serialized form, `s:8:"password";s:16:"…"` (WordPress' options, php.net serialize)
    rule(
        "generic_password",
        "s:",
        r"(?i)s:\d+:\"[\w-]*(?:pass|password|passwd|secret|token|api_?key)\";s:\d+:\"([^\"\n]{3,200})\"",
        not_after=r"\w",
        check=literal_password,
    ),
]
