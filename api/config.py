"""The game server's settings: where the event store is, and the limits every connection lives by."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from accounts.limits import LoginLimit
from accounts.passwords import Cost
from accounts.reports import ReportLimit


@dataclass(frozen=True, kw_only=True)
class ServerConfig:
    """Everything `api.app.make_app` needs. Defaults suit a public server; tests tighten them."""

    redis_url: str
    #: A key prefix for every key the store touches (tests give each app its own).
    prefix: str = ""
    #: Run on a Redis that could lose acknowledged events (the start-up check only warns).
    unsafe_redis: bool = False
    #: Acknowledge a command only once this many replicas have its events (WAIT after each append;
    #: 0: on the primary alone). On a cluster with one replica per primary, 1 means a shard whose
    #: primary failed takes no command until a replica is back (the old primary, restarted).
    ack_replicas: int = 0
    #: With `ack_replicas`: wait until the replicas have the events in their append-only file
    #: (WAITAOF) rather than in memory (WAIT).
    ack_replicas_aof: bool = False
    #: Milliseconds an append waits for its replicas before it is answered `unavailable`.
    ack_timeout_ms: int = 2000
    #: Connections to Redis (besides the live tail's own); a request waits for a free one (on a
    #: cluster: up to this many per node).
    redis_connections: int = 64
    #: Times a Redis command is tried again on a lost connection (with a backoff from 10 ms doubling
    #: to 1 s: 12 is about six seconds, long enough for a supervised embedded server to come back);
    #: after that the request is answered `unavailable`.
    redis_retries: int = 12
    #: Seconds a call to the store may take, its retries included, before the request is answered
    #: `unavailable` with `retry_after` (a store that stalls: SIGSTOP, a blocked disk, a lossy
    #: network; eventstore/deadline.py). Above `ack_timeout_ms`, so a WAIT for replicas ends first.
    store_deadline: float = 3.0

    # -- websocket limits ------------------------------------------------------------------------
    #: A message longer than this is answered `too_large` (the connection stays open).
    max_message_bytes: int = 64 * 1024
    #: A frame longer than this closes the connection (the websocket layer refuses to read it).
    hard_message_bytes: int = 1024 * 1024
    #: Messages a connection may send per second on average, and in a burst.
    rate_per_second: float = 20.0
    rate_burst: int = 40
    #: Messages refused as `rate_limited` within a minute after which the connection is closed (4029).
    rate_abuse: int = 1000
    #: Connections (players and spectators) one game accepts in this process.
    max_connections_per_game: int = 2000
    #: Messages waiting for one socket; a socket that falls this far behind is cut off (it
    #: reconnects with its last version and catches up).
    queue_size: int = 512
    #: Websocket ping interval (seconds); a peer that does not answer is dropped.
    heartbeat: float = 20.0

    # -- the game --------------------------------------------------------------------------------
    #: A client that misses more events than this gets a render-ready snapshot instead of them.
    snapshot_after: int = 200
    #: Recent events kept encoded in memory per live game, for reconnects.
    recent_events: int = 256
    #: Seconds a seat waits after its first declined or withdrawn undo request (doubling after each).
    undo_backoff_seconds: float = 30.0
    #: Times an action is decided again after another process appended first.
    conflict_retries: int = 8
    #: Seconds between writes of a played game's entry in the game index (GET /api/games), when
    #: something it lists has changed.
    index_delay: float = 2.0
    #: Whether a game may be created with the insecure fixed-seed dice option (its record says so).
    allow_insecure_dice: bool = True
    #: The live tail's XREAD BLOCK (milliseconds).
    tail_block_ms: int = 1000

    # -- saved scenarios (scenarios/library.py) -----------------------------------------------------
    #: Where saved scenarios are kept (None: the shipped battles only).
    scenarios_dir: Path | None = None
    #: Whether anyone may save a scenario (the editor's save, an upload): off unless the operator
    #: starts `serve --allow-uploads`.
    allow_uploads: bool = False
    #: Saved scenario versions kept in all; a save past it is refused.
    max_saved_scenarios: int = 500
    #: Per owner (a signed-in account, else a client address: `trust_forwarded_for`): saved versions
    #: and their bytes; and the bytes of the whole library. A save past one is refused `quota`.
    saves_per_owner: int = 20
    bytes_per_owner: int = 5 * 1024 * 1024
    library_bytes: int = 256 * 1024 * 1024

    # -- accounts (accounts/, api/accounts.py) ------------------------------------------------------
    #: The Argon2id cost of a password hash (RFC 9106's second recommendation; tests lower it).
    password_cost: Cost = field(default_factory=Cost)
    #: Failed log-ins allowed per account and per address in a window.
    login_limit: LoginLimit = field(default_factory=LoginLimit)
    report_limit: ReportLimit = field(default_factory=ReportLimit)  # chat reports per account (api/moderation.py)
    #: Take a client's address from X-Forwarded-For (its last entry, as HAProxy's `option forwardfor`
    #: adds it): only behind a proxy that sets it.
    trust_forwarded_for: bool = False

    # -- notifications (api/notifier.py) ------------------------------------------------------------
    #: The SMTP server that sends "your move" mail (smtp://host:port); None: no mail.
    smtp_url: str | None = None
    mail_from: str = "Blue & Gray <noreply@localhost>"
    #: The server's address as players reach it (for links in notifications), e.g. https://bg.example.
    public_url: str | None = None
    #: Tries of a webhook POST, and the first wait between them (seconds, doubling).
    webhook_tries: int = 4
    webhook_backoff: float = 1.0
    #: Let webhooks and pushes go to loopback and private addresses (a test's receiver); off: no SSRF.
    webhook_private_addresses: bool = False
    #: Web Push (api/push.py): the PEM file of the server's VAPID P-256 private key (None: no push),
    #: and the contact the push services are given (``mailto:...`` or an https URL).
    vapid_private_key: str | None = None
    vapid_subject: str | None = None
