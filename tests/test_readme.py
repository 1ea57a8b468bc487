"""Every command of the README, run as printed: the quick start's install and test commands are the
ones .ci/run runs on a fresh clone; `bluegray serve` and every line of the Commands list run here, in
an empty folder, beside the server, on a game the README's Python example played."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
SHELL_BLOCKS = re.findall(r"```sh\n(.*?)```", README, re.S)


def commands(block: str) -> list[str]:
    """The commands of a shell block, comments dropped."""
    lines = (line.split("  #")[0].strip() for line in block.splitlines())
    return [line for line in lines if line]


def quick_start() -> list[str]:
    start = README.index("## Quick start")
    end = README.index("\n## ", start + 1)
    return [c for block in re.findall(r"```sh\n(.*?)```", README[start:end], re.S) for c in commands(block)]


def listed_commands() -> list[str]:
    start = README.index("## Commands")
    return commands(re.search(r"```sh\n(.*?)```", README[start:], re.S).group(1))


def test_every_shell_block_is_the_quick_start_or_the_command_list():
    everything = [c for block in SHELL_BLOCKS for c in commands(block)]
    assert everything == quick_start() + listed_commands()


def test_the_quick_start_is_what_ci_runs():
    ci = (ROOT / ".ci" / "run").read_text()
    venv, activate, lock, install, serve, tests = quick_start()
    assert venv.startswith("python3 -m venv ") and "python3 -m venv " in ci
    assert (
        activate.startswith(". ")
        and activate.endswith("/bin/activate")
        and 'source "$venv/bin/activate"' in ci
    )
    assert lock == "pip install --require-hashes -r requirements/lock.txt"
    assert "python -m pip install --quiet --require-hashes -r requirements/lock.txt" in ci
    assert install == "pip install --no-deps --no-build-isolation -e ."
    assert "python -m pip install --quiet --no-deps --no-build-isolation -e ." in ci
    assert not re.search(r"pip install(?! --quiet --require-hashes -r requirements/lock.txt| --quiet --no-deps)", ci)
    assert serve == "bluegray serve"
    assert tests == "python -m pytest -q" and re.search(r"^python -m pytest -q$", ci, re.M)


def bluegray_env() -> dict:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"  # this venv's `bluegray`
    return env


@pytest.fixture
def served(tmp_path):
    """`bluegray serve` as the README runs it, in an empty folder (on a free port: 8080 may be taken)."""
    assert "bluegray serve" in quick_start()
    server = subprocess.Popen(
        ["bluegray", "serve", "--port", "0", "--log-level", "WARNING"],
        cwd=tmp_path,
        env=bluegray_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = server.stdout.readline()
        assert line.startswith("bluegray serving on http://"), line + server.stderr.read()
        yield line.split()[3]
    finally:
        server.send_signal(signal.SIGINT)
        assert server.wait(30) == 0
        assert "Traceback" not in server.stderr.read()


def test_every_listed_command_runs_beside_the_server(served, tmp_path):
    # The README's Python example plays a game on the server: the game the commands below work on.
    example = re.search(r"```python\n(.*?)```", README, re.S).group(1)
    script = tmp_path / "example.py"
    script.write_text(example.replace('url="http://127.0.0.1:8080"', f'url="{served}"'))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.splitlines()[-1].startswith("ack"), done.stdout + done.stderr
    with urllib.request.urlopen(f"{served}/api/games") as answer:
        (game,) = json.load(answer)["games"]

    try:
        for command in listed_commands():
            if command == "bluegray serve":
                continue  # running: the fixture started it as the README says
            if command.startswith("bluegray computer "):
                continue  # it plays a free seat to the game's end: tests/api/test_computer.py runs it
            if command.startswith("bluegray bot "):
                continue  # it needs a bot account's token and plays to the end: tests/api/test_bots.py
            if command.startswith("bluegray soak "):
                continue  # it runs for the hour it is given: tests/api/test_soak.py runs a short one
            line = command.replace("GAME_ID", game["game_id"])
            done = subprocess.run(
                line, shell=True, cwd=tmp_path, env=bluegray_env(), capture_output=True, text=True, timeout=120
            )
            assert done.returncode == 0, f"{line}: {done.stdout}{done.stderr}"
            assert "Traceback" not in done.stderr, line
    finally:  # `bluegray cluster up` leaves its nodes running, as it says: stop them
        if (tmp_path / "var" / "cluster" / "cluster.json").exists():
            down = "bluegray cluster down --data-dir var/cluster"
            done = subprocess.run(down, shell=True, cwd=tmp_path, env=bluegray_env(), capture_output=True, text=True)
            assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "game.jsonl").stat().st_size > 0 and (tmp_path / "report.html").exists()
