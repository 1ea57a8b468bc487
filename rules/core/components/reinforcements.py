"""Reinforcements lost if not entered (Chattanooga 15.12): a reinforcement that cannot enter on its
Game-Turn is eliminated (and counts for the enemy's Victory Points, 20.11). Without it (the revised
book, 5.0-5.5) a reinforcement may be held back and enter later.

    [exclusive.reinforcements]
    lost_if_not_entered = true
"""

from __future__ import annotations

from rules.core.components.values import Component


class Reinforcements(Component, frozen=True):
    lost_if_not_entered: bool = False
