"""Telling a player it is his move, off the game's path (docs/PROTOCOL.md, "Notifications").

After a player's action is appended, the process that appended it hands `after_action` what
happened; if the turn passed to the other seat (or the game ended) and that seat belongs to an
account, the account's choices (accounts/notifications.py) are served from a queue by one worker
task: an e-mail over SMTP (`aiosmtplib`: at each move, or at most one digest a day), a webhook
POST signed with HMAC-SHA256, tried again with back-off, and a Web Push message to each device he
subscribed (api/push.py, when the server has a VAPID key). Nothing here can hold up or fail a game: a
full queue drops the notification (logged), a failed delivery is logged. The text says what
happened in the record's words; no token, invite or seed is ever in it.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import ipaddress
import logging
import socket
import time
from email.message import EmailMessage
from urllib.parse import urlsplit

import aiohttp
import aiosmtplib
import msgspec

from accounts.notifications import Notifications, Settings
from api.config import ServerConfig
from api.seats import Seats
from eventstore.store import RedisEventStore
from replay.gamerecord import GameRecord
from replay.textrecord import side_name
from session.history import History, decode_entry

log = logging.getLogger(__name__)

QUEUE = 10_000  # notifications waiting; past it they are dropped (logged)
SIGNATURE = "X-BlueGray-Signature"
TIMESTAMP = "X-BlueGray-Timestamp"
SUBJECTS = {"your_move": "Your move: ", "reminder": "Little time left: ", "game_over": "Game over: "}


class Notice(msgspec.Struct, frozen=True, kw_only=True):
    """What a webhook receives (Discord reads ``content``, Slack ``text``): the sentence, the game,
    the seat told, the version it is at, and ``kind`` (``your_move``, ``game_over``, or
    ``reminder``: little time is left on his clock, api/reminders.py)."""

    content: str
    text: str
    kind: str
    game_id: str
    seat: str
    version: int
    url: str | None = None


def signature(secret: str, timestamp: str, body: bytes) -> str:
    """The webhook's signature: HMAC-SHA256 of ``<timestamp>.<body>`` with the account's secret."""
    return "sha256=" + hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()


class Notifier:
    def __init__(
        self, store: RedisEventStore, seats: Seats, notifications: Notifications, config: ServerConfig, pusher=None
    ):
        self.store = store
        #: api/push.py's `Pusher` when the server has a VAPID key, else None.
        self.pusher = pusher
        self.seats = seats
        self.notifications = notifications
        self.config = config
        self.queue: asyncio.Queue = asyncio.Queue(QUEUE)
        self._worker: asyncio.Task | None = None
        self._deliveries: set[asyncio.Task] = set()

    def start(self) -> None:
        self._worker = asyncio.create_task(self._work())

    async def stop(self) -> None:
        if self._worker is not None:
            self._worker.cancel()
        for task in list(self._deliveries):
            task.cancel()
        await asyncio.gather(*([self._worker] if self._worker else []), *self._deliveries, return_exceptions=True)

    def after_action(self, game_id: str, history: History, seat: str, first: int, last: int) -> None:
        """Called by the live game after `seat`'s action made versions first..last (no waiting;
        never raises: a notification must not fail the action)."""
        try:
            self._queue(game_id, history, seat, first, last)
        except Exception:  # noqa: BLE001
            log.exception("notification of game %s not queued", game_id)

    def _queue(self, game_id: str, history: History, seat: str, first: int, last: int) -> None:
        if history.finished is not None:
            told = [("union", "game_over"), ("confederate", "game_over")]
        elif history.session.to_act not in (None, seat):
            told = [(history.session.to_act, "your_move")]
        else:
            return
        turn = history.state.turn if history.state is not None else 0
        for who, kind in told:
            try:
                self.queue.put_nowait((game_id, history.game, who, kind, first, last, turn))
            except asyncio.QueueFull:
                log.warning("notification queue full: %s of game %s not sent", kind, game_id)

    async def _work(self) -> None:
        me = asyncio.current_task()
        while True:
            item = await self.queue.get()
            try:
                await self._notify(*item)
            except Exception:  # noqa: BLE001 - a notification never takes the worker down
                log.exception("notification of game %s failed", item[0])
            finally:
                self.queue.task_done()
            if me.cancelling():  # a cancellation the store's client swallowed mid-call: stop anyway
                raise asyncio.CancelledError

    async def idle(self) -> None:
        """Until every queued notification has been handled and every delivery has ended."""
        await self.queue.join()
        while self._deliveries:
            await asyncio.gather(*self._deliveries, return_exceptions=True)

    async def _notify(self, game_id, game, seat, kind, first, last, turn) -> None:
        account_id = (await self.seats.accounts(game_id)).get(seat)
        if account_id is None or await self.notifications.muted(account_id, game_id):
            return
        text = await self._text(game_id, game, seat, kind, first, last, turn)
        await self._send(account_id, self.notice(text, kind, game_id, seat, last))

    def notice(self, text: str, kind: str, game_id: str, seat: str, version: int) -> Notice:
        url = f"{self.config.public_url.rstrip('/')}/games/{game_id}" if self.config.public_url else None
        return Notice(content=text, text=text, kind=kind, game_id=game_id, seat=seat, version=version, url=url)

    async def deliver(self, account_id: str, notice: Notice) -> None:
        """Send `notice` to the account by each way it chose, unless it muted the game (for the
        reminders, api/reminders.py: the deliveries run in the background, never waited for)."""
        if not await self.notifications.muted(account_id, notice.game_id):
            await self._send(account_id, notice)

    async def _send(self, account_id: str, notice: Notice) -> None:
        settings = await self.notifications.settings(account_id)
        if settings.email and self.config.smtp_url and await self._mail_now(account_id, settings, notice.kind):
            self._spawn(self._mail(settings.email, notice))
        if settings.webhook and settings.webhook_secret:
            self._spawn(self._webhook(settings.webhook, settings.webhook_secret, notice))
        if self.pusher is not None:
            for sub in await self.pusher.targets(account_id):
                self._spawn(self.pusher.push(account_id, sub, notice))

    async def _mail_now(self, account_id: str, settings: Settings, kind: str) -> bool:
        if settings.email_mode == "each" or kind != "your_move":  # the end and a reminder: always
            return settings.email_mode != "off"
        return settings.email_mode == "digest" and await self.notifications.first_mail_today(account_id)

    async def _text(self, game_id, game, seat, kind, first, last, turn) -> str:
        """The sentence: what the action did, in the record's words, and what it means for `seat`."""
        record = GameRecord(game)
        async for envelope in self.store.read(game_id, first, last):
            record.apply(envelope.version, decode_entry(envelope))
        did = "; ".join(line.text for line in record.lines if line.kind == "command")
        if kind == "game_over":
            finished = next((line.text for line in record.lines if line.kind == "game_finished"), "the game is over")
            return f"{did}; {finished}" if did else finished
        return f"{did or 'the game moved on'}; your move ({side_name(seat)}), Game-Turn {turn}"

    def _spawn(self, delivery) -> None:
        task = asyncio.create_task(delivery)
        self._deliveries.add(task)
        task.add_done_callback(self._deliveries.discard)

    async def _mail(self, address: str, notice: Notice) -> None:
        message = EmailMessage()
        message["From"] = self.config.mail_from
        message["To"] = address
        message["Subject"] = SUBJECTS.get(notice.kind, "Game over: ") + notice.game_id
        message.set_content(notice.text + (f"\n\n{notice.url}\n" if notice.url else "\n"))
        parts = urlsplit(self.config.smtp_url)
        try:
            await aiosmtplib.send(message, hostname=parts.hostname, port=parts.port or 25, timeout=10)
        except (aiosmtplib.SMTPException, OSError) as exc:
            log.warning("mail of game %s to an account not sent: %s", notice.game_id, exc)

    async def _webhook(self, url: str, secret: str, notice: Notice) -> None:
        """POST the notice, signed; again after 1, 2, 4 ... s (`webhook_tries` in all) on a
        network error, a 429 or a 5xx; never to a private address unless the server allows it."""
        if not self.config.webhook_private_addresses and await private_address(url):
            log.warning("webhook of game %s not sent: %s is a private address", notice.game_id, urlsplit(url).hostname)
            return
        body = msgspec.json.encode(notice)
        delay = self.config.webhook_backoff
        for attempt in range(1, self.config.webhook_tries + 1):
            stamp = str(int(time.time()))
            headers = {"Content-Type": "application/json", TIMESTAMP: stamp, SIGNATURE: signature(secret, stamp, body)}
            try:
                async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as session:
                    async with session.post(url, data=body, headers=headers, allow_redirects=False) as response:
                        if response.status < 300:
                            return
                        if response.status < 500 and response.status != 429:
                            log.warning("webhook of game %s refused: HTTP %d", notice.game_id, response.status)
                            return
            except (aiohttp.ClientError, TimeoutError) as exc:
                log.info("webhook of game %s: try %d failed (%s)", notice.game_id, attempt, exc)
            await asyncio.sleep(delay)
            delay *= 2
        log.warning("webhook of game %s not delivered after %d tries", notice.game_id, self.config.webhook_tries)


async def private_address(url: str) -> bool:
    """Does the URL's host resolve to a loopback, private, link-local or reserved address?"""
    host = urlsplit(url).hostname or ""
    try:
        found = await asyncio.get_running_loop().getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except OSError:
        return True
    for *_, address in found:
        ip = ipaddress.ip_address(address[0])
        if ip.is_private or ip.is_loopback or ip.is_link_local or ip.is_reserved or ip.is_multicast:
            return True
    return False
