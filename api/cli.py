"""The `bluegray` command line.

Each subcommand lives in its own module under `api/commands/`, or under `bench/commands/` for the
commands that measure the server from outside (bench, loadtest, soak), and defines:
  NAME (str), HELP (one line), add_arguments(parser) and run(args) -> int (the exit code).
New subcommands are found automatically, so adding one never touches this file.

Every failure a user can cause ends the same way: one line on stderr, `bluegray COMMAND: what was
wrong`, and exit status 1, never a traceback: a bad argument (the parser's `error`), and any
`CommandError` a subcommand raises.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from importlib import metadata

from api.commands._errors import CommandError
from rules import RULES_VERSION

#: The packages whose public modules are the subcommands, by name: `bench/` sits above `api/` (it
#: drives the server and imports it), so the server names its commands' package and imports nothing
#: of it, as it has always found its own commands (by name, `importlib`).
COMMAND_PACKAGES = ("api.commands", "bench.commands")


def package_version() -> str:
    try:
        return metadata.version("bluegray")
    except metadata.PackageNotFoundError:  # running from a source tree that was never installed
        return "0+unknown"


def discover(package) -> list:
    """Every public module of ``package`` that defines NAME, sorted by NAME (subcommands, benchmarks)."""
    modules = [
        importlib.import_module(f"{package.__name__}.{info.name}")
        for info in pkgutil.iter_modules(package.__path__)
        if not info.name.startswith("_")
    ]
    return sorted(modules, key=lambda m: m.NAME)


def command_modules() -> list:
    """Every subcommand module, sorted by its command name."""
    modules = [m for name in COMMAND_PACKAGES for m in discover(importlib.import_module(name))]
    return sorted(modules, key=lambda m: m.NAME)


class Parser(argparse.ArgumentParser):
    """argparse's parser, whose refusal is one line and exit status 1 (argparse prints the usage and
    exits 2); `bluegray COMMAND --help` still shows the usage. Subcommands' parsers are of this class."""

    def error(self, message: str):
        self.exit(1, f"{self.prog}: {message} (see {self.prog} --help)\n")


def only_module(argv: list[str]) -> object | None:
    """The subcommand's module alone when ``argv`` starts with a command's name (`verify` is
    api/commands/verify.py; `upgrade-check` is upgrade_check.py): the others, and what they import
    (the benchmarks, the server), need not be loaded for it. None otherwise (`--help`, a typo)."""
    if not argv or argv[0].startswith("-"):
        return None
    name = argv[0].replace("-", "_")
    if name.startswith("_"):
        return None
    for package in map(importlib.import_module, COMMAND_PACKAGES):
        if any(info.name == name for info in pkgutil.iter_modules(package.__path__)):
            module = importlib.import_module(f"{package.__name__}.{name}")
            return module if getattr(module, "NAME", None) == argv[0] else None
    return None


def build_parser(modules: list | None = None) -> argparse.ArgumentParser:
    """The parser of every subcommand, or of ``modules`` alone."""
    parser = Parser(
        prog="bluegray",
        description="Play, watch and review SPI Blue & Gray battles: every rule enforced, every action an event.",
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"bluegray {package_version()} (rules {RULES_VERSION})",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in command_modules() if modules is None else modules:
        p = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP.replace("%%", "%"))
        module.add_arguments(p)
        p.set_defaults(run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    only = only_module(argv)
    parser = build_parser(None if only is None else [only])
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 1
    try:
        return args.run(args) or 0
    except CommandError as exc:
        print(f"bluegray {args.command}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `bluegray ... | head`
        return 0


if __name__ == "__main__":
    sys.exit(main())
