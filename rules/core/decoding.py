"""What is wrong with a value that does not decode as a type, found by our own walk of the type
(``msgspec.inspect``), never read from msgspec's error text: that text is the library's wording and
changes between releases (msgspec 0.23 reworded several messages), while what a player, an author or
an operator reads must not change unless we change it.

msgspec still does the decoding (it is fast, and it is the schema): only when it refuses does
``mismatch`` walk the same data against the type's structure to find the first thing wrong, its path
and what was expected. ``json_mismatch`` does the same for raw JSON bytes, first finding a byte that
is not UTF-8 or a place that is not JSON with the standard library's decoder.

    >>> import msgspec
    >>> class Move(msgspec.Struct, forbid_unknown_fields=True):
    ...     unit: str
    ...     path: list[str]
    >>> mismatch({"unit": "u1", "path": ["0101", 7]}, Move)
    Mismatch(path=('path', 1), kind='wrong_type', expected='a string', got='a whole number', allowed=())
"""

from __future__ import annotations

import binascii
import json
import re
from typing import Any, Literal

import msgspec
import msgspec.inspect as mi

#: One step into a value: a key of an object or an index of a list (0-based).
Path = tuple[str | int, ...]

Kind = Literal[
    "not_utf8",  # a byte that is not UTF-8 (``got``: its offset)
    "not_json",  # not JSON text (``got``: "line L, column C")
    "too_deep",  # nested deeper than the decoder follows
    "unknown_field",  # a key the type does not know (the last step of ``path``)
    "missing_field",  # a required key (``got``) absent from the object at ``path``
    "unknown_tag",  # a tagged union's tag that names no member (``allowed``: the tags)
    "wrong_type",  # a value of another JSON type than ``expected``
    "not_allowed",  # a value outside a fixed set (``allowed``)
    "constraint",  # the right type but outside a bound (``expected`` says which)
    "refused",  # a check of the type's own (its ``__post_init__``) refused it: ``got`` is its sentence
    "unexplained",  # msgspec refused it and the walk found nothing wrong (reported, never hidden)
]

_LISTS = (mi.ListType, mi.SetType, mi.FrozenSetType, mi.VarTupleType, mi.TupleType)

#: The JSON type of a value, in words.
_WORDS = {
    bool: "true or false",
    int: "a whole number",
    float: "a number",
    str: "a string",
    list: "a list",
    dict: "a table",
    type(None): "nothing",
}


class Mismatch(msgspec.Struct, frozen=True):
    """The first thing wrong: where (``path``), what kind of wrong, and in words what was expected
    and what was found; ``allowed`` lists the values or keys a fixed set allows."""

    path: Path
    kind: Kind
    expected: str = ""
    got: str = ""
    allowed: tuple[str, ...] = ()

    def reason(self) -> str:
        """The reason in one clause, without the path: "expected a whole number, got a string"."""
        if self.kind == "not_utf8":
            return f"not UTF-8 text (byte {self.got})"
        if self.kind == "not_json":
            return f"not JSON ({self.got})"
        if self.kind == "too_deep":
            return "nested too deeply"
        if self.kind == "unknown_field":
            known = f" (known: {', '.join(self.allowed)})" if self.allowed else ""
            return f"unknown key {self.path[-1]!r}{known}"
        if self.kind == "missing_field":
            return f"missing the required key {self.got!r}"
        if self.kind == "unknown_tag":
            return f"{self.got} is not a known {self.path[-1]} ({', '.join(self.allowed)})"
        if self.kind == "not_allowed":
            return f"{self.got} is not {self.expected} ({', '.join(self.allowed)})"
        if self.kind == "wrong_type":
            return f"expected {self.expected}, got {self.got}"
        if self.kind == "constraint":
            return f"expected {self.expected}"
        if self.kind == "refused":
            return self.got
        return "does not match the expected format"

    def sentence(self) -> str:
        """The path and the reason: "path[1]: expected a string, got a whole number"."""
        return f"{where(self.path)}: {self.reason()}" if self.path else self.reason()


def where(path: Path) -> str:
    """A path as JSON readers write it: ``command.path[2]``; ``""`` for the whole value."""
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else step)
    return out


def json_mismatch(raw: bytes | str, type_: Any) -> Mismatch:
    """The first thing wrong with JSON text that msgspec refused to decode as ``type_``."""
    if isinstance(raw, (bytes, bytearray, memoryview)):
        try:
            raw = bytes(raw).decode("utf-8")
        except UnicodeDecodeError as exc:
            return Mismatch((), "not_utf8", got=str(exc.start))
    try:
        value = json.loads(raw)
    except RecursionError:
        return Mismatch((), "too_deep")
    except json.JSONDecodeError as exc:
        return Mismatch((), "not_json", got=f"line {exc.lineno}, column {exc.colno}")
    return mismatch(value, type_)


def mismatch(value: Any, type_: Any, strict: bool = True) -> Mismatch:
    """The first thing wrong with ``value`` (built-in types, as JSON or TOML decode) as ``type_``;
    ``strict=False`` accepts strings for numbers and booleans, as ``msgspec.convert`` does then."""
    try:
        found = _walk(mi.type_info(type_), value, (), strict)
    except RecursionError:
        return Mismatch((), "too_deep")
    return found or Mismatch((), "unexplained")


def _walk(info: mi.Type, value: Any, path: Path, strict: bool) -> Mismatch | None:
    if isinstance(info, mi.Metadata):
        return _walk(info.type, value, path, strict)
    if isinstance(info, (mi.AnyType, mi.RawType)):
        return None
    if isinstance(info, mi.UnionType):
        return _union(info, value, path, strict)
    if isinstance(info, mi.NoneType):
        return None if value is None else _wrong(path, "nothing", value)
    if isinstance(info, mi.LiteralType):
        return _one_of(path, info.values, value, strict)
    if isinstance(info, mi.EnumType):
        return _one_of(path, tuple(member.value for member in info.cls), value, strict)
    if isinstance(info, mi.BoolType):
        if isinstance(value, bool) or (not strict and str(value).lower() in ("true", "false", "1", "0")):
            return None
        return _wrong(path, _WORDS[bool], value)
    if isinstance(info, (mi.IntType, mi.FloatType)):
        return _number(info, value, path, strict)
    if isinstance(info, mi.StrType):
        return _string(info, value, path)
    if isinstance(info, (mi.BytesType, mi.ByteArrayType)):
        return _base64(value, path)
    if isinstance(info, _LISTS[:4]):
        return _items(info, value, path, strict)
    if isinstance(info, mi.TupleType):
        if not isinstance(value, list):
            return _wrong(path, _WORDS[list], value)
        if len(value) != len(info.item_types):
            return Mismatch(path, "constraint", expected=f"a list of {len(info.item_types)} items")
        return _first(_walk(t, v, (*path, i), strict) for i, (t, v) in enumerate(zip(info.item_types, value, strict=True)))
    if isinstance(info, mi.DictType):
        return _table(info, value, path, strict)
    if isinstance(info, mi.StructType):
        return _struct(info, value, path, strict)
    return None  # dates, UUIDs and the like: not used at our edges


def _first(found) -> Mismatch | None:
    return next((m for m in found if m is not None), None)


def _wrong(path: Path, expected: str, value: Any) -> Mismatch:
    return Mismatch(path, "wrong_type", expected=expected, got=_WORDS.get(type(value), type(value).__name__))


def _one_of(path: Path, values: tuple, value: Any, strict: bool) -> Mismatch | None:
    if any(value == v and type(value) is type(v) for v in values):
        return None
    if not strict and any(str(value) == str(v) for v in values):
        return None
    last = path[-1] if path else None
    what = f"a {last}" if isinstance(last, str) else "allowed"
    return Mismatch(path, "not_allowed", expected=what, got=repr(value), allowed=tuple(map(str, values)))


def _number(info: mi.IntType | mi.FloatType, value: Any, path: Path, strict: bool) -> Mismatch | None:
    words = _WORDS[int] if isinstance(info, mi.IntType) else _WORDS[float]
    if not strict and isinstance(value, str):
        try:
            value = int(value) if isinstance(info, mi.IntType) else float(value)
        except ValueError:
            return _wrong(path, words, value)
    ok = int if isinstance(info, mi.IntType) else (int, float)
    if isinstance(value, bool) or not isinstance(value, ok):
        return _wrong(path, words, value)
    for bound, sign in (("ge", ">="), ("gt", ">"), ("le", "<="), ("lt", "<")):
        limit = getattr(info, bound)
        if limit is not None and not _holds(value, sign, limit):
            return Mismatch(path, "constraint", expected=f"{words} {sign} {limit}")
    if info.multiple_of is not None and value % info.multiple_of:
        return Mismatch(path, "constraint", expected=f"{words} that is a multiple of {info.multiple_of}")
    return None


def _holds(value, sign: str, limit) -> bool:
    return {">=": value >= limit, ">": value > limit, "<=": value <= limit, "<": value < limit}[sign]


#: Patterns the schemas use, in words (rules/core/components/values.py HexNumber).
PATTERN_WORDS = {"^[0-9]{4}$": "that is a hex number, four digits XXYY"}


def _string(info: mi.StrType, value: Any, path: Path) -> Mismatch | None:
    if not isinstance(value, str):
        return _wrong(path, _WORDS[str], value)
    if info.pattern is not None and not re.search(info.pattern, value):
        words = PATTERN_WORDS.get(info.pattern, f"matching the pattern {info.pattern}")
        return Mismatch(path, "constraint", expected=f"a string {words}")
    return _length(info, len(value), path, "a string", "characters")


def _base64(value: Any, path: Path) -> Mismatch | None:
    """Bytes travel in JSON as base64 text."""
    if not isinstance(value, str):
        return _wrong(path, "a string of base64", value)
    try:
        binascii.a2b_base64(value, strict_mode=True)
    except (binascii.Error, ValueError):  # ValueError: not ASCII
        return Mismatch(path, "constraint", expected="a string of base64")
    return None


def _length(info, n: int, path: Path, what: str, unit: str) -> Mismatch | None:
    if info.min_length is not None and n < info.min_length:
        return Mismatch(
            path,
            "constraint",
            expected=f"{what} that is not empty" if info.min_length == 1 else f"{what} of at least {info.min_length} {unit}",
        )
    if info.max_length is not None and n > info.max_length:
        return Mismatch(path, "constraint", expected=f"{what} of at most {info.max_length} {unit}")
    return None


def _items(info, value: Any, path: Path, strict: bool) -> Mismatch | None:
    if not isinstance(value, list):
        return _wrong(path, _WORDS[list], value)
    return _first(_walk(info.item_type, v, (*path, i), strict) for i, v in enumerate(value)) or _length(
        info, len(value), path, "a list", "items"
    )


def _table(info: mi.DictType, value: Any, path: Path, strict: bool) -> Mismatch | None:
    if not isinstance(value, dict):
        return _wrong(path, _WORDS[dict], value)
    for key, v in value.items():
        bad_key = _walk(info.key_type, key, (*path, key), False)
        if bad_key is not None:
            if bad_key.kind == "not_allowed":
                return msgspec.structs.replace(bad_key, expected="one of the keys allowed")
            return bad_key
        found = _walk(info.value_type, v, (*path, key), strict)
        if found is not None:
            return found
    return _length(info, len(value), path, "a table", "keys")


def _struct(info: mi.StructType, value: Any, path: Path, strict: bool) -> Mismatch | None:
    if info.array_like:
        return None  # not used at our edges
    if not isinstance(value, dict):
        return _wrong(path, _WORDS[dict], value)
    fields = {f.encode_name: f for f in info.fields}
    for key, v in value.items():
        if key == info.tag_field:
            if v != info.tag:
                return _one_of((*path, key), (info.tag,), v, strict)
            continue
        field = fields.get(key)
        if field is None:
            if info.forbid_unknown_fields:
                return Mismatch((*path, key), "unknown_field", allowed=tuple(fields))
            continue
        found = _walk(field.type, v, (*path, key), strict)
        if found is not None:
            return found
    for name, field in fields.items():
        if field.required and name not in value:
            return Mismatch(path, "missing_field", got=name)
    return _own_check(info.cls, value, path)


def _own_check(cls: type, value: dict, path: Path) -> Mismatch | None:
    """The sentence of the struct's own ``__post_init__`` check, when it refuses ``value`` (whose
    fields are each well typed): our own words, carried as the cause of msgspec's error."""
    if getattr(cls, "__post_init__", None) is None:
        return None
    try:
        msgspec.convert(value, cls)
    except msgspec.ValidationError as exc:
        cause = exc.__cause__
        if isinstance(cause, (ValueError, TypeError)) and not isinstance(cause, msgspec.ValidationError):
            return Mismatch(path, "refused", got=str(cause))
    return None


def _union(info: mi.UnionType, value: Any, path: Path, strict: bool) -> Mismatch | None:
    members = [_bare(t) for t in info.types]
    if value is None and any(isinstance(t, mi.NoneType) for t in members):
        return None
    tagged = [t for t in members if isinstance(t, mi.StructType) and t.tag_field is not None]
    if tagged and isinstance(value, dict):
        tag_field = tagged[0].tag_field
        if tag_field not in value:
            return Mismatch(path, "missing_field", got=tag_field)
        by_tag = {t.tag: t for t in tagged}
        chosen = next((t for tag, t in by_tag.items() if tag == value[tag_field]), None)
        if chosen is None:
            return Mismatch(
                (*path, tag_field), "unknown_tag", got=repr(value[tag_field]), allowed=tuple(map(str, by_tag))
            )
        return _walk(chosen, value, path, strict)
    fitting = [t for t in members if _fits(t, value, strict)]
    if not fitting:
        expected = " or ".join(dict.fromkeys(_expected(t) for t in members if not isinstance(t, mi.NoneType)))
        return _wrong(path, expected or "nothing", value)
    results = [_walk(t, value, path, strict) for t in fitting]
    return None if any(r is None for r in results) else results[0]


def _bare(info: mi.Type) -> mi.Type:
    while isinstance(info, mi.Metadata):
        info = info.type
    return info


def _fits(info: mi.Type, value: Any, strict: bool) -> bool:
    """Whether ``value`` has the JSON type that ``info`` decodes from (its content aside)."""
    if isinstance(info, (mi.AnyType, mi.RawType)):
        return True
    if isinstance(info, mi.LiteralType):
        return any(type(value) is type(v) for v in info.values)
    if isinstance(info, mi.EnumType):
        return any(type(value) is type(m.value) for m in info.cls)
    kinds = {
        mi.NoneType: (type(None),),
        mi.BoolType: (bool,),
        mi.IntType: (int,),
        mi.FloatType: (int, float),
        mi.StrType: (str,),
        mi.BytesType: (str,),
        mi.ListType: (list,),
        mi.SetType: (list,),
        mi.FrozenSetType: (list,),
        mi.VarTupleType: (list,),
        mi.TupleType: (list,),
        mi.DictType: (dict,),
        mi.StructType: (dict,),
    }
    wanted = kinds.get(type(info))
    if wanted is None:
        return True
    if isinstance(value, bool) and bool not in wanted:
        return False
    return isinstance(value, wanted) or (not strict and isinstance(value, str))


def _expected(info: mi.Type) -> str:
    if isinstance(info, mi.LiteralType):
        return " or ".join(repr(v) for v in info.values)
    if isinstance(info, mi.EnumType):
        return " or ".join(repr(m.value) for m in info.cls)
    return {
        mi.BoolType: _WORDS[bool],
        mi.IntType: _WORDS[int],
        mi.FloatType: _WORDS[float],
        mi.StrType: _WORDS[str],
        mi.DictType: _WORDS[dict],
        mi.StructType: _WORDS[dict],
    }.get(type(info), _WORDS[list] if isinstance(info, _LISTS) else "a value")
