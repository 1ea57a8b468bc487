"""Notifications (api/notifier.py): in a correspondence game, the move that passes the turn sends
exactly one e-mail to a real SMTP server (aiosmtpd, started here) and one signed webhook POST to a
real receiver, with the move's text and no token; webhooks are retried, never sent to private
addresses unless allowed; each player reads and writes only his own settings."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import random

from apiharness import PATIENCE, WsClient
from test_accounts import browser, register

from api.accounts import CSRF_HEADER
from api.app_keys import NOTIFIER
from api.notifier import SIGNATURE, TIMESTAMP

CORRESPONDENCE = {"mode": "correspondence", "days_per_turn": 3}


async def settled(client) -> None:
    """Until the notifier has nothing queued or in flight."""
    await asyncio.wait_for(client.app[NOTIFIER].idle(), PATIENCE)


async def correspondence_game(server, notify: dict):
    """Grant (Union) and Lee (Confederate) in a correspondence game from the lobby; Lee's
    notification settings `notify`. Returns (Grant's browser, Lee's browser, the game id, Lee's
    token, Lee's settings as kept)."""
    grant_browser, lee_browser = browser(server), browser(server)
    grant = await register(grant_browser, "Grant")
    lee = await register(lee_browser, "Lee")
    kept = await lee_browser.put("/api/me/notifications", json=notify, headers={CSRF_HEADER: lee["csrf"]})
    assert kept.status == 200, await kept.text()
    seek = await grant_browser.post(
        "/api/seeks",
        json={"scenario": "chattanooga", "side": "union", "clock": CORRESPONDENCE},
        headers={CSRF_HEADER: grant["csrf"]},
    )
    seek = await seek.json()
    started = await lee_browser.post(f"/api/lobby/{seek['id']}/accept", json={}, headers={CSRF_HEADER: lee["csrf"]})
    started = await started.json()
    return grant_browser, lee_browser, started["game_id"], started["token"], await kept.json()


async def union_plays_until_confederate_must_act(grant_browser, game_id: str) -> WsClient:
    union = await WsClient(grant_browser, game_id).connect(spectate=False)
    rng = random.Random(2)
    while union.history.session.to_act == "union":
        ack = await union.play_random(rng)
        await union.until_version(ack.last)
    return union


async def test_the_move_that_passes_the_turn_sends_one_mail_and_one_signed_webhook(make_client, mailbox, receiver):
    server = await make_client(smtp_url=mailbox.url, webhook_private_addresses=True, public_url="https://bg.example")
    notify = {"email": "lee@example.org", "email_mode": "each", "webhook": receiver.hook_url}
    grant_browser, lee_browser, game_id, lee_token, kept = await correspondence_game(server, notify)
    async with grant_browser, lee_browser:
        await settled(server)
        assert mailbox.messages == [] and receiver.got == []  # nothing yet: the Union is to act
        union = await union_plays_until_confederate_must_act(grant_browser, game_id)
        await settled(server)
    assert len(mailbox.messages) == 1 and len(receiver.got) == 1
    (to, mail), (body, headers) = mailbox.messages[0], receiver.got[0]
    assert to == ["lee@example.org"] and "Subject: Your move: " + game_id in mail
    notice = json.loads(body)
    assert notice["kind"] == "your_move" and notice["seat"] == "confederate" and notice["game_id"] == game_id
    assert notice["content"] == notice["text"] and "your move (Confederate), Game-Turn 1" in notice["text"]
    assert notice["text"].startswith("Union: ")  # the record's words for the Union's last action
    assert notice["text"] in mail and notice["url"] == f"https://bg.example/games/{game_id}"
    assert notice["version"] == union.version
    expected = "sha256=" + hmac.new(
        kept["webhook_secret"].encode(), headers[TIMESTAMP].encode() + b"." + body, hashlib.sha256
    ).hexdigest()
    assert hmac.compare_digest(headers[SIGNATURE], expected)
    for secret in (lee_token, kept["webhook_secret"]):
        assert secret not in mail and secret.encode() not in body


async def test_a_failing_webhook_is_tried_again_with_back_off(make_client, receiver):
    server = await make_client(webhook_private_addresses=True, webhook_backoff=0.05)
    receiver.state["fail_first"] = 2
    grant_browser, lee_browser, game_id, _, _ = await correspondence_game(server, {"webhook": receiver.hook_url})
    async with grant_browser, lee_browser:
        await union_plays_until_confederate_must_act(grant_browser, game_id)
        await settled(server)
    assert len(receiver.got) == 3  # 503, 503, then delivered
    assert len({body for body, _ in receiver.got}) == 1


async def test_no_webhook_goes_to_a_private_address_unless_allowed(make_client, receiver, caplog):
    server = await make_client()  # the default: private addresses refused (no SSRF)
    caplog.set_level(logging.WARNING, logger="api.notifier")
    grant_browser, lee_browser, game_id, _, _ = await correspondence_game(server, {"webhook": receiver.hook_url})
    async with grant_browser, lee_browser:
        await union_plays_until_confederate_must_act(grant_browser, game_id)
        await settled(server)
    assert receiver.got == []
    assert "private address" in caplog.text


async def test_a_digest_is_at_most_one_mail_a_day_and_a_muted_game_sends_none(make_client, mailbox):
    server = await make_client(smtp_url=mailbox.url)
    grant_browser, lee_browser, game_id, _, _ = await correspondence_game(
        server, {"email": "lee@example.org", "email_mode": "digest"}
    )
    async with grant_browser, lee_browser:
        union = await union_plays_until_confederate_must_act(grant_browser, game_id)
        await settled(server)
        assert len(mailbox.messages) == 1
        # the Confederate plays until the Union must act, the Union again: no second mail today
        confederate = await WsClient(lee_browser, game_id).connect(spectate=False)
        rng = random.Random(4)
        while confederate.history.session.to_act == "confederate":
            ack = await confederate.play_random(rng)
            await confederate.until_version(ack.last)
        await union.until_version(confederate.version)
        rng = random.Random(5)
        while union.history.session.to_act == "union":
            ack = await union.play_random(rng)
            await union.until_version(ack.last)
        await settled(server)
        assert len(mailbox.messages) == 1


async def test_each_player_reads_and_writes_only_his_own_settings(client):
    grant = await register(client, "Grant")
    saved = await client.put(
        "/api/me/notifications",
        json={"email": "grant@example.org", "webhook": "https://hooks.example/x", "webhook_secret": "mine"},
        headers={CSRF_HEADER: grant["csrf"]},
    )
    kept = await saved.json()
    assert saved.status == 200 and kept["webhook_secret"] != "mine" and len(kept["webhook_secret"]) == 64
    async with browser(client) as other:
        lee = await register(other, "Lee")
        assert "email" not in await (await other.get("/api/me/notifications")).json()
        bad = await other.put("/api/me/notifications", json={"email": "not an address"}, headers={CSRF_HEADER: lee["csrf"]})
        assert bad.status == 400 and "email" in (await bad.json())["error"]["message"]
        no_csrf = await other.put("/api/me/notifications", json={})
        assert no_csrf.status == 403
    async with browser(client) as anonymous:
        assert (await anonymous.get("/api/me/notifications")).status == 401
