"""`bluegray report GAME_ID|FILE [--html out.html] [--json]`: the after-action report of a game
(replay/report.py): losses, victory points, every combat, the luck ledger, undo requests, time per
player-turn; as a summary, as JSON, or as a self-contained HTML page."""

from __future__ import annotations

import sys
from pathlib import Path

from api.commands._args import at_least
from api.commands._errors import CommandError
from api.commands._store import add_store_arguments, game_path, games_for, read_game
from api.commands._text import plural

NAME = "report"
HELP = "The after-action report of a game: losses, victory points, every combat and its luck; text, JSON or an HTML page."


def add_arguments(parser) -> None:
    parser.add_argument(
        "game", metavar="GAME_ID|FILE", help="a game id in the store, or an exported JSON Lines log"
    )
    parser.add_argument(
        "--to", type=at_least(1), metavar="VERSION", help="report on versions 1..VERSION only"
    )
    parser.add_argument("--html", type=Path, metavar="OUT.html", help="write the report as an HTML page")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument(
        "--engine",
        choices=["union", "confederate"],
        help="add the computer's eye for this side: the engine's evaluation over the game and its preferred "
        "alternative at each of the side's decisions (takes seconds: every decision is searched)",
    )
    parser.add_argument(
        "--level", default="normal", choices=["easy", "normal", "hard", "expert"],
        help="the computer's level (default normal; expert searches each Movement Phase: slower)",
    )
    add_store_arguments(parser)


def run(args) -> int:
    from replay import report as report_module

    game_id, envelopes = read_game(args, args.to)
    games = games_for(args, envelopes, game_path(args))
    report = report_module.build(game_id, envelopes, games)
    review = text = None
    if args.engine:
        from api.engine_review import computer_review

        print(f"report: the engine ({args.level}) weighs every {args.engine} decision ...", file=sys.stderr, flush=True)
        review, text = computer_review(game_id, envelopes, games, args.engine, args.level)
    if args.html:
        from replay.report_html import render_page, review_section

        engine = review_section(review, report.version, text) if review is not None else ""
        try:
            args.html.write_text(render_page(report, games.scenario(report.scenario), engine), encoding="utf-8")
        except OSError as exc:
            raise CommandError(f"cannot write {args.html}: {exc.strerror or exc}") from None
        print(f"wrote {args.html}", file=sys.stderr)
    if args.json:
        sys.stdout.write(report_module.encode(report).decode() + "\n")
    elif not args.html:
        _print(report)
        if review is not None:
            _print_review(review, text)
    return 0


def _print_review(review, text) -> None:
    """The computer's eye as text: the evaluation at the end of each Game-Turn, then the decisions
    where the engine prefers another, the costliest first."""
    from replay.textrecord import side_name

    print(f"  the computer's eye ({review.level}) for the {side_name(review.side)}: evaluation at each Game-Turn's end, Union ahead +")
    last_of_turn: dict[int, float] = {}
    for p in review.points:
        last_of_turn[p.turn] = p.union
    scale = max([abs(v) for v in last_of_turn.values()] + [1.0])
    for turn, value in last_of_turn.items():
        bar = "#" * round(20 * abs(value) / scale)
        print(f"    GT{turn:<3d} {value:+8.1f} {'U ' + bar if value >= 0 else 'C ' + bar}")
    print("    turning points (the evaluation's largest drops for this side; the Player-Turn's start to fork at):")
    for n, t in enumerate(review.turning_points, start=1):
        print(
            f"    {n}. v{t.version} GT{t.turn} {side_name(t.phasing)} Player-Turn, by the {side_name(t.by)}: "
            f"{t.change:+g}; the Player-Turn starts after v{t.turn_start}"
        )
    differ = sorted((d for d in review.decisions if d.best is not None), key=lambda d: -d.loss)
    print(f"    the engine prefers another command at {len(differ)} of {len(review.decisions)} decisions:")
    for d in differ[:15]:
        print(
            f"    v{d.version:<5d} GT{d.turn} {d.phase}: played {text(d.played)} ({d.played_score:+g}); "
            f"the engine: {text(d.best)} ({d.best_score:+g}, {d.loss:g} better)"
        )


def _print(r) -> None:
    from replay.textrecord import side_name

    state = (
        f"finished: {r.finished.reason}" + (f", {r.finished.result}" if r.finished.result else "")
        if r.finished
        else (f"in progress: Game-Turn {r.turn}, {r.phase}")
    )
    print(
        f"{r.scenario_name}, game {r.game_id}{' [sandbox]' if r.sandbox else ''}: {state} (versions 1-{r.version})"
    )
    for side in ("union", "confederate"):
        units = sum(t.units[side] for t in r.losses_by_turn)
        sp = sum(t.strength[side] for t in r.losses_by_turn)
        luck = r.luck[side]
        pct = "-" if luck.percentile is None else f"{round(luck.percentile * 100)}%"
        print(
            f"  {side_name(side):12s} {r.vp[side]:3d} VP, lost {plural(units, 'unit')} ({sp} SP); luck {pct} over "
            f"{plural(luck.combats, 'combat')}; expected losses {luck.expected_losses:g} SP, actual {luck.actual_losses} SP"
        )
    print(
        f"  {plural(len(r.combats), 'combat')}, {plural(len(r.undo), 'undo request')}, "
        f"{plural(len(r.player_turns), 'player-turn')}"
    )
    for c in r.combats:
        print(
            f"    v{c.version:<5d} GT{c.turn} {side_name(c.attacker)}: {c.attack} to {c.defence} "
            f"({c.odds_before_terrain} before terrain, {c.odds}, resolved {c.column}), die {c.die}: {c.result}; "
            f"P(it or better) {round(c.luck.p_result_or_better * 100)}%"
        )
