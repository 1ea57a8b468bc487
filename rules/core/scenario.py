"""What a battle is, as the rules engine sees it: the map, the order of battle and the exclusive rules'
parameters. These are plain values; `scenarios/` reads them from files and validates them.
"""

from __future__ import annotations

import hashlib
from typing import Literal

import msgspec

from rules.core.hexes import Grid, hexside

Side = Literal["union", "confederate"]
UnitType = Literal["infantry", "cavalry", "artillery", "gunboat"]  # gunboat: revised 9.6 only
UnitSize = Literal["division", "brigade", "regiment", "battery", "section"]  # Road to Vicksburg 19.4, 21.3
SIDES: tuple[Side, Side] = ("union", "confederate")


def other_side(side: Side) -> Side:
    return "confederate" if side == "union" else "union"


class Hexside(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The features of one hexside (terrain.HEXSIDE_FEATURES).

    ``barbed``: for a redoubt, the hex on the barbed side, from which an attack is tripled (18.1x).
    ``ferry``: for a ferry crossing, the ferry hex whose arrow this is (19.1x)."""

    features: frozenset[str]
    barbed: str | None = None
    high: str | None = None  # for a slope: the hex on its upper side (revised 6.26)


class Map(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Every hex with its terrain, and every hexside that has a feature, keyed "AAAA|BBBB"."""

    lower_columns: Literal["even", "odd"]
    hexes: dict[str, str]
    hexsides: dict[str, Hexside] = {}
    # Named hexes the exclusive rules speak of: {"chattanooga_town": ["1415", ...], ...}
    areas: dict[str, list[str]] = {}
    # Revised 2.4, 6.21, 6.26: the level (1-3) of hexes above level 1; every other hex is level 1.
    levels: dict[str, int] = {}

    def level(self, hex_: str) -> int:
        return self.levels.get(hex_, 1)

    @property
    def grid(self) -> Grid:
        return Grid(self.lower_columns)

    def features(self, a: str, b: str) -> frozenset[str]:
        side = self.hexsides.get(hexside(a, b))
        return side.features if side else frozenset()


class Unit(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One counter. ``id`` is stable and unique; ``designation`` is what the counter prints and may
    repeat (there are two 1/2/XIV). ``hex`` is the set-up hex, or None for a reinforcement, which
    ``arrives`` on that Game-Turn at one of its ``entry`` hexes; or, with ``group`` (Savage's Station
    17.1), a reinforcement of the group that the battle's Reinforcement Table brings, when and where the
    table's roll says (no ``hex``, ``arrives`` nor ``entry``)."""

    id: str
    side: Side
    type: UnitType
    strength: int
    designation: str
    hex: str | None = None
    arrives: int | None = None
    entry: list[str] = []
    movement_allowance: int | None = None  # None: the rule set's allowance for the unit type
    group: str | None = None  # Savage's Station 17.1: a group of the Reinforcement Table
    # The command the counter is marked with (Peachtree Creek 17.3: "Stewart's command (marked in
    # blue)", "Hardee's command (marked in red)"), read by a battle's movement_allocation; None: none.
    command: str | None = None
    # The unit's size as its counter shows it (Road to Vicksburg 19.4: "no more than one of those units is
    # brigade-sized", read by a battle's stacking ``at_most_one``); None: not given.
    size: UnitSize | None = None


class CombatResultsTable(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A game's Combat Results Table (1975: 7.6, printed in each game's exclusive rules folder).

    ``columns``: the odds, worst for the attacker first ("1-5" ... "6-1"); ``rows``: by die roll
    ("1".."6"), one result per column (Ae, Ar, Dr, De, Ex); ``provenance``: how the table was read."""

    columns: list[str]
    rows: dict[str, list[str]]
    provenance: str = ""


class ScenarioOption(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An optional rule or variant the battle's text prints (the Wilderness 20.1 Pickett's Division,
    20.2 General Burnside), chosen at game creation: ``Game(scenario, ruleset, {name: True})``.

    ``units``: units of the order of battle in play only with the option (20.1's reinforcements);
    ``replaces``: units out of play with the option, the ones its ``units`` stand in for (Fredericksburg
    17.2: Early's division, when his four brigades arrive "or the following units");
    ``exclusive``: exclusive-rule blocks in force only with it, each merged key by key over the
    battle's block of the same name (or added)."""

    title: str
    case: str
    units: list[str] = []
    replaces: list[str] = []
    exclusive: dict[str, dict] = {}


class Scenario(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A battle: turns, who moves first, the map, the units and the exclusive rules' parameters.

    ``exclusive`` holds each exclusive rule's parameters by name (for example ``movement_quota``), as
    the file writes them: the scenario's content hash is taken over them; each block is decoded into
    its typed component (rules/core/components) by ``rules.core.game.Game`` (``game.battle``) and
    checked by the loader; ``cases`` maps a rule set to the case numbers that its book gives those
    exclusive rules (Chattanooga's quota is 17.1 in the 1975 book and 18.1 in the revised one)."""

    id: str
    name: str
    rulesets: list[str]
    turns: int
    night_turns: list[int]
    first_player: Side
    map: Map
    units: list[Unit]
    exclusive: dict[str, dict] = {}
    cases: dict[str, dict[str, str]] = {}
    provenance: dict[str, str] = {}
    crt: CombatResultsTable | None = None  # None: the game has no table (no combat can be resolved)
    # Per rule set, exclusive rules' parameters that differ from ``exclusive`` under that rule set's
    # book: {"revised": {"victory": {"levels": [...]}}}; each block is merged key by key over the
    # block of the same name in ``exclusive`` (rules.core.components.battle.merged).
    exclusive_overrides: dict[str, dict[str, dict]] = {}
    # The battle's optional rules and variants, by name (scenario.toml ``[options.<name>]``).
    options: dict[str, ScenarioOption] = {}

    def played_with(self, options: dict) -> Scenario:
        """The scenario as a game with these game options plays it: the units of each option that is
        off taken out, and the units each option that is on replaces; the blocks of each option that is on merged over the battle's (in the order the
        scenario lists its options). Itself when it has no options."""
        if not self.options:
            return self
        on = [o for n, o in self.options.items() if options.get(n)]
        dropped = {u for n, o in self.options.items() if not options.get(n) for u in o.units}
        dropped |= {u for o in on for u in o.replaces}
        exclusive = dict(self.exclusive)
        for o in on:
            for name, block in o.exclusive.items():
                exclusive[name] = {**exclusive.get(name, {}), **block}
        return msgspec.structs.replace(
            self, units=[u for u in self.units if u.id not in dropped], exclusive=exclusive
        )

    def unit(self, unit_id: str) -> Unit:
        for u in self.units:
            if u.id == unit_id:
                return u
        raise KeyError(unit_id)


def scenario_hash(scenario: Scenario) -> str:
    """SHA-256 (hex) of the scenario's canonical encoding: changes whenever the battle does."""
    return hashlib.sha256(msgspec.msgpack.encode(scenario, order="deterministic")).hexdigest()
