"""What sets 79 to 86 showed (docs/redaction.md, fourteenth pass): services' own key formats and
the places consoles show them (services.py), options named for a secret after other words, a
name/value pair led by `key`, Oracle's tools called by their path, and the near misses beside them.
Values here are typed or generated for the test."""

from __future__ import annotations

import pytest

from pica.stages.secrets import find_secrets, redact


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        # Ghost's Admin API key, `id:secret` in hex
        (
            "const api = new GhostAdminAPI({\n  url: 'https://blog.example.net',\n"
            "  key: '65a1f0c2d9e84b7a3c5d1e2f:0f3a9c8b7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a',\n",
            "65a1f0c2d9e84b7a3c5d1e2f:0f3a9c8b7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a",
        ),
        # WordPress' application password, six groups of four
        (
            'WP_API = "https://news.example.org/wp-json/wp/v2"\nauth = ("editor", "Gh4k Lm2N pQ9r St5v W7xY z3Ab")\n',
            "Gh4k Lm2N pQ9r St5v W7xY z3Ab",
        ),
        # Bitrix24's inbound webhook and IFTTT's Maker key, in their URLs
        ("BITRIX_HOOK=https://acme.bitrix24.de/rest/42/k2v8qz0m4x7c1b9n/\n", "k2v8qz0m4x7c1b9n"),
        (
            'curl -X POST "https://maker.ifttt.com/trigger/door_open/with/key/dR4-fG7hJ2kL9mN0pQ3sT" \n',
            "dR4-fG7hJ2kL9mN0pQ3sT",
        ),
        # Bunny's storage key: a UUID with two more groups
        (
            '$storage = new BunnyCDNStorage("photo-zone", "4b1c9e2a-7d3f-41a0-b8c6e5d4f3a2-1b0c-9d8e", "ny");\n',
            "4b1c9e2a-7d3f-41a0-b8c6e5d4f3a2-1b0c-9d8e",
        ),
        # express-session's signed cookie
        (
            'cookies = {"connect.sid": "s%3AqW3eR5tY7uI9oP1aS2dF4gH6jK8lZ0xC.k9J8h7G6f5D4s3A2q1W0e9R8t7Y6u5I4o3P2a1S0d9F"}\n',
            "s%3AqW3eR5tY7uI9oP1aS2dF4gH6jK8lZ0xC.k9J8h7G6f5D4s3A2q1W0e9R8t7Y6u5I4o3P2a1S0d9F",
        ),
        # a connection URL percent-encoded into another URL
        (
            'open "tableplus://?url=mysql%3A%2F%2Fapp%3AQz7Lm2Vx9Kp4%40db.internal%3A3306%2Fshop"\n',
            "Qz7Lm2Vx9Kp4",
        ),
        # an empty user and a base64 key holding a `/`
        (
            "CACHE_URL=rediss://:Pq8Zr2Lk5Wm9/Xn3Bv7Cd1Fg4Hj6Ks0Tu8Yw2=@cache-eu.redis.cache.windows.net:6380/0\n",
            "Pq8Zr2Lk5Wm9/Xn3Bv7Cd1Fg4Hj6Ks0Tu8Yw2=",
        ),
        # a console's variables, columns aligned
        (
            "Key                    Value                                     Category\n"
            "DATADOG_API_KEY        9f1c2b8a7d6e5f4a3b2c1d0e9f8a7b6c          env\n"
            "STRIPE_SECRET_KEY      Rk7Lw2Qz9Xn4Vm8Tp3Ys6Bc1Fd5Gh0Jk          env\n",
            "Rk7Lw2Qz9Xn4Vm8Tp3Ys6Bc1Fd5Gh0Jk",
        ),
        (
            "SENTRY_AUTH_TOKEN     Secret    Wq4Er7Ty1Ui5Op9As3Df6Gh2Jk8Lz0Xc\n",
            "Wq4Er7Ty1Ui5Op9As3Df6Gh2Jk8Lz0Xc",
        ),
        # an Azure key under its console label, on its line and the next
        (
            "Primary key: Lk9Jh8Gf7Ds6Ap5Oi4Uy3Tr2Ew1Qz0Xc9Vb8Nm7Lk6J=\n",
            "Lk9Jh8Gf7Ds6Ap5Oi4Uy3Tr2Ew1Qz0Xc9Vb8Nm7Lk6J=",
        ),
        (
            "Secondary key\nZm9Xk2Lp7Qw4Er8Ty1Ui5Op3As6Df9Gh2Jk4Lz7Xc1Vb5Nm8Qw2Er6Ty9Ui3Op7As1Df4Gh8Jk2Lz5Xc9Vb3Nm6Q==\n",
            "Zm9Xk2Lp7Qw4Er8Ty1Ui5Op3As6Df9Gh2Jk4Lz7Xc1Vb5Nm8Qw2Er6Ty9Ui3Op7As1Df4Gh8Jk2Lz5Xc9Vb3Nm6Q==",
        ),
        # options named for a secret after other words, or joined to what the password is for
        (
            "restic-server --storage-b2-secret-key K004xP9qR2sT5vW8yZ1bD4fG7hJ0kM3nQ6\n",
            "K004xP9qR2sT5vW8yZ1bD4fG7hJ0kM3nQ6",
        ),
        (
            "ngrok http 8080 --authtoken 2aBcD3eFgH4iJkL5mNoP6qRsT7uVwX8yZ_9AbC1dEf\n",
            "2aBcD3eFgH4iJkL5mNoP6qRsT7uVwX8yZ_9AbC1dEf",
        ),
        ("ghost install --dbuser blog --dbpass 'Lantern#Quay61' --no-prompt\n", "Lantern#Quay61"),
        ("linode-cli linodes create --root_pass 'Orchid!Fjord27' --type g6-standard-1\n", "Orchid!Fjord27"),
        (
            "ProxyCommand ncat --proxy gw.example.com:3128 --proxy-auth alice:Copper.Reef.774 %h %p\n",
            "Copper.Reef.774",
        ),
        # a name/value pair led by `key` (Render's and DigitalOcean's app specs), and an `_auth`
        (
            "envVars:\n  - key: SESSION_SECRET\n    value: Vb8Nm2Qw5Er9Ty3Ui7Op1As4Df6Gh0Jk=\n",
            "Vb8Nm2Qw5Er9Ty3Ui7Op1As4Df6Gh0Jk=",
        ),
        ('{"key": "TF_VAR_cache_auth", "value": "Xp4Lq8Zr2Nk6Wm0Tb"}', "Xp4Lq8Zr2Nk6Wm0Tb"),
        # Oracle's Data Pump called by its path from a crontab
        ("0 2 * * * /opt/oracle/19c/bin/impdp system/Harbor!Gate44@ORCL schemas=HR\n", "Harbor!Gate44"),
        # a key's setter in snake case
        ('set_entrez_key("4c8e2a9f7b1d3e5a6c0b9d8f7e6a5c4b3d2e")\n', "4c8e2a9f7b1d3e5a6c0b9d8f7e6a5c4b3d2e"),
        # Basic credentials written unencoded
        ("Authorization: Basic deploy:Falcon-Ridge-3381\n", "deploy:Falcon-Ridge-3381"),
    ],
)
def test_what_sets_79_to_86_showed_is_redacted(text, secret):
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        # a manual's Basic credentials
        "Authorization: Basic username:password\n",
        "  Authorization: Basic base64-user-password\n",
        "Authorization: Basic username password\n",
        # stand-ins, remarks and references where a value would be
        "  <password>CHANGE_BEFORE_DEPLOY</password>\n",
        "Run `app users passwd --email you@example.org --password <new password>` to reset it.\n",
        "changed: [db01] => (item={'key': 'RESTIC_PASSWORD', 'value': 'VALUE_SPECIFIED_IN_NO_LOG_PARAMETER'})\n",
        "Key: HCLOUD_TOKEN\nValue: (sensitive - write only; enter a new value to replace)\n",
        "Password: {REF:P@I:4F3A2C1B0E9D8C7B6A5F4E3D2C1B0A99}\n",
        "ALTER USER app_user IDENTIFIED BY &&new_password;\n",
        # code reading a key, a key's name, a colour, a product's id
        'String accountKey = System.getenv("AZURE_STORAGE_KEY");\n',
        "      <secret-storage>master_key</secret-storage>\n",
        'palette:\n  pass: "#2E8B57"\n  fail: "#C0392B"\n',
        "Windows product ID: 00330-80000-00000-AA623\n",
        'Tip: call setSecret("lims_readonly") once per machine; it prompts for the password.\n',
        'r.set_cache_key("user-profile-1234")\n',
        # a URL query's flags after a key's name; a public app's id in a URL
        "postgresql://report@db.example.net:5432/core?usePrivateKey=true&privateKeyPath=~/.ssh/db.pem&env=prod\n",
        "Metadata: https://login.microsoftonline.com/common/federationmetadata.xml?appid=978f9cb6-e3c5-4170-9151-8887fa3e7d46\n",
        # digests in a console's table; a database's primary key
        "NAME                  DIGEST          \tCREATED AT\nSTRIPE_SECRET_KEY     12119dfa26f5bc39\t18 days ago\n",
        "Primary key: order_id\n",
        # hex groups and six words of four that are no application password
        'Looks like "abcd efgh ijkl mnop qrst uvwx" (WordPress application passwords).\n',
        "0010: 4a6f 686e 2044 6f65 0a00 1f2b  wp-content\n",
    ],
)
def test_what_sets_79_to_86_showed_is_left_alone(text):
    assert find_secrets(text) == []
