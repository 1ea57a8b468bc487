"""Blocking and reporting in the browser (api/static/js/blocks.js, chatreport.js; docs/PROTOCOL.md
"Moderation"): in a game two accounts began from the lobby, the Union player reports his opponent's
chat line from the record (a reason asked) and the admins' list shows it; he blocks his opponent on
that player's page, reached from the game's page (its players named and linked), and the opponent's challenge to him is then refused with the server's sentence
on the page."""

from __future__ import annotations

import asyncio

from browsing import PATIENCE, new_page, until
from test_browser_accounts import sign
from test_browser_moderation import chat

from api.cli import main

LINE = "You will never hold Missionary Ridge."


async def test_a_chat_line_reported_and_a_player_blocked(browser, server, redis_url, key_prefix, shot):
    grant = await new_page(browser)
    await sign(grant, server, "sign-up", "Grant")
    await grant.select_option("#seek-form select[name=scenario]", "chattanooga")
    await grant.select_option("#seek-form select[name=side]", "union")
    await grant.click("#post-seek")
    await grant.wait_for_selector("#seeks li[data-seek] .withdraw", timeout=PATIENCE)
    lee = await new_page(browser)
    await sign(lee, server, "sign-up", "Lee")
    await lee.wait_for_selector("#seeks li[data-seek] .accept", timeout=PATIENCE)
    await lee.click("#seeks li[data-seek] .accept")
    await lee.wait_for_url("**/play/*", timeout=PATIENCE)
    game_id = lee.url.rsplit("/", 1)[1]
    await lee.wait_for_selector("#conn.live", timeout=PATIENCE)
    await grant.goto(f"{server}/play/{game_id}")  # his seat by his account
    await grant.wait_for_selector("#conn.live", timeout=PATIENCE)
    assert await grant.inner_text("#seat-badge") == "You play Union"

    # Lee says a line; Grant's record offers to report it, Lee's does not (his own line).
    await chat(lee, LINE)
    await until(grant, "(t) => document.querySelector('#log').textContent.includes(t)", LINE)
    line = grant.locator("#log li.ev-chat", has_text=LINE)
    await line.locator(".report-chat").click()
    assert LINE in await grant.inner_text("#report-line")
    await grant.click("#report-send")  # no reason yet: asked for one, nothing sent
    assert "Say why you report it" in await grant.inner_text("#report-error")
    await grant.fill("#report-reason", "taunting")
    await grant.click("#report-send")
    await grant.wait_for_selector("#toasts :text('Reported: an admin will read it.')", timeout=PATIENCE)
    assert await lee.locator("#log .report-chat").count() == 0

    # The admins' list shows it (an admin made by the command line, as bluegray admin grant does).
    meade = await new_page(browser)
    await sign(meade, server, "sign-up", "Meade")
    assert await asyncio.to_thread(main, ["admin", "grant", "Meade", "--redis-url", redis_url, "--key-prefix", key_prefix]) == 0
    listed = await meade.request.get(f"{server}/api/admin/reports")
    assert listed.status == 200, await listed.text()
    [report] = (await listed.json())["reports"]
    assert (report["game_id"], report["seat"], report["text"], report["by"], report["reason"]) == (
        game_id, "confederate", LINE, "Grant", "taunting")

    # Grant blocks Lee on Lee's page, reached from the game's page, which names both players; it holds
    # after a reload.
    await grant.goto(f"{server}/play/{game_id}")
    await grant.wait_for_selector("#players a[data-side=confederate]", timeout=PATIENCE)
    assert await grant.inner_text("#players") == "Grant (Union) v Lee (Confederate)"
    await shot(grant, "game-players")
    await grant.click("#players a[data-side=confederate]")
    await grant.wait_for_url("**/players/Lee", timeout=PATIENCE)
    await grant.wait_for_selector("#player-block:has-text('Block Lee')", timeout=PATIENCE)
    await grant.click("#player-block")
    await grant.wait_for_selector("#player-block:has-text('Unblock Lee')", timeout=PATIENCE)
    assert "You block Lee" in await grant.inner_text("#player-block-said")
    assert await (await grant.request.get(f"{server}/api/me/blocks")).json() == {"blocked": ["Lee"]}
    await grant.reload()
    await grant.wait_for_selector("#player-block:has-text('Unblock Lee')", timeout=PATIENCE)
    await grant.goto(f"{server}/players/Grant")  # his own page: nothing to block
    await grant.wait_for_selector("#player-name:has-text('Grant')", timeout=PATIENCE)
    assert await grant.locator("#player-block").count() == 0

    # Lee's challenge to Grant is refused, the server's sentence on the page.
    await lee.goto(f"{server}/")
    await lee.wait_for_selector("#seek-form", timeout=PATIENCE)
    await lee.fill("#seek-form input[name=opponent]", "Grant")
    await lee.click("#post-seek")
    await until(lee, "() => document.querySelector('#seek-error').textContent.length > 0")
    assert "does not take proposals from you" in await lee.inner_text("#seek-error")
    assert (await (await lee.request.get(f"{server}/api/lobby")).json())["challenges"] == []
    # Chromium logs the refused challenge's answer (the 403 the page showed) as a console error: only it.
    assert lee.errors == ["Failed to load resource: the server responded with a status of 403 (Forbidden)"], lee.errors
    for page in (grant, lee, meade):
        assert page is lee or page.errors == [], page.errors
        await page.context.close()
