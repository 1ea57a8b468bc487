"""Account names: what a name may be, and the skeleton that makes two names the same name.

A name is 3-20 characters of ASCII letters, digits, ``_`` and ``-``, starting with a letter or a
digit. Two names are one name when their skeletons are equal: case folded, ``_`` and ``-`` dropped,
and the look-alikes of Unicode's confusables for this alphabet (UTS #39: ``0``/``o``, ``1``/``l``/``I``,
``5``/``S``, ``rn``/``m``, ``vv``/``w``, ``cl``/``d``) mapped to one letter. So with ``Stonewall``
registered, ``st0newa1l`` and ``Stone_Wall`` are refused: nobody can pass for another player.
"""

from __future__ import annotations

import re

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{2,19}$")

# Pairs first (UTS #39 maps "rn" to "m" and "vv" to "w", "cl" to "d"), then single characters.
_PAIRS = (("rn", "m"), ("vv", "w"), ("cl", "d"))
_SINGLE = str.maketrans({"0": "o", "1": "l", "i": "l", "5": "s", "_": None, "-": None})


class NameRefused(ValueError):
    """A name that cannot be an account's, and why."""


def check_name(name: str) -> str:
    """`name` if it may be an account's name; NameRefused saying what is wrong otherwise."""
    if not isinstance(name, str) or not NAME.match(name):
        raise NameRefused(
            "a name is 3-20 characters: letters, digits, '_' and '-' (ASCII), starting with a letter or digit"
        )
    return name


def skeleton(name: str) -> str:
    """The name as it looks: two names with one skeleton would be taken for each other."""
    folded = name.casefold().translate(_SINGLE)
    changed = True
    while changed:  # "rrnn" -> "rmn" -> ... until no pair is left
        changed = False
        for pair, letter in _PAIRS:
            if pair in folded:
                folded = folded.replace(pair, letter)
                changed = True
    return folded
