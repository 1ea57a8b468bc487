"""The JSON Schema of the server's protocol, generated from its msgspec types: every websocket
message both ways (``client``, ``server``), what travels inside them (a rules ``command``, an
event's ``data``, the ``choices``), and the bodies and queries of the HTTP API (``http``).

Committed as docs/protocol.schema.json (a test fails when it is stale; `python -m api.schema`
prints it) and served at ``GET /protocol.schema.json``.
"""

from __future__ import annotations

import functools
import inspect
import json
from typing import Union

import msgspec
from aiohttp import web

from accounts.notifications import Settings
from accounts.push import Subscription, Unsubscribe
from api import (
    accounts,
    bots,
    games,
    http,
    lobby,
    moderation,
    my_games,
    notifications,
    protocol,
    replaying,
    standings,
    tournaments,
    views,
)
from rules.core.commands import COMMAND_TYPES
from rules.core.events import EVENT_TYPES
from rules.legal import Choices
from session.records import RecordType


def http_types() -> dict[str, type]:
    """The HTTP API's bodies and queries, by name (docs/PROTOCOL.md, "HTTP")."""
    return {
        "create_game": games.CreateGame,
        "created": games.Created,
        "join_game": games.JoinGame,
        "joined": games.Joined,
        "list_query": http.ListQuery,
        "game_list": games.GameList,
        "game": views.GameView,
        "log_query": replaying.LogQuery,
        "fork_game": replaying.ForkRequest,
        "forked": replaying.Forked,
        "error": http.ErrorReply,
        "health": http.Health,
        "credentials": accounts.Credentials,
        "password_change": accounts.PasswordChange,
        "me": accounts.Me,
        "session_state": accounts.SessionState,
        "my_games_query": my_games.MyGamesQuery,
        "my_games": my_games.MyGames,
        "propose": lobby.Propose,
        "proposal": lobby.Proposal,
        "lobby": lobby.Lobby,
        "started": lobby.Started,
        "settings": Settings,
        "mute": notifications.Mute,
        "push_key": notifications.PushKey,
        "push_subscription": Subscription,
        "push_unsubscribe": Unsubscribe,
        "push_devices": notifications.PushDevices,
        "player": standings.Player,
        "board_query": standings.BoardQuery,
        "leader": standings.Leader,
        "new_bot": bots.NewBot,
        "bot_token": bots.BotToken,
        "blocks": moderation.Blocks,
        "report_chat": moderation.ReportChat,
        "reported": moderation.Reported,
        "report_list": moderation.ReportList,
        "abort": moderation.Abort,
        "aborted": moderation.Aborted,
        "account_state": moderation.AccountState,
        "create_tournament": tournaments.CreateTournament,
        "enter_tournament": tournaments.EnterTournament,
        "tournament": tournaments.TournamentView,
        "tournament_list": tournaments.TournamentList,
        "tournament_list_query": tournaments.ListQuery,
    }


def schema() -> dict:
    """The whole schema (see the module documentation)."""
    commands = Union[tuple(sorted(COMMAND_TYPES, key=lambda t: t.__struct_config__.tag))]  # noqa: UP007
    events = Union[(*RecordType.__args__, *sorted(EVENT_TYPES, key=lambda t: t.__struct_config__.tag))]  # noqa: UP007
    bodies = http_types()
    (client, server, command, data, offered, *http), components = msgspec.json.schema_components(
        [protocol.ClientMessageType, protocol.ServerMessageType, commands, events, Choices, *bodies.values()]
    )
    components = {name: _cleaned(definition) for name, definition in components.items()}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Blue & Gray game server protocol",
        "description": "client: what a client sends on the websocket; server: what the server sends; command: "
        "the rules command inside a `command` message; event: the `data` of an event; choices: the `choices` "
        "of a `choices` message; http: the HTTP API's request and response bodies and queries. See "
        "docs/PROTOCOL.md.",
        "$defs": components,
        "properties": {
            "client": client,
            "server": server,
            "command": command,
            "event": data,
            "choices": offered,
            "http": {"type": "object", "properties": dict(zip(bodies, http, strict=True))},
        },
    }


def _cleaned(definition: dict) -> dict:
    """A definition with its docstring ``description`` cleaned by ``inspect.cleandoc`` ourselves:
    msgspec 0.22 kept the docstring's indentation and 0.23 removes it, and the schema a client reads
    must not change with the library's release."""
    if "description" in definition:
        definition = {**definition, "description": inspect.cleandoc(definition["description"])}
    return definition


@functools.cache
def schema_json() -> bytes:
    """`schema()` as the committed file's text."""
    return (json.dumps(schema(), indent=2, sort_keys=True) + "\n").encode()


async def serve_schema(request: web.Request) -> web.Response:
    """GET /protocol.schema.json."""
    return web.Response(body=schema_json(), content_type="application/schema+json")


if __name__ == "__main__":
    import sys

    sys.stdout.buffer.write(schema_json())
