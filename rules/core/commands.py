"""Commands: what a player asks to do. Frozen msgspec Structs, a tagged union on the field ``type``
with explicit tag strings (never the class name: renaming a class cannot orphan an old log) and a
schema version ``schema`` (upcast on read when a command's shape changes).

Every command type of both rule books is here, and ``COMMAND_TYPES`` declares the union a command
decodes against: a new command is a class here and a line there (tests/rules/test_unions.py checks
both, and that a rule set allowing it has a decider for it).
"""

from __future__ import annotations

from typing import Union

import msgspec


class Command(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of every command; never sent itself."""

    schema: int = 1


class MoveUnit(Command, frozen=True, tag="move"):
    """Move one unit along ``path``: its own hex first, then each hex it enters, in order (5.0, 5.16).
    The whole move is one command: once made, the unit may not move again this phase (5.17)."""

    unit: str
    path: tuple[str, ...]


class ExitMap(Command, frozen=True, tag="exit_map"):
    """Move one unit along ``path`` (its own hex first; only that hex when it stands on one already)
    to an exit hex of the battle and off the map there (Chickamauga 18.1, 18.2)."""

    unit: str
    path: tuple[str, ...]


class EnterReinforcement(Command, frozen=True, tag="enter_reinforcement"):
    """Bring a reinforcement onto the map (15.1x): ``path`` starts with the entry hex (whose terrain
    it pays for, 15.13) and may go on from there like any move."""

    unit: str
    path: tuple[str, ...]


class WriteDownReinforcements(Command, frozen=True, tag="write_down_reinforcements"):
    """Road to Richmond 17.62: before the game starts the player "secretly writes down" which of his
    variable reinforcements arrive later: recorded only as ``commitments``, one per variable unit
    (rules/core/components/variable_reinforcements.py ``commitment``: SHA-256 hex of
    ``"<unit>:<chart Game-Turn>:<salt>"``); the choices and salts stay with the server."""

    commitments: dict[str, str]


class EnterWrittenReinforcement(Command, frozen=True, tag="enter_written_reinforcement"):
    """Road to Richmond 17.62-17.64: bring a variable reinforcement onto the map as written down:
    ``turn`` (the chart Game-Turn it was written down for) and ``salt`` open its commitment; ``path``
    as for ``enter_reinforcement``."""

    unit: str
    path: tuple[str, ...]
    turn: int
    salt: str


class EndPhase(Command, frozen=True, tag="end_phase"):
    """The phasing player ends the current phase (4.1)."""



# -- combat ------------------------------------------------------------------------------------------

class DeclareAttack(Command, frozen=True, tag="declare_attack"):
    """The Phasing Player declares an attack: ``attackers`` (unit ids: every unit of each hex used that
    may attack, 7.22; under the revised rules any of them, 8.22, 9.14) against the enemy-occupied
    ``defenders`` (hexes, 7.21, 7.25)."""

    attackers: tuple[str, ...]
    defenders: tuple[str, ...]

class ResolveAttack(Command, frozen=True, tag="resolve_attack"):
    """Roll the die for the declared attack, on the column ``odds`` (the computed odds or a lower
    column, 7.9; None: the computed odds)."""

    odds: str | None = None

class ChooseLosses(Command, frozen=True, tag="exchange_losses"):
    """7.6 Ex: the attacking units the attacker eliminates."""

    units: tuple[str, ...]

# -- fieldworks --------------------------------------------------------------------------------------

class RemoveBreastworks(Command, frozen=True, tag="remove_breastworks"):
    """10.37: at the end of his Combat Phase the phasing player removes the Breastworks Marker (of
    either side) of ``hex``, where at least one of his infantry or cavalry units remains."""

    hex: str

# -- retreat -----------------------------------------------------------------------------------------

class Retreat(Command, frozen=True, tag="retreat"):
    """The owning player retreats ``unit`` one hex ``to`` (7.71), displacing the friendly unit
    ``displace`` there when that is its only way (7.81)."""

    unit: str
    to: str
    displace: str | None = None

class Advance(Command, frozen=True, tag="advance"):
    """A victorious unit advances into a hex vacated by the combat (7.75)."""

    unit: str
    to: str

class Decline(Command, frozen=True, tag="decline"):
    """Decline the first pending decision when it is optional: an advance (7.75), or bombarding
    artillery's elective retreat (8.16)."""

# -- revised_combat_procedures -----------------------------------------------------------------------

class RetreatBeforeCombat(Command, frozen=True, tag="retreat_before_combat"):
    """8.77 (the defender, his cavalry) or 12.34 (the attacker, the defender's Routed units): the units to
    retreat two hexes before the die; none: an empty tuple."""

    units: tuple[str, ...] = ()

class PlaceRally(Command, frozen=True, tag="place_rally"):
    """12.41 (b): at the start of his Movement Phase the player puts Rally markers on these units."""

    units: tuple[str, ...]

class VoluntaryRout(Command, frozen=True, tag="voluntary_rout"):
    """12.16: at the start of his Combat Phase the player turns these Shaken units, which did not move,
    Routed (so they need not make an unfavourable attack)."""

    units: tuple[str, ...]

class RollRally(Command, frozen=True, tag="roll_rally"):
    """12.41 (b): at the start of the Combat Phase, before any attack, roll for every Rally marker."""

class ChooseTerrain(Command, frozen=True, tag="choose_terrain"):
    """8.45: the defender's choice between the forest shift ("forest") and the other terrain benefits
    ("terrain") for the declared attack."""

    option: str

# -- revised_movement --------------------------------------------------------------------------------

class StrategicMove(Command, frozen=True, tag="strategic_move"):
    """Move one unit by Strategic Movement (revised 6.4) along ``path`` (its hex first): further
    than its allowance, along routes only, never within two hexes of an enemy unit."""

    unit: str
    path: tuple[str, ...]

class BuildBreastworks(Command, frozen=True, tag="build_breastworks"):
    """10.34 i: place a Breastworks Under Construction Marker on an infantry unit that does not move
    this Movement Phase, no enemy unit within three hexes."""

    unit: str

class CompleteBreastworks(Command, frozen=True, tag="complete_breastworks"):
    """10.34 ii, 4.0: flip the marker of a unit that has not moved since, facing three adjacent
    hexsides (``facing``: the three hexes beyond them, contiguous)."""

    unit: str
    facing: tuple[str, ...]

# -- leaders ---------------------------------------------------------------------------------------------

class MoveLeader(Command, frozen=True, tag="move_leader"):
    """Grand Chancellorsville 23.51: move the Leader ``leader`` on his own along ``path`` (his hex first,
    then each hex he enters), leaving the unit he rode with; once per Movement Phase."""

    leader: str
    path: tuple[str, ...]


# -- the union ------------------------------------------------------------------------------------------
#: Every command type, declared: the one union a command is decoded against.
COMMAND_TYPES: tuple[type[Command], ...] = (
    MoveUnit,
    ExitMap,
    EnterReinforcement,
    WriteDownReinforcements,
    EnterWrittenReinforcement,
    EndPhase,
    DeclareAttack,
    ResolveAttack,
    ChooseLosses,
    RemoveBreastworks,
    Retreat,
    Advance,
    Decline,
    RetreatBeforeCombat,
    PlaceRally,
    VoluntaryRout,
    RollRally,
    ChooseTerrain,
    StrategicMove,
    BuildBreastworks,
    CompleteBreastworks,
    MoveLeader,
)

AnyCommand = Union[COMMAND_TYPES]  # noqa: UP007 - a declared tuple of types
_decoder = msgspec.json.Decoder(AnyCommand)


def decode(data: bytes | str) -> Command:
    """A command from its JSON encoding (raises msgspec.ValidationError when malformed)."""
    return _decoder.decode(data)


def encode(command: Command) -> bytes:
    return msgspec.json.encode(command)
