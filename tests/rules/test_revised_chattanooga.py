"""Chattanooga under the revised 2nd edition (003, Chattanooga 15.0-23.0): the deployment charts 16.1,
16.2 and 17.1 equal the 1975 ones the order of battle follows, the revised levels of victory 21.2,
night 18.2, reinforcements held back (17.1 with 5.0-5.5 and 18.12), the quota 18.11-18.15, and the
parameters the combat half reads (19.14, 12.17)."""

from collections import Counter

import msgspec
import pytest

from rules.core.commands import EndPhase, EnterReinforcement, MoveUnit
from rules.core.components.artillery import Artillery
from rules.core.components.night_movement import NightMovement
from rules.core.errors import RuleViolation
from rules.core.game import Game
from rules.legal import choices
from rules.procedures.victory import level_of
from rules.reducer import decide, execute, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load

# 003 16.1, 16.2 and 17.1 as printed (hex, strength and type: "a" artillery, "c" cavalry; "la" is
# read "1a"), designations as printed ("Reynold", "Bate").
UNION_16_1 = """1704 5 1/2/XV; 1604 5 2/2/XV; 1705 4 1/2/XVII; 1605 4 2/2/XVII; 1506 4 3/2/XVII; 1606 5 1/4/XV;
1507 5 2/4/XV; 1304 1a Sherman; 1204 6 1/2/XIV; 0907 6c 2; 0807 4c 3; 1712 3 1/3/XI; 1713 6 1/3/IV;
1714 6 2/3/IV; 1715 6 3/3/IV; 1717 5 1/1/XIV; 1718 5 2/1/XIV; 1611 3 2/3/XI; 1612 4 1/2/XI; 1614 6 1/2/IV;
1615 6 2/2/IV; 1618 5 3/1/XIV; 1513 4 2/2/XI; 1514 3 3/3/XI; 1514 4a XI; 1518 6 1/3/XIV; 1519 6 2/3/XIV;
1417 4a XII; 1419 6 3/3/XIV; 1320 6 1/2/XIV; 1220 6 2/2/XIV; 1214 5a XIV; 1016 5a Reserve; 0921 4a XV;
0522 5 1/1/XV; 0524 5 2/1/XV; 0425 9 1/1/IV; 0426 9 2/1/IV"""
CONFEDERATE_16_2 = """2004 3 Liddell; 2305 5 Polk; 2305 4 Wright; 2106 5 Smith; 2207 2a Calvert; 2109 5 Lowrey;
2209 1a Martin; 2110 5 Wilson; 2210 5 Gist; 2311 4 Vaughan; 2312 4 Anderson; 2412 1a Hindman; 2313 5 Deas;
2413 3 Adams; 2314 3 Manigault; 2315 3 Lewis; 2415 1a Slocumb; 2316 4 Bate; 2317 1a Cobb; 2317 3 Finley;
2318 5 Quarles; 2418 2a Reserve; 2321 2a Smith; 2219 4 Reynold; 2121 3 Strahl; 2021 5 Stovall;
2023 2a Sanford; 1822 4 Cumming; 1723 5 Jackson; 1523 4 Brown; 1323 3 Maney; 1222 5 Moore; 1124 5 Pettus;
1025 1a Corput; 0926 4 Clayton; 0724 3 Walthall"""
REINFORCEMENTS_17_1 = ["1/2/XII", "2/2/XII", "3/2/XII"]  # 4 each, Game-Turn Two, 0427, 0528, 0627, 0728
SPELLING = {"Bates": "Bate"}  # the 1975 counter's name, as 003 prints it


def chart(text: str) -> Counter:
    out = Counter()
    for entry in text.replace("\n", " ").split(";"):
        hex_, st, name = entry.split(maxsplit=2)
        kind = {"a": "artillery", "c": "cavalry"}.get(st[-1], "infantry")
        out[(hex_, int(st.rstrip("ac")), kind, name.strip())] += 1
    return out


def test_revised_deployment_chart_equals_the_order_of_battle_16_1_16_2_17_1():
    # 16.0, 16.1, 16.2, 17.0, 17.1
    sc = load("chattanooga")
    for side, text in (("union", UNION_16_1), ("confederate", CONFEDERATE_16_2)):
        ours = Counter(
            (u.hex, u.strength, u.type, SPELLING.get(u.designation, u.designation))
            for u in sc.units
            if u.side == side and u.hex is not None
        )
        assert ours == chart(text)
    late = [u for u in sc.units if u.arrives is not None]
    assert sorted(u.designation for u in late) == REINFORCEMENTS_17_1
    assert all(u.arrives == 2 and u.strength == 4 and u.entry == ["0427", "0528", "0627", "0728"] for u in late)
    assert sc.turns == 10 and sc.night_turns == [5] and sc.first_player == "union"  # 16.3, 16.4


@pytest.fixture(scope="module")
def revised() -> Game:
    return Game(load("chattanooga"), get_ruleset("revised"))


@pytest.mark.parametrize(
    ("differential", "level"),
    [
        (31, "Union Decisive Victory"),
        (30, "Union Substantive Victory"),
        (21, "Union Substantive Victory"),
        (20, "Union Marginal Victory"),
        (11, "Union Marginal Victory"),
        (10, "Draw"),
        (-10, "Draw"),
        (-11, "Confederate Marginal Victory"),
        (-21, "Confederate Substantive Victory"),
        (-31, "Confederate Decisive Victory"),
    ],
)
def test_revised_levels_of_victory_21_2(revised, differential, level):
    assert level_of(revised, differential) == level


def test_classic_levels_stay_20_2():
    assert level_of(Game(load("chattanooga"), get_ruleset("classic")), 26) == "Union Decisive Victory"
    assert level_of(Game(load("chattanooga"), get_ruleset("classic")), 10) == "Union Marginal Victory"


def test_revised_case_numbers_of_the_exclusive_rules_18_14(revised):
    assert revised.case("movement_quota") == "18.11"
    assert revised.case("movement_quota.bonus") == "18.14"
    assert revised.case("control") == "18.15"
    assert revised.case("exclusive_night_movement") == "18.2"
    assert revised.case("victory.levels") == "21.2"
    assert revised.case("leave_enemy_zoc") == "6.13"


def test_parameters_for_the_combat_half_19_14_12_17(revised):
    assert revised.battle.artillery == Artillery(case_9_18=False)  # 19.14: 9.18 does not apply
    assert revised.battle.town_disorders.area == "chattanooga_town"  # 12.17
    assert Game(load("chattanooga"), get_ruleset("classic")).battle.artillery == Artillery(case_9_18=True)


def to_turn(state, turn, side="union"):
    while (state.turn, state.phasing, state.phase) != (turn, side, "movement"):
        state, _ = execute(state, EndPhase())
    return state


def refused(state, command) -> str:
    with pytest.raises(RuleViolation) as e:
        decide(state, command)
    return e.value.case


def test_night_no_union_unit_may_move_18_2(revised):
    state = to_turn(new_game(revised), 5)
    assert refused(state, MoveUnit("us-1-2-xv", ("1704", "1703"))) == "18.2"
    assert choices(state).moves == {}


def test_night_confederates_may_enter_enemy_zones_18_2_11_12(revised):
    # 18.2, 18.16 (no extraordinary Confederate limitation), 11.12
    state = to_turn(new_game(revised), 5, "confederate")
    assert revised.battle.night_movement == NightMovement(immobile_sides=["union"])
    from rules.procedures.movement import reachable
    from rules.queries.zoc import enemy_controlled

    ezoc = enemy_controlled(state, "confederate")
    entered = [u for u in choices(state).moves if set(reachable(state, u).ends) & ezoc]
    assert entered  # at least one Confederate unit may end its night move in a Union zone


def test_reinforcements_may_be_held_back_and_are_not_lost_17_1_5_0_5_3(revised):
    # 17.1 with 5.0 (held back at his discretion) and 5.3
    state = to_turn(new_game(revised), 2)
    state = to_turn(state, 3)
    assert not state.eliminated  # none lost for not entering on Game-Turn Two (no 15.12 in 003)
    assert set(choices(state).reinforcements) == {"us-1-2-xii", "us-2-2-xii", "us-3-2-xii"}


def test_held_back_reinforcements_stay_exempt_from_the_quota_until_game_turn_five_18_12(revised):
    quota = revised.battle.movement_quota
    state = to_turn(new_game(revised), 3)
    state, _ = execute(state, EnterReinforcement("us-1-2-xii", ("0427",)))
    assert not quota.counts(state, "us-1-2-xii")
    state = to_turn(state, 5 + 1)
    assert quota.counts(state, "us-1-2-xii")


def test_column_of_stacks_at_one_entry_hex_5_0(revised):
    from rules.procedures.reinforcements import entry_cost

    state = to_turn(new_game(revised), 2)
    first = entry_cost(state, "0528", "us-1-2-xii")
    state, _ = execute(state, EnterReinforcement("us-1-2-xii", ("0528",)))
    assert entry_cost(state, "0528", "us-2-2-xii") == first  # the first stack: two units
    state, _ = execute(state, EnterReinforcement("us-2-2-xii", ("0528", "0527")))
    assert entry_cost(state, "0528", "us-3-2-xii") == first + 1  # the second stack pays one more
    assert entry_cost(state, "0427", "us-3-2-xii") == entry_cost(new_game(revised), "0427", "us-3-2-xii")  # per hex


def test_a_reinforcement_held_back_by_choice_enters_later_only_at_its_entry_hexes_5_0_5_5(revised):
    from rules.procedures.reinforcements import entry_hexes

    # 5.0 "He may hold back Reinforcements ... at his discretion": the entry hexes were open on
    # Game-Turn 2, so 5.5's wider choice ("cannot move on to the map") does not apply on Game-Turn 3.
    on_time = to_turn(new_game(revised), 2)
    late = to_turn(on_time, 3)
    assert entry_hexes(on_time, "us-1-2-xii") == ["0427", "0528", "0627", "0728"]
    assert "us-1-2-xii" not in late.blocked
    assert entry_hexes(late, "us-1-2-xii") == ["0427", "0528", "0627", "0728"]


def test_a_reinforcement_that_could_not_enter_may_enter_within_three_hexes_of_its_entry_hexes_5_5(revised):
    from rules.procedures.reinforcements import entry_hexes

    # 5.5: every entry hex enemy-occupied (5.12) through the Union Movement Phase of Game-Turn 2
    on_time = to_turn(new_game(revised), 2)
    rebels = [u.id for u in revised.scenario.units if u.side == "confederate" and u.id in on_time.positions][:4]
    back = {u: on_time.positions[u] for u in rebels}
    for unit, hex_ in zip(rebels, ("0427", "0528", "0627", "0728"), strict=True):
        on_time.positions[unit] = hex_
    ended, _ = execute(on_time, EndPhase())
    assert "us-1-2-xii" in ended.blocked
    ended.positions.update(back)  # the blockers gone again: the wider choice stays with the unit
    late = to_turn(ended, 3)
    extra = set(entry_hexes(late, "us-1-2-xii")) - {"0427", "0528", "0627", "0728"}
    grid = revised.grid
    assert extra and all(min(grid.distance(h, e) for e in ("0427", "0528", "0627", "0728")) <= 3 for h in extra)
    assert all(len(revised.neighbours[h]) < 6 for h in extra)  # map-edge hexes


def test_revised_start_3_0_and_player_sequence_16_3(revised):
    # 3.0: the units of the Initial Deployment Chart are on their hexes at the start; the rest wait;
    # 16.3: the Union player moves first; 4.0: a Game-Turn of two Player-Turns, Movement then Combat.
    state = new_game(revised)
    assert len(state.positions) == 74 and (state.turn, state.phasing, state.phase) == (1, "union", "movement")
    state, _ = execute(state, EndPhase())
    assert (state.phasing, state.phase) == ("union", "combat")


def test_quota_of_eleven_and_seven_more_with_1025_18_11_18_14(revised):
    # 18.0, 18.1, 18.11, 18.14
    state = new_game(revised)
    legal = choices(state)
    movers = [u for u in legal.moves if u != "us-sherman-art"]
    assert len(movers) > 11
    moved = 0
    for unit in movers:
        if moved == 11:
            break
        dests = choices(state).moves.get(unit)
        if not dests:
            continue
        state, _ = execute(state, MoveUnit(unit, next(iter(dests.values())).path))
        moved += 1
    rest = [u for u in movers if u not in state.moved]
    here = state.positions[rest[0]]
    step = next(iter(state.game.steps[here]))[0]
    assert refused(state, MoveUnit(rest[0], (here, step))) == "18.11"  # 1025 is Confederate: no bonus (18.14)
    assert revised.battle.movement_quota.bonus_units == 7 and revised.battle.movement_quota.bonus_hex == "1025"


def test_union_artillery_may_not_move_but_sherman_may_19_11_19_13(revised):
    # 19.0, 19.1, 19.11, 19.13
    state = new_game(revised)
    assert refused(state, MoveUnit("us-xi-art", ("1514", "1515"))) == "19.11"
    assert "us-sherman-art" in choices(state).moves  # 19.13
    assert not any(state.game.units[u].type == "artillery" and u != "us-sherman-art" for u in choices(state).moves)


def test_ferries_only_along_their_arrows_and_never_ended_in_20_21_20_22(revised):
    state = new_game(revised)
    assert revised.battle.ferries.hexes == ["1305", "1013", "0814", "0517"]  # 20.21
    assert all(h not in revised.ferry_hexes for d in choices(state).moves.values() for h in d)  # 20.22
    assert refused(state, MoveUnit("us-sherman-art", ("1304", "1305"))) == "20.22"


def test_victory_points_schedule_is_the_1975_one_21_1_21_11_21_12(revised):
    # 21.11 i-iii and 21.12 i-ii award what 20.11/20.12 award: the same parameters, the same code
    classic = Game(load("chattanooga"), get_ruleset("classic")).battle.victory
    ours = revised.battle.victory
    assert msgspec.structs.replace(ours, levels=[]) == msgspec.structs.replace(classic, levels=[])
    assert ours.per_enemy_unit_eliminated == {"confederate": 3, "union": 2}
    assert ours.first_control.hexes == ["1514", "1417"] and ours.last_control.hexes == ["2207", "2311", "2416", "2419"]


def test_a_revised_game_ends_with_a_level_of_victory_21_0_21_2(revised):
    # 21.0, 21.2
    import random

    from players.selfplay import PLAYERS, refereed_game

    final, log, referee = refereed_game(new_game(revised), random.Random(7), PLAYERS["greedy"])
    assert final.game_over and final.result in {lv.level for lv in revised.battle.victory.levels}


def test_game_creation_picks_the_rule_set_and_the_scenario_names_it():
    sc = load("chattanooga")
    assert sc.rulesets == ["classic", "revised"]
    state = new_game(sc, "revised", {"auto_single_choice": True})
    assert state.ruleset == "revised" and state.game.ruleset.name == "revised" and state.options == {"auto_single_choice": True}
    assert state.game.movement_allowance("us-cav-2") == 8  # 2.4 under the revised rules; 6 under 1975's
    assert new_game(sc).game.movement_allowance("us-cav-2") == 6


def test_selfplay_command_line_under_the_revised_rules(capsys):
    import json

    from api.cli import main

    assert main(["selfplay", "chattanooga", "--ruleset", "revised", "--games", "1", "--seed", "3", "--json"]) == 0
    (line,) = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert line["turns"] == 10 and line["result"]


def test_redoubt_hexsides_cost_no_movement_20_0_20_1(revised):
    # 20.0, 20.1: Union fortifications and Confederate rifle pits are equal "in terms of defensive and movement
    # cost purposes"; 10.1 "Redoubt hex side: Other Terrain" (no extra cost; the defence: 8.46)
    from rules.revised.movement import hex_cost

    sides = revised.scenario.map.hexsides
    redoubts = [k for k, v in sides.items() if "redoubt" in v.features and len(v.features) == 1]
    assert redoubts
    for key in redoubts[:20]:
        a, b = key.split("|")
        if (a, b) in revised.step_cost:
            assert revised.step_cost[(a, b)] == hex_cost(revised, "infantry", b)
