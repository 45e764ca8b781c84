"""Office devices, building systems and access control: SNMP communities and v3 phrases under any
name, a printer's Wi-Fi key on its configuration page, Zebra's `setvar`, NUT's `MONITOR` line, APC's
and Crestron's consoles, Synology's `synouser`, MIFARE and DESFire keys, OSDP's secure channel key.
Each form is written from the device's or the protocol's manual.
"""

from __future__ import annotations

import re

from pica.stages.secrets import verify
from pica.stages.secrets.rules import CLI_VALUE, LINE_END, Rule, literal_password, rule

# MIFARE Classic's keys that every reader knows (NXP's transport key, NFC Forum's): public
DEFAULT_MIFARE_KEYS = frozenset(
    ("FFFFFFFFFFFF", "A0A1A2A3A4A5", "D3F7D3F7D3F7", "000000000000", "B0B1B2B3B4B5")
)


def random_hex_key(value: str) -> bool:
    """A key in hex that is not a run of one digit nor a well-known default."""
    return value.upper() not in DEFAULT_MIFARE_KEYS and verify.random_enough(value, 2.5)


DEVICES: list[Rule] = [
    # An SNMP community under any name (`community = …`, `Access1Community=…`, `write_community:`,
    # `Read community: …`): a password for the device
    rule(
        "generic_password",
        "community",
        r"(?i)community\w*[\"']?[ \t]*[:=][ \t]*[\"']?([^\s\"'#,;]{4,100})",
        not_after="",
        # (not `${UPS_COMMUNITY:?…}` read from the environment, nor a remark, `(set)`)
        # (nor a variable or a call, `community = nx.community.…`, nor a count, `"community":2451`)
        check=lambda value: (
            value[0].isalnum()
            and len(value) >= 6
            and re.search(r"[A-Za-z]", value) is not None
            and "community" not in value.lower()
            and "(" not in value
            and literal_password(value)
            and value.lower() not in ("public", "private")
        ),
    ),
    # SNMPv3's phrases (`User1AuthPhrase=…`, Zabbix's `{$SNMPV3.AUTHPASS} = …`)
    rule(
        "generic_password",
        "authphrase privphrase authpass privpass",
        r"(?i)(?:auth|priv)(?:phrase|pass(?:phrase)?)\}?[\"']?[ \t]*[:=][ \t]*[\"']?([^\s\"'#]{4,100})",
        not_after="",
        check=literal_password,
    ),
    # A printer's or a device's Wi-Fi key on its configuration page (`Network Key : …`,
    # `WPA/WPA2-PSK  …`)
    rule(
        "generic_password",
        "network key psk pre-shared",
        r"(?i)(?:network[ \t]+key|wpa2?(?:/wpa2)?[ \t-]*psk|pre-?shared[ \t]+key|wlan[ \t]+key)"
        r"[ \t]*(?::|\.{2,}|[ \t]{2,})[ \t]*([^\s]{8,63})" + LINE_END,
        not_after="",
        check=lambda value: not value.startswith(("(", "<", "[", "{", "$")) and literal_password(value),
    ),
    # Zebra's Set-Get-Do: `! U1 setvar "wlan.wpa.psk" "…"`, `"wlan.password" "…"`
    rule(
        "generic_password",
        "setvar",
        r"(?i)setvar[ \t]+\"[\w.]*(?:psk|password|passwd|pass|key)[\w.]*\"[ \t]+\"([^\"\n]{4,200})\"",
        not_after="",
        check=lambda value: literal_password(value) or verify.random_enough(value),
    ),
    # NUT's upsmon.conf: `MONITOR ups@host power user password primary|secondary|master|slave`
    rule(
        "generic_password",
        "monitor",
        r"MONITOR[ \t]+\S+@\S+[ \t]+\d+[ \t]+\S+[ \t]+(\S{3,100})[ \t]+(?:primary|secondary|master|slave)\b",
        not_after="",
        check=literal_password,
    ),
    # APC's NMC console: `user -n <name> -cp <current password> -pw <new>`
    rule(
        "cli_credentials",
        "-cp",
        r"(?i)user[ \t]+-n[ \t]+\S+[^\n]*?[ \t]-(?:cp|pw)[ \t]+" + CLI_VALUE,
        not_after="",
        check=literal_password,
    ),
    # Crestron's console: `ADDUSER -N:<name> -P:<password>`
    rule(
        "cli_credentials",
        "adduser",
        r"(?i)adduser[ \t]+-n:\S+[ \t]+-p:(\S{3,100})",
        not_after="",
        check=literal_password,
    ),
    # Synology's `synouser --add <name> <password> …`, `--setpw <name> <password>`
    rule(
        "cli_credentials",
        "synouser",
        r"(?i)synouser[ \t]+--(?:add|setpw)[ \t]+\S+[ \t]+" + CLI_VALUE,
        not_after="",
        check=literal_password,
    ),
    # MIFARE Classic's sector keys (12 hex digits) and a reader's key given to Proxmark3
    rule(
        "private_key",
        "key_a key_b keya keyb",
        r"(?i)key_?[ab][\"']?[ \t]*[:=][ \t]*[\"']?([0-9a-f]{12})(?![0-9a-f])",
        not_after=r"\w",
        check=random_hex_key,
    ),
    rule(
        "private_key",
        "hf ",
        r"(?i)hf[ \t]+\w+[ \t]+\w+[^\n]*?[ \t]--?k(?:ey)?[ \t]+([0-9a-f]{12,64})(?![0-9a-f])",
        not_after="",
        check=random_hex_key,
    ),
    # OSDP's secure channel base key (`scbk`), 16 bytes in hex
    rule(
        "private_key",
        "scbk",
        r"(?i)scbk\w*[\"']?[ \t]*[:=][ \t]*[\"']?([0-9a-f]{32})(?![0-9a-f])",
        not_after="",
        check=random_hex_key,
    ),
    # A password element whose value has spaces (an app password's four groups, a passphrase)
    rule(
        "generic_password",
        "password>",
        r"(?i)<(\w*password)>(?P<secret>[^<\n]*[ \t][^<\n]*)</\1>",
        not_after="",
        check=lambda value: bool(re.fullmatch(r"[a-z]{4}(?: [a-z]{4}){3}", value)) or literal_password(value),
    ),
]
