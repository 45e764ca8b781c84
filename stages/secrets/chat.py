"""Chat servers and the tools that make their accounts: Synapse's access tokens and signing key,
IRC's `/oper` and SASL commands, and a password given to the command that registers a user
(`prosodyctl`, `ejabberdctl`, `register_new_matrix_user -k`, PocketBase's `superuser upsert`).
"""

from __future__ import annotations

from pica.stages.secrets.rules import (
    CLI_VALUE,
    E,
    Rule,
    literal_password,
    random_or_typed,
    rule,
)

CHAT: list[Rule] = [
    # Synapse's access token: `syt_`, the user's localpart in base64, 20 random, a 6-character CRC
    # (element-hq/synapse, `generate_access_token`)
    rule(
        "generic_api_key", "", r"syt_[A-Za-z0-9_-]{2,100}_[A-Za-z0-9]{20}_[A-Za-z0-9]{6}" + E, not_after=r"\w"
    ),
    # A homeserver's signing key file: `ed25519 <key id> <seed in unpadded base64>`
    rule("private_key", "ed25519 a_", r"ed25519[ \t]+a_\w{1,20}[ \t]+([A-Za-z0-9+/]{43})(?![A-Za-z0-9+/])"),
    # IRC: `/oper <name> <password>`, ZNC's `/msg *sasl Set <user> <password>`, irssi's
    # `-sasl_password <password>`
    rule(
        "cli_credentials",
        "/oper *sasl -sasl_password",
        r"(?i)(?:/oper[ \t]+\S+|/msg[ \t]+\*sasl[ \t]+set[ \t]+\S+|-sasl_password)[ \t]+(\S{4,100})",
        not_after="",
        check=literal_password,
    ),
    # Making an account with its password: `prosodyctl register <user> <host> <password>`,
    # `ejabberdctl register <user> <host> <password>`, PocketBase's `superuser upsert <email>
    # <password>` and `admin create <email> <password>`
    rule(
        "cli_credentials",
        "prosodyctl ejabberdctl",
        r"(?i)(?:prosodyctl|ejabberdctl)[ \t]+register[ \t]+\S+[ \t]+\S+[ \t]+" + CLI_VALUE,
        not_after="",
        check=literal_password,
    ),
    rule(
        "cli_credentials",
        "pocketbase",
        r"(?i)pocketbase[ \t]+(?:superuser[ \t]+(?:upsert|create)|admin[ \t]+create)[ \t]+\S+[ \t]+"
        + CLI_VALUE,
        not_after="",
        check=literal_password,
    ),
    # Synapse's `register_new_matrix_user -k <registration shared secret>`
    rule(
        "cli_credentials",
        "register_new_matrix_user",
        r"(?i)register_new_matrix_user\b[^\n]*?[ \t]-k[ \t]+" + CLI_VALUE,
        not_after="",
        check=random_or_typed,
    ),
]
