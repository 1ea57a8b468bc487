"""The combat panel shows how the odds are built, as the server computes them (`combat`,
rules.combat_choices.combat_breakdown): each attacking and defending unit with every modifier named with
its case, the totals, the ratio's column, the shifts and the odds, for a prepared position under each
rule set (Chattanooga, Game-Turn 1: classic, 1/1/IV against Clayton in rough, 7.4; revised, 1/1/XIV
against Cumming over a redoubt hexside, 8.46)."""

from __future__ import annotations

import pytest
from browsing import PATIENCE, click_hex, js, new_page, until
from conftest import GAMES
from test_browser import seated_page, started_game

from rules.combat_choices import combat_breakdown
from rules.core.commands import EndPhase, MoveUnit
from rules.reducer import execute, new_game

POSITIONS = {
    "classic": ("us-1-1-iv", ("0425", "0526", "0626", "0727", "0826"), "0926"),
    "revised": ("us-1-1-xiv", ("1717", "1718", "1719", "1720", "1721", "1821"), "1822"),
}


def expected(ruleset: str, attackers: list[str]):
    """The server's breakdown of the prepared position (the rules' own fold, apart from the page)."""
    unit, path, target = POSITIONS[ruleset]
    state = new_game(GAMES.game("chattanooga", ruleset))
    state, _ = execute(state, MoveUnit(unit, path))
    state, _ = execute(state, EndPhase())
    return combat_breakdown(state, attackers, [target])


@pytest.mark.parametrize("ruleset", ["classic", "revised"])
async def test_the_combat_panel_names_each_modifier_with_its_case(browser, server, shot, ruleset):
    unit, path, target = POSITIONS[ruleset]
    game, _ = await started_game(server, side="union", ruleset=ruleset)
    page = await seated_page(browser, server, game["game_id"], "union", game["token"])
    await until(page, "() => bluegray.validChoices() !== null")
    await js(page, "([u, p]) => bluegray.command({type: 'move', unit: u, path: p})", [unit, list(path)])
    await until(page, "([u, h]) => bluegray.board.state.positions[u] === h", [unit, path[-1]])
    await until(page, "() => bluegray.validChoices()?.may_end_phase && !bluegray.busy")  # a key is ignored while busy
    await page.keyboard.press("e")
    await until(page, "() => bluegray.board.state.phase === 'combat' && bluegray.validChoices()?.attacks?.length > 0")
    await click_hex(page, target)
    await page.wait_for_selector("#breakdown[data-odds]", timeout=PATIENCE)
    attackers = await js(page, "() => bluegray.attackersOf(bluegray.selection)")
    b = expected(ruleset, attackers)
    assert await page.get_attribute("#breakdown", "data-odds") == b.odds
    assert f"Odds {b.odds}" in await page.inner_text("#odds")
    lines = await page.eval_on_selector_all(
        "#breakdown li.unit-strength",
        "ls => ls.map((l) => [l.dataset.unit, Number(l.dataset.strength), [...l.querySelectorAll('.modifier')].map((m) => [m.dataset.case, m.textContent])])",
    )
    want = [(x.unit, x.strength, x.modifiers) for x in (*b.attackers, *b.defenders)]
    assert [(u, s) for u, s, _ in lines] == [(u, s) for u, s, _ in want]
    for (_, _, shown), (_, _, mods) in zip(lines, want, strict=True):
        assert [c for c, _ in shown] == [m.case for m in mods]
        for (_, text), m in zip(shown, mods, strict=True):
            assert m.what in text and text.rstrip().endswith(f"→ {m.after}")
    assert any(mods for _, _, mods in want)  # the position has a modifier to show (7.4; 8.46)
    shifts = await page.eval_on_selector_all("#breakdown li.shift", "ss => ss.map((s) => [s.dataset.case, Number(s.dataset.columns)])")
    assert shifts == [[x.case, x.columns] for x in b.shifts]
    assert f"{b.attack} to {b.defence} reads {b.ratio}" in await page.inner_text("#breakdown .ratio")
    if ruleset == "revised":
        assert shifts == [["8.46", -1]]
    await page.locator("#breakdown").scroll_into_view_if_needed()
    await shot(page, f"combat-breakdown-{ruleset}", doc=ruleset == "revised")
    assert not page.errors, page.errors


async def to_combat(page, moves) -> None:
    """Make ``moves`` (unit, path) by commands, then end the Movement Phase."""
    await until(page, "() => bluegray.validChoices() !== null")
    for unit, path in moves:
        await js(page, "([u, p]) => bluegray.command({type: 'move', unit: u, path: p})", [unit, list(path)])
        await until(page, "([u, h]) => bluegray.board.state.positions[u] === h", [unit, path[-1]])
    await until(page, "() => bluegray.validChoices()?.may_end_phase && !bluegray.busy")  # a key is ignored while busy
    await page.keyboard.press("e")
    await until(page, "() => bluegray.board.state.phase === 'combat' && bluegray.validChoices()?.attacks?.length > 0")


async def test_the_only_defender_is_preselected_and_a_cancel_stays(browser, server):
    """Classic Chattanooga, 1/1/IV at 0826: the only enemy it may attack, Clayton at 0926, is chosen as the
    Combat Phase begins (no click); a click on it keeps it; Esc cancels, and it is not chosen again."""
    unit, path, target = POSITIONS["classic"]
    game, _ = await started_game(server, side="union", ruleset="classic")
    page = await seated_page(browser, server, game["game_id"], "union", game["token"])
    await to_combat(page, [(unit, path)])
    assert await js(page, "() => bluegray.validChoices().attacks.map((o) => o.defenders)") == [[target]]
    await page.wait_for_selector("#declare", timeout=PATIENCE)
    assert await js(page, "() => bluegray.selection.defenders") == [target]
    assert "Odds 1-1" in await page.inner_text("#odds")
    await click_hex(page, target)  # the defender chosen for him, clicked: still chosen
    assert await js(page, "() => bluegray.selection?.defenders") == [target]
    await page.keyboard.press("Escape")
    await until(page, "() => bluegray.selection === null")
    await js(page, "() => bluegray.render()")
    assert await js(page, "() => bluegray.selection") is None
    assert not page.errors, page.errors


async def test_the_enemy_last_pointed_at_is_preselected(browser, server):
    """Two attacks offered (0926 and 1822, each alone): none is chosen for the player unless he pointed
    at an enemy hex; the one he pointed at last before the Combat Phase is."""
    second = ("us-1-1-xiv", ("1717", "1718", "1719", "1720", "1721", "1821"))
    moves = [POSITIONS["classic"][:2], second]
    game, _ = await started_game(server, side="union", ruleset="classic")
    page = await seated_page(browser, server, game["game_id"], "union", game["token"])
    await to_combat(page, moves)
    assert sorted(await js(page, "() => bluegray.validChoices().attacks.map((o) => o.defenders)")) == [["0926"], ["1822"]]
    assert await js(page, "() => bluegray.selection") is None  # nothing pointed at: nothing chosen
    game, _ = await started_game(server, side="union", ruleset="classic")
    page = await seated_page(browser, server, game["game_id"], "union", game["token"])
    await until(page, "() => bluegray.validChoices() !== null")
    x, y = await js(page, "(h) => { bluegray.map.centreOn(h); return bluegray.map.clientOf(h); }", "1822")
    await page.mouse.move(x, y)  # the player looks at Cumming
    await until(page, "() => bluegray.lastEnemy === '1822'")
    await to_combat(page, moves)
    await page.wait_for_selector("#declare", timeout=PATIENCE)
    assert await js(page, "() => bluegray.selection.defenders") == ["1822"]
    assert not page.errors, page.errors


async def breakdown_lines(page) -> list:
    return await page.eval_on_selector_all(
        "#breakdown li.unit-strength",
        "ls => ls.map((l) => [l.dataset.unit, Number(l.dataset.strength), [...l.querySelectorAll('.modifier')].map((m) => m.dataset.case)])",
    )


@pytest.mark.parametrize("ruleset", ["classic", "revised"])
async def test_a_declared_attack_keeps_its_breakdown_for_both_players_and_spectators(browser, server, ruleset):
    unit, path, target = POSITIONS[ruleset]
    game, rebel = await started_game(server, side="union", ruleset=ruleset)
    page = await seated_page(browser, server, game["game_id"], "union", game["token"])
    confed = await seated_page(browser, server, game["game_id"], "confederate", rebel["token"])
    watcher = await new_page(browser)
    await watcher.goto(f"{server}/watch/{game['game_id']}")
    await watcher.wait_for_selector("#conn.live", timeout=PATIENCE)
    await to_combat(page, [(unit, path)])
    await click_hex(page, target)
    await page.wait_for_selector("#breakdown[data-odds]", timeout=PATIENCE)
    attackers = await js(page, "() => bluegray.attackersOf(bluegray.selection)")
    b = expected(ruleset, attackers)
    want = [[x.unit, x.strength, [m.case for m in x.modifiers]] for x in (*b.attackers, *b.defenders)]
    assert await breakdown_lines(page) == want
    await page.click("#declare")
    for p in (page, confed, watcher):  # the attack waits for its die (or a decision before it)
        await until(p, "() => bluegray.board.state.pending.some((x) => x.kind === 'attack')")
        await p.wait_for_selector("#breakdown.declared[data-odds]", timeout=PATIENCE)
        assert await p.get_attribute("#breakdown.declared", "data-odds") == b.odds
        assert await breakdown_lines(p) == want
        assert f"{b.attack} to {b.defence} reads {b.ratio}" in await p.inner_text("#breakdown .ratio")
        assert await p.locator("#declared-changed").count() == 0
        if p is watcher:  # and in a replay of the game at that position
            await p.keyboard.press("r")
            await p.wait_for_selector("#replaying", timeout=PATIENCE)
            await until(p, "(v) => bluegray.replay?.frame?.version === v", await js(p, "() => bluegray.board.version"))
            await p.wait_for_selector("#breakdown.declared[data-odds]", timeout=PATIENCE)
            assert await breakdown_lines(p) == want
        assert not p.errors, p.errors
        await p.context.close()
