"""Security tools' findings, which print the credentials they found or cracked: brute-forcers'
valid logins (nmap, Ncrack, Metasploit, NetExec, wpscan), dumps (secretsdump, Get-GPPPassword),
password crackers' `hash:plaintext` pairs (hashcat, John), a SIEM's record of `sshpass -p`.
"""

from __future__ import annotations

from pica.stages.secrets.rules import (
    BOL,
    LINE_END,
    Rule,
    literal_password,
    rule,
)
from pica.stages.secrets.shapes import QUOTED_OR_BARE

SECURITY_TOOLS: list[Rule] = [
    # Security tools' findings: nmap's brute scripts (`user:pass - Valid credentials`), Ncrack's
    # (`ssh: 'user' 'pass'`), Metasploit's login scanners (`Success: 'user:pass'`, `Login Successful:
    # user:pass`), NetExec's `[+] domain\\user:pass`, secretsdump's LSA secrets (the line after
    # `[*] _SC_…` or `[*] DefaultPassword`), Get-GPPPassword's `Passwords : {…}`, wpscan's `[SUCCESS] -
    # user / pass`, sshpass in an audit log's EXECVE record
    rule(
        "generic_password",
        "-brute",  # (nmap's `ftp-brute`, `ssh-brute`, …)
        r"(?:[^\s:]*:)?([^\s:]\S{2,200}?) - Valid credentials",
        not_after="",
        check=literal_password,
    ),
    rule(
        "generic_password",
        "",
        r"(?:/tcp [\w-]+:|Discovered credentials on \S+) '[^'\n]*' '([^'\n]{3,200})'",
        not_after="",
        check=literal_password,
    ),
    rule(
        "generic_password",
        "success",
        r"(?:Success|Login Successful):[ \t]*'?[^\s:']*:([^\s']{3,200})",
        not_after="",
        check=literal_password,
    ),
    rule(
        "generic_password",
        "[+] smb ldap winrm mssql",
        # (`[+] dom\\user:pass`, and the rows of a dump NetExec prints after `[+] Dumping LSA secrets`)
        r"(?:\[\+\]|(?<![\w-])(?:SMB|LDAP|WINRM|MSSQL|SSH|RDP|WMI)[ \t]+\d+\.\d+\.\d+\.\d+[ \t]+\d+[ \t]+\S+)"
        r"[ \t]+[\w.-]+\\[\w.$-]+:([^\s(][^\s]{2,200})",
        not_after="",
        check=literal_password,
    ),
    rule(
        "generic_password",
        "[*] _sc_ [*] defaultpassword",
        r"\[\*\] (?:_SC_[^\n]*|DefaultPassword[ \t]*)\r?\n[^\n:]*:([^\n]{3,200}?)" + LINE_END,
        not_after="",
        check=lambda value: value != "(null)" and literal_password(value),
    ),
    rule(
        "generic_password",
        "passwords",
        r"(?m)^Passwords?[ \t]*:[ \t]*\{([^}\n]{3,200})\}",
        not_after="",
        # (not KeePass' field reference, `{REF:P@I:…}`)
        check=lambda value: not value.startswith("REF:") and literal_password(value),
    ),
    rule(
        "generic_password",
        "[success]",
        r"\[SUCCESS\] - \S+ / (\S{3,200})",
        not_after="",
        check=literal_password,
    ),
    rule(
        "cli_credentials",
        "sshpass",
        r"=\\?\"sshpass\\?\" a\d+=\\?\"-p\\?\" a\d+=\\?\"([^\"\\\n]{3,200})",
        not_after="",
        check=literal_password,
    ),
    # Password crackers' answers: hashcat's `hash:plain` (`--show`, its potfile; `user:hash:plain`
    # with `--username`), John's `--show` (`user:plain:…`)
    rule(
        "generic_password",
        "hashcat potfile --show cracked",
        BOL
        # (and WPA's mode 22000: `<hash>:<AP mac>:<client mac>:<ESSID>:<key>`)
        + r"(?:[\w.\\@-]+:)?(?:[0-9a-f]{32,128}|\$krb5\w+\$[^\n]*?)"
        r"(?::[0-9a-f]{12}:[0-9a-f]{12}:[^:\n]*|:[0-9a-z]{1,32})?:([^\s:]{3,200})" + LINE_END,
        not_after="",
        check=literal_password,
    ),
    rule(
        "generic_password",
        ":::",
        r":([^\s:]{3,200}):\d+:[0-9a-f]{32}:[0-9a-f]{32}:::",
        not_after="",
        check=literal_password,
    ),
    # John the Ripper's cracked line while it runs: the password, spaces, then the user or `(?)`
    rule(
        "generic_password",
        "john incremental:",
        r"(?m)^([^\s(][^\s]{2,200})[ \t]{2,}\((?:\?|[^()\s]{1,64})\)" + LINE_END,
        not_after="",
        check=literal_password,
    ),
    # Responder's captured cleartext (its database's `Cleartext|client|user|password` rows), the
    # password Impacket's addcomputer sets (`-computer-pass`), mimikatz' `cur/text:`
    rule(
        "generic_password",
        "cleartext|",
        r"(?i)cleartext\|[^|\n]*\|[^|\n]*\|([^\s|]{3,200})",
        not_after="",
        check=literal_password,
    ),
    rule(
        "cli_credentials",
        "-computer-pass",
        r"-computer-pass[ =]" + QUOTED_OR_BARE,
        not_after="",
        check=literal_password,
    ),
    rule(
        "generic_password",
        "cur/text old/text",
        r"(?:cur|old)/text:[ \t]*(?!\(null\))(\S[^\n]{2,200}?)" + LINE_END,
        not_after="",
        check=literal_password,
    ),
]
