"""The Victory Point schedule and levels component (rules/core/components/victory.py; Chattanooga
20.11-20.2), asked directly; the awards themselves: test_victory.py."""

from rules.core.components.victory import HexPoints, Level, Occupied, VictoryPoints


def test_victory_levels_by_the_differential_with_open_bounds_20_2():
    points = VictoryPoints(
        levels=[
            Level(level="Union", min=6),
            Level(level="Draw", min=-5, max=5),
            Level(level="Confederate", max=-6),
        ]
    )
    assert [points.level_of(d) for d in (100, 6, 5, -5, -6, -100)] == [
        "Union",
        "Union",
        "Draw",
        "Draw",
        "Confederate",
        "Confederate",
    ]
    assert VictoryPoints().level_of(0) is None


def test_victory_schedule_points_and_tracked_hexes_20_11_20_12():
    points = VictoryPoints(
        per_enemy_unit_eliminated={"confederate": 3},
        first_control=HexPoints(side="confederate", hexes=["1514"], points_each=4),
        last_control=HexPoints(side="union", hexes=["2207", "2311"], points_each=4),
    )
    assert (points.for_elimination("confederate"), points.for_elimination("union")) == (
        3,
        0,
    )  # 20.11 (1), (3)
    assert points.tracked_hexes() == ("1514", "2207", "2311")  # 17.15


def test_a_level_may_ask_that_a_side_occupy_hexes_at_the_end_shiloh_18_2():
    # Shiloh 18.2: a level may ask that a side occupy hexes at the end (18.31, control); the first
    # level whose conditions all hold is the game's, by the ratio or by the differential
    held = Occupied(side="union", hexes=["1508"])
    by_ratio = VictoryPoints(
        ratio_of=["union", "confederate"],
        levels=[
            Level(level="2:1 holding", at_least="2:1", occupied=held),
            Level(level="above 1:2", above="1:2"),
            Level(level="else"),
        ],
    )
    union_holds, confederate_holds = {"1508": "union"}, {"1508": "confederate"}
    assert by_ratio.level_for({"union": 10, "confederate": 5}, union_holds) == "2:1 holding"
    assert by_ratio.level_for({"union": 10, "confederate": 5}, confederate_holds) == "above 1:2"
    assert by_ratio.level_for({"union": 10, "confederate": 5}) == "above 1:2"  # nobody: not held
    assert by_ratio.level_for({"union": 9, "confederate": 5}, union_holds) == "above 1:2"  # 9:5 < 2:1
    assert by_ratio.level_for({"union": 5, "confederate": 10}, union_holds) == "else"  # exactly 1:2
    assert by_ratio.tracked_hexes() == ("1508",)  # 18.31: the occupied hexes are tracked
    by_differential = VictoryPoints(levels=[Level(level="holding", min=0, occupied=held), Level(level="else")])
    assert by_differential.level_for({"union": 3, "confederate": 1}, union_holds) == "holding"
    assert by_differential.level_for({"union": 3, "confederate": 1}, confederate_holds) == "else"
