"""The event store: immutable, versioned, hash-chained game logs in Redis Streams.

- `eventstore.store`: `EventStore` (the protocol) and `RedisEventStore`
- `eventstore.envelope`: `NewEvent` (what a caller appends) and `Envelope` (what is stored)
- `eventstore.tail`: `Tail`, the process's one live reader, and its `Subscription`s
- `eventstore.safety`: `check_server`, the start-up check
- `eventstore.embedded`: `EmbeddedRedis`, the private server used when no Redis is configured
- `eventstore.errors`: the typed errors
"""
