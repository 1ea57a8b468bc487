"""Saved scenarios: one-file documents (scenarios/document.py) kept in a server's data directory under
their name and content hash, beside the battles that ship with the package.

    ROOT/NAME/HASH.json   every version saved under NAME (HASH: ``session.records.scenario_hash``)
    ROOT/NAME/HEAD        the hash of its latest version
    ROOT/NAME/HASH.owner  who saved that version and its size (`Stored`; none for an operator's
                          `bluegray scenario save` or import)
    ROOT/NAME/OWNER       who may save new versions under NAME: the first owner who saved it

Saves by an owner (a signed-in account, else a client address: api/editor.py) are bounded by a `Quota`:
versions and bytes per owner, and bytes in all; a save past one is refused (``quota``) and nothing
saved before is touched. The check and the write hold a lock on ``ROOT/.lock`` (flock), so servers
sharing the directory on one machine count the same saves.

A scenario is named by a reference: a shipped battle's id (``chattanooga``), a saved name (its latest
version) or ``NAME@HASH`` (exactly that version: a game records this, so it always replays on the
scenario it was created on). A shipped battle is never overwritten: a document named like one is saved
as a variant, ``NAME-HASH8``, deriving from it. A name is 1-64 of a-z 0-9 - _ (never a path).
"""

from __future__ import annotations

import fcntl
import os
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import msgspec

from rules.core.scenario import Scenario, scenario_hash
from scenarios import document as doc
from scenarios import loader
from scenarios.source import Files, Problem, ScenarioError, Source

NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
HASH = re.compile(r"[0-9a-f]{64}")
#: The versions a library keeps in all (every name): an upload past it is refused.
MAX_SAVED = 500
#: Per owner: versions saved and bytes they take; and bytes the whole library may take.
SAVES_PER_OWNER = 20
BYTES_PER_OWNER = 5 * 1024 * 1024
LIBRARY_BYTES = 256 * 1024 * 1024
#: Saved scenarios kept built in memory (as scenarios/loader.py keeps the shipped ones).
KEPT = 64


class LibraryError(ValueError):
    """A scenario refused: ``code`` (``malformed``, ``too_large``, ``bad_name``, ``invalid``, ``full``,
    ``quota``, ``not_yours``, ``not_found``, ``read_only``), a sentence, and for ``invalid`` the validator's problems."""

    def __init__(self, code: str, message: str, problems: list[Problem] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.problems = list(problems or [])


class Saved(msgspec.Struct, frozen=True, kw_only=True):
    """A saved version: its name, content hash, reference (``NAME@HASH``), title and origin."""

    name: str
    hash: str
    ref: str
    title: str
    derived_from: str | None = None
    variant: bool = False  # named like a shipped battle, so saved under another name


@dataclass(frozen=True, kw_only=True)
class Quota:
    """What an owner may save (versions, bytes), and the bytes the library may take in all."""

    saves_per_owner: int = SAVES_PER_OWNER
    bytes_per_owner: int = BYTES_PER_OWNER
    library_bytes: int = LIBRARY_BYTES


class Stored(msgspec.Struct, frozen=True, kw_only=True):
    """``NAME/HASH.owner``: who saved a version (``account:ID`` or ``address:IP``) and its size."""

    owner: str
    bytes: int


@dataclass(frozen=True, kw_only=True)
class Usage:
    """What is saved: versions and bytes of one owner, and bytes of the whole library."""

    saves: int
    bytes: int
    library_bytes: int


def _size(n: int) -> str:
    return f"{n / (1024 * 1024):.2f} MB" if n >= 1024 * 1024 else f"{n / 1024:.1f} KB"


def check_name(name: str) -> str:
    """``name`` when it is a name a scenario may be saved under; LibraryError ``bad_name`` otherwise."""
    if not isinstance(name, str) or not NAME.fullmatch(name):
        shown = name if len(str(name)) <= 80 else str(name)[:80] + "..."
        why = " (a name is never a path)" if any(c in str(name) for c in "/\\.") else ""
        raise LibraryError("bad_name", f"{shown!r} is not a scenario name: 1 to 64 of a-z 0-9 - _, starting with a letter or digit{why}")
    return name


def shipped_names() -> set[str]:
    """The ids and folder names of the battles and templates that ship with the package (read again
    only when a scenario.toml of theirs changes)."""
    folders = loader.scenario_folders() + loader.template_folders()
    key = tuple((str(f), _mtime(f / "scenario.toml")) for f in folders)
    if _SHIPPED[0] != key:
        names = set()
        for folder in folders:
            names.add(folder.name)
            scenario_id = (Source(folder / "scenario.toml").data or {}).get("id")
            if isinstance(scenario_id, str):
                names.add(scenario_id)
        _SHIPPED[:] = [key, frozenset(names)]
    return set(_SHIPPED[1])


_SHIPPED: list = [None, frozenset()]


def _mtime(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return -1


def problems_text(problems: list[Problem], most: int = 3) -> str:
    shown = "; ".join(f"{p.location}: {p.message}" for p in problems[:most])
    return shown + (f" (and {len(problems) - most} more)" if len(problems) > most else "")


def built(document: doc.Document) -> tuple[Scenario, str]:
    """The scenario of a document and its content hash; LibraryError ``invalid`` with every problem."""
    files = doc.files_of(document)
    problems = doc.check(document)
    if problems:
        raise LibraryError("invalid", f"the scenario has {len(problems)} problem(s): {problems_text(problems)}", problems)
    scenario = loader.build(files)
    return scenario, scenario_hash(scenario)


class Library:
    """The saved scenarios under ``root`` (None: shipped battles only), and documents held in memory
    (``hold``: the scenario an exported game carries)."""

    def __init__(self, root: Path | None, max_saved: int = MAX_SAVED, quota: Quota | None = None) -> None:
        self.root = Path(root) if root is not None else None
        self.max_saved = max_saved
        self.quota = quota or Quota()
        self._saving = threading.Lock()
        self._held: dict[str, doc.Document] = {}
        self._built: dict[str, Scenario] = {}
        self._lock = threading.Lock()

    # -- references -------------------------------------------------------------------------------
    def _split(self, ref: str) -> tuple[str, str | None]:
        name, _, digest = ref.partition("@")
        check_name(name)
        if digest and not HASH.fullmatch(digest):
            raise LibraryError("bad_name", f"{ref!r}: after @ comes a content hash, 64 hex digits")
        return name, digest or None

    def _head(self, name: str) -> str | None:
        if self.root is None:
            return None
        try:
            digest = (self.root / name / "HEAD").read_text().strip()
        except OSError:
            return None
        return digest if HASH.fullmatch(digest) else None

    def pin(self, ref: str) -> str:
        """The reference a game records: a shipped id as it is, a saved name as ``NAME@HASH``."""
        if "@" in ref or ref in shipped_names():
            return ref
        name, _ = self._split(ref)
        digest = self._head(name)
        return f"{name}@{digest}" if digest else ref

    def is_saved(self, ref: str) -> bool:
        return "@" in ref or (ref not in shipped_names() and NAME.fullmatch(ref) is not None and self._head(ref) is not None)

    def document(self, ref: str) -> doc.Document:
        """The document of a saved scenario (LibraryError ``not_found``)."""
        name, digest = self._split(ref)
        digest = digest or self._head(name)
        key = f"{name}@{digest}"
        with self._lock:
            held = self._held.get(key)
        if held is not None:
            return held
        if digest is None or self.root is None:
            raise LibraryError("not_found", f"no saved scenario {ref!r}")
        try:
            data = (self.root / name / f"{digest}.json").read_bytes()
        except OSError:
            raise LibraryError("not_found", f"no saved scenario {ref!r}") from None
        return doc.decode(data, "x.json")

    def load(self, ref: str) -> Scenario:
        """The scenario a reference names (shipped or saved); ScenarioError when there is none or it
        does not validate (so a GameCache may use this as its loader)."""
        if "@" not in ref and (self.root is None or ref in shipped_names() or not NAME.fullmatch(ref)):
            return loader.load(ref)
        try:
            pinned = self.pin(ref)
            with self._lock:
                found = self._built.get(pinned)
            if found is not None:
                return found
            scenario, digest = built(self.document(pinned))
        except (LibraryError, doc.DocumentError) as exc:
            raise ScenarioError([Problem(ref, None, "scenario", exc.message)]) from None
        if "@" in pinned and not pinned.endswith("@" + digest):
            raise ScenarioError([Problem(ref, None, "scenario", f"its content hash is {digest}, not the one its name gives")])
        with self._lock:
            if len(self._built) >= KEPT:
                self._built.clear()
            self._built[pinned] = scenario
        return scenario

    def hold(self, document: doc.Document) -> str:
        """Keep ``document`` in memory (not saved) and return its reference ``NAME@HASH``."""
        _, digest = built(document)
        ref = f"{check_name(document.name)}@{digest}"
        with self._lock:
            self._held[ref] = document
        return ref

    def holds(self, ref: str) -> bool:
        """Is the document of ``NAME@HASH`` held in memory (``hold``)?"""
        with self._lock:
            return ref in self._held

    # -- saving -----------------------------------------------------------------------------------
    def save(self, document: doc.Document, name: str | None = None, owner: str | None = None) -> Saved:
        """Validate and save ``document`` (under ``name`` when given); a shipped battle's name is saved
        as a variant. With an ``owner`` (``account:ID``, ``address:IP``) the save is within its quota,
        under a name no other owner holds, and recorded as its. LibraryError naming the problem
        otherwise."""
        if self.root is None:
            raise LibraryError("read_only", "this server keeps no saved scenarios")
        name = check_name(name if name is not None else document.name)
        _, digest = built(document)
        derived, variant = document.derived_from, False
        if name in shipped_names():
            derived, variant = derived or name, True
            name = f"{name[:55]}-{digest[:8]}"
        if derived is not None and not NAME.fullmatch(derived.partition("@")[0]):
            raise LibraryError("bad_name", "derived_from must name a scenario (a shipped id or NAME@HASH)")
        scenario = dict(document.scenario)
        scenario["id"] = name
        stored = msgspec.structs.replace(document, name=name, derived_from=derived, scenario=scenario)
        _, digest = built(stored)  # the id is part of the content
        with self._locked():
            if owner is not None:
                self._may_save(owner, name, digest, stored)
            folder = self._store(name, digest, stored, owner)
            _write(folder / "HEAD", digest.encode() + b"\n")
        return Saved(name=name, hash=digest, ref=f"{name}@{digest}", title=str(scenario.get("name", name)),
                     derived_from=derived, variant=variant)

    def keep(self, document: doc.Document) -> str:
        """Store ``document`` exactly as it is (a game's scenario, imported with the game: its name and
        content are what the game recorded), leaving the name's latest version as it was unless it has
        none. Its reference ``NAME@HASH``."""
        if self.root is None:
            raise LibraryError("read_only", "this server keeps no saved scenarios")
        name = check_name(document.name)
        if name in shipped_names():
            raise LibraryError("bad_name", f"{name!r} is a shipped battle's name")
        _, digest = built(document)
        with self._locked():
            folder = self._store(name, digest, document, None)
            if self._head(name) is None:
                _write(folder / "HEAD", digest.encode() + b"\n")
        return f"{name}@{digest}"

    # -- owners and quotas ----------------------------------------------------------------------------
    @contextmanager
    def _locked(self) -> Iterator[None]:
        """The library to this thread alone, and to this process alone among those sharing ``root``."""
        self.root.mkdir(parents=True, exist_ok=True)
        with self._saving, open(self.root / ".lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    def name_owner(self, name: str) -> str | None:
        """Who may save new versions under ``name`` (None: nobody recorded, an operator's)."""
        try:
            return (self.root / name / "OWNER").read_text().strip() or None
        except OSError:
            return None

    def owner_of(self, ref: str) -> str | None:
        """Who saved the version ``NAME@HASH`` (None: an operator, or saved before owners were kept)."""
        name, digest = self._split(ref)
        digest = digest or self._head(name)
        stored = self._stored(self.root / name / f"{digest}.owner") if self.root and digest else None
        return stored.owner if stored else None

    @staticmethod
    def _stored(path: Path) -> Stored | None:
        try:
            return msgspec.json.decode(path.read_bytes(), type=Stored)
        except (OSError, msgspec.DecodeError):
            return None

    def usage(self, owner: str) -> Usage:
        """The versions and bytes ``owner`` has saved, and the bytes of every saved version."""
        saves = owned = total = 0
        if self.root is not None and self.root.is_dir():
            for path in self.root.glob("*/*.json"):
                try:
                    size = path.stat().st_size
                except OSError:
                    continue
                total += size
                stored = self._stored(path.with_suffix(".owner"))
                if stored is not None and stored.owner == owner:
                    saves, owned = saves + 1, owned + size
        return Usage(saves=saves, bytes=owned, library_bytes=total)

    def _may_save(self, owner: str, name: str, digest: str, document: doc.Document) -> None:
        """LibraryError ``not_yours`` for a name another holds, ``quota`` for a save past a quota."""
        holder = self.name_owner(name)
        if (self.root / name).is_dir() and holder != owner:
            raise LibraryError("not_yours", f"the scenario name {name!r} is already saved by someone else: save under another name")
        if (self.root / name / f"{digest}.json").exists():
            return  # that very version again: nothing more is stored
        size = len(doc.encode(document))
        used, quota = self.usage(owner), self.quota
        if used.saves + 1 > quota.saves_per_owner:
            raise LibraryError("quota", f"quota: you have saved {used.saves} scenario versions, the most one owner may save on this server is {quota.saves_per_owner}")
        if used.bytes + size > quota.bytes_per_owner:
            raise LibraryError("quota", f"quota: your saved scenarios take {_size(used.bytes)} and this one {_size(size)}, past the {_size(quota.bytes_per_owner)} one owner may save on this server")
        if used.library_bytes + size > quota.library_bytes:
            raise LibraryError("quota", f"quota: the saved scenarios take {_size(used.library_bytes)} and this one {_size(size)}, past the {_size(quota.library_bytes)} this server keeps in all")

    def _store(self, name: str, digest: str, document: doc.Document, owner: str | None) -> Path:
        """Write ``document`` as ``NAME/HASH.json`` unless it is there (refused when the library is
        full), with its owner when it has one (and the name's, the first time); the name's folder."""
        folder = self.root / name
        path = folder / f"{digest}.json"
        if not path.exists():
            if self.count() >= self.max_saved:
                raise LibraryError("full", f"this server keeps at most {self.max_saved} saved scenarios")
            data = doc.encode(document)
            folder.mkdir(parents=True, exist_ok=True)
            if owner is not None:
                _write(path.with_suffix(".owner"), msgspec.json.encode(Stored(owner=owner, bytes=len(data))))
                if self.name_owner(name) is None:
                    _write(folder / "OWNER", owner.encode() + b"\n")
            _write(path, data)
        return folder

    def count(self) -> int:
        if self.root is None or not self.root.is_dir():
            return 0
        return sum(1 for _ in self.root.glob("*/*.json"))

    def saved(self) -> list[Saved]:
        """The latest version of every saved name, by name."""
        out = []
        if self.root is None or not self.root.is_dir():
            return out
        for folder in sorted(self.root.iterdir()):
            digest = self._head(folder.name) if NAME.fullmatch(folder.name) else None
            if digest is None:
                continue
            try:
                d = self.document(f"{folder.name}@{digest}")
            except (LibraryError, doc.DocumentError):
                continue
            out.append(Saved(name=folder.name, hash=digest, ref=f"{folder.name}@{digest}",
                             title=str(d.scenario.get("name", folder.name)), derived_from=d.derived_from))
        return out


def _write(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def export(ref: str, library: Library | None = None) -> doc.Document:
    """The one-file document of a shipped battle (named by its id) or a saved scenario."""
    library = library or Library(None)
    if library.root is not None and library.is_saved(ref) or "@" in ref:
        return library.document(ref)
    try:
        folder = loader.folder_of(ref)
    except ScenarioError as exc:
        raise LibraryError("not_found", problems_text(exc.problems)) from None
    data = Files(folder).scenario.data or {}
    scenario_id = data.get("id", folder.name)
    try:
        return doc.from_folder(folder, name=scenario_id, derived_from=None)
    except ScenarioError as exc:
        raise LibraryError("invalid", problems_text(exc.problems), exc.problems) from None
