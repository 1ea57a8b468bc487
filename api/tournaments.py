"""Tournaments over HTTP (docs/PROTOCOL.md, "Tournaments"): a signed-in player creates one (round
robin or Swiss, single games or duplicate pairs), players enter it, its creator starts it; anyone
may look at it: its entries, rounds, pairings and game ids, results and standings. The director
(api/tournament_director.py) keeps its log and plays it out."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from aiohttp import web

from api import games as game_service
from api.app_keys import GAMES, TOURNAMENTS
from api.games import HttpError
from api.http import json, query, read_body
from api.sessions import require_account
from session import dice
from session.records import DAY_SECONDS, ClockOptions
from tournaments.standings import Placing
from tournaments.state import Tournament

MAX_PLAYERS = 64
MAX_ROUNDS = 20


class CreateTournament(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """POST /api/tournaments: ``kind`` (``round_robin`` or ``swiss``), ``duplicate`` (each pairing
    two games, sides swapped, the same dice), the battle, rule set and clock of its games,
    ``rounds`` (Swiss only), ``max_players``, ``round_seconds`` (each round's deadline after it is
    paired) and ``rated``."""

    name: Annotated[str, msgspec.Meta(min_length=1, max_length=80)]
    kind: Literal["round_robin", "swiss"] = "round_robin"
    duplicate: bool = False
    scenario: Annotated[str, msgspec.Meta(max_length=200)]
    ruleset: Annotated[str, msgspec.Meta(max_length=64)] = "classic"
    clock: ClockOptions | None = None
    rounds: Annotated[int, msgspec.Meta(ge=0, le=MAX_ROUNDS)] = 0
    max_players: Annotated[int, msgspec.Meta(ge=2, le=MAX_PLAYERS)] = 8
    round_seconds: Annotated[int, msgspec.Meta(ge=60, le=365 * DAY_SECONDS)] = 7 * DAY_SECONDS
    rated: bool = False


class EnterTournament(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """POST /api/tournaments/{id}/enter: ``dice_nonce``, the player's contribution to the dice of
    his games (8-128 of A-Z a-z 0-9 _ -; the server draws one if none is given)."""

    dice_nonce: Annotated[str, msgspec.Meta(max_length=128)] | None = None


class ResultView(msgspec.Struct, frozen=True, kw_only=True):
    winner: str | None
    reason: str
    vp: dict[str, int]


class GameLine(msgspec.Struct, frozen=True, kw_only=True):
    """A game of a pairing: its id, who has the Union and the Confederacy (names), and its result."""

    game_id: str
    union: str
    confederate: str
    result: ResultView | None


class PairingView(msgspec.Struct, frozen=True, kw_only=True):
    pair_id: str
    first: str
    second: str
    games: list[GameLine]


class RoundView(msgspec.Struct, frozen=True, kw_only=True):
    round: int
    deadline: int
    bye: str | None
    finished: bool
    pairings: list[PairingView]


class EntryView(msgspec.Struct, frozen=True, kw_only=True):
    player: str
    nonce: str


class TournamentView(msgspec.Struct, frozen=True, kw_only=True):
    """GET /api/tournaments/{id}: the terms, ``status`` (``open``, ``running``, ``finished``), the
    entries, every round with its pairings, game ids and results, the standings (final once
    ``finished``), the master seed's commitment and, once finished, the master seed itself."""

    id: str
    name: str
    kind: str
    duplicate: bool
    scenario: str
    ruleset: str
    clock: ClockOptions | None
    rounds: int
    max_players: int
    round_seconds: int
    rated: bool
    creator: str
    status: str
    seed_hash: str
    master_seed: str | None
    entries: list[EntryView]
    round_list: list[RoundView]
    standings: list[Placing]  # tournaments/standings.py, the player named


class TournamentSummary(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    kind: str
    duplicate: bool
    scenario: str
    status: str
    entries: int
    max_players: int


class TournamentList(msgspec.Struct, frozen=True, kw_only=True):
    tournaments: list[TournamentSummary]


class ListQuery(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    offset: Annotated[int, msgspec.Meta(ge=0, le=1_000_000)] = 0
    limit: Annotated[int, msgspec.Meta(ge=1, le=200)] = 50


def view(t: Tournament) -> TournamentView:
    c = t.created
    names = {e.player: e.name for e in t.entries}
    rounds = []
    for r in t.rounds:
        pairings = []
        for p in r.paired.pairings:
            lines = []
            for g in p.games:
                res = r.results.get(g.game_id)
                lines.append(
                    GameLine(
                        game_id=g.game_id,
                        union=names[g.union],
                        confederate=names[g.confederate],
                        result=None if res is None else ResultView(winner=res.winner, reason=res.reason, vp=res.vp),
                    )
                )
            pairings.append(PairingView(pair_id=p.pair_id, first=names[p.first], second=names[p.second], games=lines))
        bye = names[r.paired.bye] if r.paired.bye is not None else None
        rounds.append(RoundView(round=r.paired.round, deadline=r.paired.deadline, bye=bye, finished=r.finished, pairings=pairings))
    final = t.finished.standings if t.finished is not None else t.standings()
    return TournamentView(
        id=c.tournament_id,
        name=c.name,
        kind=c.kind,
        duplicate=c.duplicate,
        scenario=c.scenario,
        ruleset=c.ruleset,
        clock=c.clock,
        rounds=t.total_rounds() or c.rounds,
        max_players=c.max_players,
        round_seconds=c.round_seconds,
        rated=c.rated,
        creator=c.creator_name,
        status=t.status,
        seed_hash=c.seed_hash,
        master_seed=None if t.finished is None else t.finished.master_seed,
        entries=[EntryView(player=e.name, nonce=e.nonce) for e in t.entries],
        round_list=rounds,
        standings=[msgspec.structs.replace(s, player=names[s.player]) for s in final],
    )


async def create(request: web.Request) -> web.Response:
    """POST /api/tournaments: a new tournament (201, its view); its creator has not entered it."""
    account = await require_account(request, "sign in to create a tournament")
    body = await read_body(request, CreateTournament)
    ref = game_service.check_terms(request.app[GAMES], body.scenario, body.ruleset, body.clock)
    if body.kind == "swiss" and body.rounds < 1:
        raise HttpError(400, "malformed", "a Swiss tournament says its number of rounds (rounds: 1 to 20)")
    if body.kind == "round_robin" and body.rounds:
        raise HttpError(400, "malformed", "a round robin has as many rounds as its players need: give no rounds")
    terms = msgspec.structs.asdict(body) | {"scenario": ref, "creator": account.id, "creator_name": account.name}
    t = await request.app[TOURNAMENTS].create(**terms)
    return json(view(t), 201)


async def _tournament(request: web.Request) -> tuple[str, Tournament]:
    tid = request.match_info["tournament_id"]
    t = await request.app[TOURNAMENTS].load(tid)
    if t is None:
        raise HttpError(404, "not_found", f"no tournament {tid!r}")
    return tid, t


async def enter(request: web.Request) -> web.Response:
    """POST /api/tournaments/{id}/enter: the signed-in player enters (200, the view)."""
    account = await require_account(request, "sign in to enter a tournament")
    body = await read_body(request, EnterTournament)
    nonce = body.dice_nonce or dice.new_nonce()
    if not dice.valid_nonce(nonce):
        raise HttpError(400, "malformed", "a dice nonce is 8 to 128 characters of A-Z a-z 0-9 _ -")
    tid = request.match_info["tournament_id"]
    return json(view(await request.app[TOURNAMENTS].enter(tid, account.id, account.name, nonce)))


async def start(request: web.Request) -> web.Response:
    """POST /api/tournaments/{id}/start: its creator closes the entries; round 1 is paired."""
    account = await require_account(request, "sign in to start a tournament")
    tid = request.match_info["tournament_id"]
    return json(view(await request.app[TOURNAMENTS].begin(tid, account.id)))


async def show(request: web.Request) -> web.Response:
    """GET /api/tournaments/{id}: anyone may look."""
    _, t = await _tournament(request)
    return json(view(t))


async def listing(request: web.Request) -> web.Response:
    """GET /api/tournaments: the newest first."""
    q = query(request, ListQuery)
    director = request.app[TOURNAMENTS]
    found = []
    for tid in await director.ids(q.offset, q.limit):
        t = await director.load(tid)
        if t is None:
            continue
        c = t.created
        found.append(
            TournamentSummary(
                id=tid, name=c.name, kind=c.kind, duplicate=c.duplicate, scenario=c.scenario,
                status=t.status, entries=len(t.entries), max_players=c.max_players,
            )
        )
    return json(TournamentList(tournaments=found))


def setup_tournament_routes(app: web.Application) -> None:
    app.router.add_get("/api/tournaments", listing)
    app.router.add_post("/api/tournaments", create)
    app.router.add_get("/api/tournaments/{tournament_id}", show)
    app.router.add_post("/api/tournaments/{tournament_id}/enter", enter)
    app.router.add_post("/api/tournaments/{tournament_id}/start", start)
