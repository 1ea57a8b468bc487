"""The one error the rules raise: a command that the rules do not allow."""

from __future__ import annotations


class RuleViolation(Exception):
    """A command refused by the rules.

    ``case`` is the case number of the rule set in force ("5.13" in the 1975 book, "6.13" in the
    revised one); ``message`` is a sentence a player understands, naming units by designation and
    hexes by number: "2/3/IV is in an enemy zone of control at 1714 and may not leave it during
    movement."
    """

    def __init__(self, case: str, message: str) -> None:
        if not case:
            raise ValueError("a RuleViolation needs the case number of the rule it enforces")
        super().__init__(f"[{case}] {message}")
        self.case = case
        self.message = message

    def __reduce__(self):
        return (type(self), (self.case, self.message))
