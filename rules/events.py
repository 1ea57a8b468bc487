"""Events: what happened. Frozen msgspec Structs, a tagged union on the field ``type`` with explicit
tag strings and a schema version ``schema``; ``rules.reducer.evolve`` applies them. An event carries
everything its application needs (die rolls included), so applying one never consults the dice,
the clock or the scenario's rules.

New events (combat) subclass ``Event`` with their own tag in their own module.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Union

import msgspec

from rules.scenario import Side

_generation = 0  # bumped whenever an event type is defined: `event_types` is cached per generation


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of every event; never recorded itself."""

    schema: int = 1

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        global _generation
        _generation += 1


class UnitMoved(Event, frozen=True, tag="unit_moved"):
    """A unit moved along ``path`` (its start hex first), spending ``cost`` movement points (an int, or
    an exact fraction "n/d" along turnpikes, revised 6.22: rules/arith.py ``movement_points``)."""

    unit: str
    path: tuple[str, ...]
    cost: int | str


class ReinforcementEntered(Event, frozen=True, tag="reinforcement_entered"):
    """A reinforcement entered the map at ``path[0]`` and moved along ``path`` for ``cost`` points (as
    ``UnitMoved``'s)."""

    unit: str
    path: tuple[str, ...]
    cost: int | str


class ReinforcementLost(Event, frozen=True, tag="reinforcement_lost"):
    """A reinforcement that did not enter in time is eliminated (15.12)."""

    unit: str


class PhaseEnded(Event, frozen=True, tag="phase_ended"):
    turn: int
    side: Side
    phase: str


class PhaseBegan(Event, frozen=True, tag="phase_began"):
    turn: int
    side: Side
    phase: str


class GameTurnAdvanced(Event, frozen=True, tag="game_turn_advanced"):
    """The Game-Turn Record Interphase (4.1): ``turn`` is the new Game-Turn."""

    turn: int


class GameEnded(Event, frozen=True, tag="game_ended"):
    """The game is over: ``reason`` ("last_turn" after the final Game-Turn), ``result`` (the level of
    victory, when victory conditions have been consulted)."""

    reason: str
    result: str | None = None


def event_types() -> tuple[type[Event], ...]:
    """Every concrete event type imported so far (walked once per new event type, not per call:
    decoding calls this for every event)."""
    return _event_types(_generation)


@lru_cache(maxsize=2)
def _event_types(generation: int) -> tuple[type[Event], ...]:
    return tuple(_leaves(Event))


def _leaves(base: type) -> list[type]:
    out = []
    for sub in base.__subclasses__():
        if sub.__struct_config__.tag is not None:
            out.append(sub)
        out.extend(_leaves(sub))
    return out


@lru_cache(maxsize=8)
def _json_decoder(types: tuple[type, ...]) -> msgspec.json.Decoder:
    return msgspec.json.Decoder(Union[types])  # noqa: UP007


@lru_cache(maxsize=8)
def _msgpack_decoder(types: tuple[type, ...]) -> msgspec.msgpack.Decoder:
    return msgspec.msgpack.Decoder(Union[types])  # noqa: UP007


def decode(data: bytes | str) -> Event:
    """An event from its JSON encoding."""
    return _json_decoder(event_types()).decode(data)


def decode_msgpack(data: bytes) -> Event:
    return _msgpack_decoder(event_types()).decode(data)


def encode(event: Event) -> bytes:
    return msgspec.json.encode(event)
