"""The battle at a glance in the browser: after a scripted game (greedy commands, each sent by the
page of the seat the game waits for), the turn track, each side's Victory Points, the losses and the
objective hexes' holders on the map are those of the Python fold of the game's log."""

from __future__ import annotations

import random

import msgspec
from browsing import PATIENCE, js, new_page, until
from conftest import GAMES
from test_browser import seated_page, started_game

from eventstore.store import RedisEventStore
from players.selfplay import greedy_player
from session.history import load


async def test_turn_track_points_losses_and_objectives_match_the_fold(browser, server, redis_client, key_prefix, shot):
    game, joined = await started_game(server, side="union")
    gid = game["game_id"]
    pages = {
        "union": await seated_page(browser, server, gid, "union", game["token"]),
        "confederate": await seated_page(browser, server, gid, "confederate", joined["token"]),
    }
    store = RedisEventStore(redis_client, prefix=key_prefix)
    rng = random.Random(3)
    for _ in range(70):
        h = await load(store, gid, GAMES)
        side = h.session.to_act
        if side is None:
            break
        page = pages[side]
        await until(page, "(v) => bluegray.board.version === v && bluegray.validChoices() !== null", h.version)
        command = msgspec.to_builtins(greedy_player(h.state, rng))
        await js(page, "(c) => bluegray.command(c)", command)
        await until(page, "(v) => bluegray.board.version > v", h.version)
    h = await load(store, gid, GAMES)
    st = h.state
    watcher = await new_page(browser)
    await watcher.goto(f"{server}/watch/{gid}")
    await watcher.wait_for_selector("#conn.live", timeout=PATIENCE)
    for page in (*pages.values(), watcher):
        await until(page, "(v) => bluegray.board.version === v", h.version)
        assert int(await page.get_attribute("#turn-track li.current", "data-turn")) == st.turn
        track = await page.eval_on_selector_all("#turn-track li", "ls => ls.map((l) => [+l.dataset.turn, l.classList.contains('night')])")
        assert track == [[t, t in h.game.scenario.night_turns] for t in range(1, h.game.scenario.turns + 1)]
        assert int(await page.inner_text("#vp-union")) == st.vp.get("union", 0)
        assert int(await page.inner_text("#vp-confederate")) == st.vp.get("confederate", 0)
        units = {u.id: u for u in h.game.scenario.units}
        for side, name in (("union", "Union"), ("confederate", "Confederate")):
            lost = [units[u] for u in st.eliminated if units[u].side == side]
            assert f"{name} {len(lost)} units ({sum(u.strength for u in lost)} SP)" in await page.inner_text("#losses")
        stars = await page.eval_on_selector_all("#objectives .objective", "gs => gs.map((g) => [g.dataset.hex, g.dataset.holder])")
        assert len(stars) == 6  # Chattanooga 20.11 (2), 20.12 (2)
        assert stars == [[hx, st.control.get(hx) or ""] for hx, _ in stars]
    assert st.eliminated, "the scripted game came to blows"
    await js(pages["union"], "() => document.querySelectorAll('.toast').forEach((t) => t.remove())")
    await shot(pages["union"], "desktop-board", doc=True)
    await pages["union"].click("#schedule summary")
    await pages["union"].locator("#battle").scroll_into_view_if_needed()
    await shot(pages["union"], "turn-track", doc=True)
    for page in (*pages.values(), watcher):
        assert not page.errors, page.errors
        await page.context.close()


async def test_a_units_reach_marks_the_enemy_zones_of_control_where_it_must_stop(browser, server, shot):
    # 6.0: 1/1/IV at 0425 may end in 0826, beside Clayton at 0926: it would stop there.
    game, _ = await started_game(server, side="union")
    page = await seated_page(browser, server, game["game_id"], "union", game["token"])
    await until(page, "() => bluegray.validChoices() !== null")
    await js(page, "() => bluegray.selectUnit('us-1-1-iv')")
    await page.wait_for_selector("#overlay .shade.reach.zoc[data-hex='0826']", timeout=PATIENCE)
    marked = await page.eval_on_selector_all("#overlay .shade.reach.zoc", "gs => gs.map((g) => g.dataset.hex).sort()")
    said = await js(page, "() => [...bluegray.reachOf('us-1-1-iv', 'move').stops].sort()")
    assert marked == said and "0826" in marked
    assert await page.locator("#overlay .shade.reach:not(.zoc)").count() > 0
    assert "(6.0)" in await page.inner_text("#reach-zoc")
    await shot(page, "reach-zoc")
    assert not page.errors, page.errors
    await page.context.close()
