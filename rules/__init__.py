"""Pure game logic for SPI's Blue & Gray: no I/O, no imports from the other packages."""

#: The revision of this rules code (not a rule set: both `classic` and `revised` live in it). Every game
#: records the revision that created it, and `bluegray verify` refuses to refold a game under another
#: one, since a change to the rules or to the state's encoding changes the state digests. Bump it
#: whenever a change could alter the events or the digests of a replayed game.
RULES_VERSION = "2026.12.07.1"
