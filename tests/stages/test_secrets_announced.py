"""Machine-made values announced by a secret's word, with no name assigned (announced.py): in prose
("the token for staging is …") or alone on the line below the word ("Token generated:"). Values
here are typed for the test."""

from __future__ import annotations

import pytest

from pica.stages.secrets import find_secrets, redact

TOKEN = "q8Zk2mVf7TnR4wYp1LcX9sBd3HjE6uGa"
HEX40 = "3f9c2a7d1e8b4c6f0a5d9e2b7c1f4a8d3e6b9c0f"


@pytest.mark.parametrize(
    "text",
    [
        f"the token for staging is {TOKEN}\n",
        f"sofia: secret is {TOKEN}\n",
        f"Your new API token (copy it now, it will not be shown again):\n\n    {TOKEN}\n",
        f"$ particle token create\nNew access token expires on Fri Jan 29 2027\n    {HEX40}\n",
        f"Token generated:\n{TOKEN}\n",
        f"Der API-Schlüssel für Prod — key → {TOKEN}\n",
        f"新しいトークンは {TOKEN} です\n",
    ],
)
def test_an_announced_machine_made_value_is_redacted(text):
    assert TOKEN not in redact(text) and HEX40 not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        f"the request id is {TOKEN}\n",  # an id's word on the line
        f"key fingerprint:\n    {HEX40}\n",  # a hash's
        f"the public key is {TOKEN}\n",
        "Dictionary of fields or list of (key, value). See: https://bugs.python.org/issue38834\n",
        ">>> token_hex(16)\n'f9bf78b9a18ce6d46a0cd2b0b86df9da'\n",  # an interpreter's example
        ">>> decipher_bifid6(msg, key)\n'KFKLJJHF5MMMKTFRGPL'\n",
        "enum: token types are\n    OAUTH2_SHAREPOINT_APP_ONLY_CLIENT_CREDENTIALS\n",  # words joined
        "the new secret is ops_eyJzaWduSW5B..\n",  # cut short
        "the token is stored in ~/.config/gh/hosts.yml\n",
        "the token is valid for 3600 seconds\n",
    ],
)
def test_an_announcement_of_no_secret_is_left_alone(text):
    assert find_secrets(text) == []
