"""A release a stranger can run (issue 33): `python -m build` makes an sdist and, from it, a wheel;
the wheel installs in a new venv beside requirements/runtime.txt (locked, with hashes, nothing else),
and its `bluegray serve`, started in an empty folder on its embedded store, answers /healthz and plays
a game. These are the Dockerfile's steps, run here because no docker engine runs on this machine."""

from __future__ import annotations

import asyncio
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import aiohttp
import pytest
from apiharness import WsClient, new_game, play_steps

ROOT = Path(__file__).resolve().parents[2]
PATIENCE = 60


def run(*command: str | Path, cwd: Path) -> str:
    done = subprocess.run([str(c) for c in command], cwd=cwd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{command} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def release(tmp_path_factory) -> tuple[Path, Path]:
    """The sdist and the wheel built from it, as `python -m build` makes them."""
    dist = tmp_path_factory.mktemp("dist")
    run(sys.executable, "-m", "build", "--no-isolation", "--outdir", dist, ROOT, cwd=ROOT)
    sdists, wheels = sorted(dist.glob("*.tar.gz")), sorted(dist.glob("*.whl"))
    assert len(sdists) == 1 and len(wheels) == 1, sorted(dist.iterdir())
    return sdists[0], wheels[0]


def test_the_sdist_and_the_wheel_carry_the_battles_the_client_and_the_store_scripts(release):
    sdist, wheel = release
    with tarfile.open(sdist) as tar:
        in_sdist = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    in_wheel = set(zipfile.ZipFile(wheel).namelist())
    battles = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "scenarios").glob("*/scenario.toml"))
    scripts = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "eventstore").glob("*.lua"))
    client = sorted(
        p.relative_to(ROOT).as_posix() for p in (ROOT / "api" / "static").rglob("*") if p.is_file()
    )
    # Every module of every package, session/ and bench/ (the `bluegray bench` command) too.
    modules = sorted(
        p.relative_to(ROOT).as_posix()
        for init in ROOT.glob("*/__init__.py")
        if init.parent.name != "tests"
        for p in init.parent.rglob("*.py")
    )
    assert {"session/history.py", "bench/commands/loadtest.py"} <= set(modules)
    assert len(battles) >= 11 and scripts and client
    for name in [*battles, *scripts, *client, *modules]:
        assert name in in_sdist, f"the sdist lacks {name}"
        assert name in in_wheel, f"the wheel lacks {name}"
    assert not any(name.startswith("tests/") for name in in_wheel)


@pytest.mark.slow
async def test_the_wheel_in_a_new_venv_serves_a_game_from_an_empty_folder(release, tmp_path):
    _, wheel = release
    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", venv, cwd=tmp_path)
    python = venv / "bin" / "python"
    run(
        python,
        "-m",
        "pip",
        "install",
        "--quiet",
        "--require-hashes",
        "-r",
        ROOT / "requirements" / "runtime.txt",
        cwd=tmp_path,
    )
    run(python, "-m", "pip", "install", "--quiet", "--no-deps", wheel, cwd=tmp_path)
    run(python, "-m", "pip", "check", cwd=tmp_path)
    empty = tmp_path / "empty"
    empty.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    # The installed package is the one that runs, not the checkout.
    where = run(
        python, "-c", "import api, bench, rules, scenarios, session; print(api.__file__, scenarios.__file__, bench.__file__)", cwd=empty
    )
    assert all(str(venv) in path for path in where.split()), where

    process = await asyncio.create_subprocess_exec(
        venv / "bin" / "bluegray",
        "serve",
        "--port",
        "0",
        "--log-level",
        "WARNING",
        cwd=empty,
        env=env,
        stdout=asyncio.subprocess.PIPE,
    )
    try:
        line = (await asyncio.wait_for(process.stdout.readline(), PATIENCE)).decode()
        assert line.startswith("bluegray serving on http://"), line
        async with aiohttp.ClientSession(base_url=line.split()[3]) as server:
            async with server.get("/healthz") as health:
                assert health.status == 200, await health.text()
            game, joined = await new_game(server)
            union = await WsClient(server, game["game_id"], game["token"]).connect()
            confederate = await WsClient(server, game["game_id"], joined["token"]).connect()
            assert await play_steps(union, confederate, random.Random(7), 30) == 30
            assert union.events == confederate.events and len(union.events) >= 30
        process.send_signal(signal.SIGINT)
        assert await asyncio.wait_for(process.wait(), PATIENCE) == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    # The embedded store kept its append-only file in the empty folder's ./var.
    assert list((empty / "var").rglob("*.aof")), sorted(p.name for p in (empty / "var").rglob("*"))


def test_the_dockerfile_installs_only_the_locked_runtime_and_runs_unprivileged_with_a_health_check():
    dockerfile = (ROOT / "Dockerfile").read_text()
    for source in re.findall(r"^COPY (?!--from)(\S+)", dockerfile, re.M):
        assert (ROOT / source).exists(), f"the Dockerfile copies {source}, which does not exist"
    installs = re.findall(r"pip install [^&\n]*", dockerfile)
    assert installs and all("--require-hashes" in i or "--no-deps" in i for i in installs), installs
    assert re.search(r"^USER bluegray$", dockerfile, re.M) and "--uid 10001" in dockerfile
    assert re.search(r"^VOLUME /data$", dockerfile, re.M)
    assert re.search(r"^HEALTHCHECK .*\n.*/healthz", dockerfile, re.M)


def test_compose_sets_only_options_serve_has():
    compose = (ROOT / "compose.yaml").read_text()
    named = set(re.findall(r"^\s+(BLUEGRAY_[A-Z_]+):", compose, re.M))
    help_text = " ".join(run(sys.executable, "-m", "api", "serve", "--help", cwd=ROOT).split())
    assert named and all(f"[env {name}]" in help_text for name in named), (named, help_text)
    store = (ROOT / "docker" / "store.Dockerfile").read_text()
    for setting in (
        "--appendonly yes",
        "--appendfsync always",
        "--maxmemory-policy noeviction",
        "--requirepass",
    ):
        assert setting in store, setting


@pytest.mark.skipif(shutil.which("haproxy") is None, reason="haproxy is not installed (.ci/run installs it)")
def test_the_compose_balancer_configuration_is_valid():
    run("haproxy", "-c", "-f", ROOT / "docker" / "haproxy.cfg", cwd=ROOT)
