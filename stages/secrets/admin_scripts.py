"""Scripts that log in for an administrator: expect and pexpect answering a password prompt, a
command's argument list in code (`["sshpass", "-p", "…"]`), Windows'
`/U user /P password` tools and WSH's MapNetworkDrive, Nagios' check_http, rsync's secrets file,
a passphrase of capitalised words in notes, BitLocker's recovery passwords, certutil's `-p`,
PowerShell's secret-named parameters given a literal, and an L2TP VPN's pre-shared key.
"""

from __future__ import annotations

from pica.stages.secrets.rules import CLI_VALUE, LINE_END, Rule, has_digit, literal_password, rule
from pica.stages.secrets.shapes import QUOTED_OR_BARE

ADMIN_SCRIPTS: list[Rule] = [
    # expect's and pexpect's answer to a password prompt: `expect "password:" { send "…\r" }`,
    # `expect "Password:"; send "…\r"`, `child.expect('password:')` then `child.sendline('…')`
    rule(
        "generic_password",
        "assword",
        r"(?i)assword:?[ \t]*[\"']\)?[ \t]*(?:\{[ \t]*|;[ \t]*|\r?\n[ \t]*)(?:\w+\.)?send(?:line)?"
        r"[ \t]*\(?[ \t]*[\"']([^\"'\n\\]{3,200})(?:\\r|\\n)?[\"']",
        not_after="",
        check=literal_password,
    ),
    # A command's arguments as a list in code: `["sshpass", "-p", "…"]` (`--password`'s: rules.py)
    rule(
        "cli_credentials",
        "sshpass",
        r"[\"']sshpass[\"']\s*,\s*[\"']-p[\"']\s*,\s*[\"']([^\"'\n]{3,200})[\"']",
        not_after="",
        check=literal_password,
    ),
    # Windows' tools with `/U user /P password` (schtasks, wmic, systeminfo, taskkill) or `-u:… -p:…`
    # (winrs)
    rule(
        "cli_credentials",
        "/u -u:",
        # (Windows' forms only: Unix's `-u user -p …` is the rule in rules.py, which knows MySQL's `-p`)
        r"(?i)(?:/u(?:ser(?:name)?)?[: ]|-u:)[ \t]*[^\s/]+[ \t]+(?:/p(?:assword|w|wd)?[: ]|-p:)[ \t]*"
        + QUOTED_OR_BARE,
        not_after=r"\w",
        check=lambda value: literal_password(value) and not value.startswith("/"),
    ),
    # WSH's `MapNetworkDrive "X:", "\\host\share", False, "user", "password"`
    rule(
        "generic_password",
        "mapnetworkdrive",
        r"(?i)mapnetworkdrive[ \t]*\(?[ \t]*\"[^\"\n]*\"[ \t]*,[ \t]*\"[^\"\n]*\"[ \t]*,[ \t]*\w+[ \t]*,"
        r"[ \t]*\"[^\"\n]*\"[ \t]*,[ \t]*\"([^\"\n]{3,200})\"",
        not_after="",
        check=literal_password,
    ),
    # Nagios' check_http, `-a user:password` (monitoring-plugins' check_http)
    rule(
        "cli_credentials",
        "check_http",
        r"check_http\b[^\n]*?[ \t](?:-a|--authorization=)[ \t]*['\"]?[^:\s'\"]+:([^\s'\"]{3,200})",
        not_after="",
        check=literal_password,
    ),
    # rsync's secrets file, `user:password` a line (rsyncd.conf(5), "secrets file"), below its name
    rule(
        "generic_password",
        "rsyncd.secrets rsync.secrets",
        r"rsyncd?\.secrets[^\n]*\n(?:[^\n]*\n){0,2}?[ \t]*[\w.-]+:([^\s:]{3,200})" + LINE_END,
        not_after="",
        check=literal_password,
    ),
    # A passphrase of three or more capitalised words in notes, `passphrase:  Harvest Moon Kettle Ridge`
    rule(
        "generic_password",
        "passphrase",
        r"(?i)passphrase[ \t]*[:=][ \t]*((?-i:[A-Z][a-z]+(?:[ \t][A-Z][a-z]+){2,}))" + LINE_END,
        not_after=r"\w",
    ),
    # BitLocker's recovery password: eight groups of six digits, each a multiple of 11 below 720896
    # (learn.microsoft.com, "BitLocker recovery overview"; the key's 16-bit words times 11)
    rule(
        "generic_password",
        "bitlocker recovery numerical manage-bde",  # (a class-led pattern: run only where these occur)
        r"(?<![\d-])\d{6}(?:-\d{6}){7}(?![\d-])",
        not_after="",
        check=lambda value: all(int(group) % 11 == 0 and int(group) < 720896 for group in value.split("-")),
    ),
    # certutil's `-p password` (importing or exporting a PFX)
    rule(
        "cli_credentials",
        "certutil",
        r"(?i)certutil(?:\.exe)?\b[^\n]*?[ \t]-p[ \t]+" + CLI_VALUE,
        not_after=r"\w",
        check=lambda value: not value.startswith("-") and literal_password(value),
    ),
    # PowerShell's parameters named for a secret and given a literal: `-ClientSecret '…'`,
    # `-Api_Key '…'`, `-L2tpPsk "…"` (a variable, `-Password $pw`, is no literal)
    rule(
        "cli_credentials",
        # (its names: a pattern led by `-` would be tried at every dash of every text)
        "clientsecret secretkey api_key apikey accesstoken l2tppsk keystorepass keypass accountkey accesskey",
        # (`-StorageAccountKey`; not a gMSA's `-PrincipalsAllowedToRetrieveManagedPassword <group>`)
        r"(?i)[ \t]-(?!\w*allowedto)\w*(?:secret|api_?key|account_?key|access_?key|token|psk|password|pass)"
        r"[ \t]+"
        r"(?:'([^'\n]{3,200})'|\"([^\"\n]{3,200})\")",
        not_after="",
        check=lambda value: not value.startswith("$") and literal_password(value),
    ),
    # A form's dotted leader, `password ..... Lighthouse!Owl58` (a printed sheet, a note)
    rule(
        "generic_password",
        "....",
        # (a remark may follow after two spaces: `kM7!xq2Rv9Lp   [x] Password is changed.`)
        r"\.\.\.\.\.*[ \t]*(\S{4,200})(?:[ \t]{2,}[^\n]{0,80})?" + LINE_END,
        near=r"(?i:password|passwd|passphrase|passcode|pin|token|secret|api key)[ \t]*",
        not_after="",
        check=literal_password,
    ),
    # Apple's session cookie `myacinfo`, which fastlane keeps in FASTLANE_SESSION (`DAWTKNV…`)
    rule("session_cookie", "dawtknv", r"DAWTKNV[0-9A-Za-z]{60,}", not_after=r"\w"),
    # Moodle's `admin/cli/cfg.php --name=bind_pw --set=…` (docs.moodle.org, "Administration via
    # command line")
    rule(
        "cli_credentials",
        "cfg.php",
        r"cfg\.php\b[^\n]*?--name=\w*(?:pass|pw|secret|token|key)\w*[^\n]*?--set=" + CLI_VALUE,
        not_after=r"\w",
        check=literal_password,
    ),
    # Aeries SIS's API certificate, 32 lowercase letters and digits: the `AERIES-CERT:` header, or a
    # `"Certificate"` a few lines after Aeries is named (any JSON's may hold a fingerprint)
    rule(
        "generic_api_key",
        "aeries",
        r"(?i)(?:aeries-cert|aeries[\s\S]{0,300}?\"certificate\")"
        r"[\"']?[ \t]*:[ \t]*[\"']?([a-z0-9]{32})(?![a-z0-9])",
        not_after=r"\w",
        check=lambda value: value.islower() and has_digit(value),
    ),
]
