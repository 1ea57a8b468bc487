"""A battle's exclusive rules as typed components (docs/SCENARIOS.md).

Each exclusive-rule mechanism is one module here: a ``msgspec`` Struct of its parameters, decoded from
its ``[exclusive.<name>]`` block of ``scenario.toml`` (unknown keys refused), with the questions the
rules ask of it. ``battle.Battle`` lists them; ``rules.core.game.Game.battle`` is the one decoded for the
rule set in force. Components read the value types (rules.scenario, rules.errors) and the state they
are handed; they import nothing of the procedures, the rule sets or the reducer, and no battle's name
appears in them.
"""
