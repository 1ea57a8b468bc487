"""Web Push with VAPID (RFC 8030, 8291, 8292): the same notices as the e-mail and the webhook
(api/notifier.py), sent to each device a player subscribed (accounts/push.py), when the server has a
VAPID key (``bluegray serve --vapid-private-key FILE --vapid-subject mailto:...``).

The message is the notice's JSON, encrypted to the subscription's keys (aes128gcm) and POSTed to
its push service with a VAPID ``Authorization`` (a JWT signed with the server's P-256 key). This is
pywebpush's `webpush_async`: its encryption (http_ece) and py-vapid's signature, and the POST over
aiohttp, in the event loop (no thread: nothing in it blocks but the signature's few microseconds).
It runs in the Notifier's background deliveries, never on a game's path. A push service that
answers 404 or 410 (the subscription is gone) makes the server forget that subscription; any other
failure is logged. Like a webhook, a push to a loopback or private address is not sent unless the
server allows it (``webhook_private_addresses``).
"""

from __future__ import annotations

import base64
import logging
from pathlib import Path

import aiohttp
import msgspec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid
from pywebpush import WebPushException, webpush_async

from accounts.push import PushSubscriptions, Subscription
from api.notifier import private_address

log = logging.getLogger(__name__)

TTL_SECONDS = 24 * 3600  # how long a push service keeps a message for a device that is away
GONE = (404, 410)


class VapidKeyError(ValueError):
    """The VAPID key file is missing or holds no P-256 private key."""


def load_key(path: str | Path) -> Vapid:
    """The server's VAPID key from a PEM file (`vapid --gen` writes one: private_key.pem)."""
    path = Path(path)
    try:
        pem = path.read_bytes()
    except OSError as exc:
        raise VapidKeyError(f"{path}: {exc.strerror or exc}") from None
    try:
        return Vapid.from_pem(pem)
    except Exception:  # noqa: BLE001 - py-vapid raises what cryptography raised, of many kinds
        raise VapidKeyError(f"{path}: not a PEM file of a P-256 (prime256v1) private key") from None


def application_server_key(vapid: Vapid) -> str:
    """The public key a browser subscribes with (``applicationServerKey``): base64url, no padding."""
    raw = vapid.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


class Pusher:
    def __init__(self, vapid: Vapid, subject: str, subscriptions: PushSubscriptions, private_addresses: bool) -> None:
        self.vapid = vapid
        self.subject = subject
        self.subscriptions = subscriptions
        self.private_addresses = private_addresses
        self.public_key = application_server_key(vapid)

    async def targets(self, account_id: str) -> list[Subscription]:
        return await self.subscriptions.all(account_id)

    async def push(self, account_id: str, sub: Subscription, notice) -> None:
        """Send `notice` (a msgspec Struct) to one subscription; forget it when its service says it is gone."""
        if not self.private_addresses and await private_address(sub.endpoint):
            log.warning("push of game %s not sent: the endpoint is a private address", notice.game_id)
            return
        info = {"endpoint": sub.endpoint, "keys": {"p256dh": sub.keys.p256dh, "auth": sub.keys.auth}}
        try:
            await webpush_async(
                info,
                msgspec.json.encode(notice).decode(),
                vapid_private_key=self.vapid,
                vapid_claims={"sub": self.subject},
                ttl=TTL_SECONDS,
                timeout=10,
            )
        except WebPushException as exc:
            status = exc.status_code
            if status in GONE:
                await self.subscriptions.remove(account_id, sub.endpoint)
                log.info("push subscription of an account gone (HTTP %d): forgotten", status)
            else:
                log.warning("push of game %s refused: HTTP %s", notice.game_id, status)
        except (aiohttp.ClientError, OSError, TimeoutError) as exc:
            log.warning("push of game %s not sent: %s", notice.game_id, exc)
