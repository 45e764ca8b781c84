"""`pica backup` to a real SSH server: Debian's sshd started here on a free port of 127.0.0.1 with
a throwaway key. rsync, and scp when rsync is missing, both copy, and never delete anything."""

from __future__ import annotations

import getpass
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from pica.cli import backup as backups
from pica.cli import main
from tests.helpers import free_port

SSHD = shutil.which("sshd") or next((p for p in ("/usr/sbin/sshd",) if os.access(p, os.X_OK)), None)
SFTP = next(
    (p for p in ("/usr/lib/openssh/sftp-server", "/usr/libexec/sftp-server") if Path(p).exists()), None
)


@pytest.fixture
def sshd(tmp_path):
    if SSHD is None or not shutil.which("ssh"):
        pytest.skip("no sshd here (apt-get install openssh-server; .ci/run does)")
    keys = tmp_path / "keys"
    keys.mkdir(mode=0o700)
    for name in ("host", "client"):
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(keys / name)], check=True)
    (keys / "authorized_keys").write_text((keys / "client.pub").read_text())
    port = free_port()
    config = keys / "sshd_config"
    config.write_text(
        f"Port {port}\nListenAddress 127.0.0.1\nHostKey {keys / 'host'}\n"
        f"AuthorizedKeysFile {keys / 'authorized_keys'}\nPidFile {keys / 'sshd.pid'}\n"
        "StrictModes no\nUsePAM no\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n"
        "PermitRootLogin prohibit-password\n" + (f"Subsystem sftp {SFTP}\n" if SFTP else "")
    )
    if os.geteuid() == 0:
        Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)  # sshd's privilege separation folder
    log = (tmp_path / "sshd.log").open("w")
    server = subprocess.Popen([SSHD, "-D", "-e", "-f", str(config)], stdout=log, stderr=log)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"sshd exited: {(tmp_path / 'sshd.log').read_text()}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                break
        time.sleep(0.05)
    options = (
        f"-p {port} -i {keys / 'client'} -o BatchMode=yes -o IdentitiesOnly=yes "
        "-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR"
    )
    yield {"user": getpass.getuser(), "options": options}
    server.terminate()
    server.wait(10)
    log.close()


@pytest.fixture
def transcripts(tmp_path, pica_home, monkeypatch):
    claude = tmp_path / "claude"
    (claude / "-work-ledger").mkdir(parents=True)
    (claude / "-work-ledger" / "s1.jsonl").write_text('{"line": 1}\n')
    (claude / "-work-ledger" / "s2.jsonl").write_text('{"line": 2}\n')
    monkeypatch.setenv("PICA_CLAUDE_DIR", str(claude))
    return claude


@pytest.mark.parametrize("tool", ["rsync", "scp"])
def test_backup_over_ssh_copies_and_never_deletes(tool, sshd, transcripts, tmp_path, pica_home, monkeypatch):
    if tool == "rsync" and not shutil.which("rsync"):
        pytest.skip("rsync is not installed here")
    if tool == "scp":  # rsync missing: scp -r instead
        which = shutil.which
        monkeypatch.setattr(
            backups.shutil, "which", lambda name, *a, **k: None if name == "rsync" else which(name, *a, **k)
        )
    remote = tmp_path / "remote"
    kept = remote / "claude-code" / "-work-ledger" / "only-in-the-backup.jsonl"
    kept.parent.mkdir(parents=True)
    kept.write_text("an older session the machine no longer has\n")
    pica_home.mkdir(parents=True, exist_ok=True)
    (pica_home / "backup.env").write_text(
        f"DESTINATION={sshd['user']}@127.0.0.1:{remote}\nSSH_OPTIONS='{sshd['options']}'\n"
    )
    cli = CliRunner()
    shown = cli.invoke(main, ["backup", "--show-config"])
    assert f"127.0.0.1:{remote} (ssh)" in shown.output and "backup.env" in shown.output

    done = cli.invoke(main, ["backup"])
    assert done.exit_code == 0, done.output
    assert f"running: {tool}" in done.output and "--delete" not in done.output
    copied = remote / "claude-code" / "-work-ledger"
    assert (copied / "s1.jsonl").read_text() == '{"line": 1}\n' and (copied / "s2.jsonl").exists()
    assert kept.exists()  # nothing at the destination is deleted

    (transcripts / "-work-ledger" / "s1.jsonl").unlink()  # gone from the machine...
    with (transcripts / "-work-ledger" / "s2.jsonl").open("a") as grown:
        grown.write('{"line": 3}\n')
    again = cli.invoke(main, ["backup"])
    assert again.exit_code == 0, again.output
    assert (copied / "s1.jsonl").exists() and kept.exists()  # ...kept in the backup
    assert (copied / "s2.jsonl").read_text().endswith('{"line": 3}\n')


def test_the_environment_takes_the_place_of_backup_env(pica_home, monkeypatch, tmp_path):
    pica_home.mkdir(parents=True)
    (pica_home / "backup.env").write_text("DESTINATION=me@host:/srv\nSSH_OPTIONS=-p 2222\n")
    monkeypatch.setenv("PICA_BACKUP_DESTINATION", str(tmp_path / "here"))
    config = backups.load_config(pica_home)
    assert config.destination == str(tmp_path / "here") and not config.remote
    assert config.ssh_options == "-p 2222" and config.source.startswith("PICA_BACKUP_DESTINATION, over")
