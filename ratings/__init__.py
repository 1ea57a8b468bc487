"""Players' ratings: a pure Glicko-2 rating system (glicko2.py) after Mark Glickman's "Example of
the Glicko-2 system" (glicko.net/glicko/glicko2.pdf, 2013), with no I/O, extended for Blue & Gray's
unbalanced battles by a side-aware expected score (an ``advantage`` per result, derived from a
battle's measured win rate by ``advantage_from_win_rate``), a deviation kept between a floor and
the unrated deviation, and a conservative rating (rating minus two deviations) for leaderboards."""
