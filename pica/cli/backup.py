"""Copy agent transcript trees somewhere safe: a local folder, or an SSH target via rsync or scp.

Copies only: nothing is ever deleted, neither an original nor a copy. Configuration lives in
`$PICA_HOME/backup.env` (`DESTINATION=/path` or `DESTINATION=user@host:/path`, optional
`SSH_OPTIONS=-p 2222 -i ~/.ssh/key`), or the environment (`PICA_BACKUP_DESTINATION`,
`PICA_BACKUP_SSH_OPTIONS`, which win); without either the destination is `~/pica-backup`. The copies
are raw, unredacted transcripts, so they are kept out of PICA_HOME, which holds only redacted text.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class BackupConfig:
    destination: str
    ssh_options: str = ""
    source: str = "default"  # where the configuration came from

    @property
    def remote(self) -> bool:
        head = self.destination.split("/", 1)[0]
        return ":" in head and not Path(self.destination).is_absolute()


@dataclass
class BackupPlan:
    copies: list[tuple[Path, str]] = field(default_factory=list)  # (source file, destination path)
    unchanged: int = 0


RAW = "backups are raw transcripts, unredacted: secrets in them are copied as they are"


def default_destination() -> Path:
    return Path.home() / "pica-backup"


ENVIRONMENT = {"DESTINATION": "PICA_BACKUP_DESTINATION", "SSH_OPTIONS": "PICA_BACKUP_SSH_OPTIONS"}


def load_config(home: Path) -> BackupConfig:
    """backup.env, with PICA_BACKUP_DESTINATION / PICA_BACKUP_SSH_OPTIONS set in the environment
    taking the place of its values."""
    config = _load_file(home)
    given = {key: os.environ[name] for key, name in ENVIRONMENT.items() if os.environ.get(name)}
    if not given:
        return config
    destination = given.get("DESTINATION", config.destination)
    if ":" not in destination:
        destination = str(Path(destination).expanduser())
    names = " and ".join(ENVIRONMENT[key] for key in given)
    source = names if config.source == "default" else f"{names}, over {config.source}"
    return BackupConfig(destination, given.get("SSH_OPTIONS", config.ssh_options), source)


def _load_file(home: Path) -> BackupConfig:
    path = home / "backup.env"
    if not path.exists():
        return BackupConfig(str(default_destination()))
    values = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition("=")
        if not sep:
            raise ValueError(f"{path}:{number}: expected KEY=VALUE, got {line!r}")
        values[key.strip().removeprefix("export ").strip()] = value.strip().strip("'\"")
    unknown = sorted(set(values) - {"DESTINATION", "SSH_OPTIONS"})
    if unknown:
        raise ValueError(f"{path}: unknown keys {', '.join(unknown)} (known: DESTINATION, SSH_OPTIONS)")
    destination = values.get("DESTINATION") or str(default_destination())
    return BackupConfig(str(Path(destination).expanduser()) if ":" not in destination else destination,
                        values.get("SSH_OPTIONS", ""), str(path))  # fmt: skip


def plan_local(roots: dict[str, Path], destination: Path) -> BackupPlan:
    """Files that are new or differ (size or mtime) at the destination."""
    plan = BackupPlan()
    for agent, root in roots.items():
        for source in sorted(p for p in root.rglob("*") if p.is_file()):
            target = destination / agent / source.relative_to(root)
            stat = source.stat()
            if (
                target.exists()
                and (t := target.stat()).st_size == stat.st_size
                and int(t.st_mtime) == int(stat.st_mtime)
            ):
                plan.unchanged += 1
            else:
                plan.copies.append((source, str(target)))
    return plan


def copy_local(plan: BackupPlan) -> None:
    for source, target in plan.copies:
        Path(target).parent.mkdir(parents=True, exist_ok=True)
        partial = Path(target + ".partial")
        shutil.copy2(source, partial)
        partial.replace(target)  # a crash never leaves a half-copied file under its real name


def remote_commands(roots: dict[str, Path], config: BackupConfig) -> list[list[str]]:
    """One rsync per agent tree (scp -r when rsync is missing); no --delete, ever."""
    ssh = ["ssh", *shlex.split(config.ssh_options)]
    commands = []
    for agent, root in roots.items():
        target = f"{config.destination.rstrip('/')}/{agent}/"
        if shutil.which("rsync"):
            commands.append(["rsync", "-a", "--partial", "-e", shlex.join(ssh), f"{root}/", target])
        else:
            host, _, folder = config.destination.partition(":")
            commands.append([*ssh, host, "mkdir", "-p", shlex.quote(f"{folder.rstrip('/')}/{agent}")])
            scp_options = [
                "-P" if o == "-p" else o for o in shlex.split(config.ssh_options)
            ]  # scp's port flag
            commands.append(["scp", "-r", "-p", *scp_options, f"{root}/.", target])
    return commands


def run_remote(commands: list[list[str]]) -> None:
    for command in commands:
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"{shlex.join(command)} failed ({done.returncode}): {done.stderr.strip()}")
