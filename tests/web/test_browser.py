"""The web client in a real browser: the map, the lobby, a game played by two browser contexts while
a third watches (move, undo by consent, attack with odds and die, decisions), an illegal attempt
answered with the rule's sentence, a dropped connection that catches up by itself, the tablet layout.
"""

from __future__ import annotations

import asyncio
import json

import aiohttp
import pytest
from browsing import LAPTOP, PATIENCE, click_hex, js, make_decisions, new_page, until, version
from conftest import GAMES

from replay.crt_odds import column_distribution, table_of
from scenarios.loader import load as load_scenario

TABLET = {"width": 768, "height": 1024}

MOVER = "us-1-1-iv"  # at 0425 at start; 0826 is in reach, and from there 0926 can be attacked at 1-1
START, DEST, TARGET = "0425", "0826", "0926"


async def reach(page, unit: str, how: str = "move") -> dict:
    """The unit's destinations as the page has them from the server (asked for if need be)."""
    return await asyncio.wait_for(
        js(page, "([u, how]) => bluegray.reach(u, how)", [unit, how]), PATIENCE / 1000
    )


async def position(page, unit: str):
    return await js(page, "(u) => bluegray.board.state.positions[u] || null", unit)


async def test_map_renders_every_hex(browser, server, shot):
    async with aiohttp.ClientSession() as http:
        async with http.post(f"{server}/api/games", json={"scenario": "chattanooga"}) as r:
            assert r.status == 201
            game = await r.json()
    page = await new_page(browser)
    await page.goto(f"{server}/watch/{game['game_id']}")
    await page.wait_for_selector("#conn.live", timeout=PATIENCE)
    scenario = load_scenario("chattanooga")
    hexes = await page.eval_on_selector_all("svg.map polygon.hex", "ps => ps.map(p => p.dataset.hex)")
    assert sorted(hexes) == sorted(scenario.map.hexes)
    assert len(hexes) == 770
    # Every terrain has its pattern as well as its colour; hexside features are drawn.
    assert await page.locator("svg.map #creeks line").count() > 50
    assert await page.locator("svg.map #crossings .bridge").count() == 6
    assert await page.locator("svg.map #crossings .ford").count() == 10
    assert await page.locator("svg.map #redoubts .redoubt").count() == 91
    assert await page.locator("svg.map #ferries line").count() == 8
    on_map = [u for u in scenario.units if u.hex is not None]
    assert await page.locator("svg.map #units .counter").count() == len(on_map)
    # Hex numbers on demand; zoom and fit change the view.
    assert await page.locator("#numbers.hidden").count() == 1
    await page.keyboard.press("n")
    assert await page.locator("#numbers.hidden").count() == 0
    before = await page.get_attribute("svg.map", "viewBox")
    await page.click("#zoom-in")
    assert await page.get_attribute("svg.map", "viewBox") != before
    await page.click("#zoom-fit")
    await shot(page, "map-whole")
    await page.click("#zoom-in")
    await page.click("#zoom-in")
    await js(page, "() => bluegray.map.centreOn('1414')")
    await shot(page, "map-numbers-zoomed")
    assert await page.inner_text("#seat-badge") == "Watching"
    assert "Waiting for the second player" in await page.inner_text("#status")
    assert not page.errors, page.errors
    await page.context.close()


async def test_play_watch_undo_attack(browser, server, shot):
    # -- the Union player creates a game in the lobby and gets the invite link ------------------
    union = await new_page(browser)
    await union.goto(f"{server}/")
    await union.wait_for_selector("#create")
    await union.select_option("select[name=scenario]", "chattanooga")
    await union.select_option("select[name=side]", "union")
    await union.click("#create")
    await union.wait_for_selector("#invite-link", timeout=PATIENCE)
    invite = await union.input_value("#invite-link")
    assert "/join/" in invite and "#" in invite
    await shot(union, "lobby-created")
    game_id = invite.split("/join/")[1].split("#")[0]
    await union.click("#open-game")
    await union.wait_for_selector("#conn.live", timeout=PATIENCE)
    assert await union.inner_text("#seat-badge") == "You play Union"

    # -- the Confederate player opens the invite in another browser context ----------------------
    confed = await new_page(browser, viewport={"width": 1024, "height": 768})
    await confed.goto(invite)
    await confed.wait_for_selector("#conn.live", timeout=PATIENCE)
    assert confed.url.endswith(f"/play/{game_id}")  # the invite code left the address bar
    assert await confed.inner_text("#seat-badge") == "You play Confederate"

    # -- a spectator on a tablet watches ----------------------------------------------------------
    watcher = await new_page(browser, viewport=TABLET, has_touch=True, is_mobile=True)
    await watcher.goto(f"{server}/watch/{game_id}")
    await watcher.wait_for_selector("#conn.live", timeout=PATIENCE)
    await until(union, "() => document.querySelector('#to-act')?.textContent === 'Your move'")
    await until(union, "() => bluegray.validChoices() !== null")
    assert "Union to act" in await confed.inner_text("#status")

    # -- the lobby lists the running game to watch ----------------------------------------------
    lobby = await new_page(browser)
    await lobby.goto(f"{server}/")
    await lobby.wait_for_selector(f"#running a[href='/watch/{game_id}']", timeout=PATIENCE)
    await lobby.context.close()

    # -- move: select the unit, reachable hexes shaded with their cost, path preview, click ---------
    await click_hex(union, START)
    await until(union, "(u) => bluegray.selection?.unit === u", MOVER)
    await union.wait_for_selector(f"#overlay .shade.reach[data-hex='{DEST}']", timeout=PATIENCE)
    shaded = await union.eval_on_selector_all(
        "#overlay .shade.reach", "gs => gs.map(g => [g.dataset.hex, g.textContent])"
    )
    assert DEST in dict(shaded)
    x, y = await js(union, "(h) => { bluegray.map.centreOn(h); return bluegray.map.clientOf(h); }", DEST)
    await union.mouse.move(x, y)
    await union.wait_for_selector("#path .path.preview", timeout=PATIENCE)
    assert "MP" in await union.text_content("#path .path-cost")
    await shot(union, "move-reach-and-path")
    await union.mouse.click(x, y)
    for page in (union, confed, watcher):
        await until(page, "([u, h]) => bluegray.board.state.positions[u] === h", [MOVER, DEST])
    assert "Units moved this phase: 1 " in await union.inner_text("#quota")

    # -- undo by consent: Union asks, the Confederate accepts ---------------------------------------
    await union.keyboard.press("u")
    await union.wait_for_selector("#undo-send", timeout=PATIENCE)
    await shot(union, "undo-request")
    await union.click("#undo-send")
    await confed.wait_for_selector("#undo-accept", timeout=PATIENCE)
    await shot(confed, "undo-answer")
    await confed.click("#undo-accept")
    for page in (union, confed, watcher):
        await until(
            page,
            "([u, h]) => bluegray.board.state.positions[u] === h",
            [MOVER, START],
        )
    assert "Units moved this phase: 0 " in await union.inner_text("#quota")

    # -- move again, then a rule refusal: a unit that moved may not move again (5.17) ------------------
    await until(union, "() => bluegray.validChoices() !== null")
    await click_hex(union, START)
    await until(union, "(u) => bluegray.selection?.unit === u", MOVER)
    await union.wait_for_selector(f"#overlay .shade.reach[data-hex='{DEST}']", timeout=PATIENCE)
    await click_hex(union, DEST)
    await until(union, "([u, h]) => bluegray.board.state.positions[u] === h", [MOVER, DEST])
    await until(union, "() => bluegray.validChoices() !== null")
    await click_hex(union, DEST)  # select it again: it has no move now (its reach is refused)
    await until(union, "(u) => bluegray.selection?.unit === u", MOVER)
    await union.wait_for_selector("#reach-refused", timeout=PATIENCE)
    await union.locator(".toast.illegal").wait_for(timeout=PATIENCE)  # the reach's refusal
    await js(union, "() => document.querySelectorAll('.toast').forEach((t) => t.remove())")
    await click_hex(union, "0827")  # a neighbouring hex the server did not offer: ask the rules why
    toast = union.locator(".toast.illegal")
    await toast.wait_for(timeout=PATIENCE)
    assert "Rule" in await toast.inner_text()
    await shot(union, "illegal-move")
    await union.keyboard.press("Escape")

    # -- end the phase: the Combat Phase; plan the attack and see the odds before declaring ------------
    await until(union, "() => !bluegray.busy")  # a key pressed while an action awaits its answer is ignored
    await union.keyboard.press("e")
    await until(
        union, "() => bluegray.board.state.phase === 'combat' && bluegray.validChoices()?.attacks?.length > 0"
    )
    await union.wait_for_selector(f"#overlay .ring.target[data-hex='{TARGET}']", timeout=PATIENCE)
    await click_hex(union, TARGET)
    await union.wait_for_selector("#declare", timeout=PATIENCE)
    assert "Odds 1-1" in await union.inner_text("#odds")
    # The chance of each result on that column: the die rows of the battle's table out of six.
    table = table_of(GAMES.game("chattanooga", "classic"))
    shown = await union.eval_on_selector_all("#chances .chance", "ss => ss.map((s) => [s.dataset.result, s.textContent])")
    assert shown == [[r, f"{r} {round(p * 100)}%"] for r, p in column_distribution(table, "1-1").items()]
    await shot(union, "attack-odds")
    await union.click("#declare")

    # -- resolve: the odds may be reduced (7.9); roll and see the die and the result ------------------
    await union.wait_for_selector("#roll", timeout=PATIENCE)
    columns = await union.eval_on_selector_all("#column option", "os => os.map(o => o.value)")
    assert columns[0] == "1-1" and len(columns) > 1
    assert await union.get_attribute("#chances", "data-column") == "1-1"
    await union.select_option("#column", columns[1])  # a reduced column (7.9): its chances
    assert await union.get_attribute("#chances", "data-column") == columns[1]
    await union.select_option("#column", columns[0])
    await union.click("#roll")
    await union.wait_for_selector("#combat-result", timeout=PATIENCE)
    await shot(union, "combat-result")
    result = await js(union, "() => bluegray.board.lastCombat")
    assert 1 <= result["die"] <= 6 and result["result"] in ("Ae", "Ar", "Dr", "De", "Ex")
    await until(watcher, "(v) => bluegray.board.version >= v", await version(union))
    assert (await js(watcher, "() => bluegray.board.lastCombat"))["die"] == result["die"]

    # -- whatever the die said, make the decisions it asks for (retreat, losses, advance) ---------------
    await make_decisions(union, confed, shot)

    # -- the spectator drops its connection, misses events, and catches up by itself -------------------
    await js(watcher, "() => bluegray.conn.drop()")
    await until(watcher, "() => bluegray.conn.state !== 'live'")
    await until(union, "() => bluegray.validChoices() !== null && !bluegray.busy")
    assert await js(union, "() => bluegray.validChoices().may_end_phase"), await union.inner_text("#action")
    await union.keyboard.press("e")
    await until(union, "() => bluegray.board.state.phasing === 'confederate'")
    await until(
        watcher, "(v) => bluegray.conn.state === 'live' && bluegray.board.version === v", await version(union)
    )
    for unit, hex_ in (await js(union, "() => bluegray.board.state.positions")).items():
        assert await position(watcher, unit) == hex_
    assert await js(watcher, "() => bluegray.board.state.phasing") == "confederate"
    await shot(watcher, "spectator-tablet")
    await shot(confed, "confederate-turn")

    # -- a draw offered and declined; then the Confederate resigns: the end, with the level of victory --
    await confed.click("#draw-offer")
    await union.wait_for_selector("#draw-decline", timeout=PATIENCE)
    await union.click("#draw-decline")
    await until(confed, "() => bluegray.board.session.draw === null")
    await union.fill("#chat input", "Well fought.")
    await union.press("#chat input", "Enter")
    await until(confed, "() => document.querySelector('#log').textContent.includes('Union: Well fought.')")
    await confed.click("#resign")
    await confed.click("#resign-confirm")
    for page in (union, confed, watcher):
        await page.wait_for_selector("#result", timeout=PATIENCE)
    assert "Union" in await union.inner_text("#result")
    await shot(union, "game-over")
    for page in (union, confed, watcher):
        assert not page.errors, page.errors
        await page.context.close()


@pytest.mark.parametrize("invite", ["", "#not-a-real-invite-code"])
async def test_bad_invite_is_explained(browser, server, invite):
    async with aiohttp.ClientSession() as http:
        async with http.post(f"{server}/api/games", json={"scenario": "chattanooga"}) as r:
            game = await r.json()
    page = await new_page(browser)
    await page.goto(f"{server}/join/{game['game_id']}{invite}")
    await page.wait_for_selector(".card .error", timeout=PATIENCE)
    await page.context.close()


async def seated_page(browser, server, game_id: str, seat: str, token: str, viewport=LAPTOP, frames=None):
    """A page of /play/<game> in a browser that holds `seat` (its token in localStorage, as the lobby
    or the invite page leaves it). ``frames``: a list that gets every websocket message of the page,
    as ("sent" or "received", the message)."""
    page = await new_page(browser, viewport=viewport)
    if frames is not None:
        page.on("websocket", lambda ws: record_frames(ws, frames))
    seats = {game_id: {"seat": seat, "token": token, "at": 0}}
    await page.context.add_init_script(
        "const held = JSON.parse(localStorage.getItem('bluegray.seats') || '{}');"
        f"localStorage.setItem('bluegray.seats', JSON.stringify(Object.assign({json.dumps(seats)}, held)))"
    )
    await page.goto(f"{server}/play/{game_id}")
    await page.wait_for_selector("#conn.live", timeout=PATIENCE)
    return page


def record_frames(ws, frames: list) -> None:
    ws.on("framesent", lambda data: frames.append(("sent", json.loads(data))))
    ws.on("framereceived", lambda data: frames.append(("received", json.loads(data))))


async def until_frame(frames: list, test) -> tuple[str, dict]:
    """The first of ``frames`` for which ``test(direction, message)`` holds, once it has come."""
    async with asyncio.timeout(PATIENCE / 1000):
        while True:
            for direction, message in frames:
                if test(direction, message):
                    return direction, message
            await asyncio.sleep(0.02)


async def started_game(server, **create) -> tuple[dict, dict]:
    """A game of Chattanooga created over HTTP (``create``: more fields of the request) and joined by
    its invite: (the creator's answer, the joiner's answer)."""
    async with aiohttp.ClientSession() as http:
        async with http.post(f"{server}/api/games", json={"scenario": "chattanooga", **create}) as r:
            game = await r.json()
        async with http.post(
            f"{server}/api/games/{game['game_id']}/join", json={"invite": game["invite"]}
        ) as r:
            assert r.status == 200
            return game, await r.json()


async def test_reinforcements_enter_on_turn_two(browser, server, shot):
    game, joined = await started_game(server, side="union")
    union = await seated_page(browser, server, game["game_id"], "union", game["token"])
    confed = await seated_page(
        browser, server, game["game_id"], "confederate", joined["token"], viewport=TABLET
    )
    # Four phases end (Union movement and combat, Confederate movement and combat): Game-Turn 2.
    for page, phase in ((union, "movement"), (union, "combat"), (confed, "movement"), (confed, "combat")):
        await until(
            page, "(p) => bluegray.board.state.phase === p && bluegray.validChoices()?.may_end_phase && !bluegray.busy", phase
        )
        await page.keyboard.press("e")
        await until(page, "(p) => bluegray.board.state.phase !== p", phase)
    await until(
        union, "() => bluegray.board.state.turn === 2 && bluegray.validChoices()?.may_enter?.length > 0"
    )
    unit = await union.get_attribute("#reinforcements button.enter >> nth=0", "data-unit")
    await union.click(f"#reinforcements button.enter[data-unit='{unit}']")
    dests = await reach(union, unit, "enter")
    dest = max(dests, key=lambda h: (dests[h]["cost"], h))
    await union.wait_for_selector(f"#overlay .shade.reach[data-hex='{dest}']", timeout=PATIENCE)
    # the map was brought to the entry: the cheapest destination's first hex is in the middle
    entry = min(dests.values(), key=lambda d: d["cost"])["path"][0]
    middle = "(h) => { const [x, y] = bluegray.map.layout.centre(h); const v = bluegray.map.view; return [v.x + v.w / 2 - x, v.y + v.h / 2 - y]; }"
    assert [abs(d) < 1 for d in await js(union, middle, entry)] == [True, True]
    await shot(union, "reinforcement-reach")
    await click_hex(union, dest)
    for page in (union, confed):
        await until(page, "([u, h]) => bluegray.board.state.positions[u] === h", [unit, dest])
    assert "on the map" in await union.inner_text("#reinforcements")
    await shot(confed, "tablet-portrait-player")
    for page in (union, confed):
        assert not page.errors, page.errors
        await page.context.close()


async def test_a_selected_unit_asks_where_it_may_go_once_per_version(browser, server, shot):
    # The choices name the units that may move; where one may go is asked of the server when it is
    # selected (a `reach`), once per version of the choices: drawn when it comes, a click on a drawn
    # hex moves there; a unit that has moved is refused with the rule's case (5.17).
    game, _ = await started_game(server, side="union")
    frames: list[tuple[str, dict]] = []
    union = await seated_page(browser, server, game["game_id"], "union", game["token"], frames=frames)
    await until(union, "() => bluegray.validChoices() !== null")
    first = await js(union, "() => bluegray.choices.version")
    assert MOVER in await js(union, "() => bluegray.validChoices().may_move")
    assert await js(union, "() => bluegray.validChoices().moves") == {}  # no destinations in the choices

    # -- select: asked, drawn; deselect and select again: drawn from what the server said ---------------
    await click_hex(union, START)
    await union.wait_for_selector(f"#overlay .shade.reach[data-hex='{DEST}']", timeout=PATIENCE)
    assert await union.locator("#reach-loading").count() == 0
    await union.keyboard.press("Escape")
    await until(union, "() => bluegray.selection === null")
    await click_hex(union, START)
    await union.wait_for_selector(f"#overlay .shade.reach[data-hex='{DEST}']", timeout=PATIENCE)
    await click_hex(union, DEST)
    _, move = await until_frame(frames, lambda d, m: d == "sent" and m["type"] == "command")
    assert move["command"] == {"type": "move", "unit": MOVER, "path": move["command"]["path"]}
    assert move["command"]["path"][0] == START and move["command"]["path"][-1] == DEST
    _, ack = await until_frame(
        frames, lambda d, m: d == "received" and m.get("command_id") == move["command_id"]
    )
    assert ack["type"] == "ack"
    before_move = frames[: frames.index(("sent", move))]
    asked = [m for d, m in before_move if d == "sent" and m["type"] == "reach"]
    assert asked == [{"type": "reach", "unit": MOVER, "how": "move"}]
    replies = [m for d, m in before_move if d == "received" and m["type"] == "reach"]
    assert len(replies) == 1 and replies[0]["version"] == first and replies[0]["refused"] is None
    assert move["command"]["path"] == replies[0]["destinations"][DEST]["path"]
    await until(union, "([u, h]) => bluegray.board.state.positions[u] === h", [MOVER, DEST])

    # -- new choices, then a chat (a later version, the same position: no new choices); another unit,
    # selected, shows it is being asked (nothing drawn) until its reach comes, then drawn ---------------
    await until(union, "(v) => bluegray.validChoices() !== null && bluegray.choices.version > v", first)
    assert (await js(union, "() => bluegray.act({ type: 'chat', text: 'Onward.' })"))["type"] == "ack"
    await until(
        union, "() => bluegray.board.version > bluegray.choices.version && bluegray.validChoices() !== null"
    )
    other = await js(union, "(u) => bluegray.validChoices().may_move.find((x) => x !== u)", MOVER)
    waiting = await js(
        union,
        """(u) => { bluegray.selectUnit(u);
        return [!!document.querySelector('#reach-loading'), document.querySelectorAll('#overlay .shade.reach').length]; }""",
        other,
    )
    assert waiting == [True, 0]
    dests = await reach(union, other)
    await union.wait_for_selector(f"#overlay .shade.reach[data-hex='{next(iter(dests))}']", timeout=PATIENCE)
    assert await union.locator("#reach-loading").count() == 0

    # -- the unit that moved: refused, with the rule's case and sentence as an illegal command's -----------
    await click_hex(union, DEST)
    await until(union, "(u) => bluegray.selection?.unit === u", MOVER)
    toast = union.locator(".toast.illegal")
    await toast.wait_for(timeout=PATIENCE)
    assert "Rule 5.17" in await toast.inner_text()
    assert "5.17" in await union.inner_text("#reach-refused")
    assert await union.locator("#overlay .shade.reach").count() == 0
    assert await js(union, "(u) => bluegray.reachOf(u).refused.case", MOVER) == "5.17"
    await shot(union, "reach-refused")
    assert not union.errors, union.errors
    await union.context.close()


async def test_a_refused_seat_token_watches_instead(browser, server):
    async with aiohttp.ClientSession() as http:
        async with http.post(f"{server}/api/games", json={"scenario": "chattanooga"}) as r:
            game = await r.json()
    page = await seated_page(browser, server, game["game_id"], "union", "not-the-token")
    await until(page, "() => bluegray.conn.state === 'live' && bluegray.seat === null")
    await page.wait_for_selector(".toast.error", timeout=PATIENCE)
    assert await page.inner_text("#seat-badge") == "Watching"
    assert await page.locator("#end-phase").is_hidden()
    await page.context.close()


async def test_replay_steps_back_and_returns_to_live(browser, server, shot):
    from api.protocol import CLIENT_TAGS

    if "replay_seek" not in CLIENT_TAGS:
        pytest.skip("this server offers no replay yet (the replay_* messages of api/replaying.py)")
    game, _ = await started_game(server)
    union = await seated_page(browser, server, game["game_id"], "union", game["token"])
    await until(union, "() => bluegray.validChoices() !== null")
    await click_hex(union, START)
    await until(union, "(u) => bluegray.selection?.unit === u", MOVER)
    await union.wait_for_selector(f"#overlay .shade.reach[data-hex='{DEST}']", timeout=PATIENCE)
    await click_hex(union, DEST)
    await until(union, "([u, h]) => bluegray.board.state.positions[u] === h", [MOVER, DEST])
    await until(union, "() => bluegray.validChoices() !== null && !bluegray.busy")
    await union.keyboard.press("e")
    await until(union, "() => bluegray.board.state.phase === 'combat'")
    live_version = await version(union)
    # R opens the replay at the newest version; the arrows and PageUp step back through it.
    await union.keyboard.press("r")
    await until(union, "(v) => bluegray.replay?.frame?.version === v", live_version)
    await union.keyboard.press("Shift+ArrowLeft")
    await until(union, "(v) => bluegray.replay?.frame && bluegray.replay.frame.version < v", live_version)
    await union.keyboard.press("PageUp")
    await until(union, "([u, h]) => bluegray.shown.state.positions[u] === h", [MOVER, START])
    assert await position(union, MOVER) == DEST  # the live board is untouched
    assert await union.locator("#end-phase").is_disabled()
    await shot(union, "replay")
    await union.click("#replay-forward")
    await until(union, "() => bluegray.replay?.frame?.version > 1")
    await union.keyboard.press("l")
    await until(union, "() => bluegray.replay === null")
    assert await union.locator("#replay-bar").is_hidden()
    assert await js(union, "() => bluegray.shown === bluegray.board")
    assert not union.errors, union.errors
    await union.context.close()


async def test_fork_a_what_if_and_play_both_sides(browser, server, shot):
    from api.protocol import CLIENT_TAGS

    if "replay_seek" not in CLIENT_TAGS:
        pytest.skip("this server offers no replay yet (the replay_* messages of api/replaying.py)")
    game, _ = await started_game(server)
    async with aiohttp.ClientSession() as http:
        async with http.post(f"{server}/api/games/{game['game_id']}/fork", json={"version": 3}) as r:
            if r.status in (404, 405):
                pytest.skip("this server cannot fork games yet (POST /api/games/{id}/fork)")
    union = await seated_page(browser, server, game["game_id"], "union", game["token"])
    await until(union, "() => bluegray.validChoices() !== null")
    await union.keyboard.press("r")
    await until(union, "() => bluegray.replay?.frame")
    await js(union, "() => bluegray.replaySend({type: 'replay_seek', version: 3})")
    await until(union, "() => bluegray.replay?.frame?.version === 3")
    async with union.expect_navigation(timeout=PATIENCE):
        await union.click("#replay-fork")
    await union.wait_for_selector("#conn.live", timeout=PATIENCE)
    assert "/play/" in union.url and game["game_id"] not in union.url
    assert await union.inner_text("#seat-badge") == "Sandbox: you play Union"
    await until(union, "([u, h]) => bluegray.board.state.positions[u] === h", [MOVER, START])
    # One player plays both sides: when the Confederate is to act, the page takes his seat.
    for phase in ("movement", "combat"):
        await until(
            union, "(p) => bluegray.board.state.phase === p && bluegray.validChoices()?.may_end_phase && !bluegray.busy", phase
        )
        await union.keyboard.press("e")
        await until(union, "(p) => bluegray.board.state.phase !== p", phase)
    await until(union, "() => bluegray.seat === 'confederate' && bluegray.validChoices() !== null")
    assert await union.inner_text("#seat-badge") == "Sandbox: you play Confederate"
    await shot(union, "sandbox-hot-seat")
    assert not union.errors, union.errors
    await union.context.close()


async def test_a_player_reads_the_whole_report_while_spectators_wait_for_the_delay(browser, server):
    # The game hides its events from spectators for 50 events. The player's browser sends its seat
    # token for the report (never in the address) and gets the whole game so far; a spectator's
    # report stops before the first move.
    game, _ = await started_game(server, options={"spectator_delay": 50})
    async with aiohttp.ClientSession() as http:
        path, movers = None, None
        async with http.ws_connect(f"{server}/ws") as ws:
            await ws.send_json(
                {"type": "hello", "game_id": game["game_id"], "token": game["token"], "choices": True}
            )
            async for frame in ws:
                message = frame.json()
                if message["type"] == "choices" and movers is None:
                    movers = list(message["choices"]["may_move"])
                    await ws.send_json({"type": "reach", "unit": movers.pop(0), "how": "move"})
                elif message["type"] == "reach" and path is None:
                    if not message["destinations"]:  # this one has nowhere to go: the next
                        await ws.send_json({"type": "reach", "unit": movers.pop(0), "how": "move"})
                        continue
                    path = next(iter(message["destinations"].values()))["path"]
                    move = {"type": "move", "unit": message["unit"], "path": path}
                    await ws.send_json({"type": "command", "command_id": "first", "command": move})
                elif message["type"] == "ack":
                    break
                assert message["type"] != "error", message
        moved = f"moves {'-'.join(path)}"
        async with http.get(f"{server}/games/{game['game_id']}/report") as r:
            assert r.status == 200 and moved not in await r.text()
    player = await seated_page(browser, server, game["game_id"], game["seat"], game["token"])
    await player.wait_for_selector("#report-link:not(.hidden)", timeout=PATIENCE)
    async with player.context.expect_page(timeout=PATIENCE) as opened:
        await player.click("#report-link")
    report = await opened.value
    await report.wait_for_selector("h1", timeout=PATIENCE)
    assert report.url.startswith("blob:")
    assert moved in await report.content()
    assert player.errors == []
    await player.context.close()


async def test_claim_the_game_of_a_silent_opponent(browser, server):
    # The game allows 6 s of silence. The Union player, who moves first, says nothing; the
    # Confederate player's page offers the claim once the silence has run out, and the claim ends the
    # game in his favour (api: `claim`, session/decide.py).
    game, rebel = await started_game(server, side="union", options={"silence_seconds": 6})
    page = await seated_page(browser, server, game["game_id"], rebel["seat"], rebel["token"])
    assert rebel["seat"] == "confederate"
    left, hidden = await js(
        page, "() => [bluegray.silenceLeft(), document.querySelector('#claim').classList.contains('hidden')]"
    )
    assert 0 < left <= 6000 and hidden
    await page.wait_for_selector("#claim:not(.hidden)", timeout=PATIENCE)
    await page.click("#claim")
    await page.click("#claim-confirm")
    await until(page, "() => !!bluegray.board.session.finished")
    finished = await js(page, "() => bluegray.board.session.finished")
    assert finished["reason"] == "abandonment" and finished["winner"] == "confederate"
    assert await page.locator("#claim").is_hidden()
    assert page.errors == []
    await page.context.close()


@pytest.mark.parametrize("viewport", [LAPTOP, {"width": 390, "height": 844}], ids=["desktop", "phone"])
async def test_a_game_the_server_no_longer_knows_is_said_to_be_gone(browser, server, viewport):
    # the websocket answers `hello` for a game it does not know with `not_found` (docs/PROTOCOL.md;
    # e.g. a store reset after the page loaded): the page stops reconnecting and says the game cannot
    # be served, on a desktop and on a 390 px phone
    async with aiohttp.ClientSession() as http:
        async with http.post(f"{server}/api/games", json={"scenario": "chattanooga"}) as r:
            game = await r.json()
    page = await new_page(browser, viewport=viewport)

    def answer(ws):
        def on_message(message):
            if json.loads(message).get("type") == "hello":
                ws.send(
                    json.dumps(
                        {"type": "error", "code": "not_found", "message": f"no game {game['game_id']!r}"}
                    )
                )

        ws.on_message(on_message)

    await page.route_web_socket(lambda url: url.endswith("/ws"), answer)
    await page.goto(f"{server}/watch/{game['game_id']}")
    await until(page, "() => window.bluegray && bluegray.conn.state === 'gone'")
    assert "gone" in await page.get_attribute("#conn", "class")
    stale = page.locator("#stale")
    assert await stale.is_visible()
    assert await stale.inner_text() == "This game cannot be served any more."
    await page.context.close()
