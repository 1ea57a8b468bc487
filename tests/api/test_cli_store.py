"""The store commands say where they looked, and `loadtest --url` says what it did not measure and
what it leaves on the server it was given."""

from __future__ import annotations

import asyncio

import pytest

from api.cli import main


@pytest.mark.parametrize("command", ["replay", "report", "export"])
async def test_no_game_names_the_store_looked_in(command, redis_url, key_prefix, capsys):
    code = await asyncio.to_thread(
        main, [command, "abcdefGHIJ12", "--redis-url", redis_url, "--key-prefix", key_prefix]
    )
    assert code == 1
    assert capsys.readouterr().err.strip() == (
        f"bluegray {command}: no game 'abcdefGHIJ12' in {redis_url} (key prefix {key_prefix!r})"
    )


async def test_verify_names_the_store_looked_in(redis_url, key_prefix, capsys):
    code = await asyncio.to_thread(
        main, ["verify", "abcdefGHIJ12", "--redis-url", redis_url, "--key-prefix", key_prefix]
    )
    assert code == 1
    assert (
        f"PROBLEM: no game 'abcdefGHIJ12' in {redis_url} (key prefix {key_prefix!r})"
        in capsys.readouterr().out
    )


async def test_loadtest_on_a_given_server_says_what_it_leaves_there(client, capsys):
    url = str(client.server.make_url("")).rstrip("/")
    argv = ["loadtest", "--url", url, "--games", "1", "--duration", "1", "--think", "0.2"]
    assert await asyncio.to_thread(main, argv) == 0
    out, err = capsys.readouterr()
    assert "cpu: server not measured (a server given by --url)" in out and "None" not in out
    assert f"the games played stay in the lobby of {url}" in err
