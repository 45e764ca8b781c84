"""Credentials as source code hands them to libraries: an access key's id then its secret, a JWT's
signing key beside its algorithm, a key decoded from a literal, `user:password` passed whole,
Databricks' secrets and widgets, WordPress' salts and Laravel's keys, the private members of a
JSON Web Key.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from pica.stages.secrets import verify
from pica.stages.secrets.rules import (
    Rule,
    literal_password,
    random_with_digit,
    rule,
)
from pica.stages.secrets.shapes import (
    ID_THEN_SECRET,
)


def signing_key(value: str) -> bool:
    """A JWT signing key written into code: random (any signs in it), not a stand-in."""
    return verify.random_enough(value) and not verify.is_stand_in(value)


CODE_LITERALS: list[Rule] = [
    # An access key's id, then its secret, as a call's arguments or a CSV's columns: Alibaba's
    # `LTAI…`, AWS's `AKIA…`, DigitalOcean Spaces' `DO00…`, Backblaze's 25 hex digits, the 20 capitals
    # and digits of MinIO's and Wasabi's (`oss.New(endpoint, "LTAI…", "…")`, `NewStaticV4(…)`)
    rule(
        "generic_api_key",
        "",
        r"(?:LTAI[0-9A-Za-z]{12,24}|(?:AKIA|ASIA|DO00)[0-9A-Z]{16})" + ID_THEN_SECRET,
        not_after="",
        check=random_with_digit,
    ),
    rule(
        "generic_api_key",
        "minio wasabi backblaze authorize_account newstaticv4 key,secret twilio omniauth",
        # (and Twilio's API key SIDs, `SK…`, GitHub Apps' client ids, `Iv1.…`)
        r"(?<![\w-])(?:00[0-9a-f]{23}|[0-9A-Z]{20}|SK[0-9a-f]{32}|Iv1\.[0-9a-f]{16}|(?<=:auth0,\s{5})[A-Za-z0-9]{32})"
        + ID_THEN_SECRET
        + r"|(?<![\w-])[0-9A-Z]{20},([A-Za-z0-9+/=]{40})(?=\s|$|\\)",
        not_after="",
        check=random_with_digit,
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
    # A JWT signing key beside its algorithm: PHP's `JWT::encode($claims, '…', 'HS256')`, Elixir's
    # `Joken.Signer.create("HS512", "…")`; jjwt's `Keys.hmacShaKeyFor("…"`, java-jwt's
    # `Algorithm.HMAC256("…")` with any sign in it
    rule(
        "generic_api_key",
        "hs256 hs384 hs512",
        r"[\"']([^\"'\n]{16,200})[\"'][ \t]*,[ \t]*[\"']HS(?:256|384|512)[\"']"
        r"|[\"']HS(?:256|384|512)[\"'][ \t]*,[ \t]*[\"']([^\"'\n]{16,200})[\"']",
        not_after="",
        check=signing_key,
    ),
    rule(
        "generic_api_key",
        "hmacshakeyfor algorithm.hmac",
        r"(?i)(?:hmacshakeyfor|algorithm\.hmac(?:256|384|512))\(\s*\"([^\"\n]{16,200})\"",
        not_after="",
        check=signing_key,
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
        check=random_with_digit,
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
        "curlopt_userpwd btoa b64encode base64encode encodetostring getbytes( buffer.from(",
        # (.NET's `ToBase64String(…GetBytes('user:…'))`, Node's `Buffer.from('user:…')`)
        r"(?i)(?:curlopt_userpwd[ \t]*,|btoa\(|b64encode\(b?|base64encode\((?:utf8\.encode\()?"
        r"|getbytes\(|buffer\.from\("
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
        check=random_with_digit,
    ),
    # A getter named for a password that returns a literal (offlineimap's `pythonfile`,
    # `def get_pass(account): … return "…"`): the literal is the password (not `getTokenName`'s)
    rule(
        "generic_password",
        "def",
        r"(?im)def[ \t]+(?:get|load|read|fetch|lookup)_?(?:[a-z0-9]+_)*"
        r"(?:pass|password|passwd|pwd|secret|token)\([^)\n]*\)[^\n]*:[ \t]*\r?\n(?:[^\n]*\n){0,6}?"
        r"[ \t]+return[ \t]+(?:\"([^\"\s]{3,200})\"|'([^'\s]{3,200})')[ \t]*(?:#[^\n]*)?$",
        not_after=r"\w",
        check=literal_password,
    ),
    # A setter named for the secret, given a literal: Java's `options.setPassword("…".toCharArray())`,
    # `setApiKey("…")`, `setClientSecret("…")`
    rule(
        "generic_password",
        ".set",
        r"(?i)\.set(?:password|passwd|secret|token|apikey|api_key|clientsecret|accesstoken)\(\s*\"([^\"\n]{3,200})\"",
        not_after="",
        check=literal_password,
    ),
]

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
