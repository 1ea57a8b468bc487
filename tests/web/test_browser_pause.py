"""A pause by consent in the browser (api/static/js/dialogs.js, game.js, clock.js; docs/PROTOCOL.md
"Pause"): in a correspondence game made in the lobby, the Union player asks a pause of some days, the
Confederate player sees the request and accepts it, both pages show the game paused (the clock too),
a command is refused while it runs and the page says why, and Resume now ends it."""

from __future__ import annotations

import aiohttp
from browsing import PATIENCE, new_page, until
from test_browser import seated_page


async def test_a_pause_is_asked_accepted_shown_and_resumed(browser, server, shot):
    union = await new_page(browser)
    await union.goto(f"{server}/")
    await union.wait_for_selector("#create")
    await union.select_option("select[name=scenario]", "chattanooga")
    await union.select_option("select[name=side]", "union")
    await union.select_option("select[name=clock]", "correspondence")
    await union.fill("input[name=clock_days]", "3")
    await union.click("#create")
    await union.wait_for_selector("#invite-link", timeout=PATIENCE)
    game_id, code = (await union.input_value("#invite-link")).split("/join/")[1].split("#")
    async with aiohttp.ClientSession() as http:
        async with http.post(f"{server}/api/games/{game_id}/join", json={"invite": code}) as r:
            assert r.status == 200, await r.text()
            rebel = await r.json()
    await union.click("#open-game")
    await union.wait_for_selector("#conn.live", timeout=PATIENCE)
    confed = await seated_page(browser, server, game_id, "confederate", rebel["token"])
    await union.wait_for_selector("#clock-union.running", timeout=PATIENCE)

    # The Union player asks for 5 days.
    await union.wait_for_selector("#pause-request:not(.hidden):not([disabled])", timeout=PATIENCE)
    await union.click("#pause-request")
    assert "30 more day(s)" in await union.inner_text("#dialog")
    await union.fill("#pause-days", "5")
    await union.click("#pause-send")
    await union.wait_for_selector("#pause-withdraw", timeout=PATIENCE)
    assert "Union asks to pause the game for 5 day(s)" in await union.inner_text("#pause-note")
    assert await union.is_disabled("#pause-request")

    # The Confederate player sees it and accepts.
    await confed.wait_for_selector("#pause-accept", timeout=PATIENCE)
    assert "Union asks to pause the game for 5 day(s)" in await confed.inner_text("#pause-note")
    assert await confed.locator("#pause-decline").count() == 1
    await confed.click("#pause-accept")
    for page in (union, confed):
        await page.wait_for_selector("#paused-note", timeout=PATIENCE)
        assert "Paused: no clock runs until" in await page.inner_text("#paused-note")
        await page.wait_for_selector("#clock-union.paused", timeout=PATIENCE)
        assert await page.locator("#clock .running").count() == 0
        assert "paused" in await page.inner_text("#clock-union .time")
        assert await page.locator("#pause-note").count() == 0
    session = (await (await union.request.get(f"{server}/api/games/{game_id}")).json())
    assert session["options"]["clock"]["mode"] == "correspondence"
    left = float(await union.get_attribute("#clock-union", "data-left"))
    await shot(union, "paused")

    # A command while paused is refused, and the page says why.
    await union.click("#end-phase")
    await union.wait_for_selector("#toasts .illegal", timeout=PATIENCE)
    said = await union.inner_text("#toasts")
    assert "Rule pause" in said and "resume" in said.lower(), said
    assert float(await union.get_attribute("#clock-union", "data-left")) == left  # nothing charged meanwhile

    # Resume now: the pause ends on both pages, the Union's clock runs again.
    await confed.click("#pause-resume")
    for page in (union, confed):
        await until(page, "() => !document.querySelector('#paused-note')")
        await page.wait_for_selector("#clock-union.running", timeout=PATIENCE)
        assert "resum" in (await page.inner_text("#log")).lower()
    await union.wait_for_selector("#pause-request:not([disabled])", timeout=PATIENCE)
    version = await union.evaluate("() => bluegray.board.version")
    await union.click("#end-phase")
    await until(union, "(v) => bluegray.board.version > v", version)
    for page in (union, confed):
        assert page.errors == [], page.errors
        await page.context.close()
