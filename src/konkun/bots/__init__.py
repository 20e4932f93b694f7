"""Computer players for both games, behind one interface.

- :class:`Bot` (the interface), :class:`Budget`, :class:`Agent` (a bot seated with its
  budget and random source: the only bridge from a deal to a bot) in :mod:`.base`;
- bot specs (``random``, ``greedy``, ``ismcts:iters=2000``, ``ismcts:time=1.0``) in
  :mod:`.specs`;
- the bots: :mod:`.random_bot`, :mod:`.greedy` (:mod:`.konchinka_greedy`,
  :mod:`.kunken_greedy`), :mod:`.ismcts`.
"""

from pathlib import Path

from konkun import native

NATIVE = native.activate(__path__, Path(__file__).resolve().parent)
"""Whether the Kunken bots load from their compiled build (:mod:`konkun.native`)."""

from konkun.bots.base import Agent, Bot, Budget, play_out
from konkun.bots.specs import (
    BotSpec,
    InvalidBotSpecError,
    available_bots,
    create_bot,
    parse_spec,
    parse_spec_list,
    register_bot,
)

__all__ = [
    "Agent",
    "Bot",
    "BotSpec",
    "Budget",
    "InvalidBotSpecError",
    "available_bots",
    "create_bot",
    "parse_spec",
    "parse_spec_list",
    "play_out",
    "register_bot",
]
