"""The rule sets, by name: the 1975 SPI Blue & Gray Standard Rules (``classic``,
rules/rulesets/classic.py) and the revised 2nd edition (``revised``, rules/rulesets/revised.py). Each is
one explicit value (rules/core/ruleset.py ``Ruleset``): its tables, case numbers, handler table and
procedures."""

from __future__ import annotations

from rules.core.ruleset import Ruleset
from rules.rulesets.classic import CLASSIC
from rules.rulesets.revised import REVISED

NAMES = ("classic", "revised")


def get(name: str) -> Ruleset:
    """The rule set called ``name`` ("classic" or "revised")."""
    if name == "classic":
        return CLASSIC
    if name == "revised":
        return REVISED
    raise KeyError(f"unknown rule set {name!r}: expected one of {', '.join(NAMES)}")
