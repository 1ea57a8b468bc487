"""The golden corpus: self-played games with fixed seeds whose events and state digests must never
change unless a ruling changes them on purpose.

Each game is summed up by the SHA-256 of every event's encoding in order (``events``) and the SHA-256
of the state digest after every command (``digests``): one byte of difference anywhere in a game
changes them. The games cover both rule sets, both computer players, and the two game options.

    python tests/rules/golden.py            # check the corpus (what tests/rules/test_golden.py does)
    python tests/rules/golden.py --write    # record it anew (only when a ruling changes games)

A ruling that changes games on purpose re-records the corpus in its own commit and names the games
whose lines changed.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from types import SimpleNamespace

from rules.rulesets import get as get_ruleset

CORPUS = Path(__file__).with_name("golden_corpus.json")

#: (rule set, players, options, seeds): 25 + 25 games per rule set with default options, and 5 + 5
#: with both options on.
GAMES = [
    (ruleset, players, options, seeds)
    for ruleset in ("classic", "revised")
    for players, options, seeds in (
        ("random", {}, range(1, 26)),
        ("greedy", {}, range(1, 26)),
        ("random", {"attack_effectiveness": True, "auto_single_choice": True}, range(101, 106)),
        ("greedy", {"attack_effectiveness": True, "auto_single_choice": True}, range(101, 106)),
    )
]


def _imports() -> SimpleNamespace:
    # The rules' entry points, in the one function that changes when a module moves.
    from players.selfplay import PLAYERS, play
    from rules.core.events import encode
    from rules.core.game import Game
    from rules.core.state import digest
    from rules.reducer import fold, new_game
    from scenarios.loader import load

    return SimpleNamespace(
        encode=encode,
        Game=Game,
        fold=fold,
        new_game=new_game,
        PLAYERS=PLAYERS,
        play=play,
        digest=digest,
        load=load,
    )


def record_game(start, players, seed: int) -> dict:
    """One game's line of the corpus."""
    r = _imports()
    events_hash = hashlib.sha256()
    digests_hash = hashlib.sha256()
    commands = events = 0
    final = start
    for before, _command, evs in r.play(start, random.Random(seed), 20_000, r.PLAYERS[players]):
        commands += 1
        for e in evs:
            events += 1
            events_hash.update(r.encode(e))
            events_hash.update(b"\n")
        final = r.fold(before, evs)
        digests_hash.update(r.digest(final).encode())
    return {
        "commands": commands,
        "events": events,
        "events_sha256": events_hash.hexdigest(),
        "digests_sha256": digests_hash.hexdigest(),
        "final_digest": r.digest(final),
        "turn": final.turn,
        "vp": dict(sorted(final.vp.items())),
    }


def corpus(progress=None) -> list[dict]:
    """Every game of ``GAMES`` played now."""
    r = _imports()
    scenario = r.load("chattanooga")
    out = []
    for ruleset, players, options, seeds in GAMES:
        start = r.new_game(r.Game(scenario, get_ruleset(ruleset), options))
        for seed in seeds:
            line = {"ruleset": ruleset, "players": players, "options": options, "seed": seed}
            line.update(record_game(start, players, seed))
            out.append(line)
            if progress:
                progress(line)
    return out


def differences(recorded: list[dict], now: list[dict]) -> list[str]:
    """The games whose line differs, named."""
    out = []
    if len(recorded) != len(now):
        out.append(f"{len(recorded)} games recorded, {len(now)} played")
    for old, new in zip(recorded, now, strict=False):
        if old != new:
            keys = [k for k in old if old.get(k) != new.get(k)]
            out.append(
                f"{old['ruleset']} {old['players']} {old['options']} seed {old['seed']}: {', '.join(keys)} differ"
            )
    return out


def main(argv: list[str]) -> int:
    now = corpus(
        lambda line: print(
            f"{line['ruleset']} {line['players']} seed {line['seed']}: {line['events']} events",
            file=sys.stderr,
        )
    )
    if "--write" in argv:
        CORPUS.write_text(json.dumps(now, indent=1) + "\n")
        print(f"wrote {len(now)} games to {CORPUS}")
        return 0
    diff = differences(json.loads(CORPUS.read_text()), now)
    for line in diff:
        print(line)
    print(f"{len(now)} games: {len(diff)} differ")
    return 1 if diff else 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    sys.exit(main(sys.argv[1:]))
