"""Property-based tests of the edges (hypothesis): malformed, mutated and oversized input thrown at
the websocket, the HTTP API and `import`. Messages are drawn from the msgspec types themselves
(api/protocol.py, the rules commands), then mutated.

- websocket, in every state (before hello, seated, spectating, replaying, finished): exactly one
  answer to each message, never a closed connection, never a changed game without an `ack`;
- HTTP: never a 5xx, every refusal a JSON error of a documented code;
- import: a mutated export is imported only as the very log (or a prefix of it: the same events, the
  same head there) or refused with reasons, with nothing written;
- never a traceback or an error in the server's log.

CI runs a bounded number of examples; `BLUEGRAY_FUZZ_EXAMPLES=20000 python -m pytest -q
tests/api/test_fuzz.py` a longer run (docs/PROTOCOL.md, "Testing the edges").
"""

from __future__ import annotations

import json
import os
import typing
import uuid

import msgspec
import pytest
from apiharness import WsClient, answers, new_game, unsaid
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from api import protocol
from api.games import CreateGame, JoinGame
from api.http import ErrorReply
from api.replaying import ForkRequest
from eventstore.store import RedisEventStore
from replay import export
from replay.transfer import ImportRefused, import_log
from rules.core.commands import COMMAND_TYPES

EXAMPLES = int(os.environ.get("BLUEGRAY_FUZZ_EXAMPLES", "120"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)

# -- strategies from the msgspec types ----------------------------------------------------------------
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
COMMANDS = typing.Union[tuple(COMMAND_TYPES)]  # noqa: UP007


def of_type(info) -> st.SearchStrategy:
    """JSON-able values of a msgspec type (`msgspec.inspect` info), within its constraints mostly."""
    found = _scalar_of(info)
    if found is None:
        found = _composite_of(info)
    return JSON if found is None else found


def _scalar_of(info) -> st.SearchStrategy | None:
    """Values of a scalar type: integers, floats, strings, booleans, None, literals (None: not one)."""
    i = msgspec.inspect
    match info:
        case i.IntType():
            low = info.ge if info.ge is not None else -(2**33)
            high = info.le if info.le is not None else 2**33
            return st.integers(low, high) | st.integers(-(2**64), 2**64)
        case i.FloatType():
            return st.floats(info.ge, info.le, allow_nan=False, allow_infinity=False)
        case i.StrType():
            if info.pattern:
                return st.from_regex(info.pattern, fullmatch=True)
            return st.text(min_size=info.min_length or 0, max_size=min(info.max_length or 24, 24))
        case i.BoolType():
            return st.booleans()
        case i.NoneType():
            return st.none()
        case i.LiteralType():
            return st.sampled_from(info.values)
    return None


def _composite_of(info) -> st.SearchStrategy | None:
    """Values of a union, a sequence, a dict, a struct, a raw command or an annotated type (None:
    not one)."""
    i = msgspec.inspect
    match info:
        case i.UnionType():
            return st.one_of([of_type(t) for t in info.types])
        case i.ListType() | i.TupleType() | i.VarTupleType() | i.SetType() | i.FrozenSetType():
            item = info.item_type if hasattr(info, "item_type") else info.item_types[0]
            return st.lists(of_type(item), max_size=4)
        case i.DictType():
            return st.dictionaries(st.text(max_size=8), of_type(info.value_type), max_size=3)
        case i.StructType():
            return struct_of(info.cls)
        case i.RawType():
            return struct_of_union(COMMANDS)
        case i.Metadata():
            return of_type(info.type)
    return None


def struct_of(cls: type) -> st.SearchStrategy:
    info = msgspec.inspect.type_info(cls)
    fields = {f.encode_name: of_type(f.type) for f in info.fields if f.required}
    optional = {f.encode_name: of_type(f.type) for f in info.fields if not f.required}
    if info.tag_field:
        fields[info.tag_field] = st.just(info.tag)
    return st.fixed_dictionaries(fields, optional=optional)


def struct_of_union(union) -> st.SearchStrategy:
    return st.one_of([struct_of(t) for t in typing.get_args(union)])


def mutated(message: dict) -> st.SearchStrategy[bytes]:
    """`message` as JSON, as it is or mutated: a field dropped, changed to anything, added; the
    type changed; bytes flipped or cut; nested deep; grown past the size limit; bad UTF-8."""
    text = json.dumps(message).encode()
    keys = sorted(message)
    return st.one_of(
        st.just(text),
        st.sampled_from(keys).map(
            lambda k: json.dumps({x: v for x, v in message.items() if x != k}).encode()
        ),
        st.tuples(st.sampled_from(keys), JSON).map(lambda kv: json.dumps({**message, kv[0]: kv[1]}).encode()),
        st.tuples(st.text(max_size=10), JSON).map(lambda kv: json.dumps({**message, kv[0]: kv[1]}).encode()),
        st.text(max_size=12).map(lambda t: json.dumps({**message, "type": t}).encode()),
        st.tuples(st.integers(0, len(text)), st.binary(min_size=1, max_size=3)).map(
            lambda p: text[: p[0]] + p[1] + text[p[0] + len(p[1]) :]
        ),
        st.integers(0, len(text)).map(lambda n: text[:n]),
        st.integers(100, 3000).map(lambda d: b'{"type": "hello", "x": ' + b"[" * d + b"]" * d + b"}"),
        st.just(json.dumps({**message, "pad": "x" * 70_000}).encode()),
        st.just(text.replace(b'"', b'"\xff', 1)),
    )


CLIENT = struct_of_union(protocol.ClientMessageType).flatmap(mutated) | st.binary(max_size=64)
STATES = ("before", "seated", "spectating", "replaying", "finished")


# -- the websocket ------------------------------------------------------------------------------------
class Table:
    """Connections in each state, opened again when a message moved one out of it."""

    def __init__(self, client) -> None:
        self.client = client
        self.conns: dict[str, WsClient] = {}

    async def open(self) -> None:
        self.game, self.joined = await new_game(self.client)
        over, _ = await new_game(self.client)
        loser = await WsClient(self.client, over["game_id"], over["token"]).connect()
        assert isinstance(await loser.act("resign"), protocol.Ack)
        self.over = over
        for state in STATES:
            await self.reopen(state)

    async def reopen(self, state: str) -> WsClient:
        gid, token = self.game["game_id"], self.game["token"]
        match state:
            case "before":
                c = await unsaid(self.client, gid)
            case "seated":
                c = await WsClient(self.client, gid, token).connect()
            case "spectating":
                c = await WsClient(self.client, gid).connect()
            case "replaying":
                c = await WsClient(self.client, gid).connect()
                await c.send(type="replay_seek", version=1)
                await c.expect(protocol.ReplayFrame)
            case "finished":
                c = await WsClient(self.client, self.over["game_id"], self.over["token"]).connect()
        self.conns[state] = c
        return c


async def version_of(store: RedisEventStore, game_id: str) -> int:
    return await store.version(game_id)


@pytest.fixture
async def table(client):
    t = Table(client)
    await t.open()
    return t


@FUZZ
@given(state=st.sampled_from(STATES), raw=CLIENT, text_frame=st.booleans())
async def test_websocket_every_message_one_answer_in_every_state(
    table, store, caplog, state, raw, text_frame
):
    try:
        decoded = protocol.decode(raw)
    except protocol.ProtocolError:
        decoded = None
    assume(not isinstance(decoded, protocol.ReplayPlay))  # answered by a stream of frames, not one
    c = table.conns[state]
    gid = c.game_id
    before = await version_of(store, gid)
    got = await answers(c, raw, text=text_frame)
    assert len(got) == 1, (state, raw[:200], got)
    answer = got[0]
    assert not c.ws.closed
    if not isinstance(answer, protocol.Ack):
        assert await version_of(store, gid) == before, (state, raw[:200], answer)
    if (
        isinstance(answer, protocol.Welcome)
        or state == "replaying"
        and isinstance(answer, protocol.ReplayFollowing)
    ):
        await table.reopen(state)  # it left its state: a fresh one for the next example
    bad = [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL") or r.exc_info]
    assert not bad, [r.getMessage() for r in bad]


# -- HTTP -------------------------------------------------------------------------------------------
PATHS = [
    ("POST", "/api/games"), ("GET", "/api/games"), ("GET", "/api/games/{id}"), ("POST", "/api/games/{id}/join"),
    ("GET", "/api/games/{id}/report"), ("GET", "/api/games/{id}/export"), ("POST", "/api/games/{id}/fork"),
    ("GET", "/games/{id}/report"), ("GET", "/api/scenarios"), ("GET", "/api/scenarios/{id}"), ("GET", "/healthz"),
    ("GET", "/protocol.schema.json"),
]  # fmt: skip
BODIES = st.one_of(
    struct_of(CreateGame).flatmap(mutated),
    struct_of(JoinGame).flatmap(mutated),
    struct_of(ForkRequest).flatmap(mutated),
    st.binary(max_size=64),
)
QUERY = st.dictionaries(
    st.sampled_from(["limit", "offset", "status", "to", "text", "x"]) | st.text(max_size=5),
    st.text(max_size=12) | st.integers(-(2**70), 2**70).map(str),
    max_size=3,
)
CODES = set(protocol.ErrorCode.__args__)


@FUZZ
@given(route=st.sampled_from(PATHS), which=st.sampled_from(["game", "chattanooga", "other"]),
       other=st.text(st.characters(codec="ascii", categories=["L", "N", "P"]), min_size=1, max_size=12),
       query=QUERY, body=BODIES)  # fmt: skip
async def test_http_never_a_5xx_and_every_refusal_typed(
    table, client, caplog, route, which, other, query, body
):
    method, path = route
    ident = {"game": table.game["game_id"], "chattanooga": "chattanooga", "other": other}[which]
    path = path.replace("{id}", ident.replace("/", "_").replace("?", "_").replace("#", "_"))
    async with client.request(
        method, path, params=query, data=body if method == "POST" else None
    ) as response:
        assert response.status < 500, (method, path, query, body[:200], await response.text())
        if response.status >= 400 and response.content_type == "application/json":
            refused = msgspec.json.decode(await response.read(), type=ErrorReply)
            assert refused.error.code in CODES
    bad = [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL") or r.exc_info]
    assert not bad, [r.getMessage() for r in bad]


# -- import -----------------------------------------------------------------------------------------
@pytest.fixture
async def exported(client, table):
    async with client.get(f"/api/games/{table.game['game_id']}/export") as response:
        return await response.read()


def mutated_log(data: bytes) -> st.SearchStrategy[bytes]:
    lines = data.splitlines()
    return st.one_of(
        st.just(data),
        st.tuples(st.integers(0, len(data) - 1), st.binary(min_size=1, max_size=4)).map(
            lambda p: data[: p[0]] + p[1] + data[p[0] + len(p[1]) :]
        ),
        st.integers(0, len(lines) - 1).map(lambda n: b"\n".join(lines[:n] + lines[n + 1 :])),
        st.integers(0, len(lines) - 1).map(lambda n: b"\n".join(lines[: n + 1] + lines[n:])),
        st.permutations(lines).map(b"\n".join),
        st.tuples(st.integers(0, len(lines) - 1), st.sampled_from(sorted(json.loads(lines[0]))), JSON).map(
            lambda p: b"\n".join(
                json.dumps({**json.loads(lines[i]), p[1]: p[2]}).encode() if i == p[0] else line
                for i, line in enumerate(lines)
            )
        ),
    )


@FUZZ
@given(data=st.data())
async def test_import_of_a_mutated_export_is_exact_or_refused(
    exported, redis_client, key_prefix, caplog, data
):
    raw = data.draw(mutated_log(exported))
    store = RedisEventStore(redis_client, prefix=f"{key_prefix}{uuid.uuid4().hex[:8]}:")
    try:
        envelopes = export.loads(raw)
    except msgspec.DecodeError:
        return  # `bluegray import` refuses a file that is not an export
    try:
        imported = await import_log(store, envelopes)
    except ImportRefused as exc:
        assert exc.reasons
        assert not [k async for k in redis_client.scan_iter(match=f"{store.prefix}*")]  # nothing written
        return
    original = export.loads(exported)
    assert (
        imported.head == original[imported.version - 1].hash.hex()
    )  # the log, or a prefix of it: nothing else


def test_an_export_with_bad_utf8_is_refused_as_not_an_export():
    """Found by the fuzz test above: a byte that is not UTF-8 inside a line escaped as a
    UnicodeDecodeError, which `bluegray import` did not expect (a traceback)."""
    with pytest.raises(msgspec.DecodeError, match="line 1 is not an envelope"):
        export.loads(b'{"version": 1, "type": "\x80"}\n')
