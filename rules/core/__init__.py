"""Value types and the static context of a game: hexes, terrain, the scenario, commands, events,
pending decisions, the state, the rule set as a value, the handler table's types and the ``Game``.
Imports nothing from the other layers of ``rules``."""
