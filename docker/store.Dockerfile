# The store for compose.yaml: Debian's own redis-server package, configured as the event store needs
# (eventstore/safety.py refuses anything less): every write in the AOF and fsynced before the
# answer, no eviction, a password. Its data is the volume /data.
FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends redis-server \
    && rm -rf /var/lib/apt/lists/* && mkdir -p /data && chown redis:redis /data
USER redis
WORKDIR /data
VOLUME /data
EXPOSE 6379
# The password comes from the environment (compose.yaml), never from the image.
CMD ["sh", "-c", "exec redis-server --bind 0.0.0.0 --protected-mode no --dir /data --appendonly yes --appendfsync always --maxmemory-policy noeviction --requirepass \"$REDIS_PASSWORD\""]
