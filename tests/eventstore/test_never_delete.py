"""A game log is never trimmed or deleted: no code may trim or delete stream entries, and the
start-up check refuses a game stream from which entries were deleted.

This file is the one place allowed to name those commands (it greps for them)."""

import re
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from eventstore.envelope import NewEvent
from eventstore.errors import UnsafeServer
from eventstore.safety import check_server
from eventstore.store import RedisEventStore

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = re.compile(
    r"(?i:\bx(trim|del)\b)"  # the commands, and redis-py's xtrim()/xdel()
    r"|\b(MAXLEN|MINID)\b"  # XADD's trimming options, as Redis spells them
    r"|(?<!deque\()\bmaxlen\s*=|\bminid\s*=|\bapproximate\s*="  # ... and as redis-py's xadd() does
)
SOURCES = ("*.py", "*.lua")


def test_no_source_trims_or_deletes_stream_entries():
    offenders = []
    for pattern in SOURCES:
        for path in ROOT.rglob(pattern):
            parts = path.relative_to(ROOT).parts
            if path.resolve() == Path(__file__).resolve() or parts[0].startswith(".") or parts[0] == "var" or "site-packages" in parts:
                continue
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                if FORBIDDEN.search(line):
                    offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not offenders, "stream trimming or deletion found:\n" + "\n".join(offenders)


def test_the_grep_would_see_an_offender():
    assert FORBIDDEN.search('await r.xadd(key, fields, maxlen=100)')
    assert FORBIDDEN.search("redis.call('XTRIM', log, 'MINID', 5)")
    assert FORBIDDEN.search("await redis.xdel(key, '1-0')")
    assert FORBIDDEN.search("redis.call('XADD', log, 'MAXLEN', '~', 1000, '*', 'f', 'v')")
    assert not FORBIDDEN.search("await redis.xadd(key, fields, id='1-0')")
    assert not FORBIDDEN.search("recent = deque(maxlen=100)")  # not a stream


async def test_a_game_stream_with_deleted_entries_is_refused(private_redis):
    client = aioredis.Redis.from_url(private_redis().url)
    store = RedisEventStore(client)
    await store.append("g", [NewEvent(type="t", payload=b"%d" % i) for i in range(3)], 0)
    await check_server(client)
    await client.xdel(store.keys("g").log, "2-0")
    with pytest.raises(UnsafeServer, match=r"\{g:g\}:log: entries were deleted"):
        await check_server(client)
    await client.aclose()
