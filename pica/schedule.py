"""Scheduled runs: `pica index` every N minutes (and `pica backup` daily) by the platform's own
scheduler: systemd user units (service + timer) on Linux, a launchd agent on macOS, a Task
Scheduler task on Windows. Generated from the templates below; `pica schedule` writes, enables,
reports and removes them."""

from __future__ import annotations

import os
import plistlib
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from string import Template
from xml.sax.saxutils import escape

JOBS = ("index", "backup")
BACKUP_EVERY = {"hourly": 3600, "daily": 86400, "weekly": 7 * 86400}

SERVICE = Template("""\
# Written by `pica schedule install`; `pica schedule remove` deletes it.
[Unit]
Description=Pica: $what

[Service]
Type=oneshot
Environment=PICA_HOME=$home
ExecStart=$command
Nice=10
IOSchedulingClass=idle
""")

TIMER = Template("""\
[Unit]
Description=Pica: $what, $when

[Timer]
$trigger
Persistent=true
Unit=pica-$job.service

[Install]
WantedBy=timers.target
""")

TASK = Template("""\
<?xml version="1.0" encoding="UTF-16"?>
<Task version="1.2" xmlns="http://schemas.microsoft.com/windows/2004/02/mit/task">
  <RegistrationInfo>
    <Description>Pica: $what</Description>
    <URI>\\Pica\\$job</URI>
  </RegistrationInfo>
  <Triggers>
    <TimeTrigger>
      <StartBoundary>2026-01-01T03:00:00</StartBoundary>
      <Enabled>true</Enabled>
      <Repetition>
        <Interval>$interval</Interval>
        <StopAtDurationEnd>false</StopAtDurationEnd>
      </Repetition>
    </TimeTrigger>
  </Triggers>
  <Settings>
    <MultipleInstancesPolicy>IgnoreNew</MultipleInstancesPolicy>
    <DisallowStartIfOnBatteries>false</DisallowStartIfOnBatteries>
    <StartWhenAvailable>true</StartWhenAvailable>
    <ExecutionTimeLimit>PT2H</ExecutionTimeLimit>
    <Priority>7</Priority>
  </Settings>
  <Actions Context="Author">
    <Exec>
      <Command>$program</Command>
      <Arguments>$arguments</Arguments>
    </Exec>
  </Actions>
</Task>
""")


@dataclass
class Job:
    name: str  # index | backup
    seconds: int

    @property
    def what(self) -> str:
        return {"index": "index what changed", "backup": "back up agent transcripts"}[self.name]


def parse_every(text: str) -> int:
    """'15m', '1h', '90s', '2d' -> seconds (at least 60)."""
    match = re.fullmatch(r"\s*(\d+)\s*([smhd]?)\s*", text)
    if not match:
        raise ValueError(f"'{text}' is not a duration like 15m, 1h or 1d")
    seconds = int(match[1]) * {"s": 1, "m": 60, "h": 3600, "d": 86400, "": 60}[match[2]]
    if seconds < 60:
        raise ValueError(f"'{text}' is too often: every minute at most")
    return seconds


def jobs(every: str = "15m", backup: str | None = None) -> list[Job]:
    found = [Job("index", parse_every(every))]
    if backup:
        if backup not in BACKUP_EVERY:
            raise ValueError(f"--backup {backup}: one of {', '.join(BACKUP_EVERY)}")
        found.append(Job("backup", BACKUP_EVERY[backup]))
    return found


def command(job: Job, python: str = sys.executable) -> list[str]:
    return [python, "-m", "pica", job.name]


def _systemd_quote(word: str) -> str:
    return f'"{word}"' if re.search(r'[\s"\\]', word) else word


def systemd_units(found: list[Job], home: Path, python: str = sys.executable) -> dict[str, str]:
    units = {}
    for job in found:
        exec_start = " ".join(_systemd_quote(w) for w in command(job, python))
        units[f"pica-{job.name}.service"] = SERVICE.substitute(
            what=job.what, home=_systemd_quote(str(home)), command=exec_start
        )
        if job.name == "backup":
            calendar = {3600: "hourly", 86400: "daily", 7 * 86400: "weekly"}[job.seconds]
            trigger, when = f"OnCalendar={calendar}", calendar
        else:
            trigger = f"OnBootSec=2min\nOnUnitActiveSec={job.seconds}s"
            when = f"every {job.seconds // 60} min"
        units[f"pica-{job.name}.timer"] = TIMER.substitute(
            what=job.what, when=when, trigger=trigger, job=job.name
        )
    return units


def launchd_plists(found: list[Job], home: Path, python: str = sys.executable) -> dict[str, bytes]:
    plists = {}
    logs = home / "logs"
    for job in found:
        label = f"org.pica.{job.name}"
        agent = {
            "Label": label,
            "ProgramArguments": command(job, python),
            "EnvironmentVariables": {"PICA_HOME": str(home)},
            "StartInterval": job.seconds,
            "RunAtLoad": job.name == "index",
            "ProcessType": "Background",
            "LowPriorityIO": True,
            "StandardOutPath": str(logs / f"{job.name}.log"),
            "StandardErrorPath": str(logs / f"{job.name}.log"),
        }
        plists[f"{label}.plist"] = plistlib.dumps(agent)
    return plists


def task_xml(found: list[Job], home: Path, python: str = sys.executable) -> dict[str, str]:
    tasks = {}
    for job in found:
        program, *arguments = command(job, python)
        tasks[f"pica-{job.name}.xml"] = TASK.substitute(
            what=escape(job.what),
            job=job.name,
            interval=_iso_duration(job.seconds),
            program=escape(program),
            arguments=escape(" ".join(f'"{a}"' if " " in a else a for a in arguments)),
        )
    return tasks


def _iso_duration(seconds: int) -> str:
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    time = (f"{hours}H" if hours else "") + (f"{minutes}M" if minutes else "")
    return "P" + (f"{days}D" if days else "") + (f"T{time}" if time else "")


# -- installing ----------------------------------------------------------------------------------


def platform_name() -> str:
    return {"darwin": "macos", "win32": "windows"}.get(sys.platform, "linux")


def unit_folder(platform: str) -> Path:
    if platform == "linux":
        config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
        return Path(config) / "systemd" / "user"
    if platform == "macos":
        return Path.home() / "Library" / "LaunchAgents"
    return Path(os.environ.get("LOCALAPPDATA") or Path.home()) / "pica" / "tasks"


def files_for(platform: str, found: list[Job], home: Path, python: str = sys.executable) -> dict[str, bytes]:
    if platform == "linux":
        return {n: t.encode() for n, t in systemd_units(found, home, python).items()}
    if platform == "macos":
        return launchd_plists(found, home, python)
    return {n: t.encode("utf-16") for n, t in task_xml(found, home, python).items()}


def systemd_user_session() -> str:
    """'' when `systemctl --user` can reach a user manager here, else why not."""
    if not shutil.which("systemctl"):
        return "systemctl is not installed"
    runtime = os.environ.get("XDG_RUNTIME_DIR") or f"/run/user/{os.getuid()}"
    if not Path("/run/systemd/system").is_dir():
        return "this system was not booted with systemd (no /run/systemd/system)"
    if not Path(runtime, "systemd").is_dir():
        return f"no systemd user session ({runtime}/systemd is missing; log in, or `loginctl enable-linger`)"
    return ""


def activation(platform: str, folder: Path, names: list[str], enable: bool) -> list[list[str]]:
    """The commands that (de)activate the written files with the platform's scheduler."""
    if platform == "linux":
        timers = [n for n in names if n.endswith(".timer")]
        verb = ["enable", "--now"] if enable else ["disable", "--now"]
        return [["systemctl", "--user", "daemon-reload"], ["systemctl", "--user", *verb, *timers]]
    if platform == "macos":
        return [["launchctl", "load" if enable else "unload", "-w", str(folder / n)] for n in names]
    if enable:
        return [
            ["schtasks", "/Create", "/F", "/TN", f"Pica\\{Path(n).stem}", "/XML", str(folder / n)]
            for n in names
        ]
    return [["schtasks", "/Delete", "/F", "/TN", f"Pica\\{Path(n).stem}"] for n in names]


def known_names(platform: str) -> list[str]:
    if platform == "linux":
        return [f"pica-{j}.{kind}" for j in JOBS for kind in ("service", "timer")]
    if platform == "macos":
        return [f"org.pica.{j}.plist" for j in JOBS]
    return [f"pica-{j}.xml" for j in JOBS]
