"""Road to Richmond 17.6, the Variable Confederate Reinforcements, in the browser: the game option
ticked in the lobby; before play the Confederate Player writes down on his page which Game-Turn One
reinforcements arrive later (17.61-17.64), sends it (`write_down`) and sees it confirmed; the Union
Player's page shows only that it was written down; then the Confederate makes a move (a reinforcement
at 0103), and a unit written down for Game-Turn Fifteen is not offered to enter (17.62, 17.63)."""

from __future__ import annotations

from browsing import PATIENCE, click_hex, js, new_page, until
from test_browser import reach

LATER = {"cs-rodes": "15", "cs-garland": "18"}


async def test_the_confederate_writes_down_his_reinforcements_then_moves(browser, server, shot):
    # -- the Confederate Player creates the game in the lobby with the option ticked ------------------
    rebel = await new_page(browser)
    await rebel.goto(f"{server}/")
    await rebel.wait_for_selector("#create")
    await rebel.select_option("select[name=scenario]", "road_to_richmond")
    await rebel.wait_for_selector("#battle-options input[data-option=variable_reinforcements]", timeout=PATIENCE)
    assert "Variable Confederate Reinforcements (17.6)" in await rebel.inner_text("#battle-options")
    await until(rebel, "() => document.querySelector('select[name=ruleset]').value === 'revised'")
    await rebel.select_option("select[name=side]", "confederate")
    await rebel.check("#battle-options input[data-option=variable_reinforcements]")
    await rebel.click("#create")
    await rebel.wait_for_selector("#invite-link", timeout=PATIENCE)
    invite = await rebel.input_value("#invite-link")
    await rebel.click("#open-game")
    await rebel.wait_for_selector("#conn.live", timeout=PATIENCE)
    union = await new_page(browser)
    await union.goto(invite)
    await union.wait_for_selector("#conn.live", timeout=PATIENCE)
    assert await js(rebel, "() => bluegray.welcome.rules_options") == {"variable_reinforcements": True}
    assert "variant: variable reinforcements" in await rebel.inner_text("#options")

    # -- 17.62: before the game starts, the page offers the writing down and nothing else -------------
    await rebel.wait_for_selector("#write-down", timeout=PATIENCE)
    offered = await rebel.eval_on_selector_all("#write-down-units select", "ss => ss.map((s) => s.dataset.unit)")
    assert len(offered) == 18 and set(LATER) <= set(offered)
    arrivals = await rebel.eval_on_selector_all("#write-down-units select[data-unit=cs-rodes] option", "os => os.map((o) => o.textContent)")
    assert arrivals[0] == "Game-Turn 1 at 0103 (chart)" and arrivals[1] == "Game-Turn 15 at 0117"
    assert arrivals[2].startswith("Game-Turn 18 at ") and all(h in arrivals[2] for h in ("0728", "0328", "0126"))
    assert await rebel.locator("#reinforcements button.enter").count() == 0
    for unit, turn in LATER.items():
        await rebel.select_option(f"#write-down-units select[data-unit={unit}]", turn)
    assert "2 of 18 arrive later" in await rebel.inner_text("#write-down-count")
    await rebel.locator("#write-down").scroll_into_view_if_needed()
    await shot(rebel, "written-down", doc=True)
    await rebel.click("#write-down-send")

    # -- confirmed: the server shows the choice back to the Confederate page only ----------------------
    await rebel.wait_for_selector("#written-down li[data-unit=cs-rodes]", timeout=PATIENCE)
    assert await js(rebel, "() => bluegray.board.writtenDown") == {u: int(t) for u, t in LATER.items()}
    confirmed = await rebel.inner_text("#written-down")
    assert "Game-Turn 15 reinforcements at 0117" in confirmed and "Game-Turn 18" in confirmed
    assert await rebel.locator("#write-down").count() == 0
    await until(union, "() => !!document.querySelector('#written-down')")
    told = await union.inner_text("#written-down")
    assert "secret until a unit enters" in told
    assert await js(union, "() => bluegray.board.writtenDown") == {}
    assert "0117" not in await union.inner_text("#status")

    # -- then a move: a reinforcement enters at 0103; Rodes (written down for Fifteen) is not offered ---
    await until(rebel, "() => bluegray.validChoices()?.may_enter?.length > 0")
    assert not set(LATER) & set(await js(rebel, "() => bluegray.validChoices().may_enter"))
    assert await rebel.locator("#reinforcements button.enter[data-unit=cs-rodes]").count() == 0
    assert "written down for turn 15" in await rebel.inner_text("#reinforcements")
    unit = await rebel.get_attribute("#reinforcements button.enter >> nth=0", "data-unit")
    await rebel.click(f"#reinforcements button.enter[data-unit='{unit}']")
    dests = await reach(rebel, unit, "enter")
    dest = max(dests, key=lambda h: (dests[h]["cost"], h))
    assert dests[dest]["path"][0] == "0103"
    await rebel.wait_for_selector(f"#overlay .shade.reach[data-hex='{dest}']", timeout=PATIENCE)
    await click_hex(rebel, dest)
    for page in (rebel, union):
        await until(page, "([u, h]) => bluegray.board.state.positions[u] === h", [unit, dest])
    await shot(rebel, "written-down-then-entered")
    for page in (rebel, union):
        assert not page.errors, page.errors
        await page.context.close()
