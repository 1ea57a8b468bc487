"""Accounts over HTTP (api/accounts.py, accounts/): register, log in and out, change password; and
their security: the password never in the store or the logs in clear, unknown names checked at the
same cost as known ones, CSRF and other origins refused, brute force limited per account and per
address, no session fixation, a password change ending every other session."""

from __future__ import annotations

import logging

import aiohttp
import pytest
from apiharness import create

from accounts.names import NameRefused, check_name, skeleton
from api.accounts import CSRF_HEADER
from api.app_keys import PASSWORDS
from api.sessions import COOKIE

PASSWORD = "correct horse battery"


def browser(client) -> aiohttp.ClientSession:
    """Another browser on the same server: a cookie jar of its own."""
    return aiohttp.ClientSession(base_url=client.make_url(""), cookie_jar=aiohttp.CookieJar(unsafe=True))


async def register(session, name: str, password: str = PASSWORD) -> dict:
    response = await session.post("/api/accounts", json={"name": name, "password": password})
    assert response.status == 201, await response.text()
    return await response.json()


async def log_in(session, name: str, password: str = PASSWORD):
    return await session.post("/api/session", json={"name": name, "password": password})


def jar(session) -> aiohttp.CookieJar:
    return session.session.cookie_jar if hasattr(session, "session") else session.cookie_jar


def session_cookie(session) -> str | None:
    for cookie in jar(session):
        if cookie.key == COOKIE:
            return cookie.value
    return None


async def test_a_new_account_is_signed_in_by_an_httponly_lax_cookie(client):
    response = await client.post("/api/accounts", json={"name": "Stonewall", "password": PASSWORD})
    assert response.status == 201, await response.text()
    body = await response.json()
    assert body["name"] == "Stonewall" and body["kind"] == "player" and len(body["csrf"]) >= 24
    header = response.headers["Set-Cookie"]
    assert header.startswith(f"{COOKIE}=") and "HttpOnly" in header and "SameSite=Lax" in header
    assert "Secure" not in header  # plain HTTP here; behind TLS it is Secure (next test)
    me = await client.get("/api/me")
    assert me.status == 200 and (await me.json()) == body
    assert (await (await client.get("/api/session")).json()) == {"account": body}
    async with browser(client) as anonymous:
        state = await anonymous.get("/api/session")
        assert state.status == 200 and (await state.json()) == {"account": None}


async def test_the_cookie_is_secure_behind_a_tls_proxy(client):
    response = await client.post(
        "/api/accounts", json={"name": "Longstreet", "password": PASSWORD}, headers={"X-Forwarded-Proto": "https"}
    )
    assert response.status == 201 and "Secure" in response.headers["Set-Cookie"]


@pytest.mark.parametrize("taken", ["stonewall", "STONEWALL", "St0newa1l", "Stone_Wall", "Stonevvall", "5tonewall"])
async def test_a_name_that_is_or_looks_like_anothers_is_refused(client, taken):
    await register(client, "Stonewall")
    async with browser(client) as other:
        response = await other.post("/api/accounts", json={"name": taken, "password": PASSWORD})
        assert response.status == 409
        assert (await response.json())["error"]["code"] == "name_taken"


@pytest.mark.parametrize(
    ("name", "password", "says"),
    [
        ("ab", PASSWORD, "3-20 characters"),
        ("a" * 21, PASSWORD, "3-20 characters"),
        ("Lee Robert", PASSWORD, "3-20 characters"),
        ("Ĺee", PASSWORD, "ASCII"),
        ("_lee", PASSWORD, "starting with a letter or digit"),
        ("Lee", "short", "8-256 characters"),
        ("Lee", "x" * 257, "at most 256"),
    ],
)
async def test_a_bad_name_or_password_is_refused_saying_what_is_wrong(client, name, password, says):
    response = await client.post("/api/accounts", json={"name": name, "password": password})
    assert response.status == 400
    error = (await response.json())["error"]
    assert error["code"] == "malformed" and says in error["message"], error


def test_skeletons_join_lookalikes_and_keep_different_names_apart():
    assert skeleton("Burnside") == skeleton("Bumside") == skeleton("BURN_SIDE")
    assert skeleton("Hooker") != skeleton("Hood")
    assert skeleton("Meade") != skeleton("Mead")
    with pytest.raises(NameRefused):
        check_name("ab")


async def test_log_in_opens_a_new_session_and_log_out_ends_it(client):
    await register(client, "Hancock")
    async with browser(client) as second:
        response = await log_in(second, "hancock")  # any case
        assert response.status == 200 and (await response.json())["name"] == "Hancock"
        cookie = session_cookie(second)
        assert cookie is not None and cookie != session_cookie(client)
        me = await second.get("/api/me")
        assert me.status == 200
        assert (await second.delete("/api/session", headers={CSRF_HEADER: (await me.json())["csrf"]})).status == 204
        assert (await second.get("/api/me")).status == 401
        # the ended session's cookie, sent again by hand, signs nobody in
        assert (await second.get("/api/me", cookies={COOKIE: cookie})).status == 401
    assert (await client.get("/api/me")).status == 200  # the first browser's session lives on


async def test_a_wrong_password_and_an_unknown_name_get_the_same_answer(client):
    await register(client, "Sedgwick")
    async with browser(client) as other:
        wrong = await log_in(other, "Sedgwick", "not the password")
        unknown = await log_in(other, "Nobody", "not the password")
        assert wrong.status == unknown.status == 401
        assert (await wrong.json()) == (await unknown.json())
        assert session_cookie(other) is None


async def test_an_unknown_name_costs_a_password_check_as_a_known_one_does(client):
    """Timing: the server verifies an Argon2id hash (a dummy one) for an unknown name too, so the
    answer's time does not tell whether the name exists."""
    await register(client, "Reynolds")
    passwords = client.app[PASSWORDS]
    checked = []

    class Counting:  # the real hasher, each verification noted
        def __init__(self, hasher):
            self.hasher = hasher

        def verify(self, stored, password):
            checked.append(stored.split("$")[1])
            return self.hasher.verify(stored, password)

        def __getattr__(self, name):
            return getattr(self.hasher, name)

    passwords._hasher = Counting(passwords._hasher)
    async with browser(client) as other:
        await log_in(other, "Reynolds", "wrong password 1")
        await log_in(other, "Unknown1", "wrong password 1")
    assert checked == ["argon2id", "argon2id"]


async def test_csrf_a_signed_in_change_needs_the_sessions_token(client):
    me = await register(client, "Buford")
    refused = await client.post("/api/games", json={"scenario": "chattanooga"})
    assert refused.status == 403
    error = (await refused.json())["error"]
    assert error["code"] == "forbidden" and CSRF_HEADER in error["message"]
    wrong = await client.post("/api/games", json={"scenario": "chattanooga"}, headers={CSRF_HEADER: "x" * 32})
    assert wrong.status == 403
    right = await client.post("/api/games", json={"scenario": "chattanooga"}, headers={CSRF_HEADER: me["csrf"]})
    assert right.status == 201, await right.text()


async def test_a_change_from_another_origin_is_refused(client):
    me = await register(client, "Gibbon")
    headers = {CSRF_HEADER: me["csrf"], "Origin": "https://evil.example"}
    response = await client.post("/api/games", json={"scenario": "chattanooga"}, headers=headers)
    assert response.status == 403 and (await response.json())["error"]["code"] == "forbidden"
    async with browser(client) as other:  # logging in from another site's form: refused too
        planted = await other.post(
            "/api/session", json={"name": "Gibbon", "password": PASSWORD}, headers={"Origin": "https://evil.example"}
        )
        assert planted.status == 403 and session_cookie(other) is None


async def test_playing_without_an_account_by_invite_link_still_works(client):
    game = await create(client)  # no cookie: no CSRF token needed
    assert game["invite"]


async def test_brute_force_is_limited_per_account(client):
    await register(client, "Custer")
    async with browser(client) as attacker:
        answers = [(await log_in(attacker, "Custer", f"guess number {i}")).status for i in range(5)]
        assert answers == [401] * 5
        limited = await log_in(attacker, "Custer")  # even the right password, now
        assert limited.status == 429
        error = (await limited.json())["error"]
        assert error["code"] == "rate_limited" and 0 < error["retry_after"] <= 900
        assert int(limited.headers["Retry-After"]) == pytest.approx(error["retry_after"], abs=1)
        assert session_cookie(attacker) is None


async def test_brute_force_is_limited_per_address_across_names(client):
    async with browser(client) as attacker:
        answers = [(await log_in(attacker, f"Name{i:03}", "guess password")).status for i in range(20)]
        assert answers == [401] * 20
        assert (await log_in(attacker, "Name999", "guess password")).status == 429


async def test_a_successful_log_in_clears_the_accounts_count(client):
    await register(client, "Warren")
    async with browser(client) as other:
        for i in range(4):
            assert (await log_in(other, "Warren", f"typo {i} password")).status == 401
        assert (await log_in(other, "Warren")).status == 200
        for i in range(4):
            assert (await log_in(other, "Warren", f"typo {i} password")).status == 401
        assert (await log_in(other, "Warren")).status == 200


async def test_no_session_fixation_a_planted_cookie_is_never_adopted(client):
    """An attacker signs in himself and plants his cookie in the victim's browser; the victim's
    log-in must give a new session, and the planted one must end."""
    await register(client, "Mosby")  # the attacker, in `client`
    planted = session_cookie(client)
    async with browser(client) as elsewhere:
        await register(elsewhere, "Victim")
    async with browser(client) as victim:
        jar(victim).update_cookies({COOKIE: planted})
        assert (await victim.get("/api/me")).status == 200  # planted: the attacker's session
        response = await log_in(victim, "Victim")
        assert response.status == 200 and (await response.json())["name"] == "Victim"
        given = response.cookies[COOKIE].value
        assert given != planted and given.split(".")[0] != planted.split(".")[0]
    assert (await client.get("/api/me")).status == 401  # the planted session was ended


async def test_a_password_change_ends_every_other_session(client):
    me = await register(client, "Sickles")
    async with browser(client) as laptop:
        assert (await log_in(laptop, "Sickles")).status == 200
        wrong = await client.post(
            "/api/me/password", json={"password": "not it at all", "new_password": "a new secret"}, headers={CSRF_HEADER: me["csrf"]}
        )
        assert wrong.status == 401
        changed = await client.post(
            "/api/me/password", json={"password": PASSWORD, "new_password": "a new secret"}, headers={CSRF_HEADER: me["csrf"]}
        )
        assert changed.status == 200, await changed.text()
        assert (await laptop.get("/api/me")).status == 401
        assert (await client.get("/api/me")).status == 200
        assert (await log_in(laptop, "Sickles")).status == 401
        assert (await log_in(laptop, "Sickles", "a new secret")).status == 200


async def test_the_password_is_never_in_the_store_or_the_logs_in_clear(client, redis_client, key_prefix, caplog):
    caplog.set_level(logging.DEBUG)
    secret = "Rebel yell at dawn 1863"
    me = await register(client, "Jackson", secret)
    await client.delete("/api/session", headers={CSRF_HEADER: me["csrf"]})
    assert (await log_in(client, "Jackson", secret)).status == 200
    assert (await log_in(client, "Jackson", secret + "x")).status == 401
    stored = b""
    async for key in redis_client.scan_iter(match=f"{key_prefix}*"):
        kind = (await redis_client.type(key)).decode()
        if kind == "hash":
            for field, value in (await redis_client.hgetall(key)).items():
                stored += field + b"=" + value + b"\n"
        elif kind == "string":
            stored += await redis_client.get(key) + b"\n"
    assert b"$argon2id$" in stored
    assert secret.encode() not in stored and b"Rebel yell" not in stored
    assert "Rebel yell" not in caplog.text
    assert any(getattr(r, "account", None) for r in caplog.records)  # the log-ins were logged, by id
