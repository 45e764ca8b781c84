"""Network devices and their tools, beyond the IOS/Junos forms in rules.py: SNMP communities and
v3 passphrases as other tools take them (net-snmp's commands and `createUser`, check_snmp, pysnmp,
LibreNMS and Observium, Telegraf, PAN-OS, ASA hosts), IKE pre-shared keys in their other spellings
(Cisco IKEv2 keyrings, ASA, Junos `ascii-text`, PAN-OS, VyOS, Azure's CLI and PowerShell), AAA
servers' secrets on Junos and PAN-OS, Cisco's wireless controller, RANCID's `.cloginrc`,
Oxidized's router.db, NAPALM's driver, PAN-OS API keys, and WireGuard keys handed to commands.
"""

from __future__ import annotations

import re

from pica.stages.secrets import verify
from pica.stages.secrets.announced import typed
from pica.stages.secrets.rules import CLI_VALUE, LINE_END, E, Rule, literal_password, rule, shared_key
from pica.stages.secrets.shapes import QUOTED_OR_BARE


def community(value: str) -> bool:
    """An SNMP community chosen like a password (a digit or a sign in it), not a default's name."""
    return (
        value.lower() not in ("public", "private")
        and re.search(r"[\d!@#$%^&*+=~?]", value) is not None
        and literal_password(value)
    )


def wireguard_key(value: str) -> bool:
    """A WireGuard key: base64 of 32 bytes."""
    return len(value) == 44 and verify.random_enough(value)


NETWORK: list[Rule] = [
    # SNMP communities beyond `snmp-server community`: a host's (`snmp-server host H [community]
    # C version 2c`, `… version 2c C`), Junos' `set snmp community "C"`, PAN-OS'
    # `snmp-community-string C`, net-snmp's `-c C`, check_snmp's `-C C`, pysnmp's
    # `CommunityData('C'`, LibreNMS' `snmp.community.+ 'C'`, Observium's and LibreNMS' PHP
    # `['community'] = array("C")`, Telegraf's `community = "C"`, pfSense's `<rocommunity>`
    rule(
        "generic_password",
        "community version",
        r"(?i)(?:community(?:-string)?|version (?:1|2c))[ \t]+\"?([^\s\"{]{4,100})\"?"
        r"(?=[ \t]+(?:ro|rw|version|authorization|group|view|notify|traps?|informs?|bgp|config|\d+)\b"
        r"|[ \t]*[{;]|[ \t]*(?:\r?\n|$))",
        near=r"(?:snmp-server[ \t]+host[^\n]*|snmp[ \t]+|snmp-setting[^\n]*)",
        not_after=r"\w",
        check=community,
    ),
    rule(
        "generic_password",
        "snmp check_snmp",
        r"(?:snmp\w*|check_snmp)\b[^\n]*?[ \t]-[cCAX][ \t]+(?![\"']?\$)" + QUOTED_OR_BARE,
        not_after="",
        check=lambda value: not value.startswith("$") and community(value),
    ),
    rule(
        "generic_password",
        "communitydata( community",
        r"(?i)(?:communitydata\(\s*|community['\"]\]\s*=\s*array\(\s*|snmp\.community\.\+?[ \t]+"
        r"|community[\"']?[ \t]*[:=][ \t]*)[\"']([^\"'\n]{4,100})[\"']",
        not_after=r"\w",
        check=community,
    ),
    # SNMPv3 users: Cisco's `snmp-server user U G v3 auth sha P [priv aes 128 P]`, net-snmp's
    # `createUser U SHA "P" [AES "P"]`
    rule(
        "generic_password",
        "v3",
        r"(?i)v3[ \t]+auth[ \t]+(?:md5|sha\d*)[ \t]+\"?([^\s\"]{6,100})\"?",
        not_after=r"\w",
        check=shared_key,
    ),
    rule(
        "generic_password",
        "createuser",
        r"createUser[ \t]+\S+[ \t]+(?:MD5|SHA\S*)[ \t]+\"?([^\s\"]{6,100})\"?",
        not_after=r"\w",
        check=shared_key,
    ),
    # IKE pre-shared keys: Cisco IKEv2's `pre-shared-key [local|remote] [0] K` and `pre-share key K`,
    # ASA's `pre-share-key K`, Junos' `pre-shared-key ascii-text "K"`, PAN-OS' `pre-shared-key key K`,
    # VyOS' `psk NAME secret 'K'`, Azure's `--shared-key "K"` and `-SharedKey 'K'` (not Junos' `$9$`)
    rule(
        "generic_password",
        "pre-shared-key pre-share",
        r"(?i)pre-share(?:d?-key|[ \t]+key)(?:[ \t]+(?:ascii-text|local|remote|key|0))*"
        r"(?:[ \t]+|=)(?!(?:ascii-text|hexadecimal|local|remote|key)\b)\"?([^\s\"(<\[{][^\s\"]{5,199})\"?",
        not_after=r"\w",
        check=lambda value: not value.startswith("$") and shared_key(value),
    ),
    rule(
        "generic_password",
        "psk shared-key sharedkey",
        r"(?i)(?:psk[ \t]+\S+[ \t]+secret[ \t]+|-{1,2}shared-?key[ =])" + CLI_VALUE,
        not_after=r"\w",
        check=shared_key,
    ),
    # AAA servers' secrets on Junos (`radius-server A … secret "K"`, `tacplus-server A secret K`)
    # and PAN-OS (`server-profile radius P server S … secret K`); Cisco's `key 0 "K"`
    rule(
        "generic_password",
        "radius-server tacplus-server server-profile",
        r"(?i)(?:radius-server|tacplus-server|server-profile)\b[^\n]*?[ \t]secret[ \t]+"
        r"\"?([^\s\"]{4,200})\"?",
        not_after="",
        check=shared_key,
    ),
    rule(
        "generic_password",
        "key",
        r"(?i)key[ \t]+0[ \t]+\"([^\"\n]{3,200})\"",
        not_after=r"\w-",
        check=shared_key,
    ),
    # A `secret K` line of its own (FreeRADIUS' and radsecproxy's client blocks)
    rule(
        "generic_password",
        "secret",
        r"secret[ \t]+([^\s=\"'{}]\S{3,200})" + LINE_END,
        near=r"(?:^|\n)[ \t]*",
        not_after=r"\w",
        check=typed,  # (as people type passwords: not prose's `secret keys.`)
    ),
    # HPE ProCurve's `password manager|operator [user-name U] plaintext P`
    rule(
        "generic_password",
        "plaintext",
        r"(?i)password[ \t]+(?:manager|operator)[ \t]+(?:user-name[ \t]+\S+[ \t]+)?plaintext[ \t]+"
        r"(\S{4,200})",
        not_after=r"\w",
        check=shared_key,
    ),
    # Cisco IOS' `enable algorithm-type scrypt secret K` (clear text, hashed by the device) and
    # ASA's `passwd K` (the login password)
    rule(
        "generic_password",
        "algorithm-type",
        r"(?i)algorithm-type[ \t]+\w+[ \t]+secret[ \t]+([^\s$]\S{3,200})",
        not_after=r"\w",
    ),
    rule(
        "generic_password",
        "passwd",
        r"\)#[ \t]*passwd[ \t]+(\S{4,200})" + LINE_END,
        not_after="",
        check=literal_password,
    ),
    # Cisco's wireless controller: `config wlan security wpa akm psk set-key ascii K`, `config
    # radius auth add N IP PORT ascii K`, `config mgmtuser add U P read-only`
    rule(
        "generic_password",
        "set-key auth add mgmtuser",
        r"(?i)(?:set-key|auth[ \t]+add[ \t]+\d+[ \t]+\S+[ \t]+\d+)[ \t]+(?:ascii|hex)[ \t]+(\S{4,200})"
        r"|mgmtuser[ \t]+add[ \t]+\S+[ \t]+(\S{4,200})",
        not_after="",
        check=shared_key,
    ),
    # RANCID's .cloginrc, `add password <glob> {P} [{enable P}]`
    rule(
        "generic_password",
        "add password add enablepassword",
        r"add[ \t]+(?:password|enablepassword)[ \t]+\S+[ \t]+\{([^}\n]{3,200})\}",
        not_after=r"\w",
        check=literal_password,
    ),
    # Oxidized's router.db (`name:model:username:password`), below its name
    rule(
        "generic_password",
        "router.db",
        r"router\.db[^\n]*\r?\n(?:[^\n]*\r?\n){0,3}?[\w.-]+:\w+:[\w.-]+:([^\s:]{3,200})" + LINE_END,
        not_after="",
        check=literal_password,
    ),
    # NAPALM's `driver(host, user, password, …)` and Netmiko's `ConnectHandler(… password=…)` (keyed)
    rule(
        "generic_password",
        "driver(",
        r"driver\(\s*[\"'][^\"'\n]+[\"']\s*,\s*[\"'][^\"'\n]+[\"']\s*,\s*[\"']([^\"'\n]{3,200})[\"']",
        not_after=r"\w",
        check=literal_password,
    ),
    # PAN-OS API keys are base64 that starts `LUFRPT` (docs.paloaltonetworks.com, "Get your API key")
    rule("generic_api_key", "lufrpt", r"LUFRPT[A-Za-z0-9+/]{30,300}={0,2}" + E, not_after=r"\w"),
    # WireGuard keys handed to commands: `wg set wg0 private-key <(echo K)`, `echo "K" > …psk…`,
    # MikroTik's `private-key=\` continued on the next line, `:local wgKey "K"`
    rule(
        "generic_api_key",
        "private-key preshared-key",
        r"(?:private|preshared)-key[ \t]*(?:=[ \t]*\\?\r?\n[ \t]*|[ \t]+<\(echo[ \t]+)"
        r"\"?([A-Za-z0-9+/]{43}=)",
        not_after=r"\w",
        check=wireguard_key,
    ),
    rule(
        "generic_api_key",
        "echo",
        r"echo[ \t]+[\"']?([A-Za-z0-9+/]{43}=)[\"']?[ \t]*>[ \t]*[\w./~-]*(?:psk|private|privkey|key)",
        not_after=r"\w",
        check=wireguard_key,
    ),
    rule(
        "generic_api_key",
        ":local",
        r"(?i):local[ \t]+\w*key[ \t]+\"([A-Za-z0-9+/]{43}=)\"",
        not_after=r"\w",
        check=wireguard_key,
    ),
    # VoIP: FreeSWITCH's event socket, `ESLconnection(host, port, password)` and modesl's
    # `new esl.Connection(host, port, password, …)`; asterisk-manager's `AsteriskManager(port, host,
    # user, password, …)`; SIPp's `-ap`; a register string `user:password@host/ext`
    rule(
        "generic_password",
        "eslconnection( esl.connection(",
        r"(?i)esl\.?connection\(\s*[\"'][^\"'\n]+[\"']\s*,\s*[\"']?\d+[\"']?\s*,\s*[\"']([^\"'\n]{3,200})[\"']",
        not_after=r"\w",
        check=literal_password,
    ),
    rule(
        "generic_password",
        "asteriskmanager(",
        r"AsteriskManager\(\s*[\"']?\d+[\"']?\s*,\s*[\"'][^\"'\n]+[\"']\s*,\s*[\"'][^\"'\n]+[\"']\s*,\s*"
        r"[\"']([^\"'\n]{3,200})[\"']",
        not_after=r"\w",
        check=literal_password,
    ),
    rule(
        "generic_password",
        "sipp",
        r"sipp\b[^\n]*?[ \t]-ap[ \t]+" + QUOTED_OR_BARE,
        not_after=r"\w",
        check=literal_password,
    ),
    rule(
        "generic_password",
        "register string",
        r"(?i)register string:[ \t]*[^:\s]+:([^@\s]{3,200})@",
        not_after="",
        check=literal_password,
    ),
    # LoRaWAN's 128-bit keys: `AppKey`, `NwkSKey`, `AppSKey` as 32 hex digits (a device's AT
    # commands `AT+KEY=APPKEY,"…"`, RN2483's `mac set nwkskey …`, a console's table)
    rule(
        "generic_api_key",
        "appkey nwkskey appskey",
        r"(?i)(?:app|nwks|apps)key[\"']?[ \t]*[:=, \t][ \t]*[\"']?([0-9a-f]{32})(?![0-9a-z])",
        not_after=r"\w",
        check=lambda value: value.isupper() or value.islower(),
    ),
    # Telnyx's API v2 keys, `KEY` + 32 hex + `_` + 22 (telnyx.com, "API keys")
    rule("generic_api_key", "key", r"KEY[0-9A-F]{32}_[A-Za-z0-9]{20,30}(?![\w-])", not_after=r"\w"),
    # EMQX's `emqx ctl admins passwd <user> <password>`
    rule(
        "cli_credentials",
        "admins passwd",
        r"admins[ \t]+passwd[ \t]+\S+[ \t]+" + QUOTED_OR_BARE,
        not_after=r"\w",
        check=literal_password,
    ),
]
