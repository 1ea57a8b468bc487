"""The state of a game: everything that changes as events are applied.

A ``State`` is a msgspec Struct whose encoding (msgspec, ``order="deterministic"``) is canonical:
``encode(state)`` is the snapshot and ``digest(state)`` its SHA-256. The static scenario, the rule set and
the options are not in it: the state reaches them through ``state.game`` (rules/core/game.py), which is
never encoded. The state is mutable so that a fold can copy once and apply many events in place
(``rules.reducer.fold``); every container in it holds immutable values only, so ``copy()`` is shallow.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, get_origin

import msgspec

from rules.core.breastworks import Breastworks
from rules.core.decisions import Decision
from rules.core.scenario import Side

if TYPE_CHECKING:
    from rules.core.game import Game

SCHEMA = 1
T = TypeVar("T")

# Phases of a Player-Turn (4.1). Other rule sets or issues may add their own names.
MOVEMENT = "movement"
COMBAT = "combat"


class State(msgspec.Struct, dict=True, kw_only=True):
    """The changing part of a game.

    - ``turn``: the Game-Turn, from 1; ``phasing``: the Phasing Player (4.1); ``phase``: the phase of
      his Player-Turn ("movement", "combat").
    - ``positions``: the hex of every unit on the map, by unit id. A unit of the scenario that is not
      in ``positions`` and not in ``eliminated`` has not yet arrived (a reinforcement).
    - ``eliminated``: units removed from play, in order (reinforcements lost under 15.12 included).
    - ``moved``: units moved (or entered) in this Movement Phase (5.17).
    - ``control``: for each hex whose control the scenario's rules ask about, the side that controls
      it (17.15: "having a unit in the hex or being the last to have a unit move through the hex"),
      or None while no unit has ever been in it.
    - ``pending``: decisions the game waits for before anything else (a declared attack, retreats,
      displacements, exchange losses, advances: rules/core/decisions.py). The first one's ``side`` acts next.
    - ``attacked``: units that attacked or were attacked in this Combat Phase (7.14); ``advanced``:
      units that advanced after combat in it (7.75); ``silenced``: displaced artillery that had not yet
      fought and may not fire in it (7.82). All three are emptied when a phase begins.
    - ``ineffective``: units that lost Attack Effectiveness (optional rule 11.0) until a night ends;
      ``engaged``: ineffective units in an enemy zone of control when this Combat Phase began (11.31).
    - Revised rules only (rules/revised/combat_procedures.py): ``morale``: the units that are
      Disordered, Shaken or Routed (12.0), by unit; ``stationary``: units of the phasing side that did
      not move in this Player-Turn's Movement Phase (11.21, 12.16); ``rallying``: units with a Rally
      marker (12.41). A Routed unit is also ``ineffective`` (12.23, 12.31, 12.32 are 11.2, 11.31).
    - ``breastworks``: the Breastworks Markers on the map by hex (revised 10.3, rules/core/breastworks.py).
    - ``entries``: how many reinforcements entered the map at each hex in this Movement Phase (the
      revised 5.0 column of stacks; emptied when a phase begins).
    - ``released``: the sides whose battle movement restrictions are removed for good (Antietam 20.1:
      a Confederate unit moved across a creek hexside); and the units released for good from a battle's
      immobility, by id (Fredericksburg 19.11-19.13; a unit id is never a side's name).
    - ``vp``: victory points by side; ``scored``: what in-play points have been awarded for (an
      eliminated unit, a hex's first control: 20.11), so nothing scores twice; ``game_over`` and
      ``result`` (the level of victory, 20.2) once the game has ended.
    """

    schema: int = SCHEMA
    scenario: str
    ruleset: str
    options: dict[str, Any] = {}
    turn: int = 1
    phasing: Side = "union"
    phase: str = MOVEMENT
    positions: dict[str, str] = {}
    eliminated: list[str] = []
    moved: set[str] = set()
    control: dict[str, Side | None] = {}
    pending: list[Decision] = []
    attacked: set[str] = set()
    advanced: set[str] = set()
    silenced: set[str] = set()
    ineffective: set[str] = set()
    engaged: set[str] = set()
    morale: dict[str, str] = {}
    stationary: set[str] = set()
    rallying: set[str] = set()
    vp: dict[str, int] = {}
    entries: dict[str, int] = {}  # revised 5.0: reinforcements entered at each hex this Movement Phase
    blocked: set[str] = set()  # revised 5.5: reinforcements that could not enter on their Game-Turn
    released: set[str] = set()  # Antietam 20.1: sides whose movement restrictions are removed for good;
    # Fredericksburg 19.11-19.13: units released from immobility
    breastworks: dict[str, Breastworks] = {}  # revised 10.3: the Breastworks Markers by hex
    scored: set[str] = set()
    game_over: bool = False
    result: str | None = None

    if TYPE_CHECKING:  # at run time ``game`` is a plain attribute in the instance's __dict__ (``attach``),
        # never encoded; read thousands of times per command, where a property would cost a call each

        @property
        def game(self) -> Game: ...

    def attach(self, game: Game) -> State:
        """Give this state its game context (not encoded); returns the state."""
        self.__dict__["game"] = game
        return self

    def copy(self) -> State:
        """An independent copy: containers are copied, their (immutable) items shared."""
        new = self.__copy__()  # every field shared; then a copy of each container (_CONTAINERS, one
        # by one: a third faster than a loop of getattr/setattr; a test checks that none is missed)
        new.options = self.options.copy()
        new.positions = self.positions.copy()
        new.eliminated = self.eliminated.copy()
        new.moved = self.moved.copy()
        new.control = self.control.copy()
        new.pending = self.pending.copy()
        new.attacked = self.attacked.copy()
        new.advanced = self.advanced.copy()
        new.silenced = self.silenced.copy()
        new.ineffective = self.ineffective.copy()
        new.engaged = self.engaged.copy()
        new.morale = self.morale.copy()
        new.stationary = self.stationary.copy()
        new.rallying = self.rallying.copy()
        new.vp = self.vp.copy()
        new.entries = self.entries.copy()
        new.blocked = self.blocked.copy()
        new.released = self.released.copy()
        new.breastworks = self.breastworks.copy()
        new.scored = self.scored.copy()
        new.__dict__.update(self.__dict__)
        return new

    # -- questions about units -----------------------------------------------------------------
    def units_in(self, hex_: str) -> list[str]:
        """The units in a hex, in id order."""
        return sorted([u for u, h in self.positions.items() if h == hex_])

    def side_of(self, unit_id: str) -> Side:
        return self.game.units[unit_id].side

    def occupants(self) -> dict[str, list[str]]:
        """Every occupied hex with its units (in the order of ``positions``). Worked out once per
        position (``kept``: an attack's validation, its strengths and the engagement all ask), so the
        dict and its lists are shared: no one may change them."""
        return kept(self, "occupants", _occupants, (self.positions,))


def _occupants(state: State) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for u, h in state.positions.items():
        out.setdefault(h, []).append(u)
    return out


#: The fields of a State that hold a dict, a list or a set (State.copy copies them).
_CONTAINERS = tuple(f.name for f in msgspec.structs.fields(State) if get_origin(f.type) in (dict, list, set))

_encoder = msgspec.msgpack.Encoder(order="deterministic")
_raw_encoder = msgspec.msgpack.Encoder()
_json_encoder = msgspec.json.Encoder(order="deterministic")


def encode(state: State) -> bytes:
    """The canonical encoding of a state (msgpack, deterministic order): a snapshot."""
    return _encoder.encode(state)


def encode_json(state: State) -> bytes:
    """The same state as canonical JSON, for people and clients."""
    return _json_encoder.encode(state)


def decode(data: bytes, game: Game) -> State:
    """A state from ``encode``'s bytes, attached to its game."""
    return msgspec.msgpack.decode(data, type=State).attach(game)


def kept(state: State, name: str, compute: Callable[[State], T], reads: tuple = ()) -> T:
    """``compute(state)``, kept in ``state.game.positions_seen`` for each exact content of the state: its
    msgpack encoding in the order of its containers (not the canonical order), so two states with the
    same key iterate alike and ``compute`` (pure: the state and its Game only) answers them alike. For
    what several steps ask of one position (a self-played command asks for the choices, then decides).
    ``reads``: the only parts of the state ``compute`` reads (its containers), when it names them; then
    those alone are the key, cheaper to encode than the whole state."""
    key = (name, _raw_encoder.encode(reads if reads else state))
    seen = state.game.positions_seen
    value = seen.get(key, _UNSEEN)
    if value is not _UNSEEN:
        return value
    value = compute(state)
    if len(seen) >= KEPT_POSITIONS:
        seen.clear()
    seen[key] = value
    return value


_UNSEEN = object()
#: At most this many answers kept by ``kept`` per Game (each keyed by a 2 KB encoding; a position's
#: questions come close together, a self-played command's within the command).
KEPT_POSITIONS = 512


_POSITIONS_KEY = _encoder.encode("positions")  # the field's name as the encoding spells it


def digest(state: State) -> str:
    """SHA-256 (hex) of the canonical encoding: equal states have equal digests."""
    return hashlib.sha256(_encoder.encode(state)).hexdigest()


def digest_bytes(state: State) -> bytes:
    """``digest`` as the 32 bytes an event envelope records."""
    return hashlib.sha256(_encoder.encode(state)).digest()


class Digester:
    """``digest_bytes`` of the states of one game in turn (a fold, event after event), the same bytes
    hashed: the canonical encoding of its largest containers, sorted each time, is kept and used
    again while they are unchanged (most events move no unit); and the hash of the encoding's first
    part, up to the units' hexes, is taken once while that part is unchanged."""

    __slots__ = ("_kept", "_head")

    #: The containers whose encoding is kept: the units' hexes and the stationary units (11.21).
    PARTS = ("positions", "stationary")

    def __init__(self) -> None:
        self._kept: dict[str, tuple[Any, msgspec.Raw]] = {}  # part -> (a copy of it, its encoding)
        # The encoding up to the end of the units' hexes (the first fields: the same from event to
        # event until a unit moves or a phase ends) and the SHA-256 state after it, hashed once.
        self._head: tuple[bytes, Any] | None = None

    def digest(self, state: State) -> bytes:
        shadow = state.__copy__()  # the same fields; the kept parts replaced by their encoding
        kept = self._kept
        for name in self.PARTS:
            value = getattr(state, name)
            part = kept.get(name)
            if part is None or part[0] != value:
                part = kept[name] = (value.copy(), msgspec.Raw(_encoder.encode(value)))
            setattr(shadow, name, part[1])
        data = _encoder.encode(shadow)
        head = self._head
        if head is None or not data.startswith(head[0]):
            # any split of the bytes hashes alike: this one ends after the units' hexes
            end = data.find(_POSITIONS_KEY) + len(_POSITIONS_KEY) + len(kept["positions"][1])
            head = self._head = (data[:end], hashlib.sha256(data[:end]))
        sha = head[1].copy()
        sha.update(memoryview(data)[len(head[0]) :])
        return sha.digest()
