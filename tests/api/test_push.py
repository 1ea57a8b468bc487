"""Web Push with VAPID (api/push.py) against a local push service started here (an aiohttp server
on 127.0.0.1): a subscribed player's device receives the notice as a push message whose VAPID JWT
verifies with the server's public key and whose aes128gcm body, decrypted with the subscription's
private key, says what happened and holds no token; a 410 makes the server forget the subscription."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import time

import http_ece
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer
from apiharness import PATIENCE
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from test_notifications import correspondence_game, settled, union_plays_until_confederate_must_act

from api.accounts import CSRF_HEADER
from api.app_keys import REMINDERS
from api.reminders import HOUR_MS
from session import clock

SUBJECT = "mailto:ops@example.org"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def public_point(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


@pytest.fixture
def vapid_key(tmp_path):
    """The server's VAPID key pair: the private key in a PEM file (as `vapid --gen` writes it)."""
    key = ec.generate_private_key(ec.SECP256R1())
    path = tmp_path / "vapid.pem"
    path.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return key, str(path)


@pytest.fixture
async def push_service():
    """A push service: every POST's body and headers; answers `status` (201 unless changed)."""
    got = []
    state = {"status": 201}

    async def receive(request: web.Request) -> web.Response:
        got.append((await request.read(), request.headers.copy()))  # a case-blind copy
        return web.Response(status=state["status"])

    app = web.Application()
    app.router.add_post("/push/{device}", receive)
    server = TestServer(app, host="127.0.0.1")
    await server.start_server()
    server.got, server.state = got, state
    yield server
    await server.close()


class Device:
    """A browser's push subscription: its own P-256 key pair and auth secret."""

    def __init__(self, service, name: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.endpoint = str(service.make_url(f"/push/{name}"))

    def subscription(self) -> dict:
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64url(public_point(self.key)), "auth": b64url(self.auth)},
        }

    def decrypt(self, body: bytes) -> dict:
        return json.loads(http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"))


def verified_claims(authorization: str, server_key: ec.EllipticCurvePrivateKey) -> dict:
    """The VAPID header's JWT claims, after checking its ES256 signature with the server's public key."""
    scheme, _, params = authorization.partition(" ")
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert scheme == "vapid" and unb64url(fields["k"]) == public_point(server_key)
    head, claims, signature = fields["t"].split(".")
    assert json.loads(unb64url(head)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64url(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    server_key.public_key().verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    return json.loads(unb64url(claims))


async def csrf(browser) -> dict:
    return {CSRF_HEADER: (await (await browser.get("/api/me")).json())["csrf"]}


async def test_a_subscribed_device_gets_the_move_as_an_encrypted_signed_push(make_client, vapid_key, push_service):
    server_key, path = vapid_key
    server = await make_client(vapid_private_key=path, vapid_subject=SUBJECT, webhook_private_addresses=True)
    grant_browser, lee_browser, game_id, lee_token, _ = await correspondence_game(server, {})
    device = Device(push_service, "lee-phone")
    async with grant_browser, lee_browser:
        key = await (await lee_browser.get("/api/push-key")).json()
        assert unb64url(key["public_key"]) == public_point(server_key)
        headers = await csrf(lee_browser)
        kept = await lee_browser.post("/api/me/push", json=device.subscription(), headers=headers)
        assert kept.status == 200 and (await kept.json()) == {"endpoints": [device.endpoint]}
        union = await union_plays_until_confederate_must_act(grant_browser, game_id)
        await settled(server)
        assert len(push_service.got) == 1
        body, got = push_service.got[0]
        assert got["Content-Encoding"] == "aes128gcm" and int(got["TTL"]) > 0
        claims = verified_claims(got["Authorization"], server_key)
        origin = str(push_service.make_url("")).rstrip("/")
        assert claims["aud"] == origin and claims["sub"] == SUBJECT and claims["exp"] > time.time()
        notice = device.decrypt(body)
        assert notice["kind"] == "your_move" and notice["game_id"] == game_id and notice["seat"] == "confederate"
        assert "your move (Confederate), Game-Turn 1" in notice["text"] and notice["text"].startswith("Union: ")
        assert lee_token not in json.dumps(notice) and lee_token.encode() not in body

        # The push service says the subscription is gone: the server forgets it.
        push_service.state["status"] = 410
        reminders = server.app[REMINDERS]
        await asyncio.wait_for(reminders.idle(), PATIENCE)
        falls = clock.falls_at(union.history.session, "confederate")
        assert await reminders.tick(falls - 23 * HOUR_MS) == 1  # the reminder goes by push too
        await settled(server)
        assert len(push_service.got) == 2
        assert device.decrypt(push_service.got[1][0])["kind"] == "reminder"
        assert (await (await lee_browser.get("/api/me/push")).json()) == {"endpoints": []}


async def test_subscriptions_are_checked_and_removed_by_their_owner(make_client, vapid_key, push_service):
    _, path = vapid_key
    server = await make_client(vapid_private_key=path, vapid_subject=SUBJECT)
    grant_browser, lee_browser, _, _, _ = await correspondence_game(server, {})
    device = Device(push_service, "lee-laptop")
    async with grant_browser, lee_browser:
        headers = await csrf(lee_browser)
        for keys, field in (({"p256dh": "abc", "auth": b64url(device.auth)}, "keys.p256dh"),
                            ({"p256dh": b64url(public_point(device.key)), "auth": "AAAA"}, "keys.auth")):  # fmt: skip
            bad = await lee_browser.post("/api/me/push", json={"endpoint": device.endpoint, "keys": keys}, headers=headers)
            error = (await bad.json())["error"]
            assert bad.status == 400 and error["code"] == "malformed" and error["message"].startswith(field), error
        no_csrf = await lee_browser.post("/api/me/push", json=device.subscription())
        assert no_csrf.status == 403
        assert (await lee_browser.post("/api/me/push", json=device.subscription(), headers=headers)).status == 200
        others = await grant_browser.delete(
            "/api/me/push", json={"endpoint": device.endpoint}, headers=await csrf(grant_browser)
        )
        assert others.status == 404  # not his
        gone = await lee_browser.delete("/api/me/push", json={"endpoint": device.endpoint}, headers=headers)
        assert gone.status == 204
        assert (await (await lee_browser.get("/api/me/push")).json()) == {"endpoints": []}


async def test_a_server_without_a_vapid_key_offers_no_push(client):
    response = await client.get("/api/push-key")
    assert response.status == 404 and (await response.json())["error"]["code"] == "not_found"
