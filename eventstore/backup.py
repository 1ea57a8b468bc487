"""A whole store in one file, and back: every key under a server's key prefix as Redis's own DUMP
payload (with its remaining time to live), in JSON Lines, ended by a manifest with the counts and
the SHA-256 of every line before it.

    {"format": "bluegray-backup", "version": 1, "prefix": "...", "created": 1700000000000}
    {"key": "<base64>", "pttl": -1, "dump": "<base64>"}          one line per key
    {"file": "scenarios/NAME/HASH.json", "data": "<base64>"}      files given to `write` (saved scenarios)
    {"manifest": {"keys": K, "files": F, "games": G, "accounts": A, "sha256": "<hex>"}}

What is left out: sessions (``{a:ID}:sessions``) and the failed log-in counters (``{a:ID}:failures``,
``login-failures:*``). A session restored elsewhere would be a live credential copied out of its
server (a backup file kept for months would sign anyone who holds it in as every player); after a
restore players log in again, with their passwords, which are kept (as Argon2id hashes).

Keys are found by SCAN on every primary of a cluster (and on the one server otherwise). The keys of
one hash tag (a game's ``{g:ID}:*``, an account's ``{a:ID}:*``) are dumped in one MULTI/EXEC, so a game
is copied as it was at one moment even while servers keep appending; two different games may be
copied at different moments (stop the servers for a copy of one instant of the whole store).

Reading a backup checks everything before the first key is written: the header, every line, the
manifest's counts and SHA-256; Redis checks each payload's own checksum on RESTORE."""

from __future__ import annotations

import base64
import hashlib
import re
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

if TYPE_CHECKING:
    from typing import TypedDict

    from redis import Redis

    class _Tally(TypedDict):
        """What `write` has counted so far (a `Counts` without its digest)."""

        keys: int
        files: int
        games: int
        accounts: int


FORMAT = "bluegray-backup"
VERSION = 1
#: Keys (after the prefix) a backup leaves out: sessions and failed log-in counters.
LEFT_OUT = re.compile(rb"^(\{a:[^}]*\}:(sessions|failures)|login-failures:.*)$", re.DOTALL)
GAME_LOG = re.compile(rb"^\{g:([^}]*)\}:log$")
ACCOUNT = re.compile(rb"^\{a:[^}]*\}:account$")
#: Keys dumped, or restored, per round trip.
BATCH = 200


class BackupError(ValueError):
    """A backup file that cannot be restored, or a store that may not be restored into: what is wrong."""


class Header(msgspec.Struct, frozen=True, kw_only=True):
    format: str
    version: int
    prefix: str
    created: int


class KeyLine(msgspec.Struct, frozen=True, kw_only=True):
    key: str  # base64 of the key's bytes, without the prefix
    pttl: int
    dump: str  # base64 of the DUMP payload


class FileLine(msgspec.Struct, frozen=True, kw_only=True):
    file: str  # a path under the data directory
    data: str  # base64


class Counts(msgspec.Struct, frozen=True, kw_only=True):
    keys: int = 0
    files: int = 0
    games: int = 0
    accounts: int = 0
    sha256: str = ""


class ManifestLine(msgspec.Struct, frozen=True, kw_only=True):
    manifest: Counts


@dataclass
class Backup:
    """A backup file read and checked: its header, keys (without prefix), files and manifest."""

    header: Header
    keys: list[KeyLine] = field(default_factory=list)
    files: list[FileLine] = field(default_factory=list)
    manifest: Counts = field(default_factory=Counts)

    def game_ids(self) -> list[str]:
        return sorted(m.group(1).decode() for k in self.keys if (m := GAME_LOG.match(base64.b64decode(k.key))))


def _glob_escape(prefix: bytes) -> bytes:
    return re.sub(rb"([*?\[\]\\])", rb"\\\1", prefix)


def _tag(key: bytes) -> bytes:
    """A key's hash tag (what decides its cluster slot), as Redis Cluster finds it."""
    start = key.find(b"{")
    end = key.find(b"}", start + 1) if start >= 0 else -1
    return key[start + 1:end] if start >= 0 and end > start + 1 else key


def sync_client(url: str):
    """A blocking client of the store at `url` (a Redis URL, or redis+cluster://...: eventstore/connect.py)."""
    import redis
    from redis.cluster import ClusterNode, RedisCluster

    from eventstore.connect import cluster_nodes, is_cluster_url

    if is_cluster_url(url):
        nodes, user, password, tls = cluster_nodes(url)
        return RedisCluster(startup_nodes=[ClusterNode(h, p) for h, p in nodes], username=user, password=password, ssl=tls)
    return redis.Redis.from_url(url)


def node_clients(client) -> list:
    """The clients that SCAN sees the whole store through: each primary of a cluster, else `client`."""
    if hasattr(client, "get_primaries"):
        return [client.get_redis_connection(node) for node in client.get_primaries()]
    return [client]


def keys_under(client, prefix: str) -> Iterator[tuple[Redis, list[bytes]]]:
    """(node client, keys of one hash tag) of every key under `prefix` a backup keeps."""
    raw = prefix.encode()
    for node in node_clients(client):
        groups: dict[bytes, list[bytes]] = {}
        for key in node.scan_iter(match=_glob_escape(raw) + b"*", count=1000):
            if not LEFT_OUT.match(key[len(raw):]):
                groups.setdefault(_tag(key), []).append(key)
        for tag in sorted(groups):
            yield node, sorted(groups[tag])


def is_empty(client, prefix: str) -> bool:
    """Whether no key at all is under `prefix` (on every primary)."""
    raw = _glob_escape(prefix.encode()) + b"*"
    return not any(next(iter(node.scan_iter(match=raw, count=1000)), None) is not None for node in node_clients(client))


def write(client, prefix: str, out, files: Iterable[tuple[str, bytes]] = (),
          progress: Callable[[Counts], None] | None = None) -> Counts:
    """Write the backup of every key under `prefix` (and `files`) to the binary stream `out`."""
    digest = hashlib.sha256()
    counts: _Tally = {"keys": 0, "files": 0, "games": 0, "accounts": 0}

    def line(struct) -> None:
        data = msgspec.json.encode(struct) + b"\n"
        digest.update(data)
        out.write(data)

    line(Header(format=FORMAT, version=VERSION, prefix=prefix, created=time.time_ns() // 1_000_000))
    cut = len(prefix.encode())
    for node, keys in keys_under(client, prefix):
        pipe = node.pipeline(transaction=True)  # one tag: one slot, one moment
        for key in keys:
            pipe.dump(key)
            pipe.pttl(key)
        answers = pipe.execute()
        for key, dumped, pttl in zip(keys, answers[0::2], answers[1::2], strict=True):
            if dumped is None or pttl == -2:
                continue  # gone since the SCAN
            name = key[cut:]
            line(KeyLine(key=base64.b64encode(name).decode(), pttl=int(pttl), dump=base64.b64encode(dumped).decode()))
            counts["keys"] += 1
            counts["games"] += bool(GAME_LOG.match(name))
            counts["accounts"] += bool(ACCOUNT.match(name))
            if progress and counts["keys"] % 1000 == 0:
                progress(Counts(**counts))
    for path, data in files:
        line(FileLine(file=path, data=base64.b64encode(data).decode()))
        counts["files"] += 1
    manifest = Counts(**counts, sha256=digest.hexdigest())
    out.write(msgspec.json.encode(ManifestLine(manifest=manifest)) + b"\n")
    return manifest


def read(path: Path) -> Backup:
    """The backup in `path`, every line and the manifest checked; BackupError naming what is wrong."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise BackupError(f"cannot read {path}: {exc.strerror or exc}") from None
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    else:
        raise BackupError(f"{path} does not end with a whole line: it was cut short (no manifest)")
    if len(lines) < 2:
        raise BackupError(f"{path} is not a bluegray backup: fewer than two lines (a header and a manifest)")
    try:
        header = msgspec.json.decode(lines[0], type=Header)
    except msgspec.DecodeError as exc:
        raise BackupError(f"{path} is not a bluegray backup: its first line is no backup header ({exc})") from None
    if header.format != FORMAT or header.version != VERSION:
        raise BackupError(f"{path} is not a bluegray backup of version {VERSION}: its header says {header.format!r} version {header.version}")
    try:
        manifest = msgspec.json.decode(lines[-1], type=ManifestLine).manifest
    except msgspec.DecodeError:
        raise BackupError(f"{path} has no manifest on its last line: it was cut short or is not a whole backup") from None
    digest = hashlib.sha256()
    for raw in lines[:-1]:
        digest.update(raw + b"\n")
    if digest.hexdigest() != manifest.sha256:
        raise BackupError(f"{path} is corrupt: the SHA-256 of its lines is {digest.hexdigest()}, its manifest says {manifest.sha256}")
    backup = Backup(header=header, manifest=manifest)
    for number, raw in enumerate(lines[1:-1], start=2):
        try:
            item = msgspec.json.decode(raw, type=FileLine if raw.startswith(b'{"file"') else KeyLine)
            if isinstance(item, KeyLine):
                base64.b64decode(item.key, validate=True), base64.b64decode(item.dump, validate=True)
                backup.keys.append(item)
            else:
                base64.b64decode(item.data, validate=True)
                if item.file.startswith("/") or ".." in Path(item.file).parts:
                    raise BackupError(f"{path} line {number}: the file {item.file!r} is not a path inside the data directory")
                backup.files.append(item)
        except (msgspec.DecodeError, msgspec.ValidationError, ValueError) as exc:
            if isinstance(exc, BackupError):
                raise
            raise BackupError(f"{path} line {number} is not a key or a file of a backup: {exc}") from None
    games = len(backup.game_ids())
    accounts = sum(1 for k in backup.keys if ACCOUNT.match(base64.b64decode(k.key)))
    found = (len(backup.keys), len(backup.files), games, accounts)
    said = (manifest.keys, manifest.files, manifest.games, manifest.accounts)
    if found != said:
        raise BackupError(f"{path} does not hold what its manifest says: keys, files, games, accounts {found} against {said}")
    return backup


def restore(client, prefix: str, backup: Backup, *, replace: bool = False,
            progress: Callable[[int], None] | None = None) -> int:
    """RESTORE every key of `backup` under `prefix` (REPLACE when `replace`); the keys written."""
    written = 0
    for start in range(0, len(backup.keys), BATCH):
        pipe = client.pipeline(transaction=False)
        for item in backup.keys[start:start + BATCH]:
            key = prefix.encode() + base64.b64decode(item.key)
            pipe.restore(key, max(item.pttl, 0), base64.b64decode(item.dump), replace=replace)
        pipe.execute()
        written += len(backup.keys[start:start + BATCH])
        if progress:
            progress(written)
    return written
