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
        help="the scenarios that ship with bluegray: id and name; then the templates and what each needs",
        description="Print each shipped scenario's id and name, one per line; then, apart, each battle "
        "template (not playable until completed) with its count of missing items.",
    )
    p.add_argument("--data-dir", default="var", type=Path, help="also list the scenarios saved in this server's data directory (default ./var)")
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
        "complete",
        help="complete a battle template with a setup file into a playable scenario folder",
        description="Merge a template (scenarios/templates/) with an owner's setup.toml (the map, the units' "
        "hexes and strengths the template marks \"?\", docs/SCENARIOS.md \"Templates\"), validate the result, "
        "and write the playable scenario folder (the template's files and the setup) to --output. "
        "Prints ok and exits 0, or every problem and exits 1 (nothing written).",
    )
    p.add_argument("scenario", help="a template id (see `bluegray scenario list`) or a template folder")
    p.add_argument("--with", dest="setup", type=Path, required=True, help="the setup.toml supplying the missing items")
    p.add_argument("-o", "--output", type=Path, required=True, help="the folder to write (must not exist)")
    p.set_defaults(action_run=_complete)
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
    p = sub.add_parser(
        "export",
        help="write a scenario (shipped or saved) as one file: scenario, map and order of battle",
        description="Write the scenario as one JSON document (docs/SCENARIOS.md \"One file\"): what its "
        "scenario.toml, map.toml and oob.toml hold, checked by the validator first. ID is a shipped battle's "
        "id, or a scenario saved in --data-dir (NAME or NAME@HASH).",
    )
    p.add_argument("scenario", help="a scenario id, or a saved scenario's name")
    p.add_argument("--data-dir", default="var", type=Path, help="the server's data directory (default ./var)")
    p.set_defaults(action_run=_export)
    p = sub.add_parser(
        "import",
        help="validate a one-file scenario (TOML or JSON) and save it in the server's data directory",
        description="Read a scenario file (bluegray scenario export, or the editor's download), decode it with "
        "the strict schema, validate it, and save it under its name (or --name) and content hash in "
        "--data-dir/scenarios. A shipped battle is never overwritten: a file named like one is saved as a "
        "variant NAME-HASH8 deriving from it. Prints the reference NAME@HASH, or what is wrong (exit 1).",
    )
    p.add_argument("file", type=Path, help="the scenario file")
    p.add_argument("--name", help="save under this name (1-64 of a-z 0-9 - _)")
    p.add_argument("--data-dir", default="var", type=Path, help="the server's data directory (default ./var)")
    p.set_defaults(action_run=_import)


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
    from scenarios.loader import list_scenarios, list_templates

    for scenario_id, name in list_scenarios():
        print(f"{scenario_id}\t{name}")
    saved = _library(args.data_dir).saved()
    if saved:
        print()
        print(f"saved in {args.data_dir / 'scenarios'} (editor, bluegray scenario import):")
        for found in saved:
            origin = f"\tderived from {found.derived_from}" if found.derived_from else ""
            print(f"{found.name}\t{found.title}{origin}")
    templates = list_templates()
    if templates:
        print()
        print("templates (not playable until completed: bluegray scenario validate ID lists what each needs):")
        for scenario_id, name, missing, problems in templates:
            broken = f", {plural(len(problems), 'problem')}" if problems else ""
            print(f"{scenario_id}\t{name}\t{plural(len(missing), 'item')} to supply{broken}")
    return 0


def _refused(problems) -> int:
    """Every problem on stdout (the command's answer), their count on stderr; the exit status 1."""
    for problem in problems:
        print(problem)
    print(plural(len(problems), "problem"), file=sys.stderr)
    return 1


def _validate(args) -> int:
    """Every problem on stdout (the command's answer), their count on stderr."""
    from scenarios import template
    from scenarios.loader import ScenarioError, folder_of, load

    try:
        folder = folder_of(args.scenario)
    except ScenarioError as e:
        return _refused(e.problems)
    if template.is_template(folder) and not (folder / template.SETUP).is_file():
        problems, missing = template.check(folder)
        for problem in problems:
            print(problem)
        print(f"template: {plural(len(missing), 'item')} to supply")
        for item in missing:
            print(f"  {item}")
        if problems:
            print(plural(len(problems), "problem"), file=sys.stderr)
            return 1
        return 0
    try:
        load(folder)
    except ScenarioError as e:
        return _refused(e.problems)
    print("ok")
    return 0


def _complete(args) -> int:
    """Validate the template merged with the setup in a scratch folder; write --output only when sound."""
    import shutil
    import tempfile

    from scenarios import template
    from scenarios.loader import ScenarioError, folder_of, load
    from scenarios.source import FILES

    try:
        folder = folder_of(args.scenario)
    except ScenarioError as e:
        raise CommandError(one_line(e)) from None
    if not template.is_template(folder):
        raise CommandError(f"{args.scenario} is not a template (its scenario.toml has no [template] table)")
    if not args.setup.is_file():
        raise CommandError(f"cannot read {args.setup}")
    if args.output.exists():
        raise CommandError(f"{args.output} exists: give a new folder")
    with tempfile.TemporaryDirectory() as scratch:
        trial = Path(scratch) / folder.name
        trial.mkdir()
        for name in FILES:
            if (folder / name).is_file():
                shutil.copyfile(folder / name, trial / name)
        shutil.copyfile(args.setup, trial / template.SETUP)
        try:
            load(trial)
        except ScenarioError as e:
            return _refused(e.problems)
        try:
            shutil.copytree(trial, args.output)
        except OSError as exc:
            raise CommandError(f"cannot write {args.output}: {exc.strerror or exc}") from None
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


def _library(data_dir: Path):
    from scenarios.library import Library

    return Library(data_dir / "scenarios")


def _export(args) -> int:
    from scenarios import document
    from scenarios.library import LibraryError, export

    try:
        found = export(args.scenario, _library(args.data_dir))
    except LibraryError as exc:
        raise CommandError(f"{exc.code}: {exc.message}") from None
    sys.stdout.buffer.write(document.encode(found))
    return 0


def _import(args) -> int:
    from scenarios import document
    from scenarios.library import LibraryError

    try:
        size = args.file.stat().st_size
        if size > document.MAX_BYTES:
            raise LibraryError("too_large", f"{args.file} is {size} bytes; a scenario file may be at most {document.MAX_BYTES}")
        data = args.file.read_bytes()
    except OSError as exc:
        raise CommandError(f"cannot read {args.file}: {exc.strerror or exc}") from None
    except LibraryError as exc:
        raise CommandError(f"{exc.code}: {exc.message}") from None
    try:
        found = document.decode(data, args.file.name)
        saved = _library(args.data_dir).save(found, args.name)
    except document.DocumentError as exc:
        raise CommandError(f"{exc.code}: {exc.message}") from None
    except LibraryError as exc:
        for problem in exc.problems:
            print(f"{problem.location}: {problem.message}", file=sys.stderr)
        raise CommandError(f"{exc.code}: {exc.message}") from None
    except OSError as exc:
        raise CommandError(f"cannot write in {args.data_dir}: {exc.strerror or exc}") from None
    note = f" (a variant of {saved.derived_from}: a shipped battle is never overwritten)" if saved.variant else ""
    print(f"{saved.ref}{note}")
    return 0
