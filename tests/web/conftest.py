"""Browser tests: the real server (the aiohttp app on a free loopback port, on the session's private
Redis) driven through headless Chromium from Debian's packages by Playwright's Python package.

No browser is ever downloaded: Playwright launches /usr/bin/chromium. Without it these tests skip,
except in CI (CI=true), where .ci/run installs it and a missing browser is a failure.
Screenshots go to test-artifacts/web/ (gitignored).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from aiohttp.test_utils import TestServer

from accounts.passwords import Cost
from api.app import make_app
from api.config import ServerConfig
from session.games import GameCache

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run", "--disable-sync"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "web"
GAMES = GameCache()
IN_CI = os.environ.get("CI", "").lower() == "true"


def pytest_collection_modifyitems(config, items):
    if os.path.exists(CHROMIUM) or IN_CI:
        return
    skip = pytest.mark.skip(reason=f"no {CHROMIUM} (install Debian's chromium: apt-get install chromium); CI runs these")
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(skip)


@pytest.fixture(scope="session")
async def browser():
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        b = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        await b.close()


@pytest.fixture
async def server(redis_url, key_prefix):
    """The real application on 127.0.0.1 and a free port; yields its base URL (no trailing slash)."""
    config = ServerConfig(redis_url=redis_url, prefix=key_prefix, tail_block_ms=200, rate_per_second=1000, rate_burst=1000,
                          password_cost=Cost(time_cost=1, memory_kib=1024, parallelism=1))
    srv = TestServer(make_app(config, games=GAMES), host="127.0.0.1")
    await srv.start_server()
    yield str(srv.make_url("")).rstrip("/")
    await srv.close()


DOC_SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


@pytest.fixture
def shot():
    """`await shot(page, "name")` saves test-artifacts/web/name.png; with ``doc=True`` and the
    environment variable BLUEGRAY_DOC_SHOTS=1, also docs/screenshots/name.jpg (the README's)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    async def take(page, name: str, doc: bool = False) -> Path:
        path = ARTIFACTS / f"{name}.png"
        await page.screenshot(path=str(path))
        if doc and os.environ.get("BLUEGRAY_DOC_SHOTS") == "1":
            DOC_SHOTS.mkdir(parents=True, exist_ok=True)
            await page.screenshot(path=str(DOC_SHOTS / f"{name}.jpg"), type="jpeg", quality=70)
        return path

    return take
