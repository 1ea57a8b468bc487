"""Breastworks (revised 10.34): whether the battle is one in which they may be built (the games of 1863
onwards). A unit building them spends its move on them, so it counts against a movement quota in each
of the two Game-Turns of construction (rules/revised/movement.py).

    [exclusive_overrides.revised.breastworks]
    may_build = true
"""

from __future__ import annotations

from rules.core.components.values import Component


class Breastworks(Component, frozen=True):
    may_build: bool = False
