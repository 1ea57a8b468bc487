"""Accounts in the browser (api/static/js/account.js): two players sign up, one posts a seek, the
other accepts it, each plays from his own browser and sees the other's move; the "your move" badge
and title; a player logs in on a second browser and takes his seat there, with no token."""

from __future__ import annotations

from browsing import PATIENCE, new_page, until

PASSWORD = "correct horse battery"


async def sign(page, server: str, form: str, name: str) -> None:
    await page.goto(f"{server}/")
    await page.wait_for_selector(f"#{form}")
    await page.fill(f"#{form} input[name=name]", name)
    await page.fill(f"#{form} input[name=password]", PASSWORD)
    await page.click(f"#{form} button[type=submit]")
    await page.wait_for_selector("#me-name", timeout=PATIENCE)
    assert await page.inner_text("#me-name") == name


async def end_phases_until_the_other_must_act(page) -> None:
    """Click End phase while this seat is to act (each click one command)."""
    await until(page, "() => window.bluegray && bluegray.conn.state === 'live' && bluegray.seat")
    while await page.evaluate("() => bluegray.board.toAct() === bluegray.seat"):
        version = await page.evaluate("() => bluegray.board.version")
        await page.wait_for_selector("#end-phase:not([disabled])", timeout=PATIENCE)
        await page.click("#end-phase")
        await until(page, "(v) => bluegray.board.version > v", version)


async def test_a_seek_in_the_lobby_becomes_a_game_two_browsers_play(browser, server):
    grant = await new_page(browser)
    await sign(grant, server, "sign-up", "Grant")
    await grant.select_option("#seek-form select[name=scenario]", "chattanooga")
    await grant.select_option("#seek-form select[name=side]", "union")
    await grant.click("#post-seek")
    await grant.wait_for_selector("#seeks li[data-seek] .withdraw", timeout=PATIENCE)

    lee = await new_page(browser, viewport={"width": 390, "height": 844})  # a phone
    await sign(lee, server, "sign-up", "Lee")
    await lee.wait_for_selector("#seeks li[data-seek] .accept", timeout=PATIENCE)
    await lee.click("#seeks li[data-seek] .accept")
    await lee.wait_for_url("**/play/*", timeout=PATIENCE)
    game_id = lee.url.rsplit("/", 1)[1]
    await lee.wait_for_selector("#conn.live", timeout=PATIENCE)
    assert await lee.inner_text("#seat-badge") == "You play Confederate"

    # Grant's lobby: the game waits for him
    await grant.goto(f"{server}/")
    await grant.wait_for_selector(f"#account-games a[href='/play/{game_id}']", timeout=PATIENCE)
    assert await grant.inner_text("#your-move-count") == "1"
    assert await grant.title() == "(1) Blue & Gray"
    await grant.click(f"#account-games a[href='/play/{game_id}']")
    await grant.wait_for_selector("#conn.live", timeout=PATIENCE)
    assert await grant.inner_text("#seat-badge") == "You play Union"

    # a move each; each sees the other's
    await end_phases_until_the_other_must_act(grant)
    union_done = await grant.evaluate("() => bluegray.board.version")
    await until(lee, "(v) => bluegray.board.version >= v", union_done)
    await end_phases_until_the_other_must_act(lee)
    confederate_done = await lee.evaluate("() => bluegray.board.version")
    await until(grant, "(v) => bluegray.board.version >= v", confederate_done)

    # Grant on a second browser: logs in, and takes his seat with no token in that browser
    laptop = await new_page(browser)
    await sign(laptop, server, "log-in", "Grant")
    assert await laptop.evaluate("() => localStorage.getItem('bluegray.seats')") is None
    await laptop.goto(f"{server}/play/{game_id}")
    await laptop.wait_for_selector("#conn.live", timeout=PATIENCE)
    assert await laptop.inner_text("#seat-badge") == "You play Union"
    await until(laptop, "(v) => bluegray.board.version >= v", confederate_done)

    for page in (grant, lee, laptop):
        assert page.errors == [], page.errors
        await page.context.close()


async def test_a_wrong_password_is_said_on_the_page(browser, server):
    page = await new_page(browser)
    await sign(page, server, "sign-up", "Meade")
    await page.click("#log-out")
    await page.wait_for_selector("#log-in", timeout=PATIENCE)
    await page.fill("#log-in input[name=name]", "Meade")
    await page.fill("#log-in input[name=password]", "not the password")
    await page.click("#log-in button[type=submit]")
    await until(page, "() => document.querySelector('#account-error').textContent.length > 0")
    assert "no account has this name and password" in await page.inner_text("#account-error")
    await page.context.close()


async def test_a_rated_game_against_the_computer_moves_the_players_rating(browser, server):
    page = await new_page(browser)
    await sign(page, server, "sign-up", "Burnside")
    await page.wait_for_selector("#me-rating:has-text('none yet')", timeout=PATIENCE)
    await page.select_option("#seek-form select[name=scenario]", "chattanooga")
    await page.select_option("#seek-form select[name=side]", "confederate")
    await page.fill("#seek-form input[name=opponent]", "Computer-easy")
    await page.click("#post-seek")
    await page.wait_for_url("**/play/*", timeout=PATIENCE)  # the computer accepted at once
    await page.wait_for_selector("#conn.live", timeout=PATIENCE)
    assert await page.inner_text("#seat-badge") == "You play Confederate"
    await page.wait_for_function("() => bluegray.board.session.started", timeout=60_000)  # the computer took its seat
    await page.wait_for_function("() => bluegray.conn.state === 'live' && !bluegray.busy", timeout=60_000)
    await page.evaluate("() => bluegray.act({ type: 'resign' })")  # the Resign dialog's own action
    await page.wait_for_function("() => bluegray.board.session.finished !== null", timeout=60_000)
    await page.goto(f"{server}/")
    await page.wait_for_selector("#me-rating:has-text('(1 game)')", timeout=PATIENCE)
    said = await page.inner_text("#me-rating")  # "Rating: classic 1338 ± 290 (1 game)"
    rating = int(said.split("classic ")[1].split(" ")[0])
    assert rating < 1500, said  # a loss to the computer, rated
    computer = await (await page.request.get(f"{server}/api/players/Computer-easy")).json()
    assert computer["ratings"]["classic"]["rating"] > 1500
    await page.wait_for_selector("#account-games li:has-text('lost (resignation)')", timeout=PATIENCE)
    assert page.errors == [], page.errors
    await page.context.close()


async def test_a_players_page_and_a_battles_leaderboard(browser, server):
    page = await new_page(browser)
    await sign(page, server, "sign-up", "Hooker")
    await page.select_option("#seek-form select[name=scenario]", "chattanooga")
    await page.select_option("#seek-form select[name=side]", "union")
    await page.fill("#seek-form input[name=opponent]", "Computer-easy")
    await page.click("#post-seek")
    await page.wait_for_url("**/play/*", timeout=PATIENCE)
    game_id = page.url.rsplit("/", 1)[1]
    await until(page, "() => window.bluegray && bluegray.board.session.started")
    await page.wait_for_function("() => bluegray.conn.state === 'live' && !bluegray.busy", timeout=60_000)
    await page.click("#resign")
    await page.click("#resign-confirm")
    await page.wait_for_function("() => bluegray.board.session.finished !== null", timeout=60_000)
    await page.goto(f"{server}/")
    await page.click("#my-page")  # by the link in the account card
    await page.wait_for_url("**/players/Hooker", timeout=PATIENCE)
    await page.wait_for_selector("#player-ratings tr[data-rating='classic:chattanooga:union']", timeout=PATIENCE)
    assert "lost (resignation)" in await page.inner_text(f"#player-finished li[data-game='{game_id}']")
    assert await page.locator("#player-ratings tr[data-rating='classic:chattanooga:confederate']").count() == 0
    await page.click("#player-ratings a[href='/leaderboard/classic/chattanooga'] >> nth=0")
    await page.wait_for_selector("#leaders li", timeout=PATIENCE)
    assert [await li.get_attribute("data-player") for li in await page.query_selector_all("#leaders li")] == ["Computer-easy", "Hooker"]
    await page.click("#leaders a[href='/players/Computer-easy']")
    await page.wait_for_selector("#player-name:has-text('Computer-easy')", timeout=PATIENCE)
    assert page.errors == [], page.errors
    await page.context.close()
