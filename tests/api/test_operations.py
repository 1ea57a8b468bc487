"""What an operator configures and reads (issue 33): every `serve` option by a BLUEGRAY_* variable,
and the JSON log: one object a line, an action's game, seat, command id and outcome, never a token."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys

import aiohttp
from apiharness import PATIENCE, WsClient, new_game

from api.cli import build_parser
from api.protocol import Ack


def serve_options() -> list:
    parser = build_parser()
    serve = next(a for a in parser._subparsers._group_actions[0].choices.items() if a[0] == "serve")[1]
    return [a for a in serve._actions if a.option_strings and a.dest != "help"]


def test_every_serve_option_names_its_environment_variable():
    for action in serve_options():
        assert f"[env BLUEGRAY_{action.dest.upper()}]" in action.help, action.dest


async def test_the_json_log_names_each_action_and_never_a_token(tmp_path):
    env = {**os.environ, "BLUEGRAY_LOG_FORMAT": "json", "BLUEGRAY_LOG_LEVEL": "INFO", "BLUEGRAY_PORT": "0",
           "BLUEGRAY_DATA_DIR": str(tmp_path / "data")}  # fmt: skip
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "api", "serve", env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    try:
        line = (await asyncio.wait_for(process.stdout.readline(), PATIENCE)).decode()
        assert line.startswith("bluegray serving on http://"), line
        async with aiohttp.ClientSession(base_url=line.split()[3]) as http:
            game, joined = await new_game(http)
            union = await WsClient(http, game["game_id"], game["token"]).connect()
            assert isinstance(await union.act("chat", command_id="said-hello", text="hello"), Ack)
            await union.close()
        process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(process.wait(), PATIENCE) == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    log = (await process.stderr.read()).decode()
    lines = [json.loads(line) for line in log.splitlines()]  # every line is one JSON object
    assert all({"time", "level", "logger", "message"} <= set(entry) for entry in lines)
    action = next(entry for entry in lines if entry.get("command_id") == "said-hello")
    assert action["game"] == game["game_id"] and action["seat"] == "union" and action["outcome"] == "ok"
    assert game["token"] not in log and joined["token"] not in log and game["invite"] not in log


def test_a_bad_environment_value_is_refused_naming_the_variable(tmp_path):
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "api", "serve"],
        env={**os.environ, "BLUEGRAY_LOG_FORMAT": "yaml"},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=PATIENCE,
    )
    assert done.returncode == 1
    assert done.stderr.strip() == "bluegray serve: BLUEGRAY_LOG_FORMAT='yaml': not one of text, json"
