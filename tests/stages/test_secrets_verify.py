"""Secret verification (checksums, structure) and the real-code strings redaction must leave alone."""

from __future__ import annotations

import base64
import json
import random
import zlib

import pytest

from pica.stages.secrets import find_secrets, redact

BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def b64url(value: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")


def github_token(body: str) -> str:
    """ghp_ + 30 characters + their CRC32 in six base62 digits, as GitHub mints them."""
    number, digits = zlib.crc32(body.encode()), ""
    while number:
        number, rest = divmod(number, 62)
        digits = BASE62[rest] + digits
    return "ghp_" + body + digits.rjust(6, "0")


PAYLOAD = b64url({"sub": "1234567890", "name": "Ada", "iat": 1516239022})
SIGNATURE = "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"


def test_a_jwt_whose_header_names_its_algorithm_is_redacted():
    token = f"{b64url({'alg': 'HS256', 'typ': 'JWT'})}.{PAYLOAD}.{SIGNATURE}"
    assert redact(f"auth {token}") == "auth [REDACTED:jwt]"


def test_a_jwt_shape_whose_header_is_not_a_jose_header_is_left_alone():
    not_jose = f"{b64url({'kind': 'cursor', 'page': 2})}.{PAYLOAD}.{SIGNATURE}"
    not_json = "eyJub3QganNvbiBhdCBhbGwgYnV0IGxvbmc.eyJub3QganNvbiBlaXRoZXI.SflKxwRJSMeKKF2QT4fwpMeJf36P"
    assert find_secrets(f"next page: {not_jose}") == []
    assert find_secrets(f"next page: {not_json}") == []


def test_a_github_token_with_a_valid_checksum_is_redacted_even_when_it_looks_like_a_stand_in():
    token = github_token("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx")
    forged = token[:-1] + ("A" if token[-1] != "A" else "B")
    assert redact(f"GH={token}") == "GH=[REDACTED:github_token]"
    assert find_secrets(f"GH={forged}") == []  # no checksum: a run of x is a placeholder


def test_a_github_token_without_a_valid_checksum_is_still_redacted():
    # Test suites are full of hand-typed tokens with wrong checksums; requiring one loses them.
    assert redact("token ghp_R7kQm2Xv9LpT4wZs8NbY1cHd6FgJ3aEoUi5K") == "token [REDACTED:github_token]"


def test_base64_pem_is_a_secret_only_when_it_encodes_a_private_key():
    body = "MIIEowIBAAKCAQEAo3k8Xh2LtP5wN7aVz8mR3kq9" * 3
    key = base64.b64encode(f"-----BEGIN RSA PRIVATE KEY-----\n{body}\n".encode()).decode()
    cert = base64.b64encode(f"-----BEGIN CERTIFICATE-----\n{body}\n".encode()).decode()
    assert redact(f"client-key-data: {key}") == "client-key-data: [REDACTED:private_key]"
    assert find_secrets(f"certificate-authority-data: {cert}") == []


def test_low_entropy_and_documented_examples_are_not_provider_tokens():
    assert find_secrets("ACCAGTTACGGATTCAGGCATTACCAGGATTACA") == []  # DNA, not an AWS key id
    assert find_secrets("key = AKIAIOSFODNN7EXAMPLE") == []  # AWS's documentation key
    assert find_secrets("kubeadm join --token abcdef.0123456789abcdef") == []  # kubeadm's example
    assert find_secrets('const key = "AIzaSyDSb51JiIcB6OJpwwMicseKRhhrOq1cS7g"') == []  # SDK's public key


@pytest.mark.parametrize(
    "text",
    [
        "sha1: da39a3ee5e6b4b0d3255bfef95601890afd80709",
        "md5 d41d8cd98f00b204e9800998ecf8427e  README.md",
        "digest: sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "Merge commit 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3' into main",
        "session_id = 3fa85f64-5717-4562-b3fc-2c963f66afa6",
        '<img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk'
        'YPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==">',
        '"integrity": "sha512-Ki0ZCIBBBD3wM0Q+CvD2vK3q7ZtGXXHFtxUWwcJmHbJ7fElfdkVGgJ7TuqsVT5Xw/g'
        'IOYgJ9PwZsPKLLFd0z0g=="',
        '{file = "requests-2.31.0-py3-none-any.whl", hash = "sha256:58cd2187c01e70e6e26505bca751777aa'
        '9f2ee0b7f4300988b709f44e013003f"}',
        'checksum = "0a0a8ee8bd86a5f0fe7e74fd1b19fc0f2d60a5a9ef1a06fdf06b0e1df1fdbd1d"',
        'resolved "https://registry.yarnpkg.com/ms/-/ms-2.1.2.tgz#a1b2c3d4e5f60718293a4b5c6d7e8f9012345678"',
        '!function(e,t){var n=t.key,r=e.token||n;return r.split(".").map(function(o){return o})}',
        "const {token, secret} = await getCredentials(); headers.Authorization = `Bearer ${token}`",
        "password_hash = hashlib.sha256(password.encode()).hexdigest()",
    ],
)
def test_hashes_ids_images_lock_files_and_code_are_left_alone(text):
    assert find_secrets(text) == []


def test_redact_returns_the_same_object_when_nothing_is_found():
    text = "nothing to see: commit 3f786850e387550fdab836ed7e6dc881de23001b"
    assert redact(text) is text


OPENSSH = (
    "-----BEGIN OPENSSH PRIVATE KEY-----\n"
    + "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n" * 3
    + "-----END OPENSSH PRIVATE KEY-----"
)
PUTTY = (
    "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5\n"
    "AAAAIHb9\nPrivate-Lines: 1\nAAAAIDe8Zf3qJr0Tn2Wm5Ld7Hc4Xk9Pv1Sa6Gy3Bw8Qu0Rt2\nPrivate-MAC: 5e1f"
)


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("machine api.example.org login ada password Zq7-wX2!pLm", "Zq7-wX2!pLm"),
        ("[pypi]\nusername = __token__\npassword = hR8#kLq2vN5x", "hR8#kLq2vN5x"),
        (
            "//registry.npmjs.org/:_authToken=4f1c2b9e-7a3d-4e8f-9b0a-6c5d2e1f3a7b",
            "4f1c2b9e-7a3d-4e8f-9b0a-6c5d2e1f3a7b",
        ),
        ("//registry.example.org/:_auth=YWRhOlpxN3dYMnBMbTlr", "YWRhOlpxN3dYMnBMbTlr"),
        ("//registry.example.org/:_password=WnE3d1gycExtOWs=", "WnE3d1gycExtOWs="),
        ('{"auths": {"ghcr.io": {"auth": "YWRhOmdocF9SN2tRbTJYdjlMcFQ0"}}}', "YWRhOmdocF9SN2tRbTJYdjlMcFQ0"),
        ("users:\n- name: ada\n  user:\n    token: kT9vQ2mX7pL4wR8sN3bY6cH1", "kT9vQ2mX7pL4wR8sN3bY6cH1"),
        (OPENSSH, "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW"),
        (PUTTY, "AAAAIDe8Zf3qJr0Tn2Wm5Ld7Hc4Xk9Pv1Sa6Gy3Bw8Qu0Rt2"),
        ("mysql -u root -pS3cr3tPw0rd db", "S3cr3tPw0rd"),
        ("export STRIPE_TOKEN=q8Zr2Lm5Vx9Tk3Nw7Yb4", "q8Zr2Lm5Vx9Tk3Nw7Yb4"),
        ('curl -H "Authorization: Basic YWRhOlpxN3dYMnBMbQ==" https://api', "YWRhOlpxN3dYMnBMbQ=="),
        ("Server=db;Database=app;User Id=ada;Password=Zq7wX2pLm9k;", "Zq7wX2pLm9k"),
        ("redis://:Zq7wX2pLm9k@cache.internal:6379/0", "Zq7wX2pLm9k"),
    ],
)
def test_common_credential_syntaxes_are_redacted(text, secret):
    assert secret not in redact(text)


# Shapes that the survey of real code (docs/measure/redaction_code.py) found redacted before: a
# name ending in a secret word followed by code, a path, a pattern, a type or prose.
@pytest.mark.parametrize(
    "text",
    [
        'raise ValueError(f"image tokens do not match: tokens: {n_image_tokens}, features: {n}")',
        "num_valid_tokens = (new_tokens != pad_token_id).sum(dim=-1)",
        "if token == TOKEN_LINESTATEMENT_BEGIN:\n    pass",
        "old_num_tokens = self.final_logits_bias.shape[-1]",
        "case 112:o.key=s?r.C0.ESC+`[1;`:r.C0.ESC+`OP`;break",
        "e=e.get(r.key===null?n:r.key)||null",
        "client.call(_request_auth=_request_auth, timeout=5)",
        'USER_PASSWORD_AUTH = "USER_PASSWORD_AUTH"',
        "resolved_api_key: _AzureApiKeyT | str | None = api_key",
        "userpass = username + b':' + password",
        "ph, pw = paddings",
        "    # First pass: identify unused nodes",
        '    Alternatively, you can pass "inline=False" to use if-else conditionals.',
        "    :param password: encrypt private key with password",
        '"S3Key": "my-app/5026-stage-150723_224258.war"',
        '"S3ObjectKey": "aws-codepipeline-s3-aws-codedeploy_linux.zip"',
        'CLIENT_CAPABILITIES_META_KEY = "io.modelcontextprotocol/clientCapabilities"',
        '"ARN": "arn:aws:secretsmanager:us-west-2:123456789012:secret:MySecret2-a1b2c3"',
        '"AWS::KMS::ReplicaKey": "903f43e74c8d8853"',
        '"NextToken": "OzL223pDKy9116O/02KXRqFIEAwxjy4PkgYcm3hSo0rdysbXg5Ex0eFgTGEj0ADEac6S037U"',
        '"ClientRequestToken": "f4c94ed7-238d-4c46-93db-48cd62ec33b7"',
        'ZONE_ID_PAT = "(?:%25|%)(?:[" + UNRESERVED_PAT + "]|%[a-fA-F0-9]{2})"',
        '"AmazonS3ReadOnlyAccess": "arn:aws:iam::aws:policy/AWSDirectoryServiceDataFullAccess"',
        "parametrization_dict = cast(nn.ModuleDict, conv2d.parametrizations)",
        "s.replace(/(^|[^\\\\])(\\\\\\\\)*([\"'`])/g,`$1$2\\\\$3`).replace(/>>/g,`\\\\>\\\\>`)",
        "if(n.password){n.password=null;let t=Ft(new Uint8Array(hn));",
        "{'X-Amz-S3session-Token': self.credentials.token}",
        "private_key: PKCS7PrivateKeyTypes,",
        '_SAM_KEY = "lambda:createdBy"',
        "The --username and --password options can't be used with a URL.",
        "if the username or the password is missing.",
        'const PG_NO_AUTH = "postgresql://db.server.com:5432/production";',
        "aws cognito-idp delete-user --access-token ACCESS_TOKEN",
        'attributes_key = f"{decapitalize(decision_type)}DecisionAttributes"',
        "  using ModulePass::doInitialization;",
        "MCAsmParser::parseToken(AsmToken::TokenKind T)",
        '"minipass": "^7.0.3",',
        "Pass *ResultPass = nullptr;",
        "P.Minipass=P.isWritable=P.isReadable=void 0;",
        "const KeyT EmptyKey = this->getEmptyKey();",
        "} else if (obj1AtKey !== obj2AtKey) {",
        "const noCreds = !(creds.token || creds.username)",
        "<key>CFBundleExecutable</key>",
        'message(CHECK_PASS "found")',
        "let indtokens = s:all_tokens[lnum]",
        "setlocal indentkeys+=0=implements",
        'backend: Backend, private_key: "_DSAPrivateKey", data: bytes',
        "$key = '-exitval';",
        "var lpat = 'documentclass\\>\\|usepackage\\>\\|begin{'",
        'creds = " --username=%s --password=%s" % (user, pw)',
        'key: "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE1Olb3zMAFFxXKHiIkQO5cJ3Yhl5i6UPp+IhuteBJbuHcA5UogKo0"',
        "_authToken=MYTOKEN1",
        "// protects against shoulder-hacks if password is memorable, I guess?",
        "client.create(name=api_key.name, value=api_key.value)",
        'fields = ("password", "username")',
        "  - name: API_TOKEN\n    valueFrom:\n      secretKeyRef: {name: app, key: token}",
        "role_id = '9f2c4e1a-7b3d-4f8e-8c6a-2b4d1e3f5a7c'",
    ],
)
def test_code_paths_patterns_and_prose_around_secret_words_are_left_alone(text):
    assert find_secrets(text) == []


def test_an_xml_element_named_for_a_secret_loses_its_value_not_its_name():
    redacted = redact("<apiToken>Zq8vR2mX7pL4wK9t</apiToken>")
    assert redacted == "<apiToken>[REDACTED:generic_api_key]</apiToken>"


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("SHOPIFY=shpat_r8TRc9ZXAvcVvcrmtr7qoVw69WeeY1ex", "shpat_r8TRc9ZXAvcVvcrmtr7qoVw69WeeY1ex"),
        (
            "cfut_Zq8vR2mX7pL4wK9tQ3nB6cY1hJ5dF0gS2aE7uI4o03fa099b",
            "cfut_Zq8vR2mX7pL4wK9tQ3nB6cY1hJ5dF0gS2aE7uI4o03fa099b",
        ),
        ("token: vcp_Zq8vR2mX7pL4wK9tQ3nB6cY1hJ5dF0gS", "vcp_Zq8vR2mX7pL4wK9tQ3nB6cY1hJ5dF0gS"),
        (
            '"dep": "git+https://9f2c4e1a7b3d5f8e0c6a2b4d1e3f5a7c9b0d2e4f:x-oauth-basic@github.com/o/r.git"',
            "9f2c4e1a7b3d5f8e0c6a2b4d1e3f5a7c9b0d2e4f",
        ),
        ("jdbc:mysql://ada:Zq7wX2pLm9k@[db1:3306,db2:3306]/app", "Zq7wX2pLm9k"),
        ("postgres://ada:Zq7wX2pLm9k@[::1]:5432/app", "Zq7wX2pLm9k"),
        (f"ghs_12345_{b64url({'alg': 'RS256', 'typ': 'JWT'})}.{PAYLOAD}.{SIGNATURE}", PAYLOAD),
        (
            "AZ_storageAccessKey:TP+G/9FTZRP1he1EpKilMercxSbMyqtaI9xTbc/3HqT2/FkxyIk1wVlBdem==",
            "TP+G/9FTZRP1he1Ep",
        ),
        (
            "storageAccountKey: Ar4/2iY8L0rEMeQaijINnfaMJr7vqjfbPgmJayw6Pu5l9ZI+GrFDm1uIWOqXk5RQLr==",
            "Ar4/2iY8L0r",
        ),
        ("env:\n  - name: DB_PASSWORD\n    value: Zq7wX2pLm9k\n", "Zq7wX2pLm9k"),
        (
            '{"name":"registry-password","value":"VP2rvkuld42mr3jNjM+rVbvIzVuZ"}',
            "VP2rvkuld42mr3jNjM+rVbvIzVuZ",
        ),
        ('{ "AccountKey", "8jqRVtXUWiEthgIhR+dFwrB8gh3lFuquvJQ1v4eabObIj7okI1cZ==" }', "8jqRVtXUWiEthgIhR"),
        (
            "az devops login --token A0us9bS1c6qe5blb6CT4FGRR4JcmPDg7uadVFmw4D65b",
            "A0us9bS1c6qe5blb6CT4FGRR4J",
        ),
        (
            'discord_bot_token = "oHILWmk3qakMYbqAikD9R0nJ.Vhu0LY.FK1U_2L2Of8Bm5ESbD6Cy4VKu2K"',
            "oHILWmk3qakMYbqAik",
        ),
        ('secret_id = "9f2c4e1a-7b3d-4f8e-8c6a-2b4d1e3f5a7c"', "9f2c4e1a-7b3d-4f8e-8c6a-2b4d1e3f5a7c"),
        ("SECRET_KEY = r'django-insecure-8f#k2l$9q0z'", "django-insecure-8f#k2l$9q0z"),
        ("password = b'Zx9-Lq2vB7'", "Zx9-Lq2vB7"),
        (
            "client_secret: '-u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8dKLz'",
            "-u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8dKLz",
        ),
        ("Using Key=ATCTT3xFfGN0GsZNgOGrQSHSnxiJVi00oHlRicyM0yMNuKCBfw6qOHVcCy4H=366BFE3A", "ATCTT3xFfGN0Gs"),
        (
            "https://discord.com/api/webhooks/1369248176954937405/"
            "Q7bFGgbEMoZ-tRHuA4QHk3xTNC7aB9vLm2Xq8Rt5Yp1Ws4Ze6Uf3Gh0Jk7Dn9Cv2Bx5Mz",
            "Q7bFGgbEMoZ-tRHuA4QHk3xTNC7aB9vLm2Xq8Rt5Yp1Ws4Ze6Uf3Gh0Jk7Dn9Cv2Bx5Mz",
        ),
    ],
)
def test_published_formats_and_credential_places_are_redacted(text, secret):
    assert secret not in redact(text)


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("token-secret: f395acdc669aa63d", "f395acdc669aa63d"),  # a short random hex under 3.0 bits
        ("export AUTH_KEY=9f2c4e1a7b3d", "9f2c4e1a7b3d"),
        ("api_key: a8Kd9Lm2", "a8Kd9Lm2"),
        ('credentials="MKKZcpOrmQQUJaVOHFQa"', "MKKZcpOrmQQUJaVOHFQa"),  # random letters, no digit
        ("signing_key => 'IdFebPdMmkFWQmHs',", "IdFebPdMmkFWQmHs"),
        ("client_secret: /tdA7OTrIXCvIujLXVLp", "/tdA7OTrIXCvIujLXVLp"),  # base64 starting with /
        ('"client_secret": "%K8bJzixicuV1jDs2sJE",', "%K8bJzixicuV1jDs2sJE"),
        ('passwd="@J1aoNgnjRdg#iLv1Dh8"', "@J1aoNgnjRdg#iLv1Dh8"),
        ("access_token: -uikKQbr7yG6h0CZPMPyh3Q_PW3gX-hY", "-uikKQbr7yG6h0CZPMPyh3Q_PW3gX-hY"),
        ("<pwd>DA93042F02F85865166BF54390D06A5BA76E7BBE</pwd>", "DA93042F02F85865166BF54390D06A5BA76E7BBE"),
        ("<credentials>K72BPhs5c8nL0F7LTCKphOHiEmIpPPl0</credentials>", "K72BPhs5c8nL0F7LTCKphOHiEmIpPPl0"),
    ],
)
def test_machine_made_values_of_every_shape_are_redacted(text, secret):
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        '_VARKW_KEY = "**kwargs"',
        'self.image_token = "|SPEAKER|"',
        "comment_key='#comment'",
        'return {_FLOAT_TAG_KEY: "-Infinity"}',
        '--tags "tagkey1=tagvalue1, tagkey2=tagvalue2"',
        "EPILOGUE_SR_SEED_AUX_OUT_SALT = 0x9E3779B1",
        "str_key = '%aimport'",
        'secret_path = "/run/secrets/db_password"',
        'token_file: "%APPDATA%\\\\app\\\\token"',
        'auth_package: "@types/node"',
        "token = getAccessTokenFromEnv",
        "key = -offset",
        'secret = "deadbeef"',
    ],
)
def test_words_names_and_places_beside_those_shapes_are_left_alone(text):
    assert find_secrets(text) == []


def test_random_keys_of_every_alphabet_are_redacted_under_a_secret_name():
    """Values drawn at random, not examples: the rules must hold for the format, not a sample."""
    rng = random.Random(7)
    alphabets = (
        "0123456789abcdef",
        BASE62,
        BASE62 + "+/",
        BASE62 + "-_",
    )
    layouts = ("API_KEY={v}", "client_secret: '{v}'", '"authToken": "{v}",', 'password = "{v}"')
    missed = []
    for _ in range(800):
        value = "".join(rng.choice(rng.choice(alphabets)) for _ in range(rng.randint(20, 40)))
        text = rng.choice(layouts).format(v=value)
        if value in redact(text):
            missed.append(text)
    assert len(missed) <= 8, missed  # 1%


PASSWORD = "Zq7wX2pLm9k"


@pytest.mark.parametrize(
    "line",
    [
        "sshpass -p {p} ssh ada@host",
        "sshpass -p '{p}' scp f ada@h:/tmp",
        "net use Z: \\\\srv\\share /user:ada {p}",
        "net use Z: \\\\srv\\share {p} /user:CORP\\ada",
        "smbclient //srv/share -U ada%{p}",
        "smbclient //srv/share --user=ada%{p}",
        "htpasswd -b .htpasswd ada {p}",
        "htpasswd -nb ada {p}",
        "echo '{p}' | docker login --username ada --password-stdin",
        "gh auth login --with-token <<< {p}",
        "redis-cli -h db -a {p} ping",
        'ldapsearch -x -D "cn=admin,dc=example,dc=org" -w {p} -b dc=example,dc=org',
        "openssl rsa -in k.pem -passin pass:{p}",
        "zip -P {p} secret.zip a.txt",
        "7z a -p{p} archive.7z dir",
        'sqlcmd -S db -U sa -P {p} -Q "select 1"',
        "xfreerdp /v:host /u:ada /p:{p}",
        "ipmitool -I lanplus -H 10.0.0.5 -U admin -P {p} power status",
        "sqlplus scott/{p}@orcl",
        "keytool -importkeystore -srcstorepass {p} -deststorepass x{p}",
        "mosquitto_pub -h broker -u ada -P {p} -t t -m hi",
        "rabbitmqctl add_user ada {p}",
        "aws configure set aws_secret_access_key {p}",
        "lftp -u ada,{p} sftp://host",
        "vault login {p}",
        "npm config set //registry.npmjs.org/:_authToken {p}",
        "ssh-keygen -t ed25519 -N {p} -f key",
        "nmcli dev wifi connect MyWifi password {p}",
        "wpa_passphrase MyWifi {p}",
        "CREATE USER 'ada'@'%' IDENTIFIED BY '{p}';",
        "GRANT ALL ON *.* TO 'ada'@'localhost' IDENTIFIED BY '{p}';",
        "CREATE USER scott IDENTIFIED BY {p};",
        "ALTER USER postgres WITH PASSWORD '{p}';",
        "CREATE ROLE app WITH LOGIN PASSWORD '{p}';",
        "ALTER LOGIN sa WITH PASSWORD = '{p}';",
        "SET PASSWORD FOR 'ada'@'%' = '{p}';",
    ],
)
def test_passwords_on_command_lines_and_in_sql_are_redacted(line):
    """Each tool's manual says where its password goes; agent transcripts are full of these."""
    assert PASSWORD not in redact(line.format(p=PASSWORD))


@pytest.mark.parametrize(
    "line",
    [
        "psql -U ada -p 5432 app",
        "docker run -p 8080:80 nginx",
        "ssh-keygen -t ed25519 -N '' -f key",
        'sshpass -p "$PASS" ssh ada@host',
        "redis-cli -a $REDIS_PASSWORD ping",
        "7z a -p archive.7z dir",
        "net use Z: \\\\srv\\share /persistent:yes",
        "grant read access to all users identified\nby URI and full control to a user identified by their ID",
        "aws configure set aws_secret_access_key default_secret_key",
        "vault login -method=userpass username=ada",
        "CREATE USER ada IDENTIFIED BY '${DB_PASS}';",
        "openssl rsa -in k.pem -passin env:KEY_PASS",
        "wpa_passphrase MyWifi < pass.txt",
        "self.ftest('exp(-1)', math.exp(-1), 1/math.e)",
        "mysql -u root -p",
    ],
)
def test_command_lines_without_a_password_are_left_alone(line):
    assert find_secrets(line) == []


@pytest.mark.parametrize(
    "text",
    [
        "define('DB_PASSWORD', '{p}');",
        'System.setProperty("javax.net.ssl.keyStorePassword", "{p}");',
        'props.put("password", "{p}");',
        'os.Setenv("API_KEY", "{p}")',
        'variable "db_password" {{\n  type    = string\n  default = "{p}"\n}}',
        'headers = {{"Authorization": f"Bearer {p}xY81"}}',
        'requests.get(url, auth=("ada", "{p}"))',
        "HTTPBasicAuth('ada', '{p}')",
        'aiohttp.BasicAuth("ada", "{p}")',
        'smtp.login("ada@example.com", "{p}")',
        'user.set_password("{p}")',
        '<input type="password" name="pw" value="{p}">',
        "--admin-pass {p}",
        "# ~/.pgpass\ndb.example.com:5432:app:ada:{p}",
    ],
)
def test_credentials_in_config_and_code_idioms_are_redacted(text):
    assert PASSWORD not in redact(text.format(p=PASSWORD))


@pytest.mark.parametrize(
    "text",
    [
        "smtp.login(user, password)",
        "requests.get(url, auth=(user, pw))",
        "user.set_password(raw_password)",
        '<input type="password" value="{{ pw }}">',
        "define('DB_PASSWORD', getenv('DB_PASSWORD'));",
        "define('AUTH_KEY', 'put your unique phrase here');",
        "ansible-playbook --ask-pass site.yml",
        'variable "db_password" {\n  type      = string\n  sensitive = true\n}',
        'props.put("password", "Password");',
        '"KeyStorePassword": "The password for the kmsuser CU account in the specified cluster."',
        'keystore_path = "/etc/app/keystore.jks"',
    ],
)
def test_credential_idioms_without_a_literal_are_left_alone(text):
    assert find_secrets(text) == []


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (
            "## git settings\n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\n",
            "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",
        ),
        ('export SNYK_TOKEN="12345678-abcd-4bcd-9bcd-1234567890ab"', "12345678-abcd-4bcd-9bcd-1234567890ab"),
        ('curl -s --user "ada:dB2yF6@qL9vZm1P#4J" https://api.example.org', "dB2yF6@qL9vZm1P#4J"),
        (
            '"secret_access_key": "1234567890abcdef1234567890abcdef1234567890abcdef"',
            "1234567890abcdef12345678",
        ),
        (
            "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
            "QyNTUxOQAAACDx3VqUMp2jxmRd0QB9Tj6gqFHa4r9sm2kXyZ6YwP4hJwAAAJgAAAAAAAAAAAAA\n"
            "-----END OPENSSH PRIVATE KEY-----\n",
            "QyNTUxOQAAACDx3VqUMp2j",
        ),
        ("net use Z: \\\\srv\\share Zq7wX2pLm9k /user:CORP\\ada", "Zq7wX2pLm9k"),
        # quoted values whose rules want a plain quote before them: read with `\"` as a quote
        ('config.setPassword("Gannet2026!");', "Gannet2026!"),
        ('resp = requests.get(url, auth=("deployer", "Osprey2024@"))', "Osprey2024@"),
        ('$p = ConvertTo-SecureString "Heron2025#" -AsPlainText -Force', "Heron2025#"),
        ('Credentials = new NetworkCredential("alerts", "dU9X^c7TG5MTTVb+"),', "dU9X^c7TG5MTTVb+"),
        ('<input type="password" name="pass" value="P@ssw0rd7">', "P@ssw0rd7"),
        (
            'env:\n  - name: COHERE_API_KEY\n    value: "Zq7wX2pLm9kR4tB8nV3cY6hJ1dF5gS0aQeWuIoPl"',
            "Zq7wX2pLm9kR4tB8",
        ),
        ('{"output": "export DB_PASSWORD=\\"G#amiaSVUY*BUe-RQYNE\\"\\n"}', "G#amiaSVUY*BUe-RQYNE"),
        (
            'credentials.NewStaticCredentialsProvider(\n\t\tid, "CirGQ877jnLeLPp8rORxGT6zJhAEr1+P99qJsfKw", "")',
            "CirGQ877jnLeLPp8",
        ),
        # a table's password column: its header line starts inside the string, its last row ends there
        (
            "name,url,username,password\nshop,https://shop.example,bo@example.net,Quill7$harbor",
            "Quill7$harbor",
        ),
        (
            '"url","username","password"\n"https://shop.example","bo@example.net","t4Z!mQ9#pLx2"\n',
            "t4Z!mQ9#pLx2",
        ),
        ("Service\tLogin\tPassword\t2FA\nISP\tkim@example.net\tlark2931\tno\n", "lark2931"),
    ],
)
def test_json_escaped_text_is_redacted_and_stays_json(text, secret):
    """Logs, notebooks and tool output hold text as JSON strings: `\\n` before a token, `\\"` around
    a value. The secret goes, and the redacted line is still valid JSON with the rest intact."""
    line = json.dumps({"content": text})
    redacted = redact(line)
    assert secret not in redacted
    assert secret not in json.loads(redacted)["content"]
    assert json.loads(redacted)["content"] == redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "WiFi密码\uff1a{p}",
        "密码: {p}\uff0c请保管好",
        "パスワードは {p} です",
        "비밀번호: {p}",
        "Contraseña: {p}",
        "mot de passe : {p}",
        "Das Passwort ist {p}.",
        "пароль: {p}",
        "hasło: '{p}'",
        "The wifi password is {p}.",
    ],
)
def test_passwords_named_in_other_languages_and_in_sentences_are_redacted(text):
    assert PASSWORD not in redact(text.format(p=PASSWORD))


@pytest.mark.parametrize(
    "text",
    [
        "パスワードは英数字8文字以上で設定してください",
        "密码\uff1a请输入密码",
        "Passwort vergessen?",
        "le mot de passe est obligatoire",
        "Das Passwort ist falsch.",
        "hesap:parola:UID:GID:GECOS:dizin:kabuk",
        "If the password is incorrect\nand PINENTRY_STATUS is set",
        "the password is missing.",
        "decrypt without a password is GNUTLS_E_DECRYPTION_FAILED.",
        "an exclamation mark means that the password is locked\\&. The remaining characters",
    ],
)
def test_prose_about_passwords_in_any_language_is_left_alone(text):
    assert find_secrets(text) == []


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (
            'client = Client("AC6af79c0ab767fde2ff5cc25bac13d5bc", "f4cd3dd78adee4123fd67d4cb315f028")',
            "f4cd3dd78a",
        ),
        (
            "AZURE_STORAGE_KEY=ry82QBKr/RUYfAG1euB+tXjEn9O+jfHvGpI+VRvrQyQzxrWBngRmi4br6+Ssk0ulIH1mDJBOWRG1teUPJP1Isq==",
            "ry82QBKr",
        ),
        ("2. Set `ADMIN_PASSWORD` to `P@ssw0rd252!` (staging account)", "P@ssw0rd252!"),
        ("set api_key to 9f2c4e1a7b3d5f8e0c6a.", "9f2c4e1a7b3d5f8e0c6a"),
        ("mysql -u root -pZq7wX2pLm9k app", "Zq7wX2pLm9k"),
        ("mysqladmin -u root -pZq7wX2pLm9k status", "Zq7wX2pLm9k"),
    ],
)
def test_secrets_a_fresh_set_showed_missing_are_redacted(text, secret):
    """From a set written apart from the rules (docs/redaction.md, "A fresh set")."""
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "mysql -u root -p app_db < dump.sql\nEnter password:",
        'docker login ghcr.io -u $GITHUB_ACTOR --password-stdin <<< "$GITHUB_TOKEN"',
        "Set the password to something strong.",
        "the key to success is practice",
        'cache_key = "user:42:profile"',
    ],
)
def test_what_a_fresh_set_showed_redacted_wrongly_is_left_alone(text):
    assert find_secrets(text) == []


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("key: sk-or-v1-" + "3f9a0c7e12b4d6f8" * 4, "3f9a0c7e12b4d6f8"),
        ('client = OpenAI(api_key="sk-2d7e9b4c1a8f3e6d0b5c7a9e2f4d6b81", base_url=BASE)', "sk-2d7e9b4c1a8f"),
        ("SUPABASE_ACCESS_TOKEN=sbp_0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c", "sbp_0b9c8d7e6f5a"),
        ('create_client(url, "sb_secret_Qm4xT7vK2pR9wZ3nB6yH8cJ1")', "sb_secret_Qm4xT7"),
        (
            "space export --management-token CFPAT-" + "Xq7mP2vR9kT4wZ8nB3yH6cJ1dF5gL0sA-qE7uI2oK9pY",
            "CFPAT-Xq7mP2v",
        ),
        ("const endpointSecret = 'whsec_Qm4xT7vK2pR9wZ3nB6yH8cJ1dF5gL0sA';", "whsec_Qm4xT7vK"),
        ("dbx = dropbox.Dropbox('sl.u." + "AbC3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1x" * 5 + "')", "sl.u.AbC3dE5f"),
        (
            'curl "https://api.telegram.org/bot7101234567:AAGk3mZ7pQ2vX9wR4tL8nB1yH6cJ5dF0sEq/getMe"',
            "AAGk3mZ7",
        ),
        ("deploy --prod --auth nfp_K7mQ2vX9wR4tL8nB1yH6cJ5dF0sEqA3zP", "nfp_K7mQ2vX9"),
        ('dsn := "app:Tr0ub4dor&3@tcp(db.internal:3306)/shop"', "Tr0ub4dor&3"),
        ('$pw = ConvertTo-SecureString "Hamster2027#" -AsPlainText -Force', "Hamster2027#"),
        ("$ kubectl get secret db -o jsonpath='{.data.password}'\nczNjcjN0LXZhbHVl\n$ ", "czNjcjN0LXZhbHVl"),
        ("auth: { user: 'ops@acme.test', pass: 'Gr4nite!!' }", "Gr4nite!!"),
        ('network={\n    ssid="Lab"\n    psk="Otters2031"\n}', "Otters2031"),
        ("stringData:\n  password: 'copper.meadow.lantern'", "copper.meadow.lantern"),
        ("    environment:\n      - ADMIN_PASSWORD=copper.meadow.lantern", "copper.meadow.lantern"),
        ('let o = Opts::new().username("app").password("Pelican7$").build();', "Pelican7$"),
        ("const SECRET = process.env.SECRET ?? 'q8Zt3LmX9vR2kP7wN4sB';", "q8Zt3LmX9vR2kP7wN4sB"),
        ('API_KEY = os.environ.get("API_KEY", "q8Zt3LmX9vR2kP7wN4sB")', "q8Zt3LmX9vR2kP7wN4sB"),
        ('password := getEnv("DB_PASSWORD", "Falcon2029!")', "Falcon2029!"),
        ('SECRET_KEY = config("SECRET_KEY", default="q8Zt3LmX9vR2kP7wN4sB")', "q8Zt3LmX9vR2kP7wN4sB"),
        ('co = cohere.ClientV2("Zq7wX2pLm9kR4tB8nV3cY6hJ1dF5gS0aQeWuIoPl")', "Zq7wX2pLm9kR4tB8"),
        ("session = pdpyras.APISession('y+KzE6VL5x2Ikk3H-fz-')", "y+KzE6VL5x2Ikk3H"),
        (
            "config.omniauth :github, ENV['GITHUB_KEY'], 'qz5J7AJ3yLz7-15Ln0T9MSbz5RvZq1ItYaYzklCb'",
            "qz5J7AJ3yLz7",
        ),
        ('var secret = []byte("9c41e07bd25a3f86e1b0c97d4a26f58e3b17d09c")', "9c41e07bd25a3f86"),
        ("User: use password Kestrel2030!! for the staging login", "Kestrel2030!!"),
        ("# password (temporary, rotate on Friday): Plover2029!", "Plover2029!"),
    ],
)
def test_secrets_a_third_fresh_set_showed_missing_are_redacted(text, secret):
    """Shapes a third set written apart from the rules missed (docs/redaction.md, "A third fresh set"):
    provider formats, Go DSNs, PowerShell, kubectl output, env defaults, credential calls."""
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "$pw = Read-Host -AsSecureString -Prompt 'Enter password'",
        "Something like `API_KEY=your_key_here` and `DB_PASSWORD=change_me`",
        "# cache key: node-modules-83055b77b362e1d8cbe40c3dbcf745d0b6a311a90a396a37a69306308abc902c",
        "aws waf update-rule --rule-id a123 --change-token 12cs345-67cd-890b-1cd2-c3a4567d89f1 --updates x",
        "aws acm list-certificates --max-items 2 --next-token 9f4d9f69-275a-41fe-b58e-2b837bd9ba48",
        'client = InferenceClient("meta-llama/Meta-Llama-3-8B-Instruct")',
        "client = Client('scheduler-address:8786')",
        "const again = await readUserInfo.password('       Again:     ')",
        'answer = questionary.password("What\'s your password?").ask()',
        "    'pass': 'bandpass',",
        "PASSWORD=args.pw",
        'db_password = os.environ.get("DB_PASSWORD", "")',
        'tok = kwargs.get("token", "eos")',
        "hash every password SHA-256 for storage",
        "password reset for users who forgot it",
        "    password (str): The password to use.",
        '{"output": "export DB_PASSWORD=\\"${DB_PASSWORD:?missing}\\"\\n"}',
    ],
)
def test_what_the_third_fresh_set_and_real_code_showed_is_left_alone(text):
    assert find_secrets(text) == []
    assert find_secrets(json.dumps({"content": text})) == []  # and inside a JSON string


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (
            "Salut, pour le NAS : identifiant admin, mot de passe Q7hrpN^3WkLm&21 — à changer.",
            "Q7hrpN^3WkLm&21",
        ),
        (
            "Ciao! La password del Wi-Fi ospiti è Lantern-orbit4821, valida fino a lunedì.",
            "Lantern-orbit4821",
        ),
        ('a senha do servidor de testes é "k30JTs#YDs8P?12" (usuário deploy).', "k30JTs#YDs8P?12"),
        ("доступ к Grafana: логин viewer, пароль M9WbtF#7v0L1?64", "M9WbtF#7v0L1?64"),
        ("Het wachtwoord voor de printer is nu GhWWaK#0Tr2p&87, niet doorsturen.", "GhWWaK#0Tr2p&87"),
        ("Hasło do panelu: Amber.pepper7257 (login: biuro)", "Amber.pepper7257"),
        ("the temporary password for your new account is Falcon_cactus3881. Change it.", "Falcon_cactus3881"),
        ("Das Passwort für den Router lautet 6j007T^KFlyF?82 - bitte nicht teilen.", "6j007T^KFlyF?82"),
        ('config.winrm.password = "Ember.nimbus5371"', "Ember.nimbus5371"),
        ("[nas]\ntype = sftp\npass = rXGSLqVqiDQn8h29DaHwX1DXh_Qw_-tqhKfehgkp", "rXGSLqVqiDQn8h29"),
        ("LANGCHAIN_API_KEY=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", "lsv2_pt_f4303f3d"),
        ("remote_password P12npI*fn4Ag$65", "P12npI*fn4Ag$65"),
        ("ldap_default_authtok = Q8mv3Lk2Zp7RtWx4", "Q8mv3Lk2Zp7RtWx4"),
        ("  hec_token cf155dd6-e096-441b-9729-fbc2e2ff19e0", "cf155dd6-e096-441b"),
        ("userlist ops\n    user admin insecure-password Maple.lantern2633", "Maple.lantern2633"),
        ("rocommunity c1nnun2ty-uGm9xx 10.0.0.0/8", "c1nnun2ty-uGm9xx"),
        ('203.0.113.4 198.51.100.9 : PSK "Cactus_lantern4475"', "Cactus_lantern4475"),
        (
            "<tls-auth>\n-----BEGIN OpenVPN Static key V1-----\ncfee75f3a6f4e000af12e4f5eb646eb8\n"
            "0b1d2c5e1a3f4b6c7d8e9f0a1b2c3d4e\n"
            "-----END OpenVPN Static key V1-----\n</tls-auth>",
            "cfee75f3a6f4e000af12e4f5eb646eb8",
        ),
        (
            "<key>ClientSecret</key>\n<string>9y0Qd2aaFY390tUX0UiBKSRo-oS8qVvvF5YcqpVReqDJvqCg</string>",
            "9y0Qd2aaFY39",
        ),
        (
            'Parameters:\n  DbPassword:\n    Type: String\n    Default: "JlMwfqtzDBFH6Agbz"',
            "JlMwfqtzDBFH6Agbz",
        ),
        ("config:\n  acme:dbPassword: Nc7nir33EjlBdsSg", "Nc7nir33EjlBdsSg"),
        ('password: <%= ENV.fetch("DB_PASSWORD") { "Meadow-tango5050" } %>', "Meadow-tango5050"),
        ('(adyen/client {:api-key "Zq7wX2pLm9kR4tB8nV3cY6hJ1dF5gS0a"})', "Zq7wX2pLm9kR4tB8"),
        ('{ovh, [{application_secret, "GcO84l698LWTrfa6qV1bi"}]}.', "GcO84l698LWTrfa6qV1bi"),
        ('NSString *const kMixpanelSecret = @"7eb671ae9beeb79931d905b363797f4b";', "7eb671ae9beeb799"),
        ('cfg.writeKey = std::string("DBftKOYQ5wwX1U3ZpnDMbgFxh4UkjtT");', "DBftKOYQ5wwX1U3Z"),
        ('    proxy_set_header Authorization "Basic ZGVwbG95OjZpOW1jTiFZQWJ0RyQ3NQ==";', "ZGVwbG95OjZpOW1j"),
        ('RequestHeader set X-Api-Key "Orbit-cactus2631xq"', "Orbit-cactus2631xq"),
        ("      x-honeycomb-team: OC4HCJ1KT4GaJgKd8XU55e", "OC4HCJ1KT4GaJgKd8XU55e"),
        (
            'TwilioClient.Init("SK1e796e4f48e3def80fad96d82265dfa1", "ffPQuu2M3brYuqR2OnIvuRD3VhpjUyvZ");',
            "ffPQuu2M3brY",
        ),
        ('gpg --batch --passphrase "K1lY7vR6je9L" -d secrets.tar.gpg', "K1lY7vR6je9L"),
        ("openssl enc -aes-256-cbc -in db.dump -out db.enc -k 'Harbor!cactus7750'", "Harbor!cactus7750"),
        (
            "mc alias set prod https://s3.acme.io minio-ops wpNwUD27l4YX5LjGGW9swyR5SIZz9Hy4Ma3h3TQH",
            "wpNwUD27l4YX",
        ),
        ("kubectl create secret generic pg --from-literal=password='Velvet.velvet5504'", "Velvet.velvet5504"),
        ("b2 account authorize 0065fg2715g1eb51111111114 K006nAm33G1NAF3xPk85tlxGDEJp2K", "K006nAm33G1N"),
    ],
)
def test_secrets_a_fourth_fresh_set_showed_missing_are_redacted(text, secret):
    """Shapes a fourth set written apart from the rules missed (docs/redaction.md, "A fourth fresh
    set"): passwords told in sentences in nine languages, ops configuration, Objective-C, C++ and
    Clojure literals, header lines without a colon, and tools' positional secrets."""
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "sudo tailscale up --authkey=file:/run/secrets/ts_authkey --ssh",
        "<script>PaystackPop.setup({ key: 'pk_live_8f2c1b7e9d3a4c5b6e7f8a9b0c1d2e3f4a5b6c7d' });</script>",
        "mapboxgl.accessToken = 'pk.eyJ1IjoiYWNtZSIsImEiOiJja2x6In0.Qm4xT7vK2pR9wZ3nB6yH8c';",
        'var options = { "key": "rzp_live_lHdIuq5hJhMgUW", "amount": "50000" };',
        'client = Client("AC9e1adffe802e84155ef1f53d444bd71a", os.environ["TWILIO_AUTH_TOKEN"])',
        'config :my_app, Storage,\n  secret_access_key: System.fetch_env!("SCW_SECRET_KEY")',
        "**To wait until the password data for a Windows instance is available**",
        "to store the unhashed passphrase they will pass to crypt_*.",
        "Replace the sample password ``secret99`` with a secure password.",
        "rocommunity public 10.0.0.0/8",
        "the password for root is stored in vault.",
        "The password hash algorithm is SHA-256.",
        "@unittest.skipUnless(hasattr(pwd, 'getpwuid'), 'needs pwd.getpwuid()')",
        "'type': ['text', 'password', 'checkbox', 'radio', 'submit'],",
        "const p = Buffer.from(password, 'base64').toString('utf8')",
        "btype : {'bandpass', 'lowpass', 'highpass', 'bandstop'}, optional",
    ],
)
def test_what_the_fourth_fresh_set_and_real_code_showed_is_left_alone(text):
    assert find_secrets(text) == []


STS_TOKEN = "IQoJb3JpZ2luX2Vj" + "EPr/Kq8vM2xTb7nW3hD9yLs0fR4gJ6cZ1aV5uQ+iN8oB" * 4 + "=="


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (
            "$ aws configure get aws_secret_access_key --profile ops\nq8Vd/3LmXr7Tz0Kp+Wn5Yb2Hc9Jf4Ge6Ua1Si8Ro",
            "q8Vd/3LmXr7Tz0Kp",
        ),
        (
            "$ aws sts assume-role --role-arn arn:aws:iam::111122223333:role/Ops --role-session-name a "
            "--query Credentials.SecretAccessKey --output text\nb7Kq/2NmWz5Rx8Tv+Lp3Hd6Jc1Fg4Se9Ya0Ui7Oz",
            "b7Kq/2NmWz5Rx8Tv",
        ),
        ("$ terraform output -raw admin_password\nTq7Lm2Xv9Rk4Wz8N", "Tq7Lm2Xv9Rk4Wz8N"),
        (
            "Command: vault kv get -field=password secret/apps/shop\nDirectory: (root)\nStdout: Br!ck#lane77\n",
            "Br!ck#lane77",
        ),
        (
            '{"content":"$ terraform output -raw db_password\\nZm4Qp8Lr2Vx7Tk9W","is_error":false}',
            "Zm4Qp8Lr2Vx7Tk9W",
        ),
        ("$ printenv STRIPE_WEBHOOK_SECRET\nwm3Kd8Qz2Lp7Xv4Rt9Hb6Nc1", "wm3Kd8Qz2Lp7Xv4Rt9Hb6Nc1"),
        (
            '  "db_password": {\n    "sensitive": true,\n    "type": "string",\n    "value": "Quartz-harbor917"\n  },',
            "Quartz-harbor917",
        ),
        (
            '"type": "random_password",\n  "name": "db",\n  "instances": [{"attributes": {"id": "none", '
            '"length": 20, "result": "pX4Lm9Qz2Rv7Tk8Wn3Hb"}}]',
            "pX4Lm9Qz2Rv7Tk8Wn3Hb",
        ),
        (
            "Key        Value\n---        -----\napi_key    7c1e9a4f2b8d6e3a5c0f9b2d4e6a8c1f\n",
            "7c1e9a4f2b8d6e3a",
        ),
        ("    password: qwhe ltzr mvop axcs\n", "qwhe ltzr mvop axcs"),
        ("EMAIL_HOST_PASSWORD = 'zkrn bvop lwqe tyha'", "zkrn bvop lwqe tyha"),
        ('GF_SECURITY_ADMIN_PASSWORD: "Orchid!river52"', "Orchid!river52"),
        ("SMTP_HOST_PASSWORD=Kv8Lq2Zm7Xw4Rt9N", "Kv8Lq2Zm7Xw4Rt9N"),
        ("$ http -a ops:'Willow.Mar22+' GET https://api.example.net/v1/me", "Willow.Mar22+"),
        ("mysql -u root -p'HazelCopperFox31' -e 'SHOW TABLES;'", "HazelCopperFox31"),
        ("$ export PGPASSWORD='tigerLantern82' && psql -h db -U app", "tigerLantern82"),
        ("the staging creds are user deploy / password copperFinch93", "copperFinch93"),
        ("creds: user svc-mail pass Harbor-quartz7311\nhost: mail01", "Harbor-quartz7311"),
        ("log in with admin / qTzRmKvbHwLxNpYs, then open Settings", "qTzRmKvbHwLxNpYs"),
        ("PIN 7306 for the back door", "7306"),
        ("Die PIN lautet 5829.", "5829"),
        ('{"text": "Das Passwort für den Server lautet Sommer2031!"}', "Sommer2031"),
        ("aquí tienes mi clave de API: 9f3b7c1d5e2a8f4c6b0d3e7a1c5f9b2d", "9f3b7c1d5e2a8f4c"),
        ("вот мой токен: Kp7/Qz2Lm9Xv4Rt8Wn3Hb6Jc1Fd5Ge0Sa2Ty7Uo", "Kp7/Qz2Lm9Xv4Rt8"),
        ("这是我的 API 密钥\uff1ar8_Tq7Lm2Xv9Rk4Wz8NpB3Hc6Jd1Fg5Se0Ya7Ui\uff0c谢谢", "r8_Tq7Lm2Xv9Rk4Wz8N"),
        (f"aws_session_token = {STS_TOKEN}", STS_TOKEN[:40]),
        (f"$ aws configure get aws_session_token\n{STS_TOKEN}", STS_TOKEN[:40]),
        (
            "production:\n  secret_key_base: 9c2f7a1e4b8d3f6a0c5e9b2d7f1a4c8e3b6d0f5a9c2e7b1d4f8a3c6e0b5d9f2a",
            "9c2f7a1e4b8d3f6a0c5e",
        ),
        (
            'curl -s "https://api.openweathermap.org/data/2.5/weather?q=Oslo&appid=3b9f1c7d5e2a8f4c6b0d3e7a1c5f9b2d"',
            "3b9f1c7d5e2a",
        ),
    ],
)
def test_secrets_a_fifth_fresh_set_showed_missing_are_redacted(text, secret):
    """Shapes a fifth set written apart from the rules missed (docs/redaction.md, "A fifth fresh
    set": secrets as agent transcripts show them): what a command prints when asked for one secret,
    Terraform's sensitive values, value tables, Google app passwords, HTTPie and `mysql -p'…'`,
    names that only hold a secret word inside another (`SECURITY`, `EMAIL_HOST_`), logins and API
    keys told in prose, AWS session tokens, Replicate tokens, Rails' secret_key_base."""
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "consumer: Cannot connect to amqp://guest:**@rabbitmq:5672//: [Errno 111] Connection refused.",
        '"GPG_KEY=A035C8C19219BA821ECEA86B64E628F8D684696D",',
        "$ terraform output -raw db_password > /tmp/pw.txt\n$ ls",
        "$ aws configure get region\neu-west-1",
        '  "db_endpoint": {\n    "sensitive": false,\n    "type": "string",\n    "value": "db.internal:5432"\n  },',
        "Key          Value\n---          -----\nprimary_key  7c1e9a4f2b8d6e3a5c0f9b2d4e6a8c1f\n",
        "the user guide / password policy says twelve characters",
        "hostKey = 'AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl'",
        "password: 'newPassword1'",
        # and what real code showed while these were written
        "                    url.password += encoded\n",
        "index_url, _, index_url_user_password = index_info\n",
        "def save_auth_info(self, url: str, username: str, password: str) -> None:",
        ">>> ftp.login() # default, i.e.: user anonymous, passwd anonymous@\n",
        "log in as admin / root",
        "connect pin 13 to ground; PIN 1234 is the factory default; The PIN is 0000",
        "GPIO PIN 2048 on the header",
        "CHANGING USERID AND PASSWORD\t\t*netrw-chgup* *netrw-userpass* {{{2",
    ],
)
def test_what_the_fifth_fresh_set_showed_redacted_wrongly_is_left_alone(text):
    assert find_secrets(text) == []


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (
            "name,url,username,password,note\nexample.org,https://example.org/login,ana@example.org,Quill7$harbor,\n",
            "Quill7$harbor",
        ),
        (
            '"url","username","password","httpRealm"\n"https://shop.example","bo@example.net","t4Z!mQ9#pLx2",""\n',
            "t4Z!mQ9#pLx2",
        ),
        ("Service\tLogin\tPassword\t2FA\nISP\tkim@example.net\tlark2931\tno\n", "lark2931"),
        ("| Device | IP | Password |\n|---|---|---|\n| NAS | 10.0.0.5 | Vq8#mLz2Tp |\n", "Vq8#mLz2Tp"),
        ("|| System || User || Password ||\n| Harbor | root | Kestrel1977~ |\n", "Kestrel1977~"),
        (
            "! Device !! IP !! Login !! Password\n|-\n| Switch || 10.1.1.2 || admin || 3xQ_9mLp+Tz7\n",
            "3xQ_9mLp+Tz7",
        ),
        (
            "<tr><th>Device</th><th>Password</th></tr>\n<tr><td>Printer</td><td>otter2040</td></tr>",
            "otter2040",
        ),
        ("| key | value |\n|---|---|\n| password | WillowBrook58 |\n", "WillowBrook58"),
        ('<Key>Password</Key>\n<Value ProtectInMemory="True">Gx$Lm4~Qz9=Rt</Value>', "Gx$Lm4~Qz9=Rt"),
        ("  - root password:: Tundra2011!\n", "Tundra2011!"),
        ("  Password: =maple.orbit.ember.42=\n", "maple.orbit.ember.42"),
        ("Заметка: пароль от почты теперь rocket77, старый не работает.", "rocket77"),
        ("Notatka: nowe hasło do banku to lemon-kite-river-9, stare nie działa.", "lemon-kite-river-9"),
        ("yo the server pw for the world is harbor5521 btw", "harbor5521"),
        ("新密码是 =Kyoto2040\uff0c记得改。", "=Kyoto2040"),
        ("銀行カードの暗証番号\uff1a7391", "7391"),
        ("the login during the call: ops@example.org / Qm7!Lp2Tz9%x", "Qm7!Lp2Tz9%x"),
        ("Front gate keypad code: 5830 (changed in May)", "5830"),
        ("Alarmanlage Büro, Unscharf-Code: 482913", "482913"),
        ("Ihr Bestätigungscode lautet: 614290", "614290"),
        ("Code de la porte du garage : 7391", "7391"),
        ("Código del portal: 6082. El buzón es el 2ºA.", "6082"),
        ("Код домофона Пети: 5147", "5147"),
        ("Join Zoom Meeting\nMeeting ID: 812 3391 2047\nPasscode: 639204", "639204"),
        (":PROPERTIES:\n:CARD_PIN: 8305\n:END:", "8305"),
        ("WIFI:T:WPA;S:Garden-5G;P:amber.kite.7731;H:false;;", "amber.kite.7731"),
        ("Windows key: 7HJMK-Q2XBD-TPW4G-C9R3Y-VKF6M", "7HJMK-Q2XBD-TPW4G-C9R3Y-VKF6M"),
        ("Klucz licencyjny: QW7E-RT4Y-UI9O-PA3S", "QW7E-RT4Y-UI9O-PA3S"),
        (
            "wallet recovery phrase (12 words):\nlamp river cotton pilot music swift attack blue noble quiz orange dry\n",
            "lamp river cotton pilot music swift attack blue noble quiz orange dry",
        ),
        ("Clé secrète 2FA (saisie manuelle) : JBSWY3DPEHPK3PXP", "JBSWY3DPEHPK3PXP"),
        (
            "GitHub recovery codes\n\n4f2a1-9c3e7\n7b8d2-e1f04\nc93a5-2d6b8\n1e7f4-a8c29\n",
            "4f2a1-9c3e7\n7b8d2-e1f04\nc93a5-2d6b8\n1e7f4-a8c29",
        ),
        (
            "Microsoft recovery code (saved 2025): KJ8DW-P29XQ-7MLRT-4ZB6N-HC3VF",
            "KJ8DW-P29XQ-7MLRT-4ZB6N-HC3VF",
        ),
        (".SH CREDENTIALS\nThe job runs as\n.B backup\nwith password\n.I Rook!night7\n", "Rook!night7"),
        ("Card,Bank,Pincode,Expiry\nVisa,ING,4821,2027-03\n", "4821"),
        ("<p>Password: <code>k1ra.35</code></p>", "k1ra.35"),
        # LaTeX read as written: `\texttt` is a command, not a tab before `exttt`
        (
            "\\begin{tabular}{lll}\nSystem & User & Password \\\\\n\\midrule\nNAS & lab & \\texttt{Biscuit524} \\\\\n",
            "Biscuit524",
        ),
    ],
)
def test_secrets_a_sixth_fresh_set_showed_missing_are_redacted(text, secret):
    """Secrets in the documents and notes people keep (docs/redaction.md, "A sixth fresh set"):
    password columns of exports and wiki tables, KeePass XML, Logseq and org-mode properties,
    passwords, PINs and codes told in notes in several languages, Wi-Fi QR payloads, product and
    license keys, recovery phrases, TOTP seeds and backup codes."""
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "|| System || User || Password ||\n| Jenkins | admin | _in Passbolt_ |\n| iDRAC | root | ask IT (ticket IT-4411) |\n",
        "! Device !! IP !! Password\n|-\n| Core switch || 10.0.0.12 || ''see KeePass''\n",
        "| Service | Password |\n|---|---|\n| Grafana | (SSO) |\n| Jira | SSO via Okta |\n| Wiki | — |\n",
        "def save(self, url: str, username: str, password: str) -> None:\n    conn = connect(host, port, timeout)\n",
        "Enter your username, password, and click Login\nthen wait, check, and retry\n",
        "<Key>Password</Key>\n<Value>{REF:P@I:46C9B1FFBD4ABC4BBB260C6190BAD20C}</Value>",
        "- Code Snippets: 45645\n- Code Snippets: 2479",
        'error code: 1045, exit code 137, "code": 40001, HTTP status code 5003, postal code: 10115',
        "Code review for the release: 2024",
        '.TH PASSWD 1 "2023-11-02" "shadow-utils" "User Commands"',
        "connect pin: 13 and pin = 4 on the board; spin: 2048",
        "WIFI:T:nopass;S:Cafe-Guest;;",
        "<p>password: <code>changeme</code>, token: <kbd>$TOKEN</kbd></p>",
        "Meeting ID: 936 2265 5780",
        "Order no. 4471-2290-1187, tracking 1Z999AA10123456784, ISBN 978-3-16-148410-0",
        # what real code showed while these rules were written
        '{"seeds":8079,"##pin":8091,"influences":8092,"pin":9231}',
        "// pin : 2014-12-18 Amazon Registry Services, Inc.",
        "# yet set, i.e. user didn't pass `id2label/lable2id` in kwargs",
        "        collect_pwd,\n        collect_readline,\n        collect_resource,\n",
        "syn keyword gnuplotNumber\tGPVAL_ERRNO GPVAL_PWD\nsyn keyword gnuplotNumber\tpi NaN GPVAL_LAST_PLOT\n",
        "            password,\n            kdf_rounds=self._kdf_rounds,\n            hmac_hash=self._hmac_hash,\n",
        "        (the random seed) makes sure that the initial random values are the same across all the DDP\n",
    ],
)
def test_what_the_sixth_fresh_set_and_real_code_showed_is_left_alone(text):
    assert find_secrets(text) == []


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (
            "> Cookie: lang=en-US; theme=dark; session=3mpto3s52p1y5rqkcx0uy692ep4k0pxm\n",
            "3mpto3s52p1y5rqkcx0uy692ep4k0pxm",
        ),
        (
            "Set-Cookie: JSESSIONID=r6PC5RYDW-i5rAKX_lFd46pK5apcVCTp; Path=/; HttpOnly",
            "r6PC5RYDW-i5rAKX_lFd46pK5apcVCTp",
        ),
        (
            '"cookie": "_ga=GA1.1.226138184.1710693295; consent=granted; auth_session=7A5NVxv8MsI7caxQSXwSfxAAQDZ"',
            "7A5NVxv8MsI7caxQSXwSfxAAQDZ",
        ),
        (
            "curl -b 'connect.sid=s%3AbX9kQ2mZ7pL4vR8tN1cW6yH3jF5dG0sA.Kq8vM2x' https://x",
            "bX9kQ2mZ7pL4vR8tN1cW6yH3jF5dG0sA",
        ),
        (
            '"cookies": [\n  {\n    "name": "__Host-sid",\n    "value": "32d041f10b57cdbfe3e11b436cac31a5dcada253",\n',
            "32d041f10b57cdbfe3e11b436cac31a5dcada253",
        ),
        (
            "GET /r.pdf?X-Amz-SignedHeaders=host&X-Amz-Signature=f323d33a8647f0a5375b5fa64ec97a9dbdc1ce690fabb3509b6e4dc2943d7e54",
            "f323d33a8647f0a5375b5fa64ec97a9dbdc1ce690fabb3509b6e4dc2943d7e54",
        ),
        (
            "2024-10-27\t14:42:53\tGET\t/v2/t.png\t200\tapikey=kOl06OIcRxDLm458t6cV3RwgRmQHaO62bupfcpFT&style=x\t-",
            "kOl06OIcRxDLm458t6cV3RwgRmQHaO62bupfcpFT",
        ),
        (
            '$ redis-cli CONFIG GET requirepass\n1) "requirepass"\n2) "poXWD_2g5IQrFHoGJwFtzFIealm1-5x#"',
            "poXWD_2g5IQrFHoGJwFtzFIealm1-5x#",
        ),
        (
            "    command:\n      - redis-server\n      - --requirepass\n      - L#bk%ViKl8qgwFHa2kr7RJid\n",
            "L#bk%ViKl8qgwFHa2kr7RJid",
        ),
        ('args: ["--user", "app", "--password", "Sx8!kq2LmZ"]', "Sx8!kq2LmZ"),
        (
            "$ heroku auth:token\n \u203a   Warning: token will expire 09/12/2025\nHRKU-AA26mL_UZ_VKBJHg02PnnawfoQaOE53F7jNcZe7G0TplMz8lC413fUAvEinhYT\n",
            "HRKU-AA26mL_UZ_VKBJHg02PnnawfoQaOE53F7jNcZe7G0TplMz8lC413fUAvEinhYT",
        ),
        (
            "ERROR mailer: Error(535, b'5.7.8 Password not accepted') config={'user': 'a@b.net', 'password': 'tiger$Winter242'}",
            "tiger$Winter242",
        ),
        (
            "DEBUG\tTrue\nSECRET_KEY\t'c!l*)eyn7firos14vft&8g@38=c-e$7yp5u7yzt2za*f1*n9by'\n",
            "c!l*)eyn7firos14vft&8g@38=c-e$7yp5u7yzt2za*f1*n9by",
        ),
        (
            "SECRET_KEY = '#$qu-0+dy5%ho(9r8ge7-fmy4%w&#s!)i^+23ha8291*nty#$4'",
            "#$qu-0+dy5%ho(9r8ge7-fmy4%w&#s!)i^+23ha8291*nty#$4",
        ),
        # published formats (each provider's documentation)
        (
            'let client = Client::new("CCIPAT_mDYeOgTPKZY9B1boBcYvGf_2f7be6238655c90f4a3d268d4e9b8f77014a9fd7");',
            "CCIPAT_mDYeOgTPKZY9B1boBcYvGf_2f7be6238655c90f4a3d268d4e9b8f77014a9fd7",
        ),
        (
            "staging creds\n\nnfp_QceojUqDrYlaLWKsUKFPMNZgBHLUlRmWgkln\n",
            "nfp_QceojUqDrYlaLWKsUKFPMNZgBHLUlRmWgkln",
        ),
        (
            "ran it with `pcsk_uIovy_QsYSxGp6kzw6BitcbkTZre8dtO45OJg8wLGhzMXxvYl2` and",
            "pcsk_uIovy_QsYSxGp6kzw6BitcbkTZre8dtO45OJg8wLGhzMXxvYl2",
        ),
        (
            "here's the key: bkua_bc54a7cebd024ca1ebf3557976c1f924cb9879d4 (why 401?)",
            "bkua_bc54a7cebd024ca1ebf3557976c1f924cb9879d4",
        ),
        (
            '  k: "pscale_tkn_jutcplanUfdOLq3wEx9Lpg_4zcSdfKB6iQwi8KB03S_",',
            "pscale_tkn_jutcplanUfdOLq3wEx9Lpg_4zcSdfKB6iQwi8KB03S_",
        ),
        (
            'let client = Client::new("live_HQkkbe7uY5v0fSybsFRBxyHrH3NIsU");',
            "live_HQkkbe7uY5v0fSybsFRBxyHrH3NIsU",
        ),
        (
            "az storage blob upload --account-key FQ4hbd64My75LeFxsGtAT2hpfQWmwcX+GDOuE5x3ul2wN86PGCBo0j7hqomUXML/bD6AYSZHaeDw6tHgTYBROA== -c b",
            "FQ4hbd64My75LeFxsGtAT2hpfQWmwcX+GDOuE5x3ul2wN86PGCBo0j7hqomUXML",
        ),
        (
            "curl https://api.stripe.com/v1/charges -u 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:",
            "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",
        ),
    ],
)
def test_secrets_the_seventh_and_eighth_fresh_sets_showed_missing_are_redacted(text, secret):
    """Command output, logs and HTTP traffic (session cookies, presigned-URL signatures, a log's
    query field, redis-cli's and Heroku's printed secrets, argv lists, a Django debug page) and
    providers' published formats (docs/redaction.md, "Three more fresh sets")."""
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "Set-Cookie: csrftoken=aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY; Path=/",
        "Set-Cookie: session_started=1710693295123456; Path=/",
        "Cookie: _ga=GA1.1.226138184.1710693295; _gid=GA1.1.1234567890.1710693295; theme=dark",
        "The cookie named session_token is set when you log in.",
        "git checkout -b feature/session-token-refresh",
        "      - --requirepass\n      - $(REDIS_PASSWORD)\n",
        'args: ["--password-file", "/run/secrets/pw"]',
        "Cache restored from key: node-modules-Linux-6b1a4393fb689f8327f48337f6692c87ef5ce58ff60c8f68c174ff14a507f0b7",
        "INFO accounts.views: password reset email sent to user_id=41178",
        "sudo[17404]:   deploy : TTY=pts/0 ; PWD=/srv/app ; USER=root ; COMMAND=/usr/bin/systemctl restart api",
        'curl -H "Authorization: Bearer REPLACE_ME" https://sonar.acme.dev/api/authentication/validate',
        "const supabase = createClient('https://x.supabase.co', 'sb_publishable_Ndqv2eIa8C0lbEjpz79862_MapiBDk_')",
        "DISCORD_PUBLIC_KEY=cb1ed91c2627c4b071e654dc10039f665ff80fdc9477fa8e65b47f7f1a3c3ea5",
        "def test_RetrievesAllUsersFromTheDatabase(self):",
        "live_stream_thumbnail_placeholder_image_url",
    ],
)
def test_what_the_seventh_and_eighth_fresh_sets_showed_redacted_wrongly_is_left_alone(text):
    assert find_secrets(text) == []


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (
            "maxmemory-policy allkeys-lru\nrequirepass mTmKSFH4Xvzl5Ne8fnwBAK9Oio\n",
            "mTmKSFH4Xvzl5Ne8fnwBAK9Oio",
        ),
        ("user           priya@globex.com\npassword       Tq8!mZ2kLp\n", "Tq8!mZ2kLp"),
        ("    SetEnv DB_USER reporting_ro\n    SetEnv DB_PASS Vortex!Basalt205\n", "Vortex!Basalt205"),
        ("    fastcgi_param DB_PASSWORD 'Qm7!Lp2Tz9x';\n", "Qm7!Lp2Tz9x"),
        ("    stats refresh 10s\n    stats auth admin:zNdN6EfDneUc0Aw8mCh2\n", "zNdN6EfDneUc0Aw8mCh2"),
        (
            "[email-smtp.us-east-1.amazonaws.com]:587 ses-smtp-user.30999889:BBbO0V807EBg6gt6WmMXhPjACqfr+vqhOzUhA9JD\n",
            "BBbO0V807EBg6gt6WmMXhPjACqfr+vqhOzUhA9JD",
        ),
        (
            'acl {\n  tokens {\n    agent = "7cbb855b-4752-4aa3-bbee-01fc11d930df"\n  }\n}',
            "7cbb855b-4752-4aa3-bbee-01fc11d930df",
        ),
        (
            'server = true\nencrypt = "nrL7YxCrvqLXUvkiapBZmqZIpMMk69tW8hYA34+IplQ="\n',
            "nrL7YxCrvqLXUvkiapBZmqZIpMMk69tW8hYA34+IplQ=",
        ),
        (
            "{\n    email ops@initech.dev\n    acme_dns cloudflare Whwp1700UV14EbiU4U1IwLgLCWKoeUHGQrJ3Mlzf\n}",
            "Whwp1700UV14EbiU4U1IwLgLCWKoeUHGQrJ3Mlzf",
        ),
        (
            "  - name: AZDO_PAT\n    value: dknmtirzhdqklxf4px3y6kr73awsgv2ngp7kohel5uvuflgnrob5\n",
            "dknmtirzhdqklxf4px3y6kr73awsgv2ngp7kohel5uvuflgnrob5",
        ),
        (
            '<add key="Notifications:ApiKey" value="2r9Ha3YTDOBrcx_v9-KRAbuQKIRvWEQ9" />',
            "2r9Ha3YTDOBrcx_v9-KRAbuQKIRvWEQ9",
        ),
    ],
)
def test_secrets_the_ninth_fresh_set_showed_missing_are_redacted(text, secret):
    """Whole configuration files (docs/redaction.md, "Three more fresh sets"): redis.conf, msmtprc,
    Apache and nginx directives, HAProxy's stats login, Postfix's sasl_passwd, Consul's ACL tokens and
    gossip key, Caddy's DNS challenge, name/value env lists, .NET appSettings."""
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "[user]\n\tname = Ana Souza\n\tsigningkey = BAB49D12990D9480\n[commit]\n\tgpgsign = true\n",
        "EnvironmentFile=-/etc/catalog/secrets.env\nLoadCredential=db-password:/etc/credstore/catalog-db-password\n",
        "encryptionsalt: v1:kCxtLdyjOmY=:v1:ww33LTWfq60yqbPw:j5JxyuDoRf2fLeESDUSmrONpvfiVIfNhMX6FGCmvLC0=\n",
        "password required for this account\nPassword protected\n",
        "    SetEnv DB_PASS ${DB_PASS}\n    SetEnv APP_ENV production\n",
        "requirepass foobared\n",
        "dns cloudflare {env.CF_API_TOKEN}\n",
        'acl {\n  tokens {\n    agent = "${CONSUL_AGENT_TOKEN}"\n  }\n}',
    ],
)
def test_what_the_ninth_fresh_set_showed_redacted_wrongly_is_left_alone(text):
    assert find_secrets(text) == []


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (
            "INSERT INTO users (email, display_name, password, role, created_at)\n"
            "VALUES ('omar@orbitcart.com', 'Omar L', 'cinder_FALCON_5494', 'admin', now());",
            "cinder_FALCON_5494",
        ),
        (
            "INSERT INTO oauth_clients (client_id, client_secret, name) VALUES\n"
            "  ('w6hop', 'l4X3Gm9e6H6fyJCDf1Kh7KYnbv9kWy75P3LNa3vO', 'Copper'),\n"
            "  ('ov345', 'MpecSYjULVqxAVuENkpjOe9EAYk50aoGPBi93wiL', 'Quartz');",
            "MpecSYjULVqxAVuENkpjOe9EAYk50aoGPBi93wiL",
        ),
        ("INSERT INTO `users` (`id`,`pwd`) VALUES (1, N'Kx7#itsS3cret!');", "Kx7#itsS3cret!"),
        (
            "CREATE LOGIN [etl_loader] WITH PASSWORD=N'56tU!he-RrQu#Sc^f*^_', CHECK_POLICY=ON",
            "56tU!he-RrQu#Sc^f*^_",
        ),
        (
            'User Create (1.1ms)  INSERT INTO "users" ("email", "password") VALUES ($1, $2)  '
            '[["email", "zoe@quillsoft.net"], ["password", "Falcon_orchid7333"]]',
            "Falcon_orchid7333",
        ),
        (
            '<string name="twitter_consumer_secret" translatable="false">b0zH09fxhCzU9tf50MfgY4l3jDyaVoAk</string>',
            "b0zH09fxhCzU9tf50MfgY4l3jDyaVoAk",
        ),
        (
            "\t<key>RevenueCatSecretAPIKey</key>\n\t<string>sk_wwrkcpctoNVVovNIRlLoxsrdfvRIRWKz</string>",
            "sk_wwrkcpctoNVVovNIRlLoxsrdfvRIRWKz",
        ),
        ('a:2:{s:4:"user";s:6:"backup";s:8:"password";s:19:"OfQ2CABkUgOhkfmaLuq";}', "OfQ2CABkUgOhkfmaLuq"),
        ('1721927518.273457 [0 10.0.1.6:57773] "AUTH" "eT8I2Q19P3alWCTCF"', "eT8I2Q19P3alWCTCF"),
        (
            '{\n  "key": "mailgunKey",\n  "value": "key-bbb22afe89de070c9069b32fa287f172",\n  "type": "secret"\n}',
            "key-bbb22afe89de070c9069b32fa287f172",
        ),
        (
            '{"key": "token", "value": "uaGnwPo0EbpPofaGc785kyArLO4CNFisWEzAnUTU", "type": "string"}',
            "uaGnwPo0EbpPofaGc785kyArLO4CNFisWEzAnUTU",
        ),
        (
            '\ufeff"Account";"Service";"Key name";"Key Secret"\n"Violet GmbH";"Twilio";"sms";"v5eo20UsiZtmTQM3tiJYTIoVC7BpnE0b"\n',
            "v5eo20UsiZtmTQM3tiJYTIoVC7BpnE0b",
        ),
    ],
)
def test_secrets_the_eleventh_fresh_set_showed_missing_are_redacted(text, secret):
    """Data and application files (docs/redaction.md, "Two more fresh sets"): SQL INSERT rows by
    their columns, SQL Server's N'…', logged ORM binds, Android string resources, plists, PHP
    serialize(), Redis AUTH, Postman variables, a spreadsheet's secret column."""
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "INSERT INTO users (email, password_hash, token_expires) VALUES ('a@b.c', '$2b$12$abc', '2024-01-01');",
        "INSERT INTO users (email, password) VALUES ('a@b.c', NULL), ('d@e.f', DEFAULT);",
        'cur.execute("INSERT INTO users (name, password) VALUES (%s, %s)", (name, pw))',
        'fields = ("username", "password")\nx = ("password", "confirm_password")',
        '<string name="password_hint">At least 12 characters</string>',
        '{"key": "sortKey", "value": "created_at_desc_then_name"}',
        "Client,Secret rotation,Owner\nAcme,every 90 days,ops\n",
        "Name,Client secret,Notes\nBilling,(in Vault),rotated 2024-05\n",
    ],
)
def test_what_the_eleventh_fresh_set_showed_redacted_wrongly_is_left_alone(text):
    assert find_secrets(text) == []


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (
            'ODBC_CONN: "Driver={ODBC Driver 18};Server=tcp:s,1433;UID=m;PWD={W0mb4=7l4n73rn@7};Encrypt=yes;"',
            "W0mb4=7l4n73rn@7",
        ),
        (
            "  jdbc_url: 'jdbc:oracle:thin:apps_ro/qBRFMpjFF9VEnRCeru_G2_Q7p@oradb01.corp.lan:1521:ORCL',",
            "qBRFMpjFF9VEnRCeru_G2_Q7p",
        ),
        (
            "'default' => env('NATS_URL', 'nats://ZgNec6BCRomvXL3i7K6KCTxbYNP3EtMqKzGpdDsY@nats-0.nats.svc:4222'),",
            "ZgNec6BCRomvXL3i7K6KCTxbYNP3EtMqKzGpdDsY",
        ),
        (
            't.Setenv("INFLUX_URL", "http://influxdb:8086/query?u=telegraf&p=Mei1972~tam&db=telegraf")',
            "Mei1972~tam",
        ),
        (
            "//mediauser:1Nh*~9U8Zq_~EJhyAs*!M@nas.lan/media  /mnt/media  smbfs  rw,noauto  0 0",
            "1Nh*~9U8Zq_~EJhyAs*!M",
        ),
        (
            'url = "smb://ACME;svc_scan:cobalt-bramble-yarrow-89@fs01.corp.lan/backups/db"',
            "cobalt-bramble-yarrow-89",
        ),
        ("$pdo = new PDO('mysql:host=dbhost;dbname=catalog', 'deploy', 'Friday2025!', [", "Friday2025!"),
        (
            "app.ldap.url=ldaps://ldap.corp.acme.io:636/dc=corp?uid?sub?(o=x)?bindname=cn=svc,X-BINDPW=Tariq1986.mea",
            "Tariq1986.mea",
        ),
    ],
)
def test_secrets_the_tenth_fresh_set_showed_missing_are_redacted(text, secret):
    """Connection strings and URIs (docs/redaction.md, "Two more fresh sets"): ODBC's braced
    values, Oracle's JDBC thin URL, a token as a URL's user, InfluxDB's query login, scheme-less and
    domain-qualified SMB URLs, PHP's PDO, LDAP's X-BINDPW."""
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        'Environment="DATABASE_URL=mysql://USER:PASSWORD@HOST:PORT/DATABASE"',
        "  amqp_url: amqp://user:pass@host:port/vhost",
        "The URI has the form `scheme://user:password@host:port/db`.",
        "DATABASE_URL=postgres://{{ .Data.username }}:{{ .Data.password }}@pg-rw.db.svc:5432/orders",
        "  password: vault:secret/data/prod/orders-db#password",
        'Sentry.init({ dsn: "https://7f3b2c1d9e8a4f5b6c7d8e9f0a1b2c3d@o841570.ingest.us.sentry.io/2736775" });',
        "git clone ssh://git@gitlab.internal:2222/platform/api.git",
        "$pdo = new PDO($dsn, $user, $password);",
    ],
)
def test_what_the_tenth_fresh_set_showed_redacted_wrongly_is_left_alone(text):
    assert find_secrets(text) == []


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("Chào cả nhà, mật khẩu wifi văn phòng mới là HaNoi@2024vp nhé (tên mạng: VP-5G).", "HaNoi@2024vp"),
        ("टिकट DEV-331 पूरा: MySQL यूज़र analytics बनाया गया, पासवर्ड Pune_mysql909 है।", "Pune_mysql909"),
        ("سلام بچه‌ها، رمز وای‌فای دفتر جدید: Tehran1403@net — اسم شبکه Office هست.", "Tehran1403@net"),
        ("تم إنشاء صندوق البريد، كلمة المرور المؤقتة: Dubai_Mail2291 ، الرجاء تغييرها.", "Dubai_Mail2291"),
        (
            "再現できました。ステージングのRDS（ユーザー app_stg / パスワード Osaka_rds2024）に接続すると",
            "Osaka_rds2024",
        ),
        (
            "Hej alla! Wifi-lösenordet till nya kontoret är Stockholm2024!kontor (nätverk: KONTOR).",
            "Stockholm2024!kontor",
        ),
        (
            "Gente, a senha do Wi-Fi do escritório novo é Floripa@2024casa (rede: ESCRITORIO-5G).",
            "Floripa@2024casa",
        ),
        (
            "工单 #4471：已开通 report_ro 只读账号，端口 3306，初始密码 Mysql_Cx2023! ，首次登录后请修改。",
            "Mysql_Cx2023!",
        ),
        (
            "Καλημέρα! Ο κωδικός του Wi-Fi στο νέο γραφείο είναι Athina2024!grafeio (δίκτυο: G-5G).",
            "Athina2024!grafeio",
        ),
        ("יוסי, סיסמת root לשרת הבדיקות היא Haifa!root5521 – אני אחליף אותה מחר.", "Haifa!root5521"),
        (
            "Maman, le mot de passe du compte Canal+ c'est choupette2012, l'identifiant c'est ton adresse",
            "choupette2012",
        ),
        (
            "le mot de passe du Wi-Fi du nouveau bureau est « Paris2024!bureau » (réseau : BUREAU).",
            "Paris2024!bureau",
        ),
        ("Der Code für den Schlüsseltresor am Empfang ist 9027.", "9027"),
        ("Il codice del lucchetto dell'armadio server è 6452.", "6452"),
        ("Koden till larmet i förrådet är 4139, den som går sist slår på det.", "4139"),
        ("הקוד של האזעקה במשרד הוא 8142, מי שיוצא אחרון – להפעיל.", "8142"),
        ("รหัสตู้เซฟห้องบัญชีคือ 1846 เอกสารอยู่ในแฟ้มสีแดงค่ะ", "1846"),
        (
            "Client secret aplikacji Allegro do synchronizacji ofert: Y0BgChoXjlvex0zDgK5GqL9q8ZSZewAR — sandbox.",
            "Y0BgChoXjlvex0zDgK5GqL9q8ZSZewAR",
        ),
        (
            "@张伟 OSS 上传那个脚本用这个子账号：AccessKeySecret 是 my7Jk45wgCXgnkvvGkwMN9oCoCEINy ，只给了权限",
            "my7Jk45wgCXgnkvvGkwMN9oCoCEINy",
        ),
        (
            "카카오 로그인 테스트용 REST API 키 공유드립니다: 6f9547f85401fe4693f8841331828fa3",
            "6f9547f85401fe4693f8841331828fa3",
        ),
        (
            "Коллеги, OAuth-токен для Яндекс.Диска: y0_AgAAAAA3N_js-MGEKXHEYvFXdrt3t0swMNdBJiT8z0hPRVAcqt",
            "y0_AgAAAAA3N_js-MGEKXHEYvFXdrt3t0swMNdBJiT8z0hPRVAcqt",
        ),
        (
            "Server key Midtrans sandbox buat testing: SB-Mid-server-sN9pJmrwzcZaNcI78Lw0TdYg — jangan",
            "SB-Mid-server-sN9pJmrwzcZaNcI78Lw0TdYg",
        ),
        (
            "token: APP_USR-8912907435238383-811468-c42b0a0c6467da412e83c0e7ba001f2e-220333390",
            "APP_USR-8912907435238383-811468-c42b0a0c6467da412e83c0e7ba001f2e-220333390",
        ),
    ],
)
def test_secrets_the_thirteenth_fresh_set_showed_missing_are_redacted(text, secret):
    """Credentials shared in chat, mail and tickets in 25 languages (docs/redaction.md,
    "Windows files and 25 languages"): their words for password, secret, key and code, their copulas and
    particles, full-width and other scripts' punctuation, and regional providers' formats."""
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "Policy password: almeno 12 caratteri, maiuscole, minuscole, numeri e simboli.",
        "Kebijakan password: minimal 12 karakter, kombinasi huruf besar, angka, dan simbol.",
        '# подставьте свой токен: YANDEX_TOKEN="ваш_токен_здесь" (настоящий не коммитить!)',
        "Your Trello API key is 0123456789abcdef0123456789abcdef. Use it with an OAuth token.",
        '"ARN": "arn:aws:secretsmanager:us-west-2:123456789012:secret:MySecret2-a1b2c3"',
        "| `sidekiq_secret` | 3 / 3 | 0 / 0 | sidekiq-secret |\n| `slack_webhook_url` | 3 / 3 | 0 / 0 | np.slack.3, slack-webhook-url |\n",
        'SSH endpoint of the Job, e.g. `"ssh://687fb701029421ae5549d998@ssh.hf.jobs"`.',
        'self._format_error(key="minimumPasswordLength", value=minimum_password_length)',
        "'key': 'x-api-key',\n'value': self.get_api_key_with_prefix('ApiKeyAuth'),",
        "Der Code für den Tresor ist im Wiki. Code review for the release: 2024",
        "# when ZipFile is present, the code it's a plaintext code snippet up to 4096 bytes.",
    ],
)
def test_what_the_thirteenth_fresh_set_and_real_code_showed_is_left_alone(text):
    assert find_secrets(text) == []


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ('<User>opsadmin</User>\n<Pass encoding="base64">V2FsbnV0Ljg3MTNY</Pass>', "V2FsbnV0Ljg3MTNY"),
        (
            "<AdministratorPassword>\n  <Value>z6uFhvbhZ!4rSL~SQGt9</Value>\n  <PlainText>true</PlainText>",
            "z6uFhvbhZ!4rSL~SQGt9",
        ),
        (
            '<Configuration Path="\\Package.Connections[FTP].Properties[ServerPassword]" ValueType="String">\n'
            "  <ConfiguredValue>Copper#8404G</ConfiguredValue>",
            "Copper#8404G",
        ),
        (
            "cmdkey /add:FS01.adatum.com /user:ADATUM\\svc_web /pass:dycyP-XDj20t!v~d-UFYt",
            "dycyP-XDj20t!v~d-UFYt",
        ),
        (
            'wmic /node:"ERPDB" /user:"WOODGROVE\\adm" /password:"Badger~1342r" process call create "x"',
            "Badger~1342r",
        ),
        ("appcmd set apppool /apppool.name:Intranet /processModel.password:Dingo-1039n", "Dingo-1039n"),
        (
            "netdom join PC1 /domain:corp.local /UserD:CORP\\svc_join /PasswordD:Saffron@4439u /OU:x",
            "Saffron@4439u",
        ),
        ('schtasks /Create /TN "Nightly" /RU ACMEHQ\\deploy /RP Raven_5400e /RL HIGHEST /F', "Raven_5400e"),
        (
            'dsadd user "cn=Omar,ou=C,dc=f,dc=lan" -samid ofarouk -pwd Kestrel@orchid1 -mustchpwd yes',
            "Kestrel@orchid1",
        ),
        ('net user scanner Dingo-lichen38 /add /fullname:"Field Support"', "Dingo-lichen38"),
        ('reg add "HKLM\\...\\Winlogon" /v DefaultPassword /t REG_SZ /d "Tundra!8219q" /f', "Tundra!8219q"),
        (
            "Set-ADAccountPassword -Identity t -Reset -NewPassword (ConvertTo-SecureString -AsPlainText 'Jasper#2453y' -Force)",
            "Jasper#2453y",
        ),
        ("hdbuserstore SET BACKUPKEY rdsh04:30015 BACKUP_OPERATOR Bramble#harbor69", "Bramble#harbor69"),
        (
            "choco apikey --key ea3a8bdb-e9d0-e2eb-ccb9-5aef0cc36815 --source https://push.chocolatey.org/",
            "ea3a8bdb-e9d0-e2eb-ccb9-5aef0cc36815",
        ),
        (
            '<authDataEntries userId="svc_iis" password="{xor}LwAqcgZmKjhvGHUlMSVoC3QfDg==" />',
            "LwAqcgZmKjhvGHUlMSVoC3QfDg==",
        ),
    ],
)
def test_secrets_the_twelfth_fresh_set_showed_missing_are_redacted(text, secret):
    """Windows and enterprise files (docs/redaction.md, "Windows files and 25 languages"): FileZilla,
    unattend.xml, SSIS, Windows' password switches, dsadd, net user, Winlogon's DefaultPassword,
    ConvertTo-SecureString -AsPlainText, hdbuserstore, Chocolatey, WebSphere's {xor}."""
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "net use \\\\DC02\\backup$ %SHARE_PASS% /user:NORTHWIND\\%SHARE_USER%",
        "sqlcmd -S APP-WEB03 -U %SQLUSER% -P %SQLPASS% -i check_jobs.sql",
        '<machineKey validationKey="AutoGenerate,IsolateApps" decryptionKey="AutoGenerate,IsolateApps" />',
        '<unattend xmlns="urn:schemas-microsoft-com:unattend">\n  <settings pass="windowsPE">',
        "<Keyfile>C:\\Users\\ops\\keys\\sccm01.ppk</Keyfile>",
        "schtasks /Create /TN Nightly /RU CORP\\deploy /RP * /F",
        "net user kiosk * /add",
        "<Password>\n  <Value></Value>\n  <PlainText>false</PlainText>\n</Password>",
    ],
)
def test_what_the_twelfth_fresh_set_showed_redacted_wrongly_is_left_alone(text):
    assert find_secrets(text) == []


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        # diffs and review comments (the fourteenth set)
        (
            "+            - name: DD_API_KEY\n+              value: 8117d35dd95587a92d1347566e84aefd\n",
            "8117d35dd95587a92d1347566e84aefd",
        ),
        (
            "> -            - name: SECRET_TOKEN\n> -              value: key-208fdff60bf4b434d29ca4ac996ee163\n",
            "key-208fdff60bf4b434d29ca4ac996ee163",
        ),
        (
            'export AWS_SECRET_KEY="[-xVc1rS9NKHxTtzipvrKZnWT78aaAfVO9/VHhxWg2-]{+${AWS_SECRET_KEY:?missing}+}"',
            "xVc1rS9NKHxTtzipvrKZnWT78aaAfVO9/VHhxWg2",
        ),
        ('+export POSTGRES_PASSWORD="Jun670.paprikaJ"\n', "Jun670.paprikaJ"),
        # what secret stores and CLIs answer (the fifteenth set)
        (
            '{\n  "Parameter": {\n    "Name": "/stg/api_token",\n    "Type": "SecureString",\n    "Value": "L7DA7JJUj96ntafu4S1o0Q7X6Efx1wDK"',
            "L7DA7JJUj96ntafu4S1o0Q7X6Efx1wDK",
        ),
        (
            '"id": "password",\n"type": "CONCEALED",\n"purpose": "PASSWORD",\n"label": "password",\n"value": "!$:w1r:ZXQmlxbqqmz-%YDzO3*#HeMy",',
            "!$:w1r:ZXQmlxbqqmz-%YDzO3*#HeMy",
        ),
        (
            '"SecretString": "f5debf4c27fe0fdb1c1450570eb1d1612ed8057819f97ea126f9a51591547f6f",',
            "f5debf4c27fe0fdb1c1450570eb1d1612ed8057819f97ea126f9a51591547f6f",
        ),
        (
            '"AccessorID": "cc72f42a-3397-4288-839c-38916fb07be9",\n"SecretID": "4cba56f6-ae8c-4416-80d9-032186ee8bd3",',
            "4cba56f6-ae8c-4416-80d9-032186ee8bd3",
        ),
        (
            '"Env": [\n  "NODE_ENV=production",\n  "POSTGRES_PASSWORD=wsXyV-UOhtB$WnSNoDf:36"\n],',
            "wsXyV-UOhtB$WnSNoDf:36",
        ),
        (
            '"SecretString": "{\\"username\\":\\"app\\",\\"password\\":\\"OQy1h~sy8xj=#TQpmTi^XOk:0\\"}"',
            "OQy1h~sy8xj=#TQpmTi^XOk:0",
        ),
        (
            '"payload": {\n  "data": "ekZYNU4mUXZmS3JTNjQ0PWh+TTE0QTN0",\n  "dataCrc32c": "1220949430"',
            "ekZYNU4mUXZmS3JTNjQ0PWh+TTE0QTN0",
        ),
        (
            '$ export BW_SESSION="kcUQH19J7CJx5/h9aMkArcikxAAvy+JGmRF4rWq8s7dDldJtnTozh+yNLXwc3mdwEO6A3a3/sIIT6Om9RE88aw=="',
            "kcUQH19J7CJx5/h9aMkArcikxAAvy+JGmRF4rWq8s7dDldJtnTozh+yNLXwc3mdwEO6A3a3/sIIT6Om9RE88aw==",
        ),
        (
            "$ aws ecr get-login-password --region eu-west-1\neyJwYXlsb2FkIjoiNEpEQStVL09Nd09YNjFSekhh\n",
            "eyJwYXlsb2FkIjoiNEpEQStVL09Nd09YNjFSekhh",
        ),
        (
            '"policies": [{"permission_groups": [{"id": "fe41", "name": "DNS Write"}]}],\n"value": "m-PrRnYgvZibL2h3cVxgunpjffnGkb7aW3k1qZGk"',
            "m-PrRnYgvZibL2h3cVxgunpjffnGkb7aW3k1qZGk",
        ),
    ],
)
def test_secrets_the_fourteenth_and_fifteenth_fresh_sets_showed_missing_are_redacted(text, secret):
    """Diffs and review comments, and what secret stores and cloud CLIs answer (docs/redaction.md,
    "Diffs and API answers")."""
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        '+ADMIN_PASSWORD = "set-me"\n-REDIS_PASSWORD = "TODO"\n',
        '"Env": ["PATH=/usr/local/bin:/usr/bin", "HOME=$HOME/app", "TOKEN_FILE=/run/secrets/token"]',
        '{"type":"tool_result","content":"3f2a9c1e0b7d4e5f8a6b2c1d0e9f8a7b6c5d4e3f\\n"}',
        '{"type":"tool_result","content":"/home/ada/projects/pica-search-engine\\n"}',
        '{"type":"tool_result","content":"7f1c2e3d-4b5a-6978-8a9b-0c1d2e3f4a5b"}',
        '"Type": "String",\n"Value": "https://api.example.com/v2/endpoint"',
        '"type": "STRING",\n"label": "username",\n"value": "metabase_reader"',
        # what real code showed: Perl's interpolation, a Scheme builtin's name, Vim's debug message
        'my $cmd = [$lynx, "-head", "-auth=anonymous:$FROM_EMAIL"];',
        '"passwd:dir",\n"passwd:gecos",\n"passwd:gid",',
        'call Dret("NetUserPass : uid<".g:netrw_uid."> passwd<".s:netrw_passwd.">")',
    ],
)
def test_what_the_fourteenth_and_fifteenth_fresh_sets_showed_redacted_wrongly_is_left_alone(text):
    assert find_secrets(text) == []


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        # credentials written in code (the sixteenth set) ...
        (
            'ENV["AWS_SECRET_ACCESS_KEY"] ||= "Co72XvtSi1y50xn3fCwd8xRARQdjoe6dSDQCSFht"',
            "Co72XvtSi1y50xn3fCwd8xRARQdjoe6dSDQCSFht",
        ),
        ('$env:DB_PASSWORD = "Hx7!pq2Lmz"', "Hx7!pq2Lmz"),
        (
            '$env:XAI_API_KEY = "xai-G0m3bvgC2BBIbR0Rcf3KdvOhAOvvLbsPDPDJPMr4IFZgTogyZdptHTjPGpqGFFByJJFDKSrVmjRGzE7g"',
            "xai-G0m3bvgC2BBIbR0Rcf3KdvOhAOvvLbsPDPDJPMr4IFZgTogyZdptHTjPGpqGFFByJJFDKSrVmjRGzE7g",
        ),
        (
            '#define API_KEY "ntxtZiJfaxjzy55l6e8ka12oM03IvvFsz378g3HD"',
            "ntxtZiJfaxjzy55l6e8ka12oM03IvvFsz378g3HD",
        ),
        (
            '#define PARSE_MASTER_KEY  @"ntxtZiJfaxjzy55l6e8ka12oM03IvvFsz378g3HD"',
            "ntxtZiJfaxjzy55l6e8ka12oM03IvvFsz378g3HD",
        ),
        (
            '  @secret_key_base "FXuyQxmMZhBUx5hxZ9K3xhTt4a5M1pcYAtR2fCLHMNr+r1UWqQ6YKgyDt4QJblt1"',
            "FXuyQxmMZhBUx5hxZ9K3xhTt4a5M1pcYAtR2fCLHMNr+r1UWqQ6YKgyDt4QJblt1",
        ),
        (
            'static SESSION_HMAC_SECRET: &[u8] = b"wYVonfIJrGXrhZ12SnMCzVSk5y7QKWjw8TpTozIb";',
            "wYVonfIJrGXrhZ12SnMCzVSk5y7QKWjw8TpTozIb",
        ),
        (
            'private const string SigningKey = "Zps3wPdbDhGTnh17eEmDyamgZPSPrwX0FwsQDdGN8A1vSuvz";',
            "Zps3wPdbDhGTnh17eEmDyamgZPSPrwX0FwsQDdGN8A1vSuvz",
        ),
        ('.header("DD-API-KEY", "530d9fbb66d5c929f6e197e1c13a266c")', "530d9fbb66d5c929f6e197e1c13a266c"),
        (
            'my $dbh = DBI->connect("dbi:mysql:database=crm;host=db.internal", "crm_batch", "Mustang1967!",',
            "Mustang1967!",
        ),
        (
            'mysql_real_connect(conn, "10.20.0.14", "telemetry", "Guinness#Pint6", "telemetry", 3306, NULL, 0)',
            "Guinness#Pint6",
        ),
        (
            'Net::SMTP.start("smtp.gmail.com", 587, "acme-mail.com", "reports@acme-mail.com", "njqhvjoaaahpqzth", :login)',
            "njqhvjoaaahpqzth",
        ),
        (
            'Credentials::new("alerts@acme-mail.com".to_owned(), "dEI!Wr!m1gNqDiy3".to_owned());',
            "dEI!Wr!m1gNqDiy3",
        ),
        ('r = requests.get(url, auth=("svc-bot", "Tq9!vLx2mR"))', "Tq9!vLx2mR"),
        (
            '.header("Authorization", Credentials.basic("jenkins-reader", "TxC9xuZETurHSGjZsu"))',
            "TxC9xuZETurHSGjZsu",
        ),
        ('Poco::Net::HTTPBasicCredentials creds("puller", "khJDXFfAPETe15Z0wTMI");', "khJDXFfAPETe15Z0wTMI"),
        (
            'Algorithm.HMAC256("hS127lqDKjyDuRrAx9m54IK2H2WWKe6yjXywG432LUq31RKG");',
            "hS127lqDKjyDuRrAx9m54IK2H2WWKe6yjXywG432LUq31RKG",
        ),
        ('  await page.getByLabel("Password").fill("Br00klyn!NY");', "Br00klyn!NY"),
        ('driver.find_element(By.ID, "password").send_keys("Br00klyn!NY")', "Br00klyn!NY"),
        # ... and as scanners' tests write them (the seventeenth set)
        (
            'client.DefaultRequestHeaders.Add("Authorization", "Bearer HssgzAGLCG9c7LfnOqc8_Er3Ilw.ZjceOBHc");',
            "HssgzAGLCG9c7LfnOqc8_Er3Ilw.ZjceOBHc",
        ),
        (
            "$opts = ['Authorization' => 'Bearer HssgzAGLCG9c7LfnOqc8Er3IlwZjceOBHc'];",
            "HssgzAGLCG9c7LfnOqc8Er3IlwZjceOBHc",
        ),
        (
            'new AuthenticationHeaderValue("Bearer", "HssgzAGLCG9c7LfnOqc8_Er3Ilw.ZjceOBHc")',
            "HssgzAGLCG9c7LfnOqc8_Er3Ilw.ZjceOBHc",
        ),
        (
            '<property name="hibernate.connection.password">E5kjv8XOmgnshyGYq+</property>',
            "E5kjv8XOmgnshyGYq+",
        ),
        ('<property name="db.password" value="E5kjv8XOmgnshyGYq+"/>', "E5kjv8XOmgnshyGYq+"),
        ('<entry key="jdbc.password">E5kjv8XOmgnshyGYq+</entry>', "E5kjv8XOmgnshyGYq+"),
        (
            "AIRTABLE_API_KEY=patCCQULxg0zYh6Hq.f0e8f1a7aef13b93100a71190030a29bf72db00b796a7e1ec6f04d032975b23b",
            "patCCQULxg0zYh6Hq.f0e8f1a7aef13b93100a71190030a29bf72db00b796a7e1ec6f04d032975b23b",
        ),
    ],
)
def test_secrets_the_sixteenth_and_seventeenth_fresh_sets_showed_missing_are_redacted(text, secret):
    """Credentials written in code in many languages, and per-provider cases written the way
    secret scanners' tests are (docs/redaction.md, "Code in 31 languages, and scanners' near misses")."""
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "createAuth0Client({ domain: 'acme.eu.auth0.com', clientId: 'j5pbhfUJeqASWnib92GYrAD3eT6m3Xx8' })",
        'const RECAPTCHA_SITE_KEY = "6LcQx8UpAAAAAJ3kZ9yq7bW1sT5vR2nM4pL8oK0x";',
        "[user]\n  signingkey = 3AA5C34371567BD2",
        '#define MAX_KEY_LEN "32"',
        '  @moduledoc "Handles the secret rotation"',
        '<property name="db.password" value="${db.password}"/>',
        '<entry key="tokenizer.keyword">standard</entry>',
        'h = "Bearer abcdefghijklmnopqrstuvwxyz"',
        'const h = "Bearer " + token',
        'button.connect("pressed", self, "_on_pressed")',
        'obj.connect("changed", "_on_changed")',
        'conn = psycopg2.connect("dbname=test user=postgres")',
        "cy.get('#password').type(Cypress.env('PASSWORD'))",
        # what real code showed: a Basic value that decodes to no `user:password`, anonymous FTP, a
        # digest among the arguments of a test helper named for HMAC
        "conn.request('GET', '/', headers=[('Authorization', 'Basic dXNlcg==')])",
        "$ftp->login(\"anonymous\", '-anonymous@')",
        "hmactest(key=b'\\x0b' * 20, hexdigests={sha224: '896fb1128abbdf196832107cd49df33f'\n    '47b4b1169912ba4f53684b22'})",
    ],
)
def test_what_the_sixteenth_and_seventeenth_fresh_sets_showed_redacted_wrongly_is_left_alone(text):
    assert find_secrets(text) == []


SUPABASE_HEADER = b64url({"alg": "HS256", "typ": "JWT"})


def supabase_key(role: str) -> str:
    claims = b64url({"iss": "supabase", "ref": "qhmqhrxbkgnpdfugbhfa", "role": role, "iat": 1715404084})
    return f"{SUPABASE_HEADER}.{claims}.BKQ6CYOUrnSaTWmLZE7k1W_mVMmGIBaMi7RXHZnIWwQ"


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        # notebooks and ML operations (the eighteenth set) ...
        ("!wandb login 1f3c3253d5b36f4f99abc86b9f5715fe2f3216dd", "1f3c3253d5b36f4f99abc86b9f5715fe2f3216dd"),
        (
            "AIRFLOW_CONN_SNOWFLAKE_DEFAULT=snowflake://LOADER:Ember.Maple9227.@/RAW?account=xy48213",
            "Ember.Maple9227.",
        ),
        ('      private_key_passphrase: "pA471Mlh!kbpcYU_cL6"', "pA471Mlh!kbpcYU_cL6"),
        (
            "spark.hadoop.fs.s3a.secret.key  9tupNNXI8VviZTCaTdPQS9sOaaq0XEnPafaMAEPx\nspark.hadoop.fs.s3a.endpoint  s3.amazonaws.com",
            "9tupNNXI8VviZTCaTdPQS9sOaaq0XEnPafaMAEPx",
        ),
        (
            'spark.conf.set("fs.azure.account.key.acme01.dfs.core.windows.net", "uU4T0Tq+PTHcrDLivIGTtCyeXYLlk1YnVudlFazD3q9aHRNU3hdcH8L901vA+AgviWL0o4dC8kZjVDWK2OIBaA==")',
            "uU4T0Tq+PTHcrDLivIGTtCyeXYLlk1YnVudlFazD3q9aHRNU3hdcH8L901vA+AgviWL0o4dC8kZjVDWK2OIBaA==",
        ),
        ("requirepass Qx7!vLm2pz\nport 6379\n", "Qx7!vLm2pz"),  # a name-space-value line not the last
        # ... mobile apps and frontend builds (the nineteenth set)
        ("P12_PASSWORD=!p7yE*PkCnfsO.XL0M^M", "!p7yE*PkCnfsO.XL0M^M"),
        (
            "security import dist.p12 -k \"$KEYCHAIN_PATH\" -P 'Mosaic!8VNfPa8587' -T /usr/bin/codesign",
            "Mosaic!8VNfPa8587",
        ),
        ('security unlock-keychain -p "1849-EJJ1hvaw@!ORPwv" login.keychain-db', "1849-EJJ1hvaw@!ORPwv"),
        (
            "<key>RevenueCatSecretKey</key>\n<string>sk_dGsmd05SfbMNPPMqgWrPiOf8uqXztHga</string>",
            "sk_dGsmd05SfbMNPPMqgWrPiOf8uqXztHga",
        ),
        (
            "  'process.env.API_SECRET': JSON.stringify('2c1dcc7989d5863f472a61ad4075174bccef7cfd'),",
            "2c1dcc7989d5863f472a61ad4075174bccef7cfd",
        ),
        (
            "LaunchDarkly.init('sdk-599cc84d-f5ee-47d4-81f2-b8919f54dd1c');",
            "sdk-599cc84d-f5ee-47d4-81f2-b8919f54dd1c",
        ),
        (
            'curl -H "Authorization: -wBfs8k5OMsvLd0m3E7SUxRmf3oL9Wb_JYfXUFUwl_Nniv3vpYs8rZWxlxFrmNA7H" https://api.bitrise.io',
            "-wBfs8k5OMsvLd0m3E7SUxRmf3oL9Wb_JYfXUFUwl_Nniv3vpYs8rZWxlxFrmNA7H",
        ),
        (
            'git_basic_authorization("cGluZWNyZXN0LWRlcGxveTpnaHBfUUZ5bWJVdUVMNFZzWmthNGI5RG5FV2NidFh3U0dvMkFwRWxU")',
            "cGluZWNyZXN0LWRlcGxveTpnaHBfUUZ5bWJVdUVMNFZzWmthNGI5RG5FV2NidFh3U0dvMkFwRWxU",
        ),
        (
            "headers: {'Authorization': 'Basic NTQ5OTg5YjQtYzk0OC00YzMzLThhMTgtOTczYWI3MTczM2Ey'}",
            "NTQ5OTg5YjQtYzk0OC00YzMzLThhMTgtOTczYWI3MTczM2Ey",
        ),
        (f"const supabaseServiceKey = '{supabase_key('service_role')}';", supabase_key("service_role")),
        # a JWT whose random signature spells `YOUr`: no stand-in, which a person types in one case
        (
            f"token = '{SUPABASE_HEADER}.{PAYLOAD}.BKQ6CYOUrnSaTWmLZE7k1W_mVMmGIBaMi7RXHZnIWwQ'",
            f"{SUPABASE_HEADER}.{PAYLOAD}.BKQ6CYOUrnSaTWmLZE7k1W_mVMmGIBaMi7RXHZnIWwQ",
        ),
        (
            "BUILD_CERTIFICATE_BASE64=MIIKbQIBAzCCCY7D" + "q9aHRNU3hdcH8L901vA+AgviWL0o4dC8kZjVDWK2" * 6,
            "MIIKbQIBAzCCCY7D",
        ),
    ],
)
def test_secrets_the_eighteenth_and_nineteenth_fresh_sets_showed_missing_are_redacted(text, secret):
    """Notebooks and ML operations; mobile apps and frontend builds (docs/redaction.md, "Notebooks
    and ML operations, mobile and frontend builds")."""
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        f"VITE_SUPABASE_ANON_KEY={supabase_key('anon')}",  # made to ship in a browser
        'xcrun altool --notarize-app -f App.dmg -u "$APPLE_ID" -p "@keychain:AC_PASSWORD"',
        'security unlock-keychain -p "$KEYCHAIN_PASSWORD" build.keychain',
        "Authorization: AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request",
        "<key>NSCameraUsageDescription</key>\n<string>We need the camera</string>",
        "spark.hadoop.fs.s3a.secret.key  ${S3A_SECRET}",
        "dbfs:/FileStore/shared_uploads/ana@acme.com/features_c1f5a321.parquet",
        '<machineKey validationKey="AutoGenerate,IsolateApps" decryptionKey="AutoGenerate,IsolateApps" />',
        # what real code showed: a URI form in fsspec's docs, a tuple of header names, a docstring
        "- 'github://org:repo@/precip/catalog.yml', where the org and repo are part of the URI",
        '_AWS_SIGNING_HEADERS = ("authorization", "x-amz-content-sha256", "x-amz-date")',
        "SMTPAuthenticationError  The server didn't accept the username/\n        password combination.\n",
    ],
)
def test_what_the_eighteenth_and_nineteenth_fresh_sets_showed_redacted_wrongly_is_left_alone(text):
    assert find_secrets(text) == []


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        # infrastructure as code (the twentieth set) ...
        ("profile::database::password: 'LJOIr-3ByZ96z!*ZuEISU2lnsu'\n", "LJOIr-3ByZ96z!*ZuEISU2lnsu"),
        (
            "credentials: rds.Credentials.fromPassword('admin', SecretValue.unsafePlainText('Tq9!vLx2mRz8')),",
            "Tq9!vLx2mRz8",
        ),
        (
            "#cloud-config\nchpasswd:\n  list: |\n    root:Zzocy42wV=Ol2FgFTvxThC.B\n  expire: False\n",
            "Zzocy42wV=Ol2FgFTvxThC.B",
        ),
        # ... and a server's terminal and configuration (the twenty-first set)
        ("echo 'deploy:cobalt-canyon-mango-7' | chpasswd", "cobalt-canyon-mango-7"),
        ("chpasswd <<< 'jenkins:yOUKK5dlJip_8O2QXD'", "yOUKK5dlJip_8O2QXD"),
        ("echo 'Maple2024*' | passwd --stdin backupuser", "Maple2024*"),
        ("echo '_C_T1CjClIlgTNzwt' | kinit svc_backup@CORP.LOCAL", "_C_T1CjClIlgTNzwt"),
        ("realm join --user=svc_join corp.local <<< '0I8ZsrI4nD.Rn_g9hslBRl'", "0I8ZsrI4nD.Rn_g9hslBRl"),
        ("snmpwalk -v2c -c 0azt9uZ6Rw4YAcKFc 10.0.0.1 1.3.6.1.2.1.2.2.1.2", "0azt9uZ6Rw4YAcKFc"),
        (
            "/opt/mssql-tools18/bin/sqlcmd -S localhost -U sa -P cHFN8xiQQ7S4w3T9CxF-kW -C",
            "cHFN8xiQQ7S4w3T9CxF-kW",
        ),
        ("ldappasswd -x -D cn=admin,dc=corp -W -s 'V-%gkzE6R8L%E+8JyOO' uid=jdoe", "V-%gkzE6R8L%E+8JyOO"),
        (
            "kadmin -p admin/admin@CORP.LOCAL -w 'dragon-falcon-puffin-1' -q 'listprincs'",
            "dragon-falcon-puffin-1",
        ),
        ("ipmitool user set password 2 fXpoMKgpnBKY07HS", "fXpoMKgpnBKY07HS"),
        ("nmcli con modify office-5g wifi-sec.psk '6bj7JXGcNRVZLt6eJ4TClI--'", "6bj7JXGcNRVZLt6eJ4TClI--"),
        (
            "$ nmcli -s -g 802-11-wireless-security.psk connection show lab-ap\npickle-orange-ember-marble-14",
            "pickle-orange-ember-marble-14",
        ),
        ("rman target sys/lQWaytChYW1kRUUebn@ORCL catalog rcat/@RCATDB", "lQWaytChYW1kRUUebn"),
        ("127.0.0.1:6379> AUTH VVWn6T1ThklvAYmC7lxRpYzCqyxi\nOK", "VVWn6T1ThklvAYmC7lxRpYzCqyxi"),
        (
            '10.3.0.7:6379> CONFIG SET requirepass "Qz3bELHa8_hvgk6d3uRZHgOurwk65ZQf"\nOK',
            "Qz3bELHa8_hvgk6d3uRZHgOurwk65ZQf",
        ),
        ("user app on >CWKbclt3H7oVaRpfqeF9iT- ~app:* &* +@read", "CWKbclt3H7oVaRpfqeF9iT-"),
        ('db.changeUserPassword("appUser", "Winter3688#")', "Winter3688#"),
        ("AuthLDAPBindPassword kkj_wQZqNBX8w1WLXhIRrh", "kkj_wQZqNBX8w1WLXhIRrh"),
        ('requirepass "HvfehoDily20eeayQkLlgNtZKR-IyNwl"', "HvfehoDily20eeayQkLlgNtZKR-IyNwl"),
        (
            "account alerts\nuser alerts.noreply@gmail.com\npassword bktxdxjmiunhsftq\nfrom x@gmail.com",
            "bktxdxjmiunhsftq",
        ),
        ("db01.corp.local:5432:*:replicator:RH9lQ.TWKNtPTcWz-SfZv", "RH9lQ.TWKNtPTcWz-SfZv"),
        ("jdoe@corp.example:{PLAIN}hAWzrlv3cD_Czntkf:5000:5000::/var/vmail::", "hAWzrlv3cD_Czntkf"),
        (
            'key "xfer-key" {\n\talgorithm hmac-sha256;\n\tsecret "looinhBjriFx9X/yHS0/0uom9upVr2xr5FPKJ1NCtcs=";\n};',
            "looinhBjriFx9X/yHS0/0uom9upVr2xr5FPKJ1NCtcs=",
        ),
        ("1 SHA1 HEX:DA0B4B8EE3E9890648EA778001A024A31EFD3B7B", "DA0B4B8EE3E9890648EA778001A024A31EFD3B7B"),
        (': RSA /etc/ipsec.d/private/gw.key "Maple2019!"', "Maple2019!"),
        (
            "cache_peer proxy.up.example parent 3128 0 no-query login=branch01:gbklErbgPdVzirC_YoW9",
            "gbklErbgPdVzirC_YoW9",
        ),
        (
            "root@gw01:~# wg genkey > privatekey; cat /etc/wireguard/privatekey\nUCHZagCCDCG6DWCh/aMBxSd35BaDhfJL1uesN5fPgmQ=",
            "UCHZagCCDCG6DWCh/aMBxSd35BaDhfJL1uesN5fPgmQ=",
        ),
        (
            "$ wg genpsk\nll8tzDw3IQMcOJhvDEiHhk9F425k67/UmsJBcLaNGsw=",
            "ll8tzDw3IQMcOJhvDEiHhk9F425k67/UmsJBcLaNGsw=",
        ),
        (
            "$ sudo /usr/share/elasticsearch/bin/elasticsearch-keystore show bootstrap.password\nEE7e2WVS0KdKgysed6q4",
            "EE7e2WVS0KdKgysed6q4",
        ),
        (
            "$ bin/elasticsearch-reset-password -u elastic -b\nPassword for the [elastic] user successfully reset.\nNew value: PVC*Wai*S399nbEFgZwJ",
            "PVC*Wai*S399nbEFgZwJ",
        ),
        (
            "   2 HTTP/intranet.corp.local@CORP.LOCAL (aes128-cts-hmac-sha1-96)  (0xc03dbfe1d6338104313cb1e660533bf9)",
            "c03dbfe1d6338104313cb1e660533bf9",
        ),
        ("P12_PASSWORD=-6kDrlzsLzkIRM_N#", "-6kDrlzsLzkIRM_N#"),
        (
            "EXEC sp_addlinkedsrvlogin @rmtsrvname = N'LEGACYDB', @rmtuser = N'linkuser', @rmtpassword = N'HazelVelvet595!';",
            "HazelVelvet595!",
        ),
    ],
)
def test_secrets_the_twentieth_and_twenty_first_fresh_sets_showed_missing_are_redacted(text, secret):
    """Infrastructure as code and CI/CD; a server's terminal and configuration (docs/redaction.md,
    "Infrastructure and a server's terminal")."""
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "secretsprovider: awskms://alias/pulumi-prod?region=us-east-1\nencryptedkey: AQICAHhN5S0p8v3Lr4mCq9zT2bXw7kJ1",
        "db_password: |\n    -----BEGIN PGP MESSAGE-----\n\n    hQEMA6Dpf8PxvXVpAQc/nTtgNSTW5YwnY9pOkXQGrBYvsMn3zXpumkOF9R7oV5Tn",
        "    db_password: \"{{ lookup('community.hashi_vault.hashi_vault', 'secret=secret/data/prod/billing:password') }}\"",
        "$ docker buildx build --secret id=gh_token,env=GITHUB_TOKEN --ssh default -t ghcr.io/acme/ledger:1 .",
        "bw get password 'github.com' --session \"$BW_SESSION\" | xclip -sel clip",
        "$ sudo wg show wg0\ninterface: wg0\n  public key: kiCo+bTRm4d/QcLKxq92B/DjUvAObVJsiYCTHk59iEc=\n  private key: (hidden)",
        "snmpwalk -v2c -c public 10.0.0.1 system",
        "$ nmcli -s -g 802-11-wireless-security.psk connection show lab-ap",
        "xpack.encryptedSavedObjects.encryptionKey: ${KIBANA_ENCRYPTION_KEY}",
    ],
)
def test_what_the_twentieth_and_twenty_first_fresh_sets_showed_redacted_wrongly_is_left_alone(text):
    assert find_secrets(text) == []
