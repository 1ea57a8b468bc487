"""`bluegray replay GAME_ID|FILE [--to VERSION] [--json]`: the state of a game at a version (units by
hex, Game-Turn, phase, victory points), from the snapshot at or before it and the fold of the rest.
FILE is an exported log (JSON Lines, `bluegray export`)."""

from __future__ import annotations

import sys

from api.commands._args import at_least
from api.commands._errors import CommandError
from api.commands._store import add_store_arguments, game_path, games_for, read_game

NAME = "replay"
HELP = "Show a game's state at any version (units by hex, turn, phase, victory points), from the store or an exported file."


def add_arguments(parser) -> None:
    parser.add_argument(
        "game", metavar="GAME_ID|FILE", help="a game id in the store, or an exported JSON Lines log"
    )
    parser.add_argument(
        "--to", type=at_least(1), metavar="VERSION", help="the version to show (default: the last)"
    )
    parser.add_argument("--json", action="store_true", help="print the state as JSON")
    add_store_arguments(parser)


def run(args) -> int:
    import msgspec

    from replay.seek import Replay

    game_id, envelopes = read_game(args)
    version = len(envelopes) if args.to is None else args.to
    if version > len(envelopes):
        raise CommandError(f"--to {version}: game {game_id} has versions 1 to {len(envelopes)}")
    replay = Replay(game_id, games_for(args, envelopes, game_path(args)), envelopes)
    view = describe(replay, version)
    if args.json:
        sys.stdout.write(msgspec.json.encode(view).decode() + "\n")
    else:
        _print(view)
    return 0


def describe(replay, version: int) -> dict:
    """The state at `version` as people read it."""
    history = replay.at(version)
    state = history.state
    game = history.game
    place = replay.timeline.place(version)
    by_hex: dict[str, list[dict]] = {}
    for unit, hex_ in sorted(state.positions.items()):
        u = game.units[unit]
        by_hex.setdefault(hex_, []).append(
            {"id": unit, "designation": u.designation, "side": u.side, "strength": u.strength}
        )
    s = history.session
    return {
        "game_id": history.game_id,
        "version": version,
        "of": replay.version,
        "undone": place.undone,
        "sandbox": s.created.fork is not None,
        "turn": state.turn,
        "phasing": state.phasing,
        "phase": state.phase,
        "to_act": s.to_act,
        "vp": dict(state.vp),
        "pending": [d.__struct_config__.tag for d in state.pending],
        "units_by_hex": dict(sorted(by_hex.items())),
        "eliminated": sorted(state.eliminated),
        "finished": s.finished.result or s.finished.reason if s.finished else None,
    }


def _print(view: dict) -> None:
    marks = " (UNDONE: taken back later)" if view["undone"] else ""
    sandbox = " [sandbox]" if view["sandbox"] else ""
    print(f"game {view['game_id']}{sandbox}, version {view['version']} of {view['of']}{marks}")
    print(
        f"  Game-Turn {view['turn']}, {view['phasing']} {view['phase']} phase; to act: {view['to_act'] or '-'}"
    )
    print("  victory points: " + ", ".join(f"{k} {v}" for k, v in sorted(view["vp"].items())) or "-")
    if view["pending"]:
        print("  pending: " + ", ".join(view["pending"]))
    if view["finished"]:
        print(f"  finished: {view['finished']}")
    print(f"  units on the map ({sum(len(v) for v in view['units_by_hex'].values())}):")
    for hex_, units in view["units_by_hex"].items():
        print(
            f"    {hex_}: "
            + ", ".join(f"{u['designation']} ({u['side'][0].upper()}{u['strength']})" for u in units)
        )
    if view["eliminated"]:
        print(f"  eliminated ({len(view['eliminated'])}): " + ", ".join(view["eliminated"]))
