"""A game on an edited map: created on a saved scenario (the server's data directory), it records
the scenario's reference NAME@HASH and content hash; its export carries the whole scenario, so it
verifies, replays and imports exactly on another server that never had it (replay/carry.py)."""

from __future__ import annotations

import asyncio
import dataclasses
import random

import pytest
from aiohttp.test_utils import TestClient, TestServer
from apiharness import WsClient, new_game, play_steps

from api.app import library_games, make_app
from api.cli import main
from replay import carry, export
from replay.transfer import import_log
from replay.verify import verify
from rules.core.scenario import scenario_hash
from scenarios import document
from scenarios.library import Library
from scenarios.library import export as export_scenario
from session import records
from session.history import History


def _edited(tmp_path):
    """Chattanooga with one hex repainted, saved in tmp_path/data as a variant."""
    library = Library(tmp_path / "data")
    edited = export_scenario("chattanooga")
    edited.map.hexes["1010"] = "clear" if edited.map.hexes["1010"] != "clear" else "forest"
    return library, library.save(edited, "edited-chattanooga")


async def test_a_game_on_an_edited_map_travels_whole_to_another_server(tmp_path, config, store, redis_client, capsys):
    library, saved = _edited(tmp_path)
    games = library_games(library)
    app_config = dataclasses.replace(config, scenarios_dir=tmp_path / "data")
    async with TestClient(TestServer(make_app(app_config, games=games))) as client:
        game, joined = await new_game(client, scenario="edited-chattanooga")
        gid = game["game_id"]
        union, confederate = WsClient(client, gid, game["token"]), WsClient(client, gid, joined["token"])
        for c in (union, confederate):
            c.history = History(gid, games)
            await c.connect()
        assert await play_steps(union, confederate, random.Random(3), 12) == 12
        stored = [e async for e in store.read(gid)]
        created = records.decode(stored[0].payload)
        assert created.scenario == saved.ref  # pinned: a later save under the name does not change it
        assert created.scenario_hash == saved.hash == scenario_hash(library.load(saved.ref))
        data = await (await client.get(f"/api/games/{gid}/export")).read()

    assert export.loads(data) == stored
    assert export.carried_scenario(data) is not None
    # another server: no saved scenario at all; the file's own scenario is enough
    elsewhere = Library(None)
    report = verify(gid, stored, carry.games_for(elsewhere, data, stored))
    assert report.ok and report.scenario_matches, report.problems
    # without the carried scenario it cannot even be loaded
    assert not verify(gid, stored, library_games(Library(None))).ok
    # a file carrying another scenario than the game's is refused
    other = Library(tmp_path / "forge").save(export_scenario("shiloh"), "edited-chattanooga")
    forged = export.dumps(stored, document.encode(Library(tmp_path / "forge").document(other.ref)))
    with pytest.raises(carry.CarryError, match="but its game was created on"):
        carry.games_for(Library(None), forged, stored)

    other_prefix = config.prefix + "other:"
    other_store = type(store)(redis_client, prefix=other_prefix)
    other_dir = tmp_path / "other"
    imported = await import_log(other_store, stored, carry.games_for(Library(other_dir), data, stored))
    assert imported.version == len(stored)
    path = tmp_path / "game.jsonl"
    path.write_bytes(data)
    code = await asyncio.to_thread(main, ["import", str(path), "--redis-url", config.redis_url,
                                          "--key-prefix", config.prefix + "third:", "--data-dir", str(other_dir)])
    assert code == 0, capsys.readouterr().err
    assert (other_dir / "scenarios" / "edited-chattanooga" / f"{saved.hash}.json").is_file()
    # the importing server, on its data directory, shows the game on the same scenario
    third = dataclasses.replace(config, prefix=config.prefix + "third:", scenarios_dir=other_dir / "scenarios")
    async with TestClient(TestServer(make_app(third))) as client:
        view = await (await client.get(f"/api/games/{gid}")).json()
        assert view["version"] == len(stored), view
        again = await (await client.get(f"/api/games/{gid}/export")).read()
        assert export.loads(again) == stored and export.carried_scenario(again) == export.carried_scenario(data)
    code = await asyncio.to_thread(main, ["verify", str(path), "--data-dir", str(tmp_path / "empty")])
    assert code == 0, capsys.readouterr().out


async def test_the_computer_reads_a_saved_scenario_from_the_games_log(tmp_path, config):
    """The computer opponent runs apart from the server, with no saved scenario: the log carries it."""
    from api import computer

    library, saved = _edited(tmp_path)
    app_config = dataclasses.replace(config, scenarios_dir=tmp_path / "data")
    async with TestClient(TestServer(make_app(app_config, games=library_games(library)))) as client:
        game, joined = await new_game(client, scenario="edited-chattanooga")
        alone = Library(None)
        games = library_games(alone)
        seat = computer.Seat(game["game_id"], joined["token"], "confederate")
        history = await computer.position(client, seat, games, alone)
        assert history.version == 3 and history.session.started
        assert alone.holds(saved.ref) and games.scenario(saved.ref).map.hexes["1010"] == library.load(saved.ref).map.hexes["1010"]
        assert (await computer.position(client, seat, games, alone)).version == 3  # held once, read again
