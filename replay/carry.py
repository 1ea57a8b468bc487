"""A game's scenario travelling with its exported log (replay/export.py): the document written when
the game plays on a saved scenario (scenarios/library.py), and read back so that the log replays,
verifies and imports on a server that never had it."""

from __future__ import annotations

import msgspec

from eventstore.envelope import Envelope
from replay import export
from scenarios import document
from scenarios.library import Library, LibraryError
from session import records
from session.games import GameCache
from session.records import GameCreated


def created_of(envelopes: list[Envelope]) -> GameCreated | None:
    if not envelopes or envelopes[0].type != "game_created":
        return None
    created = records.decode(envelopes[0].payload)
    return created if isinstance(created, GameCreated) else None


def document_of(library: Library, envelopes: list[Envelope]) -> bytes | None:
    """The scenario document (JSON) of the game's saved scenario, None for a shipped battle."""
    created = created_of(envelopes)
    if created is None or not library.is_saved(created.scenario):
        return None
    return document.encode(library.document(created.scenario))


def dumps(library: Library, envelopes: list[Envelope]) -> bytes:
    """The exported log, carrying its scenario when it is not a shipped battle."""
    return export.dumps(envelopes, document_of(library, envelopes))


class CarryError(ValueError):
    """The scenario a log carries is unreadable, invalid or not the one its game was created on."""


def hold(library: Library, data: bytes, envelopes: list[Envelope]) -> str | None:
    """Keep in ``library`` (in memory) the scenario the exported ``data`` carries; its reference, which
    must be the one the game's ``game_created`` records (CarryError otherwise). None: it carries none."""
    try:
        carried = export.carried_scenario(data)
    except msgspec.DecodeError as exc:
        raise CarryError(str(exc)) from None
    if carried is None:
        return None
    created = created_of(envelopes)
    if created is not None and library.holds(created.scenario):
        return created.scenario  # held already (the computer reads the log at every turn)
    try:
        ref = library.hold(document.decode(carried, "carried.json"))
    except (document.DocumentError, LibraryError) as exc:
        raise CarryError(f"the scenario the log carries: {exc}") from None
    if created is not None and created.scenario != ref:
        raise CarryError(f"the log carries scenario {ref}, but its game was created on {created.scenario}")
    return ref


def games_for(library: Library, data: bytes, envelopes: list[Envelope]) -> GameCache:
    """A GameCache that loads the shipped battles, the library's scenarios and the one ``data`` carries."""
    hold(library, data, envelopes)
    return GameCache(load=library.load, pin=library.pin)
