"""What a game gives the terminal (its descriptor's ``terminal`` add-on), and what a board
may read of the match in play.

A board is drawn from a :class:`SessionView` (the match, the human's seat, the seats'
names), so that a game's board never imports the session (:mod:`konkun.tui.session`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from rich.console import Group, RenderableType
from rich.text import Text

from konkun.game import Match


class SessionView(Protocol):
    """The part of a :class:`~konkun.tui.session.PlaySession` a board reads."""

    @property
    def game(self) -> str:
        """The game's name."""
        ...

    @property
    def match(self) -> Match[Any]:
        """The match in play."""
        ...

    @property
    def human(self) -> int:
        """The human's seat."""
        ...

    def seat_name(self, seat: int) -> str:
        """A seat's name as the board shows it."""
        ...


def generic_board(session: SessionView) -> RenderableType:
    """A plain view of the engine's JSON observation (for games without their own)."""
    view = session.match.deal.observe(session.human).to_json()
    lines = [Text(f"{key}: {value}") for key, value in view.items() if key != "legal"]
    return Group(*lines)


@dataclass(frozen=True)
class TerminalAddon:
    """One game's pieces for the terminal."""

    example_move: str
    """A move text, for the help."""
    rules_summary: str
    """A few lines on the rules (Rich markup), for the help."""
    render_board: Callable[[SessionView], RenderableType] = generic_board
    """The board as the human sees it."""


def deal_number(match: Match[Any]) -> int:
    """The number of the deal in play (from 1), or of the last one once the match is over."""
    return len(match.deal_points) + (0 if match.is_over() else 1)
