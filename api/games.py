"""Games over HTTP: create one (the creator's seat token and an invite for the other seat), join it
with the invite, list games, inspect one. The websocket (api/ws.py) is where games are played."""

from __future__ import annotations

import time
from typing import Annotated, Literal

import msgspec

from accounts.store import Accounts
from api import seats as seat_tokens
from api.config import ServerConfig
from api.live.hub import LiveGames
from api.seats import Seats
from api.views import GameView, game_view
from eventstore.errors import Conflict
from eventstore.store import GameInfo, RedisEventStore
from rules import RULES_VERSION
from rules.core.scenario import Side, other_side
from scenarios.loader import ScenarioError
from session import clock, decide, dice
from session.games import GameCache
from session.history import load
from session.ids import new_game_id
from session.records import DAY_SECONDS, ClockOptions, DiceMode, GameCreated, SessionOptions, UndoPolicy
from session.visibility import delayed, visible_version

MAX_SPECTATOR_DELAY = 200  # events
MAX_SPECTATOR_DELAY_PHASES = 20  # phases (ten Game-Turns of Chattanooga have forty)
MAX_SILENCE_SECONDS = 365 * DAY_SECONDS  # a year


class HttpError(Exception):
    """An HTTP request refused: the status, a protocol error code and a sentence."""

    def __init__(self, status: int, code: str, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.retry_after = retry_after


class CreateOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Options of a new game. ``attack_effectiveness`` (11.31) and ``rules`` go to the rules
    engine; ``dice: "insecure"`` fixes the dice seed (``seed``, 64 hex digits, or a well-known
    one): for tests and sandboxes only, and the game's record says so."""

    undo: UndoPolicy = "consent"
    undo_dice: bool = False
    spectator_delay: Annotated[int, msgspec.Meta(ge=0, le=MAX_SPECTATOR_DELAY)] = 0
    spectator_delay_phases: Annotated[int, msgspec.Meta(ge=0, le=MAX_SPECTATOR_DELAY_PHASES)] = 0
    silence_seconds: Annotated[int, msgspec.Meta(ge=0, le=MAX_SILENCE_SECONDS)] = 7 * DAY_SECONDS
    clock: ClockOptions | None = None  # session/clock.py; None: no clock
    attack_effectiveness: bool | None = None
    rules: dict[
        Annotated[str, msgspec.Meta(max_length=64)],
        bool | Annotated[int, msgspec.Meta(ge=-1_000_000, le=1_000_000)] | str,
    ] = {}
    dice: DiceMode = "fair"
    seed: str | None = None


class CreateGame(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """POST /api/games: the scenario, the rule set, the creator's side, options, and the creator's
    dice nonce (8-128 of A-Z a-z 0-9 _ -; the server draws one if none is given)."""

    scenario: str
    ruleset: str = "classic"
    side: Side = "union"
    options: CreateOptions = CreateOptions()
    dice_nonce: str | None = None
    #: The computer opponent takes the other seat at this level (players/levels.py COMPUTER_LEVELS; api/opponents.py).
    computer: Literal["easy", "normal", "hard", "expert"] | None = None


class Created(msgspec.Struct, frozen=True, kw_only=True):
    """The new game: the creator's own seat and token, and the invite code for the other seat
    (``invite_url`` carries it in the fragment, which browsers never send to a server)."""

    game_id: str
    seat: str
    token: str
    invite: str
    invite_url: str
    version: int


class JoinGame(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    invite: str
    dice_nonce: str | None = None


class Joined(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    seat: str
    token: str
    version: int


class GameSummary(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    scenario: str
    status: str
    created: int
    version: int
    to_act: str | None
    sandbox: bool = False  # a what-if (POST /api/games/{id}/fork): never counted as a result
    #: A finished game's: the winning side ("" none), the level of victory or how it ended.
    winner: str | None = None
    result: str | None = None


class GameList(msgspec.Struct, frozen=True, kw_only=True):
    games: list[GameSummary]
    next: int | None  # the offset of the next page, None at the end


class PairDice(msgspec.Struct, frozen=True, kw_only=True):
    """A duplicate pair's dice for one of its games (tournaments/dice.py): the pair's seed, its
    dice stream (the pair's id) and its nonce string."""

    seed: bytes
    stream: str
    nonces: str


def check_terms(games: GameCache, scenario_id: str, ruleset: str, clock_options: ClockOptions | None) -> str:
    """The scenario's reference (a saved one: exactly its latest version, NAME@HASH) if a game can
    be created on these terms; HttpError naming what is wrong otherwise."""
    try:
        ref = games.pinned(scenario_id)
        scenario = games.scenario(ref)
    except (ScenarioError, ValueError):
        raise HttpError(404, "not_found", f"no scenario {scenario_id!r} (GET /api/scenarios lists them)") from None
    if clock_options is not None and (problem := clock.problem(clock_options)) is not None:
        raise HttpError(400, "malformed", problem)
    if ruleset not in scenario.rulesets:
        raise HttpError(400, "malformed", f"{scenario_id} is played with {', '.join(scenario.rulesets)}")
    return ref


async def create_game(
    store: RedisEventStore,
    seats: Seats,
    games: GameCache,
    live: LiveGames,
    config: ServerConfig,
    request: CreateGame,
    server_version: str,
    *,
    rated: bool = False,
    game_id: str | None = None,
    pair: PairDice | None = None,
) -> Created:
    """Create a game (its first events in the store, its seats' tokens); ``rated``: a rated game,
    which only the lobby starts (between two accounts). A tournament's game (api/tournaments.py)
    comes with the ``game_id`` its round recorded and, in a duplicate pair, the ``pair``'s dice."""
    options = request.options
    ref = check_terms(games, request.scenario, request.ruleset, options.clock)
    nonce = request.dice_nonce or dice.new_nonce()
    if not dice.valid_nonce(nonce):
        raise HttpError(400, "malformed", "a dice nonce is 8 to 128 characters of A-Z a-z 0-9 _ -")
    insecure_seed = None
    if options.dice == "insecure":
        if not config.allow_insecure_dice:
            raise HttpError(400, "malformed", "this server does not allow games with a fixed dice seed")
        try:
            seed = bytes.fromhex(options.seed) if options.seed else dice.INSECURE_SEED
        except ValueError:
            raise HttpError(400, "malformed", "seed must be hexadecimal") from None
        if len(seed) != dice.SEED_BYTES:
            raise HttpError(
                400, "malformed", f"seed must be {dice.SEED_BYTES} bytes ({2 * dice.SEED_BYTES} hex digits)"
            )
        insecure_seed = seed.hex()
    elif options.seed is not None:
        raise HttpError(400, "malformed", 'a seed may be fixed only with "dice": "insecure"')
    elif pair is not None:
        seed = pair.seed
    else:
        seed = dice.new_seed()
    rules_options = dict(options.rules)
    if options.attack_effectiveness is not None:
        rules_options["attack_effectiveness"] = options.attack_effectiveness
    try:
        game = games.game(ref, request.ruleset, rules_options)
    except (KeyError, ValueError, TypeError) as exc:
        raise HttpError(400, "malformed", f"bad rules options: {exc}") from None
    game_id = game_id or new_game_id()
    created = GameCreated(
        game_id=game_id,
        rules_version=RULES_VERSION,
        server_version=server_version,
        scenario=ref,
        scenario_hash=games.scenario_hash(ref),
        ruleset=request.ruleset,
        rules_options=rules_options,
        options=SessionOptions(
            undo=options.undo,
            undo_dice=options.undo_dice,
            spectator_delay=options.spectator_delay,
            spectator_delay_phases=options.spectator_delay_phases,
            silence_seconds=options.silence_seconds,
            clock=options.clock,
        ),
        dice=options.dice,
        seed_hash=dice.seed_hash(seed),
        insecure_seed=insecure_seed,
        creator=request.side,
        rated=rated,
        dice_stream=None if pair is None else pair.stream,
        dice_nonces=None if pair is None else pair.nonces,
    )
    await store.create_game(game_id, ref, status="open")
    await store.put_secret(game_id, seed)
    token, invite = seat_tokens.new_token(), seat_tokens.new_invite()
    await seats.create(game_id, request.side, token, other_side(request.side), invite)
    appended = await store.append(game_id, decide.create(created, game, nonce), 0)
    await live.index(await load(store, game_id, games))
    return Created(
        game_id=game_id,
        seat=request.side,
        token=token,
        invite=invite,
        invite_url=f"/join/{game_id}#{invite}",
        version=appended.last,
    )


async def join_game(
    store: RedisEventStore, seats: Seats, games: GameCache, live: LiveGames, game_id: str, request: JoinGame
) -> Joined:
    nonce = request.dice_nonce or dice.new_nonce()
    if not dice.valid_nonce(nonce):
        raise HttpError(400, "malformed", "a dice nonce is 8 to 128 characters of A-Z a-z 0-9 _ -")
    if await store.get_game(game_id) is None:
        raise HttpError(404, "not_found", f"no game {game_id!r}")
    seat = await seats.use_invite(game_id, request.invite)
    if seat is None:
        raise HttpError(403, "unauthorized", "this invite is not valid for this game, or it was used already")
    token = seat_tokens.new_token()
    await seats.give_token(game_id, seat, token)
    for _ in range(8):
        history = await load(store, game_id, games)
        try:
            events = decide.join(history, seat, nonce)
        except decide.ActionRefused as exc:
            raise HttpError(409, exc.code, exc.message) from None
        try:
            appended = await store.append(game_id, events, history.version)
        except Conflict:
            continue
        history = await load(store, game_id, games)
        await live.index(history)
        return Joined(game_id=game_id, seat=seat, token=token, version=appended.last)
    raise HttpError(409, "conflict", "the game changed too often; try again")


async def player_names(seats: Seats, accounts: Accounts, game_id: str) -> dict[str, str]:
    """Each seat bound to an account (api/seats.py `bind`): the player's name, by seat."""
    names = {}
    for seat, account_id in sorted((await seats.accounts(game_id)).items()):
        account = await accounts.get(account_id)
        if account is not None:
            names[seat] = account.name
    return names


async def inspect_game(store: RedisEventStore, games: GameCache, live: LiveGames, game_id: str) -> GameView:
    """The game as anyone may see it: with a spectator delay, as spectators see it."""
    info = await store.get_game(game_id)
    current = live.peek(game_id)
    if current is not None:
        history = current.history_for(None)
    else:
        history = await load(store, game_id, games)
        delay = history.session.created.options.spectator_delay if history.session.created else 0
        if delayed(history) and visible_version(history, delay) < history.version:
            history = await load(store, game_id, games, to_version=visible_version(history, delay))
    if info is None or history.version == 0:
        raise HttpError(404, "not_found", f"no game {game_id!r}")
    return game_view(history, info.created)


async def list_games(store: RedisEventStore, status: str | None, offset: int, limit: int) -> GameList:
    """A page of games, newest first. ``waiting`` games are active games whose seat to act has been
    silent past the game's limit, or has run out of time on the game's clock; they are listed as
    waiting under ``active`` too."""
    wanted = "active" if status == "waiting" else status
    found: list[GameSummary] = []
    cursor: int | None = offset
    while cursor is not None and len(found) < limit:
        page, cursor = await store.list_games(cursor, limit - len(found), wanted)
        found += [g for g in await summaries(store, page) if status != "waiting" or g.status == "waiting"]
    return GameList(games=found, next=cursor)


async def summaries(store: RedisEventStore, page: list[GameInfo], delayed: bool = True) -> list[GameSummary]:
    """What the list shows of each game of `page`: its version and seat to act as spectators may
    see them (`delayed`; else as they are, for its players), and ``waiting`` for an active game whose
    seat to act is silent or out of time."""
    now = time.time_ns() // 1_000_000
    async with store.redis.pipeline(transaction=False) as pipe:
        for info in page:
            keys = store.keys(info.game_id)
            pipe.hmget(
                keys.info,
                ["to_act", "waiting_since", "silence", "sandbox", "shown_version", "shown_to_act", "flag_at", "winner", "result"],
            )
            pipe.hget(keys.meta, "version")
        extra = await pipe.execute()
    found = []
    for info, listed, head in zip(page, extra[::2], extra[1::2], strict=True):
        silent, since, silence, sandbox, shown_version, shown_to_act, flag_at, winner, result = listed
        version, to_act = head, silent  # the log's own version, always current
        if delayed and shown_version is not None:  # a spectator delay: what spectators may see (visibility.listing)
            version, to_act = shown_version, shown_to_act
        shown = info.status
        if shown == "active" and silent and since and silence is not None:
            if now - int(since) >= int(silence) * 1000:
                shown = "waiting"
        if shown == "active" and silent and flag_at and 0 < int(flag_at) <= now:  # out of time
            shown = "waiting"
        found.append(
            GameSummary(
                game_id=info.game_id,
                scenario=info.scenario,
                status=shown,
                created=info.created,
                version=int(version or 0),
                to_act=to_act.decode() if to_act else None,
                sandbox=bool(sandbox),
                winner=None if winner is None else winner.decode(),
                result=None if result is None else result.decode(),
            )
        )
    return found
