"""The Victory Point schedule and levels component (rules/core/components/victory.py; Chattanooga
20.11-20.2), asked directly; the awards themselves: test_victory.py."""

from rules.core.components.victory import HexPoints, Level, VictoryPoints


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
