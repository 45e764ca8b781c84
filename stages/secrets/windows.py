"""Windows administration: a password given to a Windows API or tool where its manual puts it
(WMI's `ConnectServer`, `PrincipalContext`, `X509Certificate2`, the Task Scheduler's
`RegisterTaskDefinition`, Sysinternals' Autologon, SQL Server setup's `/SAPWD`, `setx`, netsh's
hosted network key), and LAPS' password attribute.
"""

from __future__ import annotations

import re

from pica.stages.secrets import arguments
from pica.stages.secrets.rules import CLI_VALUE, LINE_END, Rule, literal_password, rule

STRING = r"@?[\"']([^\"'\n]{3,200})[\"']"  # a C#, VBScript or PowerShell string literal
ARGUMENT = r"\s*(?:[^,()\n]+|@?\"[^\"\n]*\"|'[^'\n]*')\s*,"  # any one argument before it


WINDOWS: list[Rule] = [
    # SWbemLocator.ConnectServer(server, namespace, user, password) (learn.microsoft.com, WMI)
    rule(
        "generic_password",
        "connectserver",
        r"(?i)connectserver\(" + ARGUMENT * 3 + r"\s*" + STRING,
        not_after="",
        check=literal_password,
    ),
    # new PrincipalContext(ContextType.Domain, name, [container,] user, password)
    rule(
        "generic_password",
        "principalcontext",
        r"(?i)principalcontext\(\s*contexttype\.\w+\s*,"
        + r"(?:"
        + ARGUMENT
        + r"){2,3}\s*"
        + STRING
        + r"\s*\)",
        not_after="",
        check=literal_password,
    ),
    # new X509Certificate2(path, password[, flags]): the PFX's password
    rule(
        "generic_password",
        "x509certificate2",
        r"(?i)x509certificate2\(\s*@?[\"'][^\"'\n]+[\"']\s*,\s*" + STRING,
        not_after="",
        check=literal_password,
    ),
    # ITaskFolder.RegisterTaskDefinition(path, definition, flags, user, password, logonType)
    rule(
        "generic_password",
        "registertaskdefinition",
        r"(?i)registertaskdefinition\(" + ARGUMENT * 4 + r"\s*" + STRING,
        not_after="",
        check=literal_password,
    ),
    # Sysinternals' Autologon: `autologon user domain password` (learn.microsoft.com, Autologon)
    rule(
        "cli_credentials",
        "autologon",
        r"(?i)autologon(?:64)?(?:\.exe)?[ \t]+(?!/)\S+[ \t]+\S+[ \t]+" + CLI_VALUE,
        not_after="",
        check=literal_password,
    ),
    # SQL Server setup's and other installers' `/SAPWD="…"`, `/SQLSVCPASSWORD=…`
    rule(
        "cli_credentials",
        "/sapwd password=",
        r"(?i)/(?:sapwd|[a-z]*password)=" + CLI_VALUE,
        near=r"[ \t]",
        not_after="",
        check=literal_password,
    ),
    # `setx NAME value`: a secret's name, then its value (setx takes no `=`)
    rule(
        "generic_password",
        "setx",
        r"(?i)setx[ \t]+\w*(?:pat|token|key|secret|password|passwd|pwd|pass)\w*[ \t]+" + CLI_VALUE,
        not_after="",
        check=lambda value: arguments.machine_made(value) or literal_password(value),
    ),
    # netsh's hosted network: `netsh wlan set hostednetwork … key=…`
    rule(
        "generic_password",
        "hostednetwork",
        r"(?i)hostednetwork\b[^\n]*?[ \t]key=" + CLI_VALUE,
        not_after="",
        check=literal_password,
    ),
    # PowerShell's name and value parameters: `-VariableName "OSDJoinPassword" -Value "…"` (a task
    # sequence's variable), `-Name DefaultPassword -Value …` (Winlogon's auto-logon in the registry)
    rule(
        "generic_password",
        "-value",
        r"(?i)-(?:variable)?name[ \t]+[\"']?\w*(?:password|passwd|pwd)\w*[\"']?[ \t]+-value[ \t]+"
        + CLI_VALUE,
        not_after=r"\w-",
        check=literal_password,
    ),
    # LAPS: the password attribute, as `Get-ADComputer` or `Get-LapsADPassword` prints it
    rule(
        "generic_password",
        "admpwd ms-laps-password",
        r"(?i)(?:ms-mcs-admpwd|ms-laps-password)[ \t]*:[ \t]*(\S[^\n]{2,200}?)" + LINE_END,
        not_after="",
        check=lambda value: not re.fullmatch(r"\{?\}?|\(null\)|\*+", value),
    ),
]
