"""The toy game's board for the terminal (its descriptor's ``terminal`` add-on)."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from konkun.toy.engine import value
from konkun.tui.addon import SessionView, TerminalAddon

RULES = """\
[b]Toy[/b] (a tiny fishing game): sixteen cards 0..15, card c worth c // 2 + 1. Play one
card a turn: it takes every table card of its value, or lies on the table; then draw.
One point per card taken; the match goes to 10 (option target). Move text: a card, [b]7[/b]."""


def _cards(cards: Any) -> str:
    return " ".join(f"{c}({value(c)})" for c in cards) or "(none)"


def board(session: SessionView) -> RenderableType:
    """The table, the human's hand, the piles and the stock."""
    obs: Any = session.match.deal.observe(session.human)
    lines = [Text(f"Toy, {obs.num_seats} players", style="bold"),
             Text(f"Table      {_cards(obs.table)}"),
             Text(f"Your hand  {_cards(obs.hand)}"),
             Text(f"Stock      {obs.stock_size} cards")]
    for seat, pile in enumerate(obs.piles):
        lines.append(Text(f"{session.seat_name(seat)}: {len(pile)} taken, "
                          f"{obs.hand_sizes[seat]} in hand"))
    return Group(*lines)


TERMINAL = TerminalAddon(example_move="7", rules_summary=RULES, render_board=board)
"""The toy game's terminal add-on."""
