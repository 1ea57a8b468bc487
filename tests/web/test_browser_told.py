"""Told when it matters (issue 24, build 4): the tab's title and icon say "your move" and count the
opponent's chat lines that came while the tab was hidden; a player who opted in gets a sound and a
browser notification, while the tab is hidden, when it becomes his move and when the game ends.
(The browser's Notification is replaced by a recorder: headless Chromium shows none.)"""

from __future__ import annotations

from browsing import js, until
from test_browser import seated_page, started_game

RECORDER = """() => {
  window.__notes = [];
  window.Notification = class {
    constructor(title, options) { window.__notes.push(title); }
    static permission = "granted";
    static requestPermission() { return Promise.resolve("granted"); }
  };
}"""

HIDE = """(hidden) => {
  Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => (hidden ? "hidden" : "visible") });
  document.dispatchEvent(new Event("visibilitychange"));
}"""


async def test_the_tab_says_your_move_counts_unread_chat_and_notifies_who_opted_in(browser, server):
    game, joined = await started_game(server, side="union")
    gid = game["game_id"]
    union = await seated_page(browser, server, gid, "union", game["token"])
    confed = await seated_page(browser, server, gid, "confederate", joined["token"])
    await confed.evaluate(RECORDER)
    await until(union, "() => document.title.startsWith('▶ Your move')")
    assert await union.get_attribute("link[rel=icon]", "data-state") == "true:false"
    assert not (await confed.title()).startswith("▶")
    # Chat while the Confederate's tab is hidden: counted in its title and icon, cleared when seen.
    await confed.click("#notify-toggle")
    await confed.evaluate(HIDE, True)
    await js(union, "() => bluegray.act({type: 'chat', text: 'Your move soon.'})")
    await until(confed, "() => document.title.startsWith('(1) ')")
    assert await confed.get_attribute("link[rel=icon]", "data-state") == "false:true"
    await confed.evaluate(HIDE, False)
    await until(confed, "() => !document.title.startsWith('(')")
    # Hidden again: the Union ends both phases; the Confederate is told it is his move.
    await confed.evaluate(HIDE, True)
    for phase in ("combat", "movement"):
        await until(union, "() => bluegray.validChoices() !== null && !bluegray.busy")
        await js(union, "() => bluegray.endPhase()")
        await until(union, "(p) => bluegray.board.state.phase === p", phase)
    await until(confed, "() => window.__notes.includes('Blue & Gray — Your move')")
    assert (await confed.title()).startswith("▶ Your move")
    # The game ends (the Union resigns): told too.
    await js(union, "() => bluegray.act({type: 'resign'})")
    await until(confed, "() => window.__notes.includes('Blue & Gray — Game over')")
    # The Union, who never opted in, was told nothing.
    assert await js(union, "() => bluegray.told || []") == []
    for page in (union, confed):
        assert not page.errors, page.errors
        await page.context.close()
