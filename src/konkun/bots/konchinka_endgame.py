"""An exact solver for Konchinka endgames of perfect information.

In a two-player deal, once the stock is empty (from the last redeal on) the cards a seat
has not seen are exactly the other hand: the rest of the deal is a game of perfect
information, and it is small (at most four cards each). :class:`EndgameSolver` solves it
by alpha-beta (negamax) on the deal's points, the mover's points minus the other's
(RULES.md, Кончинка: Score of a deal), with a transposition table.

The table's key holds what the rest of the deal depends on: the rules, both hands, the table, who
captured last and, of each capture pile, only what its score reads (its cards, its
clubs, the кончинки it holds): two piles alike in those score alike whatever comes.

It reads the engine's fast internals (``_options``, ``_apply``, as the play-outs of
:mod:`konkun.bots.konchinka_greedy` do); :func:`applies` says when an observation is
such an endgame.
"""

from __future__ import annotations

from typing import Any

from konkun.konchinka.deal import KonchinkaDeal
from konkun.konchinka.scoring import CLUBS_MASK, TEN_OF_DIAMONDS, TWO_OF_CLUBS

_KONCHINKI = (1 << TWO_OF_CLUBS.index) | (1 << TEN_OF_DIAMONDS.index)

EXACT, LOWER, UPPER = 0, 1, 2


def applies(observation: Any) -> bool:
    """Whether ``observation`` (a Konchinka seat's view) is a perfect-information
    endgame: two players, the stock empty, the deal not over."""
    return (observation.num_seats == 2 and observation.stock_size == 0
            and observation.to_move is not None)


class EndgameSolver:
    """Exact values of two-player Konchinka endgames (see the module documentation).

    ``nodes`` counts the positions searched (for nodes per second); the transposition
    table is kept between calls on the same solver.
    """

    def __init__(self) -> None:
        self.nodes = 0
        self.table: dict[tuple[Any, ...], tuple[int, int]] = {}

    def value(self, deal: KonchinkaDeal) -> int:
        """The exact value of ``deal`` for the seat to move: its points minus the other
        seat's at the end of the deal, both playing their best."""
        seat = deal.turn
        if seat < 0:
            raise ValueError("the deal is over: no seat to move")
        return self._search(deal, seat, -1000, 1000)

    def move_values(self, deal: KonchinkaDeal) -> dict[Any, int]:
        """Each legal move's exact value for the seat to move."""
        seat = deal.turn
        out: dict[Any, int] = {}
        for move in deal.legal_actions():
            child = deal.copy()
            child.push(move)
            out[move] = self._child_value(child, seat, -1000, 1000)
        return out

    def best_move(self, deal: KonchinkaDeal) -> Any:
        """A move of the highest exact value (the first in the engine's order)."""
        values = self.move_values(deal)
        return max(values, key=values.__getitem__)

    # ------------------------------------------------------------------ search

    def _child_value(self, child: KonchinkaDeal, seat: int, alpha: int, beta: int) -> int:
        """The value of ``child`` for ``seat`` (who just moved)."""
        turn = child.turn
        if turn < 0:
            self.nodes += 1
            points = child.points()
            return points[seat] - points[1 - seat]
        if turn == seat:
            return self._search(child, seat, alpha, beta)
        return -self._search(child, turn, -beta, -alpha)

    def _search(self, deal: KonchinkaDeal, seat: int, alpha: int, beta: int) -> int:
        self.nodes += 1
        key = self._key(deal)
        entry = self.table.get(key)
        if entry is not None:
            value, flag = entry
            if flag == EXACT:
                return value
            if flag == LOWER and value >= beta:
                return value
            if flag == UPPER and value <= alpha:
                return value
        start_alpha = alpha
        best = -1000
        options = deal.options()
        options.sort(key=lambda option: -len(option[1]))  # captures first, the biggest first
        for card, positions in options:
            child = deal.copy()
            child.push_option(card, positions)
            value = self._child_value(child, seat, alpha, beta)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        flag = EXACT
        if best <= start_alpha:
            flag = UPPER
        elif best >= beta:
            flag = LOWER
        self.table[key] = (best, flag)
        return best

    @staticmethod
    def _key(deal: KonchinkaDeal) -> tuple[Any, ...]:
        piles = tuple((m.bit_count(), (m & CLUBS_MASK).bit_count(), m & _KONCHINKI)
                      for m in deal.pile_masks)
        hands = deal.hand_indices
        return (deal.rules, tuple(sorted(hands[0])), tuple(sorted(hands[1])),
                tuple(deal.table_codes), piles, deal.last_capturer, deal.turn)


__all__ = ["EndgameSolver", "applies"]
