"""Decoding a battle's parameters with ``msgspec.convert`` and saying what is wrong in the words of
``scenario.toml``: the block, the key and the reason ("exclusive.movement_quota.units: expected a whole
number, got a string"); and finding every hex, unit and area a battle's parameters name
(``references``), for the validator's cross-references.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, TypeVar

import msgspec
import msgspec.inspect as mi

from rules.core.decoding import Path, mismatch

T = TypeVar("T")

class BattleError(ValueError):
    """A battle parameter that is wrong: where it is (``path``: the root table, then keys and list
    indexes) and why (``reason``)."""

    def __init__(self, path: Path, reason: str):
        self.path = path
        self.reason = reason
        super().__init__(f"{where(path)}: {reason}")


def where(path: Path) -> str:
    """A path as a scenario's author reads it: ``exclusive.victory.levels #3.min`` (lists count
    from 1, as the tables appear in the file)."""
    out = ""
    for step in path:
        out += f" #{step + 1}" if isinstance(step, int) else (f".{step}" if out else step)
    return out


def convert(data: Any, type_: type[T], root: str) -> T:
    """``data`` decoded as ``type_``, unknown keys refused; raises BattleError with the path under
    ``root`` and the reason of the first thing wrong (found by rules/core/decoding.py, never read from
    msgspec's own message)."""
    try:
        return msgspec.convert(data, type_)
    except msgspec.ValidationError:
        found = mismatch(data, type_)
        raise BattleError((*root.split("."), *found.path), found.reason()) from None


def references(type_: type, data: Any) -> Iterator[tuple[str, Path, str]]:
    """Every value of ``data`` (raw, decoded or not) that the type ``type_`` says names something:
    (what it names: "hex", "unit" or "area"; its path; the value). Keys the type does not know are
    passed over (the decoding refuses them)."""
    yield from _references(mi.type_info(type_), data, ())


def _references(info: mi.Type, data: Any, path: Path) -> Iterator[tuple[str, Path, str]]:
    if isinstance(info, mi.Metadata):
        ref = (info.extra or {}).get("ref")
        if ref and isinstance(data, str):
            yield ref, path, data
            return
        yield from _references(info.type, data, path)
    elif isinstance(info, mi.UnionType):
        for member in info.types:
            yield from _references(member, data, path)
    elif isinstance(info, mi.StructType) and isinstance(data, dict):
        fields = {f.encode_name: f.type for f in info.fields}
        for key, value in data.items():
            if key in fields:
                yield from _references(fields[key], value, (*path, key))
    elif isinstance(info, mi.ListType) and isinstance(data, list):
        for i, value in enumerate(data):
            yield from _references(info.item_type, value, (*path, i))
    elif isinstance(info, mi.DictType) and isinstance(data, dict):
        for key, value in data.items():
            yield from _references(info.value_type, value, (*path, key))
