"""`pica schedule`: the units for all three platforms, each checked by the validator there is here
(systemd-analyze verify, plistlib, an XML parser), and installed for real only where a systemd
user session exists."""

from __future__ import annotations

import plistlib
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from pica import schedule
from pica.cli import main

HOME = Path("/home/ana/.pica")
PYTHON = "/usr/bin/python3"
JOBS = schedule.jobs("15m", "daily")


def test_durations():
    assert [schedule.parse_every(t) for t in ("15m", "1h", "90s", "2d", "30")] == [
        900,
        3600,
        90,
        172800,
        1800,
    ]
    for bad in ("10s", "soon", "-5m"):
        with pytest.raises(ValueError):
            schedule.parse_every(bad)
    assert schedule._iso_duration(900) == "PT15M" and schedule._iso_duration(86400) == "P1D"


def test_systemd_units_pass_systemd_analyze_verify(tmp_path, monkeypatch):
    units = schedule.systemd_units(JOBS, tmp_path / "pica home", PYTHON)
    assert set(units) == {
        "pica-index.service",
        "pica-index.timer",
        "pica-backup.service",
        "pica-backup.timer",
    }
    assert "OnUnitActiveSec=900s" in units["pica-index.timer"]
    assert "OnCalendar=daily" in units["pica-backup.timer"]
    assert f'Environment=PICA_HOME="{tmp_path / "pica home"}"' in units["pica-index.service"]
    assert f"ExecStart={PYTHON} -m pica index" in units["pica-index.service"]
    if not shutil.which("systemd-analyze"):
        pytest.skip("systemd-analyze is not installed here")
    units = schedule.systemd_units(JOBS, tmp_path / "pica home", sys.executable)  # one that exists
    for name, text in units.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "runtime").mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "runtime"))  # --user wants one, even to verify
    done = subprocess.run(
        ["systemd-analyze", "verify", "--user", *(str(tmp_path / n) for n in units)],
        capture_output=True,
        text=True,
    )
    problems = [line for line in done.stderr.splitlines() if "pica-" in line]  # it warns with exit 0
    assert done.returncode == 0 and not problems, done.stderr
    broken = tmp_path / "pica-index.service"  # and the check does catch a bad unit
    broken.write_text(units["pica-index.service"].replace("Type=oneshot", "Type=sometimes"))
    done = subprocess.run(
        ["systemd-analyze", "verify", "--user", str(broken)], capture_output=True, text=True
    )
    assert "Failed to parse service type" in done.stderr


def test_launchd_plists_round_trip():
    plists = schedule.launchd_plists(JOBS, HOME, PYTHON)
    index = plistlib.loads(plists["org.pica.index.plist"])
    assert index["Label"] == "org.pica.index" and index["StartInterval"] == 900
    assert index["ProgramArguments"] == [PYTHON, "-m", "pica", "index"]
    assert index["EnvironmentVariables"] == {"PICA_HOME": str(HOME)}
    assert plistlib.loads(plists["org.pica.backup.plist"])["StartInterval"] == 86400
    for data in plists.values():
        assert plistlib.dumps(plistlib.loads(data)) == data


def test_task_scheduler_xml_is_well_formed():
    namespace = {"t": "http://schemas.microsoft.com/windows/2004/02/mit/task"}
    files = schedule.files_for("windows", JOBS, HOME, "C:\\Program Files\\Python\\python.exe")
    for name, data in files.items():
        root = ET.fromstring(data.decode("utf-16").split("?>", 1)[1])  # the declaration says UTF-16
        assert root.tag == "{" + namespace["t"] + "}Task"
        assert (
            root.find("t:Actions/t:Exec/t:Command", namespace).text == "C:\\Program Files\\Python\\python.exe"
        )
        interval = root.find("t:Triggers/t:TimeTrigger/t:Repetition/t:Interval", namespace).text
        assert interval == ("PT15M" if "index" in name else "P1D")
    # The Task Scheduler schema (task.xsd) ships with Windows SDKs only: not checked against here.


def test_install_status_remove_in_a_folder(tmp_path, pica_home):
    runner = CliRunner()
    folder = tmp_path / "units"
    done = runner.invoke(
        main, ["schedule", "install", "--every", "30m", "--backup", "daily", "--dir", str(folder)]
    )
    assert done.exit_code == 0, done.output
    assert "not enabled: --dir or --platform given" in done.output
    assert sorted(p.name for p in folder.iterdir()) == sorted(schedule.known_names("linux"))
    assert "pica-index.timer" in runner.invoke(main, ["schedule", "status", "--dir", str(folder)]).output
    printed = runner.invoke(main, ["schedule", "install", "--platform", "macos", "--print"]).output
    assert "<key>StartInterval</key>" in printed
    assert "every minute at most" in runner.invoke(main, ["schedule", "install", "--every", "5s"]).output
    done = runner.invoke(main, ["schedule", "remove", "--dir", str(folder)])
    assert done.exit_code == 0 and not list(folder.iterdir())


def test_install_for_real_where_a_systemd_user_session_exists(tmp_path, pica_home, monkeypatch):
    why = schedule.systemd_user_session()
    if why or schedule.platform_name() != "linux":
        pytest.skip(f"no real install here: {why or 'not Linux'}")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    runner = CliRunner()
    done = runner.invoke(main, ["schedule", "install", "--every", "15m"])
    assert done.exit_code == 0 and "enabled" in done.output, done.output
    assert "pica-index.timer" in runner.invoke(main, ["schedule", "status"]).output
    assert runner.invoke(main, ["schedule", "remove"]).exit_code == 0
