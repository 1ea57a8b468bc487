"""A reminder before a flag falls (docs/PROTOCOL.md, "Notifications"): in a correspondence game,
when the seat to act has less than his ``remind_hours`` (accounts/notifications.py, default 24)
left on his clock, he is told once per Player-Turn, by the ways he chose (api/notifier.py):
"Game X: your move (Confederate), 23 h left on your clock".

The next reminder of each game lives in the store, so another server process or a restart finds it:
a sorted set (``<prefix>reminders``) of game ids scored by the time (ms) to remind. After every
action (`after_action`, queued, served by one worker) the game's entry is set from the fold: the
time the flag of the seat to act falls (session/clock.py `falls_at`, a pause counted out) less his
``remind_hours``; no entry when the game has no correspondence clock, is over, or that seat has no
account or asks for no reminder. `tick(now_ms)` sends what is due at `now_ms` (the time is given:
a test drives it, the server's loop gives the wall clock's) after checking the log again. A
reminder is sent after a marker ``{g:<id>}:reminded:<seat>:<Game-Turn>:<phasing>`` is set (SET NX):
never twice for one Player-Turn, not after a restart nor from two processes. The text names the
game, the seat and the hours left; never a token.
"""

from __future__ import annotations

import asyncio
import logging
import time

from accounts.notifications import Notifications
from api.notifier import Notifier
from api.seats import Seats
from eventstore.store import RedisEventStore
from replay.textrecord import side_name
from session import clock
from session.games import GameCache
from session.history import History, load

log = logging.getLogger(__name__)

HOUR_MS = 3_600_000
POLL_SECONDS = 60.0  # the longest the loop sleeps: another process may add an earlier reminder
DUE_BATCH = 100
MARKER_TTL = 90 * 24 * 3600  # seconds a "reminded" marker is kept (a Player-Turn lasts at most 60 days)
QUEUE = 10_000

# Replace the game's entry only if it still has the score read (another process may have moved it).
_REPLACE = """
local now = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not now or tonumber(now) ~= tonumber(ARGV[2]) then return 0 end
if ARGV[3] == '' then return redis.call('ZREM', KEYS[1], ARGV[1]) end
return redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
"""


def now_ms() -> int:
    return time.time_ns() // 1_000_000


class Turn:
    """What the reminder of a game depends on, read from its fold at one moment."""

    __slots__ = ("falls_at", "key", "seat")

    def __init__(self, history: History) -> None:
        s = history.session
        options = s.created.options.clock if s.created is not None else None
        self.seat = s.to_act if options is not None and options.mode == "correspondence" else None
        self.falls_at = clock.falls_at(s, self.seat) if self.seat is not None else None
        state = history.state
        self.key = f"{self.seat}:{state.turn}:{state.phasing}" if state is not None else ""


class Reminders:
    def __init__(
        self,
        store: RedisEventStore,
        seats: Seats,
        notifications: Notifications,
        notifier: Notifier,
        games: GameCache,
        prefix: str = "",
    ) -> None:
        self.store = store
        self.redis = store.redis
        self.seats = seats
        self.notifications = notifications
        self.notifier = notifier
        self.games = games
        self.key = f"{prefix}reminders"
        self.prefix = prefix
        self.queue: asyncio.Queue = asyncio.Queue(QUEUE)
        self._tasks: list[asyncio.Task] = []
        self._replace = self.redis.register_script(_REPLACE)

    # -- running ----------------------------------------------------------------------------------
    def start(self, *, loop: bool = True) -> None:
        """The worker that keeps the entries; with `loop`, the task that sends what is due on time."""
        self._tasks.append(asyncio.create_task(self._work()))
        if loop:
            self._tasks.append(asyncio.create_task(self._loop()))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks = []

    async def idle(self) -> None:
        """Until every queued action's entry has been written."""
        await self.queue.join()

    async def _loop(self) -> None:
        while True:
            try:
                await self.tick(now_ms())
                first = await self.redis.zrange(self.key, 0, 0, withscores=True)
            except Exception:  # noqa: BLE001 - the store may be away for a while: try again later
                log.exception("reminders: the store could not be read")
                first = []
            if asyncio.current_task().cancelling():
                raise asyncio.CancelledError
            wait = POLL_SECONDS if not first else (first[0][1] - now_ms()) / 1000
            await asyncio.sleep(min(POLL_SECONDS, max(0.05, wait)))

    # -- keeping the entries ------------------------------------------------------------------------
    def after_action(self, game_id: str, history: History, seat: str, first: int, last: int) -> None:
        """Called by the live game after each action (no waiting; never raises)."""
        try:
            self.queue.put_nowait((game_id, Turn(history)))
        except Exception:  # noqa: BLE001 - a full queue: this game's reminder waits for its next action
            log.warning("reminders: the queue is full, game %s not scheduled", game_id)

    async def _work(self) -> None:
        me = asyncio.current_task()
        while True:
            game_id, turn = await self.queue.get()
            try:
                await self.schedule(game_id, turn)
            except Exception:  # noqa: BLE001 - a reminder never takes the worker down
                log.exception("reminders: game %s not scheduled", game_id)
            finally:
                self.queue.task_done()
            if me.cancelling():  # a cancellation the store's client swallowed mid-call: stop anyway
                raise asyncio.CancelledError

    def marker(self, game_id: str, turn: Turn) -> str:
        return f"{self.prefix}{{g:{game_id}}}:reminded:{turn.key}"

    async def due_at(self, game_id: str, turn: Turn) -> tuple[int, str, int] | None:
        """(when to remind, the account, its hours) for this Player-Turn, or None: no reminder."""
        if turn.falls_at is None:
            return None
        account_id = (await self.seats.accounts(game_id)).get(turn.seat)
        if account_id is None:
            return None
        hours = (await self.notifications.settings(account_id)).remind_hours
        if hours <= 0 or await self.redis.exists(self.marker(game_id, turn)):
            return None
        return turn.falls_at - hours * HOUR_MS, account_id, hours

    async def schedule(self, game_id: str, turn: Turn) -> None:
        """Set the game's entry from `turn` (or remove it)."""
        due = await self.due_at(game_id, turn)
        if due is None:
            await self.redis.zrem(self.key, game_id)
        else:
            await self.redis.zadd(self.key, {game_id: due[0]})

    # -- sending ------------------------------------------------------------------------------------
    async def tick(self, now: int) -> int:
        """Send every reminder due at `now` (ms); returns how many were sent."""
        sent = 0
        for member, score in await self.redis.zrangebyscore(self.key, "-inf", now, 0, DUE_BATCH, withscores=True):
            game_id = member.decode()
            try:
                sent += await self._remind(game_id, int(score), now)
            except Exception:  # noqa: BLE001 - one game's trouble does not hold up the others
                log.exception("reminders: game %s not reminded", game_id)
        return sent

    async def _remind(self, game_id: str, score: int, now: int) -> int:
        history = await load(self.store, game_id, self.games)
        turn = Turn(history)
        due = await self.due_at(game_id, turn)
        sent = 0
        if due is not None and due[0] <= now:
            left = clock.left(history.session, turn.seat, now)
            if 0 < left and await self.redis.set(self.marker(game_id, turn), 1, nx=True, ex=MARKER_TTL):
                text = f"Game {game_id}: your move ({side_name(turn.seat)}), {left // HOUR_MS} h left on your clock"
                await self.notifier.deliver(due[1], self.notifier.notice(text, "reminder", game_id, turn.seat, history.version))
                sent = 1
            due = None  # this Player-Turn's reminder is done: sent now or before, or the flag fell
        await self._replace(keys=[self.key], args=[game_id, score, "" if due is None else due[0]])
        return sent
