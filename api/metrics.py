"""What an operator watches: ``GET /metrics`` in the Prometheus text format (prometheus-client).

One registry per application (never the library's global one: two apps in one process, as in the
tests, keep their own counts). Counted as things happen: every websocket message by type and outcome,
the latency of actions (the messages that append to a game's log), the event store's round trips and
errors, rate-limit refusals. Read when scraped: websockets open by role, games live, the broadcast
queues, the store client's retries after a lost connection (docs/OPERATIONS.md lists them all).
"""

from __future__ import annotations

from collections import Counter as Counter_
from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

from eventstore.errors import store_unavailable

#: The text format ``generate_latest`` writes.
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

#: Latency buckets (seconds): a loopback command takes about a millisecond, a stalled store seconds.
BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0)


class Metrics:
    """The server's metrics; ``observe_*`` are called where things happen."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.messages = Counter(
            "bluegray_messages",
            "Websocket messages answered, by type (a rules command by its own type) and outcome "
            "(ok, or the error code sent)",
            ["type", "outcome"],
            registry=self.registry,
        )
        self.command_seconds = Histogram(
            "bluegray_command_seconds",
            "From an action's arrival (a rules command, chat, undo, draw, resignation...) to its answer",
            buckets=BUCKETS,
            registry=self.registry,
        )
        self.store_seconds = Histogram(
            "bluegray_store_seconds",
            "Round trips to the event store, by operation (append: the append script and any WAIT; "
            "read: one page of a log)",
            ["op"],
            buckets=BUCKETS,
            registry=self.registry,
        )
        self.store_errors = Counter(
            "bluegray_store_errors",
            "Event store round trips that failed because the store was out of reach, by operation",
            ["op"],
            registry=self.registry,
        )
        self.rate_limited = Counter(
            "bluegray_rate_limited",
            "Websocket messages refused as rate_limited (the per-connection limit)",
            registry=self.registry,
        )
        #: The open websockets (the app's SOCKETS): objects with a ``role`` (player, spectator,
        #: connecting) and ``queued`` (messages waiting for it).
        self.sockets: set = set()
        #: Read at scrape time, set by api/app.py once the store and the live games exist.
        self.games_live: Callable[[], int] = lambda: 0
        self.store_retries: Callable[[], int] = lambda: 0
        self.registry.register(_Now(self))

    def observe_message(self, type_: str, outcome: str, seconds: float, action: bool) -> None:
        self.messages.labels(type_, outcome).inc()
        if action:
            self.command_seconds.observe(seconds)
        if outcome == "rate_limited":
            self.rate_limited.inc()

    def observe_store(self, op: str, seconds: float, error: BaseException | None) -> None:
        """The store's observer (eventstore/store.py ``RedisEventStore.observe``)."""
        self.store_seconds.labels(op).observe(seconds)
        if error is not None and store_unavailable(error):
            self.store_errors.labels(op).inc()

    def text(self) -> bytes:
        return generate_latest(self.registry)


class _Now:
    """The figures read at scrape time."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def describe(self):
        return []

    def collect(self):
        m = self.metrics
        open_sockets = list(m.sockets)
        roles = Counter_(s.role for s in open_sockets)
        queued = [s.queued for s in open_sockets]
        sockets = GaugeMetricFamily(
            "bluegray_websockets_open",
            "Websockets open, by role (player, spectator, or connecting: no hello yet)",
            labels=["role"],
        )
        for role in ("player", "spectator", "connecting"):
            sockets.add_metric([role], roles[role])
        yield sockets
        yield GaugeMetricFamily("bluegray_games_live", "Games followed live by this process", value=m.games_live())
        yield GaugeMetricFamily(
            "bluegray_broadcast_queue_depth",
            "Messages waiting to be sent, summed over every websocket of this process",
            value=sum(queued),
        )
        yield GaugeMetricFamily(
            "bluegray_broadcast_queue_depth_max",
            "Messages waiting to be sent to the one websocket furthest behind",
            value=max(queued, default=0),
        )
        yield CounterMetricFamily(
            "bluegray_store_retries",
            "Store commands tried again after a lost connection (each one a reconnect)",
            value=m.store_retries(),
        )
