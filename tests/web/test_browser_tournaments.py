"""Tournaments in the browser (api/static/js/tournaments.js; docs/PROTOCOL.md "Tournaments"): a
tournament created through the API is listed at /tournaments; two players enter it from its page with
the Enter button; once its creator starts it, its page shows round 1's pairing with its games and the
standings, and each player finds his game in the lobby."""

from __future__ import annotations

from browsing import PATIENCE, new_page
from test_browser_accounts import sign

from api.accounts import CSRF_HEADER

TERMS = {"name": "Chattanooga Cup", "scenario": "chattanooga", "kind": "round_robin", "duplicate": True, "max_players": 4}


async def test_two_players_enter_a_tournament_and_see_its_pairing(browser, server, shot):
    creator = await new_page(browser)
    await sign(creator, server, "sign-up", "Halleck")
    csrf = (await (await creator.request.get(f"{server}/api/session")).json())["account"]["csrf"]
    made = await creator.request.post(f"{server}/api/tournaments", data=TERMS, headers={CSRF_HEADER: csrf})
    assert made.status == 201, await made.text()
    tid = (await made.json())["id"]

    players = []
    for name in ("Grant", "Lee"):
        page = await new_page(browser)
        await sign(page, server, "sign-up", name)
        await page.click("#tournaments-link")
        await page.wait_for_selector(f"#tournament-list li[data-tournament='{tid}']", timeout=PATIENCE)
        assert "Chattanooga Cup" in await page.inner_text(f"#tournament-list li[data-tournament='{tid}']")
        await page.click(f"#tournament-list li[data-tournament='{tid}'] a")
        await page.wait_for_selector("#tournament-enter", timeout=PATIENCE)
        assert "round robin, duplicate pairs" in await page.inner_text("#tournament-terms")
        await page.click("#tournament-enter")
        await page.wait_for_selector(f"#tournament-entries li[data-player='{name}']", timeout=PATIENCE)
        assert await page.locator("#tournament-enter").count() == 0
        assert await page.inner_text("#enter-said") == "You are entered."
        players.append(page)
    grant, lee = players
    shown = await (await grant.request.get(f"{server}/api/tournaments/{tid}")).json()
    assert [e["player"] for e in shown["entries"]] == ["Grant", "Lee"]
    assert all(e["nonce"] for e in shown["entries"])  # each player's share of the dice, sent by the page

    # Not signed in: no Enter button, a sentence instead.
    stranger = await new_page(browser)
    await stranger.goto(f"{server}/tournaments/{tid}")
    await stranger.wait_for_selector("#tournament-name", timeout=PATIENCE)
    assert await stranger.locator("#tournament-enter").count() == 0
    assert "Sign in" in await stranger.inner_text("#enter-said")

    started = await creator.request.post(f"{server}/api/tournaments/{tid}/start", headers={CSRF_HEADER: csrf})
    assert started.status == 200, await started.text()
    await lee.reload()
    await lee.wait_for_selector("#tournament-rounds li[data-round='1']", timeout=PATIENCE)
    assert await lee.inner_text("#tournament-status") == "running"
    pair = await lee.inner_text("#tournament-rounds li[data-round='1'] li[data-pair]")
    assert "Grant – Lee" in pair and pair.count("playing") == 2  # a duplicate pair: two games, sides swapped
    assert {await r.get_attribute("data-player") for r in await lee.query_selector_all("#tournament-standings tr[data-player]")} == {"Grant", "Lee"}
    await shot(lee, "tournament")
    games = [await a.get_attribute("href") for a in await lee.query_selector_all("#tournament-rounds a")]
    assert len(games) == 2 and all(g.startswith("/play/") for g in games), games  # his own games: to play
    await stranger.reload()
    await stranger.wait_for_selector("#tournament-rounds li[data-round='1']", timeout=PATIENCE)
    assert [await a.get_attribute("href") for a in await stranger.query_selector_all("#tournament-rounds a")] == [
        g.replace("/play/", "/watch/") for g in games]  # another's: to watch
    await grant.goto(f"{server}/")
    for href in games:
        await grant.wait_for_selector(f"#account-games a[href='{href}']", timeout=PATIENCE)
    await grant.click(f"#account-games a[href='{games[0]}']")
    await grant.wait_for_selector("#conn.live", timeout=PATIENCE)
    assert await grant.inner_text("#seat-badge") in ("You play Union", "You play Confederate")
    for page in (creator, grant, lee, stranger):
        assert page.errors == [], page.errors
        await page.context.close()
