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


async def test_a_player_creates_a_tournament_with_the_form_and_starts_it(browser, server, shot):
    # /tournaments: the New tournament form (signed in), then its page; its creator enters it like anyone,
    # and its Start button (the creator's only, disabled until two have entered) pairs round 1.
    stranger = await new_page(browser)
    await stranger.goto(f"{server}/tournaments")
    await stranger.wait_for_selector("#new-tournament-said", timeout=PATIENCE)
    assert "Sign in" in await stranger.inner_text("#new-tournament-said")
    assert await stranger.locator("#new-tournament-form").count() == 0

    creator = await new_page(browser)
    await sign(creator, server, "sign-up", "Sherman")
    await creator.goto(f"{server}/tournaments")
    await creator.wait_for_selector("#new-tournament-form select[name=ruleset] option", state="attached", timeout=PATIENCE)
    form = "#new-tournament-form"
    await creator.fill(f"{form} input[name=name]", "Shiloh Swiss")
    await creator.select_option(f"{form} select[name=scenario]", "shiloh")
    await creator.wait_for_selector(f"{form} select[name=ruleset] option[value=revised]", state="attached", timeout=PATIENCE)
    assert await creator.is_hidden(f"{form} input[name=rounds]")  # a round robin's rounds are its players'
    await creator.select_option(f"{form} select[name=kind]", "swiss")
    await creator.fill(f"{form} input[name=rounds]", "2")
    await creator.check(f"{form} input[name=duplicate]")
    await creator.fill(f"{form} input[name=max_players]", "4")
    await creator.fill(f"{form} input[name=round_days]", "3")
    await creator.select_option(f"{form} select[name=clock]", "correspondence")
    await creator.fill(f"{form} input[name=clock_days]", "2")
    await shot(creator, "tournament-form")
    await creator.click("#create-tournament")
    await creator.wait_for_selector("#tournament-name", timeout=PATIENCE)
    assert "/tournaments/" in creator.url and await creator.inner_text("#tournament-name") == "Shiloh Swiss"
    tid = creator.url.rsplit("/", 1)[1]
    made = await (await creator.request.get(f"{server}/api/tournaments/{tid}")).json()
    assert (made["scenario"], made["kind"], made["rounds"], made["duplicate"], made["max_players"]) == ("shiloh", "swiss", 2, True, 4)
    assert made["round_seconds"] == 3 * 24 * 3600 and made["clock"]["days_per_turn"] == 2 and made["creator"] == "Sherman"
    assert "Swiss, duplicate pairs, 2 rounds, 2 day(s) a Player-Turn" in await creator.inner_text("#tournament-terms")
    assert await creator.is_disabled("#tournament-start")  # nobody has entered yet

    await creator.click("#tournament-enter")  # the creator plays in it too
    await creator.wait_for_selector("#tournament-entries li[data-player='Sherman']", timeout=PATIENCE)
    assert await creator.is_disabled("#tournament-start")  # one player is no tournament
    other = await new_page(browser)
    await sign(other, server, "sign-up", "Johnston")
    await other.goto(f"{server}/tournaments/{tid}")
    await other.wait_for_selector("#tournament-enter", timeout=PATIENCE)
    assert await other.locator("#tournament-start").count() == 0  # not his to start
    await other.click("#tournament-enter")
    await other.wait_for_selector("#tournament-entries li[data-player='Johnston']", timeout=PATIENCE)

    await creator.reload()
    await creator.wait_for_selector("#tournament-start:not([disabled])", timeout=PATIENCE)
    await creator.click("#tournament-start")
    await creator.wait_for_selector("#tournament-rounds li[data-round='1']", timeout=PATIENCE)
    assert await creator.inner_text("#tournament-status") == "running"
    assert await creator.locator("#tournament-start").count() == 0
    pair = await creator.inner_text("#tournament-rounds li[data-round='1'] li[data-pair]")
    assert pair.count("playing") == 2  # duplicate: two games, sides swapped
    await shot(creator, "tournament-created")
    for page in (stranger, creator, other):
        assert page.errors == [], page.errors
        await page.context.close()
