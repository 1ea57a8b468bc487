"""eventstore.supervisor: an embedded server that dies is started again on the same data, with
backoff while it cannot start; each event is logged."""

import os
import signal
import threading

import redis

from eventstore.supervisor import Supervisor

PATIENCE = 60  # seconds: a guard against hanging forever, never a measure of speed


def wait_for(condition, what: str) -> None:
    done = threading.Event()
    for _ in range(int(PATIENCE / 0.02)):
        if condition():
            return
        done.wait(0.02)
    raise AssertionError(f"never: {what}")


def answering_pid(server) -> int | None:
    client = redis.Redis.from_url(server.url, socket_timeout=2)
    try:
        return int(client.info("server")["process_id"])
    except (redis.RedisError, OSError):
        return None
    finally:
        client.close()


def test_a_killed_server_is_restarted_on_the_same_data(private_redis, caplog):
    server = private_redis()
    client = redis.Redis.from_url(server.url)
    client.set("kept", "yes")
    client.close()
    with caplog.at_level("WARNING", logger="eventstore.supervisor"), Supervisor(server) as supervisor:
        for n in (1, 2, 3):
            dead = server.pid
            os.kill(dead, signal.SIGKILL)
            wait_for(lambda dead=dead: answering_pid(server) not in (None, dead), "a new server answers")
            wait_for(lambda n=n: supervisor.restarts == n, f"restart {n} counted")
            assert redis.Redis.from_url(server.url).get("kept") == b"yes"
    assert caplog.text.count("is gone (exit status -9)") == 3
    assert caplog.text.count("the embedded store server is back") == 3


def test_a_server_that_cannot_start_is_tried_again_with_backoff(private_redis, caplog, tmp_path):
    server = private_redis()
    binary = server.binary
    server.binary = str(tmp_path / "no-such-server")  # every start fails until it is put back
    with (
        caplog.at_level("WARNING", logger="eventstore.supervisor"),
        Supervisor(server, max_backoff=0.4) as supervisor,
    ):
        os.kill(server.pid, signal.SIGKILL)
        wait_for(lambda: caplog.text.count("did not start") >= 3, "three failed starts")
        server.binary = binary
        wait_for(lambda: supervisor.restarts == 1, "the server is back")
    assert answering_pid(server) == server.pid
    waits = [
        float(line.rsplit("again in ", 1)[1].rstrip("s"))
        for line in caplog.text.splitlines()
        if "again in" in line
    ]
    assert waits[:3] == [0.1, 0.2, 0.4] and max(waits) == 0.4  # doubling, capped


def test_a_server_that_exits_at_start_up_is_tried_again(private_redis, caplog, tmp_path):
    # The final CI run of session 6: a restarted server died during its start-up, the message naming
    # its exit status raised AttributeError, and the watcher thread died with it.
    server = private_redis()
    binary = server.binary
    script = tmp_path / "exits-at-once"
    script.write_text("#!/bin/sh\nexit 3\n")
    script.chmod(0o700)
    server.binary = str(script)
    with (
        caplog.at_level("WARNING", logger="eventstore.supervisor"),
        Supervisor(server, max_backoff=0.2) as supervisor,
    ):
        os.kill(server.pid, signal.SIGKILL)
        wait_for(lambda: caplog.text.count("exited at start-up (status 3)") >= 2, "two starts that exit")
        server.binary = binary
        wait_for(lambda: supervisor.restarts == 1, "the server is back")
    assert answering_pid(server) == server.pid
