"""Mainframes, IBM i and enterprise schedulers: a password as a parenthesised keyword parameter (IBM
CL's `PASSWORD(…)`/`RMTPWD(…)`, RACF's `PASSWORD(…)`/`PHRASE(…)`, MQSC's `LDAPPWD(…)`),
Connect:Direct's `SNODEID=(user,password)`, COBOL's `PIC X … VALUE '…'` and `MOVE '…' TO …-PWD`,
RPG's `inz('…')`, an FTP input's `user password` line, SSIS' `/DECRYPT` and `/Par`, Talend's
context file, IBM MQ's password property, LWP's `credentials`, and a terminal script answering a
password prompt. Each form is written from the product's manual.
"""

from __future__ import annotations

import re

from pica.stages.secrets.rules import CLI_VALUE, LINE_END, Rule, has_digit, literal_password, rule


def mainframe_password(value: str) -> bool:
    """A password as a parameter holds one: not a special value (`*NONE`, `*SAME`), a CL variable
    (`&PWD`), nor an option's word; RACF's are often eight capitals and digits (`B4LTIC77`)."""
    if value.startswith(("*", "&", ":")) or value.upper() in ("NONE", "NO", "YES", "SAME", "NOMAX"):
        return False
    if re.fullmatch(r"[A-Z0-9#$@]{6,8}", value):
        return has_digit(value) and re.search(r"[A-Z]", value) is not None
    # (not a method's parameter: `def password(self)`, `pwd(path)`)
    return re.fullmatch(r"[a-z_]+", value) is None and literal_password(value)


def passphrase(value: str) -> bool:
    """A RACF password phrase: 9 to 100 characters, often words with spaces."""
    return len(value) >= 9 and not value.startswith(("*", "&"))


MAINFRAME: list[Rule] = [
    # IBM CL and RACF: `PASSWORD(…)`, `RMTPWD('…')`, `LDAPPWD('…')`, `PWD(…)` (CHGUSRPRF, CRTUSRPRF,
    # ADDSVRAUTE, RUNRMTCMD, ALTUSER, DEFINE AUTHINFO)
    rule(
        "generic_password",
        "password( rmtpwd( ldappwd( pwd(",
        r"(?i)(?:password|rmtpwd|ldappwd|pwd)\([ \t]*"
        r"(?:'([^'\n]{3,100})'|([^'()\s,]{3,100}))[ \t]*\)",
        not_after=r"\w-",
        check=mainframe_password,
    ),
    rule(
        "generic_password",
        "phrase(",
        r"(?i)phrase\([ \t]*'([^'\n]{9,100})'[ \t]*\)",
        not_after=r"\w-",
        check=passphrase,
    ),
    # Connect:Direct: `SNODEID=(user,password)`, `SIGNON USERID=(user,password)`
    rule(
        "generic_password",
        "snodeid userid=(",
        r"(?i)(?:snodeid|pnodeid|userid)=\([ \t]*[\w.@$#\\-]{1,64}[ \t]*,[ \t]*([^)\s,]{3,100})[ \t]*\)",
        not_after="",
        check=mainframe_password,
    ),
    # COBOL: a password field's initial value, and a literal moved into it
    rule(
        "generic_password",
        "pic",
        r"(?i)pic[ \t]+x\(\d+\)[ \t]+value[ \t]+(?:\"([^\"\n]{3,100})\"|'([^'\n]{3,100})')",
        near=r"(?:password|passwd|pwd)[\w-]*[ \t]+",
        not_after=r"\w",
        check=literal_password,
    ),
    rule(
        "generic_password",
        "move",
        r"(?i)move[ \t]+(?:\"([^\"\n]{3,100})\"|'([^'\n]{3,100})')[ \t]+to[ \t]+"
        r"[\w-]*(?:password|passwd|pwd)(?![\w-]*len)",
        not_after="",
        check=literal_password,
    ),
    # RPG: `dcl-s rmtPwd char(128) inz('…')`, `D RmtPass S 10A Inz('…')`, `dcl-c RMT_PWD '…'`
    rule(
        "generic_password",
        "inz(",
        r"(?i)inz\([ \t]*'([^'\n]{3,100})'[ \t]*\)",
        near=r"(?:pwd|pass\w*|password)\b[^\n]{0,40}",
        not_after=r"\w",
        check=literal_password,
    ),
    rule(
        "generic_password",
        "dcl-c",
        r"(?i)dcl-c[ \t]+\w*(?:pwd|pass\w*)[ \t]+'([^'\n]{3,100})'",
        not_after="",
        check=literal_password,
    ),
    # An FTP input (a JCL `//INPUT DD *`, an IBM i source member): the host perhaps, then
    # `user password` on one line
    rule(
        "generic_password",
        "//input //ftpin",
        r"(?i)//(?:input|ftpin)[ \t]+dd[ \t]+\*[^\n]*\n(?:[ \t]*[\w.-]+(?:[ \t]+\d+)?[ \t]*\n)?"
        r"[ \t]*[\w$#@.-]{1,12}[ \t]+(\S{4,100})" + LINE_END,
        not_after="",
        check=literal_password,
    ),
    # An FTP script's `user NAME PASSWORD` (ftp -n), echoed or in a here-document
    rule(
        "cli_credentials",
        "ftp",
        r"(?im)^[ \t]*(?:[(][ \t]*)?(?:echo[ \t]+[\"']?)?user[ \t]+[\w.@\\-]+[ \t]+"
        r"([^\s\"';]{3,100})[\"']?[ \t]*(?:;|$)",
        not_after="",
        check=literal_password,
    ),
    # SSIS: dtexec's `/DECRYPT <password>`, `/Par "…Password";"…"`, `/SET "…[User::…Password]…";"…"`
    rule(
        "cli_credentials",
        "/decrypt",
        r"(?i)/decrypt[\"']?[ \t,]+[\"']?([^\"'\s,)]{3,100})",
        not_after="",
        check=literal_password,
    ),
    rule(
        "cli_credentials",
        "/par /set",
        r"(?i)/(?:par|set)[ \t]+\"[^\"\n]*(?:password|pwd|pass)[^\"\n]*\"[ \t]*;"
        r"[ \t]*\"?([^\"\s^]{3,200})\"?",
        not_after="",
        check=literal_password,
    ),
    # Talend's context file: `name;value`
    rule(
        "generic_password",
        "password; passwd; pwd; secret;",
        r"(?im)^[ \t]*\w*(?:password|passwd|pwd|secret)\w*;([^;\n]{3,200})$",
        not_after="",
        check=literal_password,
    ),
    # IBM MQ's password as a property: `setStringProperty(WMQConstants.PASSWORD, "…")`,
    # `{ MQC.PASSWORD_PROPERTY, "…" }`
    rule(
        "generic_password",
        ".password",
        r"PASSWORD[A-Z_]*[ \t]*,[ \t]*\"([^\"\n]{3,200})\"",
        near=r"\b[a-z]\w*\.[a-z_]*",  # (a constant of a class: matched on lowercased text)
        not_after="",
        check=literal_password,
    ),
    # `-k <name>Password -v <value>` (setmqweb, and other `-k key -v value` setters)
    rule(
        "cli_credentials",
        "-v",
        r"(?i)-k[ \t]+\w*(?:password|pwd)\w*[ \t]+-v[ \t]+" + CLI_VALUE,
        not_after="",
        check=literal_password,
    ),
    # Control-M's `ctm env add <name> <url> <user> <password>`
    rule(
        "cli_credentials",
        "ctm",
        r"(?i)ctm[ \t]+env(?:ironment)?[ \t]+add[ \t]+\S+[ \t]+https?://\S+[ \t]+\S+[ \t]+" + CLI_VALUE,
        not_after="",
        check=literal_password,
    ),
    # Perl's LWP: `$ua->credentials('host:port', 'realm', 'user', 'password')`
    rule(
        "generic_password",
        "->credentials(",
        r"->credentials\(\s*(?:['\"][^'\"\n]*['\"]\s*,\s*){3}['\"]([^'\"\n]{3,200})['\"]",
        not_after="",
        check=literal_password,
    ),
    # A terminal script answering a password prompt on its next line: Net::Telnet's `waitfor` then
    # `print`, a 3270 emulator's `WaitForString "Password"` then `SendKeys`, py3270's `fill_field`
    rule(
        "generic_password",
        "wait",
        r"(?i)wait(?:for\w*|_for\w*)?\b[^\n]*pass(?:word)?[^\n]*\n(?:[^\n]*\n)?[ \t]*[^\n]*?"
        r"(?:->print|\.sendkeys|\.send|string|fill_field|\.type)\(?[ \t]*"
        r"(?:\d+[ \t]*,[ \t]*\d+[ \t]*,[ \t]*)?"
        r"[\"']([^\"'<\n]{3,100})",
        not_after="",
        check=literal_password,
    ),
]
