"""What the server keeps per game once its users have left (issue 37, defect 8: RSS grew about 1.3 MB
per game created in a soak; is it a bounded cache or a leak?).

Games are created, joined, watched, played a few commands and left, through the real application;
then everything reachable from the application and from the modules of the server is walked, and
every container (dict, set, list) that holds game ids is counted. Only the bounded caches may hold
them, each within its bound (docs/PERFORMANCE.md, "Memory per game"). Nothing here measures RSS or
time: a structure's size is what is asserted.
"""

from __future__ import annotations

import asyncio
import random
import sys
import types

from apiharness import WsClient, new_game, play_steps

from api.app_keys import GAMES, LIVE, STORE, TAIL
from session import games as game_cache

BATTLES = ("chattanooga", "chickamauga", "wilderness", "fredericksburg", "cemetery_hill", "road_to_richmond", "shiloh", "antietam")
GAMES_PLAYED = 150
HEADS_KEPT = 40  # the store's bound of its heads cache, lowered for the test (default 10,000)
PACKAGES = ("api", "session", "replay", "rules", "eventstore", "accounts", "players", "scenarios")


def holders(roots: list[tuple[str, object]], ids: set[str]) -> dict[str, set[str]]:
    """Every container reachable from ``roots`` that holds one of ``ids`` (as a key, a value, or in a
    tuple key; a running coroutine's locals included): its path from a root, and the ids it holds."""
    found: dict[str, set[str]] = {}
    seen: set[int] = set()
    queue = list(roots)
    while queue:
        path, o = queue.pop()
        if id(o) in seen or isinstance(o, (str, bytes, int, float, bool, type(None), types.CodeType)):
            continue
        seen.add(id(o))
        if isinstance(o, types.ModuleType) and path != o.__name__:
            continue  # a module is walked from its own root
        if isinstance(o, dict):
            items = list(o.items())
            held = {k for k, _ in items if k in ids} if items and isinstance(items[0][0], str) else set()
            held |= {x for k, _ in items if isinstance(k, tuple) for x in k if isinstance(x, str) and x in ids}
            held |= {v for _, v in items if isinstance(v, str) and v in ids}
            queue += [(f"{path}[{str(k)[:24]}]", v) for k, v in items]
        elif isinstance(o, (list, tuple, set, frozenset)):
            members = list(o)
            held = {m for m in members if isinstance(m, str) and m in ids}
            queue += [(f"{path}[{i}]", v) for i, v in enumerate(members)]
        else:
            held = set()
            try:
                queue += [(f"{path}.{k}", v) for k, v in vars(o).items()]
            except TypeError:  # no __dict__: its slots and whatever else it refers to
                import gc

                queue += [(f"{path}<{type(o).__name__}>", v) for v in gc.get_referents(o)]
        if held:
            found[path] = held
    return found


async def test_games_left_by_their_users_leave_only_bounded_caches_behind(client):
    app = client.server.app
    app[STORE].heads_kept = HEADS_KEPT
    rng = random.Random(37)
    ids: set[str] = set()
    for _ in range(GAMES_PLAYED):
        game, joined = await new_game(client)
        gid = game["game_id"]
        ids.add(gid)
        union = await WsClient(client, gid, game["token"]).connect()
        confederate = await WsClient(client, gid, joined["token"]).connect()
        spectator = await WsClient(client, gid).connect(spectate=True)
        await play_steps(union, confederate, rng, 3)
        for ws in (union, confederate, spectator):
            await ws.close()
    for _ in range(100):  # the last game's close is a task of the server's: until it has run
        if app[LIVE].count() == 0 and not any(app[TAIL].follows(gid) for gid in ids):
            break
        await asyncio.sleep(0.05)
    assert app[LIVE].count() == 0  # every live game closed when its last user left
    assert not any(app[TAIL].follows(gid) for gid in ids)  # and no longer followed by the tail

    roots = [("app", app)] + [(name, sys.modules[name]) for name in list(sys.modules) if name.split(".")[0] in PACKAGES]
    for _ in range(50):  # the tail forgets an emptied game on its next read: a guard, not a measure
        found = holders(roots, ids)
        if all(path.endswith("._heads") for path in found):
            break
        await asyncio.sleep(0.2)
    heads = [path for path in found if path.endswith("._heads")]
    assert heads, found  # the walk reaches the store's cache (it would miss a leak otherwise)
    assert all(len(found[path]) <= HEADS_KEPT for path in heads), {p: len(found[p]) for p in heads}  # its bound
    # Anywhere else: at most the game whose work is still in flight (a worker's local variable, the
    # tail's entry until its next read), never one per game played.
    elsewhere = set().union(*(held for path, held in found.items() if not path.endswith("._heads")))
    assert len(elsewhere) <= 2, {path: len(held) for path, held in found.items()}


async def test_the_rules_contexts_of_many_battles_rule_sets_and_options_are_an_lru_of_its_bound(client):
    """Defect 8: a `Game` (the rules tables of one scenario, rule set and rules options) is 2-3 MiB
    built and up to about 11 MiB with its caches; each `GameCache` kept every one it ever built (and
    the process-wide one up to 64). Games of more combinations than the bound are created: both
    caches hold at most `KEPT_GAMES`, the last used."""
    cache = client.server.app[GAMES]
    created = []
    for battle in BATTLES:
        for ruleset in ("classic", "revised"):
            for effectiveness in (False, True):
                body = {"scenario": battle, "ruleset": ruleset, "options": {"attack_effectiveness": effectiveness}}
                response = await client.post("/api/games", json=body)
                if response.status == 201:  # a battle the rule set cannot play is refused (a gunboat, 9.6)
                    created.append((battle, ruleset, effectiveness))
                assert len(cache._games) <= game_cache.KEPT_GAMES and len(game_cache._GAMES) <= game_cache.KEPT_GAMES
    assert len(created) > game_cache.KEPT_GAMES  # more combinations than the bound were built
    battle, ruleset, effectiveness = created[-1]
    last = cache.game(battle, ruleset, {"attack_effectiveness": effectiveness})
    assert list(cache._games.values())[-1] is last  # the last used is kept
