"""The rules context of each game, built once: a `rules.core.game.Game` per scenario, rule set and options.

Building a `Game` (its movement and zone-of-control tables) takes tens of milliseconds, so every
game of one scenario, rule set and options shares one, across every `GameCache` of the process
(`_GAMES`, keyed by the scenario's content hash).

A `Game` holds 2-3 MiB of tables when built and up to about 11 MiB once its caches have filled
(`positions_seen`, at most 512 answers of about 9 KiB: rules/core/state.py `kept`; docs/PERFORMANCE.md
"Memory per game"), so both caches are LRUs of `KEPT_GAMES`: the `Game`s of a server's many
scenarios, rule sets and rules options (uploaded scenarios, each saved version its own) never
accumulate. A live game keeps its own `Game` while it is open, whether or not it is still here.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

import msgspec

from rules.core.game import Game
from rules.core.scenario import Scenario, scenario_hash
from rules.rulesets import get as get_ruleset
from session.records import GameCreated

#: At most this many `Game`s kept (the least recently used goes first), in `_GAMES` and in each
#: `GameCache`; and this many scenarios by id in each `GameCache` (`KEPT_SCENARIOS`).
KEPT_GAMES = 16
KEPT_SCENARIOS = 64

#: The `Game`s built in this process by (scenario content hash, rule set, options), the `KEPT_GAMES`
#: last used: building one takes tens of milliseconds, and a `Game` never changes.
_GAMES: OrderedDict[tuple[str, str, bytes], Game] = OrderedDict()
_GAMES_LOCK = threading.Lock()


def _kept(cache: OrderedDict, key, value, size: int):
    """``cache[key]``, set to ``value`` if it has none; the least recently used beyond ``size`` dropped."""
    found = cache.setdefault(key, value)
    cache.move_to_end(key)
    while len(cache) > size:
        cache.popitem(last=False)
    return found


class GameCache:
    """Scenarios by id and `Game`s by (scenario, rule set, options), loaded on first use."""

    def __init__(self, load: Callable[[str], Scenario] | None = None, pin: Callable[[str], str] | None = None) -> None:
        """``load``: a scenario by reference (default: the shipped battles, scenarios/loader.py);
        ``pin``: the reference a new game records (a saved scenario's ``NAME@HASH``, scenarios/library.py)."""
        if load is None:
            from scenarios.loader import load
        assert load is not None  # given, or the shipped battles' (mypy does not follow the import)
        self._load = load
        self._pin = pin
        self._scenarios: OrderedDict[str, tuple[Scenario, str]] = OrderedDict()  # KEPT_SCENARIOS
        self._games: OrderedDict[tuple[str, str, bytes], Game] = OrderedDict()  # KEPT_GAMES
        self._lock = threading.Lock()

    def pinned(self, scenario_id: str) -> str:
        """The reference a game created now on ``scenario_id`` records: exactly this content."""
        return self._pin(scenario_id) if self._pin is not None else scenario_id

    def scenario(self, scenario_id: str) -> Scenario:
        """The scenario (raises scenarios.loader.ScenarioError for an unknown or broken one)."""
        return self._scenario(scenario_id)[0]

    def scenario_hash(self, scenario_id: str) -> str:
        """The content hash of the scenario as it is now (`session.records.scenario_hash`)."""
        return self._scenario(scenario_id)[1]

    def _scenario(self, scenario_id: str) -> tuple[Scenario, str]:
        with self._lock:
            found = self._scenarios.get(scenario_id)
            if found is not None:
                self._scenarios.move_to_end(scenario_id)
        if found is None:
            scenario = self._load(scenario_id)
            found = (scenario, scenario_hash(scenario))
            with self._lock:
                found = _kept(self._scenarios, scenario_id, found, KEPT_SCENARIOS)
        return found

    def game(self, scenario_id: str, ruleset: str, options: dict | None = None) -> Game:
        """The shared `Game` of this scenario, rule set and rules options: one per process for each
        content of the scenario (`_GAMES`, by its content hash)."""
        encoded = msgspec.json.encode(options or {}, order="deterministic")
        key = (scenario_id, ruleset, encoded)
        with self._lock:
            game = self._games.get(key)
            if game is not None:
                self._games.move_to_end(key)
        if game is None:
            scenario, content = self._scenario(scenario_id)
            shared = (content, ruleset, encoded)
            with _GAMES_LOCK:
                game = _GAMES.get(shared)
            if game is None:
                game = Game(scenario, get_ruleset(ruleset), options)
            with _GAMES_LOCK:
                game = _kept(_GAMES, shared, game, KEPT_GAMES)
            with self._lock:
                game = _kept(self._games, key, game, KEPT_GAMES)
        return game

    def for_record(self, created: GameCreated) -> Game:
        """The `Game` a `game_created` record describes."""
        return self.game(created.scenario, created.ruleset, dict(created.rules_options))

    def matches(self, created: GameCreated) -> bool:
        """Is the scenario still the one the game was created with (same content hash)?"""
        return self.scenario_hash(created.scenario) == created.scenario_hash
