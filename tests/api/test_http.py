"""The HTTP endpoints: create (the creator's token and an invite, never the opponent's token), join
once, list, inspect, scenarios, health."""

import msgspec
from apiharness import create, join, new_game

from api.seats import hashed


async def test_health_and_scenarios(client):
    health = await (await client.get("/healthz")).json()
    assert health["ok"] is True and health["rules_version"]
    listed = await (await client.get("/api/scenarios")).json()
    by_id = {s["id"]: s for s in listed}
    assert by_id["chattanooga"]["name"] == "Chattanooga: Gateway to Victory, Nov. 24-25, 1863"
    # the lobby's line of each battle: name, date, Game-Turns, map size (columns x rows)
    assert by_id["chickamauga"] == {
        "id": "chickamauga",
        "name": "Chickamauga, Sept. 19-20, 1863",
        "battle": "Chickamauga",
        "date": "Sept. 19-20, 1863",
        "turns": 15,
        "columns": 25,
        "rows": 28,
        "rulesets": ["revised"],
        "options": [],
    }
    # the Wilderness's optional rules (20.1, 20.2), chosen at game creation with `rules: {name: true}`
    assert [o["name"] for o in by_id["wilderness"]["options"]] == ["picketts_division", "general_burnside"]
    for s in listed:  # every scenario, those landing later too
        assert s["battle"] and s["date"][-4:].isdigit()
        assert s["turns"] > 0 and s["columns"] > 0 and s["rows"] > 0
    scenario = await (await client.get("/api/scenarios/chattanooga")).json()
    assert scenario["id"] == "chattanooga" and scenario["units"] and scenario["map"]["hexes"]
    assert (await client.get("/api/scenarios/atlantis")).status == 404


async def test_the_creator_gets_his_token_and_an_invite_never_the_opponents_token(client, redis_client, key_prefix):
    game = await create(client, side="confederate")
    assert set(game) == {"game_id", "seat", "token", "invite", "invite_url", "version"}
    assert game["seat"] == "confederate" and game["invite_url"].endswith("#" + game["invite"])
    joined = await join(client, game)
    assert joined["seat"] == "union" and joined["token"] != game["token"]
    # Neither token nor the invite is stored anywhere in the clear, nor shown by any endpoint.
    secrets = [game["token"], joined["token"], game["invite"]]
    for key in await redis_client.keys(f"{key_prefix}*"):
        kind = await redis_client.type(key)
        if kind == b"hash":
            blob = msgspec.json.encode({k.hex(): v.hex() for k, v in (await redis_client.hgetall(key)).items()})
        elif kind == b"stream":
            blob = msgspec.json.encode([[i.decode(), {k.decode(): v.hex() for k, v in f.items()}] for i, f in await redis_client.xrange(key)])
        else:
            continue
        for secret in secrets:
            assert secret.encode().hex() not in blob.decode()
    seats = await redis_client.hgetall(f"{key_prefix}{{g:{game['game_id']}}}:seats")
    assert seats[b"token:confederate"] == hashed(game["token"]) and seats[b"token:union"] == hashed(joined["token"])
    view = await (await client.get(f"/api/games/{game['game_id']}")).text()
    for secret in secrets:
        assert secret not in view


async def test_an_invite_works_once_and_only_for_its_game(client):
    game = await create(client)
    other = await create(client)
    wrong = await client.post(f"/api/games/{other['game_id']}/join", json={"invite": game["invite"]})
    assert wrong.status == 403 and (await wrong.json())["error"]["code"] == "unauthorized"
    await join(client, game)
    again = await client.post(f"/api/games/{game['game_id']}/join", json={"invite": game["invite"]})
    assert again.status == 403


async def test_inspect_shows_the_game_and_the_rules_version(client):
    game, _ = await new_game(client, options={"undo": "none", "silence_seconds": 3600})
    view = await (await client.get(f"/api/games/{game['game_id']}")).json()
    assert view["status"] == "active" and view["seats"] == {"union": True, "confederate": True}
    assert view["version"] == 3 and view["turn"] == 1 and view["to_act"] == "union"
    assert view["rules_version"] and view["dice"] == "insecure" and view["options"]["undo"] == "none"
    assert (await client.get("/api/games/nosuchgame")).status == 404
    assert (await client.get("/api/games/bad:id")).status == 400


async def test_games_are_listed_newest_first_in_pages(client):
    ids = [(await create(client))["game_id"] for _ in range(3)]
    await join(client, await create(client))
    page = await (await client.get("/api/games?status=open&limit=2")).json()
    assert [g["game_id"] for g in page["games"]] == ids[::-1][:2] and page["next"] is not None
    rest = await (await client.get(f"/api/games?status=open&limit=2&offset={page['next']}")).json()
    assert [g["game_id"] for g in rest["games"]] == ids[:1]
    active = await (await client.get("/api/games?status=active")).json()
    assert len(active["games"]) == 1 and active["games"][0]["to_act"] == "union"
    assert (await client.get("/api/games?status=nonsense")).status == 400


async def test_bad_creations_are_refused(client):
    cases = [
        ({"scenario": "chattanooga", "ruleset": "revised-3rd"}, 400),
        ({"scenario": "chattanooga", "dice_nonce": "short"}, 400),
        ({"scenario": "chattanooga", "options": {"seed": "00" * 32}}, 400),
        ({"scenario": "chattanooga", "options": {"dice": "insecure", "seed": "00"}}, 400),
        ({"scenario": "chattanooga", "options": {"undo": "sometimes"}}, 400),
        ({"scenario": "chattanooga", "colour": "blue"}, 400),
        ({"scenario": "chattanooga", "options": {"spectator_delay": 201}}, 400),
        ({"scenario": "chattanooga", "options": {"spectator_delay_phases": 21}}, 400),
        ({"scenario": "chattanooga", "options": {"spectator_delay_phases": -1}}, 400),
    ]
    for body, status in cases:
        response = await client.post("/api/games", json=body)
        assert response.status == status, (body, await response.text())
        assert (await response.json())["error"]["code"] == "malformed"
    unknown = await client.post("/api/games", json={"scenario": "atlantis"})
    assert unknown.status == 404 and (await unknown.json())["error"]["code"] == "not_found"
    assert (await client.post("/api/games", data=b"{not json")).status == 400
