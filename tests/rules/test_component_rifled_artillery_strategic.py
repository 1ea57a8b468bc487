"""The rifled artillery component's ``bombard_after_strategic_movement`` (rules/core/components/
rifled_artillery.py) with Road to Vicksburg's Union artillery (003 19.2: "Union artillery may not bombard
after utilising Strategic Movement"), under the revised rules on a small clear map with a road up column 01
(0101-0108). 0403 is three hexes from 0103, four from 0101."""

from __future__ import annotations

import tomllib

import pytest
from combatmaps import to_phase

from rules.combat_choices import attack_options
from rules.core.commands import DeclareAttack, MoveUnit, StrategicMove
from rules.core.errors import RuleViolation
from rules.core.events import StrategicMovementUsed
from rules.core.game import Game
from rules.reducer import execute, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import TEMPLATES_DIR
from tests.rules.rulesmaps import rebel, scenario, sides, union

with (TEMPLATES_DIR / "road_to_vicksburg" / "scenario.toml").open("rb") as f:
    RIFLED = tomllib.load(f)["exclusive"]["rifled_artillery"]
COLUMN = [f"01{r:02d}" for r in range(1, 9)]
ROAD = sides({(a, b): {"road"} for a, b in zip(COLUMN, COLUMN[1:], strict=False)})
CASES = {"revised": {"rifled_artillery": "19.2", "rifled_artillery.strategic": "19.2"}}


def start(rifled=RIFLED):
    units = [union("gun", "0101", type_="artillery"), union("gun2", "0102", type_="artillery"), rebel("r", "0403")]
    sc = scenario(units, hexsides=ROAD, exclusive={"rifled_artillery": rifled}, cases=CASES)
    return new_game(Game(sc, get_ruleset("revised")))


def test_the_template_forbids_bombardment_after_strategic_movement_19_2():
    assert RIFLED["side"] == "union" and RIFLED["range"] == 4 and RIFLED["bombard_after_strategic_movement"] is False


def test_artillery_that_moved_by_strategic_movement_may_not_bombard_19_2():
    state = start()
    state, events = execute(state, StrategicMove("gun", ("0101", "0102", "0103")))
    assert [e.unit for e in events if isinstance(e, StrategicMovementUsed)] == ["gun"]
    state, _ = execute(state, MoveUnit("gun2", ("0102", "0103")))  # an ordinary move: it may bombard
    state = to_phase(state, "union", "combat")
    with pytest.raises(RuleViolation) as e:
        execute(state, DeclareAttack(("gun",), ("0403",)))
    assert e.value.case == "19.2"
    offered = {u for o in attack_options(state) for g in o.groups.values() if g.bombarding for u in g.units}
    assert "gun" not in offered and "gun2" in offered
    state, _ = execute(state, DeclareAttack(("gun2",), ("0403",)))  # three hexes: in range


def test_the_next_player_turn_it_bombards_again_19_2():
    state = start()
    state, _ = execute(state, StrategicMove("gun", ("0101", "0102", "0103")))
    for _ in range(2):
        state = to_phase(state, "confederate", "combat")
        state = to_phase(state, "union", "combat")
    execute(state, DeclareAttack(("gun",), ("0403",)))


def test_without_the_setting_strategic_movement_does_not_stop_bombardment_19_2():
    state = start({**RIFLED, "bombard_after_strategic_movement": True})
    state, events = execute(state, StrategicMove("gun", ("0101", "0102", "0103")))
    assert not [e for e in events if isinstance(e, StrategicMovementUsed)]
    state = to_phase(state, "union", "combat")
    execute(state, DeclareAttack(("gun",), ("0403",)))
