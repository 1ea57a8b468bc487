"""`bluegray cluster up|down`: a local Redis Cluster (3 primaries, 3 replicas) for development.

`up` starts six nodes of the embedded server's binary on loopback ports, with a password, forms the
cluster the first time (valkey-cli --cluster create) and prints its URL, for
`bluegray serve --redis-url URL`. The nodes keep running after `up` returns; `down` stops them
cleanly. `up` again on the same --data-dir restarts them on their data (eventstore/cluster.py).
"""

from __future__ import annotations

from pathlib import Path

from api.commands import _args
from api.commands._errors import CommandError

NAME = "cluster"
HELP = "Start (up) or stop (down) a local Redis Cluster of 3 primaries and 3 replicas; `up` prints its URL."


def add_arguments(parser) -> None:
    parser.add_argument("action", choices=["up", "down"], help="up: start (and form) the cluster; down: stop it")
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=Path("var") / "cluster",
        help="where the nodes keep their data (default ./var/cluster; created 0700)",
    )
    parser.add_argument(
        "--port",
        type=_args.port,
        default=None,
        help="the first of six consecutive ports (default: a free range; each node's cluster bus is port+10000)",
    )
    parser.add_argument(
        "--fsync", choices=["always", "everysec"], default="always", help="each node's appendfsync (default always)"
    )
    parser.add_argument(
        "--min-replicas-to-write",
        type=_args.at_least(0),
        default=0,
        metavar="N",
        help="each node's min-replicas-to-write: a primary with fewer than N replicas in reach refuses writes; "
        "give serve's --ack-replicas N (which requires it; default 0)",
    )


def run(args) -> int:
    from eventstore.cluster import LocalCluster
    from eventstore.errors import EventStoreError

    cluster = LocalCluster(
        args.data_dir, base_port=args.port or None, fsync=args.fsync, min_replicas_to_write=args.min_replicas_to_write
    )
    try:
        if args.action == "up":
            url = cluster.up()
            roles = ", ".join(f"{port} {cluster.role(port)}" for port in cluster.ports)
            print(f"cluster up in {cluster.data_dir}: {roles}")
            print(url)
            return 0
        if not cluster.ports:
            raise CommandError(f"no cluster in {Path(args.data_dir).absolute()} (bluegray cluster up makes one)")
        cluster.down()
        print(f"cluster down in {cluster.data_dir}")
        return 0
    except (EventStoreError, OSError) as exc:
        raise CommandError(str(exc)) from None
