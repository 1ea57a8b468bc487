"""Time controls in the browser: a game created in the lobby with a live clock shows both sides' time
to both players and to a spectator; the Union player, who moves first, lets his bank run down; the
Confederate player's page offers the claim once it has run out, and the claim ends the game on time,
with the result in the record."""

from __future__ import annotations

import aiohttp
from browsing import PATIENCE, js, new_page, until
from test_browser import seated_page

BANK_MINUTES = "0.1"  # 6 s: the lobby's "Minutes per player"


async def test_a_clock_runs_down_and_the_flag_fall_is_claimed(browser, server, shot):
    union = await new_page(browser)
    await union.goto(f"{server}/")
    await union.wait_for_selector("#create")
    await union.select_option("select[name=scenario]", "chattanooga")
    await union.select_option("select[name=side]", "union")
    assert await union.locator("input[name=clock_minutes]").is_hidden()  # no clock by default
    await union.select_option("select[name=clock]", "live")
    await union.fill("input[name=clock_minutes]", BANK_MINUTES)
    await union.fill("input[name=clock_increment]", "0")
    await union.click("#create")
    await union.wait_for_selector("#invite-link", timeout=PATIENCE)
    invite = await union.input_value("#invite-link")
    game_id, code = invite.split("/join/")[1].split("#")
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{server}/api/games/{game_id}") as r:
            assert (await r.json())["options"]["clock"] == {
                "mode": "live", "bank_seconds": 6, "increment_seconds": 0, "days_per_turn": 0}
        async with http.post(f"{server}/api/games/{game_id}/join", json={"invite": code}) as r:
            assert r.status == 200
            rebel = await r.json()
    await union.click("#open-game")
    await union.wait_for_selector("#conn.live", timeout=PATIENCE)
    confed = await seated_page(browser, server, game_id, "confederate", rebel["token"])
    watcher = await new_page(browser)
    await watcher.goto(f"{server}/watch/{game_id}")
    await watcher.wait_for_selector("#conn.live", timeout=PATIENCE)

    # Every page shows both clocks; the Union's runs (the game waits for him), the Confederate's stands.
    for page in (union, confed, watcher):
        await page.wait_for_selector("#clock-union.running", timeout=PATIENCE)
        assert await page.inner_text("#clock-confederate .time") == "0:06"
        assert "Clock: 0.1 min + 0 s a Player-Turn" in await page.inner_text("#clock")
    first = float(await watcher.get_attribute("#clock-union", "data-left"))
    assert 0 < first <= 6000
    await until(watcher, "(t) => parseFloat(document.querySelector('#clock-union').dataset.left) < t - 600", first)
    assert await confed.locator("#claim").is_hidden()  # not yet run out

    # The bank runs out: every page says so, and the Confederate player may claim the game.
    await confed.wait_for_selector("#claim:not(.hidden)", timeout=PATIENCE)
    for page in (union, watcher):
        await page.wait_for_selector("#clock-union.flag", timeout=PATIENCE)
    assert await confed.inner_text("#clock-union .time") == "time is up"
    await shot(confed, "clock", doc=True)
    await confed.click("#claim")
    assert "time has run out" in await confed.inner_text("#dialog")
    await confed.click("#claim-confirm")
    for page in (confed, union, watcher):
        await until(page, "() => !!bluegray.board.session.finished")
    finished = await js(watcher, "() => bluegray.board.session.finished")
    assert (finished["reason"], finished["by"], finished["winner"]) == ("time", "confederate", "confederate")
    assert "time (the loser's clock ran out)" in await union.inner_text("#result")
    assert "time (the loser's clock ran out)" in await watcher.inner_text("#log")
    assert await watcher.locator("#clock .running").count() == 0  # nobody's clock runs after the end
    for page in (union, confed, watcher):
        assert page.errors == [], page.errors
        await page.context.close()
