"""Seeking: the history of a game at any version, from the snapshot at or before it and the fold of
the rest, always through the one effective-history fold (session/history.py).

Two sources:
- a store (`seek`): the newest snapshot at or before the version (`EventStore.snapshot_at_or_before`,
  kept by the server every `snapshot_every` events; `ensure_snapshots` writes them for a log that
  has none, an imported one say), then XRANGE and fold of the events after it;
- a log in memory (`Replay`: an export, a test): checkpoints every `every` versions taken while
  folding the log once, then the fold of the rest.

The history at a version inside an undone range is the state as it was played then (the undo came
later); `replay.timeline.Timeline` says which versions were undone and steps over them.
"""

from __future__ import annotations

import bisect
import weakref
from collections import OrderedDict

import msgspec

from eventstore.envelope import Envelope
from replay.timeline import Timeline
from rules.core import state as rules_state
from rules.core.state import State
from session.games import GameCache
from session.history import SNAPSHOT_CODE, History, NeedsState, from_stored_snapshot


class TargetStates:
    """The live states at undo targets already needed, per store and game (an LRU of `limit`), and
    written to the store beside the snapshots (`targets_key`: a hash, one field per rules-code
    version and target version, a cache like the snapshots).

    Folding past an ``undo_accepted`` whose target lies before the snapshot a seek started from
    needs the live state at that target, which is itself a seek (and may need another); a log's
    past never changes, so each is computed once, and a restarted server reads it back."""

    def __init__(self, limit: int = 2048) -> None:
        self.limit = limit
        self._stores: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def get(self, store, game_id: str, version: int) -> State | None:
        found = self._stores.get(store, {}).get((game_id, version))
        if found is not None:
            self._stores[store].move_to_end((game_id, version))
            return found.copy()
        return None

    def put(self, store, game_id: str, version: int, state: State) -> None:
        states = self._stores.setdefault(store, OrderedDict())
        states[(game_id, version)] = state.copy()
        while len(states) > self.limit:
            states.popitem(last=False)

    def clear(self) -> None:
        self._stores = weakref.WeakKeyDictionary()

    async def fetch(self, store, game_id: str, version: int, game) -> State | None:
        """The state at `version` from memory, else from the store (None: not kept)."""
        found = self.get(store, game_id, version)
        if found is not None:
            return found
        data = await store.redis.hget(targets_key(store, game_id), f"{SNAPSHOT_CODE}/{version}")
        if data is None:
            return None
        try:
            state = rules_state.decode(data, game)
        except (msgspec.ValidationError, msgspec.DecodeError):
            return None  # a cache: an unreadable entry is ignored
        self.put(store, game_id, version, state)
        return state

    async def keep(self, store, game_id: str, version: int, state: State) -> None:
        self.put(store, game_id, version, state)
        await store.redis.hset(targets_key(store, game_id), f"{SNAPSHOT_CODE}/{version}", rules_state.encode(state))


def targets_key(store, game_id: str) -> str:
    """The store's hash of states at undo targets of a game (same hash tag as its other keys)."""
    return f"{store.keys(game_id).snap}:targets"


TARGETS = TargetStates()


async def seek(store, game_id: str, games: GameCache, version: int, *, targets: TargetStates | None = TARGETS) -> History:
    """The history of `game_id` folded to `version`: the newest snapshot at or before it, then the
    fold of the rest (the same result as `session.history.load`, which it follows, with the states
    at undo targets kept in `targets`)."""
    history = await from_stored_snapshot(store, game_id, games, version) or History(game_id, games)
    if history.version >= version:
        return history
    async for envelope in store.read(game_id, history.version + 1, version):
        try:
            history.apply(envelope)
        except NeedsState as need:
            target = await targets.fetch(store, game_id, need.version, history.game) if targets is not None else None
            if target is None:
                target = (await seek(store, game_id, games, need.version, targets=targets)).state
                if targets is not None:
                    await targets.keep(store, game_id, need.version, target)
            history.apply(envelope, target=target)
    return history


async def ensure_snapshots(store, game_id: str, games: GameCache) -> int:
    """Fold the whole log once, writing a snapshot every `store.snapshot_every` versions where the
    store has none; returns how many were written."""
    every = store.snapshot_every
    history = History(game_id, games)
    written = 0
    from session.history import apply_async

    async for envelope in store.read(game_id):
        await apply_async(history, store, envelope)
        v = envelope.version
        if v % every == 0:
            found = await store.snapshot_at_or_before(game_id, v, code_version=SNAPSHOT_CODE)
            if found is None or found.version != v:
                await store.put_snapshot(game_id, v, history.snapshot(), SNAPSHOT_CODE)
                written += 1
    return written


class Replay:
    """A whole log in memory, ready to seek (see the module documentation)."""

    def __init__(self, game_id: str, games: GameCache, envelopes: list[Envelope], *, every: int = 100) -> None:
        self.game_id = game_id
        self.games = games
        self.envelopes = list(envelopes)
        self.every = every
        self._versions: list[int] = []
        self._snapshots: list[bytes] = []
        history = History(game_id, games)
        for e in self.envelopes:
            self._apply(history, e)
            if e.version % every == 0:
                self._versions.append(e.version)
                self._snapshots.append(history.snapshot())
        self.final = history
        created = history.session.created
        start = new_state_place(history) if created is not None else (1, "", "")
        self.timeline = Timeline.of(self.envelopes, start)

    @property
    def version(self) -> int:
        return len(self.envelopes)

    def _apply(self, history: History, envelope: Envelope) -> None:
        try:
            history.apply(envelope)
        except NeedsState as need:
            history.apply(envelope, target=self.at(need.version).state)

    def at(self, version: int) -> History:
        """The history folded to `version` (0 < version <= the log's last)."""
        if not 1 <= version <= len(self.envelopes):
            raise ValueError(f"no version {version} (the log has 1..{len(self.envelopes)})")
        i = bisect.bisect_right(self._versions, version) - 1
        if i >= 0:
            history = History.from_snapshot(self.game_id, self.games, self._snapshots[i])
        else:
            history = History(self.game_id, self.games)
        for e in self.envelopes[history.version : version]:
            self._apply(history, e)
        return history


def new_state_place(history: History) -> tuple[int, str, str]:
    """The Game-Turn, phasing side and phase of the game's opening state."""
    from rules.reducer import new_game

    created = history.session.created
    fork = getattr(created, "fork", None)
    if fork is not None:
        from replay.fork import fork_state

        state = fork_state(created, history.games)
    else:
        state = new_game(history.games.for_record(created))
    return state.turn, state.phasing, state.phase
