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
