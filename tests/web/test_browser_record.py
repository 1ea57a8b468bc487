"""The game's record and board come from the server on every load (hello ``view``): a reload after
an accepted undo tells no news of it and shows the whole record, undo lines included; a spectator
who comes late sees the same record as the players."""

from __future__ import annotations

from browsing import PATIENCE, js, new_page, until
from test_browser import DEST, MOVER, reach, seated_page, started_game

RECORD = "() => [...document.querySelectorAll('#log li')].map((li) => li.textContent)"


async def test_a_reload_after_an_accepted_undo_shows_no_toast_and_the_whole_record(browser, server, shot):
    game, joined = await started_game(server, side="union")
    gid = game["game_id"]
    union = await seated_page(browser, server, gid, "union", game["token"])
    confed = await seated_page(browser, server, gid, "confederate", joined["token"])
    await until(union, "() => bluegray.validChoices() !== null")
    # Two moves; the second is taken back by consent.
    dests = await reach(union, MOVER)
    await js(union, "([u, path]) => bluegray.command({type: 'move', unit: u, path})", [MOVER, dests[DEST]["path"]])
    await until(union, "([u, h]) => bluegray.board.state.positions[u] === h", [MOVER, DEST])
    await until(union, "() => bluegray.validChoices() !== null")
    other = await js(union, "(u) => bluegray.validChoices().may_move.find((x) => x !== u)", MOVER)
    there = await js(union, "(u) => bluegray.board.state.positions[u]", other)
    far = await reach(union, other)
    to = sorted(far)[0]
    await js(union, "([u, path]) => bluegray.command({type: 'move', unit: u, path})", [other, far[to]["path"]])
    await until(union, "([u, h]) => bluegray.board.state.positions[u] === h", [other, to])
    back_to = await js(union, "() => bluegray.board.undoable.at(-1).version - 1")
    await js(union, "(v) => bluegray.act({type: 'undo_request', back_to: v})", back_to)
    await confed.wait_for_selector("#undo-accept", timeout=PATIENCE)
    await confed.click("#undo-accept")
    await until(union, "([u, h]) => bluegray.board.state.positions[u] === h", [other, there])
    await union.locator(".toast", has_text="Undo accepted").wait_for(timeout=PATIENCE)  # news, live
    record = await js(union, RECORD)
    assert any(line.startswith(f"v{back_to + 2} ") or "asks to take back 1 action" in line for line in record)
    assert sum("Undo: the game is back" in line for line in record) == 1
    assert sum("Union: move" in line for line in record) == 1  # the move taken back is gone
    assert await js(confed, RECORD) == record
    # Reload: the same record, whole, and no news of an undo.
    await union.reload()
    await union.wait_for_selector("#conn.live", timeout=PATIENCE)
    await until(union, "() => bluegray.viewed && document.querySelectorAll('#log li').length > 0")
    await union.wait_for_timeout(500)
    assert await js(union, RECORD) == record
    assert await union.locator(".toast").count() == 0
    assert await js(union, "([u, h]) => bluegray.board.state.positions[u] === h", [other, there])
    await shot(union, "record-after-reload")
    # A spectator who comes now sees the same record as the players.
    late = await new_page(browser)
    await late.goto(f"{server}/watch/{gid}")
    await late.wait_for_selector("#conn.live", timeout=PATIENCE)
    await until(late, "(n) => document.querySelectorAll('#log li').length === n", len(record))
    assert await js(late, RECORD) == record
    assert await late.locator(".toast").count() == 0
    for page in (union, confed, late):
        assert not page.errors, page.errors
        await page.context.close()
