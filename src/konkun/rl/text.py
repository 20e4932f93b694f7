"""Text faces of the environments, for people and language-model agents: a seat's view as
readable lines, and the slot of a move given as text."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from konkun.errors import IllegalMoveError, InvalidNotationError, KonkunError

_SHOWN = ("game", "seat", "to_move", "dealer", "phase", "hand", "hand_sizes", "table", "bank",
          "stock_size", "captured_counts", "known_in_stock", "melds", "taken_held", "turn",
          "over", "points", "legal")
"""The JSON observation keys the text view shows, in this order."""


def view_text(view: Mapping[str, Any]) -> str:
    """A seat's JSON observation as ``key: value`` lines (cards and moves as text)."""
    lines = []
    for key in _SHOWN:
        if key not in view:
            continue
        value = view[key]
        if key == "melds":
            value = [" ".join(meld.get("cards", [])) or str(meld) for meld in value]
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            value = " ".join(value) if key != "legal" else ", ".join(value)
        lines.append(f"{key}: {value}")
    return "\n".join(lines)


def slot_for_text(slots: Mapping[int, Any], text: str,
                  parse: Callable[[str], Any] | None = None) -> int:
    """The slot of the legal action that ``text`` names.

    ``parse`` is the deal's ``parse_action`` (it reads every spelling of a move, such as a
    meld's cards in any order); without it the text must be an action's own text. Raise
    :class:`konkun.errors.InvalidNotationError` (from ``parse``) for text that is no move,
    :class:`konkun.errors.IllegalMoveError` for a move that is not legal here (or out of
    the action space's reach), naming the legal moves. Either names the input and what the
    agent may know (its own cards, its legal moves), never the position behind them.
    """
    try:
        wanted = parse(text.strip()) if parse is not None else None
    except KonkunError as error:  # its text may end with the whole position: every hand
        raise _without_position(error) from None
    for slot, action in slots.items():
        if (action == wanted) if parse is not None else action.text() == text.strip():
            return slot
    legal = ", ".join(sorted(action.text() for action in slots.values())) or "none"
    raise IllegalMoveError(f"illegal move {text!r}: not a legal move here (legal: {legal})")


def _without_position(error: KonkunError) -> KonkunError:
    """The same error with its reason alone (the position it names may show every hand
    and the stock)."""
    try:
        return type(error)(error.reason)
    except TypeError:
        return InvalidNotationError(error.reason)
