"""A battle's exceptions to the revised artillery rules: ``case_9_18 = false`` when "The provisions of
Case 9.18 do not apply to this game" (Chattanooga 19.14), so bombardment alone may be made below the
lowest odds (rules/revised/combat_procedures.py).

    [exclusive_overrides.revised.artillery]
    case_9_18 = false
"""

from __future__ import annotations

from rules.core.components.values import Component


class Artillery(Component, frozen=True):
    case_9_18: bool = True
