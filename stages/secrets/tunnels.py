"""DNS updates, VPN meshes and tunnels: FreeDNS' update URLs, a TSIG key given to `nsupdate -y` or
to dnspython, Tailscale's and Headscale's `--authkey`, NetBird's `--setup-key`, frp's `-t`, a
ZeroTier identity's secret half, and OpenWrt's `option private_key '…'`.
"""

from __future__ import annotations

from pica.stages.secrets.rules import (
    CLI_VALUE,
    Rule,
    literal_password,
    random_or_typed,
    random_with_digit,
    rule,
)

TUNNELS: list[Rule] = [
    # FreeDNS (afraid.org): `sync.afraid.org/u/<token>/` and `dynamic/update.php?<token>`
    rule(
        "generic_api_key",
        "",
        r"afraid\.org/(?:u/|dynamic/update\.php\?)([A-Za-z0-9=_-]{16,100})",
        not_after="",
        check=random_with_digit,
    ),
    # A TSIG key: `nsupdate -y [alg:]name:secret`, `dig -y …` (BIND 9's manual), dnspython's
    # `tsigkeyring.from_text({"name.": "secret"})`
    rule(
        "private_key",
        "-y",
        r"-y[ \t]+(?:hmac-[\w-]+:)?[\w.-]+:([A-Za-z0-9+/]{16,200}={0,2})",
        not_after=r"\w-",
        check=random_with_digit,
    ),
    rule(
        "private_key",
        "tsigkeyring",
        r"(?i)tsigkeyring\.from_text\(\s*\{\s*[\"'][\w.-]+[\"']\s*:\s*[\"']([A-Za-z0-9+/]{16,200}={0,2})[\"']",
        not_after="",
    ),
    # Tailscale's and Headscale's pre-auth key, NetBird's setup key, given to the client
    rule(
        "cli_credentials",
        "--authkey --auth-key --setup-key",
        r"(?i)--(?:auth-?key|setup-key)[= ][\"']?([A-Za-z0-9_-]{16,200})",
        not_after=r"\w-",
        check=lambda value: not value.startswith("file:") and random_with_digit(value),
    ),
    # frp's client: `frpc … -t <token>`
    rule(
        "cli_credentials",
        "frpc",
        r"frpc\b[^\n]*?[ \t]-t[ \t]+" + CLI_VALUE,
        not_after="",
        check=literal_password,
    ),
    # A ZeroTier identity: `<address>:0:<public key>:<private key>` (identity.secret)
    rule("private_key", ":0:", r":0:[0-9a-f]{128}:([0-9a-f]{128})\b", near=r"\b[0-9a-f]{10}", not_after=""),
    # OpenWrt's UCI: `option private_key '…'`, `option password '…'`, `option key '…'`
    rule(
        "generic_password",
        "option",
        r"(?i)option[ \t]+(?!\w*public)\w*(?:private_key|password|passwd|secret|psk|key)[ \t]+"
        r"'([^'\n]{4,200})'",
        not_after="",
        check=random_or_typed,
    ),
]
