"""What a load test measures (bench/loadtest.py): its figures, their percentiles, and the CPU seconds
and child processes the caller counts (Linux /proc)."""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field


@dataclass
class Figures:
    """What a run measured."""

    command_ms: list[float] = field(default_factory=list)
    # CPU seconds in the measured period: the brain processes; and, set by the caller, the server,
    # its Redis and this process.
    brain_cpu_s: float | None = None
    server_cpu_s: float | None = None
    store_cpu_s: float | None = None
    client_cpu_s: float = 0.0
    cpu_s: dict = field(default_factory=dict)  # set by the caller: CPU seconds per group of processes
    io_bytes: dict = field(default_factory=dict)  # and (read, written) bytes per group
    # websocket payload bytes the bots and spectators received and sent in the measured period
    bytes_received: int = 0
    bytes_sent: int = 0
    broadcast_ms: list[float] = field(default_factory=list)
    reach_ms: list[float] = field(default_factory=list)  # with --choices: a `reach` sent until its reply
    reaches: int = 0  # `reach` replies received in the measured period
    empty_reaches: int = 0  # of which with no destination
    events: int = 0
    games_started: int = 0
    games_finished: int = 0
    games_left: int = 0  # with commands_per_game: games the bot left unfinished for a new one
    errors: Counter = field(default_factory=Counter)
    #: When a list (a soak's check that nothing acknowledged is lost): every ack the bots received,
    #: (game id, seat, command_id, first, last)
    acks: list | None = None
    undos: Counter = field(default_factory=Counter)  # requested, accepted, declined, refused (with undo_every)
    reconnects: int = 0  # with reconnect_every
    resent: int = 0  # commands answered `unavailable` (a store restarting) and sent again, same command_id

    def error(self, what: str) -> None:
        self.errors[what] += 1


def percentile(values: list[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def cpu_seconds(*pids: int) -> float | None:
    """User + system CPU seconds of these processes so far (Linux /proc), or None."""
    total = 0.0
    for pid in pids:
        try:
            fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError, TypeError):
            return None
    return total


def children(pid: int) -> list[int]:
    """The child processes of `pid` (Linux /proc; [] elsewhere)."""
    try:
        return [int(c) for c in open(f"/proc/{pid}/task/{pid}/children").read().split()]
    except (OSError, ValueError):
        return []
