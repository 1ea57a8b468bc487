"""The one error a subcommand raises for a problem the user can fix (bad input, a store out of reach):
`bluegray` prints it as one line, `bluegray COMMAND: MESSAGE`, on stderr and exits with status 1."""

from __future__ import annotations


class CommandError(Exception):
    """What was wrong, in one line, naming the argument, file or server concerned."""
