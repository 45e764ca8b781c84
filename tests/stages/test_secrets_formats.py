"""Provider formats taken exactly as published (OpenAI's T3BlbkFJ, Anthropic's 93 + AA, Slack's
shapes, IBM COS HMAC names) and the general stand-in principles of the keyed rule (sequential runs,
values that are calls)."""

from __future__ import annotations

import dataclasses

import pytest

from pica.stages.secrets import find_secrets, redact
from pica.stages.secrets.verify import sequential_run, wholly_sequential


def kinds(text: str) -> list[str]:
    return [kind for _, _, kind in find_secrets(text)]


# A random value and a typed one of the same shape (40 characters ending in NRAL; 52 hex-ish).
RANDOM_LICENSE = "q7Zr2mXk9TbW4pLs8vNd3HcY6fGj1aRe5uKoNRAL"
TYPED_LICENSE = "a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6q7r8NRAL"


def test_a_sequential_run_marks_a_stand_in_and_a_random_value_of_the_same_shape_is_redacted():
    assert redact(f"--set global.licenseKey={TYPED_LICENSE}") == f"--set global.licenseKey={TYPED_LICENSE}"
    assert kinds(f"--set global.licenseKey={RANDOM_LICENSE}") == ["generic_api_key"]
    typed = "1234567890abcdef1234567890abcdef1234567890abcdefextra"
    random = "9f3b1c7e2d8a4f6b0c5e9d1a7b3f2e8c4d6a0b9e5f1c3d7aextra"
    assert find_secrets(f"secret_access_key={typed}") == []
    assert kinds(f"secret_access_key={random}") == ["generic_api_key"]


@pytest.mark.parametrize(
    ("value", "run"),
    [
        ("12345678", True),
        ("xx87654321", True),  # descending
        ("k1234567890", True),  # the number row wraps 9 to 0
        ("abcdefgh", True),
        ("a1b2c3d4", True),  # two runs interleaved
        ("a1b2c3d", False),  # seven characters
        ("abcd1234abcd1234", False),  # repeated, not sequential: a format's own test value
        ("q7Zr2mXk9TbW4pLs8vNd3HcY6fGj1aRe5uKo", False),
    ],
)
def test_sequential_run(value, run):
    assert sequential_run(value) is run


def test_a_password_loses_only_when_wholly_sequential():
    # People put runs in real passwords; only a value that is all sequence is a stand-in.
    assert wholly_sequential("12345678") and not wholly_sequential("Summer12345678!")
    assert find_secrets('password = "12345678"') == []
    assert kinds('password = "Summer12345678!"') == ["generic_password"]


def test_a_value_that_is_a_call_is_not_a_secret():
    # What a call returns is no literal; a literal among a credential call's arguments is judged
    # on its own (test_secrets_verify.py: machine-made ones are redacted, names and words are not).
    assert find_secrets("Twitter(auth=OAuth(token, token_secret, consumer_key, consumer_secret))") == []
    assert find_secrets("auth = OAuth('twitter', 'oauth-v1')") == []
    assert find_secrets('password = getpass("Password: ")') == []


OPENAI_LEGACY = "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"  # ds: OpenAIDetector test
OPENAI_PROJECT = "sk-proj-Xi8tdMjHV6pmbBbwilTeT3BlbkFJ3UDnpdEwNNm6wVBpYM0o"


def test_openai_keys_carry_t3blbkfj():
    assert kinds(OPENAI_LEGACY) == ["openai_api_key"]
    assert kinds(OPENAI_PROJECT) == ["openai_api_key"]
    # the same project key without the marker (T4BlbkFJ) is not one: ds lists it as a negative
    assert find_secrets(OPENAI_PROJECT.replace("T3Blbk", "T4Blbk")) == []
    # Nosey Parker's legacy shape, sk- and 48 alphanumerics, needs no marker
    assert kinds("Bearer sk-mxIt5s1tyfCJyIKHwrqOT4BlbkFJT3VVmv6VdSwB7XXIq1TO") == ["openai_api_key"]


ANTHROPIC_BODY = (
    "abc123xyz-456def789ghij-klmnopqrstuvwx-3456yza789bcde-1234fghijklmnopby56aaaogaopaaaabc123xyz"
)


def test_anthropic_keys_are_93_characters_then_aa():
    assert len(ANTHROPIC_BODY) == 93
    for version in ("api03", "admin01"):
        assert kinds(f"sk-ant-{version}-{ANTHROPIC_BODY}AA") == ["anthropic_api_key"]
        assert find_secrets(f"sk-ant-{version}-{ANTHROPIC_BODY}BB") == []  # wrong suffix
        assert find_secrets(f"sk-ant-{version}-{ANTHROPIC_BODY[:60]}AA") == []  # too short
    assert find_secrets('anthropic_token = "sk-ant-oat01-tooShort"') == []


@pytest.mark.parametrize(
    "token",
    [
        "xoxb-781236542736-2364535789652-GkwFDQoHqzXDVsC6GzqYUypD",  # gl: slack-bot-token
        "xoxp-41684372915-1320496754-45609968301-e708ba56e1517a99f6b5fb07349476ef",  # user
        "xoxe-4726837507825-4848681849303-4856614048758-e0b1f3d4cb371f92260edb0d9444d206",
        "xoxb-263594206564-FGqddMF8t08v8N7Oq4i57vs1",  # legacy bot
        "xoxs-416843729158-132049654-5609968301-e708ba56e1",  # legacy
        "xoxa-2-511111111-31111111111-3111111111-e039d02840a0b9379c",  # legacy workspace
        "xoxp-523423-234243-234233-e039d02840a0b9379c",  # ds: SlackDetector
        "xapp-1-A052FGTS2DL-5171572773297-610b6a11f4b7eb819e87b767d80e6575a3634791acb9a9ead051da879eb5b55e",
        "xapp-083452001657-ShAYwge/87H4lC3j7lZ48pAL",  # np: slack.5
        "xoxe.xoxp-1-Mi0yLTM0MTQwNDE0MDE3Ni0zNjU5NDY0Njg4MTctNTE4MjA3NTQ5NjA4MC01NDEyOTYyODY5NzUxLThh"
        "MTBjZmI1ZWIzMGIwNTg0ZDdmMDI5Y2UxNzVlZWVhYzU2ZWQyZTZiODNjNDZiMGUxMzRlNmNjNDEwYmQxMjQ",
    ],
)
def test_slack_tokens_of_each_published_shape_are_redacted(token):
    assert redact(f'"token": "{token}"') == '"token": "[REDACTED:slack_token]"'


@pytest.mark.parametrize(
    "text",
    [
        "xoxe.xoxp-1-initial",  # a configuration token is 163-166 characters
        "xoxe.xoxp-1-RANDOMSTRINGHERE",
        "xoxe-1-xxx",
        "xoxb-12345-abcd234",
        "xoxb-xoxb-my-bot-token",
        '"token1": "xoxp-1234567890"',
        '"token3": "xoxp-1234-1234-1234-4ddbc191d40ee098cbaae6f3523ada2d"',
        '"token4": "xoxp-572370529330-573807301142-572331691188-####################"',
        "https://indieweb.org/images/3/35/2018-250-xoxo-indieweb-1.jpg",
    ],
)
def test_shapes_slack_does_not_mint_are_left_alone(text):
    assert find_secrets(text) == []


HMAC = "1234567890abcdef1234567890abcdef1234567890abcdef"  # ds' own test value


@pytest.mark.parametrize(
    "name", ["secret_access_key", "COS_HMAC_SECRET_ACCESS_KEY", "ibm_cos_secret_key", "coshmac_secret_key"]
)
def test_ibm_cos_hmac_secrets_follow_the_format_not_the_stand_in_test(name):
    # the provider's exact shape (48 hex under its names) decides; the sequential test is the
    # generic rule's, for values no format vouches for
    assert kinds(f'{name} = "{HMAC}"') == ["ibm_cloud_credential"]


def test_the_keyword_prefilter_is_read_from_each_pattern_and_never_drops_a_match(monkeypatch):
    import re

    from pica.stages import secrets

    def prefixes(pattern: str) -> set[str]:
        return secrets.literal_prefixes(list(secrets._parser.parse(pattern)))[0]

    assert prefixes(r"gh[pousr]_[A-Za-z0-9]{36}") == {"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}
    assert prefixes(r"(?:A3T[A-Z0-9]|AKIA)[A-Z0-9]{16}") == {"A3T", "AKIA"}
    assert prefixes(r"(?<![\w])sk-ant-(?:api|admin)\d{2}") == {"sk-ant-api", "sk-ant-admin"}
    texts = [
        OPENAI_PROJECT,
        OPENAI_PROJECT.upper(),  # not a key (case-sensitive format), on both paths alike
        f"KEY=sk-ant-api03-{ANTHROPIC_BODY}AA",
        "xoxb-781236542736-2364535789652-GkwFDQoHqzXDVsC6GzqYUypD",
        f'secret_access_key = "{HMAC}"',
        "password: $6$rounds=5000$usesomesillystri$D4IrlXatmP7rx3P3InaxBeoomnAihCKRVQP22JZ6EY47Wc6BkroIuUUBOov1i",
        'if ("Zk81mQp2VbX7rT4w"  !== auth.token) { deny() }',  # read from the `!==`
        'ledger_pwd: "t7Rq!x9Lm2Vz"',  # the keyed scan, from the word `pwd`
        'dbh = DBI->connect("dbi:Pg:dbname=app", "svc", "Qx7!vLm2pz")',  # a call, from `connect`
    ]
    # a long text is read only where a rule's keywords occur, a short one all through: both ways
    filler = "\nprose without any secret in it, and the keys of a JSON log: input_tokens, cache_key.\n"
    texts.append((filler.join(texts) + filler) * (secrets.LONG_TEXT // len(filler)))
    assert len(texts[-1]) > secrets.LONG_TEXT
    gated = [find_secrets(text) for text in texts]
    rules = secrets.ruleset()
    n = len(rules.rules)
    # every rule, the keyed scan and the tables read all of every text: no keyword automaton
    ungated = dataclasses.replace(
        rules, gates=[()] * n, anchored=[False] * n, always=tuple(range(n)), automaton=None
    )
    monkeypatch.setattr(secrets, "ruleset", lambda: ungated)
    assert [find_secrets(text) for text in texts] == gated
    assert all(gated[i] for i in (0, 3, 4, 5, 6, 7, 8)) and re.search("anthropic", str(gated[2]))
    assert len(gated[-1]) == sum(map(len, gated[:-1])) * (secrets.LONG_TEXT // len(filler))  # every copy


# detect-secrets' KeywordDetector test value (tests/plugins/keyword_test.py, COMMON_SECRET): braces
# and dollars that open no template are characters of a password.
BRACES = "m{{h}o)p${e]nob(ody[finds>-_$#thisone}}"


@pytest.mark.parametrize(
    "text",
    [
        f'apikey = "{BRACES}"',
        f'if (api_key != "{BRACES}") {{',
        f'if (aws_secret_access_key === "{BRACES}") {{',
        f"aws_secret_access_key: '{BRACES}'",
        f'if ("{BRACES}" == password) {{',
        f'if ("{BRACES}" !== my_private_key) {{',
    ],
)
def test_braces_that_open_no_template_are_part_of_the_secret(text):
    spans = find_secrets(text)
    start = text.index(BRACES)
    assert any(s <= start and start + len(BRACES) <= e for s, e, _ in spans), spans


@pytest.mark.parametrize(
    "text",
    [
        'password: "${DB_PASSWORD}"',
        "password: ${link}",
        "token: ${{ secrets.GITHUB_TOKEN }}",
        'api_key: "{{ vault_api_key }}"',
        "api_key: {{ vault_api_key }}",
        'password = "${env:DB_PASS}"',
        'PASSWORD="${PASSWORD:?missing}"',
        'client_secret = "${data.vault_generic_secret.app.data["client_secret"]}"',
        "secret: \"#{ENV['APP_SECRET']}\"",
        'token: "{{- .Values.token | b64enc }}"',
        "password = '{password}'",
        "password = `${process.env.DB_PASS}`",
        'password = ",.:-@*?!"',
        f"password = {BRACES}",  # unquoted in code: an expression (detect-secrets' C++ negative)
        'if ("" == password)',
        'if ("string" === typeof token)',
        'if ("null" != token)',
    ],
)
def test_templates_punctuation_and_empty_comparisons_are_left_alone(text):
    assert find_secrets(text) == []


def test_a_literal_compared_with_a_secret_named_variable_is_redacted():
    assert kinds('if "Summer2024!" == password:') == ["generic_password"]
    assert kinds('if (token !== "q7Zr2mXk9TbW4pLs8vNd") {') == ["generic_api_key"]
    assert kinds('if ("q7Zr2mXk9TbW4pLs8vNd" !== token) {') == ["generic_api_key"]


def test_a_provider_name_decides_only_for_values_in_a_key_alphabet():
    # 40 characters under AWS's name, AWS's length, but not its format (no digit): malformed
    malformed = "qZrmXkTbWpLsvNdHcYfGjaReuKoQwzBnMxCvLkJh"
    assert len(malformed) == 40 and find_secrets(f"aws_secret_access_key = {malformed}") == []
    assert kinds('aws_secret_access_key = "Tr0ub4dor&3!horse"') == ["generic_api_key"]


def test_s3_compatible_keys_under_aws_names_are_redacted_at_their_own_lengths():
    # Cloudflare R2's 64 hex digits, OCI's and DigitalOcean Spaces' base64: AWS's names, not its format
    r2 = "9c2b1f0e8d7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c"
    oci = "+zGBXRGoKsJ3R36nIyvWTQ+Qb5IRhvOtRcFTHsw4zQI="
    for value in (r2, oci):
        assert kinds(f"aws_secret_access_key = {value}") == ["generic_api_key"]


@pytest.mark.parametrize(
    "text",
    [  # Nosey Parker np.generic.5/6 negative_examples
        'sb.append("MasterUserPassword: " + getMasterUserPassword() + ",");',
        '"//localhost:1337/:_password = "+new Buffer("feast").toString("base64")',
        'usernameLabel:"Username or email:",passwordLabel:"Password:",rememberMeLabel:"Remember me:"',
        "put '/forgot-password' => \"cms/sites/passwords#update\", as: 'update_password'",
        'this.addPassword = "#add-password";',
        "password = super$ecret",  # unquoted: a shell variable
        '"password": "$super$ecret",',
    ],
)
def test_code_around_a_password_name_is_not_its_value(text):
    assert find_secrets(text) == []


def test_a_dollar_inside_a_quoted_password_is_a_character():
    # Nosey Parker np.generic.5/6 examples; `$` is excluded only as the first character
    assert kinds('my_password: "super$ecret"') == ["generic_password"]
    assert kinds('"password": "super$ecret",') == ["generic_password"]
    assert kinds("It's here: password = 'Tr0ub4dor&3'") == ["generic_password"]
