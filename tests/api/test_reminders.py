"""Reminders before a flag falls (api/reminders.py): in a correspondence game the seat to act is
told once per Player-Turn when less than his ``remind_hours`` are left on his clock, by e-mail and
webhook, never twice (not after a restart), never with a token. The test gives the scheduler its
"now": no sleeping, no timing."""

from __future__ import annotations

import asyncio
import json

from apiharness import PATIENCE
from test_notifications import correspondence_game, settled, union_plays_until_confederate_must_act

from api.accounts import CSRF_HEADER
from api.app_keys import NOTIFIER, REMINDERS
from api.reminders import HOUR_MS, Reminders
from session import clock

DAY_MS = 24 * HOUR_MS


async def scheduled(server) -> None:
    await asyncio.wait_for(server.app[REMINDERS].idle(), PATIENCE)


async def test_one_reminder_when_less_than_the_chosen_hours_are_left(make_client, mailbox, receiver):
    server = await make_client(smtp_url=mailbox.url, webhook_private_addresses=True)
    notify = {"email": "lee@example.org", "email_mode": "digest", "webhook": receiver.hook_url, "remind_hours": 30}
    grant_browser, lee_browser, game_id, lee_token, kept = await correspondence_game(server, notify)
    reminders = server.app[REMINDERS]
    async with grant_browser, lee_browser:
        union = await union_plays_until_confederate_must_act(grant_browser, game_id)
        await scheduled(server)
        await settled(server)
    mailbox.messages.clear()
    receiver.got.clear()  # the "your move" notices: not what this test is about
    falls = clock.falls_at(union.history.session, "confederate")  # the client's fold of the same log
    assert falls == union.history.session.clock_at + 3 * DAY_MS
    score = await server.app[REMINDERS].redis.zscore(reminders.key, game_id)
    assert score == falls - 30 * HOUR_MS
    assert await reminders.tick(int(score) - 1) == 0  # not yet: 30 h and a moment left
    assert await reminders.tick(falls - 23 * HOUR_MS) == 1
    await settled(server)
    assert len(receiver.got) == 1 and len(mailbox.messages) == 1  # a reminder mail even with a digest
    notice = json.loads(receiver.got[0][0])
    assert notice["kind"] == "reminder" and notice["seat"] == "confederate"
    assert notice["text"] == f"Game {game_id}: your move (Confederate), 23 h left on your clock"
    assert "Subject: Little time left: " + game_id in mailbox.messages[0][1]
    for secret in (lee_token, kept["webhook_secret"]):
        assert secret not in mailbox.messages[0][1] and secret.encode() not in receiver.got[0][0]
    assert await reminders.redis.zscore(reminders.key, game_id) is None  # done for this Player-Turn
    # A restart (a new scheduler over the same store) and a stale entry put back: never twice.
    again = Reminders(
        reminders.store, reminders.seats, reminders.notifications, server.app[NOTIFIER], reminders.games, reminders.prefix
    )
    await again.redis.zadd(again.key, {game_id: int(score)})
    assert await again.tick(falls - HOUR_MS) == 0
    await settled(server)
    assert len(receiver.got) == 1
    assert await again.redis.zscore(again.key, game_id) is None


async def test_no_reminder_when_none_is_asked_nor_after_the_flag_fell(make_client, receiver):
    server = await make_client(webhook_private_addresses=True)
    grant_browser, lee_browser, game_id, _, _ = await correspondence_game(
        server, {"webhook": receiver.hook_url, "remind_hours": 0}
    )
    reminders = server.app[REMINDERS]
    async with grant_browser, lee_browser:
        union = await union_plays_until_confederate_must_act(grant_browser, game_id)
        await scheduled(server)
        assert await reminders.redis.zscore(reminders.key, game_id) is None  # remind_hours 0: none
        lee = await (await lee_browser.get("/api/me")).json()
        too_many = await lee_browser.put(
            "/api/me/notifications", json={"remind_hours": 10_000}, headers={CSRF_HEADER: lee["csrf"]}
        )
        error = (await too_many.json())["error"]
        assert too_many.status == 400 and "remind_hours" in error["message"], error
        saved = await lee_browser.put(
            "/api/me/notifications",
            json={"webhook": receiver.hook_url, "remind_hours": 12},
            headers={CSRF_HEADER: lee["csrf"]},
        )
        assert saved.status == 200
    falls = clock.falls_at(union.history.session, "confederate")
    # The settings count from the next action; an entry put by hand for this one, and the flag fell:
    await reminders.redis.zadd(reminders.key, {game_id: falls - 12 * HOUR_MS})
    assert await reminders.tick(falls + 1) == 0
    assert await reminders.redis.zscore(reminders.key, game_id) is None
    await settled(server)
    assert [json.loads(body)["kind"] for body, _ in receiver.got] == ["your_move"]
