"""Data pipelines: Hadoop's XML properties (`<name>fs.s3a.secret.key</name>` then `<value>`) and
its credential command, key/value entries in XML and JSON with other fields between (NiFi's
parameters and processors), Fluent Bit's Azure `Shared_Key`, dbt Cloud's tokens, Meltano's
`config list` output, and Prefect's `Secret(value=…)` block.
"""

from __future__ import annotations

from pica.stages.secrets.keyed import keyed_value_is_secret
from pica.stages.secrets.rules import E, Rule, literal_password, rule

SECRET_NAME = (
    r"[\w .-]*(?i:password|passwd|secret|token|api[ _-]?key|credential|secret[ ._-]key|access[ ._-]key)"
)


def named_value(name: str, value: str) -> bool:
    """A value under a setting's name, judged as `name = "value"` is."""
    return keyed_value_is_secret(name.replace(" ", "_").replace(".", "_"), "=", value, '"')


PIPELINES: list[Rule] = [
    # Hadoop's, Hive's and Spark's XML properties: `<name>fs.s3a.secret.key</name>` then `<value>…`,
    # and XML entries `<key>Secret Key</key><value>…</value>` (NiFi's processors)
    rule(
        "generic_password",
        "<name> <key>",
        r"<(name|key)>" + SECRET_NAME + r"</\1>\s*<value>(?P<secret>[^<\n]{3,300})</value>",
        not_after="",
        check=literal_password,
    ),
    # `hadoop credential create <alias> -value …` (hadoop.apache.org, CredentialProviderAPI)
    rule(
        "cli_credentials",
        "credential create",
        r"credential[ \t]+create[ \t]+\S+[ \t]+-value[ \t]+(\S{3,300})",
        not_after=r"\w",
        check=literal_password,
    ),
    # A JSON object naming a secret and its value with other fields between (NiFi's parameter
    # contexts: `{"name": "db.password", "sensitive": true, "value": "…"}`)
    rule(
        "generic_password",
        '"name"',
        r"\"name\"[ \t]*:[ \t]*\""
        + SECRET_NAME
        + r"\"[^{}\n]{1,120}?\"value\"[ \t]*:[ \t]*\"([^\"\n]{3,300})\"",
        not_after="",
        check=literal_password,
    ),
    # Fluent Bit's and Fluentd's Azure Log Analytics output, `Shared_Key <base64 of 64 bytes>`
    rule(
        "azure_credential",
        "shared_key",
        r"(?i)shared_key[ \t]+([A-Za-z0-9+/]{86}==)",
        not_after=r"\w",
    ),
    # dbt Cloud's service and personal tokens, `dbtc_…` (docs.getdbt.com, "Service account tokens")
    rule("generic_api_key", "dbtc_", r"dbtc_[A-Za-z0-9_-]{40,100}" + E, not_after=r"\w"),
    # Meltano's `config list`: `password [env: …] current value: '…'`
    rule(
        "generic_password",
        "current value",
        r"(?i)current value:[ \t]*'([^'\n]{3,300})'",
        near=r"(?:password|secret|token|api_key)[^\n]{0,60}",
        not_after="",
        check=literal_password,
    ),
    # Prefect's Secret block made from a literal, `Secret(value="…").save(…)`
    rule(
        "generic_password",
        "secret(",
        r"Secret\(\s*value\s*=\s*[\"']([^\"'\n]{3,300})[\"']",
        not_after=r"\w",
        check=literal_password,
    ),
]
