"""Secret managers' commands and answers: a new secret given to a store's write command (Key
Vault's `secret set --value`, Secrets Manager's `--secret-string`, SSM's `put-parameter --value`,
Akeyless', Berglas', chamber's), tables the stores print (the AWS CLI's `--output table`, a
`Key  Value` table, PowerShell's one-column table), CyberArk's Central Credential Provider's
answer, and SSM parameters named by a path.
"""

from __future__ import annotations

import re

from pica.stages.secrets import verify
from pica.stages.secrets.keyed import keyed_value_is_secret
from pica.stages.secrets.rules import CLI_VALUE, LINE_END, Rule, literal_password, rule


def stored_value(value: str) -> bool:
    """A literal given as the secret's value, not a file it is read from (`file://…`, `@path`)."""
    return (
        not re.match(r"(?:fileb?://|@|-$)", value)
        and not verify.typed_runs(value) >= 2
        and literal_password(value)
    )


def named_by_path(path: str, value: str) -> bool:
    """A value under a parameter's path (`/myapp/prod/DB_PASSWORD`), judged by its last part."""
    return keyed_value_is_secret(path.rstrip("/").rsplit("/", 1)[-1], "=", value, '"')


SECRET_PATH = r"/(?:[\w.-]+/)*[\w.-]*(?i:password|passwd|pwd|secret|token|api_?key|apikey|pw)"

SECRET_STORES: list[Rule] = [
    # A store's write command given the secret's value (Azure CLI, AWS CLI, Akeyless, Doppler's
    # and Infisical's `secrets set NAME=…` are the keyed scan's); a command may continue on the
    # next line after a backslash
    rule(
        "cli_credentials",
        "keyvault create-secret update-secret put-secret-value put-parameter set-secret",
        r"(?i)(?:keyvault[ \t]+secret[ \t]+set|create-secret|update-secret|put-secret-value|put-parameter"
        r"|set-secret)\b(?:[^\n]|\\\r?\n){0,300}?[ \t]--(?:value|secret-string|secret-value)[ =]" + CLI_VALUE,
        not_after="",
        check=stored_value,
    ),
    # Berglas' `create|update <bucket>/<name> <value>` (github.com/GoogleCloudPlatform/berglas)
    rule(
        "cli_credentials",
        "berglas",
        r"berglas[ \t]+(?:create|update)[ \t]+\S+[ \t]+" + CLI_VALUE,
        not_after=r"\w",
        check=lambda value: not value.startswith("-") and stored_value(value),
    ),
    # Akeyless' login by access key (`akeyless auth --access-id … --access-key …`)
    rule(
        "cli_credentials",
        "akeyless",
        r"akeyless[ \t]+auth\b[^\n]*?--access-key[ =]" + CLI_VALUE,
        not_after=r"\w",
        check=stored_value,
    ),
    # The AWS CLI's `--output table`: a secret's row, `|  SecretString |  … |`
    rule(
        "generic_password",
        "secretstring",
        r"\|[ \t]*SecretString[ \t]*\|[ \t]*([^\s|]{3,300})[ \t]*\|",
        not_after="",
        check=literal_password,
    ),
    # ... and a SecureString parameter's `Value` row below its `Type` row
    rule(
        "generic_password",
        "securestring",
        r"\|[ \t]*Type[ \t]*\|[ \t]*SecureString[ \t]*\|+\r?\n"
        r"\|+[ \t]*Value[ \t]*\|[ \t]*([^\s|]{3,300})[ \t]*\|",
        not_after="",
        check=lambda value: not value.startswith("AQICAH"),  # (KMS's ciphertext, not decrypted)
    ),
    # A `Key  Value` table a store prints (chamber's `read`, Vault's), a secret's name in its first
    # column: `db_password     Gingham-Otter-6053     3 …`
    rule(
        "generic_password",
        "key",
        r"(?im)^key[ \t]+value\b[^\n]*\r?\n(?:-{3}[^\n]*\r?\n)?(?:[^\n]*\r?\n){0,8}?"
        r"[\w.-]*(?:password|passwd|secret(?:_id)?|token|api_?key)[ \t]{2,}(\S{3,300})"
        r"(?:[ \t]{2,}|[ \t]*$)",
        not_after="",
        check=literal_password,
    ),
    # PowerShell's table of one column: `Password`, a rule, the value (psPAS' Get-PASAccountPassword)
    rule(
        "generic_password",
        "password",
        r"(?m)^[ \t]*Password[ \t]*\r?\n[ \t]*-{4,}[ \t]*\r?\n[ \t]*(\S[^\n]{2,200}?)" + LINE_END,
        not_after="",
        check=literal_password,
    ),
    # CyberArk's Central Credential Provider answers with the password as `Content`
    # (docs.cyberark.com, "Central Credential Provider REST API")
    rule(
        "generic_password",
        "aimwebservice",
        r"(?i)aimwebservice[^\n]*?(?:\r?\n[^\n]*?){0,3}?\"content\"[ \t]*:[ \t]*"
        r"\"((?:[^\"\\\n]|\\.){3,300})\"",
        not_after="",
        check=literal_password,
    ),
    # An SSM parameter whose name is a secret's path, and its value: a template's or an SDK's
    # `Name: /reporting/db/password` … `Value: …`, boto3's `put_parameter(Name=…, Value=…)`
    rule(
        "generic_password",
        "name",
        r"(?i)name\"?[ \t]*[:=][ \t]*[\"']?" + SECRET_PATH + r"[\"']?[ \t]*,?[ \t]*\r?\n(?:[^\n]*\r?\n){0,2}?"
        r"[ \t]*\"?value\"?[ \t]*[:=][ \t]*[\"']?([^\s\"',]{3,300})",
        not_after="",
        check=lambda value: literal_password(value) and not value.startswith("AQICAH"),
    ),
    # ... a JSON object keyed by parameters' paths (`{"/lambda/ingest/partner_api_key": "…"}`), and
    # `get-parameters-by-path --output text`'s `/myapp/prod/DB_PASSWORD<TAB>…` (led by the name's last
    # word, the path looked for before it)
    rule(
        "generic_password",
        "",
        r"(?i)(?:password|passwd|pwd|secret|token|api_?key|apikey)\"[ \t]*:[ \t]*\"([^\"\n]{3,300})\"",
        near=r"\"/(?:[\w.-]+/)*[\w.-]*",
        not_after="",
        check=literal_password,
    ),
    rule(
        "generic_password",
        "",
        r"(?i)(?:password|passwd|pwd|secret|token|api_?key|apikey)\t([^\s]{3,300})" + LINE_END,
        near=r"(?:^|\n)/(?:[\w.-]+/)*[\w.-]*",
        not_after="",
        check=literal_password,
    ),
]
