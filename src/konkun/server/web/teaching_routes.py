"""The routes of teaching (``docs/web.md``, "Teaching"): the guided first game and the
puzzles, their API and their pages.

- ``POST /api/learn/{game}`` ``{"moves": [TEXT, ...]}``: the lesson after the player's
  moves (:func:`konkun.learn.replay`); a move the step does not teach, or an illegal one,
  is ``illegal_move`` and changes nothing (the server keeps no lesson state); in Kunken
  with the parts of the taught action and of the bot's moves;
- ``GET /api/puzzles/daily?game=konchinka|kunken``: today's puzzle (UTC), with its
  ``position`` in the game's notation and its ``solution`` (in Kunken with the parts of
  the solution and its line);
- ``GET /api/puzzles/{id}``: one puzzle;
- the pages ``/learn/{game}``, ``/puzzles`` and ``/puzzles/{game}`` (the one browser page,
  which routes on its path).
"""

from __future__ import annotations

import asyncio
import datetime
from typing import Any

from fastapi import APIRouter, Request

from konkun.learn import LessonError, load_lesson, replay
from konkun.learn.lesson import GAMES as LESSON_GAMES
from konkun.puzzles import PuzzleError, daily_puzzle, puzzle_by_id
from konkun.puzzles.collection import GAMES as PUZZLE_GAMES
from konkun.puzzles.collection import Puzzle, puzzle_board, puzzle_parts
from konkun.server.core.protocol import ProtocolError
from konkun.server.web.parts import Parts, json_body, page
from konkun.server.web.throttle import WRITE, rate_limit


def _game(game: str | None, games: tuple[str, ...], what: str) -> str:
    if game not in games:
        raise ProtocolError("unknown_game", f"unknown game {game!r} for {what}: expected "
                            f"{' or '.join(games)}", game)
    return game


def _moves(body: dict[str, Any]) -> list[str]:
    moves = body.get("moves", [])
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise ProtocolError("bad_request", "field 'moves' must be a list of move texts",
                            moves)
    return moves


def lesson_view(game: str, moves: list[str]) -> dict[str, Any]:
    """The lesson of ``game`` after ``moves`` as the page shows it; ``illegal_move``
    naming the move when one cannot be played."""
    try:
        return replay(load_lesson(game), moves).view()
    except LessonError as error:
        raise ProtocolError("illegal_move", str(error)) from None


def _served(puzzle: Puzzle) -> dict[str, Any]:
    """A puzzle as the API serves it: its JSON, the board the page draws and, in Kunken,
    the parts of its answer and line."""
    return puzzle.to_json() | {"board": puzzle_board(puzzle)} | puzzle_parts(puzzle)


def router(parts: Parts) -> APIRouter:
    """The teaching routes and pages."""
    routes = APIRouter()

    @routes.post("/api/learn/{game}")
    @rate_limit(WRITE)
    async def learn(game: str, request: Request) -> dict[str, Any]:
        _game(game, LESSON_GAMES, "a lesson")
        moves = _moves(await json_body(request))
        return await asyncio.to_thread(lesson_view, game, moves)

    @routes.get("/api/puzzles/daily")
    @rate_limit(None)
    async def daily(game: str | None = None) -> dict[str, Any]:
        chosen = _game(game, PUZZLE_GAMES, "puzzles")
        today = datetime.datetime.now(datetime.UTC).date()
        return _served(daily_puzzle(chosen, today)) | {"date": today.isoformat()}

    @routes.get("/api/puzzles/{puzzle_id}")
    @rate_limit(None)
    async def puzzle(puzzle_id: str) -> dict[str, Any]:
        try:
            found = puzzle_by_id(puzzle_id)
        except PuzzleError:
            raise ProtocolError("not_found", f"unknown puzzle {puzzle_id!r}") from None
        return _served(found)

    @routes.get("/learn/{game}", include_in_schema=False)
    @rate_limit(None)
    async def learn_page(game: str) -> Any:
        return page(parts.static)

    @routes.get("/puzzles", include_in_schema=False)
    @routes.get("/puzzles/{game}", include_in_schema=False)
    @rate_limit(None)
    async def puzzles_page(game: str = "") -> Any:
        return page(parts.static)

    return routes


__all__ = ["lesson_view", "router"]
