"""Pairings worked by hand: the circle round robin for 4 and 5 players, Swiss rounds for 5 and 6
(tournaments/pairing.py)."""

from itertools import combinations

from tournaments.pairing import round_robin, swiss_round


def test_a_round_robin_of_four_by_the_circle_method():
    # circle A B C D; the first stays, the others turn; his pairing swaps order every other round
    assert round_robin("ABCD") == [
        ([("A", "D"), ("B", "C")], None),
        ([("C", "A"), ("D", "B")], None),
        ([("A", "B"), ("C", "D")], None),
    ]


def test_a_round_robin_of_five_gives_each_player_one_bye_and_every_meeting_once():
    rounds = round_robin("ABCDE")
    assert rounds == [
        ([("B", "E"), ("C", "D")], "A"),
        ([("E", "A"), ("B", "C")], "D"),
        ([("A", "D"), ("E", "C")], "B"),
        ([("C", "A"), ("D", "B")], "E"),
        ([("A", "B"), ("D", "E")], "C"),
    ]
    met = sorted("".join(sorted(p)) for pairs, _ in rounds for p in pairs)
    assert met == ["".join(p) for p in combinations("ABCDE", 2)]
    assert sorted(bye for _, bye in rounds) == list("ABCDE")


def test_swiss_round_one_of_six_pairs_the_top_half_against_the_bottom_half():
    assert swiss_round("ABCDEF", {}, [], []) == ([("A", "D"), ("B", "E"), ("C", "F")], None)


def test_swiss_round_two_of_six_avoids_a_rematch_in_a_score_group():
    # after A beat D, E beat B, C drew F: A 1, E 1 | C 1/2, F 1/2 | B 0, D 0. The groups would pair
    # C-F again; the nearest pairing without a rematch takes C-B and F-D.
    scores = {"A": 1, "E": 1, "C": 0.5, "F": 0.5, "B": 0, "D": 0}
    met = [frozenset("AD"), frozenset("BE"), frozenset("CF")]
    assert swiss_round("ABCDEF", scores, met, []) == ([("A", "E"), ("C", "B"), ("F", "D")], None)


def test_swiss_round_two_of_six_without_a_rematch_keeps_the_score_groups():
    # A beat D, B beat E, C beat F: A B C 1 | D E F 0: top half v bottom half in each group of three
    # would leave one over: C floats down to D E F's group.
    scores = {"A": 1, "B": 1, "C": 1, "D": 0, "E": 0, "F": 0}
    met = [frozenset("AD"), frozenset("BE"), frozenset("CF")]
    assert swiss_round("ABCDEF", scores, met, []) == ([("A", "B"), ("C", "E"), ("D", "F")], None)


def test_swiss_with_five_gives_the_bye_to_the_lowest_ranked_without_one():
    assert swiss_round("ABCDE", {}, [], []) == ([("A", "C"), ("B", "D")], "E")
    # round 2: E (bye, 1 point) and A, B won; E has had the bye, so the lowest ranked without one, D,
    # takes it. A B E (1) is a group of three: E floats down to C, and A meets B.
    scores = {"A": 1, "B": 1, "E": 1, "C": 0, "D": 0}
    pairs, bye = swiss_round("ABCDE", scores, [frozenset("AC"), frozenset("BD")], ["E"])
    assert bye == "D"
    assert pairs == [("A", "B"), ("E", "C")]
