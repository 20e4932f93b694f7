"""What the terminal needs to know about each game: how to start and reload a match, and
how to draw the board for the human's seat. Games are looked up by name in :data:`GAMES`."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.text import Text

from konkun.cards import new_secret_seed
from konkun.errors import InvalidNotationError, InvalidRuleError
from konkun.game import Match

if TYPE_CHECKING:
    from konkun.tui.session import PlaySession

DEFAULT_BOT = "greedy"
"""The bot that plays a seat when ``--bots`` is not given."""


@dataclass(frozen=True)
class GameUI:
    """One game's hooks for the terminal."""

    title: str
    example_move: str
    rules_summary: str
    players: tuple[int, int]
    new_match: Callable[[int, Mapping[str, str], int | str], Match[Any]]
    load_match: Callable[[Mapping[str, Any]], tuple[Match[Any], int | str]]
    render_board: Callable[[PlaySession], RenderableType]


GAMES: dict[str, GameUI] = {}
"""The games ``konkun play`` knows, by name (filled in by :mod:`konkun.tui.boards`)."""


def game_ui(game: str) -> GameUI:
    """The hooks of ``game``; raise :class:`InvalidRuleError` for an unknown game."""
    _load()
    try:
        return GAMES[game]
    except KeyError:
        raise InvalidRuleError(
            f"unknown game {game!r}: expected one of {', '.join(sorted(GAMES))}") from None


def _load() -> None:
    if "konchinka" not in GAMES:
        import konkun.tui.boards  # noqa: F401  (registers the games)


def new_match(game: str, players: int, rules: Mapping[str, str],
              seed: int | str | None) -> tuple[Match[Any], int | str]:
    """A new match of ``game`` and the seed it uses (a fresh secret seed by default)."""
    ui = game_ui(game)
    low, high = ui.players
    if not low <= players <= high:
        raise InvalidRuleError(
            f"invalid number of players {players!r} for {game}: expected {low} to {high}")
    used = new_secret_seed() if seed is None else seed
    return ui.new_match(players, rules, used), used


def load_match(record: Any) -> tuple[Match[Any], str, int | str]:
    """Replay a match record: the match, its game's name and its seed."""
    if not isinstance(record, Mapping):
        raise InvalidNotationError(f"invalid match record {record!r}: not a JSON object")
    game = record.get("game")
    if not isinstance(game, str):
        raise InvalidNotationError("invalid match record: no 'game' field")
    match, seed = game_ui(game).load_match(record)
    return match, game, seed


def make_agent(spec: str, game: str, seed: int) -> Any:
    """A seated bot (:class:`konkun.bots.base.Agent`) from its spec."""
    from konkun.bots.specs import BotSpec

    return BotSpec.parse(spec).agent(game, random.Random(seed))


def render_board(session: PlaySession) -> RenderableType:
    """The board as the human sees it."""
    return game_ui(session.game).render_board(session)


def deal_number(match: Match[Any]) -> int:
    """The number of the deal in play (from 1), or of the last one once the match is over."""
    return len(match.deal_points) + (0 if match.is_over() else 1)


def status_line(session: PlaySession) -> str:
    """One line: the deal number, whose turn it is, the totals."""
    match = session.match
    if match.is_over():
        turn = "game over"
    else:
        seat = match.deal.to_move
        turn = "your move" if seat == session.human else f"{session.seat_name(seat or 0)} to move"
    totals = " ".join(str(t) for t in match.totals)
    return f"deal {deal_number(match)} | {turn} | totals {totals}"


def generic_board(session: PlaySession) -> RenderableType:
    """A plain view of the engine's JSON observation (for games without their own)."""
    view = session.match.deal.observe(session.human).to_json()
    lines = [Text(f"{key}: {value}") for key, value in view.items() if key != "legal"]
    return Group(*lines)


def example_move(game: str) -> str:
    """An example of a move text, for the help."""
    return game_ui(game).example_move


def rules_summary(game: str) -> str:
    """A few lines on the rules, for the help."""
    return game_ui(game).rules_summary


def title(game: str) -> str:
    """The game's display name."""
    return game_ui(game).title
