"""Konchinka puzzles: two-player endgames with one best move, by the exact endgame solver.

Deals are played by the ``greedy`` bot on both seats from a seed; once the stock has run
out the rest of the deal is a game of perfect information, which
:class:`~konkun.bots.konchinka_endgame.EndgameSolver` solves exactly. A position becomes a
puzzle when the seat to move has at least three moves, one of them worth strictly more
than every other (the value: the deal's points for the mover minus the other seat's), and
the answer is not just what the greedy bot would play anyway, or wins by two points or
more: a puzzle has to teach something.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from konkun.bots.base import Budget
from konkun.bots.konchinka_endgame import EndgameSolver
from konkun.bots.specs import create_bot
from konkun.konchinka.deal import KonchinkaDeal
from konkun.konchinka.dealing import deal_from_seed
from konkun.konchinka.moves import Move
from konkun.konchinka.notation import parse_kpn
from konkun.konchinka.rules import KonchinkaRules
from konkun.puzzles.collection import Puzzle

KIND = "endgame"
MIN_MOVES = 3
CLEAR_MARGIN = 2


def move_values(deal: KonchinkaDeal) -> dict[str, int]:
    """Each legal move's exact value (by its text) for the seat to move."""
    return {move.text(): value for move, value in EndgameSolver().move_values(deal).items()}


def unique_best(values: dict[str, int]) -> str | None:
    """The move worth strictly more than every other, or ``None``."""
    ranked = sorted(values.items(), key=lambda item: -item[1])
    if len(ranked) >= 2 and ranked[0][1] > ranked[1][1]:
        return ranked[0][0]
    return None


def solver_line(deal: KonchinkaDeal) -> list[str]:
    """Both seats' best moves from ``deal`` to the end of the deal (the first move of the
    highest value at each turn)."""
    deal = deal.copy()
    solver = EndgameSolver()
    line: list[str] = []
    while not deal.is_over():
        move = solver.best_move(deal)
        line.append(move.text())
        deal.play(move)
    return line


def check_puzzle(puzzle: Puzzle) -> str | None:
    """Why ``puzzle`` is not a sound Konchinka puzzle (its solution is not the unique best
    move by the solver, or its line is not the solver's), or ``None``."""
    deal = parse_kpn(puzzle.position)
    if deal.turn != puzzle.seat:
        return f"seat {puzzle.seat} is not to move"
    values = move_values(deal)
    best = unique_best(values)
    if best != puzzle.solution:
        return f"the unique best move is {best!r}, not {puzzle.solution!r}"
    if puzzle.line[:1] != (puzzle.solution,):
        return "the line does not start with the solution"
    return None


def _endgame_positions(seed: int, bot_rng: random.Random) -> Iterator[KonchinkaDeal]:
    """The positions of one greedy-played deal from the moment its stock is empty."""
    bot = create_bot("greedy", "konchinka")
    deal = deal_from_seed(KonchinkaRules(), 2, seed % 2, seed)
    while not deal.is_over():
        if deal.stock_size == 0:
            yield deal.copy()
        move = bot.choose(deal.observe(deal.turn), deal.legal_actions(), bot_rng, Budget())
        deal.play(move)


def _greedy_choice(deal: KonchinkaDeal, rng: random.Random) -> str:
    bot = create_bot("greedy", "konchinka")
    move: Move = bot.choose(deal.observe(deal.turn), deal.legal_actions(), rng, Budget())
    return move.text()


def puzzle_of(deal: KonchinkaDeal, rng: random.Random) -> tuple[str, dict[str, int]] | None:
    """The answer and the move values when ``deal`` makes a puzzle (see the module
    documentation), else ``None``."""
    if len(deal.legal_actions()) < MIN_MOVES:
        return None
    values = move_values(deal)
    best = unique_best(values)
    if best is None:
        return None
    second = max(v for m, v in values.items() if m != best)
    if values[best] - second < CLEAR_MARGIN and _greedy_choice(deal, rng) == best:
        return None
    return best, values


def generate(count: int, seed: int) -> list[Puzzle]:
    """``count`` puzzles from the deals of seeds ``seed``, ``seed + 1``, ... (at most one
    per deal, its first position that makes a puzzle)."""
    found: list[Puzzle] = []
    deal_seed = seed
    while len(found) < count:
        rng = random.Random(deal_seed)
        for deal in _endgame_positions(deal_seed, rng):
            answer = puzzle_of(deal, rng)
            if answer is not None:
                best, values = answer
                found.append(Puzzle(id=f"konchinka-{deal_seed}", game="konchinka",
                                    kind=KIND, position=deal.kpn(), seat=deal.turn,
                                    solution=best, line=tuple(solver_line(deal)),
                                    values=values))
                break
        deal_seed += 1
    return found


__all__ = ["KIND", "check_puzzle", "generate", "move_values", "puzzle_of", "solver_line",
           "unique_best"]
