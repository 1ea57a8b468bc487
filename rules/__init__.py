"""Pure game logic for SPI's Blue & Gray: no I/O, no imports from the other packages."""

#: Bumped whenever a change to the rules could change the outcome of a replayed game.
RULES_VERSION = "1975.0"
