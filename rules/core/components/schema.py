"""Decoding a battle's parameters with ``msgspec.convert`` and saying what is wrong in the words of
``scenario.toml``: the block, the key and the reason ("exclusive.movement_quota.units: expected a whole
number, got a string"); and finding every hex, unit and area a battle's parameters name
(``references``), for the validator's cross-references.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, TypeVar

import msgspec
import msgspec.inspect as mi

T = TypeVar("T")
#: One step into a battle's parameters: a key of a table or an index of a list (0-based).
Path = tuple[str | int, ...]

HEX_PATTERN = "^[0-9]{4}$"  # rules/core/components/values.py HexNumber

_WORDS = {
    "int": "a whole number",
    "float": "a number",
    "str": "a string",
    "bool": "true or false",
    "array": "a list",
    "object": "a table",
    "null": "nothing",
}


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
    ``root`` and the reason of the first thing wrong."""
    try:
        return msgspec.convert(data, type_)
    except msgspec.ValidationError as e:
        path, reason = explain(str(e), type_)
        raise BattleError((*root.split("."), *path), reason) from None


def explain(message: str, type_: type) -> tuple[Path, str]:
    """msgspec's validation message as (path, reason in the words of the TOML file)."""
    text, _, at = message.partition(" - at `")
    at = at.rstrip("`")
    dict_key = at.startswith("key` in `")
    path = _parse(at.removeprefix("key` in `"))
    info = _type_at(mi.type_info(type_), path)
    if m := re.fullmatch(r"Object contains unknown field `(.+)`", text):
        known = ", ".join(f.encode_name for f in info.fields) if isinstance(info, mi.StructType) else ""
        return (*path, m[1]), f"unknown key {m[1]!r} (known: {known})"
    if m := re.fullmatch(r"Object missing required field `(.+)`", text):
        return path, f"missing the required key {m[1]!r}"
    if m := re.fullmatch(r"Invalid enum value (.+)", text):
        if dict_key and isinstance(info, mi.DictType):
            info = info.key_type
        values = ", ".join(map(str, info.values)) if isinstance(info, mi.LiteralType) else "?"
        last = path[-1] if path else None
        what = "one of the keys allowed" if dict_key else f"a {last}" if isinstance(last, str) else "allowed"
        return path, f"{m[1]} is not {what} ({values})"
    if m := re.fullmatch(r"Expected `(.+?)`(.*)", text):
        each = "each value: " if at.endswith("[...]") else ""
        return path, f"{each}expected {_words(m[1])}{_constraint(m[2])}"
    return path, text


def _parse(at: str) -> Path:
    """``$.levels[2].min`` -> ("levels", 2, "min"); a dict's value (``[...]``) is left out."""
    out: list[str | int] = []
    for key, index in re.findall(r"\.(\w[\w-]*)|\[(\d+)\]", at.removeprefix("$")):
        out.append(key if key else int(index))
    return tuple(out)


def _words(types: str) -> str:
    names = [t.strip() for t in types.split("|")]
    shown = [t for t in names if t != "null"] or names
    return " or ".join(_WORDS.get(t, t) for t in shown)


def _constraint(rest: str) -> str:
    rest = rest.replace(", got `", ", got ").rstrip("`")
    for name, word in _WORDS.items():
        rest = rest.replace(f", got {name}", f", got {word}")
    if f"matching regex '{HEX_PATTERN}'" in rest:
        return rest.replace(f" matching regex '{HEX_PATTERN}'", " that is a hex number, four digits XXYY")
    return rest.replace(" of length >= 1", " that is not empty")


def _unwrap(info: mi.Type) -> mi.Type:
    while isinstance(info, mi.Metadata):
        info = info.type
    if isinstance(info, mi.UnionType):
        members = [t for t in info.types if not isinstance(t, mi.NoneType)]
        if len(members) == 1:
            return _unwrap(members[0])
    return info


def _type_at(info: mi.Type, path: Path) -> mi.Type:
    """The type found by following ``path`` from ``info``."""
    info = _unwrap(info)
    for step in path:
        if isinstance(info, mi.StructType):
            info = next((f.type for f in info.fields if f.encode_name == step), info)
        elif isinstance(info, mi.ListType):
            info = info.item_type
        elif isinstance(info, mi.DictType):
            info = info.value_type
        info = _unwrap(info)
    return info


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
