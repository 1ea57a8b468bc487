"""Streams and swamps (Road to Richmond 18.5, 18.6): exceptions to the Terrain Effects Chart (10.1).

    [exclusive.streams]
    bridges = [["0107", "0108"], ["0704", "0804"]]   # the road bridges over streams (map: creek + bridge)
    halve_attacker = false                            # 18.51
    advance_across = false                            # 18.52
    advance_into_swamp = false                        # 18.6

- 18.51 (``halve_attacker = false``): "The Defender is not doubled when attacked exclusively across stream
  hex sides (fordable creeks), even if a bridge is present (exception to Case 10.1)": the revised chart
  halves the attacker across a stream or bridge hexside instead of doubling the defender, so when every
  adjacent attacking unit attacks across stream hexsides only (plain, or a bridge of ``bridges``), those
  hexsides halve no one (other terrain still may).
- 18.52 (``advance_across = false``): "Units may not advance after combat across a stream hex side
  (fordable creeks), except where a bridge is present".
- 18.6 (``advance_into_swamp = false``): "Units may not advance after combat into a swamp hex".

A road bridge over a stream is drawn on the map as the project draws one (creek + bridge); ``bridges``
lists them so that 18.51 knows them for streams. Read by rules/revised/combat_procedures.py.
"""

from __future__ import annotations

from rules.core.components.values import Component, HexNumber


class Streams(Component, frozen=True):
    bridges: list[tuple[HexNumber, HexNumber]] = []
    halve_attacker: bool = True
    advance_across: bool = True
    advance_into_swamp: bool = True

    def is_stream_bridge(self, a: str, b: str) -> bool:
        return (a, b) in self._bridges() or (b, a) in self._bridges()

    def _bridges(self) -> frozenset[tuple[str, str]]:
        return frozenset(tuple(pair) for pair in self.bridges)
