"""The tournament director: keeps each tournament's log (tournaments/records.py) in the event store,
starts each round's games, records their results and pairs the next round (docs/PROTOCOL.md,
"Tournaments").

A tournament's log is an event stream like a game's, under its own hash tag ``{t:<id>}``
(`RedisEventStore(namespace="t")`): ``{t:<id>}:log`` and ``:meta``, and ``:secret``, the master dice
seed (tournaments/dice.py), revealed only in the last event. Beside it: ``tournaments``, a sorted
set of the tournaments by creation time, and ``tournament_games``, a hash from each of their games
to its tournament.

Every step is an append at the version the director folded (`due` in tournaments/state.py says what
is due): of two servers, or of a server and its restart, doing the same step one appends and the
other gets a conflict, folds again and finds nothing left to do. So a round is paired once, and its
game ids are in its ``round_paired`` before the games exist; the appender then creates them
(api/lobby.py `start_between`, the lobby's one way of starting a game between two accounts), and
`resume` creates any that a crash left uncreated.

Results come from the games: `after_action` (a LiveGames listener, as the Rater is) hears a game
end; `sweep` (every `SWEEP_SECONDS`) records what it missed and applies the round's deadline: a
game in which nobody ever moved is a double loss, and a game whose seat to act is out of time on
its clock is claimed for the opponent (``time``), as the player himself could.

A duplicate pair's games roll the same dice, so each ends with its seed withheld (session/records.py
``seed_withheld``): once both games of a pair have their result, the director appends to each
finished one its ``seed_revealed`` (`reveal`), before the round can finish. A game decided as a
double loss never ended in its own log: it gets none, and its seed follows from the master seed
the tournament's last event reveals.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable

from api.games import HttpError, JoinGame, PairDice, join_game
from api.live.hub import LiveGames
from api.seats import Seats
from eventstore.envelope import NewEvent
from eventstore.errors import Conflict
from eventstore.store import RedisEventStore
from rules.core.scenario import other_side
from session import clock, decide
from session.games import GameCache
from session.history import History, load
from session.ids import new_game_id
from tournaments import dice as pair_dice
from tournaments import records
from tournaments.records import (
    Entered,
    GameRef,
    GameResult,
    Pairing,
    RoundFinished,
    RoundPaired,
    Started,
    TournamentCreated,
    TournamentFinished,
)
from tournaments.state import NeedsPairing, Tournament, due, fold

log = logging.getLogger(__name__)

SWEEP_SECONDS = 30
_TRIES = 16


#: The note of the ``game_finished`` (reason ``aborted``) that ends a game nobody moved in by its
#: round's deadline: the tournament records it as a double loss.
DOUBLE_LOSS_NOTE = "double loss: no command by the round's deadline"

class Director:
    """The tournaments of one store. `start` starts a game between two accounts (api/lobby.py
    `start_between`, bound to the app)."""

    def __init__(
        self,
        store: RedisEventStore,
        seats: Seats,
        games: GameCache,
        live: LiveGames,
        start: Callable[..., Awaitable],
    ) -> None:
        self.store = store
        self.seats = seats
        self.games = games
        self.live = live
        self.start_game = start
        self.logs = RedisEventStore(store.redis, prefix=store.prefix, namespace="t")
        self._tasks: set[asyncio.Task] = set()
        self._sweeper: asyncio.Task | None = None

    # -- keys ------------------------------------------------------------------------------------
    @property
    def index_key(self) -> str:
        return f"{self.store.prefix}tournaments"

    @property
    def games_key(self) -> str:
        return f"{self.store.prefix}tournament_games"

    # -- the log ---------------------------------------------------------------------------------
    async def load(self, tid: str) -> Tournament | None:
        """The tournament folded from its log (None: no such tournament)."""
        try:
            found = [records.decode(e.payload) async for e in self.logs.read(tid)]
        except ValueError:  # not a possible id
            return None
        return fold(found) if found else None

    async def _append(self, tid: str, t: Tournament, *items: records.Record) -> None:
        events = [NewEvent(type=records.tag(r), payload=records.encode(r), schema=r.schema) for r in items]
        await self.logs.append(tid, events, t.events)

    async def ids(self, offset: int = 0, limit: int = 50) -> list[str]:
        return [i.decode() for i in await self.store.redis.zrevrange(self.index_key, offset, offset + limit - 1)]

    # -- what players do -------------------------------------------------------------------------
    async def create(self, **terms) -> Tournament:
        """A new tournament on `terms` (TournamentCreated's fields but the id and commitment)."""
        master = pair_dice.new_master()
        tid = secrets.token_urlsafe(9).replace("-", "x")
        created = TournamentCreated(tournament_id=tid, seed_hash=pair_dice.commitment(master), **terms)
        await self.logs.put_secret(tid, master)
        await self._append(tid, Tournament(), created)
        await self.store.redis.zadd(self.index_key, {tid: time.time_ns() // 1_000_000})
        return fold([created])

    async def _known(self, tid: str) -> Tournament:
        t = await self.load(tid)
        if t is None:
            raise HttpError(404, "not_found", f"no tournament {tid!r}")
        return t

    async def enter(self, tid: str, player: str, name: str, nonce: str) -> Tournament:
        for _ in range(_TRIES):
            t = await self._known(tid)
            if t.players:
                raise HttpError(409, "already_started", "the tournament has started: entries are closed")
            if t.entry(player) is not None:
                raise HttpError(409, "already_entered", f"{name} has entered this tournament already")
            if len(t.entries) >= t.created.max_players:
                raise HttpError(409, "full", f"the tournament is full ({t.created.max_players} players)")
            try:
                await self._append(tid, t, Entered(player=player, name=name, nonce=nonce))
            except Conflict:
                continue
            return await self._known(tid)
        raise HttpError(409, "conflict", "the tournament changed too often; try again")

    async def begin(self, tid: str, player: str) -> Tournament:
        """Close the entries and pair the first round (the creator alone may)."""
        for _ in range(_TRIES):
            t = await self._known(tid)
            if t.created.creator != player:
                raise HttpError(403, "not_creator", "only the tournament's creator may start it")
            if t.players:
                raise HttpError(409, "already_started", "the tournament has started already")
            if len(t.entries) < 2:
                raise HttpError(409, "too_few", "a tournament needs two entries at least to start")
            try:
                await self._append(tid, t, Started(players=[e.player for e in t.entries]))
            except Conflict:
                continue
            await self.advance(tid)
            return await self._known(tid)
        raise HttpError(409, "conflict", "the tournament changed too often; try again")

    # -- directing -------------------------------------------------------------------------------
    async def advance(self, tid: str) -> None:
        """Append whatever is due, step by step, until nothing is (tournaments/state.py `due`)."""
        for _ in range(64):
            t = await self.load(tid)
            step = due(t) if t is not None else None
            if step is None:
                return
            try:
                if isinstance(step, NeedsPairing):
                    paired = self._paired(t, step)
                    await self._append(tid, t, paired)
                    await self._start_round(tid, t, paired)
                elif isinstance(step, RoundFinished):
                    await self.reveal(t, step.round)  # (done already, unless a crash came between)
                    await self._append(tid, t, step)
                elif isinstance(step, TournamentFinished):
                    master = await self.logs.get_secret(tid)
                    await self._append(tid, t, TournamentFinished(standings=step.standings, master_seed=master.hex()))
                    log.info("tournament %s finished", tid)
                else:
                    await self._append(tid, t, step)
            except Conflict:
                continue  # another did it: fold again

    def _paired(self, t: Tournament, step: NeedsPairing) -> RoundPaired:
        duplicate = t.created.duplicate
        pairings = []
        for pair_id, first, second in step.pairings:
            games = [GameRef(game_id=new_game_id(), union=first, confederate=second)]
            if duplicate:
                games.append(GameRef(game_id=new_game_id(), union=second, confederate=first))
            pairings.append(Pairing(pair_id=pair_id, first=first, second=second, games=games))
        deadline = time.time_ns() // 1_000_000 + t.created.round_seconds * 1000
        return RoundPaired(round=step.round, pairings=pairings, bye=step.bye, deadline=deadline)

    async def _start_round(self, tid: str, t: Tournament, paired: RoundPaired) -> None:
        """Create the round's games that do not exist yet (every one, right after the pairing)."""
        master = await self.logs.get_secret(tid)
        nonce = {e.player: e.nonce for e in t.entries}
        c = t.created
        for p in paired.pairings:
            pair = None
            if c.duplicate:
                pair = PairDice(
                    seed=pair_dice.pair_seed(master, p.pair_id),
                    stream=p.pair_id,
                    nonces=pair_dice.pair_nonces(nonce[p.first], nonce[p.second]),
                )
            for g in p.games:
                if await self.store.get_game(g.game_id) is not None:
                    continue
                await self.store.redis.hset(self.games_key, g.game_id, tid)
                created = await self.start_game(
                    scenario=c.scenario,
                    ruleset=c.ruleset,
                    clock=c.clock,
                    rated=c.rated,
                    side="union",
                    proposer_id=g.union,
                    acceptor_id=g.confederate,
                    dice_nonce=nonce[g.union],
                    game_id=g.game_id,
                    pair=pair,
                )
                await join_game(
                    self.store, self.seats, self.games, self.live, g.game_id,
                    JoinGame(invite=created.invite, dice_nonce=nonce[g.confederate]),
                )
                log.info("tournament %s round %d: game %s", tid, paired.round, g.game_id)

    async def resume(self) -> None:
        """After a restart: create the games a crash left uncreated, and go on where it stopped."""
        for tid in await self.ids(0, 1000):
            t = await self.load(tid)
            if t is None or t.status != "running":
                continue
            if t.rounds and not t.rounds[-1].finished:
                await self._start_round(tid, t, t.rounds[-1].paired)
            await self.advance(tid)

    # -- results ---------------------------------------------------------------------------------
    def after_action(self, game_id: str, history: History, seat: str, first: int, last: int) -> None:
        """A LiveGames listener: a finished game of a tournament is recorded, in a task of its own."""
        if history.finished is None:
            return
        self._spawn(self.game_ended(game_id, history))

    def _spawn(self, work: Awaitable) -> None:
        task = asyncio.ensure_future(self._logged(work))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @staticmethod
    async def _logged(work: Awaitable) -> None:
        try:
            await work
        except Exception:  # noqa: BLE001 - a tournament never fails a game
            log.exception("tournament step failed")

    async def idle(self) -> None:
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def game_ended(self, game_id: str, history: History, double_loss: bool = False) -> bool:
        """Record the result of a finished game (or a double loss) in its tournament; whether this
        call recorded it."""
        tid = await self.store.redis.hget(self.games_key, game_id)
        if tid is None:
            return False
        tid = tid.decode()
        recorded = False
        for _ in range(_TRIES):
            t = await self.load(tid)
            found = t.game(game_id) if t is not None else None
            if found is None:
                return False
            number, _ = found
            r = t.rounds[number - 1]
            if r.finished or game_id in r.results:
                break
            if double_loss:
                result = GameResult(round=number, game_id=game_id, reason="double_loss")
            else:
                f = history.finished
                result = GameResult(round=number, game_id=game_id, winner=f.winner, reason=f.reason, vp=dict(f.vp))
            try:
                await self._append(tid, t, result)
            except Conflict:
                continue
            recorded = True
            break
        t = await self.load(tid)
        if t is not None and t.game(game_id) is not None:
            await self.reveal(t, t.game(game_id)[0])
        await self.advance(tid)
        return recorded

    async def reveal(self, t: Tournament, number: int) -> None:
        """Reveal the dice seed in the games of each duplicate pair of round `number` whose two games
        both have their result (each appended at the version folded: of two servers, one does it)."""
        if not t.created.duplicate or not 0 < number <= len(t.rounds):
            return
        r = t.rounds[number - 1]
        for p in r.paired.pairings:
            if all(g.game_id in r.results for g in p.games):
                for g in p.games:
                    await self._reveal(g.game_id)

    async def _reveal(self, game_id: str) -> None:
        for _ in range(_TRIES):
            if await self.store.get_game(game_id) is None:
                return
            history = await load(self.store, game_id, self.games)
            f = history.finished
            if f is None or f.seed_withheld is None or f.seed:  # never ended (a double loss), or revealed
                return
            events = decide.reveal(history, await self.store.get_secret(game_id))
            try:
                await self.store.append(game_id, events, history.version)
            except Conflict:
                continue
            log.info("game %s: dice seed of pair %s revealed", game_id, f.seed_withheld)
            return

    async def sweep(self, now_ms: int | None = None) -> None:
        """Record the results the listener missed, and apply each round's deadline (module doc)."""
        now_ms = time.time_ns() // 1_000_000 if now_ms is None else now_ms
        for tid in await self.ids(0, 1000):
            t = await self.load(tid)
            if t is None or t.status != "running" or not t.rounds or t.rounds[-1].finished:
                continue
            r = t.rounds[-1]
            for g in r.unfinished():
                if await self.store.get_game(g.game_id) is None:
                    continue
                history = await load(self.store, g.game_id, self.games)
                if history.finished is not None:
                    await self.game_ended(g.game_id, history)
                elif now_ms >= r.paired.deadline:
                    await self._decide_at_deadline(g.game_id, history, now_ms)

    async def _decide_at_deadline(self, game_id: str, history: History, now_ms: int) -> None:
        s = history.session
        if not s.commands:  # a double loss, ended in the game's own log too: nobody plays on after the
            # deadline (in a duplicate pair, with the dice its partner's end revealed)
            seed = await self.store.get_secret(game_id)
            events = decide.abort(history, seed, DOUBLE_LOSS_NOTE)
            try:
                await self.store.append(game_id, events, history.version)
            except Conflict:
                return  # the game moved meanwhile: the next sweep looks again
            await self.game_ended(game_id, await load(self.store, game_id, self.games), double_loss=True)
            return
        if s.to_act is not None and clock.flag_fallen(s, s.to_act, now_ms):
            seed = await self.store.get_secret(game_id)
            events = decide.claim(history, other_side(s.to_act), seed, now_ms=now_ms)
            try:
                await self.store.append(game_id, events, history.version)
            except Conflict:
                return  # the game moved meanwhile: the next sweep looks again
            await self.game_ended(game_id, await load(self.store, game_id, self.games))
        # else: the game goes on; its clock, or its end, decides it

    def start_sweeping(self, every: float = SWEEP_SECONDS) -> None:
        async def loop() -> None:
            me = asyncio.current_task()
            await self._logged(self.resume())
            while not me.cancelling():  # not after a cancellation the store's client swallowed mid-call
                await asyncio.sleep(every)
                await self._logged(self.sweep())
            raise asyncio.CancelledError

        self._sweeper = asyncio.create_task(loop())

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            await asyncio.gather(self._sweeper, return_exceptions=True)
        await self.idle()

