"""eventstore.embedded: a private, durable server per data directory, never two on one AOF."""

import os
import signal
import stat
import subprocess
import sys
import textwrap
import time

import pytest
import redis

from eventstore.embedded import EmbeddedRedis, find_server_binary
from eventstore.errors import DataDirLocked, ServerNotFound


def sync_client(server: EmbeddedRedis) -> redis.Redis:
    return redis.Redis.from_url(server.url)


def running(pid: int) -> bool:
    """True while `pid` runs (a zombie nobody reaped has exited)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_private_durable_unix_socket_only(private_redis):
    server = private_redis()
    client = sync_client(server)
    config = {k: v for name in ("appendonly", "appendfsync", "maxmemory-policy", "port")
              for k, v in client.config_get(name).items()}
    assert config == {"appendonly": "yes", "appendfsync": "always", "maxmemory-policy": "noeviction", "port": "0"}
    assert stat.S_IMODE(os.stat(server.data_dir).st_mode) == 0o700
    assert server.url == f"unix://{server.socket_path}"
    client.close()


def test_everysec_is_selectable(private_redis):
    client = sync_client(private_redis(fsync="everysec"))
    assert client.config_get("appendfsync") == {"appendfsync": "everysec"}
    client.close()


def test_unknown_fsync_policy_is_refused(tmp_path):
    with pytest.raises(ValueError, match="fsync"):
        EmbeddedRedis(tmp_path, fsync="no")


def test_stop_then_start_keeps_the_data(private_redis):
    server = private_redis()
    client = sync_client(server)
    client.set("kept", "yes")
    client.close()
    server.stop()
    assert not server.socket_path.exists()
    server.start()
    client = sync_client(server)
    assert client.get("kept") == b"yes"
    client.close()


def test_two_owners_of_one_directory_cannot_both_run(private_redis, tmp_path):
    server = private_redis()
    with pytest.raises(DataDirLocked, match="two servers"):
        EmbeddedRedis(server.data_dir).start()
    # Another process is refused just the same, and the first server is untouched.
    script = textwrap.dedent(
        f"""
        from eventstore.embedded import EmbeddedRedis
        from eventstore.errors import DataDirLocked
        try:
            EmbeddedRedis({str(server.data_dir)!r}).start()
        except DataDirLocked:
            raise SystemExit(3)
        """
    )
    assert subprocess.run([sys.executable, "-c", script]).returncode == 3
    assert sync_client(server).ping()


def test_an_orphan_is_adopted_knowingly_not_doubled(tmp_path, caplog):
    """A server left running by an owner that did not have it exit with it is checked to serve
    this directory, adopted, and the adoption logged."""
    data_dir = tmp_path / "redis"
    script = textwrap.dedent(
        f"""
        import os, sys
        from eventstore.embedded import EmbeddedRedis
        server = EmbeddedRedis({str(data_dir)!r}, exit_with_parent=False)
        server.start()
        print(server.pid, flush=True)
        os.kill(os.getpid(), 9)  # the owner crashes; its server goes on
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == -signal.SIGKILL, done.stderr
    orphan = int(done.stdout)
    server = EmbeddedRedis(data_dir)
    try:
        with caplog.at_level("WARNING", logger="eventstore.embedded"):
            server.start()
        assert server.pid == orphan
        assert int(sync_client(server).info("server")["process_id"]) == orphan
        assert f"adopted the server (pid {orphan})" in caplog.text and str(data_dir) in caplog.text
    finally:
        server.stop()
    assert not running(orphan)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_server_exits_with_its_parent_when_the_parent_is_killed(tmp_path):
    """The default (`bluegray serve`, the test session, the benchmarks): a killed owner leaves no
    server behind."""
    data_dir = tmp_path / "redis"
    script = textwrap.dedent(
        f"""
        import os
        from eventstore.embedded import EmbeddedRedis
        server = EmbeddedRedis({str(data_dir)!r})
        server.start()
        print(server.pid, flush=True)
        os.kill(os.getpid(), 9)
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == -signal.SIGKILL, done.stderr
    orphan = int(done.stdout)
    for _ in range(200):
        if not running(orphan):
            break
        time.sleep(0.05)
    assert not running(orphan)
    # It went by SIGTERM, so cleanly: the next owner starts a fresh server on the same data.
    server = EmbeddedRedis(data_dir)
    try:
        server.start()
        assert server.pid != orphan
    finally:
        server.stop()


def test_a_stale_pid_file_does_not_stop_a_start(private_redis):
    server = private_redis()
    server.kill()  # leaves its pid file behind
    assert server.pid_file.exists()
    server.start()
    assert sync_client(server).ping()


def test_a_long_data_dir_gets_a_short_socket(tmp_path):
    server = EmbeddedRedis(tmp_path / ("d" * 120))
    try:
        server.start()
        assert len(str(server.socket_path)) < 100
        assert sync_client(server).ping()
    finally:
        server.stop()


def test_a_missing_binary_is_a_clear_error(tmp_path, monkeypatch):
    with pytest.raises(ServerNotFound, match="does not exist"):
        EmbeddedRedis(tmp_path / "a", binary=str(tmp_path / "no-such-server")).start()
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr("importlib.util.find_spec", lambda name: None)
    with pytest.raises(ServerNotFound, match="redis-server"):
        find_server_binary()


def test_the_lock_is_released_on_stop(private_redis):
    server = private_redis()
    server.stop()
    other = EmbeddedRedis(server.data_dir)
    other.start()
    other.stop()
