"""Tournaments, pure: who meets whom (round robin, Swiss), the standings and their tiebreaks, the
duplicate pairs' dice, and a tournament's state as the fold of its own event log. Nothing here reads
or writes anything; the server's director (api/tournaments.py) records the events and starts the
games (docs/PROTOCOL.md, "Tournaments").

- `pairing`: the circle (Berger) round robin and the Swiss system;
- `standings`: points and tiebreaks;
- `dice`: the master seed's commitment, each pair's seed and nonce string;
- `records`: the tournament's events (msgspec, tagged on ``type``);
- `state`: the fold of those events.
"""
