"""Nickname skeletons: two nicknames that look alike have the same skeleton, so a server
keeps nicknames unique by their skeletons (``docs/ratings.md``, Nicknames).

The idea is Unicode TR39's skeleton, narrowed to what nicknames need and made
case-insensitive: compatibility forms folded (NFKC), case folded, accents and invisible
characters dropped, the Cyrillic and Greek letters that look like Latin ones mapped to
them, separators dropped, and a few Latin look-alikes merged (``l``, ``1``, ``I`` as
``i``; ``0`` as ``o``; ``rn`` as ``m``; ``vv`` as ``w``).

>>> nickname_skeleton("Маша") == nickname_skeleton("Mawa") == nickname_skeleton("MAШA")
True
>>> nickname_skeleton("Маша")
'mawa'
>>> same_nickname("Masha", "Sasha")
False
"""

from __future__ import annotations

import unicodedata

_LOOK_ALIKES = {
    # Cyrillic, lowercase (the text is case folded first); a letter whose capital and
    # small forms resemble different Latin letters maps to the capital's look-alike
    "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
    "с": "c", "т": "t", "у": "y", "х": "x", "ш": "w", "щ": "w", "ѕ": "s", "і": "i",
    "ј": "j", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ү": "y", "һ": "h", "ӏ": "i", "ь": "b",
    "г": "r", "п": "n", "и": "u", "з": "3", "б": "6",
    # Greek, lowercase
    "α": "a", "β": "b", "ε": "e", "ζ": "z", "η": "h", "ι": "i", "κ": "k", "μ": "m",
    "ν": "n", "ο": "o", "ρ": "p", "τ": "t", "υ": "y", "χ": "x", "γ": "y", "ω": "w",
    "ϲ": "c", "ϳ": "j",
    # Latin look-alikes of other Latin letters and digits
    "ı": "i", "l": "i", "1": "i", "|": "i", "0": "o", "ɑ": "a", "ɡ": "g",
}
_TABLE = str.maketrans(_LOOK_ALIKES)
_SEPARATORS = frozenset("_-.")
_SEQUENCES = (("rn", "m"), ("vv", "w"))


def _kept(char: str) -> bool:
    """False for what does not show: combining marks, format characters (zero-width
    space and joiners, soft hyphen, ...), white space and the separators ``_ - .``."""
    category = unicodedata.category(char)
    return not (category in {"Mn", "Me", "Cf"} or char.isspace() or char in _SEPARATORS)


def nickname_skeleton(name: str) -> str:
    """The skeleton of a nickname: equal skeletons mean nicknames that look alike (an
    empty skeleton means a nickname that shows nothing)."""
    folded = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", name).casefold())
    text = "".join(char for char in folded if _kept(char)).translate(_TABLE)
    for sequence, replacement in _SEQUENCES:
        text = text.replace(sequence, replacement)
    return text


def same_nickname(first: str, second: str) -> bool:
    """Whether two nicknames look alike (equal skeletons)."""
    return nickname_skeleton(first) == nickname_skeleton(second)
