"""The event store: immutable, versioned, hash-chained game logs in Redis Streams."""
