"""The score of a Konchinka deal, from the capture piles (``RULES.md``, Score of a deal).

- 2 points to the player with strictly the most cards;
- 1 point to the player with strictly the most clubs;
- 1 point to whoever holds the 2 of clubs, 1 to whoever holds the 10 of diamonds
  (the two кончинки).

A tie for most cards or most clubs scores as the rule option ``tie_points`` says
(``none``: nobody, the default; ``all``: every tied player scores the full points;
``split``: the points shared equally among the tied, rounded down).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from konkun.cards import Card, Rank, Suit
from konkun.konchinka.rules import KonchinkaRules, TiePoints

TWO_OF_CLUBS = Card.of(Rank.TWO, Suit.CLUBS)
"""The 2 of clubs, one of the two кончинки."""
TEN_OF_DIAMONDS = Card.of(Rank.TEN, Suit.DIAMONDS)
"""The 10 of diamonds, one of the two кончинки."""

MOST_CARDS_POINTS = 2
MOST_CLUBS_POINTS = 1
KONCHINKA_POINTS = 1

CLUBS_MASK = (1 << 13) - 1
"""Bit mask of the clubs among card indices (clubs are indices 0..12)."""
_TWO_CLUBS_BIT = 1 << TWO_OF_CLUBS.index
_TEN_DIAMONDS_BIT = 1 << TEN_OF_DIAMONDS.index


@dataclass(frozen=True, slots=True)
class SeatScore:
    """One seat's counts and points for a deal."""

    cards: int
    clubs: int
    konchinki: int
    points: int

    def to_json(self) -> dict[str, int]:
        """``{"cards": N, "clubs": N, "konchinki": N, "points": N}``."""
        return {"cards": self.cards, "clubs": self.clubs, "konchinki": self.konchinki,
                "points": self.points}


@dataclass(frozen=True, slots=True)
class DealScore:
    """The score of one deal, seat by seat."""

    seats: tuple[SeatScore, ...]

    @property
    def points(self) -> list[int]:
        """Each seat's points."""
        return [s.points for s in self.seats]

    def to_json(self) -> dict[str, Any]:
        """``{"seats": [{"cards": N, "clubs": N, "konchinki": N, "points": N}, ...]}``."""
        return {"seats": [s.to_json() for s in self.seats]}


def award_points(counts: Sequence[int], points: int, ties: TiePoints) -> list[int]:
    """Who gets ``points`` for the strictly largest of ``counts`` (most cards, most clubs):
    nobody when nobody has any; a tie as ``ties`` says (``none``, ``all``, ``split``)."""
    best = max(counts)
    leaders = [i for i, c in enumerate(counts) if c == best]
    awarded = [0] * len(counts)
    if best == 0:
        return awarded  # nobody has any: nobody scores
    if len(leaders) == 1:
        awarded[leaders[0]] = points
    elif ties == "all":
        for i in leaders:
            awarded[i] = points
    elif ties == "split":
        for i in leaders:
            awarded[i] = points // len(leaders)
    return awarded


def score_masks(piles: Sequence[int], ties: TiePoints = "none") -> DealScore:
    """Score capture piles given as bit masks of card indices (bit ``i``: card ``i``)."""
    cards = [m.bit_count() for m in piles]
    clubs = [(m & CLUBS_MASK).bit_count() for m in piles]
    konchinki = [bool(m & _TWO_CLUBS_BIT) + bool(m & _TEN_DIAMONDS_BIT) for m in piles]
    most_cards = award_points(cards, MOST_CARDS_POINTS, ties)
    most_clubs = award_points(clubs, MOST_CLUBS_POINTS, ties)
    return DealScore(tuple(
        SeatScore(cards[i], clubs[i], konchinki[i],
                  most_cards[i] + most_clubs[i] + KONCHINKA_POINTS * konchinki[i])
        for i in range(len(piles))))


def points_no_ties(piles: Sequence[int]) -> list[int]:
    """Each seat's points with ``tie_points`` ``none``: ``score_masks(piles).points``
    without building the score (the fast path of the random playouts)."""
    points = [KONCHINKA_POINTS * (bool(m & _TWO_CLUBS_BIT) + bool(m & _TEN_DIAMONDS_BIT))
              for m in piles]
    cards = [m.bit_count() for m in piles]
    best = max(cards)
    if best and cards.count(best) == 1:
        points[cards.index(best)] += MOST_CARDS_POINTS
    clubs = [(m & CLUBS_MASK).bit_count() for m in piles]
    best = max(clubs)
    if best and clubs.count(best) == 1:
        points[clubs.index(best)] += MOST_CLUBS_POINTS
    return points


def score_piles(piles: Sequence[Iterable[Card]],
                rules: KonchinkaRules | None = None) -> DealScore:
    """Score capture piles given as card lists (``rules`` gives ``tie_points``)."""
    masks = [sum(1 << c.index for c in set(pile)) for pile in piles]
    return score_masks(masks, (rules or KonchinkaRules()).tie_points)
