"""Standings worked by hand (tournaments/standings.py): points, Sonneborn-Berger, the duplicate
pairs' victory-point margin, Buchholz, head-to-head, entry order."""

from tournaments.standings import Played, standings


def order(lines):
    return [s.player for s in lines]


def test_a_round_robin_of_four_ordered_by_points_then_sonneborn_berger():
    games = [
        Played(union="A", confederate="D", winner="union"),  # round 1
        Played(union="B", confederate="C", winner=None),
        Played(union="C", confederate="A", winner="union"),  # round 2
        Played(union="D", confederate="B", winner="confederate"),
        Played(union="A", confederate="B", winner="union"),  # round 3
        Played(union="C", confederate="D", winner="confederate"),
    ]
    lines = standings("ABCD", games)
    # A 2; B and C 1 1/2 each: SB of C = 1/2 x 1 1/2 (B) + 1 x 2 (A) = 2 3/4, of B = 3/4 + 1 x 1 (D)
    assert order(lines) == ["A", "C", "B", "D"]
    assert [(s.points, s.sonneborn_berger) for s in lines] == [(2, 2.5), (1.5, 2.75), (1.5, 1.75), (1, 1.5)]
    assert [s.place for s in lines] == [1, 2, 3, 4]


def test_head_to_head_orders_players_equal_on_points_and_sonneborn_berger():
    # P beat Q, Q beat R, R beat S: P and Q have 1 point and SB 1 each; P beat Q. Q entered first.
    games = [
        Played(union="P", confederate="Q", winner="union"),
        Played(union="Q", confederate="R", winner="union"),
        Played(union="R", confederate="S", winner="union"),
    ]
    lines = standings("QPRS", games)
    assert order(lines) == ["P", "Q", "R", "S"]
    assert (lines[0].head_to_head, lines[1].head_to_head) == (1, 0)


def test_a_duplicate_pair_is_decided_by_its_victory_point_margin_before_entry_order():
    # each won his Union game: 1 point each, SB 1 each. A won 10-2 and lost 1-3: margin +6; B -6.
    games = [
        Played(union="A", confederate="B", winner="union", vp={"union": 10, "confederate": 2}),
        Played(union="B", confederate="A", winner="union", vp={"union": 3, "confederate": 1}),
    ]
    assert order(standings("BA", games, duplicate=True)) == ["A", "B"]
    assert [s.vp_margin for s in standings("BA", games, duplicate=True)] == [6, -6]
    # not a duplicate tournament: the margin counts for nothing; head-to-head 1 each; entry order
    assert order(standings("BA", games)) == ["B", "A"]


def test_buchholz_breaks_a_swiss_tie_sonneborn_berger_leaves():
    # 5 players, Swiss, two rounds: A beat C, B beat D (E's bye); C beat B, D beat E (A idle).
    games = [
        Played(union="A", confederate="C", winner="union"),
        Played(union="C", confederate="B", winner="union"),
        Played(union="B", confederate="D", winner="union"),
        Played(union="D", confederate="E", winner="union"),
    ]
    lines = standings("ABCDE", games, [("E", 1.0)], swiss=True)
    points = {s.player: s.points for s in lines}
    assert points == {"A": 1, "B": 1, "C": 1, "D": 1, "E": 1}
    # SB: A 1 (C), B 1 (D), C 1 (B), D 1 (E), E 0. Buchholz: A 1; B 1 + 1 = 2; C 1 + 1 = 2; D 2; E 1.
    # B, C, D equal so far; head-to-head among them: B 1 (D), C 1 (B), D 0; then entry order: B, C.
    assert [(s.player, s.sonneborn_berger, s.buchholz) for s in lines] == [
        ("B", 1, 2), ("C", 1, 2), ("D", 1, 2), ("A", 1, 1), ("E", 0, 1)
    ]


def test_a_double_loss_scores_nothing_for_either_player():
    lines = standings("AB", [Played(union="A", confederate="B", double_loss=True)])
    assert [(s.player, s.points, s.games) for s in lines] == [("A", 0, 1), ("B", 0, 1)]
