"""An in-memory game log for the replay tests: session actions sealed into envelopes the way the
store seals them, each folded at once into a `History` that checks every digest."""

from __future__ import annotations

import random

import msgspec

from eventstore.envelope import GENESIS, Envelope, NewEvent, seal
from players.selfplay import random_player
from rules import RULES_VERSION
from session import decide, dice
from session.games import GameCache
from session.history import History
from session.records import CommandApplied, GameCreated, SessionOptions

GAMES = GameCache()
SEED = bytes(range(32))


def created(game_id: str, options: SessionOptions | None = None, creator: str = "union") -> GameCreated:
    return GameCreated(
        game_id=game_id,
        rules_version=RULES_VERSION,
        server_version="test",
        scenario="chattanooga",
        scenario_hash=GAMES.scenario_hash("chattanooga"),
        ruleset="classic",
        options=options or SessionOptions(),
        dice="insecure",
        seed_hash=dice.seed_hash(SEED),
        insecure_seed=SEED.hex(),
        creator=creator,
    )


class Book:
    """One game's log in memory; `clock` (ms) stamps each appended event."""

    def __init__(self, game_id: str = "g1", options: SessionOptions | None = None, *, join: bool = True) -> None:
        self.game_id = game_id
        self.history = History(game_id, GAMES)
        self.envelopes: list[Envelope] = []
        self.clock = 1_700_000_000_000
        record = created(game_id, options)
        self.append(decide.create(record, GAMES.for_record(record), "creator-nonce"))
        if join:
            self.append(decide.join(self.history, "confederate", "joiner-nonce"))

    @property
    def state(self):
        return self.history.state

    @property
    def version(self) -> int:
        return self.history.version

    def append(self, events: list[NewEvent]) -> list[Envelope]:
        out = []
        for event in events:
            prev = self.envelopes[-1].hash if self.envelopes else GENESIS
            envelope = seal(event, version=len(self.envelopes) + 1, time=self.clock, prev=prev)
            self.history.apply(envelope, check_digest=True)
            self.envelopes.append(envelope)
            out.append(envelope)
        return out

    def play(self, command, seat: str | None = None) -> list[Envelope]:
        seat = seat or self.history.session.to_act
        return self.append(decide.command(self.history, seat, command, SEED))

    @classmethod
    def of_battle(cls, scenario: str, game_id: str, rules_options: dict | None = None) -> Book:
        """A game of ``scenario`` under the revised rules (``rules_options``: its optional rules),
        both seats joined."""
        book = cls.__new__(cls)
        book.game_id = game_id
        book.history = History(game_id, GAMES)
        book.envelopes = []
        book.clock = 1_700_000_000_000
        record = msgspec.structs.replace(
            created(game_id, SessionOptions()),
            scenario=scenario,
            scenario_hash=GAMES.scenario_hash(scenario),
            ruleset="revised",
            rules_options=rules_options or {},
        )
        book.append(decide.create(record, GAMES.for_record(record), "creator-nonce"))
        book.append(decide.join(book.history, "confederate", "joiner-nonce"))
        return book

    def play_random(self, rng: random.Random, n: int) -> None:
        """`n` random legal commands (fewer if the game ends)."""
        for _ in range(n):
            if self.history.finished:
                return
            self.play(random_player(self.state, rng))

    def move(self, rng: random.Random, n: int) -> None:
        """`n` random moves of the side to act (never ending the phase)."""
        for _ in range(n):
            self.play(random_player(self.state, rng, end_weight=0.0))

    def rolled(self, command, seat: str | None = None, rolls: tuple[int, ...] = (4,)) -> list[Envelope]:
        """A command recorded as if its decision had rolled `rolls` (for undo tests before any
        command of the rules rolls a die)."""
        seat = seat or self.history.session.to_act
        events = decide.command(self.history, seat, command, SEED)
        first = events[0]
        record = msgspec.json.decode(first.payload, type=CommandApplied)
        record = msgspec.structs.replace(record, rolls=list(rolls))
        events[0] = msgspec.structs.replace(first, payload=msgspec.json.encode(record))
        return self.append(events)
