"""Puzzles: positions where one line is clearly best, found by the engines' exact tools
(docs/web.md, "Puzzles").

- Konchinka (:mod:`konkun.puzzles.konchinka`): two-player endgames after the stock ran out,
  solved by :class:`~konkun.bots.konchinka_endgame.EndgameSolver`; the best move is worth
  strictly more than every other move.
- Kunken (:mod:`konkun.puzzles.kunken`): "the take that opens": a player without a layout
  may take the bank from exactly one of its cards (the engine's exact take check,
  :mod:`konkun.kunken.completion`), and the bank holds several.

:mod:`konkun.puzzles.collection` holds the :class:`Puzzle` value, the shipped file and the
daily choice; ``konkun puzzles generate`` (:mod:`konkun.puzzles.cli`) writes the file
offline, so the server only serves it.
"""

from konkun.puzzles.collection import (
    GAMES,
    Puzzle,
    PuzzleError,
    daily_puzzle,
    load_puzzles,
    puzzle_by_id,
)

__all__ = ["GAMES", "Puzzle", "PuzzleError", "daily_puzzle", "load_puzzles", "puzzle_by_id"]
