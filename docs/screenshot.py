"""Take docs/board.png, the README's screenshot: the Union player's page of a new Chattanooga game,
one unit picked and its reachable hexes shown.

    python docs/screenshot.py      # needs /usr/bin/chromium (Debian's chromium); downloads nothing

It runs `bluegray serve` on a free port with a temporary data directory, creates and joins a game over
HTTP, and drives headless Chromium through Playwright's Python package.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import aiohttp

OUT = Path(__file__).resolve().parent / "board.png"
CHROMIUM = "/usr/bin/chromium"
UNIT, HEX = "us-1-1-iv", "0425"  # a Union unit at start with room to move


async def shoot(url: str) -> None:
    from playwright.async_api import async_playwright

    async with aiohttp.ClientSession() as http:
        async with http.post(f"{url}/api/games", json={"scenario": "chattanooga"}) as r:
            game = await r.json()
        async with http.post(f"{url}/api/games/{game['game_id']}/join", json={"invite": game["invite"]}) as r:
            await r.json()
    seats = {game["game_id"]: {"seat": game["seat"], "token": game["token"], "at": 0}}
    async with async_playwright() as p:
        browser = await p.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-background-networking"]
        )
        page = await browser.new_page(viewport={"width": 1280, "height": 760})
        await page.add_init_script(
            f"localStorage.setItem('bluegray.seats', JSON.stringify({json.dumps(seats)}))"
        )
        await page.goto(f"{url}/play/{game['game_id']}")
        await page.wait_for_selector("#conn.live", timeout=20_000)
        await page.evaluate("(u) => bluegray.reach(u, 'move')", UNIT)
        await page.keyboard.press("0")  # the whole map
        x, y = await page.evaluate("(h) => bluegray.map.clientOf(h)", HEX)
        await page.mouse.click(x, y)
        await page.wait_for_timeout(500)
        await page.screenshot(path=str(OUT))
        await browser.close()


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="bluegray-shot-") as data:
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "api",
                "serve",
                "--port",
                "0",
                "--data-dir",
                data,
                "--log-level",
                "WARNING",
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            url = server.stdout.readline().split()[3]
            asyncio.run(shoot(url))
        finally:
            server.terminate()
            server.wait(30)
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
