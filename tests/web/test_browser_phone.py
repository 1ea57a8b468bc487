"""The web client on a phone (390x844 portrait, touch): the layout reflows rather than cuts. Every
control of the top bar is on the screen and takes a tap; the lobby's fields fit; the movement points
of a unit's reach are not drawn over the counters; a toast never covers the replay bar."""

from __future__ import annotations

import json

from browsing import PATIENCE, new_page
from test_browser import seated_page, started_game

PHONE = {"width": 390, "height": 844}

# Is the element on the screen, whole, and is it what a tap at its centre reaches?
# (Measured against the phone's 390x844, not the window's inner size: a mobile browser widens its
# layout viewport to fit a page wider than the screen, which is exactly the fault to catch.)
ON_SCREEN = """(el) => {
  const r = el.getBoundingClientRect();
  const inside = r.width > 0 && r.height > 0 && r.left >= 0 && r.top >= 0
    && r.right <= 390.5 && r.bottom <= 844.5;
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {inside, tappable: !!hit && (hit === el || el.contains(hit)), rect: [r.left, r.top, r.right, r.bottom]};
}"""


async def test_every_top_bar_control_is_on_a_phone_screen_and_takes_a_tap(browser, server, shot):
    game, joined = await started_game(server, side="union")
    page = await new_page(browser, viewport=PHONE, has_touch=True, is_mobile=True)
    seats = {game["game_id"]: {"seat": "union", "token": game["token"], "at": 0}}
    await page.context.add_init_script(f"localStorage.setItem('bluegray.seats', JSON.stringify({json.dumps(seats)}))")
    await page.goto(f"{server}/play/{game['game_id']}")
    await page.wait_for_selector("#conn.live", timeout=PATIENCE)
    await page.wait_for_selector("#report-link:not(.hidden)", timeout=PATIENCE)
    await shot(page, "phone-board", doc=True)
    # Nothing is wider than the screen: the page never scrolls sideways.
    assert await page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    controls = await page.eval_on_selector_all(
        "header.bar > *:not(.hidden)", "els => els.map((e) => e.id || e.className)"
    )
    assert {"replay-open", "report-link", "conn", "seat-badge"} <= set(controls), controls
    # The top bar's controls are on the screen as the page opens, no scrolling needed.
    for sel in ("header.bar a.home", "#seat-badge", "#replay-open", "#report-link", "#conn"):
        seen = await page.locator(sel).evaluate(ON_SCREEN)
        assert seen["inside"] and seen["tappable"], (sel, seen)
    # The panel's controls (Resign among them) are a vertical scroll away, whole.
    for sel in ("#end-phase", "#undo-request", "#draw-offer", "#resign"):
        await page.evaluate("(s) => { const r = document.querySelector(s).getBoundingClientRect(); window.scrollBy(0, r.top - 300); }", sel)
        seen = await page.locator(sel).evaluate(ON_SCREEN)
        assert seen["inside"] and seen["tappable"], (sel, seen)
    await page.evaluate("() => window.scrollTo(0, 0)")
    # A tap on the report opens it (a new tab for a player: the page fetched with the seat token).
    async with page.context.expect_page(timeout=PATIENCE) as opened:
        await page.tap("#report-link")
    report = await opened.value
    await report.wait_for_load_state()
    await report.close()
    # A tap on Replay opens the replay bar; a toast then stays clear of it.
    await page.tap("#replay-open")
    await page.wait_for_selector("#replay-bar:not(.hidden)", timeout=PATIENCE)
    await page.evaluate("() => bluegray.toast('A toast over the replay bar?', 'info', 60000)")
    bar = await page.locator("#replay-bar").bounding_box()
    toast = await page.locator(".toast").first.bounding_box()
    assert toast["y"] + toast["height"] <= bar["y"] or toast["y"] >= bar["y"] + bar["height"], (toast, bar)
    await shot(page, "phone-replay-toast")
    assert not page.errors, page.errors
    await page.context.close()


async def test_the_lobby_fits_a_phone(browser, server, shot):
    page = await new_page(browser, viewport=PHONE, has_touch=True, is_mobile=True)
    await page.goto(f"{server}/")
    await page.wait_for_selector("#create")
    await shot(page, "phone-lobby")
    fields = await page.eval_on_selector_all("main select, main input, main button", "els => els.length")
    assert fields > 0
    for i in range(fields):
        el = page.locator("main select, main input, main button").nth(i)
        if not await el.is_visible():
            continue
        r = await el.bounding_box()
        assert r["x"] >= 0 and r["x"] + r["width"] <= PHONE["width"] + 0.5, (i, r)
    # Each drop-down takes its card's whole width and shows the option chosen whole (its arrow
    # besides), for most of its options (a battle's long name may not fit a phone: the picker shows it whole).
    cut = await page.evaluate("""() => {
      const ctx = document.createElement('canvas').getContext('2d');
      const out = [];
      for (const s of document.querySelectorAll('main select')) {
        if (!s.offsetParent) continue;
        ctx.font = getComputedStyle(s).font;
        const card = s.closest('.card').getBoundingClientRect().width;
        const cutOff = [...s.options].filter((o) => ctx.measureText(o.text).width + 24 > s.clientWidth);
        if (s.getBoundingClientRect().width < card - 40 || cutOff.length > s.options.length / 2)
          out.push([s.name, cutOff.map((o) => o.text), s.clientWidth, card]);
      }
      return out;
    }""")
    assert cut == [], cut
    # The page never scrolls sideways.
    assert await page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    await page.context.close()


async def test_reach_costs_are_not_drawn_over_counters(browser, server, shot):
    game, joined = await started_game(server, side="union")
    page = await seated_page(browser, server, game["game_id"], "union", game["token"], viewport=PHONE)
    await page.wait_for_function("() => bluegray.validChoices() !== null", timeout=PATIENCE)
    unit = await page.evaluate("() => bluegray.validChoices().may_move[0]")
    await page.evaluate("(u) => bluegray.selectUnit(u)", unit)
    await page.wait_for_selector("#overlay .shade.reach text", timeout=PATIENCE)
    await shot(page, "phone-reach")
    # Each cost label of a hex with a counter in it lies outside the counter's box.
    overlaps = await page.evaluate("""() => {
      const out = [];
      for (const t of document.querySelectorAll('#overlay .shade.reach text')) {
        const hex = t.closest('.shade').dataset.hex;
        const tr = t.getBoundingClientRect();
        for (const c of document.querySelectorAll(`#units .stack[data-hex='${hex}']`)) {
          const cr = c.getBoundingClientRect();
          const w = Math.min(tr.right, cr.right) - Math.max(tr.left, cr.left);
          const h = Math.min(tr.bottom, cr.bottom) - Math.max(tr.top, cr.top);
          if (w > 1 && h > 1) out.push(hex);
        }
      }
      return out;
    }""")
    assert overlaps == [], overlaps
    assert await page.locator("#overlay .shade.reach text").count() > 0
    await page.context.close()


async def test_a_whole_turn_is_played_by_taps_on_a_phone(browser, server, shot):
    """Union's Player-Turn at 390x844 by touch alone: tap a unit, tap a hex of its reach, tap End
    phase; in the Combat Phase, tap End phase again (no attack is owed at the start); the game is
    then in the Confederate Player-Turn."""
    game, joined = await started_game(server, side="union")
    page = await new_page(browser, viewport=PHONE, has_touch=True, is_mobile=True)
    seats = {game["game_id"]: {"seat": "union", "token": game["token"], "at": 0}}
    await page.context.add_init_script(f"localStorage.setItem('bluegray.seats', JSON.stringify({json.dumps(seats)}))")
    await page.goto(f"{server}/play/{game['game_id']}")
    await page.wait_for_selector("#conn.live", timeout=PATIENCE)
    await page.wait_for_function("() => bluegray.validChoices() !== null", timeout=PATIENCE)

    async def tap_hex(hex_):
        await page.evaluate("() => window.scrollTo(0, 0)")
        x, y = await page.evaluate("(h) => { bluegray.map.centreOn(h); return bluegray.map.clientOf(h); }", hex_)
        await page.touchscreen.tap(x, y)

    await tap_hex("0425")  # 1/1/IV
    await page.wait_for_function("() => bluegray.selection?.unit === 'us-1-1-iv'", timeout=PATIENCE)
    await page.wait_for_selector("#overlay .shade.reach[data-hex='0525']", timeout=PATIENCE)
    await tap_hex("0525")
    await page.wait_for_function("() => bluegray.board.state.positions['us-1-1-iv'] === '0525'", timeout=PATIENCE)
    for phase in ("combat", None):
        await page.wait_for_function("() => bluegray.validChoices() !== null && !bluegray.busy", timeout=PATIENCE)
        await page.locator("#end-phase").scroll_into_view_if_needed()
        await page.tap("#end-phase")
        if phase:
            await page.wait_for_function("(p) => bluegray.board.state.phase === p", arg=phase, timeout=PATIENCE)
    await page.wait_for_function("() => bluegray.board.state.phasing === 'confederate'", timeout=PATIENCE)
    assert "Confederate to act" in await page.inner_text("#status")
    await shot(page, "phone-turn-played")
    assert not page.errors, page.errors
    await page.context.close()
