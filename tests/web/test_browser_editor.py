"""The scenario editor in a real browser (/editor; docs/SCENARIOS.md "The editor"): an edit of a shipped
battle saved as a variant (the battle itself unchanged); a small map drawn from a blank grid, units
placed, a validation error shown on its hex and fixed, the scenario saved, a game created on it from
the lobby, joined from a second browser context, and a move made."""

from __future__ import annotations

import pytest
from aiohttp.test_utils import TestServer
from browsing import PATIENCE, new_page, until

from api.app import library_games, make_app
from api.config import ServerConfig
from scenarios import document, loader
from scenarios.library import Library


@pytest.fixture
async def editor_server(redis_url, key_prefix, tmp_path):
    """The real application allowing uploads, its saved scenarios in tmp_path/scenarios."""
    library = Library(tmp_path / "scenarios")
    config = ServerConfig(redis_url=redis_url, prefix=key_prefix, tail_block_ms=200, rate_per_second=1000,
                          rate_burst=1000, scenarios_dir=tmp_path / "scenarios", allow_uploads=True)
    srv = TestServer(make_app(config, games=library_games(library)), host="127.0.0.1")
    await srv.start_server()
    yield str(srv.make_url("")).rstrip("/"), library
    await srv.close()


async def checked_after(page, action) -> None:
    """Do `action`, then wait until the server has checked the document as it stands after it."""
    before = int(await page.evaluate("() => window.editor.checks"))
    await action()
    await until(page, "(n) => window.editor.checks > n && !document.querySelector('#check-state').textContent.startsWith('Checking')", before)


async def click_hex(page, hex_: str, toward: str | None = None, share: float = 0.38) -> None:
    """Click a hex's centre, or (toward a neighbour) a point inside it near their common hexside."""
    x, y = await page.evaluate("(h) => { editor.map.centreOn(h); return editor.map.clientOf(h); }", hex_)
    if toward:
        tx, ty = await page.evaluate("(h) => editor.map.clientOf(h)", toward)
        x, y = x + (tx - x) * share, y + (ty - y) * share
    await page.mouse.click(x, y)


async def test_an_edit_of_chattanooga_is_saved_as_a_variant_and_the_battle_is_unchanged(browser, editor_server, shot):
    base, library = editor_server
    shipped_key = loader.content_key(loader.folder_of("chattanooga"))
    shipped_terrain = loader.load("chattanooga").map.hexes["1010"]
    new_terrain = "town" if shipped_terrain != "town" else "clear"
    page = await new_page(browser)
    await page.goto(f"{base}/")
    await page.click("#editor-link")
    await page.wait_for_selector("#open-battle", timeout=PATIENCE)
    await page.select_option("#battle", "chattanooga")
    await checked_after(page, lambda: page.click("#open-battle"))
    assert await page.inner_text("#check-state") == "No problem: this scenario may be played."
    assert await page.locator("svg.map polygon.hex").count() == len(loader.load("chattanooga").map.hexes)
    await page.click(f"[data-terrain='{new_terrain}']")
    await checked_after(page, lambda: click_hex(page, "1010"))
    assert await page.get_attribute("svg.map polygon.hex[data-hex='1010']", "data-terrain") == new_terrain
    await page.click("#save")
    await page.wait_for_selector("#saved-ref", timeout=PATIENCE)
    await shot(page, "editor-chattanooga-variant")
    name = await page.get_attribute("#saved-ref", "data-name")
    assert name.startswith("chattanooga-") and "variant of chattanooga" in await page.inner_text("#saved-note")
    saved = library.load(name)
    assert saved.map.hexes["1010"] == new_terrain
    # the shipped battle: its files, as loaded and as the server serves it
    assert loader.content_key(loader.folder_of("chattanooga")) == shipped_key
    assert loader.load("chattanooga").map.hexes["1010"] == shipped_terrain
    served = await page.request.get(f"{base}/api/scenarios/chattanooga/document")
    assert document.decode(await served.body()).map.hexes["1010"] == shipped_terrain
    assert not page.errors, page.errors
    await page.context.close()


async def test_draw_a_map_place_units_fix_an_error_save_and_play(browser, editor_server, shot):
    base, library = editor_server
    page = await new_page(browser)
    await page.goto(f"{base}/editor")
    await page.wait_for_selector("#new-blank", timeout=PATIENCE)
    await page.fill("#blank-columns", "8")
    await page.fill("#blank-rows", "6")
    await checked_after(page, lambda: page.click("#new-blank"))
    assert await page.locator("svg.map polygon.hex").count() == 48
    assert "no units" in await page.inner_text("#problems")  # the validator's, as the server says it
    # terrain: a wood and a town
    await page.click("[data-terrain='forest']")
    for hx in ("0402", "0403"):
        await click_hex(page, hx)
    await page.keyboard.press("5")  # the fifth terrain: town
    await checked_after(page, lambda: click_hex(page, "0605"))
    assert await page.get_attribute("svg.map polygon.hex[data-hex='0605']", "data-terrain") == "town"
    # a creek with a ford, on the hexside between 0303 and 0304
    await page.click("[data-tool='hexside']")
    await page.click("[data-feature='ford']")
    await checked_after(page, lambda: click_hex(page, "0303", toward="0304"))
    assert await page.locator("svg.map #crossings .ford").count() == 1
    assert await page.locator("svg.map #creeks line").count() == 1
    # undo and redo the ford
    await checked_after(page, lambda: page.keyboard.press("Control+z"))
    assert await page.locator("svg.map #crossings .ford").count() == 0
    await checked_after(page, lambda: page.keyboard.press("Control+y"))
    assert await page.locator("svg.map #crossings .ford").count() == 1
    # a feature the game map does not draw is drawn by the editor
    await page.click("[data-feature='sunken_road']")
    await checked_after(page, lambda: click_hex(page, "0505", toward="0506"))
    assert await page.locator("svg.map #editor-sides line.side-sunken_road[data-side='0505|0506']").count() == 1
    # units: a Union division, and a Confederate one next to it (an error the validator shows)
    await page.click("[data-tool='units']")
    await page.fill("#unit-designation", "1st <i>Div</i>")
    await page.press("#unit-designation", "Tab")
    await checked_after(page, lambda: click_hex(page, "0203"))
    await page.select_option("#unit-side", "confederate")
    await page.fill("#unit-designation", "Jackson")
    await page.press("#unit-designation", "Tab")
    await checked_after(page, lambda: click_hex(page, "0204"))
    problem = page.locator("#problems li[data-location='unit c1']")
    assert "adjacent to the enemy unit u1" in await problem.inner_text()
    assert (await problem.get_attribute("data-hexes")).split() == ["0204", "0203"]  # its hex, then the enemy's
    assert await page.locator("svg.map #overlay .shade.problem[data-hex='0204']").count() == 1
    await shot(page, "editor-problem-shown")
    # fix it: select the Confederate unit and move it away
    await page.click("tr[data-unit='c1']")
    await checked_after(page, lambda: click_hex(page, "0705"))
    assert await page.inner_text("#check-state") == "No problem: this scenario may be played."
    assert await page.locator("svg.map #overlay .shade.problem").count() == 0
    assert await page.locator("svg.map #units .counter").count() == 2
    # the turns and the name it is saved under
    await page.click("[data-tool='scenario']")
    await page.fill("#doc-turns", "3")
    await checked_after(page, lambda: page.press("#doc-turns", "Tab"))
    await page.fill("#doc-name", "little-run")
    await checked_after(page, lambda: page.press("#doc-name", "Tab"))
    await page.fill("#doc-title", "<b>Little</b> Run, July 1861")
    await checked_after(page, lambda: page.press("#doc-title", "Tab"))
    # download the one file, and upload it again: the same scenario, checked by the server
    async with page.expect_download() as info:
        await page.click("#download")
    path = await (await info.value).path()
    downloaded = document.decode(open(path, "rb").read())
    assert downloaded.name == "little-run" and len(downloaded.map.hexes) == 48
    await checked_after(page, lambda: page.set_input_files("#upload", path))
    assert await page.inner_text("#check-state") == "No problem: this scenario may be played."
    assert await page.evaluate("() => editor.doc.scenario.name") == "<b>Little</b> Run, July 1861"
    await page.click("#save")
    await page.wait_for_selector("#saved-ref", timeout=PATIENCE)
    assert await page.get_attribute("#saved-ref", "data-name") == "little-run"
    saved = library.load("little-run")
    assert saved.turns == 3 and {u.id: u.hex for u in saved.units} == {"u1": "0203", "c1": "0705"}
    assert saved.units[0].designation == "1st <i>Div</i>"
    await shot(page, "editor-saved")

    # -- the lobby offers it; a game is created on it, joined from another context, a move made ---
    await page.click("#play-saved")
    await page.wait_for_selector("#create", timeout=PATIENCE)
    assert await page.input_value("select[name=scenario]") == "little-run"
    # the lobby shows the name as typed, never as markup
    assert await page.locator("#battles tr[data-scenario='little-run'] b").count() == 0
    assert "<b>Little</b> Run" in await page.inner_text("#battles tr[data-scenario='little-run']")
    await page.select_option("select[name=side]", "union")
    await page.click("#create")
    await page.wait_for_selector("#invite-link", timeout=PATIENCE)
    invite = await page.input_value("#invite-link")
    await page.click("#open-game")
    await page.wait_for_selector("#conn.live", timeout=PATIENCE)
    other = await new_page(browser)
    await other.goto(invite)
    await other.wait_for_selector("#conn.live", timeout=PATIENCE)
    assert await other.inner_text("#seat-badge") == "You play Confederate"
    await until(page, "() => bluegray.validChoices() !== null && bluegray.validChoices().may_move?.includes('u1')")
    x, y = await page.evaluate("(h) => { bluegray.map.centreOn(h); return bluegray.map.clientOf(h); }", "0203")
    await page.mouse.click(x, y)
    await page.wait_for_selector("#overlay .shade.reach[data-hex='0303']", timeout=PATIENCE)
    x, y = await page.evaluate("(h) => { bluegray.map.centreOn(h); return bluegray.map.clientOf(h); }", "0303")
    await page.mouse.move(x, y)
    await page.mouse.click(x, y)
    for p in (page, other):
        await until(p, "() => bluegray.board.state.positions.u1 === '0303'")
    # the designation typed with markup in it is shown as text, never as markup
    assert await page.locator("svg.map #units i").count() == 0
    assert "1st <i>Div</i>" in await page.locator("svg.map #units").text_content()
    await shot(page, "editor-game-moved")
    assert not page.errors, page.errors
    assert not other.errors, other.errors
    await page.context.close()
    await other.context.close()


async def test_complete_the_first_bull_run_template_and_play_it_under_its_exclusive_rules(browser, editor_server, shot):
    base, library = editor_server
    page = await new_page(browser)
    await page.goto(f"{base}/editor")
    await page.wait_for_selector("#open-template", timeout=PATIENCE)
    await page.select_option("#template", "first_bull_run")
    await checked_after(page, lambda: page.click("#open-template"))
    missing = await page.inner_text("#missing")
    assert "map" in missing and "units union" in missing and "units confederate" in missing and "16.1" in missing
    problems = await page.inner_text("#problems")
    assert "unit us-runyon: type must be one of" in problems and "strength must be" in problems  # its "?" fields
    assert await page.inner_text("#missing-count") == "7 of 7 still to supply"
    await shot(page, "editor-template-missing")
    # the map: a wood (the owner paints the map sheet)
    await page.click("[data-terrain='forest']")
    await checked_after(page, lambda: click_hex(page, "0606"))
    # the area across Bull Run (17.2)
    await page.click("[data-tool='victory']")
    await page.fill("#new-area", "across_bull_run")
    await page.press("#new-area", "Tab")
    for hx in ("1001", "1002"):
        await checked_after(page, lambda hx=hx: click_hex(page, hx))
    # Runyon's division: its type, strength and set-up hex
    await page.click("[data-tool='units']")
    await page.click("tr[data-unit='us-runyon']")
    await checked_after(page, lambda: page.select_option("#unit-type", "infantry"))
    await page.fill("#unit-strength", "3")
    await checked_after(page, lambda: page.press("#unit-strength", "Tab"))
    await checked_after(page, lambda: click_hex(page, "0202"))
    # a small set-up: a Union division and a Confederate brigade, far apart
    await page.select_option("#unit-side", "union")
    await page.fill("#unit-designation", "Tyler")
    await page.press("#unit-designation", "Tab")
    await checked_after(page, lambda: click_hex(page, "0405"))
    await page.select_option("#unit-side", "confederate")
    await page.fill("#unit-designation", "Evans")
    await page.press("#unit-designation", "Tab")
    await checked_after(page, lambda: click_hex(page, "1110"))
    assert await page.inner_text("#check-state") == "No problem: this scenario may be played.", await page.inner_text("#problems")
    supplied = await page.eval_on_selector_all("#missing li", "ls => ls.map(l => [l.dataset.what, l.classList.contains('supplied')])")
    assert dict(supplied) == {"map": True, "map area across_bull_run": True, "units union": True, "units confederate": True,
                              "unit us-runyon type": True, "unit us-runyon strength": True, "unit us-runyon hex": True}, supplied
    assert await page.inner_text("#missing-count") == "Every item supplied."
    await page.click("#save")
    await page.wait_for_selector("#saved-ref", timeout=PATIENCE)
    name = await page.get_attribute("#saved-ref", "data-name")
    assert name.startswith("first_bull_run-") and "variant of first_bull_run" in await page.inner_text("#saved-note")
    assert library.load(name).exclusive["may_not_move_until"]["holds"][0]["until_turn"] == 3

    # -- the lobby offers it; Union moves on Game-Turn 1, the Confederates may not (17.1) ---------
    await page.click("#play-saved")
    await page.wait_for_selector("#create", timeout=PATIENCE)
    assert await page.input_value("select[name=scenario]") == name
    await page.select_option("select[name=ruleset]", "revised")
    await page.select_option("select[name=side]", "union")
    await page.click("#create")
    await page.wait_for_selector("#invite-link", timeout=PATIENCE)
    invite = await page.input_value("#invite-link")
    await page.click("#open-game")
    await page.wait_for_selector("#conn.live", timeout=PATIENCE)
    other = await new_page(browser)
    await other.goto(invite)
    await other.wait_for_selector("#conn.live", timeout=PATIENCE)
    await until(page, "() => bluegray.validChoices()?.may_move?.includes('u1')")
    assert "us-runyon" not in await page.evaluate("() => bluegray.validChoices().may_move")  # 17.2
    x, y = await page.evaluate("(h) => { bluegray.map.centreOn(h); return bluegray.map.clientOf(h); }", "0405")
    await page.mouse.click(x, y)
    await page.wait_for_selector("#overlay .shade.reach[data-hex='0505']", timeout=PATIENCE)
    x, y = await page.evaluate("(h) => { bluegray.map.centreOn(h); return bluegray.map.clientOf(h); }", "0505")
    await page.mouse.move(x, y)
    await page.mouse.click(x, y)
    await until(other, "() => bluegray.board.state.positions.u1 === '0505'")
    for phase in ("movement", "combat"):
        # (not busy: a key pressed while the move awaits its answer is ignored)
        await until(page, "(p) => bluegray.board.state.phase === p && bluegray.validChoices()?.may_end_phase && !bluegray.busy", phase)
        await page.keyboard.press("e")
        await until(page, "(p) => bluegray.board.state.phase !== p", phase)
    await until(other, "() => bluegray.board.state.phasing === 'confederate' && bluegray.board.state.phase === 'movement' && bluegray.validChoices() !== null")
    assert await other.evaluate("() => bluegray.board.state.turn") == 1
    choices = await other.evaluate("() => bluegray.validChoices()")
    assert choices["may_end_phase"] and "c1" not in (choices.get("may_move") or [])  # 17.1: not before Game-Turn 3
    await shot(other, "editor-template-played")
    assert not page.errors, page.errors
    assert not other.errors, other.errors
    await page.context.close()
    await other.context.close()


async def test_a_tablet_paints_with_a_tap(browser, editor_server):
    base, _library = editor_server
    context = await browser.new_context(viewport={"width": 768, "height": 1024}, has_touch=True, is_mobile=True)
    page = await context.new_page()
    await page.goto(f"{base}/editor")
    await page.wait_for_selector("#new-blank", timeout=PATIENCE)
    await checked_after(page, lambda: page.tap("#new-blank"))
    await page.tap("[data-terrain='rough']")
    x, y = await page.evaluate("(h) => { editor.map.centreOn(h); return editor.map.clientOf(h); }", "0304")
    await checked_after(page, lambda: page.touchscreen.tap(x, y))
    assert await page.get_attribute("svg.map polygon.hex[data-hex='0304']", "data-terrain") == "rough"
    await page.tap("#undo")
    assert await page.get_attribute("svg.map polygon.hex[data-hex='0304']", "data-terrain") == "clear"
    # and the keyboard: the arrow keys move the hex cursor, Enter paints
    await page.tap("[data-terrain='forest']")
    await page.keyboard.press("ArrowRight")  # the cursor appears on the first hex, 0101
    for key in ("ArrowRight", "ArrowDown", "ArrowDown"):
        await page.keyboard.press(key)
    assert await page.locator("svg.map #overlay .ring.cursor[data-hex='0203']").count() == 1
    await checked_after(page, lambda: page.keyboard.press("Enter"))
    assert await page.get_attribute("svg.map polygon.hex[data-hex='0203']", "data-terrain") == "forest"
    await context.close()
