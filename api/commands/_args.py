"""Argument types shared by the subcommands: each refuses a bad value with a message naming it (the
parser turns it into one line and exit status 1, api/cli.py)."""

from __future__ import annotations

import argparse


def port(text: str) -> int:
    """A TCP port, 0 (any free port) to 65535."""
    value = integer(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a port (0 to 65535; 0: any free port)")
    return value


def integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
    return value


def at_least(least: int):
    """A whole number no smaller than `least`."""

    def check(text: str) -> int:
        value = integer(text)
        if value < least:
            raise argparse.ArgumentTypeError(f"{value} is less than {least}")
        return value

    return check


def positive(text: str) -> float:
    """A number above 0."""
    value = number(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text} is not above 0")
    return value


def not_negative(text: str) -> float:
    value = number(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text} is below 0")
    return value


_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off", "")


def from_environment(parser: argparse.ArgumentParser, prefix: str) -> None:
    """Let each option of `parser` be given by an environment variable too (`--log-format` by
    BLUEGRAY_LOG_FORMAT), named in its help; a flag given on the command line wins. A value the option
    would refuse is kept in ``args.environment_errors`` (the command refuses to run, naming it)."""
    import os

    errors = []
    for action in parser._actions:
        if not action.option_strings or action.dest == "help":
            continue
        name = prefix + action.dest.upper()
        action.help = f"{action.help} [env {name}]" if action.help else f"[env {name}]"
        if name not in os.environ:
            continue
        text = os.environ[name]
        try:
            action.default = _environment_value(action, text)
        except (argparse.ArgumentTypeError, ValueError) as exc:
            errors.append(f"{name}={text!r}: {exc}")
    parser.set_defaults(environment_errors=errors)


def _environment_value(action: argparse.Action, text: str):
    if isinstance(action, argparse._StoreTrueAction):
        if text.lower() not in _TRUE + _FALSE:
            raise ValueError(f"not one of {', '.join(_TRUE + _FALSE[:-1])}")
        return text.lower() in _TRUE
    value = action.type(text) if action.type is not None else text
    if action.choices is not None and value not in action.choices:
        raise ValueError(f"not one of {', '.join(map(str, action.choices))}")
    return value
