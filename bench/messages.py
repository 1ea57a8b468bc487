"""The server's messages as the load generator (bench/loadtest.py) reads them: a `reach` reply and a
`view` read only in part, every other message as the protocol has it."""

from __future__ import annotations

from typing import Union

import msgspec

from api.protocol import ServerMessageType


class ReachIn(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="reach"):
    """The server's `reach` reply, as far as this process reads it: its destinations stay raw JSON,
    for the brain (the whole frame is handed on)."""

    version: int
    unit: str
    how: str
    destinations: msgspec.Raw


class ViewIn(msgspec.Struct, frozen=True, kw_only=True, tag="view", tag_field="type"):
    """The server's `view`, as far as a spectator here reads it: its version and the append time of
    its newest event (the view and the record are left unread)."""

    version: int
    time: int


decoder = msgspec.json.Decoder(
    Union[  # noqa: UP007 - a runtime union for msgspec
        tuple(t for t in ServerMessageType.__args__ if t.__struct_config__.tag not in ("reach", "view"))
        + (ReachIn, ViewIn)
    ]
)
