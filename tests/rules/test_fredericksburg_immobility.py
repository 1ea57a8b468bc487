"""Fredericksburg 19.0, 19.1: the east-bank Union artillery and cavalry immobile until released (19.11 a
Union exit at 2501 or 2027, 19.12 a Confederate unit occupying a pontoon bridge or ford hex, 19.13 a
Confederate unit within three hexes), the ``immobility`` component, on small revised maps (8 x 8, even
columns lower) with the battle's parameters, and on the battle's map."""

from __future__ import annotations

from combatmaps import of_type, refused, to_phase
from rulesmaps import rebel, scenario, union

from rules.core import terrain
from rules.core.commands import EndPhase, ExitMap, MoveUnit
from rules.core.events import ImmobilityReleased, UnitAdvanced, UnitRetreated
from rules.core.game import Game
from rules.procedures.restrictions import release_immobile
from rules.reducer import execute, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load

FREDERICKSBURG = load("fredericksburg")
CASES = {"revised": dict(FREDERICKSBURG.cases["revised"])}
EAST = ["0101", "0102"]  # the small map's "east bank" set-up hexes


def block(**releases):
    """The battle's block with the small map's set-up hexes and only the releases asked for."""
    base = {k: v for k, v in FREDERICKSBURG.exclusive["immobility"].items() if not k.startswith("released_by")}
    return {**base, "hexes": EAST, **releases}


def units():
    return [
        union("gun", "0101", type_="artillery"),  # immobile: artillery set up on the east bank
        union("cav", "0102", type_="cavalry"),  # immobile: cavalry set up there
        union("inf", "0103"),  # infantry: free (19.0 names artillery and cavalry)
        union("west", "0108", type_="artillery"),  # artillery set up elsewhere: free
    ]


def start(extra, first_player="union", **exclusive):
    sc = scenario([*units(), *extra], exclusive=exclusive, cases=CASES, turns=11, first_player=first_player)
    return new_game(Game(sc, get_ruleset("revised")))


def test_the_east_bank_artillery_and_cavalry_may_not_move():
    # 19.0: "all Union artillery and cavalry units starting the game on the eastern side of the
    # Rappahannock River may not move until released"
    state = start([rebel("far", "0808")], immobility=block())
    error = refused(state, MoveUnit("gun", ("0101", "0201")))
    assert error.case == "19.1" and "may not move until released" in str(error)
    assert refused(state, MoveUnit("cav", ("0102", "0202"))).case == "19.1"
    state, _ = execute(state, MoveUnit("inf", ("0103", "0203")))
    state, _ = execute(state, MoveUnit("west", ("0108", "0208")))
    # nor by leaving the map (21.3): its exit is a move
    state = start([rebel("far", "0808")], immobility=block(), exits={"hexes": ["0101"], "cost": 1})
    assert refused(state, ExitMap("gun", ("0101",))).case == "19.1"


def test_a_union_exit_at_2501_or_2027_releases_them_all():
    # 19.11: "released from immobility as soon as any Union unit exits the map sheet from hexes 2501 or
    # 2027" (here 0801 stands for them); an exit elsewhere (0501, as 0113) releases nothing
    extra = [union("e1", "0502"), union("e2", "0702"), rebel("far", "0808")]
    exits = {"hexes": ["0501", "0801"], "cost": 1}
    state = start(extra, immobility=block(released_by_exit_at=["0801"]), exits=exits)
    state, events = execute(state, ExitMap("e1", ("0502", "0501")))
    assert of_type(events, ImmobilityReleased) == []
    state, events = execute(state, ExitMap("e2", ("0702", "0801")))
    (released,) = of_type(events, ImmobilityReleased)
    assert (released.units, released.cause, released.unit, released.hex, released.case) == (
        ["cav", "gun"], "exit", "e2", "0801", "19.11")
    state, _ = execute(state, MoveUnit("gun", ("0101", "0201")))  # released at once, in the same phase
    state, _ = execute(state, MoveUnit("cav", ("0102", "0202")))


def test_a_confederate_unit_occupying_a_pontoon_or_ford_hex_releases_them_all():
    # 19.12: "as soon as a Confederate unit occupies a pontoon bridge or ford hex": occupation is 21.21's,
    # so a move through the hex (here 0606, standing for one; no unit ends its move in a pontoon or ford
    # hex) occupies it
    state = start([rebel("r", "0807")], first_player="confederate", immobility=block(released_by_enemy_occupying=["0606"]))
    assert "0606" in state.control  # tracked
    state, events = execute(state, MoveUnit("r", ("0807", "0707", "0606", "0605")))
    (released,) = of_type(events, ImmobilityReleased)
    assert (released.units, released.cause, released.unit, released.hex, released.case) == (
        ["cav", "gun"], "occupation", "r", "0606", "19.12")
    state = to_phase(state, "union", "movement")
    state, _ = execute(state, MoveUnit("gun", ("0101", "0201")))


def test_elsewhere_nothing_is_released():
    # 19.11-19.13: a Confederate move that occupies no such hex and comes no nearer than four hexes
    state = start([rebel("r", "0808")], first_player="confederate", immobility=block(
        released_by_enemy_occupying=["0606"], released_by_enemy_within=3))
    state, events = execute(state, MoveUnit("r", ("0808", "0708", "0608", "0508")))
    assert of_type(events, ImmobilityReleased) == []
    assert min(state.game.grid.distance(h, "0102") for h in ("0808", "0708", "0608", "0508")) > 3
    state = to_phase(state, "union", "movement")
    assert refused(state, MoveUnit("gun", ("0101", "0201"))).case == "19.1"


def test_a_confederate_unit_within_three_hexes_releases_that_unit_only():
    # 19.13: "Each individual cavalry and artillery unit can be released from immobility if a Confederate
    # unit comes within three hexes of the immobile unit"
    state = start([rebel("r", "0505")], first_player="confederate", immobility=block(released_by_enemy_within=3))
    grid = state.game.grid
    assert (grid.distance("0304", "0102"), grid.distance("0304", "0101")) == (3, 4)
    state, events = execute(state, MoveUnit("r", ("0505", "0404", "0304")))
    (released,) = of_type(events, ImmobilityReleased)
    assert (released.units, released.cause, released.unit, released.case) == (["cav"], "within", "r", "19.13")
    state = to_phase(state, "union", "movement")
    state, _ = execute(state, MoveUnit("cav", ("0102", "0202")))
    assert refused(state, MoveUnit("gun", ("0101", "0201"))).case == "19.1"
    # released for good: the Confederate moving away again changes nothing
    state = to_phase(state, "confederate", "movement")
    state, _ = execute(state, MoveUnit("r", ("0304", "0404", "0505")))
    state = to_phase(state, "union", "movement")
    state, _ = execute(state, MoveUnit("cav", ("0202", "0302")))


def test_passing_within_three_hexes_releases_too():
    # 19.13 "comes within three hexes": a move that passes within range and ends beyond it (Ruling)
    state = start([rebel("r", "0505")], first_player="confederate", immobility=block(released_by_enemy_within=3))
    grid = state.game.grid
    path = ("0505", "0404", "0304", "0305")
    assert grid.distance("0304", "0102") == 3 and min(grid.distance(h, "0102") for h in ("0505", "0404", "0305")) > 3
    state, events = execute(state, MoveUnit("r", path))
    (released,) = of_type(events, ImmobilityReleased)
    assert "cav" in released.units


def test_an_advance_or_retreat_releases_too():
    # 19.12, 19.13: "This release ... can result from movement, or advance or retreat in prospect of or
    # after combat": the hook sees the command's retreat or advance like a move
    state = start([rebel("r", "0404")], first_player="confederate", immobility=block(
        released_by_enemy_within=3, released_by_enemy_occupying=["0203"]))
    for event in (UnitAdvanced(unit="r", path=("0404", "0304")), UnitRetreated(unit="r", path=("0404", "0304"))):
        after = state.copy()
        after.positions = {**state.positions, "r": "0304"}
        (released,) = release_immobile(state, [event], after)
        assert released.cause == "within" and "cav" in released.units
    after = state.copy()
    after.positions = {**state.positions, "r": "0203"}
    after.control = {**state.control, "0203": "confederate"}
    (released,) = release_immobile(state, [UnitRetreated(unit="r", path=("0304", "0203"))], after)
    assert (released.cause, released.hex, released.units) == ("occupation", "0203", ["cav", "gun"])


def test_the_battle_binds_the_east_bank_artillery_and_cavalry():
    # 19.0 on the battle's map: the ten artillery and cavalry units set up east of the river (1/C/L and LGd
    # start on the west bank at 1603); 19.12's hexes are the map's pontoon and ford (river ferry) hexes;
    # 19.11's the exits 2501, 2027; 19.13's range three
    game = Game(FREDERICKSBURG, get_ruleset("revised"))
    rule = game.battle.immobility
    bound = sorted(u.designation for u in game.scenario.units if rule.binds(u))
    assert bound == sorted(["1/C/C", "1/C/R", "2/C/R", "R", "RC", "LC", "L", "RGd", "III", "V"])
    hexes = game.scenario.map.hexes
    crossings = sorted(h for h, t in hexes.items() if t in (terrain.PONTOON, terrain.FERRY))
    assert sorted(rule.released_by_enemy_occupying) == crossings == ["0322", "0327", "0412", "0610", "0909", "1305"]
    assert rule.released_by_exit_at == ["2501", "2027"] and rule.released_by_enemy_within == 3
    state = new_game(game)
    assert state.released == set()
    state = to_phase(state, "union", "movement")
    assert refused(state, MoveUnit("us-art-rc", ("0411", "0412"))).case == "19.1"


def test_end_phase_with_immobile_units_is_allowed():
    # 19.1 binds moving, never the phase: the Union may end it with them unmoved
    state = start([rebel("far", "0808")], immobility=block())
    state, _ = execute(state, EndPhase())
    assert state.phase != "movement"
