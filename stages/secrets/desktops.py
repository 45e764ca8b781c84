"""Desktops' stores and settings: macOS' keychain command and `defaults`, NetworkManager,
wpa_supplicant, netsh, the Windows registry, FileZilla Server, PowerShell's SecureString, and what
`secret-tool lookup`, `keepassxc-cli generate` and `gpp-decrypt` print.
"""

from __future__ import annotations

import re

from pica.stages.secrets.rules import (
    LINE_END,
    OUTPUT_LEAD,
    Rule,
    literal_password,
    rule,
)
from pica.stages.secrets.shapes import (
    QUOTED_OR_BARE,
)

DESKTOPS: list[Rule] = [
    # Desktops' stores and settings: macOS' `security add-…-password … -w '…'` and `defaults write
    # … …Password -string '…'`, NetworkManager's `nmcli … wifi-sec.psk '…'`, wpa_supplicant's
    # `set_network N psk "…"` and ifupdown's `wpa-psk "…"`, netsh's `keyMaterial="…"`, the registry's
    # `…Password  REG_SZ  …` and `Set-ItemProperty … "…Password" -Value "…"`, FileZilla Server's
    # `<Option Name="Pass">`, a literal piped into `ConvertTo-SecureString -AsPlainText`
    rule(
        "cli_credentials",
        "add-generic-password add-internet-password",
        r"security[ \t]+add-(?:generic|internet)-password\b[^\n]*?[ \t]-w[ \t]+" + QUOTED_OR_BARE,
        not_after="",
        check=literal_password,
    ),
    rule(
        "cli_credentials",
        "defaults write",
        r"(?i)defaults[ \t]+write[ \t]+\S+[ \t]+\w*(?:password|secret|token|apikey)\w*[ \t]+"
        r"(?:-string[ \t]+)?" + QUOTED_OR_BARE,
        not_after="",
        check=literal_password,
    ),
    rule(
        "cli_credentials",
        "wifi-sec.psk 802-1x.password vpn.secrets",
        r"(?:wifi-sec\.psk|802-1x\.password|vpn\.secrets\.[\w.-]+)[ \t]+" + QUOTED_OR_BARE,
        not_after="",
        check=literal_password,
    ),
    rule(
        "generic_password",
        "psk",
        r"(?:wpa-psk|set_network[ \t]+\d+[ \t]+psk)[ \t]+'?\"([^\"\n]{8,63})\"",  # (wpa_cli's `'"…"'`)
        not_after="",
        check=literal_password,
    ),
    rule("generic_password", "keymaterial", r"(?i)keymaterial=[\"']?([^\"'\s]{8,63})", not_after=""),
    rule(
        "generic_password",
        "reg_sz",
        r"(?i)\w*(?:password|secret|token|accountkey|apikey)\w*[ \t]+REG_SZ[ \t]+(\S[^\n]{2,200}?)"
        + LINE_END,
        not_after="",
        check=literal_password,
    ),
    rule(
        "generic_password",
        "set-itemproperty",
        r"(?i)set-itemproperty\b[^\n]*?[\"']?\w*(?:password|secret|token)\w*[\"']?[ \t]+-value[ \t]+"
        + QUOTED_OR_BARE,
        not_after="",
        check=literal_password,
    ),
    rule(
        "generic_password",
        'name="pass"',
        r'(?i)<option name="pass(?:word)?">([^<\n]{3,200})</option>',
        not_after="",
        check=literal_password,
    ),
    rule(
        "generic_password",
        "convertto-securestring",
        r"(?i)[\"']([^\"'\n]{3,200})[\"'][ \t]*\|[ \t]*convertto-securestring\b[^\n]*-asplaintext",
        not_after="",
        check=literal_password,
    ),
    # What a command prints when asked for one secret: `secret-tool lookup …`, `gpp-decrypt …`,
    # `keepassxc-cli generate`
    rule(
        "generic_password",
        "",
        r"(?:secret-tool[ \t]+lookup|gpp-decrypt|keepassxc-cli[ \t]+generate)\b[^\n|>]*\r?\n"
        + OUTPUT_LEAD
        + r"([^\s$#>][^\s]{5,200})"
        + LINE_END,
        not_after="",
        # not `exit=1`, nor a YAML key (`repositories:`: the command was a config's value)
        check=lambda value: literal_password(value) and re.match(r"\w+=|[\w-]+:$", value) is None,
    ),
]
