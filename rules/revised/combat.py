"""Revised combat strengths and terrain (003: 8.3, 8.4, 9.19, 9.48, 9.53, 9.65, 10.1, 10.2, 11.23, 12.2).

Strength modification (8.32, the Charts' "Combat Strength Adjustment"): each unit's strength is adjusted
in the order range, morale, terrain, each stage rounded to the nearest integer (0.5 up: rules/core/arith.py)
and never below 1 (8.32, 10.22, 12.24); then the strengths are summed and the attacker's total adjusted
for night (11.23), rounded to the nearest again.

- Range (stage 1): artillery bombarding at three hexes loses one-third (9.19, 9.25); artillery making an
  adjacent attack gains one-half "before Terrain adjustments" (9.48); gunboats neither (9.65). Ruling: the
  defensive bonus of artillery (9.53: one-half, when the attack includes adjacent units and the battery
  is not Routed and is stacked with or adjacent to friendly infantry or cavalry) is applied at this same
  first stage, as the like bonus of 9.48 is.
- Morale (stage 2): ``rules.revised.morale.attack_factor`` / ``defence_factor`` (12.21-12.23).
- Terrain (stage 3): an attacking unit is halved when it attacks into a halving hex or over a halving
  hexside of any hex it attacks (8.41, 8.43, 10.21, 10.24), never more than once (10.22); artillery is not
  halved over water obstacles (8.47, 9.16, 9.23, 9.45: stream, bridge, ford hexsides).
- Odds column shifts (8.42, 8.44, 10.23-10.27): a shift to the left counts only when every attacking unit
  is subject to it for at least one defending hex (10.23); the defender takes the most favourable (8.44,
  10.25), the attacker the most favourable shift to the right (10.26), and the net applies (10.27).
  8.45: the forest shift is instead of any other terrain benefit: where the defender could have both, he
  chooses (``terrain_options`` gives both options).

Rulings (docs/RULINGS.md, "Revised rule set"): non-adjacent (bombarding) artillery is subject to the terrain of the
hex it bombards but crosses no hexside: hexside halving and hexside shifts neither apply to it nor are
spoiled by it (10.38 says so for breastworks; the classic ruling for redoubts is kept).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from rules.core.arith import nearest
from rules.revised import morale as morale_

# 10.1 Terrain Effects Chart, "Combat effect if attacking over or defender is in". Terrain names as
# rules/core/terrain.py spells them (the names the revised map may add are spelled the same way).
HALVING_HEX = frozenset({"rough", "forest_rough", "swamp", "sunken_road"})
HALVING_HEXSIDE = frozenset({"stream", "bridge", "ford", "slope", "trench", "redoubt", "entrenchment"})
WATER_HEXSIDE = frozenset({"stream", "bridge", "ford"})  # 8.47: artillery is not halved over these
DIRECTIONAL = frozenset({"redoubt", "entrenchment", "trench"})  # only from the enemy (barbed) side, 8.46
LEFT_SHIFT_HEX = {"forest": 1, "town": 1, "fort": 2}
LEFT_SHIFT_HEXSIDE = {"redoubt": 1, "entrenchment": 1, "breastworks": 1}
RIGHT_SHIFT_HEX = {"bridge_hex": 2, "ford_hex": 1}  # the defender is in a bridge or ford hex
FOREST = "forest"

ONE, HALF, TWO_THIRDS, ONE_AND_A_HALF = Fraction(1), Fraction(1, 2), Fraction(2, 3), Fraction(3, 2)
NIGHT_FACTOR = {1: Fraction(2), 2: Fraction(1), 3: Fraction(1), 4: Fraction(1, 2), 5: Fraction(1, 2), 6: Fraction(1, 2)}


def stage(strength: int, factor: Fraction | int = 1) -> int:
    """8.32: one stage of adjustment: ``strength`` times ``factor``, rounded to the nearest (0.5 up),
    never below 1."""
    if factor == 1:  # most stages change nothing: no fraction to round
        return max(1, strength)
    return max(1, nearest(strength * factor))


def adjusted(printed: int, *, range_factor: Fraction | int = 1, morale_factor: Fraction | int = 1, halved: bool = False) -> int:
    """8.32: a unit's strength after range, morale and terrain, rounded at each stage, at least 1.

    >>> adjusted(5, halved=True)  # 8.41: "a 5 attacking into rough is 3"
    3
    """
    s = stage(printed, range_factor)
    s = stage(s, morale_factor)
    return stage(s, HALF if halved else 1)


def night_total(total: int, die: int) -> int:
    """11.23: the attack's total doubled (1), unaffected (2-3) or halved (4-6), to the nearest."""
    return nearest(total * NIGHT_FACTOR[die])


def range_factor(kind: str, distance: int, adjacent_attack: bool, gunboat_types: Iterable[str] = ("gunboat",)) -> Fraction:
    """Stage 1 for an attacking unit: 9.19/9.25 (artillery at three hexes: -1/3), 9.48 (adjacent: +1/2),
    9.65 (gunboats: neither)."""
    if kind in gunboat_types or kind != "artillery":
        return ONE
    if adjacent_attack:
        return ONE_AND_A_HALF
    if distance >= 3:
        return TWO_THIRDS
    return ONE


@dataclass(frozen=True)
class TerrainOption:
    """One way the terrain may count in an attack (8.45: the defender's choice when there are two).

    ``name``: "terrain" (halving and the best shift other than forest) or "forest" (8.45: one shift
    left instead of any other benefit); ``halved``: the attacking units halved; ``shift``: the net odds
    column shift (negative: to the left, 10.27)."""

    name: str
    halved: frozenset[str]
    shift: int


@dataclass(frozen=True)
class Attacker:
    """An attacking unit for the terrain: its hex, whether it attacks from an adjacent hex (else it
    bombards from range and crosses no hexside), whether it is artillery (8.47)."""

    unit: str
    hex: str
    adjacent: bool
    artillery: bool


def terrain_options(
    attackers: Iterable[Attacker],
    defenders: Iterable[str],
    terrain: Mapping[str, str],
    hexside_of,
    right_shift: int = 0,
    why: dict | None = None,
) -> list[TerrainOption]:
    """The terrain's effect on an attack (8.4, 10.2): one option, or two when 8.45's forest choice
    arises (the defender picks; the first is the one that halves).

    ``hexside_of(a, d)`` gives the features of hexside a-d and the hex on its enemy (barbed) side:
    ``(frozenset, barbed_hex | None)``. ``right_shift``: shifts to the right the attacker has (10.26).
    ``why``, when given, is filled with the reasons (for a breakdown): ``why["halved"][unit]`` the first
    terrain that halves each halved unit, as (terrain, defending hex, over a hexside); ``why["left"]`` the
    terrain of the left shift applied.
    """
    attackers = list(attackers)
    defenders = list(defenders)
    halved: set[str] = set()
    # for each kind of left shift (other than forest), the units subject to it (10.23)
    subject: dict[str, set[str]] = {}
    forest_subject: set[str] = set()
    for a in attackers:
        for d in defenders:
            kind = terrain.get(d, "")
            if kind in HALVING_HEX:
                halved.add(a.unit)
                if why is not None:
                    why.setdefault("halved", {}).setdefault(a.unit, (kind, d, False))
            if kind == FOREST:
                forest_subject.add(a.unit)
            elif kind in LEFT_SHIFT_HEX:
                subject.setdefault(kind, set()).add(a.unit)
            if not a.adjacent:
                continue  # Ruling: bombardment crosses no hexside
            features, barbed = hexside_of(a.hex, d)
            for f in features:
                if f in DIRECTIONAL and barbed != a.hex:
                    continue  # 8.46: only from the enemy side
                if f in HALVING_HEXSIDE and not (a.artillery and f in WATER_HEXSIDE):
                    halved.add(a.unit)
                    if why is not None:
                        why.setdefault("halved", {}).setdefault(a.unit, (f, d, True))
                if f in LEFT_SHIFT_HEXSIDE:
                    subject.setdefault(f, set()).add(a.unit)
    everyone = {a.unit for a in attackers}
    adjacent = {a.unit for a in attackers if a.adjacent}
    shares = {
        k: LEFT_SHIFT_HEX[k] if k in LEFT_SHIFT_HEX else LEFT_SHIFT_HEXSIDE[k]
        for k, us in subject.items()
        if (us >= everyone if k in LEFT_SHIFT_HEX else (adjacent and us >= adjacent))
    }
    left = max(shares.values(), default=0)
    if why is not None and left:
        why["left"] = min(k for k, n in shares.items() if n == left)
    options = [TerrainOption("terrain", frozenset(halved), right_shift - left)]
    if everyone and forest_subject >= everyone:
        forest = TerrainOption(FOREST, frozenset(), right_shift - 1)
        if not halved and left <= 1:
            return [forest]  # nothing else to give up: the forest shift is simply the benefit
        options.append(forest)
    return options


def defence_factor(level: str, artillery: bool, supported: bool, adjacent_attack: bool) -> tuple[Fraction, Fraction]:
    """Stage 1 and stage 2 for a defending unit: 9.53 (artillery +1/2 when the attack includes adjacent
    units, the battery is not Routed (12.36) and is supported by friendly infantry or cavalry) and the
    morale factor (12.22, 12.23)."""
    bonus = ONE_AND_A_HALF if artillery and supported and adjacent_attack and level != morale_.ROUTED else ONE
    return bonus, morale_.defence_factor(level)
