"""Mail servers and their clients: Postfix's `static:` map, Sendmail's AuthInfo, Exim's
`client_send`, Zimbra's `zmprov`, swaks' `-ap`, and an IMAP session's LOGIN and AUTHENTICATE PLAIN.
Each form is written from the tool's manual, cited beside it. (An app password for a mail client
is in shells.py.)
"""

from __future__ import annotations

from pica.stages.secrets import verify
from pica.stages.secrets.rules import CLI_VALUE, LINE_END, Rule, literal_password, rule


def sasl_plain(value: str) -> bool:
    """SASL PLAIN's response: base64 of `authzid NUL user NUL password` (RFC 4616)."""
    decoded = verify.b64decode(value)
    return decoded is not None and decoded.count(b"\0") == 2 and len(decoded.rsplit(b"\0", 1)[1]) >= 3


MAIL: list[Rule] = [
    # Postfix's static lookup table as the SASL password map, `static:user:password` (postfix.org,
    # DATABASE_README, "static")
    rule(
        "generic_password",
        "static:",
        r"(?i)sasl_password_maps[ \t]*=[ \t]*static:[^\s:'\"]{1,100}:([^\s'\"]{3,200})",
        not_after="",
        check=literal_password,
    ),
    # Sendmail's AuthInfo: `"P:password"`, or `"P=base64"` (sendmail's README, "Providing SMTP AUTH
    # Data when sendmail acts as Client")
    rule(
        "generic_password",
        "authinfo",
        r"(?i)authinfo:[^\n]*?\"p[:=]([^\"\n]{3,200})\"",
        not_after="",
        check=literal_password,
    ),
    # Exim's plaintext authenticator: `client_send = : user : password` or with another separator
    # (`^user^password`) (exim.org, "The plaintext authenticator")
    rule(
        "generic_password",
        "client_send",
        r"(?i)client_send[ \t]*=[ \t]*(?:[:^][ \t]*)?[^:^\n]+?[ \t]*[:^][ \t]*([^\n]{3,200}?)" + LINE_END,
        not_after="",
        check=literal_password,
    ),
    # Zimbra's zmprov: `-p password` as the admin's, and an account's password in `ca` (createAccount)
    # and `sp` (setPassword) (zimbra.com, "zmprov")
    rule(
        "cli_credentials",
        "zmprov",
        r"(?i)zmprov\b[^\n]*?[ \t]-p[ \t]+" + CLI_VALUE,
        not_after="",
        check=literal_password,
    ),
    rule(
        "cli_credentials",
        "zmprov",
        r"(?im)(?:zmprov(?:[ \t]+-[a-z]+(?:[ \t]+[^\s-]\S*)?)*[ \t]+|^[ \t]*)"
        r"(?:ca|createaccount|sp|setpassword)[ \t]+[\w.+-]+@[\w.-]+[ \t]+" + CLI_VALUE,
        not_after="",
        check=literal_password,
    ),
    # swaks' `-ap` / `--auth-password` (jetmore.org/john/code/swaks)
    rule(
        "cli_credentials",
        "swaks",
        r"(?i)swaks\b[^\n]*?[ \t](?:-ap|--auth-password)[ \t]+" + CLI_VALUE,
        not_after="",
        check=literal_password,
    ),
    # An IMAP session: `tag LOGIN user password` (RFC 3501, 6.2.3), `tag AUTHENTICATE PLAIN <base64>`
    rule(
        "generic_password",
        "login",
        # (a tag is short, `a1`, `A001`, `?`; single spaces between; not `vault login -method=…`)
        r"(?i) login (?!-)\"?[^\s\"=]+\"? (?:\"([^\"\n]{3,200})\"|([^\s=]{3,200}))" + LINE_END,
        near=r"(?:^|\n)[ \t]*(?:[a-z]{0,4}\d{1,6}|[?*.a-z])",
        not_after="",
        check=literal_password,
    ),
    rule(
        "generic_password",
        "authenticate plain",
        r"(?i)authenticate[ \t]+plain[ \t]+([A-Za-z0-9+/]{8,300}={0,2})",
        not_after="",
        check=sasl_plain,
    ),
]
