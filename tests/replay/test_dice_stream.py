"""A duplicate pair's dice stream in game_created (session/records.py, session/history.py): written
only when set, so every other game's first event is byte for byte what it was; and when set, it and
the pair's nonces are what the rolls are derived from."""

import msgspec

from session import records
from session.records import GameCreated

PLAIN = GameCreated(
    game_id="g1", rules_version="r", server_version="s", scenario="chattanooga", scenario_hash="h",
    ruleset="classic", seed_hash="00" * 32, creator="union",
)

#: game_created as written before dice_stream existed (fields in order, none left out).
BEFORE = (
    b'{"type":"game_created","schema":1,"game_id":"g1","rules_version":"r","server_version":"s",'
    b'"scenario":"chattanooga","scenario_hash":"h","ruleset":"classic","rules_options":{},'
    b'"options":{"undo":"consent","undo_dice":false,"spectator_delay":0,"spectator_delay_phases":0,'
    b'"silence_seconds":604800,"clock":null},"dice":"fair","seed_hash":"' + b"00" * 32 + b'",'
    b'"insecure_seed":null,"creator":"union","fork":null,"rated":false}'
)


def test_a_game_created_without_a_dice_stream_is_written_as_before():
    assert records.encode(PLAIN) == BEFORE
    assert records.decode(BEFORE) == PLAIN


def test_a_duplicate_pairs_game_created_carries_its_stream_and_nonces():
    pair = msgspec.structs.replace(PLAIN, dice_stream="T1.r1.p1", dice_nonces="nonce-aaa:nonce-bbb")
    data = records.encode(pair)
    assert data.endswith(b',"rated":false,"dice_stream":"T1.r1.p1","dice_nonces":"nonce-aaa:nonce-bbb"}')
    assert records.decode(data) == pair
