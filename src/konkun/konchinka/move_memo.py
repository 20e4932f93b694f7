"""The memo of :class:`~konkun.konchinka.moves.Move` objects by card indices: each move
built once, with its canonical sort key, and found again from (played card, taken cards)."""

from __future__ import annotations

from collections.abc import Sequence

from konkun.konchinka.deck import CARDS, ORDER
from konkun.konchinka.moves import Move

MoveKey = tuple[int, int, tuple[int, ...]]
"""A move's canonical sort key: (played card's order, how many taken, taken orders)."""
MOVE_MEMO: dict[int, tuple[MoveKey, Move]] = {}
"""The memo of :func:`memo_move`, keyed by played card | taken mask << 6."""
_MOVES_LIMIT = 1 << 16


def memo_move(key: int) -> tuple[MoveKey, Move]:
    """The move with this key (played card | taken mask << 6) and its sort key."""
    card = key & 63
    taken = [i for i in range(52) if key >> (i + 6) & 1]
    move = Move(CARDS[card], frozenset(CARDS[i] for i in taken))
    entry = ((ORDER[card], len(taken), tuple(sorted(ORDER[i] for i in taken))), move)
    if len(MOVE_MEMO) >= _MOVES_LIMIT:
        MOVE_MEMO.clear()
    MOVE_MEMO[key] = entry
    return entry


def move_sort_key(entry: tuple[MoveKey, Move]) -> MoveKey:
    """The sort key of a memo entry."""
    return entry[0]


def move_of(card: int, taken: Sequence[int]) -> Move:
    """The :class:`Move` playing card index ``card`` and taking the indices ``taken``
    (memoized: the same move object each time)."""
    key = card
    for c in taken:
        key |= 1 << (c + 6)
    entry = MOVE_MEMO.get(key)
    return (entry if entry is not None else memo_move(key))[1]
