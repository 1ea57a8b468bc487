"""Moving a game's log between stores: reading it whole, and importing an exported log (JSON Lines,
replay/export.py) as a game of another store with exactly the same history.

An import is verified first (replay/verify.py: the chain, every state digest, and every die roll
when the seed is known) and refused, with the reasons, if anything fails. The envelopes are then
written as they are (same versions, times, digests and hashes, so the head hash is the exporter's),
under the game's own id: the dice of a game are derived from its id, so it keeps it. A game whose
seed is revealed (finished) or fixed (insecure dice) gets its seed back, so it can be verified again
there; a running game's seed never leaves its server, so an imported running game can be replayed,
reported on and forked, not played on.
"""

from __future__ import annotations

import msgspec

from eventstore.envelope import Envelope
from eventstore.errors import EventStoreError
from replay import export
from replay.seek import ensure_snapshots
from replay.verify import Report, _seed, verify
from session.games import GameCache

BATCH = 200


class ImportRefused(Exception):
    """The log may not be imported: `reasons`, one sentence each."""

    def __init__(self, reasons: list[str]) -> None:
        super().__init__("; ".join(reasons))
        self.reasons = reasons


class Imported(msgspec.Struct, kw_only=True):
    game_id: str
    version: int
    head: str
    finished: bool
    dice_checked: bool
    already: bool = False  # the store had this very log already


async def read_log(store, game_id: str, to_version: int | None = None) -> list[Envelope]:
    """Every event of a game (up to `to_version`), chain-checked by the store as it reads."""
    return [e async for e in store.read(game_id, 1, to_version)]


def check(envelopes: list[Envelope], games: GameCache | None = None) -> tuple[str, Report]:
    """The game id and verification report of an exported log; ImportRefused if it does not verify."""
    try:
        game_id = export.game_id_of(envelopes)
    except (ValueError, msgspec.ValidationError) as exc:
        raise ImportRefused([str(exc)]) from None
    report = verify(game_id, envelopes, games)
    if not report.ok:
        raise ImportRefused(report.problems)
    return game_id, report


async def write_sealed(store, game_id: str, envelopes: list[Envelope]) -> None:
    """Append envelopes already sealed (versions, times, hashes as they are) to an empty game log,
    through the store's own compare-and-append script (`append_sealed`: its checks and the meta hold)."""
    for start in range(0, len(envelopes), BATCH):
        try:
            await store.append_sealed(game_id, envelopes[start : start + BATCH], start)
        except (EventStoreError, ValueError) as exc:
            raise ImportRefused([f"the store refused the events from version {start + 1}: {exc}"]) from None


async def import_log(store, envelopes: list[Envelope], games: GameCache | None = None) -> Imported:
    """Verify `envelopes` and write them as a game of `store` (see the module documentation)."""
    games = games or GameCache()
    game_id, report = check(envelopes, games)
    version, head = await store.head(game_id)
    if version:
        if version == len(envelopes) and head == envelopes[-1].hash:
            return Imported(game_id=game_id, version=version, head=head.hex(), finished=report.finished,
                            dice_checked=report.dice_checked, already=True)
        raise ImportRefused([f"this store already has a game {game_id!r} with another history"])
    await write_sealed(store, game_id, envelopes)
    k = store.keys(game_id)
    seed, _created = _seed(envelopes)
    if seed is not None:
        await store.put_secret(game_id, seed)
    from session.history import fold_envelopes
    from session.visibility import listing, seen_by

    history = fold_envelopes(game_id, games, envelopes)
    s = history.session
    await store.create_game(game_id, s.created.scenario, status="finished" if s.finished else ("active" if s.started else "open"))
    view = None  # a game with a spectator delay is listed as spectators may see it
    shown = seen_by(history, None)
    if shown < history.version:
        view = fold_envelopes(game_id, games, envelopes[:shown])
    await store.redis.hset(k.info, mapping={**listing(history, view), "imported": 1})
    await ensure_snapshots(store, game_id, games)
    return Imported(game_id=game_id, version=len(envelopes), head=envelopes[-1].hash.hex(),
                    finished=report.finished, dice_checked=report.dice_checked)
