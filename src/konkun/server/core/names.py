"""Nicknames as players see them: counted in user-perceived characters, emoji allowed.

A person counts "👨‍👩‍👧" or "🇷🇺" as one character, though each is several code points
joined by a zero-width joiner or paired. :func:`graphemes` splits a text into such
clusters with the main rules of Unicode's extended grapheme clusters (UAX #29: combining
marks, variation selectors, emoji modifiers and tags extend a cluster; a zero-width joiner
joins the next pictograph; regional indicators pair), which is enough for names.
:func:`check_nickname` is the rule for a nickname.
"""

from __future__ import annotations

import unicodedata

MAX_NICKNAME = 24
"""The most user-perceived characters in a nickname."""

MAX_NICKNAME_CODE_POINTS = 160
"""The most code points in a nickname (a family emoji alone is five), so that a token
naming it stays short."""

ZWJ = "\u200d"
_JOINERS = {ZWJ, "\u200c"}
_FORMAT_ALLOWED = _JOINERS | {chr(c) for c in range(0xE0020, 0xE0080)}  # joiners, emoji tags
_BIDI_CONTROLS = {chr(c) for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]}


class NicknameError(ValueError):
    """A nickname that breaks the rule; ``reason`` is ``empty``, ``too_long`` or
    ``characters``."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def _is_regional(ch: str) -> bool:
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF


def _extends(ch: str) -> bool:
    """Whether ``ch`` never starts a cluster (it extends the one before it)."""
    code = ord(ch)
    return (unicodedata.category(ch) in {"Mn", "Me", "Mc"} or ch in _JOINERS
            or 0xFE00 <= code <= 0xFE0F or 0x1F3FB <= code <= 0x1F3FF
            or 0xE0020 <= code <= 0xE007F)


def _pictographic(ch: str) -> bool:
    """Roughly Extended_Pictographic: symbols and the emoji planes."""
    code = ord(ch)
    return unicodedata.category(ch) == "So" or 0x1F000 <= code <= 0x1FAFF \
        or 0x2600 <= code <= 0x27BF


def graphemes(text: str) -> list[str]:
    """``text`` split into user-perceived characters (extended grapheme clusters)."""
    clusters: list[str] = []
    for ch in text:
        if clusters:
            previous = clusters[-1]
            joined = previous[-1] == ZWJ and _pictographic(ch)
            paired = (_is_regional(ch) and _is_regional(previous[0])
                      and len(previous) == 1)
            if _extends(ch) or joined or paired or (previous[-1] == "\r" and ch == "\n"):
                clusters[-1] = previous + ch
                continue
        clusters.append(ch)
    return clusters


def allowed_character(ch: str) -> bool:
    """Whether ``ch`` may appear in a name or a chat line: no control, private-use,
    unassigned or text-direction characters (joiners and emoji tags are fine)."""
    category = unicodedata.category(ch)
    if ch in _BIDI_CONTROLS:
        return False
    if category == "Cf":
        return ch in _FORMAT_ALLOWED
    return not category.startswith("C") and category not in {"Zl", "Zp"}


def check_nickname(nickname: str) -> str:
    """The nickname trimmed, inner runs of white space made one space; raise
    :class:`NicknameError` for one that is empty (or only spaces), longer than
    :data:`MAX_NICKNAME` characters, or holding control or direction characters."""
    name = " ".join(nickname.split())
    if not name:
        raise NicknameError("empty", "nickname must not be empty or only spaces")
    count = len(graphemes(name))
    if count > MAX_NICKNAME or len(name) > MAX_NICKNAME_CODE_POINTS:
        raise NicknameError("too_long", f"nickname is over {MAX_NICKNAME} characters "
                            f"({count})")
    bad = next((ch for ch in name if not allowed_character(ch)), None)
    if bad is not None:
        raise NicknameError("characters", f"nickname holds the control character "
                            f"U+{ord(bad):04X} at {name.index(bad)}")
    return name
