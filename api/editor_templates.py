"""The battle templates for the editor (scenarios/template.py): ``GET /api/templates`` lists them with
what each still needs; ``GET /api/templates/{id}`` gives one as the editor completes it: what its
scenario.toml and oob.toml hold (a field the text does not give is ``"?"``, its reason in the unit's
``unknown``), its map when it has one, the hexes the text names, and every missing item with its reason.
Completed and saved (POST /api/scenarios), it is a variant deriving from the template, offered by the
lobby like any saved scenario."""

from __future__ import annotations

from aiohttp import web

from api.games import HttpError
from api.http import json
from scenarios import loader, template
from scenarios.source import Files


async def templates(request: web.Request) -> web.Response:
    return json([
        {"id": tid, "name": name, "missing": [{"what": m.what, "reason": m.reason} for m in missing],
         "problems": [str(p) for p in problems]}
        for tid, name, missing, problems in loader.list_templates()
    ])


async def one_template(request: web.Request) -> web.Response:
    wanted = request.match_info["template_id"]
    for folder in loader.template_folders():
        files = Files(folder)
        data = files.scenario.data or {}
        if wanted not in (folder.name, data.get("id")) or (folder / template.SETUP).is_file():
            continue
        _, missing = template.check(folder)
        table = data.get("template") or {}
        return json({
            "id": data.get("id", folder.name),
            "scenario": {k: v for k, v in data.items() if k != "template"},
            "map": files.map.data if files.map.problem is None else None,
            "units": (files.oob.data or {}).get("unit") or [],
            "hexes": table.get("hexes") or {},
            "areas": table.get("areas") or {},
            "missing": [{"what": m.what, "reason": m.reason} for m in missing],
        })
    raise HttpError(404, "not_found", "no such template")


def setup_template_routes(app: web.Application) -> None:
    app.router.add_get("/api/templates", templates)
    app.router.add_get("/api/templates/{template_id}", one_template)
