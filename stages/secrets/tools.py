"""Where one tool each puts a credential: a database client's login syntax, a mail relay's or a
chat server's config line, an orchestrator's printed token. None has a name beside its value the
keyed scan would read (`using …`, `register => user:…@`), so each is written from the tool's own
manual (cited beside it).
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterator

from pica.stages.secrets import verify
from pica.stages.secrets.announced import typed
from pica.stages.secrets.rules import (
    BOL,
    LINE_END,
    LINE_START,
    OUTPUT_LEAD,
    Rule,
    directive_password,
    literal_password,
    rule,
)

QUOTED_OR_BARE = r"(?:'([^'\n]{3,200})'|\"([^\"\n]{3,200})\"|([^\s'\";]{3,200}))"
SECRET_WORDS = r"(?:password|passwd|secret|token|api_?key|apikey)"
UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


ID_THEN_SECRET = r"[\"']?[ \t]*,\s*[\"']([A-Za-z0-9+/=_-]{24,100})[\"']"


def random_with_a_digit(value: str) -> bool:
    return re.search(r"\d", value) is not None and verify.random_enough(value)


def generated(value: str) -> bool:
    """A key generator's output: random, with digits or base64's signs; not a word, a path, a
    placeholder or the next line's `NAME=…`."""
    if (
        value.startswith("/")
        or "<" in value
        or re.match(r"[A-Za-z_]\w*=(?!=*$)", value)  # (base64 padding is no `=`)
        or verify.is_stand_in(value)
    ):
        return False
    return re.search(r"[\d+/=]", value) is not None and verify.random_enough(value)


TOOLS: list[Rule] = [
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
    # Drupal's hash salt
    rule(
        "generic_api_key",
        "keygen generate_key openssl get_random_secret_key token_urlsafe token_hex gethashsalt urandom",
        r"(?i)(?:consul[ \t]+keygen|operator[ \t]+(?:gossip[ \t]+keyring[ \t]+generate|keygen)"
        r"|fernet\.generate_key\(\)|get_random_secret_key\(\)|secrets\.token_(?:urlsafe|hex)\(|urandom\(\d+\)"
        r"|openssl[ \t]+rand[ \t]|gethashsalt\(\))[^\n]*\r?\n"
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
    # An access key's id, then its secret, as a call's arguments or a CSV's columns: Alibaba's
    # `LTAI…`, AWS's `AKIA…`, DigitalOcean Spaces' `DO00…`, Backblaze's 25 hex digits, the 20 capitals
    # and digits of MinIO's and Wasabi's (`oss.New(endpoint, "LTAI…", "…")`, `NewStaticV4(…)`)
    rule(
        "generic_api_key",
        "",
        r"(?:LTAI[0-9A-Za-z]{12,24}|(?:AKIA|ASIA|DO00)[0-9A-Z]{16})" + ID_THEN_SECRET,
        not_after="",
        check=random_with_a_digit,
    ),
    rule(
        "generic_api_key",
        "minio wasabi backblaze authorize_account newstaticv4 key,secret twilio omniauth",
        # (and Twilio's API key SIDs, `SK…`, GitHub Apps' client ids, `Iv1.…`)
        r"(?<![\w-])(?:00[0-9a-f]{23}|[0-9A-Z]{20}|SK[0-9a-f]{32}|Iv1\.[0-9a-f]{16}|(?<=:auth0,\s{5})[A-Za-z0-9]{32})"
        + ID_THEN_SECRET
        + r"|(?<![\w-])[0-9A-Z]{20},([A-Za-z0-9+/=]{40})(?=\s|$|\\)",
        not_after="",
        check=random_with_a_digit,
    ),
    # Backblaze B2's application keys: `K00` and 28 base62 characters
    rule("generic_api_key", "", r"(?<![\w-])(K00[A-Za-z0-9]{28})(?![\w-])", check=verify.random_mixed),
    # Resend's API keys: `re_`, 8, `_`, 24 (resend.com/docs)
    rule("generic_api_key", "re_", r"re_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}(?![\w-])", entropy=3.0),
    # WordPress's keys and salts (`define('AUTH_KEY', '…')`, the image's `WORDPRESS_NONCE_KEY`): 64
    # printable characters from api.wordpress.org/secret-key, signs and all
    rule(
        "generic_api_key",
        "auth_key auth_salt secure_auth_ logged_in_ nonce_key nonce_salt",
        r"(?i)(?:secure_auth|logged_in|nonce|auth)_(?:key|salt)[\"']?[ \t]*[,:=][ \t]*"
        r"(?:\"([^\"\n]{32,100})\"|'([^'\n]{32,100})')",
        not_after="",
        check=lambda value: not verify.is_stand_in(value) and verify.random_enough(value),
    ),
    # Laravel's APP_KEY, `base64:` and 32 bytes (laravel.com/docs, Encryption)
    rule("generic_api_key", "app_key", r"(?i)app_key\W{1,4}(base64:[A-Za-z0-9+/]{43}=)", not_after=""),
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
    # Shells: a password written to a file that the next command reads as one (`echo '…' > /tmp/.vp
    # && ansible-vault … --vault-password-file /tmp/.vp`); fish's `set -gx BORG_PASSPHRASE '…'`;
    # the plaintext given to a hasher or an obscurer (`openssl passwd -6 '…'`, `rclone obscure '…'`);
    # an archive's password (`unzip -P …`, `zip -P …`, `7z x -p…`)
    rule(
        "cli_credentials",
        "--vault-password-file --vault-pass-file",
        r"(?:echo|printf)[ \t]+(?P<q>['\"])(?P<secret>[^'\"\n]{3,200})(?P=q)[ \t]*>[ \t]*(?P<file>\S+)"
        r"[^\n]*?--vault-pass(?:word)?-file[ =](?P=file)\b",
        not_after="",
        check=literal_password,
    ),
    rule(
        "cli_credentials",
        "set -",
        r"(?i)set(?<![\w-]set)[ \t]+-[a-z]+[ \t]+\w*(?:pass(?:word|phrase)?|token|secret|api_?key)\w*[ \t]+"
        + QUOTED_OR_BARE,
        not_after="",
        check=literal_password,
    ),
    rule(
        "cli_credentials",
        "passwd obscure",
        r"(?:openssl[ \t]+passwd|rclone[ \t]+obscure)(?:[ \t]+-\S+)*[ \t]+" + QUOTED_OR_BARE,
        not_after="",
        check=literal_password,
    ),
    rule(
        "cli_credentials",
        "",
        r"(?:unzip(?<![\w-]unzip)|zip(?<![\w-]zip))(?![\w-])[^\n|;&]*?[ \t]-P[ \t]+" + QUOTED_OR_BARE,
        not_after="",
        check=literal_password,
    ),
    rule(
        "cli_credentials",
        "7z",
        r"7z(?<![\w-]7z)a?[ \t][^\n|;&]*?[ \t]-p([^\s'\"-]\S{2,200})",
        not_after="",
        check=literal_password,
    ),
    # `aws configure`'s prompt and the answer typed after it
    rule(
        "aws_secret_access_key",
        "aws secret access key [",
        r"AWS Secret Access Key \[[^\]\n]*\]:[ \t]*([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])",
        not_after="",
    ),
    # crates.io's API tokens: `cio` and 32 base62 characters (`cargo login …`)
    rule("generic_api_key", "cio", r"(?<![\w-])cio[A-Za-z0-9]{32}(?![\w-])", check=random_with_a_digit),
    # Google's app passwords: 16 letters in four groups, for Gmail's SMTP and IMAP, told as one
    # ("app password: xgmc qlti hwzh hhld"); four short words of prose are not (`spam spam spam spam`)
    rule(
        "generic_password",
        "",
        r"(?i)(?:app[ -]?password|application|aplicación|app-passwort|gmail|google)[^\n]{0,40}?"
        r"(?<![a-z])([a-z]{4} [a-z]{4} [a-z]{4} [a-z]{4})(?![a-z])",
        check=lambda value: len(set(value.split())) == 4 and verify.few_vowels(value.replace(" ", "")),
    ),
    # "user / password" in notes and tickets (`ADMIN / Ipmi$Lighthouse5`, `` `admin` / `Leeds-Branch$410` ``,
    # a Wi-Fi's `CasaAzul-Conf / Azulejo-7788`): a name, a slash between spaces, a typed password.
    # Prose pairs things the same way (`float16 / bfloat16`, `RT-DETR / PP-DocLayoutV3`): a value
    # without a sign such as `$` or `#` needs a login's word before it on its line
    *(
        rule(
            "generic_password",
            "",
            r" / `?([\w!#$%&*@^?+.=~-]{8,60}?)`?(?=[.,;)]*(?:\s|$))",
            near=context + r"(?:^|[\s(:,>])`?[\w.@-]*[A-Za-z][\w.@-]*`?",  # a name: a letter in it
            not_after="",
            # (not code: an attribute, a power, a call, an index)
            check=lambda value, signed=signed: (
                typed(value)
                and re.search(r"\.[A-Za-z_]|\*\*|[()\[\]]", value) is None
                and re.match(r"\d+(?:\.\d+)?[-+*/]", value) is None  # arithmetic: `2.0+term`
                and (not signed or re.search(r"[!#$%&*@^?+=~]", value) is not None)
            ),
        )
        for context, signed in (
            ("", True),
            (
                r"(?i)(?:login|passw\w*|pw|pass|creds?|credentials|wi-?fi|ssid|user\w*|admin|account|console"
                r"|router|ipmi|vpn)\b[^\n]{0,60}?",
                False,
            ),
        )
    ),
    # Package registries: `echo -n 'user:pass' | base64` (npm's `_auth`), Yarn's `npmAuthIdent`
    # (base64 of `user:password`), `npm config set _auth|_password …`, Composer's `http-basic`,
    # `bearer` and `*-oauth` blocks and `composer config`, NuGet's `-k`/`--api-key`, Bundler's
    # `BUNDLE_<HOST>` credentials, conda's `/t/<token>/` channels, `anaconda -t`, skopeo's `--creds`
    rule(
        "cli_credentials",
        "base64",
        r"echo[ \t]+(?:-n[ \t]+)?(['\"])[\w.@-]+:(?P<secret>[^'\"\n]{3,200})\1[ \t]*\|[ \t]*base64\b",
        not_after="",
        check=literal_password,
    ),
    rule(
        "generic_password",
        "npmauthident _auth",
        r"(?i)(?:npmauthident[\"']?[ \t]*[:=][ \t]*[\"']?|npm[ \t]+config[ \t]+set[ \t]+_auth[ \t=]+)"
        r"([A-Za-z0-9+/]{8,}={0,2})",
        not_after="",
        check=verify.decodes_to_login,
    ),
    rule(
        "generic_password",
        "_password _authtoken",
        r"(?i)npm[ \t]+config[ \t]+set[ \t]+[^\s]*(?:_password|_authtoken)[ \t=]+" + QUOTED_OR_BARE,
        not_after="",
        check=literal_password,
    ),
    rule(
        "generic_password",
        "http-basic.",
        r"(?i)composer[ \t]+config\b[^\n|;&]*?http-basic\.[\w.-]+[ \t]+\S+[ \t]+" + QUOTED_OR_BARE,
        not_after="",
        check=literal_password,
    ),
    rule(
        "generic_api_key",
        "bearer -oauth gitlab-token",
        r"\"(?:bearer|github-oauth|gitlab-oauth|gitlab-token|bitbucket-oauth)\"[ \t]*:[ \t]*\{\s*"
        r"\"[\w.-]+\"[ \t]*:[ \t]*\"([^\"\n]{16,200})\"",
        not_after="",
        check=random_with_a_digit,
    ),
    rule(
        "cli_credentials",
        "nuget",
        r"(?i)nuget(?<![\w-]nuget)[ \t]+push\b[^\n|;&]*?[ \t](?:-k|--api-key|-apikey)[ \t]+([^\s\"']{8,200})",
        not_after="",
        check=lambda value: random_with_a_digit(value) or bool(re.fullmatch(UUID, value)),
    ),
    rule(
        "generic_password",
        "bundle_",
        r"BUNDLE_[A-Z0-9_]*__[A-Z0-9_]+[\"']?[ \t]*[:=][ \t]*[\"']?([^\s\"']{8,200})",
        not_after="",
        check=lambda value: random_with_a_digit(value) or literal_password(value.split(":")[-1]),
    ),
    rule("generic_api_key", "anaconda.org/t/", r"anaconda\.org/t/([\w-]{20,100})/?", not_after=""),
    rule(
        "cli_credentials",
        "anaconda",
        r"anaconda(?<![\w-]anaconda)[ \t]+(?:-\S+[ \t]+)*?-t[ \t]+([\w-]{20,100})",
        not_after="",
    ),
    rule(
        "cli_credentials",
        "creds",
        r"--(?:src-|dest-)?creds[ =][\"']?[^\s:'\"]+:([^\s'\"]{3,200})",
        not_after="",
        check=literal_password,
    ),
    # Databricks: a secret put (`put_secret(…, string_value="…")`, Terraform's `databricks_secret`),
    # a widget whose secret-named parameter has a default (`dbutils.widgets.text("mysql_pass", "…")`)
    rule(
        "generic_password",
        "string_value",
        r"(?:put_secret|databricks_secret)\b[^)}]{0,300}?string_value[ \t]*=[ \t]*\"([^\"\n]{3,300})\"",
        not_after="",
        check=literal_password,
    ),
    rule(
        "generic_password",
        "widget",
        r"(?i)(?:widgets\.text\(\\?[\"']|create[ \t]+widget[ \t]+text[ \t]+)"
        r"\w*(?:pass|pwd|secret|token|key)\w*"
        r"(?:\\?[\"'][ \t]*,[ \t]*\\?[\"']|[ \t]+default[ \t]+[\"'])([^\"'\\\n]{3,200})",
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
    # ngrok's authtoken given to its CLI
    rule(
        "cli_credentials",
        "ngrok",
        r"ngrok(?<![\w-]ngrok)[ \t]+(?:config[ \t]+add-authtoken|authtoken)[ \t]+([\w-]{20,200})",
        not_after="",
    ),
    # A JWT signing key beside its algorithm: PHP's `JWT::encode($claims, '…', 'HS256')`, Elixir's
    # `Joken.Signer.create("HS512", "…")`; jjwt's `Keys.hmacShaKeyFor("…"`, java-jwt's
    # `Algorithm.HMAC256("…")` with any sign in it
    rule(
        "generic_api_key",
        "hs256 hs384 hs512",
        r"[\"']([^\"'\n]{16,200})[\"'][ \t]*,[ \t]*[\"']HS(?:256|384|512)[\"']"
        r"|[\"']HS(?:256|384|512)[\"'][ \t]*,[ \t]*[\"']([^\"'\n]{16,200})[\"']",
        not_after="",
        check=lambda value: verify.random_enough(value) and not verify.is_stand_in(value),
    ),
    rule(
        "generic_api_key",
        "hmacshakeyfor algorithm.hmac",
        r"(?i)(?:hmacshakeyfor|algorithm\.hmac(?:256|384|512))\(\s*\"([^\"\n]{16,200})\"",
        not_after="",
        check=lambda value: verify.random_enough(value) and not verify.is_stand_in(value),
    ),
    # A key decoded from a literal into a key's name (`piiKey, _ = hex.DecodeString("…")`, Java's
    # `KEY = Base64.getDecoder().decode("…")`, Elixir's `key: Base.decode64!("…")`), and Laravel's
    # `'key' => 'base64:…'`, a rule for its own length
    rule(
        "generic_api_key",
        "",
        # (led by the call, the engine's fast search; the name before it is looked for behind)
        r"(?i)(?:decodestring|decode64!?|decode|fromhex|unhexlify|frombase64string)\("
        r"[ \t]*[\"']([A-Za-z0-9+/=]{22,200})[\"']",
        near=r"(?i)\w*(?:key|secret)\w*\\?[\"']?(?:[ \t]*,[ \t]*_)?[ \t]*(?::=|=|:|=>)[ \t]*[\w.()\[\]:]*?",
        not_after="",
        check=random_with_a_digit,
    ),
    rule(
        "generic_api_key",
        "base64:",
        r"[\"']key[\"'][ \t]*=>[ \t]*[\"'](base64:[A-Za-z0-9+/]{43}=)",
        not_after="",
    ),
    # `user:password` handed to code whole: libcurl's `CURLOPT_USERPWD`, a Basic header built from a
    # literal (`base64Encode(utf8.encode('user:…'))`, `btoa("user:…")`, `b64encode(b"user:…")`)
    rule(
        "generic_password",
        "curlopt_userpwd btoa b64encode base64encode encodetostring",
        r"(?i)(?:curlopt_userpwd[ \t]*,|btoa\(|b64encode\(b?|base64encode\((?:utf8\.encode\()?"
        r"|encodetostring\((?:\[\]byte\()?)[ \t]*[\"'][^\"':\s]{1,64}:([^\"'\n]{3,200})[\"']",
        not_after="",
        check=literal_password,
    ),
    # Mailgun's newer keys (`<32 hex>-<8>-<8>`), oauth2-rs' `ClientSecret::new("…")`
    rule("generic_api_key", "mailgun", r"(?<![\w-])([0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8})(?![\w-])"),
    rule(
        "generic_api_key",
        "clientsecret::new",
        r"ClientSecret::new\(\s*\"([^\"\n]{16,200})\"",
        not_after="",
        check=random_with_a_digit,
    ),
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
        "[+]",
        r"\[\+\][ \t]+[\w.-]+\\[\w.$-]+:([^\s(][^\s]{2,200})",
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
        check=literal_password,
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
        + r"(?:[\w.\\@-]+:)?(?:[0-9a-f]{32,128}|\$krb5\w+\$[^\n]*?)(?::[0-9a-z]{1,32})?:([^\s:]{3,200})"
        + LINE_END,
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
    # A secret file printed by `cat` (`sudo cat /etc/ldap.secret`, `cat /run/secrets/db_password`)
    rule(
        "generic_password",
        "cat ",
        r"cat(?<![\w-]cat)[ \t]+[\w./~-]*(?:secret|passw(?:or)?d|\.pass\b|token|credential)"
        r"[\w./~-]*[ \t]*\r?\n" + OUTPUT_LEAD + r"([^\s$#][^\s]{5,200})" + LINE_END,
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
    # Desktops' stores and settings: macOS' `security add-…-password … -w '…'` and `defaults write
    # … …Password -string '…'`, NetworkManager's `nmcli … wifi-sec.psk '…'`, wpa_supplicant's
    # `set_network N psk "…"` and ifupdown's `wpa-psk "…"`, netsh's `keyMaterial="…"`, the registry's
    # `…Password  REG_SZ  …` and `Set-ItemProperty … "…Password" -Value "…"`, FileZilla Server's
    # `<Option Name="Pass">`, a literal piped into `ConvertTo-SecureString -AsPlainText`
    rule(
        "cli_credentials",
        "add-generic-password add-internet-password",
        r"security[ \t]+add-(?:generic|internet)-password\b[^\n]*?[ \t]-w[ \t]+" + QUOTED_OR_BARE,
        not_after="",
        check=literal_password,
    ),
    rule(
        "cli_credentials",
        "defaults write",
        r"(?i)defaults[ \t]+write[ \t]+\S+[ \t]+\w*(?:password|secret|token|apikey)\w*[ \t]+"
        r"(?:-string[ \t]+)?" + QUOTED_OR_BARE,
        not_after="",
        check=literal_password,
    ),
    rule(
        "cli_credentials",
        "wifi-sec.psk 802-1x.password vpn.secrets",
        r"(?:wifi-sec\.psk|802-1x\.password|vpn\.secrets\.[\w.-]+)[ \t]+" + QUOTED_OR_BARE,
        not_after="",
        check=literal_password,
    ),
    rule(
        "generic_password",
        "psk",
        r"(?:wpa-psk|set_network[ \t]+\d+[ \t]+psk)[ \t]+\"([^\"\n]{8,63})\"",
        not_after="",
        check=literal_password,
    ),
    rule("generic_password", "keymaterial", r"(?i)keymaterial=[\"']?([^\"'\s]{8,63})", not_after=""),
    rule(
        "generic_password",
        "reg_sz",
        r"(?i)\w*(?:password|secret|token|accountkey|apikey)\w*[ \t]+REG_SZ[ \t]+(\S[^\n]{2,200}?)"
        + LINE_END,
        not_after="",
        check=literal_password,
    ),
    rule(
        "generic_password",
        "set-itemproperty",
        r"(?i)set-itemproperty\b[^\n]*?[\"']?\w*(?:password|secret|token)\w*[\"']?[ \t]+-value[ \t]+"
        + QUOTED_OR_BARE,
        not_after="",
        check=literal_password,
    ),
    rule(
        "generic_password",
        'name="pass"',
        r'(?i)<option name="pass(?:word)?">([^<\n]{3,200})</option>',
        not_after="",
        check=literal_password,
    ),
    rule(
        "generic_password",
        "convertto-securestring",
        r"(?i)[\"']([^\"'\n]{3,200})[\"'][ \t]*\|[ \t]*convertto-securestring\b[^\n]*-asplaintext",
        not_after="",
        check=literal_password,
    ),
    # What a command prints when asked for one secret: `secret-tool lookup …`, `gpp-decrypt …`,
    # `keepassxc-cli generate`
    rule(
        "generic_password",
        "",
        r"(?:secret-tool[ \t]+lookup|gpp-decrypt|keepassxc-cli[ \t]+generate)\b[^\n|>]*\r?\n"
        + OUTPUT_LEAD
        + r"([^\s$#>][^\s]{5,200})"
        + LINE_END,
        not_after="",
        check=lambda value: literal_password(value) and re.match(r"\w+=", value) is None,  # not `exit=1`
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
]


# A Kubernetes Secret's `data:` holds each value base64-encoded (kubernetes.io, "Secrets"): judged
# decoded, under its key's name, as the same pair written plainly would be
SECRET_DATA_LINE = re.compile(r"(?m)^[ \t]+([A-Za-z_][\w.-]*):[ \t]+([A-Za-z0-9+/]{8,}={0,2})" + LINE_END)


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


# A JSON Web Key's private members (RFC 7517/7518): `k` of a symmetric key, `d` (and RSA's primes)
# of a private one. Looked for only near a key's type (`kty`): one-letter names occur everywhere.
JWK_MEMBER = re.compile(r"\b(?:k|d|p|q|dp|dq|qi)[\"']?[ \t]*:[ \t]*[\"']([A-Za-z0-9_-]{20,})[\"']")


def find_jwk_private(text: str, lowered: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, class) of each private member of a JSON Web Key."""
    at, done = lowered.find("kty"), 0
    while at != -1:
        for member in JWK_MEMBER.finditer(text, max(done, at - 300), at + 800):
            if verify.random_enough(member[1]):
                yield member.start(1), member.end(1), "private_key"
        done = at + 800
        at = lowered.find("kty", done)
