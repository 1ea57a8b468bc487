"""A sequence worked out only as far as it is read (``Unfolding``).

The 5.32 checks ask whether some unit of an over-full hex can still end a move in a hex with room:
the first such hex answers, and the rest of the unit's search need never be made. An ``Unfolding``
wraps the search (an iterator) and keeps what it has yielded, so that the sequence can be read again
(the matching of units to places reads a unit's hexes more than once) without searching twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Generic, TypeVar

T = TypeVar("T")


class Unfolding(Generic[T]):
    """The items of ``source``, each drawn from it when first read, kept for every later reading."""

    __slots__ = ("_items", "_source")

    def __init__(self, source: Iterable[T]) -> None:
        self._items: list[T] = []
        self._source: Iterator[T] | None = iter(source)

    def __iter__(self) -> Iterator[T]:
        items = self._items
        i = 0
        while True:
            if i < len(items):
                yield items[i]
            elif self._source is None:
                return
            else:
                item = next(self._source, _END)
                if item is _END:
                    self._source = None
                    return
                items.append(item)
                yield item
            i += 1


_END = object()
