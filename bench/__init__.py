"""Bench: measuring the server from outside: the load tester and the soak (bots and spectators over
websockets against a `bluegray serve`), the benchmarks of `bluegray bench`, the command-line wiring of
those three commands (`bench/commands/`), and scripts run as `python bench/X.py` (self-play digests,
verify in a process, callgrind of the rules). It sits above `api/`: it drives the server and imports
it; nothing of the server imports it."""
