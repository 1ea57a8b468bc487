"""Every battle the server offers, in a real browser: the lobby lists it with its name, date, Game-Turns and
map size; a player creates a game of it in the lobby (the side that moves first), the opponent joins by
the invite, and the first player makes one legal move by clicking a hex the server offered. Parametrized
over the scenarios the package ships (the list the server sends), so a battle that lands later is
covered without a change here.
"""

from __future__ import annotations

import asyncio

import aiohttp
import pytest
from browsing import PATIENCE, click_hex, js, new_page, until

from rules.core.game import Game
from rules.procedures.sequence import to_act
from rules.reducer import new_game
from rules.rulesets import get as get_ruleset
from scenarios.describe import listing
from scenarios.loader import list_scenarios, load

SCENARIOS = [sid for sid, _ in list_scenarios()]


async def a_legal_move(page) -> tuple[str, str, str]:
    """(unit, how, hex): the first unit the choices let move (or enter) with a hex the server offers for it
    other than its own."""
    c = await js(page, "() => bluegray.validChoices()")
    for how, units in (("move", c.get("may_move") or []), ("enter", c.get("may_enter") or [])):
        for unit in units:
            found = await asyncio.wait_for(
                js(page, "([u, how]) => bluegray.reach(u, how)", [unit, how]), PATIENCE / 1000
            )
            here = await js(page, "(u) => bluegray.board.state.positions[u] || null", unit)
            ends = sorted(h for h in found or {} if h != here)
            if ends:
                return unit, how, ends[0]
    raise AssertionError(f"no unit may move: {c.get('end_phase_refused')}")


@pytest.mark.parametrize("scenario_id", SCENARIOS)
async def test_each_battle_is_listed_created_and_played(browser, server, shot, scenario_id):
    scenario = load(scenario_id)
    line = listing(scenario)
    async with aiohttp.ClientSession() as http, http.get(f"{server}/api/scenarios") as r:
        assert line in await r.json()  # the server lists it, as the lobby shows it

    # -- the lobby: the battle's row with its name, date, Game-Turns and map size; pick it, create --------
    first = await new_page(browser)
    await first.goto(f"{server}/")
    row = f"#battles tr[data-scenario='{scenario_id}']"
    await first.wait_for_selector(row, timeout=PATIENCE)
    text = await first.inner_text(row)
    assert line["battle"] in text and line["date"] in text
    assert f"{scenario.turns} Game-Turns" in text and f"{line['columns']} x {line['rows']}" in text
    await first.click(row)
    ruleset = "revised" if "revised" in scenario.rulesets else scenario.rulesets[0]
    await first.wait_for_selector(
        f"select[name=ruleset] option[value={ruleset}]", state="attached", timeout=PATIENCE
    )
    assert await first.input_value("select[name=scenario]") == scenario_id
    await first.select_option("select[name=ruleset]", ruleset)
    # the side the game waits for first (Cemetery Hill 16.32: the Confederate, though the Union is first player)
    opening = to_act(new_game(Game(scenario, get_ruleset(ruleset))))
    await first.select_option("select[name=side]", opening)
    await first.click("#create")
    await first.wait_for_selector("#invite-link", timeout=PATIENCE)
    invite = await first.input_value("#invite-link")
    await first.click("#open-game")
    await first.wait_for_selector("#conn.live", timeout=PATIENCE)
    second = await new_page(browser)
    await second.goto(invite)
    await second.wait_for_selector("#conn.live", timeout=PATIENCE)

    # -- one legal move by the seat the game waits for (Cemetery Hill 16.32: the Union, the first player,
    # has no Player-Turn on Game-Turn One), by clicking a hex the server offered ------------------------------
    await until(first, "() => bluegray.viewed && bluegray.board.toAct() !== null")
    mover = first if await js(first, "() => bluegray.board.toAct() === bluegray.seat") else second
    await until(mover, "() => bluegray.validChoices() !== null && !bluegray.busy")
    unit, how, hex_ = await a_legal_move(mover)
    await js(mover, "([u, how]) => bluegray.selectUnit(u, how)", [unit, how])
    await click_hex(mover, hex_)
    for page in (first, second):
        await until(page, "([u, h]) => bluegray.board.state.positions[u] === h", [unit, hex_])
    await shot(mover, f"battle-{scenario_id}-moved")
    assert not first.errors and not second.errors, first.errors + second.errors
    for page in (first, second):
        await page.context.close()


async def test_a_unit_exits_the_map_from_the_exit_list(browser, server, shot):
    # Chickamauga 18.1, 18.2: the choices list the units that may exit (rules/legal.py ``exits``); the
    # panel offers a button per exit hex; a click sends ``exit_map`` and the unit leaves the map
    async with aiohttp.ClientSession() as http:
        body = {"scenario": "chickamauga", "ruleset": "revised", "side": "union"}
        async with http.post(f"{server}/api/games", json=body) as r:
            game = await r.json()
        async with http.post(
            f"{server}/api/games/{game['game_id']}/join", json={"invite": game["invite"]}
        ) as r:
            assert r.status == 200
    page = await new_page(browser)
    await page.context.add_init_script(
        "localStorage.setItem('bluegray.seats', JSON.stringify({"
        f"'{game['game_id']}': {{seat: 'union', token: '{game['token']}', at: 0}}}}))"
    )
    await page.goto(f"{server}/play/{game['game_id']}")
    await page.wait_for_selector("#conn.live", timeout=PATIENCE)
    await until(page, "() => bluegray.validChoices() !== null && !bluegray.busy")
    exits = await js(page, "() => bluegray.validChoices().exits")
    assert exits, "no unit may exit on the first Union Movement Phase"
    unit = sorted(exits)[0]
    hex_ = sorted(exits[unit])[0]
    await page.click("#exit-choice summary")
    await shot(page, "exit-choice")
    await page.click(f"#exit-{unit}-{hex_}")
    await until(page, "(u) => !(u in bluegray.board.state.positions)", unit)
    assert not page.errors, page.errors
    await page.context.close()
