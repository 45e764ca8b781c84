"""Office automation and low-code: AutoHotkey and AutoIt scripts that type or fill in a login,
Power Automate Desktop's password fields, Node-RED's change node setting a key header, and
Storage by Zapier's secret.
"""

from __future__ import annotations

import re

from pica.stages.secrets.keyed import keyed_value_is_secret
from pica.stages.secrets.rules import Rule, has_digit, literal_password, random_with_digit, rule

# A login window's or dialog's title: where a filled-in text is a password
LOGIN_TITLE = r"[^\"\n,]*(?:logon|log on|login|log in|sign in|signin|security|password|credential)[^\"\n,]*"


def typed_with_digit(value: str) -> bool:
    """A password as a person types one, with a digit: not a user's name (`MANAGER`, `jdoe`)."""
    return has_digit(value) and re.search(r"[A-Za-z]", value) is not None and literal_password(value)


AUTOMATION: list[Rule] = [
    # AutoHotkey typing a login: the user's name, `{Tab}`, then the password and `{Enter}`, on one
    # line or in the next `Send`/`SendText`/`SendInput` (autohotkey.com/docs, Send)
    rule(
        "generic_password",
        "{tab}",
        r"(?i)\{tab\}(?:\"?[ \t]*\)?[ \t]*\r?\n(?:[^\n]*\n){0,2}?[ \t]*send\w*[ \t]*,?[ \t]*\(?\"?)?"
        r"([^\s\"{}]{4,100})\"?[ \t]*(?:\{enter\}|\)?[ \t]*\r?\n)",
        not_after="",
        check=typed_with_digit,
    ),
    # AutoHotkey's hotstring that types a password, `::;pw::…`
    rule(
        "generic_password",
        "pw:: pwd:: pass:: password::",
        r"(?im)^::[^:\n]{0,8}(?:pw|pwd|pass|passwd|password)::([^\n]{3,100})$",
        not_after="",
        check=literal_password,
    ),
    # AutoHotkey's `RunAs, user, password[, domain]`
    rule(
        "generic_password",
        "runas,",
        r"(?i)runas,[ \t]*[^,\n]+,[ \t]*([^,\n]{3,100}?)[ \t]*(?:,|\r?\n|$)",
        not_after=r"\w",
        check=literal_password,
    ),
    # AutoIt's and AutoHotkey's ControlSetText into a login window's field
    rule(
        "generic_password",
        "controlsettext",
        r"(?i)controlsettext\(\s*\"" + LOGIN_TITLE + r"\"\s*,\s*\"[^\"\n]*\"\s*,\s*\"[^\"\n]*\"\s*,\s*"
        r"\"([^\"\n]{4,100})\"",
        not_after="",
        check=typed_with_digit,
    ),
    rule(
        "generic_password",
        "controlsettext",
        r"(?i)controlsettext,[ \t]*\w+,[ \t]*([^,\n]{4,100}?)[ \t]*," + LOGIN_TITLE + r"(?:\r?\n|$)",
        not_after="",
        check=typed_with_digit,
    ),
    # Power Automate Desktop filling a page's password input, `… ['Input password …'] Text: $'''…'''`
    rule(
        "generic_password",
        "input password",
        r"(?i)input password[^\n]*?\][ \t]*text:[ \t]*\$'''([^'\n]{3,200})'''",
        not_after="",
        check=literal_password,
    ),
    # Node-RED's change node setting a key's header, `"p": "headers.X-API-Key", … "to": "…"`
    rule(
        "generic_api_key",
        '"p":',
        r"(?i)\"p\":[ \t]*\"[^\"\n]*(?:key|token|secret|auth)[^\"\n]*\","
        r"[^{}\n]*?\"to\":[ \t]*\"([^\"\n]{12,300})\"",
        not_after="",
        check=lambda value: keyed_value_is_secret("api_key", "=", value, '"'),
    ),
    # Storage by Zapier's client takes its secret, a UUID (zapier.com/help, "Storage by Zapier")
    rule(
        "generic_api_key",
        "storeclient(",
        r"(?i)storeclient\(\s*[\"']([\w-]{16,100})[\"']",
        not_after=r"\w",
        check=random_with_digit,
    ),
]
