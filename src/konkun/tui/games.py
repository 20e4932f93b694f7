"""What the terminal needs to know about each game, found by name in the one registry
(:mod:`konkun.game`): how to start and reload a match (the descriptor) and how to draw the
board for the human's seat (the descriptor's ``terminal`` add-on, a
:class:`~konkun.tui.addon.TerminalAddon`; a generic board for a game without one)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rich.console import RenderableType
from rich.markup import escape

from konkun.cards import new_secret_seed
from konkun.errors import InvalidNotationError
from konkun.game import Game, Match, get_game
from konkun.tui.addon import SessionView, TerminalAddon, deal_number, generic_board

__all__ = ["DEFAULT_BOT", "deal_number", "example_move", "game_ui", "generic_board",
           "house_rules_help", "load_match", "make_agent", "new_match", "render_board",
           "rules_summary",
           "status_line", "title"]

DEFAULT_BOT = "greedy"
"""The bot that plays a seat when ``--bots`` is not given."""


def game_ui(game: str) -> TerminalAddon:
    """The terminal add-on of ``game``; raise :class:`~konkun.errors.InvalidRuleError`
    for an unknown game."""
    addon = get_game(game).addon("terminal")
    if isinstance(addon, TerminalAddon):
        return addon
    return TerminalAddon(example_move="", rules_summary="")


def new_match(game: str, players: int, rules: Mapping[str, str],
              seed: int | str | None) -> tuple[Match[Any], int | str]:
    """A new match of ``game`` and the seed it uses (a fresh secret seed by default)."""
    descriptor = get_game(game)
    value = descriptor.rules_from_options(None, rules, players)
    used = new_secret_seed() if seed is None else seed
    return descriptor.new_match(value, players, used), used


def load_match(record: Any) -> tuple[Match[Any], str, int | str]:
    """Replay a match record: the match, its game's name and its seed."""
    if not isinstance(record, Mapping):
        raise InvalidNotationError(f"invalid match record {record!r}: not a JSON object")
    game = record.get("game")
    if not isinstance(game, str):
        raise InvalidNotationError("invalid match record: no 'game' field")
    descriptor: Game = get_game(game)
    seed = record.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise InvalidNotationError(f"invalid match record: seed {seed!r}")
    return descriptor.load_record(record), game, seed


def make_agent(spec: str, game: str, seed: int) -> Any:
    """A seated bot (:class:`konkun.bots.base.Agent`) from its spec."""
    from konkun.bots.specs import BotSpec

    return BotSpec.parse(spec).agent(game, random.Random(seed))


def render_board(session: SessionView) -> RenderableType:
    """The board as the human sees it."""
    return game_ui(session.game).render_board(session)


def status_line(session: SessionView) -> str:
    """One line: the deal number, whose turn it is, the totals."""
    match = session.match
    if match.is_over():
        turn = "game over"
    else:
        seat = match.deal.to_move
        turn = "your move" if seat == session.human else f"{session.seat_name(seat or 0)} to move"
    totals = " ".join(str(t) for t in match.totals)
    return f"deal {deal_number(match)} | {turn} | totals {totals}"


def example_move(game: str) -> str:
    """An example of a move text, for the help."""
    return game_ui(game).example_move


def rules_summary(game: str) -> str:
    """A few lines on the rules, for the help."""
    return game_ui(game).rules_summary


def house_rules_help(game: str, rules: Any = None) -> str:
    """Every house rule of ``game``, with its value at this table (``rules``, when given)
    and its one-sentence explanation (the game's ``explanations``, the same sentences the
    web page shows), as Rich markup for the help; "" for a game without explanations."""
    texts = get_game(game).explanations()
    if not texts:
        return ""
    values = rules.to_json() if hasattr(rules, "to_json") else {}
    lines = ["[b]House rules[/b] (this table's value: what it means)"]
    for name, text in texts.items():
        value = values.get(name)
        shown = "" if value is None else \
            f" = {str(value).lower() if isinstance(value, bool) else value}"
        lines.append(f"  {name}{shown}: {escape(text.en)}")
    return "\n".join(lines)


def title(game: str) -> str:
    """The game's display name."""
    return get_game(game).title.en
