"""The typed keys of the application's state (aiohttp `AppKey`): what api/app.py puts in the app."""

from __future__ import annotations

from aiohttp import web

from accounts.limits import LoginLimits
from accounts.notifications import Notifications
from accounts.passwords import Passwords
from accounts.push import PushSubscriptions
from accounts.ratings import Ratings
from accounts.reports import Reports
from accounts.store import Accounts
from api.config import ServerConfig
from api.engine_review import ReviewCache
from api.live.hub import LiveGames
from api.metrics import Metrics
from api.notifier import Notifier
from api.opponents import Opponents
from api.rating_games import Rater
from api.reminders import Reminders
from api.seats import Seats
from api.shutdown import Shutdown
from api.tournament_director import Director
from eventstore.store import RedisEventStore
from eventstore.tail import Tail
from scenarios.library import Library
from session.games import GameCache

CONFIG = web.AppKey("config", ServerConfig)
SERVER_VERSION = web.AppKey("server_version", str)
GAMES = web.AppKey("games", GameCache)
STORE = web.AppKey("store", RedisEventStore)
SEATS = web.AppKey("seats", Seats)
TAIL = web.AppKey("tail", Tail)
LIVE = web.AppKey("live", LiveGames)
OPPONENTS = web.AppKey("opponents", Opponents)
REVIEWS = web.AppKey("reviews", ReviewCache)
LIBRARY = web.AppKey("library", Library)
METRICS = web.AppKey("metrics", Metrics)
SHUTDOWN = web.AppKey("shutdown", Shutdown)
#: The open websockets (api/ws.py's one object per connection), for the metrics and the shutdown.
SOCKETS = web.AppKey("sockets", set)
#: Players' accounts and sessions, password hashing and the limit on failed log-ins (api/accounts.py).
ACCOUNTS = web.AppKey("accounts", Accounts)
PASSWORDS = web.AppKey("passwords", Passwords)
LOGIN_LIMITS = web.AppKey("login_limits", LoginLimits)
#: The moderation queue: players' reports of chat lines (api/moderation.py).
REPORTS = web.AppKey("reports", Reports)
#: Each player's notification choices, and the worker that sends them (api/notifier.py).
NOTIFICATIONS = web.AppKey("notifications", Notifications)
NOTIFIER = web.AppKey("notifier", Notifier)
#: Each player's Web Push subscriptions (accounts/push.py; sent to by api/push.py).
PUSH = web.AppKey("push", PushSubscriptions)
#: The reminders before a flag falls (api/reminders.py), started and stopped with the notifier.
REMINDERS = web.AppKey("reminders", Reminders)
#: Players' ratings, and the rating of finished rated games (api/rating_games.py).
RATINGS = web.AppKey("ratings", Ratings)
RATER = web.AppKey("rater", Rater)
#: The tournaments, and the director that plays them out (api/tournament_director.py).
TOURNAMENTS = web.AppKey("tournaments", Director)
