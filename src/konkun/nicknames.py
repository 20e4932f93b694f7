"""Nickname skeletons: two nicknames that look alike share a skeleton, so a server keeps
nicknames unique by their skeletons (``docs/ratings.md``, Nicknames).

The skeleton is Unicode's (UTS #39, "Unicode Security Mechanisms", section 4), computed by
ICU from Unicode's own table of confusable characters (``confusables.txt``, kept up to date
with each ICU release) rather than a hand list, and made case-insensitive. Case and
look-alikes do not combine into one equivalence (a Cyrillic ``м`` looks like a Latin ``M``
only in capitals), so a nickname has two skeletons, and two nicknames look alike when
either matches:

- :func:`nickname_skeleton`, of the nickname in small letters (``rn`` as ``m``, ``1`` and
  ``l`` alike, Cyrillic ``а`` as Latin ``a`` ...);
- :func:`caps_skeleton`, of the nickname in capitals (Greek ``Ν`` as ``N``, Cherokee ``Ꭼ``,
  Lisu ``ꓰ`` and small capital ``ᴇ`` as ``E``, Armenian ``Տ`` as ``S`` ...).

Both first fold compatibility forms (NFKC: full-width and mathematical letters) and drop
what does not show: combining marks (accents), format characters (zero-width joiners,
soft hyphens), white space and the separators ``_ - .``.

>>> same_nickname("Маша", "MAША") and same_nickname("Маша", "MAШA")
True
>>> same_nickname("Masha", "Sasha")
False
>>> same_nickname("ꓰxpert", "EXPERT")
True
"""

from __future__ import annotations

import functools
import unicodedata
from typing import Any

_SEPARATORS = frozenset("_-.")
_SMALL_CAPITAL = "LATIN LETTER SMALL CAPITAL "


@functools.cache
def _checker() -> Any:
    """ICU's spoof checker (UTS #39), made once."""
    import icu

    return icu.SpoofChecker()


def _skeleton(text: str) -> str:
    """Unicode's skeleton of ``text`` (UTS #39, ICU's table)."""
    return str(_checker().getSkeleton(0, text))


def _kept(char: str) -> bool:
    """False for what does not show: combining marks, format characters (zero-width
    space and joiners, soft hyphen, ...), white space and the separators ``_ - .``."""
    category = unicodedata.category(char)
    return not (category in {"Mn", "Me", "Cf"} or char.isspace() or char in _SEPARATORS)


def _shown(text: str) -> str:
    """``text`` decomposed, without what does not show."""
    return "".join(char for char in unicodedata.normalize("NFD", text) if _kept(char))


def _capital(char: str) -> str:
    """A Latin small capital as its capital letter (``ᴇ`` as ``E``); else ``char``. Small
    capitals look like capitals, but Unicode gives them no upper case."""
    name = unicodedata.name(char, "")
    if name.startswith(_SMALL_CAPITAL):
        try:
            return unicodedata.lookup("LATIN CAPITAL LETTER " + name[len(_SMALL_CAPITAL):])
        except KeyError:
            return char
    return char


def nickname_skeleton(name: str) -> str:
    """The skeleton of a nickname in small letters: equal skeletons mean nicknames that
    look alike (an empty skeleton means a nickname that shows nothing)."""
    text = _shown(unicodedata.normalize("NFKC", name).casefold())
    return _shown(_skeleton(text)).casefold()


def caps_skeleton(name: str) -> str:
    """The skeleton of a nickname in capitals (small capitals counted as capitals)."""
    text = _shown(unicodedata.normalize("NFKC", name))
    text = "".join(_capital(char) for char in text).upper()
    return _shown(_skeleton(text))


def same_nickname(first: str, second: str) -> bool:
    """Whether two nicknames look alike (in small letters or in capitals)."""
    return nickname_skeleton(first) == nickname_skeleton(second) \
        or caps_skeleton(first) == caps_skeleton(second)
