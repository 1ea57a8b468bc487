"""The API tests' server: the real application on the session's private Redis (its own key prefix
per test), served on a real socket by aiohttp's test server."""

from __future__ import annotations

import dataclasses
import email
import email.policy
import socket

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from aiosmtpd.controller import Controller
from apiharness import GAMES

from accounts.passwords import Cost
from api.app import make_app
from api.config import ServerConfig

#: Argon2id at its least cost: the tests hash many passwords, and the cost is not what they check.
LIGHT = Cost(time_cost=1, memory_kib=1024, parallelism=1)


@pytest.fixture
def config(redis_url, key_prefix) -> ServerConfig:
    return ServerConfig(redis_url=redis_url, prefix=key_prefix, tail_block_ms=200, rate_per_second=10_000, rate_burst=10_000, password_cost=LIGHT)


@pytest.fixture
async def client(config):
    async with TestClient(TestServer(make_app(config, games=GAMES))) as client:
        yield client


@pytest.fixture
async def make_client(config):
    """Start another server on the same store with changed settings: `await make_client(rate_burst=3)`."""
    started = []

    async def make(**changes) -> TestClient:
        c = TestClient(TestServer(make_app(dataclasses.replace(config, **changes), games=GAMES)))
        await c.start_server()
        started.append(c)
        return c

    yield make
    for c in started:
        await c.close()


# -- the local receivers of notifications (tests/api/test_notifications.py, test_reminders.py) --
class Mailbox:
    """The local SMTP server's handler: every message received."""

    def __init__(self) -> None:
        self.messages: list[tuple[list[str], str]] = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's name
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        self.messages.append((envelope.rcpt_tos, f"Subject: {message['Subject']}\n{message.get_content()}"))
        return "250 OK"


@pytest.fixture
def mailbox():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    box = Mailbox()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    box.url = f"smtp://127.0.0.1:{port}"
    yield box
    controller.stop()


@pytest.fixture
async def receiver():
    """A webhook receiver: every POST's body and headers; `fail_first` answers 503 that many times."""
    got = []
    state = {"fail_first": 0}

    async def hook(request: web.Request) -> web.Response:
        got.append((await request.read(), dict(request.headers)))
        if state["fail_first"] > 0:
            state["fail_first"] -= 1
            return web.Response(status=503)
        return web.Response(status=204)

    app = web.Application()
    app.router.add_post("/hook", hook)
    server = TestServer(app)
    await server.start_server()
    server.got, server.state = got, state
    server.hook_url = str(server.make_url("/hook"))
    yield server
    await server.close()
