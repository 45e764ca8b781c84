"""Where servers, orchestrators and their command-line tools put a credential: a database client's
login syntax, an orchestrator's printed token, a cloud CLI's table, a mail relay's or a chat
server's config line, a Kubernetes Secret's base64 data. None has a name beside its value the keyed
scan would read (`using …`, `register => user:…@`), so each is written from the tool's own manual
(cited beside it).
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterator

from pica.stages.secrets import verify
from pica.stages.secrets.rules import (
    BOL,
    LINE_END,
    LINE_START,
    OUTPUT_LEAD,
    Rule,
    directive_password,
    literal_password,
    metavariable,
    random_with_digit,
    rule,
)
from pica.stages.secrets.shapes import (
    QUOTED_OR_BARE,
    SECRET_WORDS,
    UUID,
    generated,
)

SERVERS: list[Rule] = [
    # kubectl describe's data of a ConfigMap or Secret: `NAME:`, a `----` rule, then the value
    # (kubectl describe configmap); the name, found before the rule, says it is a secret
    rule(
        "generic_password",
        ":\n----",
        r"(?::\n|:\r\n)----\r?\n([^\s][^\n]{2,200}?)" + LINE_END,
        near=r"(?:^|\n)[\w.-]*(?:pass|password|passwd|pwd|secret|token|api_?key|apikey)[\w.-]*",
        not_after="",
        check=literal_password,
    ),
    # A secret's name alone on a line, its value alone on the next (`strings` of an etcd snapshot,
    # `etcdctl get`): an environment variable's name in capitals
    rule(
        "generic_password",
        "password passwd secret token api_key",
        r"(?:PASSWORD|PASSWD|SECRET|TOKEN|API_KEY)\r?\n([^\s]{8,200})" + LINE_END,
        near=r"(?:^|\n)[a-z][a-z0-9_]*",
        not_after=r"a-z",
        check=lambda value: literal_password(value) and not re.fullmatch(r"[A-Z][A-Z0-9_]+", value),
    ),
    # A Helm value given as `name:` then `value: …` below it (charts' `adminToken: {value: …}`)
    rule(
        "generic_password",
        "value:",
        r"(?i)value[ \t]*:[ \t]*(?:\"([^\"\n]{3,300})\"|'([^'\n]{3,300})'|([^\s\"'#][^\s#]{2,300}))",
        # (led by `value:`, the name looked for on the line before: a pattern led by the secret words
        # would be tried at each of their many places)
        near=r"(?:token|secret|password|passwd|api_?key|apikey)[\"']?[ \t]*:[ \t]*\r?\n[ \t]+",
        not_after=r"\w",
        check=literal_password,
    ),
    # RabbitMQ's Erlang cookie, which lets a node join the cluster (rabbitmq.com, "Clustering")
    rule(
        "generic_password",
        "erlangcookie erlang_cookie erlang-cookie",
        # (also `.erlang.cookie: "…"` in a Secret, `--erlang-cookie …`, and the file printed by `cat`)
        r"(?i)erlang[_.-]?cookie[\"']?(?:[ \t]*[:=][ \t]*|[ \t]+|[^\n]*\n[ \t]*)[\"']?"
        r"([A-Za-z0-9]{16,255})(?![\w+/=-])",
        not_after="",  # (`RABBITMQ_ERLANG_COOKIE`)
        check=lambda value: not verify.is_stand_in(value),
    ),
    # Rancher's cluster import URL holds its registration token (`…/v3/import/<token>_c-….yaml`)
    rule("generic_api_key", "/v3/import/", r"/v3/import/([a-z0-9]{40,64})_c-[\w-]+\.yaml", not_after=""),
    # Postfix's sasl_passwd map, `[relay]:port user:password` (postfix.org, SASL_README)
    rule(
        "generic_password",
        "sasl_passwd sasl_password_maps",
        r"(?m)^[ \t>]*\[[\w.-]+\](?::\d+)?[ \t]+[^\s:]+:(\S{3,200})" + LINE_END,
        not_after="",
        check=literal_password,
    ),
    # Databases' own login syntax: Db2's `CONNECT TO db USER u USING p` (IBM Db2 docs, CONNECT),
    # Teradata BTEQ's `.LOGON host/user,password` (BTEQ reference), unixODBC's `isql DSN user
    # password`, MySQL Shell's `--uri user:password@host`
    rule(
        "cli_credentials",
        "using",
        r"(?i)connect[ \t]+to[ \t]+\S+[ \t]+user[ \t]+\S+[ \t]+using[ \t]+" + QUOTED_OR_BARE,
        not_after="",
        check=literal_password,
    ),
    rule(
        "cli_credentials",
        ".logon",
        r"(?i)\.logon[ \t]+[\w.-]+/[\w.$-]+,([^\s;]{3,100})",
        not_after="",
        check=literal_password,
    ),
    rule(
        "cli_credentials",
        "isql",
        r"isql(?<![\w-]isql)(?:[ \t]+-\w+)*[ \t]+[\w.-]+[ \t]+[\w.@\\-]+[ \t]+"
        r"([^\s|;<>-][^\s|;<>]{2,100})" + LINE_END,
        not_after="",
        check=literal_password,
    ),
    rule(
        "cli_credentials",
        "--uri",
        r"--uri[= ][\"']?(?:mysqlx?://)?[^:@\s/\"']+:([^@\s\"']{3,100})@",
        not_after="",
        check=literal_password,
    ),
    # `grafana-cli admin reset-admin-password …` (Grafana docs, "Reset admin password")
    rule(
        "cli_credentials",
        "reset-admin-password",
        r"reset-admin-password[ \t]+(?:--\S+[ \t]+)*" + QUOTED_OR_BARE,
        not_after="",
        check=literal_password,
    ),
    # Redis Sentinel's `sentinel auth-pass <master> <password>` (redis.io, Sentinel)
    rule(
        "generic_password",
        "auth-pass",
        r"(?i)sentinel[ \t]+auth-pass[ \t]+\S+[ \t]+(\S{4,200})" + LINE_END,
        not_after="",
        check=directive_password,
    ),
    # SQL Workbench/J's saved profile: `<void property="password"><string>…</string>`
    rule(
        "generic_password",
        'property="password"',
        r'(?i)property="password">\s*<string>([^<\n]{3,200})</string>',
        not_after="",
        check=literal_password,
    ),
    # k3s/RKE2 join tokens: `K10<CA hash>::<user>:<password>` (docs.k3s.io, "Token")
    rule("k3s_token", "k10", r"K10[0-9a-f]{64}::[\w.-]+:([0-9a-f]{16,64})(?![0-9a-f])", not_after=r"\w"),
    # Nomad's and Consul's ACL tokens as their CLIs print them: `Secret ID = <uuid>` (the
    # `Accessor ID` beside it only names the token)
    rule("generic_api_key", "secret id", r"(?i)secret id[ \t]*=[ \t]*(" + UUID + ")", not_after=""),
    # Vault's `token create`/`login` table: `token   s.…` or `hvs.…` (the hvs. rule takes those)
    rule(
        "hashicorp_token",
        "token_duration token_accessor vault",
        r"token[ \t]{2,}(s\.[A-Za-z0-9]{24,100})" + LINE_END,
        near=LINE_START,
        not_after="",
    ),
    # Vault's unseal keys: `vault operator unseal <key>`, `Unseal Key 1: <key>` (base64 of 32 bytes+)
    rule(
        "generic_api_key",
        "unseal",
        r"(?i)(?:operator[ \t]+unseal(?:[ \t]+-\S+)*|unseal key(?:[ \t]+\d+)?:)[ \t]+"
        r"([A-Za-z0-9+/]{40,}={0,2})",
        not_after="",
    ),
    # Consul's gossip key (`encrypt`, base64 of 32 bytes: `consul keygen`'s output)
    rule(
        "generic_api_key",
        "encrypt",
        r"(?i)encrypt\"?[ \t]*[:=][ \t]*\"([A-Za-z0-9+/]{43}=)\"",
        not_after="",
    ),
    # What a key generator printed, on the line after it: `consul keygen`, `openssl rand -base64
    # 32`, Fernet's and Django's generators (a REPL's answer quoted), Python's `secrets.token_*`,
    # Drupal's hash salt; `head -c 32 /dev/urandom | base64`
    rule(
        "generic_api_key",
        "keygen generate_key openssl get_random_secret_key token_urlsafe token_hex gethashsalt urandom"
        " preauthkeys",  # (and Headscale's `preauthkeys create`)
        r"(?i)(?:consul[ \t]+keygen|operator[ \t]+(?:gossip[ \t]+keyring[ \t]+generate|keygen)"
        r"|preauthkeys[ \t]+create"
        r"|fernet\.generate_key\(\)|get_random_secret_key\(\)|secrets\.token_(?:urlsafe|hex)\(|urandom\(\d+\)"
        r"|openssl[ \t]+rand[ \t]|gethashsalt\(\)|/dev/u?random[ \t]*\|[ \t]*(?:base64|xxd|od))[^\n]*\r?\n"
        + OUTPUT_LEAD
        + r"[\"']?([^\s\"']{16,200})[\"']?"
        + LINE_END,
        not_after="",
        trusted=generated,  # printed, not a shell's: a `$` in it is a character
        check=generated,
    ),
    # Pulumi: `pulumi config set [--secret] <ns:name> <value>`, and `pulumi config --show-secrets`'
    # table, a namespaced key and its value (pulumi.com/docs, "Configuration")
    rule(
        "generic_password",
        "pulumi",
        r"(?i)pulumi[ \t]+config[ \t]+set[ \t]+(?:--?[\w-]+[ \t]+)*[\w.:-]*"
        + SECRET_WORDS
        + r"[\w.:-]*[ \t]+(?:--?[\w-]+[ \t]+)*"
        + QUOTED_OR_BARE,
        not_after="",
        check=literal_password,
    ),
    rule(
        "generic_password",
        "--show-secrets",
        BOL + r"[a-z][\w-]*:[a-z]\w*(?i:" + SECRET_WORDS + r")[ \t]{2,}(\S{4,200}?)" + LINE_END,
        not_after="",
        check=literal_password,
    ),
    # CloudFormation's parameters: `ParameterKey=DBPassword,ParameterValue=…` and its JSON file
    rule(
        "generic_password",
        "parameterkey",
        r"(?i)parameterkey\"?[ \t]*[:=][ \t]*\"?[\w-]*" + SECRET_WORDS + r"\w*\"?[ \t]*,[ \t]*"
        r"\"?parametervalue\"?[ \t]*[:=][ \t]*(?:\"([^\"\n]{3,200})\"|([^\s,\"]{3,200}))",
        not_after="",
        check=literal_password,
    ),
    # AWS CDK's `SecretValue.unsafePlainText("…")` / `unsafe_plain_text` (a secret in the template)
    rule(
        "generic_password",
        "secretvalue.",
        r"(?i)secretvalue\.(?:unsafe_?plain_?text|plain_?text)\([ \t]*[\"']([^\"'\n]{3,200})[\"']",
        not_after="",
        check=literal_password,
    ),
    # Telegram's api_hash (my.telegram.org): the app's secret, 32 hex digits beside its api_id
    rule("generic_api_key", "api_hash", r"(?i)api_hash\W{1,6}([0-9a-f]{32})(?![0-9a-f])", not_after=""),
    # Chat servers' incoming webhooks: Mattermost's `/hooks/<26>`, Rocket.Chat's `/hooks/<id>/<token>`
    rule("generic_api_key", "/hooks/", r"/hooks/([a-z0-9]{26})(?![\w-])", not_after=""),
    rule("generic_api_key", "/hooks/", r"/hooks/[A-Za-z0-9]{17}/([A-Za-z0-9]{48})(?![\w-])", not_after=""),
    # ZNC: `LoadModule = nickserv <password>`, `Server = host [+]port <password>`; IRC's `PASS`
    # before `NICK`/`USER` (RFC 2812), ZNC's `user/network:password`
    rule(
        "generic_password",
        "nickserv",
        r"(?i)loadmodule[ \t]*=[ \t]*nickserv[ \t]+(\S{4,100})" + LINE_END,
        not_after="",
        check=directive_password,
    ),
    rule(
        "generic_password",
        "<network znc",
        r"(?i)server[ \t]*=[ \t]*[\w.-]+[ \t]+\+?\d{2,5}[ \t]+(\S{4,100})" + LINE_END,
        near=LINE_START,
        not_after="",
        check=directive_password,
    ),
    rule(
        "generic_password",
        "nick",
        BOL + r"PASS[ \t]+(\S{4,100})\r?\n(?:NICK|USER)[ \t]",
        not_after="",
        check=directive_password,
    ),
    # Asterisk's sip.conf `register => user:secret@host` (Asterisk docs, sip.conf)
    rule(
        "generic_password",
        "register",
        r"(?i)register[ \t]*=>[ \t]*[^:\s@/]+:([^@\s:]{3,100})(?::[^@\s]*)?@",
        not_after="",
        check=literal_password,
    ),
    # The value a CLI printed for a key asked of it: Azure's `--query primaryKey -o tsv`, the
    # connection string or the key of a Service Bus, Cosmos DB or storage account
    rule(
        "generic_api_key",
        "--query",
        r"(?i)az(?<![\w-]az)[ \t][^\n|>]*?--query[ =][\"']?[\w.\[\]]*"
        r"(?:key|secret|password|connectionstring)\w*[\"']?"
        r"[^\n|>]*\r?\n" + OUTPUT_LEAD + r"([^\s\"']{16,300})" + LINE_END,
        not_after="",
        check=lambda value: (
            verify.random_enough(value) or "AccountKey=" in value or "SharedAccessKey=" in value
        ),
    ),
    # AWS CLI's tables (`--output table`): `|  SecretAccessKey|  …  |`; and `--output text`'s
    # `SecureString<TAB>value` of a decrypted parameter
    rule(
        "aws_secret_access_key",
        "secretaccesskey|",
        r"SecretAccessKey[ \t]*\|[ \t]*([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])",
        not_after="",
    ),
    rule(
        "generic_password",
        "securestring",
        r"\tSecureString\t([^\t\n]{3,300})\t\d",
        not_after="",
        check=literal_password,
    ),
    # Azure Resource Manager's parameter files: `"adminPassword": { "value": "…" }`
    rule(
        "generic_password",
        "",
        r"\"value\"[ \t]*:[ \t]*\"([^\"\n]{3,200})\"",
        near=r"(?i)\"\w*(?:password|secret|token|apikey)\w*\"[ \t]*:[ \t]*\{\s*",
        not_after="",
        check=literal_password,
    ),
    # SSM's SecureString: `aws ssm put-parameter … --type SecureString … --value '…'`
    rule(
        "generic_password",
        "securestring",
        r"(?i)put-parameter\b(?=(?:[^\n]|\\\r?\n){0,400}?--type[ =]+[\"']?securestring)"
        r"(?:[^\n]|\\\r?\n){0,400}?--value[ =]+" + QUOTED_OR_BARE,
        not_after="",
        check=literal_password,
    ),
    # Azure storage keys: Spark's `fs.azure.account.key.<account>…` setting, and the table
    # `az storage account keys list -o table` prints (`key1  Full  …`)
    rule(
        "generic_api_key",
        "fs.azure.account.key.",
        r"fs\.azure\.account\.key\.[\w.-]+[\"']?[ \t]*[,=:][ \t]*\n?[ \t]*[\"']?([A-Za-z0-9+/]{86}==)",
        not_after="",
    ),
    rule(
        "generic_api_key",
        "full",
        r"(?i)key(?<![\w-]key)[12][ \t]+full[ \t]+([A-Za-z0-9+/]{86}==)",
        not_after="",
    ),
    # Kerberos keytabs, base64-encoded (a keytab starts 05 02: `BQI…`): every key of a principal
    rule("private_key", "bqiaaa", r"(?<![A-Za-z0-9+/])(BQIAAA[A-Za-z0-9+/]{50,}={0,2})", not_after=""),
    # ktutil's `addent -password …` reads the password on the next line (a here-document)
    rule(
        "generic_password",
        "addent",
        r"addent[ \t]+-password\b[^\n]*\r?\n[ \t]*([^\s]{3,200})" + LINE_END,
        not_after="",
        check=literal_password,
    ),
    # Nagios' check_snmp: SNMPv3's auth and privacy passphrases (`-A …`, `-X …`)
    rule(
        "cli_credentials",
        "check_snmp",
        r"check_snmp\b[^\n]*?[ \t]-[AX][ \t]+([^\s-]\S{2,200})",
        not_after="",
        check=literal_password,
    ),
    # Postfix's sasl_passwd: `[relay]:port  user:password` or `@domain  user:password`
    # (postfix.org, SASL_README)
    rule(
        "generic_password",
        "sasl relay",
        BOL + r"[ \t#]*(?:\[[\w.-]+\](?::\d+)?|[\w-]+(?:\.[\w-]+)+:\d+|@[\w-]+(?:\.[\w-]+)+)[ \t]+"
        r"[^\s:@]+@[\w-]+(?:\.[\w-]+)+:(\S{3,200})" + LINE_END,
        not_after="",
        check=literal_password,
    ),
    # Enterprise integration tools: X12's ISA segment (the password after qualifier `01`), an FTP
    # client's `user NAME PASSWORD` (mainframe and EDI drops), Oracle EBS' `FNDCPASS apps/…`, RACF's
    # `ALTUSER/ADDUSER … PASSWORD(…)`, PeopleSoft's `psdmtx -CP …`, Informatica's `pmrep -x`,
    # `infacmd -pd/-cpd`, Anypoint's `conf client_secret`, MuleSoft's secure-properties key
    rule("generic_password", "isa*", r"ISA\*\d\d\*[^*\n]*\*01\*([^*\s]{1,10})\s*\*", not_after=""),
    rule(
        "generic_password",
        "ftp",
        r"(?m)^[ \t]*user[ \t]+[\w.@-]+[ \t]+([^\s]{3,100})" + LINE_END,
        not_after="",
        check=literal_password,
    ),
    rule(
        "cli_credentials",
        "fndcpass",
        r"FNDCPASS[ \t]+\w+/([^\s]{3,100})",
        not_after="",
        check=literal_password,
    ),
    rule(
        "cli_credentials",
        "password(",
        r"(?i)(?:altuser|adduser)\b[^\n]*?\bpassword\(([^)\s]{3,100})\)",
        not_after="",
        check=literal_password,
    ),
    rule(
        "cli_credentials",
        "psdmtx pmrep infacmd",
        r"(?i)(?:psdmtx|pmrep|infacmd(?:\.sh)?)\b(?:[^\n|;&]|\\\r?\n)*?[ \t]-(?:cp|x|pd|cpd)[ \t]+"
        + QUOTED_OR_BARE,
        not_after="",
        # (`-X` names the variable that holds it: `INFA_REPCNX_PWD`)
        check=lambda value: literal_password(value) and not metavariable(value),
    ),
    rule(
        "cli_credentials",
        "client_secret",
        r"conf[ \t]+client_secret[ \t]+([^\s]{8,200})",
        not_after="",
        check=random_with_digit,
    ),
    rule(
        "generic_api_key",
        "mule.key secure-properties securepropertiestool",
        r"mule\.key(?:[ \t]*=|[ \t]{2,})[ \t]*([^\s$]{8,100})"
        r"|<secure-properties:config\b[^>]*?\bkey=\"([^\"$]{8,100})\""
        r"|SecurePropertiesTool\b[^\n]*?(?:encrypt|decrypt)[ \t]+\w+[ \t]+\w+[ \t]+([^\s]{8,100})",
        not_after="",
    ),
    # Home labs: Plex's claim tokens, Porkbun's secret keys, Proxmox' `token.cfg` lines (`user@realm!id
    # <uuid>`), `immich login URL KEY`
    rule(
        "generic_api_key",
        "claim-",
        r"(?<![\w-])(claim-[A-Za-z0-9_-]{20})(?![\w-])",
        check=random_with_digit,
    ),
    rule("generic_api_key", "sk1_", r"(?<![\w-])(sk1_[0-9a-f]{64})(?![\w-])"),
    rule("generic_api_key", "@pam! @pve!", r"@(?:pam|pve)![\w-]+[ \t]+(" + UUID + ")", not_after=""),
    rule("cli_credentials", "immich", r"immich[ \t]+login[ \t]+\S+[ \t]+([\w-]{20,200})", not_after=""),
]


# A Kubernetes Secret's `data:` holds each value base64-encoded (kubernetes.io, "Secrets"): judged
# decoded, under its key's name, as the same pair written plainly would be
SECRET_DATA_LINE = re.compile(
    r"(?m)^[ \t]+([A-Za-z_][\w.-]*):[ \t]+\"?([A-Za-z0-9+/]{8,}={0,2})\"?" + LINE_END
)


def find_in_secret_data(text: str, lowered: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, class) of each base64 value in a Kubernetes Secret's `data:` whose decoded
    value, written as `NAME=value`, holds a secret."""
    if "data:" not in lowered or ("kind: secret" not in lowered and "get secret" not in lowered):
        return
    from pica.stages.secrets import find_secrets  # (the package's entry point judges the decoded pair)

    for line in SECRET_DATA_LINE.finditer(text):
        try:
            value = base64.b64decode(line[2], validate=True).decode()
        except ValueError:  # (binascii.Error and UnicodeDecodeError are ValueErrors)
            continue
        if value.isprintable() and find_secrets(f"{line[1]}={value}\n"):
            yield line.start(2), line.end(2), "generic_password"
