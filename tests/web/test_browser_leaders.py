"""Grand Chancellorsville's Leaders (23.5) in a real browser: each Leader on the map drawn in his hex (a
gold-rimmed badge with his stars and name: the view's ``leaders``), to the player and to a spectator; the
player to act (the Union, on Game-Turn One) picks a Leader the choices let move on his own (``may_move_leader``, 23.51), the
server's reach (``how="leader"``) shades where he may go, a click sends ``move_leader``, and he is drawn
alone in his new hex (23.54); asked again, his reach is refused with the rule's case, shown as a unit's
refusal is; the replay, a step back, draws him where he was.
"""

from __future__ import annotations

import aiohttp
from browsing import PATIENCE, click_hex, js, new_page, until

from rules.core.game import Game
from rules.procedures.sequence import to_act
from rules.reducer import new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load


async def drawn_at(page, leader: str) -> str | None:
    """The hex the map draws ``leader`` in (his badge's data-hex), or None."""
    return await js(page, "(id) => document.querySelector(`#leaders g.leader[data-leader='${id}']`)?.dataset.hex ?? null", leader)


async def test_a_leader_is_drawn_and_moves_on_his_own(browser, server, shot):
    side = to_act(new_game(Game(load("grand_chancellorsville"), get_ruleset("revised"))))
    async with aiohttp.ClientSession() as http:
        body = {"scenario": "grand_chancellorsville", "ruleset": "revised", "side": side}
        async with http.post(f"{server}/api/games", json=body) as r:
            game = await r.json()
        async with http.post(f"{server}/api/games/{game['game_id']}/join", json={"invite": game["invite"]}) as r:
            assert r.status == 200
    gid = game["game_id"]
    page = await new_page(browser)
    await page.context.add_init_script(
        f"localStorage.setItem('bluegray.seats', JSON.stringify({{'{gid}': {{seat: '{side}', token: '{game['token']}', at: 0}}}}))"
    )
    await page.goto(f"{server}/play/{gid}")
    await page.wait_for_selector("#conn.live", timeout=PATIENCE)
    watcher = await new_page(browser)
    await watcher.goto(f"{server}/watch/{gid}")
    await watcher.wait_for_selector("#conn.live", timeout=PATIENCE)
    await until(page, "() => bluegray.validChoices() !== null && !bluegray.busy")

    # -- every Leader of the view drawn in his hex, to the player and to the spectator (23.59: with his unit)
    leaders = await js(page, "() => bluegray.board.leaders")
    assert "cs-lee" in {x["id"] for x in leaders} and {x["side"] for x in leaders} == {"union", "confederate"}
    lee = next(x for x in leaders if x["id"] == "cs-lee")
    where = await js(page, "() => bluegray.board.state.positions['cs-barksdale-m']")
    assert (lee["hex"], lee["unit"], lee["alone"], lee["stars"]) == (where, "cs-barksdale-m", False, 4)
    for p in (page, watcher):
        await until(p, "(n) => document.querySelectorAll('#leaders g.leader').length === n", len(leaders))
        assert await drawn_at(p, "cs-lee") == where
        badge = await js(p, "() => document.querySelector(`#leaders g.leader[data-leader='cs-lee']`).textContent")
        assert "Lee" in badge and "★★★★" in badge  # his name and his stars

    # -- the Leaders who may move on their own (23.51): pick one, see where he may go, click a hex there
    movers = await js(page, "() => bluegray.validChoices().may_move_leader")
    assert movers, "no Leader may move on his own"
    chief = movers[0]
    mine = next(x for x in leaders if x["id"] == chief)
    assert mine["side"] == side and not mine["alone"] and await drawn_at(page, chief) == mine["hex"]
    await page.click(f"#leader-move-{chief}")
    await until(page, "(id) => bluegray.selection?.mode === 'leader' && bluegray.reachOf(id, 'leader') !== null", chief)
    dests = await js(page, "(id) => bluegray.reachOf(id, 'leader').destinations", chief)
    occupied = set((await js(page, "() => bluegray.board.state.positions")).values())
    dest = max((h for h in dests if h not in occupied), key=lambda h: (len(dests[h]["path"]), h))
    await page.wait_for_selector(f"#overlay .shade.reach[data-hex='{dest}']", state="attached", timeout=PATIENCE)
    assert await page.locator("#selected-unit.selected-leader").count() == 1
    await js(page, "(h) => { bluegray.map.zoom(2.5); bluegray.map.centreOn(h); }", mine["hex"])
    await shot(page, "leader-reach", doc=True)
    before = await js(page, "() => bluegray.board.version")
    await click_hex(page, dest)
    await until(page, "([id, h]) => bluegray.board.leader(id)?.hex === h", [chief, dest])
    moved = await js(page, "(id) => bluegray.board.leader(id)", chief)
    assert (moved["unit"], moved["alone"]) == (None, True)  # 23.51: he left his unit; 23.54: alone
    for p in (page, watcher):
        await until(p, "([id, h]) => document.querySelector(`#leaders g.leader.alone[data-leader='${id}']`)?.dataset.hex === h", [chief, dest])
    assert await drawn_at(page, chief) == dest
    await until(page, "(h) => document.querySelector('#log').textContent.includes(`on his own to ${h}`)", dest)  # the record says it
    await js(page, "(h) => bluegray.map.centreOn(h)", dest)
    await shot(page, "leader-moved")

    # -- asked again: he has moved this phase; the reach's refusal is shown as an illegal command's
    await until(page, "() => bluegray.validChoices() !== null && !bluegray.busy")
    assert chief not in await js(page, "() => bluegray.validChoices().may_move_leader")
    await click_hex(page, dest)  # his hex: he alone is there, so the click picks him
    await until(page, "(id) => bluegray.selection?.mode === 'leader' && bluegray.selection?.unit === id", chief)
    await page.wait_for_selector("#reach-refused", timeout=PATIENCE)
    assert "23.51" in await page.inner_text("#reach-refused")
    toast = page.locator(".toast.illegal")
    await toast.wait_for(timeout=PATIENCE)
    assert "23.51" in await toast.inner_text()
    await page.keyboard.press("Escape")

    # -- the replay draws him where he was before his move
    await js(page, "() => bluegray.startReplay()")
    await until(page, "() => !!bluegray.replay?.board")
    assert await drawn_at(page, chief) == dest  # the replay at the live version: where he is now
    await js(page, "(v) => bluegray.replaySend({ type: 'replay_seek', version: v })", before)
    await until(page, "(v) => bluegray.replay?.board?.version === v", before)
    assert await drawn_at(page, chief) == mine["hex"]
    assert not page.errors and not watcher.errors, page.errors + watcher.errors
    for p in (page, watcher):
        await p.context.close()
