"""The closed sets of words the server's state is made of: a table's status
(:class:`TableStatus`) and who holds a seat (:class:`SeatKind`). Both are :class:`StrEnum`
members, so the database, the JSON messages and the page see the same words as before."""

from __future__ import annotations

from enum import StrEnum


class TableStatus(StrEnum):
    """Where a table is in its life: seats free, a game under way, over, or removed."""

    WAITING = "waiting"
    """Some seat is empty; nothing is dealt."""
    PLAYING = "playing"
    """Every seat is taken and the match is under way."""
    FINISHED = "finished"
    """The match is over (the row keeps the winner and the totals)."""
    CANCELLED = "cancelled"
    """Removed by another server process (cancelled or expired) while held in memory."""


class SeatKind(StrEnum):
    """Who holds a seat."""

    EMPTY = "empty"
    HUMAN = "human"
    BOT = "bot"
