"""Chat and spectators in the browser (api/static/js/game.js, docs/PROTOCOL.md "Moderation"): a
spectator's record shows a chat line only when both players ticked *Spectators may read my chat*
before it was said; the players' records show every line."""

from __future__ import annotations

from browsing import PATIENCE, new_page, until


async def chat(page, text: str) -> None:
    await page.fill("#chat input[name=text]", text)
    await page.press("#chat input[name=text]", "Enter")
    await until(page, "(t) => document.querySelector('#log').textContent.includes(t)", text)


async def test_spectators_read_the_chat_only_once_both_players_show_it(browser, server):
    union = await new_page(browser)
    await union.goto(f"{server}/")
    await union.wait_for_selector("#create")
    await union.select_option("select[name=scenario]", "chattanooga")
    await union.select_option("select[name=side]", "union")
    await union.click("#create")
    await union.wait_for_selector("#invite-link", timeout=PATIENCE)
    invite = await union.input_value("#invite-link")
    game_id = invite.split("/join/")[1].split("#")[0]
    await union.click("#open-game")
    await union.wait_for_selector("#conn.live", timeout=PATIENCE)
    confed = await new_page(browser)
    await confed.goto(invite)
    await confed.wait_for_selector("#conn.live", timeout=PATIENCE)
    watcher = await new_page(browser)
    await watcher.goto(f"{server}/watch/{game_id}")
    await watcher.wait_for_selector("#conn.live", timeout=PATIENCE)
    assert await watcher.is_hidden("#chat-consent") and await union.is_visible("#chat-consent")
    assert not await union.is_checked("#chat-shown")  # nobody shows his chat until he says so

    await chat(union, "Before we agree.")
    await union.check("#chat-shown")
    await until(confed, "() => document.querySelector('#log').textContent.includes('Union shows the chat to spectators')")
    await confed.check("#chat-shown")
    await until(union, "() => document.querySelector('#log').textContent.includes('Confederate shows the chat to spectators')")
    assert await union.is_checked("#chat-shown") and await confed.is_checked("#chat-shown")
    await chat(confed, "Now they may read us.")

    await until(watcher, "() => document.querySelector('#log').textContent.includes('Confederate: Now they may read us.')")
    assert "Before we agree." not in await watcher.inner_text("#log")
    assert "Union: Before we agree." in await confed.inner_text("#log")
    await confed.reload()  # the box is the log's: ticked again after a reload
    await confed.wait_for_selector("#conn.live", timeout=PATIENCE)
    await until(confed, "() => document.querySelector('#chat-shown').checked")
    for page in (union, confed, watcher):
        assert not page.errors, page.errors
        await page.context.close()
