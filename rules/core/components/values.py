"""The values the battle components' parameters are made of, each a type ``msgspec`` checks when it
decodes ``scenario.toml``, with what it names (``ref``: a hex of the map, a unit of the order of
battle, an area of the map) so that the scenario validator can check the cross-references generically
(scenarios/validate.py; rules/core/components/schema.py ``references``).
"""

from __future__ import annotations

from typing import Annotated

import msgspec

#: A hex number of the map, "XXYY" (2.1); it must be a hex of the map.
HexNumber = Annotated[str, msgspec.Meta(pattern=r"^[0-9]{4}$", extra={"ref": "hex"})]
#: A hex number, "XXYY", that need not be a hex of the map.
HexPattern = Annotated[str, msgspec.Meta(pattern=r"^[0-9]{4}$")]
#: The id of a unit of the order of battle.
UnitId = Annotated[str, msgspec.Meta(min_length=1, extra={"ref": "unit"})]

#: A face of the battle's six-sided die, in a list of the rolls that do something.
DieFace = Annotated[int, msgspec.Meta(ge=1, le=6)]
#: The name of an area of the map (map.toml ``[areas]``).
AreaName = Annotated[str, msgspec.Meta(min_length=1, extra={"ref": "area"})]
#: Victory Points, or a number of units: a whole number, never negative.
Count = Annotated[int, msgspec.Meta(ge=0)]


class Component(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One exclusive-rule mechanism's parameters, decoded from its ``[exclusive.<name>]`` block;
    unknown keys are refused. Subclasses add the questions the rules ask of it."""

    def tracked_hexes(self) -> tuple[str, ...]:
        """The hexes whose control (Chattanooga 17.15) this mechanism asks about."""
        return ()
