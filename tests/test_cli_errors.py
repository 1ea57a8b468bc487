"""Every `bluegray` subcommand given bad input answers with one line naming the problem on stderr and
exit status 1, never a traceback: bad files, stores out of reach, unusable data directories, values
out of range, unknown names. Each case runs `python -m api` in an empty folder, as a user would."""

from __future__ import annotations

import os
import random
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from api.cli import command_modules
from scenarios.loader import list_scenarios

ROOT = Path(__file__).resolve().parents[1]
UNREACHABLE = "redis://127.0.0.1:1/0"  # port 1: nothing listens there
NO_SERVER = "http://127.0.0.1:1"

# (arguments, what the one line must say). In an empty folder holding not.jsonl (not JSON),
# empty.jsonl (empty), shape.jsonl (JSON, not an event), game.jsonl (a game's sound log), gap.jsonl
# (it without version 6), tampered.jsonl (version 11 changed), a_file (for --data-dir) and a_dir/.
CASES = [
    (["verify", "not.jsonl"], "not.jsonl is not an exported game log"),
    (["verify", "empty.jsonl"], "empty.jsonl is empty"),
    (["verify", "shape.jsonl"], "shape.jsonl is not an exported game log"),
    (["verify", "missing.jsonl"], "no file missing.jsonl"),
    (["verify", "a_dir"], "a_dir is a directory"),
    (["verify", "abcdefGHIJ12"], "no store in {tmp}/var"),
    (["verify", "abcdefGHIJ12", "--redis-url", UNREACHABLE], f"cannot reach a Redis server at {UNREACHABLE}"),
    (["verify", "abcdefGHIJ12", "--redis-url", "not-a-url"], "--redis-url not-a-url"),
    (["verify", "gap.jsonl", "--json"], None),  # verify reports a break: its JSON report on stdout
    (["report", "not.jsonl"], "not.jsonl is not an exported game log"),
    (["report", "gap.jsonl"], "gap.jsonl is broken: version 7 where 6 was expected"),
    (["report", "game.jsonl", "--html", "a_file/report.html"], "cannot write a_file/report.html"),
    (["report", "empty.jsonl"], "empty.jsonl is empty"),
    (["report", "abcdefGHIJ12"], "no store in {tmp}/var"),
    (["report", "abcdefGHIJ12", "--to", "0"], "argument --to: 0 is less than 1"),
    (["replay", "not.jsonl"], "not.jsonl is not an exported game log"),
    (["replay", "empty.jsonl"], "empty.jsonl is empty"),
    (
        ["replay", "tampered.jsonl"],
        "tampered.jsonl is broken: version 11: its hash does not match its contents",
    ),
    (["replay", "game.jsonl", "--to", "9999"], "--to 9999: game cli-errors has versions 1 to"),
    (["replay", "abcdefGHIJ12"], "no store in {tmp}/var"),
    (["replay", "abcdefGHIJ12", "--to", "0"], "argument --to: 0 is less than 1"),
    (["replay", "abcdefGHIJ12", "--redis-url", UNREACHABLE], "cannot reach a Redis server"),
    (["export", "not.jsonl", "--text"], "not.jsonl is not an exported game log"),
    (["export", "abcdefGHIJ12"], "no store in {tmp}/var"),
    (["export", "gap.jsonl", "--text"], "gap.jsonl is broken"),
    (["export", "abcdefGHIJ12", "--to", "-3"], "argument --to: -3 is less than 1"),
    (["import", "not.jsonl"], "not.jsonl is not an exported game log"),
    (["import", "empty.jsonl"], "empty.jsonl is empty"),
    (["import", "missing.jsonl"], "cannot read missing.jsonl: No such file or directory"),
    (["import", "a_dir"], "cannot read a_dir"),
    (["import", "gap.jsonl", "--data-dir", "a_file"], "refused gap.jsonl: version 7 where 6 was expected"),
    (["serve", "--port", "99999"], "argument --port: 99999 is not a port"),
    (["serve", "--port", "http"], "argument --port: 'http' is not a whole number"),
    (["serve", "--redis-url", UNREACHABLE], f"cannot reach a Redis server at {UNREACHABLE}"),
    (["serve", "--data-dir", "a_file"], "--data-dir a_file: not a directory"),
    (["serve", "--data-dir", "{readonly}", "--port", "0"], "cannot keep the store there"),
    (["serve", "--log-level", "chatty"], "argument --log-level: invalid choice: 'CHATTY'"),
    (["serve", "--fsync", "sometimes"], "argument --fsync: invalid choice: 'sometimes'"),
    (["serve", "--data-dir", "served", "--host", "256.0.0.1", "--port", "0"], "cannot listen on 256.0.0.1:0"),
    (["serve", "--data-dir", "served", "--port", "{busy}"], "cannot listen on 127.0.0.1:{busy}"),
    (["selfplay", "no-such-battle"], "no-such-battle: scenario: no such scenario"),
    (["selfplay", "chattanooga", "--games", "-1"], "argument --games: -1 is less than 1"),
    (["selfplay", "chattanooga", "--games", "0"], "argument --games: 0 is less than 1"),
    (["selfplay", "chattanooga", "--seed", "x"], "argument --seed: 'x' is not a whole number"),
    (["selfplay", "chattanooga", "--option", "fog_of_war"], "--option fog_of_war: no option 'fog_of_war'"),
    (["selfplay", "chattanooga", "--option", "auto_single_choice=perhaps"], "'perhaps' is neither on"),
    (["selfplay", "chattanooga", "--ruleset", "1863"], "--ruleset 1863: unknown rule set '1863'"),
    (["selfplay", "chattanooga", "--players", "clever"], "argument --players: invalid choice: 'clever'"),
    (["arena", "engine", "nobody"], "no player 'nobody' (known: random, greedy, engine"),
    (["arena", "engine:grandmaster", "random"], "no level 'grandmaster' (known: easy, normal, hard, expert)"),
    (["arena", "engine", "random", "--games", "0"], "argument --games: 0 is less than 1"),
    (["arena", "engine", "random", "--scenario", "no-such-battle"], "no-such-battle: scenario: no such scenario"),
    (["arena", "engine", "random", "--ruleset", "1863"], "--ruleset 1863: unknown rule set '1863'"),
    (["arena", "engine"], "give two players, A and its opponent (got 1; more need --round-robin)"),
    (["arena", "random", "greedy", "engine"], "give two players, A and its opponent (got 3"),
    (["arena", "random", "greedy", "--paired", "--side", "union"], "--paired plays both sides of each pair"),
    (["arena", "random", "random", "--round-robin"], "--round-robin: give two or more different players"),
    (["admin"], "the following arguments are required: ACTION"),
    (["admin", "grant"], "the following arguments are required: NAME"),
    (["backup"], "the following arguments are required: FILE"),
    (["restore", "no-such.backup"], "cannot read no-such.backup"),
    (["upgrade-check", "--redis-url", "redis://127.0.0.1:1"], "cannot reach a Redis server at redis://127.0.0.1:1"),
    (["computer", "--game", "g1"], "one of the arguments --invite --token is required"),
    (["bot"], "--token: a bot's API token (bgb_...) is needed"),
    (["bot", "--token", "bgb_x.y", "--level", "grandmaster"], "--level grandmaster: no such level"),
    (["bot", "--token", "bgb_x.y", "--url", "http://127.0.0.1:1"], "cannot reach the server at"),
    (["bot", "--token", "bgb_x.y", "--games", "0"], "--games"),
    (["computer", "--game", "g1", "--invite", "i", "--level", "grandmaster"], "--level grandmaster: no such level"),
    (["computer", "--game", "g1", "--invite", "i", "--url", "http://127.0.0.1:1"], "cannot reach the server at"),
    (["computer", "--game", "g1", "--invite", "i", "--url", UNREACHABLE], "a server's address is http://HOST:PORT"),
    (["scenario"], "the following arguments are required: ACTION"),
    (["scenario", "show", "no-such-battle"], "no-such-battle: scenario: no such scenario"),
    (["scenario", "render", "no-such-battle"], "no-such-battle: scenario: no such scenario"),
    (["scenario", "render", "chattanooga", "-o", "a_file/map.svg"], "cannot write a_file/map.svg"),
    (["scenario", "explode", "chattanooga"], "argument ACTION: invalid choice: 'explode'"),
    (["bench"], "the following arguments are required: BENCHMARK"),
    (["bench", "disk"], "argument BENCHMARK: invalid choice: 'disk'"),
    (["bench", "rules", "--rounds", "0"], "argument --rounds: 0 is less than 1"),
    (["bench", "rules", "--ruleset", "1863"], "argument --ruleset: invalid choice: '1863'"),
    (["bench", "rules", "--scenario", "no-such-battle"], "no-such-battle: scenario: no such scenario"),
    (["bench", "store", "--events", "0"], "argument --events: 0 is less than 10"),
    (["bench", "replay", "--samples", "0"], "argument --samples: 0 is less than 1"),
    (["loadtest", "--games", "0"], "argument --games: 0 is less than 1"),
    (["loadtest", "--duration", "0"], "argument --duration: 0 is not above 0"),
    (["loadtest", "--think", "-1"], "argument --think: -1 is below 0"),
    (["loadtest", "--url", "http://example.com"], "loadtest talks to servers on this machine only"),
    (["loadtest", "--url", NO_SERVER, "--duration", "1"], f"--url {NO_SERVER}: no game server answers there"),
    (["soak", "--minutes", "0"], "argument --minutes: 0 is not above 0"),
    (["soak", "--games", "0"], "argument --games: 0 is less than 1"),
    (["soak", "--max-growth", "-1"], "argument --max-growth: -1 is below 0"),
    (["cluster"], "the following arguments are required: action"),
    (["cluster", "explode"], "argument action: invalid choice: 'explode'"),
    (["cluster", "down"], "no cluster in {tmp}/var/cluster"),
    (["cluster", "up", "--port", "99999"], "argument --port: 99999 is not a port"),
    (["serve", "--ack-replicas", "-1"], "argument --ack-replicas: -1 is less than 0"),
    (["serve", "--redis-url", "redis+cluster://127.0.0.1:1"], "cannot reach any node of the cluster"),
    (["serve", "--redis-url", "redis+cluster://nohostport"], "a cluster URL names nodes as host:port"),
    (["no-such-command"], "argument COMMAND: invalid choice: 'no-such-command'"),
]

# Commands that only read: run with a game id where there is no store, they create none.
READERS = {"verify", "report", "replay", "export"}


def test_every_subcommand_has_bad_input_cases():
    assert {m.NAME for m in command_modules()} <= {argv[0] for argv, _ in CASES}


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("cli-errors")
    (tmp / "not.jsonl").write_text("this is not JSON\n")
    (tmp / "empty.jsonl").write_text("")
    (tmp / "shape.jsonl").write_text('{"game": "chattanooga"}\n')
    lines = game_log()
    (tmp / "game.jsonl").write_bytes(b"".join(lines))
    (tmp / "gap.jsonl").write_bytes(b"".join(lines[:5] + lines[6:]))
    tampered = lines[10].replace(b'"time":', b'"time":1')
    (tmp / "tampered.jsonl").write_bytes(b"".join(lines[:10] + [tampered] + lines[11:]))
    (tmp / "a_file").write_text("a file, not a directory\n")
    (tmp / "a_dir").mkdir()
    return tmp


def game_log() -> list[bytes]:
    """The exported lines of a game of 40 random commands (tests/replay/replaylog.py plays it)."""
    sys.path.insert(0, str(ROOT / "tests" / "replay"))
    try:
        from replaylog import Book
    finally:
        sys.path.remove(str(ROOT / "tests" / "replay"))
    from replay import export

    book = Book("cli-errors")
    book.play_random(random.Random(1), 40)
    return export.dumps(book.envelopes).splitlines(keepends=True)


def readonly(tmp: Path) -> str:
    """A directory this process may not write in (root writes anywhere but in sysfs)."""
    if os.geteuid() == 0:
        return "/sys/bluegray-data"
    path = tmp / "read-only"
    path.mkdir(exist_ok=True)
    path.chmod(0o555)
    return str(path / "var")


def bluegray(argv: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # the tree under test, whatever is installed
    return subprocess.run(
        [sys.executable, "-m", "api", *argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(("argv", "says"), CASES, ids=[" ".join(argv) for argv, _ in CASES])
def test_bad_input_is_one_line_and_exit_status_1(folder, argv, says):
    with socket.socket() as busy:  # a port something else listens on
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        values = {"tmp": str(folder), "readonly": readonly(folder), "busy": str(busy.getsockname()[1])}
        argv = [a.format(**values) for a in argv]
        began = time.monotonic()
        done = bluegray(argv, folder)
        took = time.monotonic() - began
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    assert done.returncode == 1, (done.returncode, done.stderr)
    if says is None:  # the command's own report of the problem, on stdout
        assert done.stderr == "" and done.stdout
        return
    says = says.format(**values)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("bluegray"), lines[0]
    assert says in lines[0], lines[0]
    assert "listen" not in lines[0] or "cannot listen" in says  # a bad --data-dir never blames the port
    if argv[0] == "scenario":
        assert done.stdout == ""  # never an error inside the SVG or JSON a user redirects
    if UNREACHABLE in argv or NO_SERVER in argv:
        assert took < 10, f"{took:.1f} s to say a server is out of reach"
    if argv[0] in READERS:
        assert not (folder / "var").exists(), "a command that only reads created a store"


def test_validate_lists_every_problem_and_counts_them_on_stderr(tmp_path):
    done = bluegray(["scenario", "validate", "no-such-battle"], tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    known = ", ".join(sid for sid, _ in list_scenarios())  # every battle that ships
    assert done.stdout.strip().endswith(f"no such scenario or folder (known: {known})")
    assert done.stderr.strip() == "1 problem"
