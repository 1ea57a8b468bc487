"""What the browser tests share: a page that keeps the client's errors, its JavaScript evaluated, a wait
for a condition in the page, a click on a hex of the map, the board's version, a combat's decisions made."""

from __future__ import annotations

from urllib.parse import urlsplit

PATIENCE = 15_000  # ms: a guard against hanging, never a measure of speed
LAPTOP = {"width": 1366, "height": 800}


async def new_page(browser, viewport=LAPTOP, **options):
    """A page in a context of its own; ``page.errors`` collects its uncaught errors and console errors."""
    context = await browser.new_context(viewport=viewport, **options)
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" and not expected_answer(m) else None)
    page.errors = errors
    return page


# Requests whose 404 is the server's documented answer that the client asks about on purpose, which
# Chromium logs anyway as a console error ("Failed to load resource"): GET /api/push-key, 404 on a
# server without a VAPID key (docs/PROTOCOL.md "Web Push"), asked by the account card to say so.
EXPECTED_404 = ("/api/push-key",)


def expected_answer(message) -> bool:
    url = (message.location or {}).get("url", "")
    return message.text.startswith("Failed to load resource: the server responded with a status of 404") and \
        urlsplit(url).path in EXPECTED_404


async def js(page, expression: str, arg=None):
    return await page.evaluate(expression, arg)


async def until(page, expression: str, arg=None):
    await page.wait_for_function(expression, arg=arg, timeout=PATIENCE)


async def click_hex(page, hex_: str) -> None:
    """Click the centre of a hex on the map (brought into view first)."""
    x, y = await page.evaluate("(h) => { bluegray.map.centreOn(h); return bluegray.map.clientOf(h); }", hex_)
    await page.mouse.move(x, y)
    await page.mouse.click(x, y)


async def version(page) -> int:
    return await js(page, "() => bluegray.board.version")


async def make_decisions(union, confed, shot) -> None:
    """The decisions a combat's result asks for (retreat, losses, advance), made on whichever page
    is asked, until none is pending."""
    for _ in range(8):
        await union.wait_for_timeout(150)
        acted = False
        for page in (union, confed):
            d = await js(page, "() => bluegray.validChoices()?.decision?.type || null")
            if not d:
                continue
            acted = True
            before = await version(page)
            await shot(page, f"decision-{d}")
            await decide(page, d)
            await page.wait_for_function("(v) => bluegray.board.version > v", arg=before, timeout=PATIENCE)
        if not acted and await js(union, "() => bluegray.board.state.pending.length === 0"):
            break
    await until(union, "() => bluegray.board.state.pending.length === 0")


async def decide(page, d: str) -> None:
    """One decision made as a player makes it: the first retreat hex (or decline), loss or advance."""
    if d == "retreat":
        first = await js(page, "() => bluegray.validChoices().decision.options[0]?.to || null")
        if first:
            await click_hex(page, first)  # the shaded hex on the map
        else:
            await page.click("#decline")
    elif d == "exchange_losses":
        await page.click(".loss-option >> nth=0")
    elif d == "advance":
        await page.click(".advance-option >> nth=0")
