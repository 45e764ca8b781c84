"""Text indexed under older redaction rules is redacted again when the rules change: a secret the
old rules missed must not stay in the index, though its file never changes."""

from __future__ import annotations

import json
import string
import zlib

from pica.kernel import runner
from pica.stages import redact as redact_stage
from pica.stages import scan
from pica.stages.store.catalog import Catalog
from tests import helpers
from tests.helpers import make_folder


def github_token(body: str = "Zq8TmX2vLw9RkB4nYc7HjD1sFg6PaE") -> str:
    """A token of the form GitHub issues: 30 characters and their CRC32 in base 62."""
    crc, tail = zlib.crc32(body.encode()), ""
    while crc:
        crc, digit = divmod(crc, 62)
        tail = BASE62[digit] + tail
    return f"ghp_{body}{tail.rjust(6, '0')}"


BASE62 = string.digits + string.ascii_uppercase + string.ascii_lowercase
TOKEN = github_token()


def test_a_secret_the_old_rules_missed_is_redacted_once_the_rules_change(pica_home, tmp_path, monkeypatch):
    folder = make_folder(tmp_path / "notes", {
        "deploy.md": f"# Deploy\n\nThe harbour deploy uses {TOKEN} to push.\n",
        "other.md": "# Other\n\nNothing secret in the harbour here.\n",
    })  # fmt: skip
    with monkeypatch.context() as old:  # "old rules": ones that miss it, under a fingerprint of their own
        old.setattr(scan, "redaction_rules", lambda: "old-rules")
        old.setattr(redact_stage, "redact", lambda text, found=None: text)
        helpers.index(folder, "notes")
        assert TOKEN in next(h.passage for h in helpers.search("harbour deploy"))

    report = helpers.index(folder, "notes")  # no file changed on disk
    hits = helpers.search("harbour deploy")
    assert hits and all(TOKEN not in h.passage for h in hits)
    assert "harbour deploy" in hits[0].passage  # the words beside it are still found
    assert helpers.search(TOKEN) == []
    document = runner.run("search/get", variables={"id": "notes/deploy.md"}).output
    assert TOKEN not in json.dumps(document) and "harbour deploy" in json.dumps(document)
    with Catalog(pica_home) as catalog:
        assert sum(catalog.redactions().get("notes", {}).values()) == 1
    again = helpers.index(folder, "notes")  # the new rules are recorded: nothing to read now
    assert report != again


def test_a_reread_stopped_between_batches_goes_on_where_it_stopped(pica_home, tmp_path, monkeypatch):
    tokens = [github_token("Aa1Bb2Cc3Dd4Ee5Ff6Gg7Hh8Ii9Jj0"), github_token("Kk1Ll2Mm3Nn4Oo5Pp6Qq7Rr8Ss9Tt0")]
    folder = make_folder(tmp_path / "notes", {
        f"n{i}.md": f"# Note {i}\n\nThe harbour key is {token} today.\n" for i, token in enumerate(tokens)
    })  # fmt: skip
    with monkeypatch.context() as old:
        old.setattr(scan, "redaction_rules", lambda: "old-rules")
        old.setattr(redact_stage, "redact", lambda text, found=None: text)
        helpers.index(folder, "notes")

    def left() -> list[str]:
        passages = " ".join(h.passage for h in helpers.search("harbour key"))
        return [token for token in tokens if token in passages]

    assert left() == tokens
    helpers.index(folder, "notes", batch=1)  # one file read again; as if killed before the next
    assert len(left()) == 1
    helpers.index(folder, "notes", batch=1)
    assert left() == []
