"""Every user-facing text the decoding edges produce, pinned word for word (issue 33).

The texts are built by rules/core/decoding.py from the type's structure, never copied from msgspec's
own message (msgspec 0.23 reworded "line 1 is not an envelope" into "Invalid UTF-8 encoded string"
and nothing noticed). Upgrading a dependency in requirements/lock.txt must leave every line below
passing; a change of wording here is a change we chose, made in this file too.
"""

from __future__ import annotations

import msgspec
import msgspec.inspect as mi
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from api import protocol
from api.live.acting import _rules_command
from replay import export
from rules.core.commands import AnyCommand
from rules.core.components.battle import decode as decode_battle
from rules.core.components.schema import BattleError
from rules.core.decoding import Mismatch, mismatch


@pytest.mark.parametrize(
    ("raw", "code", "message"),
    [
        (b"\xff", "malformed", "not UTF-8 text (byte 0)"),
        (b'{"type": "hello"', "malformed", "not JSON (line 1, column 17)"),
        (b"[1,2]", "malformed", "not a message: expected a table, got a list"),
        (b'{"type": "nope"}', "unknown_type", "no message has type 'nope'"),
        (b"{}", "malformed", "not a message: missing the required key 'type'"),
        (b'{"type":"hello","game_id":5}', "malformed", "a 'hello' message: game_id: expected a string, got a whole number"),
        (b'{"type":"chat"}', "malformed", "a 'chat' message: missing the required key 'command_id'"),
        (b"[" * 5000, "malformed", "not a message: nested too deeply"),
    ],
)
def test_a_websocket_message_that_does_not_decode_is_named_in_our_words(raw, code, message):
    with pytest.raises(protocol.ProtocolError) as refused:
        protocol.decode(raw)
    assert (refused.value.code, refused.value.message) == (code, message)


@pytest.mark.parametrize(
    ("raw", "code", "message"),
    [
        (b'{"type":"fly"}', "unknown_type", "no rules command has type 'fly'"),
        (b"{}", "unknown_type", "a rules command needs its 'type'"),
        (b'{"type":"move","unit":1,"path":[]}', "malformed", "a malformed command: unit: expected a string, got a whole number"),
        (b'{"type":"move","unit":"u1"}', "malformed", "a malformed command: missing the required key 'path'"),
    ],
)
def test_a_rules_command_that_does_not_decode_is_named_in_our_words(raw, code, message):
    with pytest.raises(protocol.ProtocolError) as refused:
        _rules_command(protocol.SendCommand(command_id="c1", command=msgspec.Raw(raw)))
    assert (refused.value.code, refused.value.message) == (code, message)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (b'{"version": 1, "type": "\x80"}', "line 1 is not an envelope: not UTF-8 text (byte 24)"),
        (b'{"version": "one"}', "line 1 is not an envelope: version: expected a whole number, got a string"),
        (b"[1", "line 1 is not an envelope: not JSON (line 1, column 3)"),
        (b'{"version": 1, "payload": "!!"}', "line 1 is not an envelope: payload: expected a string of base64"),
    ],
)
def test_an_export_line_that_does_not_decode_is_named_in_our_words(line, message):
    with pytest.raises(msgspec.DecodeError) as refused:
        export.loads(line + b"\n")
    assert str(refused.value) == message


@pytest.mark.parametrize(
    ("exclusive", "message"),
    [
        ({"movement_quota": {"side": "union", "units": "11"}}, "exclusive.movement_quota.units: expected a whole number, got a string"),
        ({"immobile_artillery": {"side": "yankee"}}, "exclusive.immobile_artillery.side: 'yankee' is not a side (confederate, union)"),
        ({"victory": {"per_enemy_unit_eliminated": {"union": -2}}}, "exclusive.victory.per_enemy_unit_eliminated.union: expected a whole number >= 0"),
        ({"ferries": {"hexes": ["13O5"]}}, "exclusive.ferries.hexes #1: expected a string that is a hex number, four digits XXYY"),
        # our own check (MovementQuota.__post_init__), carried through msgspec as the error's cause
        ({"movement_quota": {"side": "union"}}, "exclusive.movement_quota: missing the required key 'units' (or by_die, a die roll's units)"),
    ],
)  # fmt: skip
def test_a_battle_parameter_that_does_not_decode_is_named_in_our_words(exclusive, message):
    with pytest.raises(BattleError) as refused:
        decode_battle(exclusive)
    assert str(refused.value) == message


class _Query(msgspec.Struct, forbid_unknown_fields=True):
    limit: int = 20


def test_a_query_is_read_as_msgspec_convert_reads_it_without_strictness():
    assert mismatch({"limit": "many"}, _Query, strict=False) == Mismatch(
        ("limit",), "wrong_type", expected="a whole number", got="a string"
    )
    assert mismatch({"limit": "5", "x": "1"}, _Query, strict=False).reason() == "unknown key 'x' (known: limit)"


def test_what_msgspec_refuses_and_the_walk_cannot_explain_is_said_plainly():
    """A refusal the walk finds nothing wrong with (a type it does not know) is reported as such, not
    hidden and not in msgspec's words."""
    assert mismatch({"limit": 5}, _Query).kind == "unexplained"
    assert Mismatch((), "unexplained").sentence() == "does not match the expected format"


_json = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=8,
)


def _near(union) -> st.SearchStrategy[dict]:
    """Objects close to a member of the tagged union: a known tag, some of its fields, random values."""
    members = [mi.type_info(t) for t in union.__args__]

    @st.composite
    def build(draw):
        member = draw(st.sampled_from(members))
        names = [f.encode_name for f in member.fields] + ["stray"]
        value = {member.tag_field: member.tag}
        for name in draw(st.lists(st.sampled_from(names), max_size=len(names), unique=True)):
            value[name] = draw(_json)
        return value

    return build()


@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_the_walk_refuses_exactly_what_msgspec_refuses(data):
    """Both ways: whatever msgspec refuses the walk explains (never "unexplained"), and whatever it
    accepts the walk finds nothing wrong with."""
    union = data.draw(st.sampled_from([protocol.ClientMessageType, AnyCommand]))
    value = data.draw(_near(union))
    try:
        msgspec.convert(value, union)
    except msgspec.ValidationError:
        assert mismatch(value, union).kind != "unexplained", value
    else:
        assert mismatch(value, union).kind == "unexplained", value
