"""Message brokers and search clusters: NATS' nkey seeds (a public nkey stays), Kafka JAAS's
`user_<name>="…"`, RabbitMQ's classic config and `authenticate_user`, Elasticsearch's enrollment
token and the password `elasticsearch-reset-password` prints, and a password given to the Redis
family's other tools.
"""

from __future__ import annotations

import json

from pica.stages.secrets import verify
from pica.stages.secrets.rules import CLI_VALUE, LINE_END, E, Rule, commands, literal_password, rule


def enrollment_token(value: str) -> bool:
    """Elasticsearch's enrollment token: base64 of JSON holding the API key that enrolls a node."""
    decoded = verify.b64decode(value)
    try:
        return isinstance(json.loads(decoded or b""), dict) and b'"key"' in (decoded or b"")
    except ValueError:
        return False


BROKERS: list[Rule] = [
    # NATS' nkey seeds: `S`, the key's type (User, Account, Operator, server (N), Cluster, curve
    # (X)), then base32 (github.com/nats-io/nkeys, "Seeds"); 58 characters in all
    rule("private_key", "", r"S[UAONCX][A-Z2-7]{56}" + E, not_after=r"\w"),  # (led by its `S`)
    # Kafka's PlainLoginModule: each user's password in `user_<name>="…"` (kafka.apache.org,
    # "SASL/PLAIN")
    rule(
        "generic_password",
        "user_",
        r"(?<![\w.-])user_\w{1,64}=\"([^\"\n]{3,200})\"",
        near=r"loginmodule[^;]*",
        not_after="",
        check=literal_password,
    ),
    # RabbitMQ's classic (Erlang terms) config, `{default_pass, <<"…">>}`
    rule(
        "generic_password",
        "default_pass",
        r"\{default_pass,\s*<<\"([^\"\n]{3,200})\">>\}",
        not_after="",
        check=literal_password,
    ),
    *commands("rabbitmqctl", r"\sauthenticate_user\s+\S+\s+"),  # authenticate_user name password
    # ... the other tools of the Redis family: -a <password>
    *commands("redis-benchmark valkey-cli keydb-cli", r"\s-a\s+"),
    # Elasticsearch's enrollment token (`elasticsearch-create-enrollment-token`, `--enrollment-token`)
    rule(
        "generic_api_key",
        "",
        r"(eyJ2ZXIiOi[A-Za-z0-9+/]{40,2000}={0,2})(?![A-Za-z0-9+/=])",
        not_after=r"\w",
        check=enrollment_token,
    ),
    # `elasticsearch-reset-password` prints the new password as `New value: …`
    rule(
        "generic_password",
        "new value:",
        r"(?i)new value:[ \t]*(\S{6,200})" + LINE_END,
        near=r"password[^\n]*\n[^\n]*",
        not_after="",
    ),
    # Beats' and Logstash's keystores read a value piped in: `echo '…' | metricbeat keystore add K --stdin`
    rule(
        "cli_credentials",
        "keystore add",
        r"(?i)(?:echo|printf)[ \t]+(?:-[ne]+[ \t]+)?" + CLI_VALUE + r"[ \t]*\|[ \t]*(?:sudo[ \t]+)?"
        r"[\w./-]*(?:beat|logstash|kibana)(?:-keystore|[ \t]+keystore)[ \t]+add\b",
        not_after="",
        check=literal_password,
    ),
]
