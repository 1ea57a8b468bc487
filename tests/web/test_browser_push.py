"""How a player is told, in the browser (api/static/js/account.js, api/static/sw.js; docs/PROTOCOL.md
"Notifications", "Web Push"): the reminder's hours kept by the server and shown again after a reload;
the service worker served at /sw.js as JavaScript; "Notify me on this device" disabled with a sentence
saying why on a server without a VAPID key, and offered on one with a key. Headless Chromium has no
push service to subscribe to (its subscribe() fails: "Registration failed - permission denied"), so
there the page says the subscription failed and the server keeps no device: what can be tested."""

from __future__ import annotations

import pytest
from aiohttp.test_utils import TestServer
from browsing import PATIENCE, new_page, until
from conftest import GAMES
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from test_browser_accounts import sign

from accounts.passwords import Cost
from api.app import make_app
from api.config import ServerConfig


@pytest.fixture
async def push_server(redis_url, key_prefix, tmp_path):
    """The application as `server` gives it, with a VAPID key (bluegray serve --vapid-private-key)."""
    key = ec.generate_private_key(ec.SECP256R1())
    pem = tmp_path / "vapid.pem"
    pem.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    config = ServerConfig(redis_url=redis_url, prefix=key_prefix, tail_block_ms=200, rate_per_second=1000, rate_burst=1000,
                          password_cost=Cost(time_cost=1, memory_kib=1024, parallelism=1),
                          vapid_private_key=str(pem), vapid_subject="mailto:tests@localhost")
    srv = TestServer(make_app(config, games=GAMES), host="127.0.0.1")
    await srv.start_server()
    yield str(srv.make_url("")).rstrip("/")
    await srv.close()


async def test_remind_hours_are_kept_and_push_is_refused_with_a_reason_without_a_key(browser, server):
    page = await new_page(browser)
    await sign(page, server, "sign-up", "Sherman")
    await page.wait_for_selector("#notify-form", timeout=PATIENCE)
    await until(page, "() => document.querySelector('#push-said').textContent.length > 0")
    assert await page.is_disabled("#push-subscribe")
    assert "This server sends no push notifications (it has no VAPID key)" in await page.inner_text("#push-said")
    assert await page.get_attribute("#push-subscribe", "aria-describedby") == "push-said"
    assert await page.input_value("#notify-form input[name=remind_hours]") == "24"  # the default

    await page.fill("#notify-form input[name=remind_hours]", "6")
    await page.click("#notify-form button[type=submit]")
    await page.wait_for_selector("#notify-said:has-text('Saved.')", timeout=PATIENCE)
    kept = await (await page.request.get(f"{server}/api/me/notifications")).json()
    assert kept["remind_hours"] == 6
    await page.reload()
    await page.wait_for_selector("#notify-form", timeout=PATIENCE)
    await until(page, "() => document.querySelector('#notify-form').elements.remind_hours.value === '6'")

    sw = await page.request.get(f"{server}/sw.js")
    assert sw.status == 200
    assert sw.headers["content-type"].split(";")[0] == "text/javascript"
    assert "addEventListener(\"push\"" in await sw.text()
    assert page.errors == [], page.errors
    await page.context.close()


async def test_push_is_offered_with_a_key_and_a_failed_subscription_is_said(browser, push_server):
    page = await new_page(browser)
    await page.context.grant_permissions(["notifications"], origin=push_server)
    await sign(page, push_server, "sign-up", "Thomas")
    await page.wait_for_selector("#push-subscribe:not([disabled])", timeout=PATIENCE)
    assert "reach this device" in await page.inner_text("#push-said")
    await page.click("#push-subscribe")
    await page.wait_for_selector("#notify-said:has-text('Push not set up')", timeout=PATIENCE)
    said = await page.inner_text("#notify-said")
    # What headless Chromium answers; a browser with a push service would be subscribed here instead.
    assert "this browser could not subscribe to its push service" in said, said
    worker = await page.evaluate("async () => (await navigator.serviceWorker.getRegistration('/'))?.active?.scriptURL")
    assert worker == f"{push_server}/sw.js"  # the service worker was registered at the site's root
    devices = await (await page.request.get(f"{push_server}/api/me/push")).json()
    assert devices["endpoints"] == []
    # the browser's own console line for its refusal is no error of the page (Chrome in an incognito
    # context, as Playwright's are: "Chrome currently does not support the Push API in incognito mode")
    errors = [e for e in page.errors if "Push API" not in e]
    assert errors == [], page.errors
    await page.context.close()
