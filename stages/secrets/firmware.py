"""Firmware and device fleets: Kconfig's `string "… password"` / `default "…"` and menuconfig's
`(value) … Password`, Yocto's `EXTRA_USERS_PARAMS` (`useradd -P …`), U-Boot's `fw_setenv`, a macro
defined on a build's command line (`-D WIFI_PASS=…`), a key as a C byte array, AOSP's password
file (`[[[ … ]]] key`), Zephyr's shell (`wifi connect … -p`, `settings set …/psk …`), the nRF modem's
`AT%CMNG`, LwM2M's security key, espota's `-a`, and Spring's `{noop}` password.
"""

from __future__ import annotations

import re

from pica.stages.secrets import verify
from pica.stages.secrets.keyed import keyed_value_is_secret
from pica.stages.secrets.rules import (
    CLI_VALUE,
    Rule,
    literal_password,
    random_or_typed,
    random_with_digit,
    rule,
)

SECRET_NAME = r"\w*(?:pass|pwd|psk|secret|token|key)\w*"  # (matched on lowercased text)


def byte_array_key(array: str) -> bool:
    """A key written as C bytes (`0x57, 0xCC, …`): random, not zeros or a counting run."""
    octets = re.findall(r"0x([0-9a-fA-F]{2})", array)
    return len(set(octets)) >= len(octets) // 2 and verify.random_enough("".join(octets), 2.5)


FIRMWARE: list[Rule] = [
    # Kconfig: a prompt naming a password, then its default
    rule(
        "generic_password",
        "default",
        r"(?i)string[ \t]+\"[^\"\n]*(?:password|passphrase|psk|secret|api key|token)[^\"\n]*\"[ \t]*\r?\n"
        r"(?:[ \t]*(?:depends|help|range)[^\n]*\r?\n)?[ \t]*default[ \t]+\"([^\"\n]{3,200})\"",
        not_after="",
        check=literal_password,
    ),
    # menuconfig's screen: `(value) WiFi Password`
    rule(
        "generic_password",
        "password passphrase psk",
        r"(?i)\(([^()\n]{3,100})\)[ \t]+[^\n()]*?\b(?:password|passphrase|psk)\b[ \t]*(?=\r?\n|$)",
        near=r"(?:^|\n)[ \t]*",
        not_after="",
        check=literal_password,
    ),
    # Yocto's extrausers class: `useradd -P '…' name`, `usermod -P … root` (-P is the clear text);
    # PetaLinux's `CONFIG_ADD_EXTRA_USERS="root:…;"`
    rule(
        "generic_password",
        "useradd usermod",
        r"(?i)(?:useradd|usermod)\b[^\n;\"]*?[ \t]-P[ \t]+" + CLI_VALUE,
        not_after="",
        check=literal_password,
    ),
    rule(
        "generic_password",
        "extra_users",
        r"(?i)extra_users=\"[\w-]+:([^;:\"\n]{3,100});",
        not_after="",
        check=literal_password,
    ),
    # U-Boot's environment set from Linux, `fw_setenv <name> <value>`, and its autoboot password
    rule(
        "generic_password",
        "fw_setenv setenv",
        r"(?i)setenv[ \t]+" + SECRET_NAME + r"[ \t]+" + CLI_VALUE,
        not_after="",
        check=random_or_typed,
    ),
    rule(
        "generic_password",
        "autoboot_stop_str autoboot_password",
        r"(?i)autoboot_(?:stop_str|password)\w*[ \t]*=[ \t]*\"([^\"\n]{3,100})\"",
        not_after="",
        check=literal_password,
    ),
    # A macro defined on a build's command line: `-D WIFI_PASS='"…"'`, `-DAPI_KEY=\"…\"`
    rule(
        "generic_password",
        "-d",
        r"(?i)-D[ \t]*" + SECRET_NAME + r"=\\?['\"]?\\?\"?([^\s\"'\\]{4,200})",
        not_after=r"\w-",
        check=random_or_typed,
    ),
    # A key as C bytes after its name (LoRaWAN's AppKey, a TLS PSK, Zigbee's network key)
    rule(
        "private_key",
        "app_key appkey nwk_key nwkkey network_key networkkey psk secret private_key aes_key",
        r"(?i)(?:app_?key|nwk_?key|network_?key|psk|secret|private_?key|aes_?key)\w*[ \t]*(?:\[\w*\][ \t]*)?"
        r"(?:=[ \t]*)?[{\[][ \t\r\n]*((?:0x[0-9a-f]{2}[ \t]*,[ \t\r\n]*){15,63}0x[0-9a-f]{2})",
        not_after="",
        check=byte_array_key,
    ),
    # AOSP's key password file for sign_target_files_apks: `[[[ password ]]] path/to/key`
    rule(
        "generic_password",
        "[[[",
        r"\[\[\[[ \t]+(\S[^\]\n]{2,100}?)[ \t]+\]\]\][ \t]+[\w.-]*/",  # (then the key's path)
        not_after="",
        check=lambda value: "%s" not in value and literal_password(value),
    ),
    # Zephyr's shell: `wifi connect -s <ssid> -k 1 -p <psk>`, `wifi_cred add … -p …`,
    # `settings set golioth/psk …`
    rule(
        "cli_credentials",
        "wifi",
        r"(?i)wifi(?:_cred)?[ \t]+(?:connect|add)\b[^\n]*?[ \t]-p[ \t]+" + CLI_VALUE,
        not_after="",
        check=literal_password,
    ),
    rule(
        "generic_password",
        "settings set",
        r"(?i)settings[ \t]+set[ \t]+\S*(?:psk|password|secret|token)(?:[/\w-]*)?[ \t]+" + CLI_VALUE,
        not_after="",
        check=random_or_typed,
    ),
    # Nordic's modem: `AT%CMNG=0,<sec tag>,3,"<psk>"` (type 3 is a PSK); LwM2M's Security object,
    # resource 5 (the secret key)
    rule("private_key", "at%cmng", r"(?i)at%cmng=0,\d+,3,\"([0-9a-f]{8,128})\"", not_after=""),
    rule(
        "private_key",
        "lwm2m",
        r"(?i)lwm2m[ \t]+write[ \t]+0/\d+/5[ \t]+(?:-[bs][ \t]+)?([^\s\"']{8,200})",
        not_after="",
        check=random_with_digit,
    ),
    # espota's OTA password, `-a <password>` or `--auth=…` (PlatformIO's `upload_flags`)
    rule(
        "cli_credentials",
        "espota upload_flags",
        r"(?i)(?:espota\S*|upload_flags[ \t]*=)[^\n]*?[ \t](?:-a|--auth)[ =]" + CLI_VALUE,
        not_after="",
        check=literal_password,
    ),
    # Spring Security's `{noop}` prefix: the password that follows is stored in clear
    rule("generic_password", "{noop}", r"\{noop\}([^\s\"'<,;]{3,200})", not_after="", check=literal_password),
    # A token given to a login call (`balena.auth.login_with_token("…")`)
    rule(
        "generic_api_key",
        "login_with_token",
        r"(?i)login_with_token\(\s*[\"']([A-Za-z0-9_.-]{16,300})[\"']",
        not_after="",
        check=lambda value: keyed_value_is_secret("token", "=", value, '"'),
    ),
]
