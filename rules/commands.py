"""Commands: what a player asks to do. Frozen msgspec Structs, a tagged union on the field ``type``
with explicit tag strings (never the class name: renaming a class cannot orphan an old log) and a
schema version ``schema`` (upcast on read when a command's shape changes).

New commands (combat: declare an attack, retreat, advance...) subclass ``Command`` with their own
tag in their own module; ``decode`` knows every subclass that has been imported.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Union

import msgspec


class Command(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of every command; never sent itself."""

    schema: int = 1


class MoveUnit(Command, frozen=True, tag="move"):
    """Move one unit along ``path``: its own hex first, then each hex it enters, in order (5.0, 5.16).
    The whole move is one command: once made, the unit may not move again this phase (5.17)."""

    unit: str
    path: tuple[str, ...]


class EnterReinforcement(Command, frozen=True, tag="enter_reinforcement"):
    """Bring a reinforcement onto the map (15.1x): ``path`` starts with the entry hex (whose terrain
    it pays for, 15.13) and may go on from there like any move."""

    unit: str
    path: tuple[str, ...]


class EndPhase(Command, frozen=True, tag="end_phase"):
    """The phasing player ends the current phase (4.1)."""


def command_types() -> tuple[type[Command], ...]:
    """Every concrete command type imported so far."""
    return tuple(_leaves(Command))


def _leaves(base: type) -> list[type]:
    out = []
    for sub in base.__subclasses__():
        if sub.__struct_config__.tag is not None:
            out.append(sub)
        out.extend(_leaves(sub))
    return out


@lru_cache(maxsize=8)
def _decoder(types: tuple[type, ...]) -> msgspec.json.Decoder:
    return msgspec.json.Decoder(Union[types])  # noqa: UP007 - a runtime tuple of types


def decode(data: bytes | str) -> Command:
    """A command from its JSON encoding (raises msgspec.ValidationError when malformed)."""
    return _decoder(command_types()).decode(data)


def encode(command: Command) -> bytes:
    return msgspec.json.encode(command)
