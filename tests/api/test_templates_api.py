"""The lobby never offers a battle template (scenarios/template.py): `GET /api/scenarios` leaves it out,
and neither its description nor a game on it is served until an owner completes it."""

from apiharness import SEED_HEX

from scenarios.loader import list_templates


async def test_a_template_is_not_offered_as_playable(client):
    templates = [t[0] for t in list_templates()]
    assert "first_bull_run" in templates
    listed = [s["id"] for s in await (await client.get("/api/scenarios")).json()]
    assert listed and not set(templates) & set(listed)
    assert (await client.get("/api/scenarios/first_bull_run")).status == 404
    body = {"scenario": "first_bull_run", "side": "union", "options": {"dice": "insecure", "seed": SEED_HEX}}
    created = await client.post("/api/games", json=body)
    assert created.status in (400, 404, 422), await created.text()
    body["scenario"] = "chattanooga"  # the same request on a playable battle is accepted
    assert (await client.post("/api/games", json=body)).status == 201
