"""Playing the computer in a real browser: the lobby's Opponent field picks the computer, the game opens
with no invite to send, the player moves and ends his phases, and the computer (a process of its own,
api/opponents.py) plays the Confederate's turn through the server; the player's page shows its moves.
Then the player resigns and opens the finished game's report with the computer's eye: the engine's
evaluation chart and its view of the Union's decisions, the turning points marked, and "try this
turn again" forking the game at a turning point's Player-Turn against the computer."""

from __future__ import annotations

from browsing import PATIENCE, click_hex, js, new_page, until
from test_browser_battles import a_legal_move
from test_browser_revised import end_phase


async def test_a_game_against_the_computer(browser, server, shot):
    page = await new_page(browser)
    await page.goto(f"{server}/")
    await page.wait_for_selector("select[name=computer]", timeout=PATIENCE)
    await page.select_option("select[name=side]", "union")
    await page.select_option("select[name=computer]", "easy")
    await page.click("#create")
    await page.wait_for_selector("#open-game", timeout=PATIENCE)
    assert await page.locator("#invite-link").count() == 0  # nobody to invite
    await page.click("#open-game")
    await page.wait_for_selector("#conn.live", timeout=PATIENCE)

    # the Union's move, by a click on an offered hex; then its Movement and Combat Phases end
    await until(page, "() => bluegray.validChoices() !== null && !bluegray.busy")
    unit, how, hex_ = await a_legal_move(page)
    await js(page, "([u, how]) => bluegray.selectUnit(u, how)", [unit, how])
    await click_hex(page, hex_)
    await until(page, "([u, h]) => bluegray.board.state.positions[u] === h", [unit, hex_])
    await end_phase(page)

    # the computer's turn: a Confederate unit moves on the player's board, then the game comes back to him.
    # The positions are taken before the Union's Combat Phase ends: the computer may have moved already
    # when that end's own answer reaches the page.
    start = await js(page, "() => ({...bluegray.board.state.positions})")
    await end_phase(page)
    await page.wait_for_function(
        """(start) => Object.entries(bluegray.board.state.positions).some(([u, h]) => start[u] !== h && u.startsWith('cs'))""",
        arg=start,
        timeout=60_000,
    )
    await shot(page, "computer-moved")

    # the end: the player resigns; the report of the finished game, with the computer's eye for the Union
    await until(page, "() => bluegray.validChoices() !== null && !bluegray.busy")
    await page.click("#resign")
    await page.click("#resign-confirm")
    await page.wait_for_selector("#result", timeout=PATIENCE)
    game_id = page.url.rstrip("/").split("/")[-1]
    report = await new_page(page.context.browser)
    await report.goto(f"{server}/games/{game_id}/report")
    await report.click("#engine-union")
    await report.wait_for_selector("#evaluation-chart path", state="attached", timeout=60_000)
    line = await report.get_attribute("#evaluation-chart path", "d")
    assert line.startswith("M") and line.count("L") >= 2  # a point after every command of the game
    assert "The computer's eye" in await report.inner_text("#engine")
    await shot(report, "computer-eye")

    # the turning points, marked on the chart; the first played again against the computer from the
    # start of its Player-Turn: a sandbox opens with the player's own side
    await report.wait_for_selector("#turning", timeout=PATIENCE)
    if await report.locator("#evaluation-chart circle.turning-point").count() == 0:
        # a short game in which no command moved the evaluation against the Union: the page says so
        assert "No command moved the evaluation against this side." in await report.inner_text("body")
        assert not page.errors and not report.errors, page.errors + report.errors
        return
    version = int(await report.get_attribute("#turning-points button.retry >> nth=0", "data-version"))
    await report.click("#turning-points button.retry >> nth=0")
    await report.wait_for_url("**/play/*", timeout=PATIENCE)
    await report.wait_for_selector("#conn.live", timeout=PATIENCE)
    assert "Union" in await report.inner_text("#seat-badge")
    sandbox = report.url.rstrip("/").split("/")[-1]
    assert sandbox != game_id
    forked = await (await report.request.get(f"{server}/api/games/{sandbox}")).json()
    assert forked["forked_from"] == game_id and forked["forked_at"] == version
    assert not page.errors and not report.errors, page.errors + report.errors
    await page.context.close()
    await report.context.close()
