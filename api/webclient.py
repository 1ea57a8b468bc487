"""The web client: static files (plain ES modules, SVG, CSS: no build step, no CDN) from api/static/.

Pages are one document, `index.html`, served at every address a person opens; its script reads the
path: ``/`` the lobby, ``/join/{game_id}#{invite}`` takes the invited seat (the invite code stays in
the fragment, which browsers never send to a server), ``/play/{game_id}`` a seat this browser holds
(or watching, without one), ``/watch/{game_id}`` watching, ``/players/{name}`` a player's page,
``/leaderboard/{ruleset}/{scenario}`` a battle's leaderboard, ``/tournaments`` the tournaments and
``/tournaments/{id}`` one of them. See docs/WEBCLIENT.md.
"""

from __future__ import annotations

from pathlib import Path

from aiohttp import web

STATIC = Path(__file__).parent / "static"
PAGES = (
    "/", "/join/{game_id}", "/play/{game_id}", "/watch/{game_id}", "/players/{name}", "/leaderboard/{ruleset}/{scenario}",
    "/tournaments", "/tournaments/{tournament_id}",
)


async def page(request: web.Request) -> web.FileResponse:
    return web.FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


async def editor_page(request: web.Request) -> web.FileResponse:
    """The scenario editor (api/static/editor.html; docs/SCENARIOS.md "The editor")."""
    return web.FileResponse(STATIC / "editor.html", headers={"Cache-Control": "no-cache"})


async def service_worker(request: web.Request) -> web.FileResponse:
    """The Web Push service worker (api/static/sw.js), at the root so that its scope is the site."""
    return web.FileResponse(
        STATIC / "sw.js", headers={"Cache-Control": "no-cache", "Content-Type": "text/javascript"}
    )


def setup_web_client(app: web.Application) -> None:
    """Add the client's pages and its static files (``/static/...``) to `app`."""
    for path in PAGES:
        app.router.add_get(path, page)
    app.router.add_get("/editor", editor_page)
    app.router.add_get("/sw.js", service_worker)
    app.router.add_static("/static/", STATIC, append_version=False)
