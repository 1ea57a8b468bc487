"""The procedures of play shared by both rule books, with the 1975 implementation of each step where
they differ (the rule set's ``Procedures``): sequence of play, movement, reinforcements, night,
combat, retreat and advance, attack effectiveness, victory, and the battles' exclusive rules.
Imports ``rules.core`` and ``rules.queries``."""
