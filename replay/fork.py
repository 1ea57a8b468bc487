"""What-if: a sandbox game branched from any version of another game.

The sandbox's log begins like any game's (``game_created``, then both seats joining) but its
``game_created`` carries ``fork`` (session.records.ForkedFrom): the parent game, the version, the
hash of the parent's event there and the rules state at that version, which is where the sandbox's
fold starts. Its dice seed is always fresh (never the parent's: a fork of a running game would
otherwise reveal the parent's next rolls), and one player may hold both seats.

Which versions may be forked: any version of the parent's log from the moment play started, except
one inside an undone range, and never beyond what the person asking may see (a spectator of a game
with a spectator delay sees it that many events behind: api/replaying.py).
"""

from __future__ import annotations

from eventstore.envelope import NewEvent
from rules import RULES_VERSION
from rules.core import state as rules_state
from rules.core.state import State
from session import dice
from session.decide import record_event
from session.games import GameCache
from session.history import History
from session.ids import new_game_id
from session.records import ForkedFrom, GameCreated, SeatJoined, SessionOptions


class ForkRefused(Exception):
    """This version of this game cannot be forked (why, in a sentence)."""


def fork_state(created: GameCreated, games: GameCache) -> State:
    """The rules state a sandbox starts from."""
    assert created.fork is not None
    return rules_state.decode(created.fork.state, games.for_record(created))


def check(parent: History, version: int, reverted=()) -> None:
    """Raise ForkRefused unless `parent` (folded to `version`) may be forked there; `reverted`: the
    undone ranges (back_to, accepted_at) of the whole log as it stands now (an undo after `version`
    may have taken it back)."""
    s = parent.session
    if s.created is None or parent.version != version:
        raise ForkRefused(f"the game has no version {version}")
    if not s.started:
        raise ForkRefused(f"play had not started at version {version} (a seat was empty)")
    if s.in_reverted(version) or any(b < version < a for b, a in reverted):
        raise ForkRefused(f"version {version} was taken back by an undo")


def fork_events(
    parent: History,
    *,
    game_id: str | None = None,
    server_version: str = "",
    seed: bytes | None = None,
    nonces: tuple[str, str] | None = None,
    options: SessionOptions | None = None,
    reverted=(),
) -> tuple[str, bytes, list[NewEvent]]:
    """A sandbox of `parent` at its version: (the new game's id, its fresh secret seed, its first
    events: created and both seats joined). The parent's own options are kept except the spectator
    delay (a sandbox has nothing to hide)."""
    check(parent, parent.version, reverted)
    c = parent.session.created
    game_id = game_id or new_game_id()
    seed = seed or dice.new_seed()
    state = parent.state
    created = GameCreated(
        game_id=game_id,
        rules_version=RULES_VERSION,
        server_version=server_version,
        scenario=c.scenario,
        scenario_hash=c.scenario_hash,
        ruleset=c.ruleset,
        rules_options=dict(c.rules_options),
        options=options or SessionOptions(undo=c.options.undo, undo_dice=c.options.undo_dice,
                                          silence_seconds=c.options.silence_seconds),
        dice="fair",
        seed_hash=dice.seed_hash(seed),
        creator=c.creator,
        fork=ForkedFrom(game_id=parent.game_id, version=parent.version, head=parent.head.hex(),
                        state=rules_state.encode(state)),
    )
    digest = bytes.fromhex(rules_state.digest(state))
    first, second = nonces or (dice.new_nonce(), dice.new_nonce())
    other = "confederate" if c.creator == "union" else "union"
    events = [
        record_event(created, digest),
        record_event(SeatJoined(seat=c.creator, nonce=first), digest, actor=c.creator),
        record_event(SeatJoined(seat=other, nonce=second), digest, actor=other),
    ]
    return game_id, seed, events
