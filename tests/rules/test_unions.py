"""Commands and events are each one declared union (rules/core/commands.py ``COMMAND_TYPES``,
rules/core/events.py ``EVENT_TYPES``), and each rule set's handler table (rules/core/handlers.py) covers what it
allows: a type missing from its union, or allowed without a handler, fails here."""

import msgspec
import pytest

from rules import rulesets
from rules.core.commands import COMMAND_TYPES, Command
from rules.core.events import EVENT_TYPES, Event
from rules.rulesets import get as get_ruleset


def _tagged_subclasses(base: type) -> set[type]:
    out, todo = set(), [base]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            if sub.__struct_config__.tag is not None:
                out.add(sub)
    return out


def test_every_command_type_is_in_the_declared_union():
    assert _tagged_subclasses(Command) == set(COMMAND_TYPES)
    tags = [t.__struct_config__.tag for t in COMMAND_TYPES]
    assert len(tags) == len(set(tags)), "two command types share a tag"


def test_every_event_type_is_in_the_declared_union():
    assert _tagged_subclasses(Event) == set(EVENT_TYPES)
    tags = [t.__struct_config__.tag for t in EVENT_TYPES]
    assert len(tags) == len(set(tags)), "two event types share a tag"


@pytest.mark.parametrize("name", rulesets.NAMES)
def test_a_rule_set_handles_only_declared_types(name):
    handlers = rulesets.get(name).handlers
    assert set(handlers.deciders) <= set(COMMAND_TYPES)
    assert set(handlers.evolvers) <= set(EVENT_TYPES)
    for mechanism in rulesets.get(name).mechanisms:  # and its battles' rules'
        assert set(mechanism.deciders) <= set(COMMAND_TYPES)
        assert set(mechanism.evolvers) <= set(EVENT_TYPES)


def test_every_declared_type_is_handled_by_some_rule_set_or_battle_rule():
    books = [rulesets.get(n) for n in rulesets.NAMES]
    mechanisms = {m for book in books for m in book.mechanisms}  # rules/core/battle_rule.py
    deciders = set().union(*(b.handlers.deciders for b in books), *(m.deciders for m in mechanisms))
    evolvers = set().union(*(b.handlers.evolvers for b in books), *(m.evolvers for m in mechanisms))
    assert set(COMMAND_TYPES) - deciders == set()
    assert set(EVENT_TYPES) - evolvers == set()


def test_the_revised_book_handles_every_1975_command_and_event():
    classic, revised = rulesets.get("classic").handlers, rulesets.get("revised").handlers
    assert set(classic.deciders) <= set(revised.deciders)
    assert set(classic.evolvers) <= set(revised.evolvers)


def test_a_command_outside_the_union_is_refused_on_decoding():
    from rules.core.commands import decode

    with pytest.raises(msgspec.ValidationError):
        decode(b'{"type": "teleport", "unit": "u-1"}')


def test_a_command_the_rule_set_does_not_allow_is_refused_with_the_sequence_case():
    from rules.core.commands import StrategicMove
    from rules.core.errors import RuleViolation
    from rules.core.game import Game
    from rules.reducer import decide, new_game
    from scenarios.loader import load

    state = new_game(Game(load("chattanooga"), get_ruleset("classic")))
    with pytest.raises(RuleViolation) as e:
        decide(state, StrategicMove(unit="x", path=("0101", "0102")))
    assert e.value.case == state.game.case("sequence")
    assert "the classic rules have no 'strategic_move' command" in str(e.value)
