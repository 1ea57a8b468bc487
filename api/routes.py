"""Every route of the server, in one place."""

from __future__ import annotations

from aiohttp import web

from api import http, my_games, replaying, schema, ws
from api.accounts import setup_account_routes
from api.bots import setup_bot_routes
from api.editor import setup_editor_routes
from api.editor_templates import setup_template_routes
from api.lobby import setup_lobby_routes
from api.moderation import setup_moderation_routes
from api.notifications import setup_notification_routes
from api.standings import setup_standing_routes
from api.webclient import setup_web_client


def setup_routes(app: web.Application) -> None:
    app.router.add_post("/api/games", http.create_game)
    app.router.add_get("/api/games", http.list_games)
    app.router.add_get("/api/games/{game_id}", http.inspect_game)
    app.router.add_post("/api/games/{game_id}/join", http.join_game)
    app.router.add_get("/api/games/{game_id}/report", replaying.report_json)
    app.router.add_get("/api/games/{game_id}/export", replaying.export_log)
    app.router.add_post("/api/games/{game_id}/fork", replaying.fork_game)
    app.router.add_get("/games/{game_id}/report", replaying.report_html)  # the report as a page
    setup_account_routes(app)  # accounts and sessions (api/accounts.py)
    app.router.add_get("/api/me/games", my_games.my_games)
    setup_lobby_routes(app)  # seeks and challenges (api/lobby.py)
    setup_bot_routes(app)  # bot accounts and their API tokens (api/bots.py)
    setup_notification_routes(app)  # each player's choices (api/notifications.py)
    setup_moderation_routes(app)  # blocks, chat reports, admins (api/moderation.py)
    setup_standing_routes(app)  # players' pages and leaderboards (api/standings.py)
    app.router.add_get("/api/scenarios", http.scenarios)
    setup_editor_routes(app)  # before /api/scenarios/{scenario_id}: check, save, documents (api/editor.py)
    app.router.add_get("/api/scenarios/{scenario_id}", http.scenario)
    setup_template_routes(app)  # the battle templates the editor completes (api/editor_templates.py)
    app.router.add_get("/healthz", http.healthz)
    app.router.add_get("/metrics", http.metrics)
    app.router.add_get("/protocol.schema.json", schema.serve_schema)
    app.router.add_get("/ws", ws.websocket)
    setup_web_client(app)  # the browser client: pages and /static/ (api/webclient.py)
