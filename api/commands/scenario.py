"""`bluegray scenario ...`: list the battles, validate a scenario folder, show it, draw its map."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from api.commands._errors import CommandError
from api.commands._text import plural

NAME = "scenario"
HELP = (
    "List, validate, show (text or JSON) and render (SVG) scenarios: map, order of battle, exclusive rules."
)

TARGET_HELP = "a scenario id (see `bluegray scenario list`) or the path of a scenario folder"


def add_arguments(parser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    p = sub.add_parser(
        "list",
        help="the scenarios that ship with bluegray: id and name",
        description="Print each shipped scenario's id and name, one per line.",
    )
    p.set_defaults(action_run=_list)
    p = sub.add_parser(
        "validate",
        help="check a scenario; print ok (exit 0) or every problem (exit 1)",
        description="Check a scenario folder (scenario.toml, map.toml, oob.toml). Prints `ok` and exits 0, "
        "or prints one problem per line as FILE:LINE: WHAT: REASON and exits 1.",
    )
    p.add_argument("scenario", help=TARGET_HELP)
    p.set_defaults(action_run=_validate)
    p = sub.add_parser(
        "show",
        help="describe a scenario (readable text, or --json)",
        description="Describe a scenario: a readable summary, or with --json the whole scenario as JSON "
        "(turns, night_turns, first_player, map.hexes, map.hexsides, units, ...).",
    )
    p.add_argument("scenario", help=TARGET_HELP)
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.set_defaults(action_run=_show)
    p = sub.add_parser(
        "render",
        help="draw the map as SVG (to stdout or --output)",
        description="Draw the scenario's map as SVG: hex numbers, terrain colours and patterns, hexside "
        "features, and the units at start. Writes to stdout unless --output is given.",
    )
    p.add_argument("scenario", help=TARGET_HELP)
    p.add_argument("-o", "--output", type=Path, help="write the SVG to this file")
    p.add_argument(
        "--ruleset",
        choices=("classic", "revised"),
        default=None,
        help="the rule set whose Terrain Effects Chart the legend gives (default: the scenario's first rule set)",
    )
    p.set_defaults(action_run=_render)


def run(args) -> int:
    return args.action_run(args)


def one_line(error) -> str:
    """A ScenarioError in one line: its first problem, and how many more `scenario validate` lists."""
    first = str(error.problems[0]) if error.problems else str(error)
    more = len(error.problems) - 1
    return (
        f"{first} (and {plural(more, 'more problem')}: bluegray scenario validate lists them)"
        if more > 0
        else first
    )


def _load(target: str):
    """The scenario; a CommandError naming its (first) problem."""
    from scenarios.loader import ScenarioError, load

    try:
        return load(target)
    except ScenarioError as e:
        raise CommandError(one_line(e)) from None


def _list(args) -> int:
    from scenarios.loader import list_scenarios

    for scenario_id, name in list_scenarios():
        print(f"{scenario_id}\t{name}")
    return 0


def _validate(args) -> int:
    """Every problem on stdout (the command's answer), their count on stderr."""
    from scenarios.loader import ScenarioError, load

    try:
        load(args.scenario)
    except ScenarioError as e:
        for problem in e.problems:
            print(problem)
        print(plural(len(e.problems), "problem"), file=sys.stderr)
        return 1
    print("ok")
    return 0


def _show(args) -> int:
    from scenarios.describe import as_dict, summary

    scenario = _load(args.scenario)
    print(json.dumps(as_dict(scenario), indent=1) if args.json else summary(scenario))
    return 0


def _render(args) -> int:
    from rules.rulesets import get as get_ruleset
    from scenarios.render import render

    scenario = _load(args.scenario)
    svg = render(scenario, get_ruleset(args.ruleset or scenario.rulesets[0]))
    if args.output:
        try:
            args.output.write_text(svg, encoding="utf-8")
        except OSError as exc:
            raise CommandError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    else:
        sys.stdout.write(svg)
    return 0
