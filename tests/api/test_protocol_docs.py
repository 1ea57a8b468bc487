"""docs/PROTOCOL.md and docs/protocol.schema.json stay true: the committed schema is the one the
types generate (and the one the server serves), every example in the document is a valid message,
every message type has an example, and every message type and every field of the schema is
described in the document."""

import base64
import json
import re
from pathlib import Path

import msgspec
from apiharness import WsClient, new_game

from api import protocol
from api.schema import http_types, schema
from rules.core.events import EVENT_TYPES
from session.records import RECORD_TYPES

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_the_committed_schema_is_the_generated_one():
    committed = json.loads((DOCS / "protocol.schema.json").read_text())
    assert committed == json.loads(json.dumps(schema())), (
        "docs/protocol.schema.json is stale: regenerate it with `python -m api.schema > docs/protocol.schema.json`"
    )


async def test_the_server_serves_the_schema(client):
    async with client.get("/protocol.schema.json") as response:
        assert response.status == 200 and response.content_type == "application/schema+json"
        assert await response.json() == json.loads((DOCS / "protocol.schema.json").read_text())


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


def sections(text: str) -> list[tuple[str, str]]:
    """The document's sections: (heading line, the text up to the next heading)."""
    parts = re.split(r"^(#+ .*)$", text, flags=re.M)
    return list(zip(parts[1::2], parts[2::2], strict=True))


def described(name: str, text: str) -> bool:
    """Is the field `name` named in `text`: as `name`, as a JSON key "name", as a query `?name=`?"""
    return any(form in text for form in (f"`{name}`", f'"{name}"', f"?{name}=", f"&{name}="))


def nested_structs(cls: type, seen: set[type]) -> None:
    """Every Struct type reachable from `cls`'s fields, into `seen`."""
    for field in msgspec.structs.fields(cls):
        for t in struct_types(msgspec.inspect.type_info(field.type)):
            if t not in seen:
                seen.add(t)
                nested_structs(t, seen)


def struct_types(info) -> list[type]:
    if isinstance(info, msgspec.inspect.StructType):
        return [info.cls]
    found = []
    for name in ("item_type", "key_type", "value_type"):
        if hasattr(info, name):
            found += struct_types(getattr(info, name))
    for name in ("types", "item_types"):
        for t in getattr(info, name, ()):
            found += struct_types(t)
    return found


# Where docs/PROTOCOL.md describes each HTTP body (a heading that contains this text).
HTTP_SECTIONS = {
    "create_game": "`POST /api/games`",
    "created": "`POST /api/games`",
    "join_game": "`POST /api/games/{id}/join`",
    "joined": "`POST /api/games/{id}/join`",
    "list_query": "`GET /api/games?",
    "game_list": "`GET /api/games?",
    "game": "`GET /api/games/{id}`",
    "log_query": "Over HTTP",
    "fork_game": "Over HTTP",
    "forked": "Over HTTP",
    "error": "## HTTP",
    "health": "Scenarios and health",
    "credentials": "Accounts",
    "password_change": "Accounts",
    "me": "Accounts",
    "session_state": "Accounts",
    "my_games_query": "Accounts",
    "my_games": "Accounts",
    "propose": "Lobby",
    "proposal": "Lobby",
    "lobby": "Lobby",
    "started": "Lobby",
    "settings": "Notifications",
    "mute": "Notifications",
    "push_key": "Web Push",
    "push_subscription": "Web Push",
    "push_unsubscribe": "Web Push",
    "push_devices": "Web Push",
    "player": "Ratings",
    "board_query": "Ratings",
    "leader": "Ratings",
    "new_bot": "Bots",
    "bot_token": "Bots",
    "blocks": "Moderation",
    "report_chat": "Moderation",
    "reported": "Moderation",
    "report_list": "Moderation",
    "abort": "Moderation",
    "aborted": "Moderation",
    "account_state": "Moderation",
    "create_tournament": "Tournaments",
    "enter_tournament": "Tournaments",
    "tournament": "Tournaments",
    "tournament_list": "Tournaments",
    "tournament_list_query": "Tournaments",
}


def test_every_message_type_and_field_is_described():
    """Each message's fields in its own section (the one whose heading names its `type`), each HTTP
    body's in the section of its endpoint, and the fields of what they contain anywhere."""
    text = (DOCS / "PROTOCOL.md").read_text()
    parts = sections(text)
    missing = []
    inner: set[type] = set()
    owners = [(cls.__struct_config__.tag, f"`{cls.__struct_config__.tag}`", cls)
              for cls in (*protocol.ClientMessageType.__args__, *protocol.ServerMessageType.__args__)]  # fmt: skip
    owners += [(name, HTTP_SECTIONS[name], cls) for name, cls in http_types().items()]
    every_action = "".join(h + body for h, body in parts if h == "## Client messages")  # command_id, seen
    for name, heading, cls in owners:
        own = "".join(h + body for h, body in parts if heading in h)
        if issubclass(cls, protocol.Action):
            own += every_action
        if not own:
            missing.append(f"{name}: no section whose heading has {heading}")
            continue
        missing += [f"{name}.{f.encode_name}" for f in msgspec.structs.fields(cls) if not described(f.encode_name, own)]
        nested_structs(cls, inner)
    for cls in inner:
        missing += [f"{cls.__name__}.{f.encode_name}" for f in msgspec.structs.fields(cls) if not described(f.encode_name, text)]
    assert not missing, f"not described in docs/PROTOCOL.md: {sorted(set(missing))}"


async def test_export_and_websocket_carry_the_same_bytes_in_their_documented_encodings(client):
    """An export line has the envelope's bytes in base64, a websocket event in hex (PROTOCOL.md)."""
    game, _ = await new_game(client)
    async with client.get(f"/api/games/{game['game_id']}/export") as response:
        lines = [json.loads(line) for line in (await response.read()).splitlines()]
    watcher = await WsClient(client, game["game_id"]).connect()
    assert len(lines) == len(watcher.events) == 3
    for line, event in zip(lines, watcher.events, strict=True):
        assert base64.b64decode(line["hash"]) == event.hash and base64.b64decode(line["digest"]) == event.digest
        assert base64.b64decode(line["payload"]) == event.payload
