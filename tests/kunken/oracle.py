"""An independent Kunken meld validator and deal scorer, written from RULES.md alone.

A test oracle: it imports nothing from ``konkun``. Melds are judged by brute force: every
way of reading the undeclared jokers is tried, each reading is checked as a set and as a
sequence, and the most valuable valid reading wins (RULES.md, Кункен, Melds; CONTRACT.md,
``konkun kunken meld``).

- set: 3 or 4 cards of one rank, no two of the same suit;
- sequence: 3 to 13 cards of one suit, consecutive in the circular order A 2 .. Q K A
  (Q-K-A, K-A-2 and A-2-3 are all sequences), no card twice;
- at most half of a meld's cards are jokers; two identical cards never meet in a meld;
- a declared joker (``X=7d``) stands for that card and must fit; an undeclared one is read
  the way that makes the meld valid and, among those, worth the most;
- values: A K Q J = 10, T..2 = 5, a joker is worth the card it stands for; in a hand a
  joker counts 10.

The only shortcut in the search: a joker is tried only as a card sharing the rank or the
suit of the meld's first natural card (in any set or sequence every card does), which
keeps the search small without losing a reading.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

RANKS = "A23456789TJQK"
"""The circular order of a sequence, from the Ace (which also follows the King)."""
SUITS = "cdhs"
DECK: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
HIGH = frozenset("AKQJ")

_CARD_RE = re.compile(r"^(10|[AKQJT2-9])([cdhs])$")


class CardTextError(ValueError):
    """Text that is not a card."""


@dataclass(frozen=True)
class Token:
    """One card of a meld as written: a natural card, or a joker, maybe declared."""

    card: str | None
    joker: bool

    @staticmethod
    def parse(text: str) -> Token:
        """Read ``As``, ``10d``, ``X`` or ``X=7d``."""
        if text == "X":
            return Token(None, True)
        if text.startswith("X="):
            return Token(parse_card(text[2:]), True)
        return Token(parse_card(text), False)


def parse_card(text: str) -> str:
    """One natural card text, ``10`` read as ``T``."""
    match = _CARD_RE.match(text)
    if match is None:
        raise CardTextError(f"not a card: {text!r}")
    return ("T" if match.group(1) == "10" else match.group(1)) + match.group(2)


def value(card: str) -> int:
    """A card's value in a meld: A K Q J = 10, T..2 = 5."""
    return 10 if card[0] in HIGH else 5


def hand_value(text: str) -> int:
    """A card's value left in hand: a joker counts 10."""
    token = Token.parse(text)
    return 10 if token.joker else value(token.card or "")


def is_set(cards: Sequence[str]) -> bool:
    """3 or 4 cards of one rank, no two of the same suit."""
    return (3 <= len(cards) <= 4 and len({c[0] for c in cards}) == 1
            and len({c[1] for c in cards}) == len(cards))


def is_sequence(cards: Sequence[str]) -> bool:
    """3 to 13 distinct cards of one suit, consecutive in the circular order A 2 .. K A."""
    if not 3 <= len(cards) <= 13 or len({c[1] for c in cards}) != 1:
        return False
    positions = {RANKS.index(c[0]) for c in cards}
    if len(positions) != len(cards):
        return False
    return any(positions == {(start + i) % 13 for i in range(len(cards))}
               for start in range(13))


@dataclass(frozen=True)
class Verdict:
    """CONTRACT.md's answer: ``valid``, ``kind``, ``points``; ``reason`` only when invalid."""

    valid: bool
    kind: str | None
    points: int | None
    reason: str | None

    def key(self) -> tuple[bool, str | None, int | None]:
        """What two verdicts must share (the reason's wording is free)."""
        return (self.valid, self.kind, self.points)


def _invalid(reason: str) -> Verdict:
    return Verdict(False, None, None, reason)


def judge(texts: Iterable[str]) -> Verdict:
    """Judge a meld given as card texts (CONTRACT.md ``konkun kunken meld`` arguments)."""
    tokens = [Token.parse(t) for t in texts]
    n = len(tokens)
    jokers = sum(1 for t in tokens if t.joker)
    if n < 3:
        return _invalid("a meld has at least 3 cards")
    if jokers > n // 2:
        return _invalid(f"{jokers} jokers in {n} cards: at most half may be jokers")
    fixed = [t.card for t in tokens if t.card is not None]
    if len(set(fixed)) != len(fixed):
        return _invalid("two identical cards in one meld")
    open_jokers = sum(1 for t in tokens if t.card is None)
    anchor = next(t.card for t in tokens if not t.joker and t.card is not None)
    candidates = [c for c in DECK if c not in fixed and (c[0] == anchor[0] or c[1] == anchor[1])]
    best: tuple[int, str] | None = None
    for reading in itertools.combinations(candidates, open_jokers):
        cards = [*fixed, *reading]
        for kind, test in (("set", is_set), ("sequence", is_sequence)):
            if test(cards):
                points = sum(value(c) for c in cards)
                if best is None or points > best[0]:
                    best = (points, kind)
    if best is None:
        return _invalid("neither a set nor a sequence")
    return Verdict(True, best[1], best[0], None)


def meld_points(texts: Iterable[str]) -> int:
    """The points of a valid meld (``AssertionError`` for an invalid one)."""
    verdict = judge(texts)
    assert verdict.valid and verdict.points is not None, verdict
    return verdict.points


def layoff_value(text: str) -> int:
    """A laid-off card's value: a joker must say which card it stands for."""
    token = Token.parse(text)
    assert token.card is not None, f"a laid-off joker must be declared: {text!r}"
    return value(token.card)


def score(deal: dict[str, Any]) -> list[int]:
    """The points of one finished deal (CONTRACT.md ``konkun kunken score`` input).

    Each player: + every card laid on the table (melds, lay-offs) - every card in hand.
    Express: the winner's plus is doubled and every other player's minus is doubled;
    the other players' table cards count as usual.
    """
    winner = deal.get("winner")
    express = bool(deal.get("express")) and winner is not None
    points = []
    for seat, player in enumerate(deal["players"]):
        plus = sum(meld_points(m) for m in player.get("melds", []))
        plus += sum(layoff_value(c) for c in player.get("layoffs", []))
        minus = sum(hand_value(c) for c in player.get("hand", []))
        if express and seat == winner:
            points.append(2 * plus - minus)
        elif express:
            points.append(plus - 2 * minus)
        else:
            points.append(plus - minus)
    return points
