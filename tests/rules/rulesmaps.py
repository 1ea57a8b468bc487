"""Small custom maps and games for the rules tests: each test builds the exact situation it checks."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

from rules.core.game import Game
from rules.core.hexes import hex_number, hexside
from rules.core.scenario import CombatResultsTable, Hexside, Map, Scenario, Unit
from rules.core.state import State
from rules.reducer import new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import build_crt

CHATTANOOGA = Path(__file__).resolve().parents[2] / "scenarios" / "chattanooga" / "scenario.toml"


@cache
def chattanooga_crt() -> CombatResultsTable:
    """The Chattanooga Combat Results Table (7.6), the table the small maps fight with."""
    with CHATTANOOGA.open("rb") as f:
        return build_crt(tomllib.load(f)["crt"])


def board(columns: int = 8, rows: int = 8, terrain: dict[str, str] | None = None, default: str = "clear") -> dict:
    """Every hex of a rectangle of ``columns`` x ``rows`` (from 0101), clear unless told."""
    hexes = {hex_number(c, r): default for c in range(1, columns + 1) for r in range(1, rows + 1)}
    hexes.update(terrain or {})
    return hexes


def sides(spec: dict[tuple[str, str], set[str] | frozenset[str]]) -> dict[str, Hexside]:
    """{("0101", "0102"): {"creek", "ford"}} -> the map's hexsides."""
    return {hexside(a, b): Hexside(features=frozenset(f)) for (a, b), f in spec.items()}


def unit(uid: str, side: str, hex_: str | None, type_: str = "infantry", strength: int = 4, **kw) -> Unit:
    return Unit(id=uid, side=side, type=type_, strength=strength, designation=kw.pop("designation", uid), hex=hex_, **kw)


def union(uid: str, hex_: str | None, **kw) -> Unit:
    return unit(uid, "union", hex_, **kw)


def rebel(uid: str, hex_: str | None, **kw) -> Unit:
    return unit(uid, "confederate", hex_, **kw)


def scenario(
    units: list[Unit],
    hexes: dict | None = None,
    hexsides: dict | None = None,
    turns: int = 3,
    night_turns: list[int] | None = None,
    first_player: str = "union",
    exclusive: dict | None = None,
    cases: dict | None = None,
    crt: CombatResultsTable | None = None,
    areas: dict[str, list[str]] | None = None,
) -> Scenario:
    return Scenario(
        id="test",
        name="Test",
        rulesets=["classic"],
        turns=turns,
        night_turns=night_turns or [],
        first_player=first_player,
        map=Map(
            lower_columns="even", hexes=hexes if hexes is not None else board(), hexsides=hexsides or {}, areas=areas or {}
        ),
        units=units,
        exclusive=exclusive or {},
        cases=cases or {},
        crt=crt or chattanooga_crt(),
    )


def start(units: list[Unit], options: dict | None = None, **kw) -> State:
    """A new game on a small map (see ``scenario``), with game ``options``."""
    return new_game(Game(scenario(units, **kw), get_ruleset("classic"), options))
