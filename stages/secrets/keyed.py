"""Keyed assignments: `name <sep> value` where the name says secret (password, token, api_key, …)
and the value looks like one: not a placeholder, a template, a reference, a call, a word or an id.

The name words and the filters follow detect-secrets' KeywordDetector (its denylist and
`probably_false_positive`) and gitleaks' generic-api-key (entropy 3.5, its allowlist of names
like `key_id`, `public_key`, `token_url`). The separators are those of gitleaks'
GenerateSampleSecrets templates: `=`, `:`, `:=`, `::=`, `?=`, `+=`, `.=`, `=>`, `==`, a CSV comma,
Logseq's `::`, a YAML block (`: |`), and Go/Kotlin/C#/VB declarations with a type between name
and `=` (`Const AWS_SECRET_KEY As String = "…"`), a name inside a call or an index
(`.Item("sendpassword") = "…"`); and the mirror of a comparison, `if ("…" == password)`.

For speed the scan starts from the secret words (found in the lowercased text), then matches the
whole assignment from the start of the name: text without those words costs one search.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

from pica.stages.secrets.verify import (
    FIELD,
    TEMPLATE,
    dollar_as_character,
    entropy,
    has_digit,
    is_stand_in,
    password_verifier,
    prose_phrase,
    random_enough,
    random_letters,
    random_mixed,
    sequential_run,
    typed_password,
    wholly_sequential,
)

# A secret word followed, within the name, by an assignment: most mentions of "token" in prose
# are not, and are skipped without a full match.
SECRET_WORD = re.compile(
    r"(?:secret|token|pass|pwd|pw|key|auth|credential|creds|pat(?!h)|salt|seed|psk|authtok)"
    r"(?=[\w.$-]{0,30}(?:[ _-]?\d+)?(?:\[\d*\])?(?:\\?[\"'][\])]?|\\?\]?)[ \t]*"
    r"(?:[:=,?+.!|<>]|is[ \t]|@?[\"'`]|string|str|char|const|as[ \t]+string))"
)
# `secret_id` is Vault AppRole's SecretID, a credential (developer.hashicorp.com/vault/docs/auth/approle),
# and Consul's ACL token's; `SecretString` the secret AWS Secrets Manager returns; Rails' and
# Phoenix's `secret_key_base` signs their sessions
SECRET_NAME = (
    r"(?:secret[_-]?id|secret[_-]?string|secret[_-]?key[_-]?base|secret|token|pass[_-]?phrase|passw(?:(?:or)?d)?|passwd|pwd|pw|pass|api[_-]?key|apikey|access[_-]?key|private[_-]?key"
    r"|credential|creds|auth|auth[_-]?key|authtok|pat|license[_-]?key|account[_-]?key|key|salt|seed|psk)"
)
# A name may end with the stage the secret is for: `client_secret_production`, `API_KEY_PROD`
# (and with himalaya's `.raw`, `imap-passwd.raw = "…"`: the literal, not a command to get it)
STAGE = (
    r"(?i:prod|production|live|dev|development|staging|stage|sandbox|qa|uat|primary|secondary|backup|old|new"
    r"|private)"  # (and Mailjet's `MJ_APIKEY_PRIVATE`, the secret half)
)
NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-$")
KEYED = re.compile(
    r"(?P<name>[\w.$-]*?(?i:"
    + SECRET_NAME
    + r")[sS]?(?:[ _-]?\d+)?(?:[_-]"
    + STAGE
    + r")?(?:\.raw)?)(?![A-Za-z])(?:\[\d*\])?(?:\\?[\"'][\])]?|\\?\]?)"
    r"(?:[ \t]*:?[ \t]*(?:string|String|str|&(?:'static[ \t]+)?(?:str|\[u8\])|const\s+char\s*\*|char\s*\*)"
    r"(?=[ \t]*[:=])|[ \t]+[Aa]s[ \t]+String(?=[ \t]*=))?"
    r"(?P<sep>[ \t]*(?:===?|!==?|=>|:{1,3}=|[?+.]=|\|\|=|=|<<?-(?=[ \t])|::(?=[ \t])"
    r"|:(?!:)(?:[ \t]*[|>][-+]?[ \t]*\r?\n[ \t]*)?)[ \t]*"
    r"|[ \t]+is[ \t]+|[ \t]+(?=@?[\"'])|,(?=[^\s,])|,[ \t]+(?=[\"']))"
    # Python's r'', b'', f'' literals; Go's []byte("…"), C++'s std::string("…"), Objective-C's @"…",
    # JavaScript's JSON.stringify("…") (webpack's DefinePlugin), T-SQL's N'…'
    # (a list of one: Keycloak's `"bindCredential": ["…"]`)
    r"(?P<call>(?!(?:sodium_hex2bin|hex2bin|base64_decode|unhexlify|b64decode)\()\w+\()?"
    r"[ \t]*(?:\[[ \t]*(?=\\?[\"']))?"
    r"(?P<prefix>[rRbBuUfF]{1,2}(?=[\"'])|N(?=')|(?:\[\]byte|std::string|JSON\.stringify|sodium_hex2bin|hex2bin|base64_decode|bytes\.fromhex|(?:u?binascii\.)?unhexlify|(?:base64\.)?b64decode)\((?=[\"'])|@(?=\"))?"
    r"(?:\\?(?P<q>[\"'`])(?P<quoted>(?:[^\"'`\n\\]|\\(?![\"'`]))+)\\?(?P=q)"
    r"|(?P<bare>(?:(?!\\[nrt]|</(?!code>|kbd>|tt>|samp>))[^\s\"'`,;)}\]]){4,300}))"
)
# A name and its value as the two arguments of a setter or a definition: PHP's
# `define('DB_PASSWORD', '…')`, Java's `setProperty("…keyStorePassword", "…")` and
# `put("password", "…")`, Go's `os.Setenv("API_KEY", "…")`, JavaScript's `setItem("token", "…")`, a
# header set by name (`.header("DD-API-KEY", "…")`, Go's `req.Header.Set("X-Api-Key", "…")`);
# or of a lookup with a default, the value used when the environment has none:
# `os.environ.get("SECRET_KEY", "…")`, `getenv("API_KEY", "…")`, Ruby's `ENV.fetch("TOKEN", "…")`,
# `System.getProperty("db.password", "…")`, python-decouple's `config("KEY", default="…")`.
SETTER_BEFORE = re.compile(
    r"\b(?:define|put|setProperty|setItem|setdefault|set|add|Add|setenv|Setenv|putenv"
    r"|get|getenv|Getenv|getEnv|fetch|getProperty|getOrDefault|env|config|param"
    r"|header|Header|setHeader|addHeader|setRequestHeader|append|Set)\(\s*[\"']\Z"
)
SETTER_PAIR = re.compile(
    r"(?P<name>[\w.$-]*?(?i:" + SECRET_NAME + r")s?(?:[ _-]?\d+)?)[\"']\s*,\s*(?:default\s*=\s*)?"
    r"(?P<q>[\"'])(?P<quoted>(?:[^\"'\n\\]|\\.)+)(?P=q)\s*[),]"
)
# An instruction: "Set `ADMIN_PASSWORD` to `P@ssw0rd252!`", "set api_key to 9f2c…" (READMEs, notes
# to an agent): the name after `set`, the value after `to`.
SET_TO_BEFORE = re.compile(r"set(?<!\wset)[ \t]+`?")  # on the lowercased text, led by its literal
SET_TO = re.compile(
    r"(?P<name>[\w.$-]*?(?i:" + SECRET_NAME + r")s?)`?[ \t]+to[ \t]+"
    r"(?:(?P<q>`)(?P<quoted>[^`\n]+)`|(?P<bare>[^\s`]+?))(?=[.,;:!?)]*(?:\s|$))"
)
# The mirror of `password == "…"`: a literal compared with a secret-named variable,
# `if ("…" == password)`, `if ("…" !== my_private_key)` (detect-secrets' KeywordDetector
# FOLLOWED_BY_EQUAL_SIGNS… and its reverse `PRECEDED_BY_EQUAL_COMPARISON_SIGNS_QUOTES_REQUIRED_REGEX`;
# its keyword_test.py cases). Found from the operator: a quote, `==`/`!=`/`===`/`!==`, the name.
COMPARED = re.compile(
    r"[\"'`][ \t]*[!=]==?[ \t]*(?P<name>[\w.$-]*?(?i:" + SECRET_NAME + r")s?(?:[ _-]?\d+)?)(?![\w.$-])"
)
# A phrase of words naming the idea rather than being it: real_key, shorter-version, a-fake-key;
# not words that hold one (a passphrase's `monkey-helmet-river`, `compass`, `passion`)
CONCEPT_WORDS = re.compile(
    r"(?i)(?<!mon)(?<!don)(?<!tur)(?<!hoc)(?<!joc)(?<!whis)key|secret|(?<!com)pass(?!ion|age)|token|auth"
    r"|value|version|fake|dummy|sample|test|example|short|long|string"
)
# (`sk-` alone is no one provider's: OpenAI's, DeepSeek's, OpenRouter's, LiteLLM's and Helicone's
# keys and self-hosted servers' all start so; `sk-ant-`, `sk-proj-` are Anthropic's and OpenAI's;
# an `hf_` token is made of letters and digits: huggingface/transformers' CI token has digits)
MALFORMED_TOKEN = re.compile(
    r"^(?:dapi|gh[pousr]_|glpat-|glcbt-|xox[bpae]-|sk-(?:ant|proj|svcacct|admin)-|sk_live_|npm_|px-(?:api|dep)-"
    r"|hf_(?![A-Za-z0-9]{30,}$)"
    r"|NR[A-Z]{2}-)|NRAL$"
)
# Names in a value's place: a host variable (`:WS-PASSWORD`), a dataset's or a queue's dotted name
# (`INV.PY.SVRCONN`), an option (`ENVELOPED=NO`), a keyword (`ALL`), an algorithm's name
# (`password_hash('sha512', …)`), a certificate's fingerprint (`71:e6:…`)
NAMED_THING = re.compile(
    r":[A-Za-z][\w-]*|[A-Z][A-Z0-9]*(?:\.[A-Z0-9]+){2,}|[A-Z]+=[A-Z]+|ALL|NONE|ANY"
    r"|(?i:sha-?\d+|md5|bcrypt|argon2\w*|pbkdf2\w*|scrypt|pin-sha\d+=?)"
    r"|(?:[0-9a-fA-F]{2}:){15,}[0-9a-fA-F]{2}"
    # an option (`protocol=dyndns2`), GraphQL's `String!`, a label (`Authorization:`)
    r"|[a-z_]+=[a-z0-9_]+|[A-Z][a-z]+!|[A-Za-z]+:"
)
UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.I)
IDENTIFIER = re.compile(
    r"^(?:[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:[(\[].*)?|[A-Za-z_]\w*[(\[].*|[a-z]{2,}(?:[A-Z][a-z]{2,})+\d*)$"
)
# Windows setup's configuration passes (learn.microsoft.com, "How Configuration Passes Work")
SETUP_PASS = re.compile(r"windowsPE|offlineServicing|generalize|specialize|auditSystem|auditUser|oobeSystem")
PREPOSITIONS = frozenset(("from", "by", "with", "under", "on", "in", "at", "per"))
CACHE_VERBS = frozenset(("hit", "miss", "get", "set", "put", "evict", "del", "stored", "cached"))
# A value in HTML's markup for a literal: `<code>…</code>`, `<kbd>…</kbd>`
MARKED_UP = re.compile(r"<(code|kbd|tt|samp)>([^<]+)</\1>(?:</\w+>)*")  # and the tags it closes
# An unquoted value that is an expression of code, not a literal: it opens a tuple, list, dict or
# set (or a `{name}` placeholder), negates (`-offset`; not a 16-character token `-uikKQ…`),
# reads `this.`/`self.`, ends a Python block header (`if token == TOKEN_NAME:`), or holds an
# operator no config value is written with (`r.key===null?n:r.key`, `a&&b`, `x?.y`, `p->key`, a
# chained `P.a=P.b=…`; a token may hold `=`),
# or is a Vim script scoped name (`s:all_tokens[…]`, `a:dict`) or a Perl `qr/…/`. In
# configuration (.env, YAML, INI, a shell) values are bare; in code a bare right-hand side is an
# expression, and what it evaluates to is not in the text (detect-secrets' KeywordDetector wants
# quotes in code files for that reason).
CODE_EXPRESSION = re.compile(
    r"^[(\[{*]|^!(?:[!(]|[\w.$]+(?:\(|$))|^-(?:\(|\w(?![\w-]{15}))|^\$\{|^(?:this|self)\.|:$|==(?!=*$)|!=|&&|\|\||\?\.|->|\w\?\w[\w.]*:"
    r"|^[A-Za-z_$][\w$]*\.[\w$.#]*=[^=]|^[a-z_]+=[^=]|^\d*=|^[sgalvbwt]:[A-Za-z_]|^qr/"
)
# What follows a bare value when it is an operand: `username + b":"`, `_KeyT | None`, `x * w`.
OPERATOR_AFTER = re.compile(r"[ \t]+(?:[-+*/%|&^]|//|\*\*|or|and|if)[ \t]")
# A regular expression (`(?:%25|%)`, `\d{4}`), a glob, or a format field (`{kernel_name}_out`, `%s`).
PATTERN_OR_FIELD = re.compile(
    r"\(\?[:P<!=i]|\\[dDwWsSb/|+(){}<>-]|\[[a-zA-Z0-9]-[a-zA-Z0-9]|\.\*|\*\.|" + FIELD.pattern
)
# An unquoted value that names a variable or a type: `rc5_key_st`, `s3_uri_value`, `PKCS7PrivateKeyTypes`,
# `_AccessPath`. Bare words in a config file are values; in code they are names.
NAME_OF_CODE = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+|_*[A-Z][A-Z0-9]*[a-z]*(?:[A-Z][a-z]+)+")
# ZNC's login as a password, `user/network:password` (wiki.znc.in, "Connecting"): not a path and tag
ZNC_LOGIN = re.compile(r"[\w.@-]+/[\w.-]+:\S*(?:\d|[^\w\s])\S*")
# A name qualified by its namespace: `lambda:createdBy`, `lance-encoding:blob` (tags, schema keys).
QUALIFIED_NAME = re.compile(r"[A-Za-z][A-Za-z-]*(?::[A-Za-z][A-Za-z-]*)+")
# A value that is a path or object key (`my-app/5026-stage.war`, `vms/server.ova`, `Some/Value`),
# or a name qualified by a domain (`io.modelcontextprotocol/clientCapabilities`): a locator.
PATH_LIKE = re.compile(
    r"^(?:[\w.-]+/)+[\w-]+\.[A-Za-z][A-Za-z0-9]{0,4}$|^[A-Za-z]+(?:[-_][A-Za-z]+)*(?:/[A-Za-z]+(?:[-_][A-Za-z]+)*)+(?::\w+)?$"
    r"|^[a-z][a-z0-9-]*(?:\.[a-z0-9-]+)+/\w[\w/.-]*$"
    r"|^[\w-]+\.(?:zip|tar|gz|tgz|ova|vmdk|war|jar|json|ya?ml|txt|csv|py|js|ts|sh|exe|dll|so|png|jpe?g"
    r"|gif|svg|pdf|html?|xml|md|log|conf|cfg|ini|toml|lock|bin|img|iso|deb|rpm|whl|db|sqlite)$"
    r"|^[A-Za-z]:\\(?:[\w. -]+\\)*[\w. -]+$"  # a Windows path, `C:\Users\ana\.ssh\id_ed25519`
    # a resource's name in lowercase parts (`projects/4811…/secrets/orders-db-password`, GCP's)
    r"|^(?:[a-z0-9][a-z0-9._-]*/){2,}(?:[a-z0-9][a-z0-9._-]*)?$"
)
# (and Home Assistant's, ESPHome's `!secret wifi_password`, `!env_var X`; wpa_supplicant's
# `psk=ext:name`, a password in its external store)
LOCATOR_STARTS = (
    "/",
    "./",
    "~/",
    "file:",
    "env.",
    "process.env",
    "os.environ",
    "arn:",
    "urn:",
    "!secret",
    "!env_var",
    "!include",
    "ext:",
    "</",  # Dovecot's `ssl_key = </etc/…/privkey.pem`: the file it reads
    "@/",  # Bacula's and Bareos's `Password = "@/etc/bareos/secrets/fd.pw"`: the file included
    # secret managers' references: Berglas', GCP Secret Manager's (`sm://`), 1Password's, Vault's
    "berglas://",
    "sm://",
    "op://",
    "vault://",
    "secretsmanager://",
    "akv://",
    "doppler://",
    "infisical://",
)
# `%APPDATA%`, `%2Fvar` (percent-encoded), IPython's `%aimport`, `@types/node`, `@Value`: places
# and references; a password may start with `%` or `@` too (`%K8bJ…`, `@J1ao…#iLv1`).
# systemd's `LoadCredential=db-password:/etc/credstore/…` names a credential and its file,
# and `vault:secret/data/app#password` (a secret manager's reference) names where it is
LOCATOR = re.compile(
    r"%\w+%|%[0-9A-Fa-f]{2}|%[a-z_]+$|@[\w.-]+(?:/[\w./-]*)?$|^[\w.-]+:/[\w.@/-]+$|^vault:[\w./-]+(?:#\w+)?$"
)
# Base64 starts with `/` one time in 64 (`/tdA7OTrIXCvIujLXVLp`): a path's parts are names; a
# key's mix capitals, small letters and digits, and no part is a plain lowercase name (`tmp`).
BASE64_NOT_PATH = re.compile(
    r"(?=.*[A-Z])(?=.*[a-z])(?=.*\d)(?!(?:.*/)?[a-z]{3,}(?:/|$))[A-Za-z0-9+/]{16,}={0,2}"
)
# Names that are not secrets though they end in one of the words (gitleaks' generic-api-key
# allowlist): ids, public halves, words that hold a secret word (`keyboard`, `bypass`), cursors.
NOT_SECRET_NAME = re.compile(
    r"(?i)public(?![_-]?link[_-]?salt)|publish(?!er)|(?<!secret)_id$|(?<!secret)(?<=[a-z])Id$|csrf|_format"
    r"|keyboard|keyword|keypress|keycode|(?<!password_)keystore(?![\w.-]*pass)|keyring|monkey|turkey|passage"
    r"|compass|bypass|passthrough|passive|patch|pattern|spatial|askpass|generate[_-]?password"
    r"|update_?password"  # Ansible's user module: `update_password: always`
    r"|^_key$|surrogate[_-]?keys?"  # Sanity's array items' `_key`; Fastly's cache tags
    r"|encrypted[_-]?(?:key|password|secret|value|data)s?$"  # ciphertext: Pulumi's `encryptedkey`
    r"|(?<![a-z])site[_-]?key|(?-i:(?<=[a-z])Site[_-]?Key)"  # a CAPTCHA's site key is served in the page
    r"|gpg_?key(?:_?id)?$|fingerprint"  # a GPG key's fingerprint (Docker images' GPG_KEY) is public
    r"|hashed_?secret"  # detect-secrets' baseline: a SHA-1 of the secret, not the secret
    # the password manager; DocuSign's OAuth client id; a Helm chart's Kubernetes secret's name
    r"|^1password$|^keepass(?:xc)?$|integration[ _-]?key|existing[_-]?(?:\w*secret|password)"
    r"|allowedto\w*managedpassword"  # a gMSA's `PrincipalsAllowedToRetrieveManagedPassword`: a group
    r"|withdrawal_credentials"  # an Ethereum validator's withdrawal address, public
    # Postman's request id, a WebSocket frame's mask, DocuSign's trace id, Zoom's URL validation
    # challenge and its HMAC, a zone's public DNSKEY
    r"|postman-token|masking-key|tracetoken|plaintoken|encryptedtoken|dnskey"
    r"|encryptionsalt"  # Pulumi's stack salt: it salts the passphrase's key, stored by design
    r"|(?<![a-z])seeds$|seed_?(?:hosts?|nodes?|provider|list)"  # a cluster's first hosts (Cassandra's)
    r"|websocket-(?:key|accept)"  # the handshake's nonce and its hash (RFC 6455)
    r"|next\w*token|page_?token|continuation_?token|sync_?token|delta_?token|skip_?token|cursor"  # cursors
    # keys that make a request idempotent; Exchange's item version (`changeKey`)
    r"|request_?token|client_?token|idempotency|dedup_?key|change_?(?:token|key)|lock_?token"
    r"|pub_?key|(?:cache|sort|primary|foreign|partition|result|dest|lookup|range|object|s3|group|dict|asset"
    r"|map|index|row|column|config|metadata|field|attr|label|meta|event|state|storage|registry)[_.]?key"
    r"(?:s|_?name)?$"  # keys of a dict, a table, a cache or a bucket: what is looked up, not a secret
)
# A part of a name that says what kind of value it holds: `file_key`, `hostKey` (an SSH host's
# public key), `TYPE_TOKEN`, `nameSecret`: a locator, a label, a size. Whole parts only (`SECURITY`
# holds `uri`, `ACCOUNT` `count`); and a password named for what it opens is one, given as a
# literal or a setting (`EMAIL_HOST_PASSWORD = '…'`, `KEYSTORE_FILE_PASSWORD=…`).
VALUE_KIND = re.compile(
    r"(?:^|[_.-]|(?<=[a-z])(?=[A-Z]))(?i:path|file|url|uri|host|type|name|length|size|count|endpoint)s?"
    r"(?=$|[_.$-]|(?<=[a-z])[A-Z0-9])|^(?:path|file|url|uri|host|type|name)(?=key$|token$)"
)
# Names of a provider whose secrets have a fixed format: its own rule decides, not this one
# (a 42-character value under AWS_SECRET_ACCESS_KEY is not an AWS secret key).
PROVIDER_NAME = re.compile(r"(?i)aws.?secret|meraki|ibm|softlayer|cloudant|sumo|okta|cohere")
# ... but only for values written in a key's alphabet (base64, hex, base62 with `_-.`): those are
# that provider's key or a malformed one. A value with characters no key format uses (`{`, `$`,
# `(`, `!`, a space) is a password a person chose, which the provider's format cannot judge:
# detect-secrets' KeywordDetector reports `aws_secret_access_key = "m{{h}o)p${e]…}}"`
# (tests/plugins/keyword_test.py).
KEY_ALPHABET = re.compile(r"[A-Za-z0-9+/=_.-]+")
# A name followed by its own colon and a space: Pulumi's `acme:dbPassword: …`, not an ARN's part
NAMESPACED_KEY = re.compile(r"[\w.$-]*:[ \t]")
# A list's opening before its first item, and the end of a list of one after its item's closing
# quote (Keycloak's `"bindCredential": ["…"]`)
LIST_OPEN = re.compile(r"\[[ \t]*\\?[\"']")
ONE_ITEM_END = re.compile(r"[ \t]*\]")
# The rest of a placeholder in angle brackets, on its line, after its first word
PLACEHOLDER_REST = re.compile(r"[^\n<>]*>")
# NetworkManager's `[vpn-secrets]` keys, `form:main:password=…`: a line of words joined by colons,
# then the name and `=` (an ARN's `…:secret:name` has no `=` after its name)
KEYFILE_PATH = re.compile(r"[ \t]*(?:[\w-]+:)+\Z")
KEYFILE_SECRET = re.compile(r"[\w-]*=(?!=)")
# git's user.signingkey names a key, it holds none (git-scm.com/docs/git-config#user.signingKey)
GIT_SIGNING_KEY = re.compile(r"(?:0x)?[0-9A-Fa-f]{8,40}!?|key::.*|(?:ssh|ecdsa)-[\w-]+ .*|[~/.$].*")
# ... and the names that hold one (git's, mutt's `pgp_default_key`, gpg.conf's `default-key`)
SIGNING_KEY_NAME = re.compile(r"(?i)signingkey$|(?:pgp|gpg)\w*key|default[_-]key|sign[_-]as")
# Published keys listed before a `key` (Matrix's `verify_keys`, a JWKS's or server's `public_keys`)
PUBLIC_KEYS_BEFORE = re.compile(r"(?i)verify_keys|public_?keys|/public-key\b")  # (GitHub's secrets' key)
# A password manager asked for an item's password: the argument names the item
PASSWORD_MANAGER_QUERY = re.compile(
    r"\b(?:bw|op|lpass|gopass|keepassxc-cli)[ \t]+(?:get|show|item[ \t]+get)[ \t]+\Z"
)
# The rest of a quoted `NAME=value` whose value has spaces, to its closing quote on the line
QUOTED_REST = re.compile(r"[^=\"'`$\n]*")
ALIAS = re.compile(r"(?<![\w-])alias[ \t]+\Z")
# PowerShell's `$env:API_KEY = "…"`: a variable's scope, not a namespace
POWERSHELL_SCOPE = re.compile(r"(?i)\$(?:env|global|script|local|private|using):\Z")
# A definition without an operator: C's `#define API_KEY "…"`, Elixir's `@secret_key_base "…"`
DEFINITION = re.compile(r"(?m)^[ \t]*(?:#[ \t]*define[ \t]+|@|set[ \t]+)\Z")  # (and Tcl's `set name "…"`)
CODE_ROOTS = frozenset(
    {"self", "this", "cls", "os", "sys", "env", "environ", "config", "conf", "cfg", "settings", "args"}
    | {"opts", "options", "params", "request", "req", "app", "ctx", "context", "vars", "process"}
    | {"credentials", "creds", "secrets", "data", "user", "db"}
)
PASSWORD_NAME = re.compile(r"(?i)pass|pwd|pw\b|pw$|^psk$")  # psk: WPA's pre-shared key (a passphrase)


def keyed_value_is_secret(
    name: str, sep: str, value: str, quote: str, call: bool = False, after: str = ""
) -> bool:
    """Whether `name = value` holds a credential rather than a placeholder, a word or a reference.
    `after` is what follows the value on its line."""
    password_name = PASSWORD_NAME.search(name) is not None
    secret_name = re.search(r"(?i)secret$", name) is not None  # a webhook's, a signing secret
    word = re.sub(r"[ _-]?\d+$", "", name.rsplit(".", 1)[-1])  # `o.key` -> key, `Pass 1` -> Pass
    if (
        word in ("pass", "Pass", "PASS")  # (Go's test output: `--- PASS: TestName (0.01s)`)
        and sep.strip() != "="
        and not (quote and sep.strip() in (":", "=>") and not value.isalpha())  # (Rails' `"pass"=>"…"`)
        and not (
            sep.strip() == ":"
            and re.match(r"[ \t]*(?:</|\r?\n|$)", after)
            # with a sign (not Go's `--- PASS: TestX2`), or machine-made (an app password)
            and (
                (typed_password(value) and re.search(r"[^\w\s]", value.rstrip(".,;:!?")))
                or (len(value) >= 12 and random_enough(value) and has_digit(value))
            )
        )
    ):
        # the English word and Python's keyword: "First pass: …", "you can pass '…'"; but a
        # quoted value after `pass:` is an object's field (nodemailer's `auth: {user, pass}`),
        # unless a word (scipy's `'pass': 'bandpass'`); and a line `pass: CopperThistle&7`, a
        # password as people type them, is one
        return False
    if re.fullmatch(r"[a-z][a-z0-9_-]*(?:/[a-z0-9_.-]+){2,}(?::\w+)?", value):
        return False  # a secret store's path and field (Vault's `secret/data/ups/idf2:password`)
    if re.fullmatch(r"[\w.-]+(?:%20[\w.#%-]+)+", value):
        return False  # words, URL-encoded: a PKCS#11 URI's token label (`token=System%20Trust`)
    if prose_phrase(value):
        return False  # a remark in the value's place: `set by environment`
    if NAMED_THING.fullmatch(value) or (secret_name and re.fullmatch(r"[a-z]{2,}(?:_[a-z]{2,}){2,}", value)):
        return False  # a name in the value's place (NAMED_THING), or a stored secret's (`ctm_db_pw`)
    if re.fullmatch(r"#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})", value):
        return False  # a colour (a dashboard's palette: `pass: "#2E8B57"`)
    if re.match(r"(?i)(?:true|false|yes|no|on|off|\d+)&", value):
        return False  # a URL query's next parameter (`usePrivateKey=true&privateKeyPath=…`)
    last = re.split(r"[_.-]", word)[-1].lower()
    if value.strip("_").lower().rstrip("0123456789") in (word.strip("_").lower(), last):
        return False  # `auth=auth` passes a variable on; `X_PASS = "Pass"` names itself
    if not quote and sep.strip() in ("==", "!=", "===", "!=="):
        return False  # a name compared with a name; a compared secret is a quoted literal
    if re.fullmatch(r"[\^~<>=]*v?\d+(?:\.\d+)+(?:[-+.][\w.]+)?", value):
        return False  # a version or version range (`"minipass": "^7.0.3"`)
    if re.fullmatch(r"\d{4}-\d\d-\d\d(?:[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?Z?)?", value):
        return False  # a date (troff's `.TH PASSWD 1 "2023-11-02"`)
    if sep == ",":  # a CSV row: only a random blob, not the next column's word
        blob = re.fullmatch(r"[A-Za-z0-9+/_.-]+=*", value) is not None and not IDENTIFIER.match(value)
        blob = blob and has_digit(value)  # a random blob, not `no-password-required`
        return not quote and blob and len(value) >= 16 and entropy(value) >= 3.5
    if sep.strip() in ("", "is") and not re.search(r"(?i)passw(?:or)?d$|passwd$", word):
        # Gradle's `password "value"`, detect-secrets' `password is …`: a password by its full name,
        # not CMake's `message(CHECK_PASS "found")`, an argument list
        return False
    provider = PROVIDER_NAME.search(re.split(r"[.:/]", name)[-1])  # (`…okta.client-secret`: Spring's)
    if re.search(r"(?i)client[_-]?secret$", name):
        provider = None  # an OAuth client's secret, whatever the provider: no provider token format
    # (S3-compatible stores take AWS's names for their own keys' formats: R2's 64 hex digits, Spaces'
    # and OCI's base64; a random value of another length than AWS's 40 is one of those)
    s3_compatible = provider and provider[0].lower().startswith("aws") and len(value) != 40
    s3_compatible = s3_compatible and len(value) >= 32 and random_enough(value)
    if NOT_SECRET_NAME.search(name) or (provider and KEY_ALPHABET.fullmatch(value) and not s3_compatible):
        return False
    if last == "seed" and len(value) < 16:
        return False  # a world's or a generator's seed (Valheim's `seed: loar6ZYwbT`); a wallet's is longer
    if SIGNING_KEY_NAME.search(name) and GIT_SIGNING_KEY.fullmatch(value):
        return False  # git's user.signingkey, mutt's pgp_default_key: a GPG key's id or fingerprint, a path
    if VALUE_KIND.search(name) and not (password_name and (quote or name.isupper())):
        return False  # in code, `url.password += encoded` is the URL's field, not a password
    if (
        password_verifier(value)
        or re.match(r"(?i)hmac-sha\d+:", value)
        or value.startswith("ENC[AES256_GCM,")
    ):
        return False  # (Vault's audit log writes each token as its HMAC; SOPS' value is ciphertext)
    if not quote and value.startswith("("):
        return False  # a list or an array (`PASSWORD=(password,new-password)` in a manual)
    if re.fullmatch(r"\.[A-Za-z][\w.-]*|--[a-z]+(?:-[a-z]+)*(?:=\S*)?", value):
        return False  # a key's or a file's name (`.dockerconfigjson`), an option (`--region=…`)
    if not any(c.isalnum() for c in value):
        return False  # `,.:-@*?!`: punctuation only (detect-secrets' is_not_alphanumeric_string)
    # `NAME=value`: a shell's, an env file's; `connection-password=…`, a name no code has (a
    # .properties file's, Trino's catalog), though not an option's (`f"--torch-key={…}"`)
    environment = sep == "=" and (name.isupper() or ("-" in name and not name.startswith("-")))
    if names_no_literal(value, quote, after, password_name, environment):
        return False
    if sep.strip() == "is":
        # A sentence's last word: a plain word, a constant's name or a manual's `\fIpassword\fR` is
        # what the password is ("… is missing.", "… is GNUTLS_E_DECRYPTION_FAILED."); anything else,
        # or anything quoted, is the password ("the wifi password is Zq7wX2pLm9k.", `… is "centipede"`)
        value = re.sub(r"(?:\\&)?[.,;:!?]*$", "", value)  # the full stop, troff's `\&.` too
        if not quote and re.fullmatch(r"[a-z]*|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|\\f.*", value):
            return False
    if quote and re.fullmatch(r"[A-Z][a-z]*(?: +[\w'-]+){3,}[.!?]", value):
        return False  # a sentence describing the field: "The password for the kmsuser CU account …."
    if word.lower() == "pw" and not quote and re.fullmatch(r"[A-Za-z_]\w*", value):
        return False  # `ph, pw = paddings`: pixel, page or padding width, not a password
    # Inside a quoted literal a `$` between two letters or digits is a character (`super$ecret`:
    # Nosey Parker's np.generic.5/6 take it, and exclude `$` only as a password's first character);
    # unquoted, `$ecret` is a shell variable (np.generic.5/6's negative `password = super$ecret`).
    # (`$` is a character in INI files no shell reads: Ansible's inventory, sssd.conf's `authtok`)
    no_shell = re.match(r"(?i)ansible_|ldap_default_authtok", name) is not None
    literal = dollar_as_character(value, quoted=quote in ("'", '"') or no_shell)
    if is_stand_in(value) or TEMPLATE.search(literal) or (quote == "`" and " " in value):
        return False  # a placeholder, a template or variable, a command substitution
    # A run of 8 characters in sequence (12345678, a1b2c3d4) is typed, not generated: it marks a
    # stand-in for a machine-made key or token. A password is typed by a person, who does put
    # runs in real ones; there only a value that is wholly sequential is a stand-in (detect-secrets).
    if wholly_sequential(value) or (not password_name and sequential_run(value)):
        return False
    if MALFORMED_TOKEN.match(value):
        return False  # a provider's prefix on a body that is not that provider's format: made up
    if name.lower() == "key" and re.fullmatch(r"(?:[A-Za-z][\w.]*-){2,}[0-9a-f]{32,}", value):
        return False  # a cache's key: its platform and tool, then a lock file's hash (`Linux-node-…`)
    if UUID.match(value) and name.lower() == "key" and re.match(r"[ \t]+\w+=", after):
        return False  # a record's key in a log of `name=value` fields (kcat's `key=<uuid> offset=…`)
    if UUID.match(value):
        # (Proxmox Backup Server's API token secrets are UUIDs, given as `PBS_PASSWORD`)
        return re.search(r"(?i)key|token|secret|pass|pwd", name) is not None
    if call:
        # The value is a call, `auth = OAuth('…', …)`: what it returns is no literal, and its
        # arguments are not named by the assignment (ds: is_indirect_reference; gitleaks' generic
        # value must end at a quote, space or `;`, never at `(`).
        return False
    if random_letters(value):
        return True  # random letters, not words: the word shapes below would take it for a name
    # a call, an attribute, an indexing, a camelCase identifier; but a quoted `a.b.c` whose parts
    # mix digits into letters is a dotted token (a Discord bot token, `sl.…`), not a name, and
    # words joined by dots are a passphrase (`"harbor.cactus.lantern"`), quoted or in an
    # environment variable (`- ADMIN_PASSWORD=willow.glacier.amber`: a shell has no attributes)
    if (
        IDENTIFIER.match(value)
        and not (quote and re.search(r"\d[A-Za-z]", value))
        and not (quote and value.count("(") + value.count("[") != value.count(")") + value.count("]"))
        and not (quote and password_name and "." in value and has_digit(value))  # `Jun670.paprikaJ`
        # (capitalized words with a digit for a letter: `MdtJ0in.Sparrow`, no attribute's name)
        and not (
            password_name
            and re.fullmatch(r"[A-Z][A-Za-z0-9]*(?:\.[A-Z][A-Za-z0-9]*)+", value)
            and re.search(r"[A-Za-z][0134578][a-z]", value)
            and not re.search(r"(?i)(?:password|passwd|pwd|secret|token|key)$", value)
        )
        and not (password_name and any(random_mixed(part) for part in value.split(".")))  # `EJALgz4rp.zce…`
        # (a dotted token whose part is random in both cases, `Pq3Wk8_zTn5.HbX1vLc7RyD2mFa0gSeJ`: AWS VPN's)
        and not ("." in value and any(random_dotted_part(part) for part in value.split(".")))
        and not (password_name and (quote or environment or sep.strip() == ":") and passphrase(value))
        and not (password_name and chosen_words(value) and (quote or re.search(r"\d\d$", value)))
        and not (
            secret_name and (quote or environment) and re.fullmatch(r"[a-z]{3,}(?:_[a-z]{3,}){2,}\d*", value)
        )
    ):
        return False
    if quote and password_name and re.fullmatch(r"[A-Z0-9_]+", value):
        return True  # password "ADMIN_PASS": a quoted literal, not a constant's name
    # Words joined by `_`/`-`, also as a selector or anchor (`#add-password`: Nosey Parker's
    # np.generic.5/6 negative_examples; their patterns never start a password with `#` or `.`)
    joined = re.fullmatch(r"[#._]*[A-Za-z]+(?:[_-][A-Za-z]+)+(?:[_-]?\d+)?_*", value)
    if joined and not any(random_part(part) for part in re.split(r"[_-]", value)):
        # (a secret a person chose may be a passphrase too: `WEBHOOK_SECRET=nutmeg_kettle_walrus`)
        phrase = secret_name and len(re.split(r"[_-]", value.rstrip("0123456789_-"))) >= 3
        if typed_phrase(value) and (password_name or re.search(r"(?i)secret|token$", word)):
            return True  # `Bramble-Heron-150`, `otter-Basin-5561`: chosen, not a resource's name
        if password_name and re.fullmatch(r"[A-Z][a-z]+(?:[_-][A-Z][a-z]+)+[_-]?\d+", value):
            return True  # `Tokyo-Drift-Keys9`: capitalised words and a number, even one naming a key
        return (password_name or phrase) and not CONCEPT_WORDS.search(value)
    if re.fullmatch(r"\d+", value) or (
        re.fullmatch(r"[A-Z][a-z]+(?:[A-Z][a-z]*)*\d?", value) and not few_letters_vowels(value)
    ):
        # a number, or a type (SecretStr); but not a type ending in a digit (`MYSQL_PASSWORD: UmberBadger5`)
        return (
            password_name
            and len(value) >= 4
            and (quote != "" or (value[-1].isdigit() and not value.isdigit()))
        )
    if word.lower() in ("key", "pat"):  # `key`, `o.key`, `PAT` (pattern?) alone: want a random blob
        blob = re.fullmatch(r"[A-Za-z0-9+/=_-]{20,}", value) is not None
        blob = blob and (entropy(value) >= 3.5 or random_enough(value))  # 32 hex: 3.4 bits one time in ten
        blob = blob and not ("/" in value and "-" in value)  # `shop/orders-api-5bd7c9f8d`: an object's key
        return blob and re.search(r"[0-9+/]", value) is not None
    if password_name and re.fullmatch(r"[a-z]+(?: [a-z]+)+", value) and re.search("pass|secret|token", value):
        return False  # a sample's words for the idea, "smtp password" (not `mypassword`: detect-secrets')
    if password_name:
        return len(value) >= 4 if quote else len(value) >= 6 and not re.fullmatch(r"[A-Z_]+", value)
    if quote and " " in value:
        return False
    if mixed_case_run(value):
        return True  # 20 letters or more switching case at random (Logz.io's tokens): no word
    if re.fullmatch(r"[A-Za-z]+", value) or re.fullmatch(r"[A-Z_]{3,}\d*", value):
        return False  # a word or a CONSTANT name (`MYTOKEN1`)
    typed = len(value) >= 8 and has_digit(value) and re.search(r"[^\w]", value)
    if secret_name and typed and not CONCEPT_WORDS.search(value):
        return True  # a secret a person chose, like a password: `M34d0w-50`
    return len(value) >= 8 and random_enough(value)


def mixed_case_run(value: str) -> bool:
    """Twenty letters or more whose case switches at a quarter of them or more, capitals in a row
    among them, few long lowercase runs (`UBIQiTEUeYsx…`): random; camelCase words switch once a
    word (`terminateBlueInstancesOnDeploymentSuccess`)."""
    if len(value) < 20 or not value.isalpha() or not value.isascii():
        return False
    if not re.search(r"[A-Z]{2}", value) or len(re.findall(r"[a-z]{4,}", value)) > 2:
        return False  # camelCase words: capitals one at a time, long lowercase runs
    return sum(a.isupper() != b.isupper() for a, b in itertools.pairwise(value)) >= len(value) // 4


def typed_phrase(value: str) -> bool:
    """Words joined by `-`/`_`, one after the first capitalised, ending in two digits or more
    (`Hemlock-Valve-2481`, `ssh-Build-Pass-451`): a passphrase a person typed. Resource names in
    configs are lowercase (Kubernetes', DNS's) or constants (`DB_PASSWORD_2`), never this."""
    return (
        re.fullmatch(r"[A-Za-z]+(?:[_-][A-Za-z]+)*[_-][A-Z][a-z]+(?:[_-][A-Za-z]+)*[_-]?\d{2,}", value)
        is not None
    )


def random_dotted_part(part: str) -> bool:
    """A part of a dotted value that is random: ten characters or more, both cases, a digit, few
    vowels (not a method's camelCase words, `fromSecretNameV2`)."""
    letters = [c for c in part if c.isalpha()]
    return (
        re.fullmatch(r"\w+", part) is not None
        and re.search(r"[A-Z][a-z]{4,}", part) is None  # (no word: `Ed25519PrivateKey`, `RandomState`)
        and len(part) >= 10
        and part.lower() != part
        and part.upper() != part
        and sum(c in "aeiouAEIOU" for c in letters) < 0.3 * len(letters)
        and random_enough(part)
        and has_digit(part)
    )


def random_part(part: str) -> bool:
    """A part of 16 or more letters with under a quarter vowels is no word (`sk_wwrkcpctoNVVov…`:
    a prefix and a random body); words, camelCase ones too, have about 40%."""
    return len(part) >= 16 and sum(c in "aeiouAEIOU" for c in part) < 0.25 * len(part)


def few_letters_vowels(value: str) -> bool:
    """Ten letters or more, under a fifth of them vowels (`HcZcWeHJBPSX7`): random, not a type's
    words (`SecretStr` has two vowels in nine; words have about 40%)."""
    letters = [c for c in value if c.isalpha()]
    return len(letters) >= 10 and sum(c in "aeiouAEIOU" for c in letters) < 0.2 * len(letters)


def chosen_words(value: str) -> bool:
    """Words run together in camelCase with digits after them, `geckoMeadow57`: quoted under a
    password's name, a password a person chose (the shape of a variable's name, but a literal),
    unless the words name the idea (`newPassword1`); unquoted too when two digits or more end it
    (`mqtt_password: monsoonFalcon1982` in YAML: a variable's name seldom ends in a year)."""
    camel = re.fullmatch(r"[a-z]{2,}(?:[A-Z][a-z]{2,})+\d+", value) is not None
    return camel and not CONCEPT_WORDS.search(value)


def passphrase(value: str) -> bool:
    """Words joined by dots, none of them code's (`self`, `config`) nor named for the idea."""
    words = value.lower().split(".")
    return (
        re.fullmatch(r"[A-Za-z]+(?:\.[A-Za-z]+)*\.[A-Za-z]+\d*", value) is not None
        and not CONCEPT_WORDS.search(value)
        and not CODE_ROOTS.intersection(words)
    )


def names_no_literal(value: str, quote: str, after: str, password_name: bool, environment: bool) -> bool:
    """Whether the value is code, a locator, a pattern or prose rather than a literal secret
    (the shapes docs/measure/redaction_code.py found in real code)."""
    if not quote and not environment and (CODE_EXPRESSION.search(value) or OPERATOR_AFTER.match(after)):
        return True  # an expression, or an operand of one (an env file's `P12_PASSWORD=!p7…` is none)
    if value.startswith("-----"):
        return True  # an armoured block's first line: a PGP message is ciphertext, a key has its own rule
    command = re.fullmatch(r"[A-Za-z][A-Za-z.-]*", value) and re.match(r"[ \t]+-[A-Za-z]", after)
    # (or a PowerShell cmdlet given its argument: `$Pass = Ninja-Property-Get localAdminPassword`)
    command = command or (
        re.fullmatch(r"(?:[A-Z][a-z]+-)+[A-Z][A-Za-z]+", value) and re.match(r"[ \t]+\S", after)
    )
    if not quote and (value.rstrip("\\").endswith("(") or command):
        # a call whose arguments follow (`System.fetch_env!("X")`), or a command and its options
        # (PowerShell's `$pw = Read-Host -AsSecureString`)
        return True
    if quote and re.match(r"\.format\(|[ \t]*%[ \t]", after):
        return True  # a template filled in by `.format(…)` or `%`
    locator = LOCATOR.match(value) or (
        value.startswith(LOCATOR_STARTS) and not BASE64_NOT_PATH.fullmatch(value)
    )
    if password_name and ZNC_LOGIN.fullmatch(value):
        return False  # ZNC's `user/network:password` (wiki.znc.in, "Connecting"), not a path and tag
    if PATH_LIKE.match(value) or PATTERN_OR_FIELD.search(value) or locator:
        return True  # a path, a reference to the environment, an ARN: where a secret is, not one
    if re.match(r"[A-Za-z][\w+.-]*://[^@\s]*$", value):
        return True  # a URL without credentials in it (one with them is its own rule's)
    if (
        not quote
        and value.isalpha()
        and not random_letters(value)
        and re.match(r"[,.;:!?]?[ \t]+[^\W_]", after)
    ):
        # a word in a sentence: `:param password: encrypt …`, `password is memorable, I…`,
        # "Policy password: almeno 12 caratteri"
        return True
    if re.fullmatch(r"--?[a-z]+(?:-[a-z]+)*", value) and not password_name:
        return True  # an option's name (`$key = '-exitval'`)
    # a variable or type name, or a namespaced tag; a password may be any word, so not for those;
    # a type named for the idea (`"_DSAPrivateKey"`, a quoted forward reference) is one, quoted too
    if NAME_OF_CODE.fullmatch(value) and (not quote or CONCEPT_WORDS.search(value)) and not password_name:
        # `X_API_KEY=lsv2_pt_9f3…`: a shell has no names without `$`, so a random value is one
        return not (environment and has_digit(value) and random_enough(value))
    return not password_name and QUALIFIED_NAME.fullmatch(value) is not None


# Python's `b'…'`, `r'…'`, `f'…'`, T-SQL's `N'…'`: letters before a quote that opens a literal, not an
# apostrophe
STRING_PREFIX = re.compile(r"(?<![\w'])(?:[bBrRuUfF]{1,2}|N)\Z")


def closes_a_literal(text: str, at: int) -> bool:
    """Whether the quote at `at` closes a string literal opened earlier on its line, rather than
    opening the value: `"MasterUserPassword: " + get…() + ","` and `passwordLabel:"Password:",…`
    name a password inside a literal, and what follows its closing quote is code, not a value
    (Nosey Parker's np.generic.5/6 negative_examples). Quotes are paired on the line; an apostrophe
    between two letters (`don't`) is none, unless they open a literal (`b'…'`), and an escaped quote
    pairs only with escaped ones."""
    quote, line = text[at], text[text.rfind("\n", 0, at) + 1 : at]
    escaped = line.endswith("\\")
    count = 0
    for i, char in enumerate(line):
        if char != quote or (line[i - 1 : i] == "\\") != escaped:
            continue
        apostrophe = 0 < i < len(line) - 1 and line[i - 1].isalnum() and line[i + 1].isalnum()
        if apostrophe and not STRING_PREFIX.search(line, 0, i):
            continue
        count += 1
    return count % 2 == 1


def kind_of(name: str) -> str:
    return "generic_password" if PASSWORD_NAME.search(name) else "generic_api_key"


# a key's section before it at a line's start: Asterisk's pjsip wizard's `outbound_auth/password=…`
SECTION_PREFIX = re.compile(r"[ \t]*[A-Za-z_][\w-]*/\Z")
# `grep -n`'s `12:` and `grep -rn`'s `.env:12:` before a line: the line as its file holds it
GREP_PREFIX = re.compile(r"[ \t]*(?:[\w./-]+:)?\d+:\Z")


def find_keyed(
    text: str, lowered: str, hits: Iterator[re.Match[str]] | None = None
) -> Iterator[tuple[int, int, str]]:
    """(start, end, class) of each keyed secret value; `hits` are SECRET_WORD's matches in `lowered`
    when the caller has them (found where the keyword automaton found its words)."""
    done = 0
    for hit in SECRET_WORD.finditer(lowered) if hits is None else hits:
        if hit.start() < done:
            continue
        start = hit.start()
        while start > 0 and text[start - 1] in NAME_CHARS:
            start -= 1
        before, line_start = text[start - 2 : start], text.rfind("\n", 0, start) + 1
        # (but a name followed by its own colon is a key: Hiera's `profile::database::password: …`)
        prefixed = (before == "::" or re.match(r"[\w}]:", before) is not None) and (
            not GREP_PREFIX.match(text, line_start, start)
            and NAMESPACED_KEY.match(text, start) is None
            and not POWERSHELL_SCOPE.search(text, max(0, start - 9), start)
            and not (KEYFILE_SECRET.match(text, start) and KEYFILE_PATH.match(text, line_start, start))
        )
        opened = text[start - 1 : start]
        if opened == "<" or (opened == "/" and not SECTION_PREFIX.match(text, line_start, start)) or prefixed:
            # `/forgot-password`, `…:secret:MySecret-a1b2c3` (an ARN), `AWS::IAM::AccessKey`, and
            # `<key>`, an XML tag (the rule for `<…Password>…</…Password>` reads those); but
            # Pulumi's `acme:dbPassword: …` is a namespaced key and its value
            continue
        pair = (
            SETTER_PAIR.match(text, start) if SETTER_BEFORE.search(text, max(0, start - 40), start) else None
        )
        if pair is not None:
            done = pair.end()
            name, value, quote = pair.group("name"), pair.group("quoted"), pair.group("q")
            if keyed_value_is_secret(name, "=", value, quote):
                yield pair.start("quoted"), pair.end("quoted"), kind_of(name)
            continue
        match = KEYED.match(text, start)
        if match is None:
            continue
        # a call's arguments are read on: `getEnv("DB_PASSWORD", "…")` holds a name and a value
        done = match.end("call") if match.group("call") else match.end()
        if not match.group("call") and "(" in (match.group("bare") or ""):
            # ... and a dotted call's too: `auth=weaviate.AuthApiKey(api_key="…")`
            done = match.start("bare") + match.group("bare").index("(") + 1
        if match.group("sep").startswith(","):
            done = match.end("sep")  # `{'apiKey': KEY, 'secret': '…'}`: the "value" may be the next name
        if (match.group("bare") or "").isdecimal():
            continue  # a count, `"input_tokens":1234` (transcripts hold thousands): never a secret
        name, quote = match.group("name"), match.group("q") or ""
        kind = re.search(r"([A-Za-z]+)[ \t]\Z", text[max(0, start - 30) : start])
        if kind and NOT_SECRET_NAME.search(f"{kind[1]}_{name}") and not NOT_SECRET_NAME.search(kind[1]):
            continue  # "cache key: …", "page token: …": the word before names what kind
        if kind and kind[1].lower() in ("public", "publishable") and "key" in name.lower():
            continue  # `wg show`'s "public key: …" (but Joomla's `public $password = '…'` is a property)
        if name.lower() == "key" and PUBLIC_KEYS_BEFORE.search(text, max(0, start - 120), start):
            continue  # a server's published keys (Matrix's `"verify_keys": {"ed25519:…": {"key": …}}`)
        if text.find("encryptedData:", max(0, start - 600), start) != -1:
            continue  # a SealedSecret's `encryptedData`: ciphertext only its cluster can open
        if ALIAS.search(text, max(line_start, start - 12), start):
            continue  # a shell alias's name (`alias pw='pass -c'`): its value is a command
        if PASSWORD_MANAGER_QUERY.search(text, max(0, start - 40), start):
            continue  # `bw get password 'github.com'`: the item whose password is asked for
        if kind and name.lower() == "key" and kind[1].lower() in PREPOSITIONS | CACHE_VERBS:
            continue  # "Cache restored from key: …", "sorted by key: …", "HIT key=…": a lookup key
        if name.lower() == "pass" and SETUP_PASS.fullmatch(match.group("quoted") or ""):
            continue  # unattend.xml's `<settings pass="windowsPE">`: the setup pass it configures
        if not quote and "<" in (match.group("bare") or "") and PLACEHOLDER_REST.match(text, match.end()):
            continue  # `PASSWORD=<paste the password shown once …>`, `whsec_<fill in>`: a placeholder
        if text[start - 2 : start] == "${" and text.startswith("?", match.end("sep")):
            continue  # the shell's `${DB_PASSWORD:?missing}`: the message when it is unset
        if not match.group("sep").strip() and text[start - 1 : start] in ("'", '"'):
            continue  # `"ALLOW_USER_PASSWORD_AUTH" "ALLOW_CUSTOM_AUTH"`: a list of strings
        if quote and closes_a_literal(text, match.start("quoted") - 1):
            continue
        listed = LIST_OPEN.search(text, match.end("sep"), match.start("quoted") + 1)
        if quote and listed and not ONE_ITEM_END.match(text, match.end()):
            continue  # a list of several (`keys = ['1st_linear', …]`): names, not one secret
        group = "quoted" if quote else "bare"
        value, call = match.group(group), match.group("call") is not None
        start_of, end_of = match.start(group), match.end(group)
        if (
            not quote
            and match.group("sep") == "="
            and opened in ("'", '"')
            and text[end_of : end_of + 1] == opened
        ):
            quote = opened  # a literal `"NAME=value"` (Docker's `Env`, a command's argument)
        elif (
            not quote
            and match.group("sep") == "="
            and opened in ("'", '"')
            and text[end_of : end_of + 1] == " "
        ):
            # ... whose value has spaces, systemd's `Environment="BORG_PASSPHRASE=Velvet Thunder 2019"`
            rest = QUOTED_REST.match(text, end_of)
            if rest is not None and text.startswith(opened, rest.end()):
                value, quote, end_of = text[start_of : rest.end()], opened, rest.end()
        if quote == '"' and len(value) > 2 and value[0] == value[-1] == "'":
            # a Python repr in JSON (Sentry's frame variables, `"auth_token": "'…'"`): the inner literal
            value, quote, start_of, end_of = value[1:-1], "'", start_of + 1, end_of - 1
        elif not quote and len(value) > 2 and value[0] == value[-1] and value[0] in "=~":
            # org-mode's verbatim `=…=` and `~…~` quote a literal (`Password: =sable.garden.95=`)
            value, quote, start_of, end_of = value[1:-1], '"', start_of + 1, end_of - 1
        elif not quote and (marked := MARKED_UP.fullmatch(value)):
            # so does HTML's `<code>…</code>` (`Password: <code>k1ra.35</code>` in a wiki page)
            value, quote = marked.group(2), '"'
            start_of, end_of = start_of + marked.start(2), start_of + marked.end(2)
        if name.startswith("--") and re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)+", value):
            continue  # an option naming a resource, `--secret=play-publisher-json`
        if "f" in (match.group("prefix") or "").lower() and "{" in value:
            continue  # an f-string with a field: its value is computed
        after = text[match.end() : match.end() + 40]
        sep, pair = match.group("sep"), quote and text[start - 1 : start] in (":", "{")
        if quote and re.fullmatch(r"[ \t]+:", sep):
            continue  # psql's `PASSWORD :'new_pw'`: a variable's value put in, quoted
        if sep.strip() == "," and sep != ",":
            if not pair:
                continue  # a list of strings, `'pwd', 'quit'`, or a call's arguments `(pwd, 'x')`
            sep = "="  # Erlang's `{application_secret, "…"}`: a pair
        elif pair and not sep.strip():
            sep = "="  # Clojure's `{:api-key "…"}`
        elif quote and "\t" in sep and not sep.strip():
            sep = "="  # a table's columns: `SECRET_KEY\t'…'` (Django's debug page, a TSV of settings)
        elif quote and not sep.strip() and DEFINITION.search(text, line_start, start):
            sep = "="  # a definition: C's `#define NAME "…"`, Elixir's `@name "…"`
        if keyed_value_is_secret(name, sep, value, quote, call, after):
            yield start_of, end_of, kind_of(name)
    if "==" in text or "!=" in text:
        yield from find_compared(text)
    if "set " in lowered:
        yield from find_told(text, lowered)


def find_told(text: str, lowered: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, class) of each value given in an instruction, "set NAME to VALUE"."""
    for before in SET_TO_BEFORE.finditer(lowered):
        told = SET_TO.match(text, before.end())
        if told is not None:
            group = "quoted" if told.group("q") else "bare"
            if keyed_value_is_secret(told.group("name"), "=", told.group(group), told.group("q") or ""):
                yield told.start(group), told.end(group), kind_of(told.group("name"))


def comparisons(text: str) -> Iterator[re.Match[str]]:
    """COMPARED's matches, tried only at the quote before each `==` and `!=` (found with
    `str.find`: a pattern led by a set of quotes reads every character)."""
    places = set()
    for operator in ("==", "!="):
        at = text.find(operator)
        while at != -1:
            quote = at - 1
            while quote >= 0 and text[quote] in " \t":
                quote -= 1
            if quote >= 0 and text[quote] in "\"'`":
                places.add(quote)
            at = text.find(operator, at + 1)
    done = 0
    for at in sorted(places):
        if at >= done and (match := COMPARED.match(text, at)) is not None:
            done = match.end()
            yield match


def find_compared(text: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, class) of each literal compared with a secret-named variable."""
    for match in comparisons(text):
        end, quote = match.start(), text[match.start()]
        start = text.rfind(quote, text.rfind("\n", 0, end) + 1, end) + 1
        value, name = text[start:end], match.group("name")
        if start and value and "\\" not in value and keyed_value_is_secret(name, "==", value, quote):
            yield start, end, kind_of(name)
