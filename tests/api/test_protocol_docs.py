"""docs/PROTOCOL.md and docs/protocol.schema.json stay true: the committed schema is the one the
message types generate, every example in the document is a valid message, and every message type
has an example."""

import json
import re
from pathlib import Path

import msgspec

from api import protocol
from replay.records import RECORD_TYPES
from rules.core.events import EVENT_TYPES

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_the_committed_schema_is_the_generated_one():
    committed = json.loads((DOCS / "protocol.schema.json").read_text())
    assert committed == json.loads(json.dumps(protocol.schema())), (
        "docs/protocol.schema.json is stale: regenerate it with `python -m api.protocol > docs/protocol.schema.json`"
    )


def test_every_example_is_a_valid_message_and_every_message_has_one():
    text = (DOCS / "PROTOCOL.md").read_text()
    server = msgspec.json.Decoder(protocol.ServerMessageType)
    shown = set()
    for block in re.findall(r"```json\n(.*?)```", text, re.S):
        tag = json.loads(block)["type"]
        try:  # `reach` goes both ways: the answer is a server message, the question a client one
            message = server.decode(block.encode())
        except msgspec.ValidationError:
            if tag not in protocol.CLIENT_TAGS:
                raise
            message = protocol.decode(block.encode())
        shown.add(type(message))
    every = set(protocol.ClientMessageType.__args__) | set(protocol.ServerMessageType.__args__)
    assert every - shown == set(), f"no example of {sorted(t.__name__ for t in every - shown)}"


def test_every_error_code_is_documented():
    text = (DOCS / "PROTOCOL.md").read_text()
    for code in protocol.ErrorCode.__args__:
        assert f"| `{code}` |" in text


def test_session_records_and_rules_events_never_share_a_tag():
    assert not set(RECORD_TYPES) & {t.__struct_config__.tag for t in EVENT_TYPES}
