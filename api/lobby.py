"""The lobby: proposals of a game between accounts, and their acceptance (docs/PROTOCOL.md, "Lobby").

A **seek** is open: anyone signed in may accept it. A **challenge** names its opponent: only he may
accept or decline it. Either says the battle, the rule set, the proposer's side (or ``random``, drawn
when accepted), the clock, and whether the game is rated. Accepting starts the game at once: the
proposer's seat and the acceptor's are bound to their accounts (each takes his seat by his session,
api/ws.py), and the game appears in both players' GET /api/me/games. Of two players accepting one
proposal at the same moment exactly one gets the game (the proposal is taken out first, HDEL). A
challenge to the computer (``Computer-<level>``, api/house_computers.py) is accepted at once.
Between two players of whom one blocks the other (api/moderation.py) there is no challenge and no
acceptance, and neither sees the other's seeks.

Proposals are kept in one hash, ``lobby:proposals`` (id -> JSON), a few thousand at most; a
player has at most `MAX_OPEN` open at once, and each lapses after `LAPSE_SECONDS`.
"""

from __future__ import annotations

import secrets
import time
from typing import Annotated, Literal

import msgspec
from aiohttp import web

from api import games as game_service
from api import house_computers
from api.app_keys import ACCOUNTS, CONFIG, GAMES, LIVE, OPPONENTS, SEATS, SERVER_VERSION, STORE
from api.games import HttpError
from api.http import json, own_url, read_body
from api.moderation import block_between
from api.sessions import account_of, require_account
from rules.core.scenario import other_side
from session.records import ClockOptions

MAX_OPEN = 20  # proposals one player may have open
LAPSE_SECONDS = 14 * 24 * 3600  # an unanswered proposal lapses after two weeks


class Propose(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """POST /api/seeks and POST /api/challenges: the battle and its terms; ``opponent``, the name of
    the player challenged (challenges only); ``dice_nonce``, the proposer's contribution to the dice
    (kept secret until the game starts)."""

    scenario: Annotated[str, msgspec.Meta(max_length=200)]
    ruleset: Annotated[str, msgspec.Meta(max_length=64)] = "classic"
    side: Literal["union", "confederate", "random"] = "random"
    clock: ClockOptions | None = None
    rated: bool = True
    opponent: Annotated[str, msgspec.Meta(max_length=64)] | None = None
    dice_nonce: Annotated[str, msgspec.Meta(max_length=128)] | None = None


class Proposal(msgspec.Struct, frozen=True, kw_only=True):
    """A seek or a challenge, as the lobby shows it: ``id``, ``kind`` (``seek`` or ``challenge``),
    ``by`` (the proposer's name), ``opponent`` (a challenge's), the terms, and ``created`` (ms)."""

    id: str
    kind: Literal["seek", "challenge"]
    by: str
    opponent: str | None
    scenario: str
    ruleset: str
    side: str
    clock: ClockOptions | None
    rated: bool
    created: int


class Stored(msgspec.Struct, frozen=True, kw_only=True):
    """What the store keeps: the proposal, its parties' ids, and the proposer's dice nonce."""

    proposal: Proposal
    by_id: str
    opponent_id: str | None
    dice_nonce: str | None


class Lobby(msgspec.Struct, frozen=True, kw_only=True):
    """GET /api/lobby: the open seeks, and the signed-in player's challenges (received and sent)."""

    seeks: list[Proposal]
    challenges: list[Proposal]


class Started(msgspec.Struct, frozen=True, kw_only=True):
    """An accepted proposal's game: the acceptor's seat and its token. The proposer was not there to
    receive a token: he takes his seat by his session (GET /api/me/games lists the game). A challenge
    to the computer answers with the proposer's own seat, the computer having accepted at once."""

    game_id: str
    seat: str
    token: str
    version: int


def _key(request: web.Request) -> str:
    return f"{request.app[CONFIG].prefix}lobby:proposals"


async def _all(request: web.Request) -> list[Stored]:
    """Every live proposal; lapsed ones are taken out on the way."""
    key = _key(request)
    now = time.time_ns() // 1_000_000
    found, lapsed = [], []
    for field, raw in (await request.app[STORE].redis.hgetall(key)).items():
        stored = msgspec.json.decode(raw, type=Stored)
        (lapsed if now - stored.proposal.created > LAPSE_SECONDS * 1000 else found).append((field, stored))
    if lapsed:
        await request.app[STORE].redis.hdel(key, *[f for f, _ in lapsed])
    return sorted((s for _, s in found), key=lambda s: -s.proposal.created)


async def _propose(request: web.Request, kind: str) -> web.Response:
    account = await require_account(request, "sign in to use the lobby")
    body = await read_body(request, Propose)
    opponent = None
    if kind == "challenge":
        if body.opponent is None:
            raise HttpError(400, "malformed", "a challenge names its opponent")
        opponent, _ = await request.app[ACCOUNTS].find(body.opponent)
        if opponent is None or opponent.disabled:
            raise HttpError(404, "not_found", f"no player {body.opponent!r}")
        if opponent.id == account.id:
            raise HttpError(400, "malformed", "a player cannot challenge himself")
        refused = await block_between(request.app[ACCOUNTS], account.id, opponent.id)
        if refused is not None:
            raise HttpError(403, "forbidden", f"no challenge to {opponent.name}: {refused}")
    elif body.opponent is not None:
        raise HttpError(400, "malformed", "a seek is open to anyone: it names no opponent (POST /api/challenges does)")
    game_service.check_terms(request.app[GAMES], body.scenario, body.ruleset, body.clock)
    mine = [s for s in await _all(request) if s.by_id == account.id]
    if len(mine) >= MAX_OPEN:
        raise HttpError(429, "rate_limited", f"at most {MAX_OPEN} open proposals a player; withdraw one first")
    proposal = Proposal(
        id=secrets.token_urlsafe(9),
        kind=kind,
        by=account.name,
        opponent=None if opponent is None else opponent.name,
        scenario=body.scenario,
        ruleset=body.ruleset,
        side=body.side,
        clock=body.clock,
        rated=body.rated,
        created=time.time_ns() // 1_000_000,
    )
    stored = Stored(
        proposal=proposal,
        by_id=account.id,
        opponent_id=None if opponent is None else opponent.id,
        dice_nonce=body.dice_nonce,
    )
    if opponent is not None and (level := house_computers.level_of(opponent)) is not None:
        return await _computer_accepts(request, stored, level)
    await request.app[STORE].redis.hset(_key(request), proposal.id, msgspec.json.encode(stored))
    return json(proposal, 201)


async def _computer_accepts(request: web.Request, stored: Stored, level: str) -> web.Response:
    """A challenge to the computer (api/house_computers.py) is accepted at once: the game starts,
    the computer's process joins its seat, and the proposer gets his own seat (201, `Started`)."""
    app = request.app
    assert stored.opponent_id is not None
    created = await _start(app, stored, stored.opponent_id)
    await app[OPPONENTS].start(own_url(request), created.game_id, created.invite, level)
    return json(Started(game_id=created.game_id, seat=created.seat, token=created.token, version=created.version), 201)


async def post_seek(request: web.Request) -> web.Response:
    """POST /api/seeks: an open proposal (201, the `Proposal`)."""
    return await _propose(request, "seek")


async def post_challenge(request: web.Request) -> web.Response:
    """POST /api/challenges: a proposal to one named player (201)."""
    return await _propose(request, "challenge")


async def lobby(request: web.Request) -> web.Response:
    """GET /api/lobby: the open seeks (anyone may look), and the signed-in player's challenges."""
    account = await account_of(request)
    every = await _all(request)
    seeks = [s for s in every if s.proposal.kind == "seek"]
    if account is not None:  # not the seeks of a player who blocks him, or whom he blocks
        hidden = await _blocked_either_way(request, account.id, {s.by_id for s in seeks})
        seeks = [s for s in seeks if s.by_id not in hidden]
    seeks = [s.proposal for s in seeks]
    challenges = []
    if account is not None:
        challenges = [
            s.proposal for s in every if s.proposal.kind == "challenge" and account.id in (s.by_id, s.opponent_id)
        ]
    return json(Lobby(seeks=seeks, challenges=challenges))


async def _blocked_either_way(request: web.Request, account_id: str, others: set[str]) -> set[str]:
    """Those of `others` who block the account or whom it blocks (one round trip: a pipeline)."""
    accounts = request.app[ACCOUNTS]
    mine = await accounts.blocked(account_id)
    ask = sorted(others - mine - {account_id})
    if not ask:
        return mine & others
    pipe = accounts.redis.pipeline(transaction=False)
    for other in ask:
        pipe.sismember(accounts.key(other, "blocks"), account_id)
    answers = await pipe.execute()
    return (mine & others) | {other for other, blocks in zip(ask, answers, strict=True) if blocks}


async def _take(request: web.Request):
    """The proposal named in the path, and a function that takes it out of the lobby (it answers 1
    to exactly one caller, however many race)."""
    key, pid = _key(request), request.match_info["proposal_id"]
    redis = request.app[STORE].redis
    raw = await redis.hget(key, pid)
    if raw is None:
        raise HttpError(404, "not_found", f"no open proposal {pid!r} (accepted, declined, withdrawn or lapsed)")
    stored = msgspec.json.decode(raw, type=Stored)
    return stored, (lambda: redis.hdel(key, pid))


async def _start(app: web.Application, stored: Stored, acceptor_id: str) -> game_service.Created:
    """The game of an accepted proposal: created with the proposer's seat (his side, or one drawn),
    both seats bound to their accounts, the game in both players' lists. The acceptor's seat waits
    for him to join with the invite."""
    p = stored.proposal
    side = secrets.choice(("union", "confederate")) if p.side == "random" else p.side
    return await start_between(
        app,
        scenario=p.scenario,
        ruleset=p.ruleset,
        clock=p.clock,
        rated=p.rated,
        side=side,
        proposer_id=stored.by_id,
        acceptor_id=acceptor_id,
        dice_nonce=stored.dice_nonce,
    )


async def start_between(
    app: web.Application,
    *,
    scenario: str,
    ruleset: str,
    clock: ClockOptions | None,
    rated: bool,
    side: str,
    proposer_id: str,
    acceptor_id: str,
    dice_nonce: str | None = None,
    game_id: str | None = None,
    pair: game_service.PairDice | None = None,
) -> game_service.Created:
    """A game between two accounts, the one way the server makes one: created with the proposer's
    seat on `side`, both seats bound to their accounts, the game in both players' lists; the other
    seat's invite is in the answer. A tournament's round (api/tournaments.py) starts its games
    here too, with the ids it recorded and a duplicate pair's dice."""
    created = await game_service.create_game(
        app[STORE],
        app[SEATS],
        app[GAMES],
        app[LIVE],
        app[CONFIG],
        game_service.CreateGame(
            scenario=scenario,
            ruleset=ruleset,
            side=side,
            options=game_service.CreateOptions(clock=clock),
            dice_nonce=dice_nonce,
        ),
        app[SERVER_VERSION],
        rated=rated,
        game_id=game_id,
        pair=pair,
    )
    for seat, account_id in ((side, proposer_id), (other_side(side), acceptor_id)):
        await app[SEATS].bind(created.game_id, seat, account_id)
        await app[ACCOUNTS].add_game(account_id, created.game_id)
    return created


async def accept(request: web.Request) -> web.Response:
    """POST /api/lobby/{proposal_id}/accept: the game starts; the acceptor's seat and token."""
    account = await require_account(request, "sign in to use the lobby")
    stored, take = await _take(request)
    if stored.by_id == account.id:
        raise HttpError(400, "malformed", "a player cannot accept his own proposal (DELETE withdraws it)")
    if stored.opponent_id is not None and stored.opponent_id != account.id:
        raise HttpError(403, "unauthorized", "this challenge is for another player")
    refused = await block_between(request.app[ACCOUNTS], account.id, stored.by_id)
    if refused is not None:
        raise HttpError(403, "forbidden", f"no game with {stored.proposal.by}: {refused}")
    if not await take():
        raise HttpError(404, "not_found", "another player accepted this proposal first")
    created = await _start(request.app, stored, account.id)
    joined = await game_service.join_game(
        request.app[STORE],
        request.app[SEATS],
        request.app[GAMES],
        request.app[LIVE],
        created.game_id,
        game_service.JoinGame(invite=created.invite),
    )
    return json(Started(game_id=joined.game_id, seat=joined.seat, token=joined.token, version=joined.version), 201)


async def decline(request: web.Request) -> web.Response:
    """POST /api/lobby/{proposal_id}/decline: the challenged player says no (204)."""
    account = await require_account(request, "sign in to use the lobby")
    stored, take = await _take(request)
    if stored.opponent_id != account.id:
        raise HttpError(403, "unauthorized", "only the challenged player may decline (the proposer withdraws)")
    await take()
    return web.Response(status=204)


async def withdraw(request: web.Request) -> web.Response:
    """DELETE /api/lobby/{proposal_id}: the proposer takes it back (204)."""
    account = await require_account(request, "sign in to use the lobby")
    stored, take = await _take(request)
    if stored.by_id != account.id:
        raise HttpError(403, "unauthorized", "only its proposer may withdraw a proposal")
    await take()
    return web.Response(status=204)


def setup_lobby_routes(app: web.Application) -> None:
    app.router.add_get("/api/lobby", lobby)
    app.router.add_post("/api/seeks", post_seek)
    app.router.add_post("/api/challenges", post_challenge)
    app.router.add_post("/api/lobby/{proposal_id}/accept", accept)
    app.router.add_post("/api/lobby/{proposal_id}/decline", decline)
    app.router.add_delete("/api/lobby/{proposal_id}", withdraw)
