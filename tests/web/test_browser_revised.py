"""The web client under the revised (2nd edition) rules in a real browser: the rule set chosen in the
lobby and named in the status panel; breastworks begun (the Under Construction marker), a unit entering
a town hex Disordered (12.17: the morale badge), then, a Game-Turn later, the Rally choice (12.41) and the
breastworks completed with a facing the server offers (10.34), the rally dice asked for as a decision
at the start of the Combat Phase, and the marker removed at the end of it (10.37). Everything the player clicks comes from the server's choices.
"""

from __future__ import annotations

import asyncio
import json

import aiohttp
import msgspec
import pytest
from browsing import PATIENCE, click_hex, js, new_page, until

BUILDER = "us-1-1-xiv"  # at 1717 at start: may begin breastworks on Game-Turn 1 (no enemy within 3 hexes)
TOWNSMAN, TOWN = "us-1-2-iv", "1212"  # 1212 is a Chattanooga town hex, in reach on Game-Turn 1


async def mine(page) -> None:
    await until(page, "() => bluegray.validChoices() !== null && !bluegray.busy")


async def end_phase(page) -> None:
    before = await js(page, "() => bluegray.board.version")
    await mine(page)
    await js(page, "() => bluegray.endPhase()")
    await page.wait_for_function("(v) => bluegray.board.version > v", arg=before, timeout=PATIENCE)


async def hold_messages(page) -> None:
    """Hold back the server's messages to `page` until `release_messages`, which delivers them in order.
    An action's ack still settles the action (connection.js resolves it before handing the message on):
    the page is as it is between a command's answer and the view that shows it, made as long as wanted."""
    await js(
        page,
        """() => {
          const conn = bluegray.conn, deliver = conn.onMessage;
          window.held = [];
          conn.onMessage = (m) => window.held.push(m);
          window.releaseHeld = () => { conn.onMessage = deliver; for (const m of window.held.splice(0)) deliver(m); };
        }""",
    )


async def release_messages(page) -> None:
    await js(page, "() => window.releaseHeld()")


async def revised_game(browser, server):
    """The Union player creates a revised game in the lobby, the Confederate joins by the invite: both
    pages, connected."""
    union = await new_page(browser)
    await union.goto(f"{server}/")
    # Chattanooga by name: the lobby's first battle is whichever sorts first (Antietam since it landed)
    await union.wait_for_selector("#battles tr[data-scenario='chattanooga']", timeout=PATIENCE)
    await union.click("#battles tr[data-scenario='chattanooga']")
    await union.wait_for_selector(
        "select[name=ruleset] option[value=revised]", state="attached", timeout=PATIENCE
    )
    await union.select_option("select[name=scenario]", "chattanooga")  # (the lobby's first battle is Antietam)
    await union.wait_for_selector(
        "select[name=ruleset] option[value=revised]", state="attached", timeout=PATIENCE
    )
    await union.select_option("select[name=ruleset]", "revised")
    await union.select_option("select[name=side]", "union")
    await union.click("#create")
    await union.wait_for_selector("#invite-link", timeout=PATIENCE)
    invite = await union.input_value("#invite-link")
    await union.click("#open-game")
    await union.wait_for_selector("#conn.live", timeout=PATIENCE)
    confed = await new_page(browser)
    await confed.goto(invite)
    await confed.wait_for_selector("#conn.live", timeout=PATIENCE)
    return union, confed


async def test_revised_markers_and_decisions(browser, server, shot):
    # -- the lobby offers the rule set; the Union player creates a revised game --------------------
    union, confed = await revised_game(browser, server)
    for page in (union, confed):
        await page.wait_for_selector("#ruleset", timeout=PATIENCE)
        assert "revised (2nd edition)" in await page.inner_text("#ruleset")
    await mine(union)

    # -- Game-Turn 1: strategic movement and breastworks are offered; begin breastworks ---------------
    assert await union.locator("#strategic-choice").count() == 1
    await union.click("#build-choice summary")
    await union.click(f".build-breastworks[data-unit='{BUILDER}']")
    await union.wait_for_selector("#works .works.building[data-hex='1717']", timeout=PATIENCE)
    await until(confed, "() => !!bluegray.board.state.breastworks['1717']")

    # -- a unit enters a town hex: Disordered (12.17), its badge on the counter -----------------------
    await mine(union)
    await js(union, "(u) => bluegray.selectUnit(u)", TOWNSMAN)
    reach = js(union, "(u) => bluegray.reach(u, 'move')", TOWNSMAN)
    assert TOWN in await asyncio.wait_for(reach, PATIENCE / 1000)
    await click_hex(union, TOWN)
    for page in (union, confed):
        await until(page, "(u) => bluegray.board.state.morale[u] === 'disordered'", TOWNSMAN)
        await page.wait_for_selector(
            f"#units .counter[data-unit='{TOWNSMAN}'] .morale-mark.disordered", timeout=PATIENCE
        )
    await js(union, "() => { bluegray.map.zoom(2.2); bluegray.map.centreOn('1514'); }")
    await shot(union, "revised-disordered-and-building")

    # -- to the Union's Game-Turn 2 Movement Phase (nobody attacks) -----------------------------------
    await end_phase(union)  # Union Movement -> Combat
    await end_phase(union)  # -> Confederate Movement
    await end_phase(confed)  # -> Confederate Combat
    await end_phase(confed)  # -> Game-Turn 2, Union Movement
    await until(union, "() => bluegray.board.state.turn === 2 && bluegray.board.state.phase === 'movement'")
    await mine(union)

    # -- Rally (12.41): tick the unit, place the marker ------------------------------------------------
    await union.wait_for_selector("#rally-choice", timeout=PATIENCE)
    await union.check(f"#place-rally-units input[data-unit='{TOWNSMAN}']")
    await shot(union, "revised-rally-choice")
    await union.click("#place-rally")
    await union.wait_for_selector(f"#units .counter[data-unit='{TOWNSMAN}'] .rally-mark", timeout=PATIENCE)

    # -- complete the breastworks with a facing the server offers (10.34) ------------------------------
    await mine(union)
    await union.wait_for_selector("#complete-choice", timeout=PATIENCE)
    button = f".complete-breastworks[data-unit='{BUILDER}'] >> nth=0"
    facing = await union.get_attribute(button, "data-facing")
    completed = "#works .works.breastworks:not(.preview)[data-hex='1717']"  # the server's marker
    # the pointer on a facing's button previews it on the map: drawn as a preview, not as the marker
    await union.hover(button)
    await union.wait_for_selector("#works .works.breastworks.preview[data-hex='1717']", timeout=PATIENCE)
    assert await union.locator(completed).count() == 0
    # the click answered, the server's view held back (the window in which a CI run once read the hover
    # preview, then drawn as the marker itself, as the completed breastworks): the state still reads
    # "building", and the map shows no completed marker, only the preview of the facing under the pointer
    await hold_messages(union)
    await union.click(button)
    await until(union, "() => window.held.some((m) => m.type === 'ack') && !bluegray.busy")
    await union.mouse.move(0, 0)
    await union.hover(button)
    await union.wait_for_selector("#works .works.breastworks.preview[data-hex='1717']", timeout=PATIENCE)
    assert (await js(union, "() => bluegray.board.state.breastworks['1717']"))["status"] == "building"
    assert await union.locator(completed).count() == 0
    # while a command is in flight (the buttons disabled) no facing is previewed
    previewed_busy = await js(
        union,
        """(f) => { bluegray.busy = true; bluegray.render(); bluegray.previewFacing('1717', f.split(','));
          const n = document.querySelectorAll("#works .works.breastworks[data-hex='1717']").length;
          bluegray.busy = false; bluegray.render(); return n; }""",
        facing,
    )
    assert previewed_busy == 0
    await release_messages(union)
    # wait for what the test reads next: the state, then the marker drawn from it
    await until(union, "() => bluegray.board.state.breastworks['1717']?.status === 'breastworks'")
    await union.wait_for_selector(completed, timeout=PATIENCE)
    works = await js(union, "() => bluegray.board.state.breastworks['1717']")
    assert works["status"] == "breastworks" and ",".join(works["facing"]) == facing
    assert await union.locator(f"{completed} > line").count() == 3
    await js(union, "() => { bluegray.map.zoom(1.5); bluegray.map.centreOn('1515'); }")
    await shot(union, "revised-breastworks-and-rally")

    # -- the Combat Phase begins with the rally dice: a decision panel --------------------------------
    await end_phase(union)
    await union.wait_for_selector("#roll-rally", timeout=PATIENCE)
    assert "Rally (12.41)" in await union.inner_text("#action")
    assert "rolls the rally dice" in await confed.inner_text("#action")
    await shot(union, "revised-rally-decision")
    await union.click("#roll-rally")
    await until(
        union, "() => bluegray.board.state.rallying.length === 0 && bluegray.board.state.pending.length === 0"
    )
    assert await union.locator("#units .rally-mark").count() == 0
    await union.click("#legend summary")
    await shot(union, "revised-after-rally")

    # -- 10.37: at the end of the Combat Phase (nothing owed) the marker may be removed ------------------
    await mine(union)
    await union.wait_for_selector("#remove-choice", timeout=PATIENCE)
    await union.click("#remove-choice summary")
    assert "1717: Union breastworks" in await union.inner_text("#remove-choice")
    await shot(union, "revised-remove-breastworks-choice")
    await union.click(".remove-breastworks[data-hex='1717']")
    for page in (union, confed):
        await until(page, "() => !bluegray.board.state.breastworks['1717']")
        await page.wait_for_selector("#works .works[data-hex='1717']", state="detached", timeout=PATIENCE)

    # -- the other decision panels, drawn from decisions shaped as the server sends them (schema
    # `choices.decision`); this checks the drawing only, the game above checks the round trip ---------
    panels = {
        "before-combat-decision": {
            "type": "before_combat",
            "kind": "cavalry",
            "units": [TOWNSMAN],
            "options": [],
        },
        "terrain-decision": {
            "type": "before_combat",
            "kind": "terrain",
            "units": [],
            "options": ["forest", "terrain"],
        },
        "losses-decision": {"type": "exchange_losses", "at_least": 4, "options": [[TOWNSMAN]]},
        "generic-decision": {"type": "something_new", "units": []},
    }
    for panel, decision in panels.items():
        await js(
            union,
            "(d) => document.querySelector('#action').replaceChildren(bluegray.decisionView(d))",
            decision,
        )
        await union.wait_for_selector(f"#{panel}", timeout=PATIENCE)
    await js(
        union,
        "(d) => document.querySelector('#action').replaceChildren(bluegray.decisionView(d))",
        panels["before-combat-decision"],
    )
    assert await union.locator("#retreat-before-combat-units input[type=checkbox]").count() == 1
    assert await union.locator("#retreat-before-combat-none").count() == 1
    await shot(union, "revised-before-combat-panel")
    await js(
        union,
        "(d) => document.querySelector('#action').replaceChildren(bluegray.decisionView(d))",
        panels["terrain-decision"],
    )
    assert await union.locator(".terrain-option").count() == 2
    await shot(union, "revised-terrain-panel")
    for page in (union, confed):
        assert not page.errors, page.errors
        await page.context.close()


@pytest.fixture
async def gunboat_server(redis_url, key_prefix):
    """The real application serving, besides the shipped battles, ``gunboats``: the small river map of
    tests/rules/test_gunboats.py (column 03 river) with a Union gunboat at 0301 and a rebel at 0609."""
    from aiohttp.test_utils import TestServer

    from api.app import make_app
    from api.config import ServerConfig
    from scenarios.loader import load
    from session.games import GameCache
    from tests.rules.rulesmaps import rebel, union
    from tests.rules.test_gunboats import gunboat, scenario

    units = [
        gunboat("us-tyler", "0301", strength=4, designation="Tyler"),
        union("us-i", "0808", strength=3),
        rebel("cs-r", "0609", strength=1),
    ]
    river = msgspec.structs.replace(scenario(units), id="gunboats")
    games = GameCache(load=lambda sid: river if sid == "gunboats" else load(sid))
    config = ServerConfig(
        redis_url=redis_url, prefix=key_prefix, tail_block_ms=200, rate_per_second=1000, rate_burst=1000
    )
    srv = TestServer(make_app(config, games=games), host="127.0.0.1")
    await srv.start_server()
    yield str(srv.make_url("")).rstrip("/")
    await srv.close()


async def test_a_gunboat_is_drawn_moves_up_the_river_and_bombards_9_6(browser, gunboat_server, shot):
    # revised 9.6: the client draws a gunboat (a hull in its type box); its moves (9.62: eight river
    # hexes, more than any land unit's allowance) and its bombardment (9.65, three hexes) are the
    # server's choices, clicked as for any unit
    server = gunboat_server
    async with aiohttp.ClientSession() as http:
        async with http.post(
            f"{server}/api/games", json={"scenario": "gunboats", "ruleset": "revised", "side": "union"}
        ) as r:
            game = await r.json()
        async with http.post(
            f"{server}/api/games/{game['game_id']}/join", json={"invite": game["invite"]}
        ) as r:
            assert r.status == 200
    page = await new_page(browser)
    seats = {game["game_id"]: {"seat": "union", "token": game["token"], "at": 0}}
    await page.context.add_init_script(
        f"localStorage.setItem('bluegray.seats', JSON.stringify({json.dumps(seats)}))"
    )
    await page.goto(f"{server}/play/{game['game_id']}")
    await page.wait_for_selector("#conn.live", timeout=PATIENCE)
    await mine(page)
    await page.wait_for_selector("#units .counter[data-unit='us-tyler'] path.gunboat", timeout=PATIENCE)
    await js(page, "() => bluegray.selectUnit('us-tyler')")
    await page.wait_for_selector("#overlay .shade.reach[data-hex='0309']", timeout=PATIENCE)
    assert await page.locator("#overlay .shade.reach[data-hex='0401']").count() == 0  # clear: not its waters
    await shot(page, "gunboat-reach")
    await click_hex(page, "0309")
    await until(page, "() => bluegray.board.state.positions['us-tyler'] === '0309'")
    await end_phase(page)
    await until(
        page, "() => bluegray.board.state.phase === 'combat' && bluegray.validChoices()?.attacks?.length > 0"
    )
    await click_hex(page, "0609")
    await click_hex(page, "0309")  # tick the bombarding hex
    await page.wait_for_selector("#declare:not([disabled])", timeout=PATIENCE)
    assert "Odds 4-1" in await page.inner_text("#odds")  # 9.65: four, not reduced at three hexes (9.19)
    await shot(page, "gunboat-bombards")
    await page.click("#declare")
    await page.wait_for_selector("#roll", timeout=PATIENCE)
    await page.click("#roll")
    await page.wait_for_selector("#combat-result", timeout=PATIENCE)
    assert (await js(page, "() => bluegray.board.lastCombat"))["result"]
    assert await js(page, "() => bluegray.board.state.positions['us-tyler']") == "0309"
    assert page.errors == []
    await page.context.close()


async def test_fractional_movement_costs_are_read_exactly_6_22(browser, server):
    # revised 6.22: a turnpike cost arrives as "n/d"; the client shows it as sent and reads its value
    # for sorting and shading the reach
    page = await new_page(browser)
    await page.goto(f"{server}/")
    values = await js(
        page,
        """async () => { const g = await import("/static/js/game.js"); return [g.mpValue("4/3"), g.mpValue(2), g.mpValue("20/3")]; }""",
    )
    assert values[1] == 2 and abs(values[0] - 4 / 3) < 1e-12 and abs(values[2] - 20 / 3) < 1e-12
    assert page.errors == []


# Two Union units that reach 1722 on Game-Turn 1 of the revised Chattanooga, where the stack is next to
# the Confederates at 1723 and 1822: each of them may attack one of those hexes alone (8.22).
STACKED = {
    "us-1-1-xiv": ["1717", "1718", "1719", "1720", "1721", "1722"],
    "us-2-1-xiv": ["1718", "1719", "1720", "1721", "1722"],
}
STACK_HEX, ONE, OTHER = "1722", "1723", "1822"


async def test_stacked_units_attack_separately_8_22(browser, server, shot):
    # 8.22: the attack panel has a box for each unit of a stack; the odds shown are those of the units
    # ticked (the server's offered part), and the declaration names exactly them
    union, confed = await revised_game(browser, server)
    for unit, path in STACKED.items():
        await mine(union)
        await js(union, "([unit, path]) => bluegray.command({ type: 'move', unit, path })", [unit, path])
        await until(union, "([u, h]) => bluegray.board.state.positions[u] === h", [unit, STACK_HEX])
    await end_phase(union)
    await until(
        union, "() => bluegray.board.state.phase === 'combat' && bluegray.validChoices()?.attacks?.length > 0"
    )
    offered = await js(
        union, "(d) => bluegray.validChoices().attacks.find((o) => o.defenders.join() === d)", ONE
    )
    assert offered["separate"] and offered["groups"][STACK_HEX]["units"] == sorted(STACKED)
    parts = {tuple(a["units"]): a["odds"] for a in offered["adjacent"]}
    # adjusted (8.32): halved in forest
    strengths = {tuple(a["units"]): a["attack"] for a in offered["adjacent"]}
    # the whole stack against 1723 alone would strand 1822 (8.11)
    assert set(parts) == {(u,) for u in STACKED}

    # -- plan an attack on 1723: one unit ticked, its odds shown ---------------------------------------
    await click_hex(union, ONE)
    await union.wait_for_selector("#declare", timeout=PATIENCE)
    boxes = union.locator("input.attack-unit")
    assert await boxes.count() == 2
    ticked = [u for u in sorted(STACKED) if await union.is_checked(f"input.attack-unit[data-unit='{u}']")]
    assert len(ticked) == 1
    first, second = ticked[0], next(u for u in sorted(STACKED) if u != ticked[0])
    assert f"Odds {parts[(first,)]}" in await union.inner_text("#odds")
    # the other unit instead: untick one, tick the other
    await union.uncheck(f"input.attack-unit[data-unit='{first}']")
    await union.wait_for_selector("#declare", state="detached", timeout=PATIENCE)
    await union.check(f"input.attack-unit[data-unit='{second}']")
    await union.wait_for_selector("#declare", timeout=PATIENCE)
    assert f"Odds {parts[(second,)]}" in await union.inner_text("#odds")
    assert (await union.inner_text("#odds")).startswith(f"{strengths[(second,)]} against")
    # both ticked: the whole stack may not attack 1723 alone; the panel says so and offers no declaration
    await union.check(f"input.attack-unit[data-unit='{first}']")
    await union.wait_for_selector("#declare", state="detached", timeout=PATIENCE)
    assert "may not make this attack together" in await union.inner_text("#action")
    await union.uncheck(f"input.attack-unit[data-unit='{first}']")
    await union.wait_for_selector("#declare", timeout=PATIENCE)
    await shot(union, "revised-stack-part-attack")

    # -- declare: the attack names the ticked unit only; the other still owes its attack --------------
    await union.click("#declare")
    await union.wait_for_selector("#roll", timeout=PATIENCE)
    attack = await js(union, "() => bluegray.validChoices().decision.attack")
    assert attack["attackers"] == [second] and attack["defenders"] == [ONE]
    for page in (union, confed):
        assert not page.errors, page.errors
        await page.context.close()
