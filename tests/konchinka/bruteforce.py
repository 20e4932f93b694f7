"""An independent brute-force Konchinka move generator, written from RULES.md alone.

This module is a test oracle: it imports nothing from ``konkun`` and knows nothing of the
engine's code. It reads KPN (CONTRACT.md), lists every legal move by trying every subset of
the table (``itertools.combinations`` over all sizes), applies moves (redeals and the
end-of-deal sweep included) and counts move sequences (perft). It is deliberately plain
and slow; the golden files in ``perft/`` are computed with it by ``perft/generate.py``.

The rules it follows (RULES.md, Кончинка):

- values, classic: A=1, 2..9 pip, T/Q/K=10, the Jack has none; novo: A=1 .. K=13;
- classic: a Jack takes the whole (non-empty) table; any other card takes any non-empty
  Jack-free set of table cards adding up to its value;
- novo: any card takes any non-empty set adding up to its value; a King 13 or 14;
- a trail is always allowed, except with ``capture_compulsory`` for a card that can
  capture; with an empty table the only moves are trails;
- after a move, when every hand is empty: with a stock, 4 cards to each player one at a
  time from the seat left of the dealer, none to the table, and the seat left of the
  dealer moves; without one, the deal ends and the table goes to the last capturer.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

RANKS = "A23456789TJQK"
SUITS = "cdhs"
DECK: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
VARIANTS = ("classic", "novo")
HAND_SIZE = 4

CLASSIC_VALUES = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
                  "T": 10, "Q": 10, "K": 10}
NOVO_VALUES = {r: i + 1 for i, r in enumerate(RANKS)}

_CARD_RE = re.compile(r"(10|[AKQJT2-9])([cdhs])")


class KpnError(ValueError):
    """A KPN or move text this oracle cannot read."""


def parse_card_list(text: str) -> list[str]:
    """Read a card list written together (``As7h2cQd``) or ``-``; ``10`` is read as ``T``."""
    if text == "-":
        return []
    cards: list[str] = []
    position = 0
    while position < len(text):
        match = _CARD_RE.match(text, position)
        if match is None:
            raise KpnError(f"bad card list {text!r} at {position}")
        rank = "T" if match.group(1) == "10" else match.group(1)
        cards.append(rank + match.group(2))
        position = match.end()
    return cards


def format_card_list(cards: Iterable[str]) -> str:
    """Write cards together in the given order, or ``-`` when there are none."""
    text = "".join(cards)
    return text or "-"


def sort_cards(cards: Iterable[str]) -> list[str]:
    """Cards in a fixed order (by suit, then rank A..K), for stable output."""
    return sorted(cards, key=DECK.index)


@dataclass(frozen=True)
class Move:
    """A played card and the set it takes (``None`` for a trail)."""

    card: str
    taken: frozenset[str] | None

    @property
    def is_capture(self) -> bool:
        """True for a capture."""
        return self.taken is not None

    def text(self) -> str:
        """CONTRACT.md move text: ``Qd`` (trail) or ``Qd:As7h2c`` (capture)."""
        if self.taken is None:
            return self.card
        return self.card + ":" + "".join(sort_cards(self.taken))

    @staticmethod
    def parse(text: str) -> Move:
        """Read a move text; the taken cards may come in any order."""
        card_text, sep, taken_text = text.strip().partition(":")
        cards = parse_card_list(card_text)
        if len(cards) != 1:
            raise KpnError(f"bad move {text!r}")
        if not sep:
            return Move(cards[0], None)
        taken = parse_card_list(taken_text)
        if not taken or len(set(taken)) != len(taken):
            raise KpnError(f"bad move {text!r}")
        return Move(cards[0], frozenset(taken))


@dataclass(frozen=True)
class Position:
    """A Konchinka position as KPN describes it."""

    variant: str
    table: frozenset[str]
    hands: tuple[frozenset[str], ...]
    stock: tuple[str, ...]
    piles: tuple[frozenset[str], ...]
    to_move: int
    dealer: int
    last_capturer: int | None

    @property
    def num_seats(self) -> int:
        """How many seats play."""
        return len(self.hands)

    def is_over(self) -> bool:
        """True when every hand and the stock are empty."""
        return not self.stock and not any(self.hands)

    def kpn(self) -> str:
        """This position as KPN (sorted card lists; the stock keeps its order)."""
        fields = [
            self.variant,
            format_card_list(sort_cards(self.table)),
            "/".join(format_card_list(sort_cards(h)) for h in self.hands),
            format_card_list(self.stock),
            "/".join(format_card_list(sort_cards(p)) for p in self.piles),
            str(self.to_move),
            str(self.dealer),
            "-" if self.last_capturer is None else str(self.last_capturer),
        ]
        return " ".join(fields)


def parse_kpn(text: str) -> Position:
    """Read KPN (CONTRACT.md: eight fields separated by single spaces)."""
    fields = text.strip().split(" ")
    if len(fields) != 8:
        raise KpnError(f"KPN needs 8 fields, got {len(fields)}: {text!r}")
    variant, table, hands, stock, piles, to_move, dealer, last = fields
    if variant not in VARIANTS:
        raise KpnError(f"bad variant in {text!r}")
    hand_lists = [frozenset(parse_card_list(h)) for h in hands.split("/")]
    pile_lists = [frozenset(parse_card_list(p)) for p in piles.split("/")]
    n = len(hand_lists)
    if not 2 <= n <= 4 or len(pile_lists) != n:
        raise KpnError(f"bad seat count in {text!r}")
    position = Position(
        variant=variant,
        table=frozenset(parse_card_list(table)),
        hands=tuple(hand_lists),
        stock=tuple(parse_card_list(stock)),
        piles=tuple(pile_lists),
        to_move=int(to_move),
        dealer=int(dealer),
        last_capturer=None if last == "-" else int(last),
    )
    every = [*position.table, *position.stock]
    for group in (*position.hands, *position.piles):
        every.extend(group)
    if len(every) != len(set(every)):
        raise KpnError(f"a card appears twice in {text!r}")
    return position


def card_value(variant: str, card: str) -> int | None:
    """A card's capture value; ``None`` for the classic Jack."""
    table = CLASSIC_VALUES if variant == "classic" else NOVO_VALUES
    return table.get(card[0])


def capture_targets(variant: str, card: str) -> tuple[int, ...]:
    """The sums a (non-classic-Jack) card takes: its value, and 13 or 14 for a novo King."""
    if variant == "novo" and card[0] == "K":
        return (13, 14)
    value = card_value(variant, card)
    assert value is not None
    return (value,)


def captures(variant: str, card: str, table: frozenset[str]) -> list[frozenset[str]]:
    """Every set of table cards the card may take, by trying every non-empty subset."""
    if not table:
        return []
    if variant == "classic" and card[0] == "J":
        return [table]
    targets = capture_targets(variant, card)
    candidates = sort_cards(table)
    if variant == "classic":
        candidates = [c for c in candidates if c[0] != "J"]
    found: list[frozenset[str]] = []
    for size in range(1, len(candidates) + 1):
        for subset in itertools.combinations(candidates, size):
            total = 0
            for c in subset:
                value = card_value(variant, c)
                assert value is not None
                total += value
            if total in targets:
                found.append(frozenset(subset))
    return found


def legal_moves(position: Position, capture_compulsory: bool = False) -> list[Move]:
    """Every legal move of the seat to move (none once the deal is over)."""
    if position.is_over():
        return []
    moves: list[Move] = []
    for card in sort_cards(position.hands[position.to_move]):
        taken_sets = captures(position.variant, card, position.table)
        moves.extend(Move(card, taken) for taken in taken_sets)
        if not (capture_compulsory and taken_sets):
            moves.append(Move(card, None))
    return moves


def apply_move(position: Position, move: Move) -> Position:
    """The position after a move, with a redeal or the end-of-deal sweep when due."""
    n = position.num_seats
    mover = position.to_move
    hands = list(position.hands)
    piles = list(position.piles)
    if move.card not in hands[mover]:
        raise KpnError(f"{move.text()} is not in the hand of seat {mover}")
    hands[mover] = hands[mover] - {move.card}
    table = position.table
    last = position.last_capturer
    if move.taken is None:
        table = table | {move.card}
    else:
        table = table - move.taken
        piles[mover] = piles[mover] | move.taken | {move.card}
        last = mover
    stock = position.stock
    to_move = (mover + 1) % n
    if not any(hands):
        if stock:
            dealt = stock[: HAND_SIZE * n]
            stock = stock[HAND_SIZE * n:]
            new_hands = [set(h) for h in hands]
            for i, card in enumerate(dealt):
                new_hands[(position.dealer + 1 + i) % n].add(card)
            hands = [frozenset(h) for h in new_hands]
            to_move = (position.dealer + 1) % n
        elif last is not None:
            piles[last] = piles[last] | table
            table = frozenset()
    return replace(position, table=table, hands=tuple(hands), stock=stock,
                   piles=tuple(piles), to_move=to_move, last_capturer=last)


def perft(position: Position, depth: int, capture_compulsory: bool = False) -> int:
    """The number of move sequences of length ``depth`` (perft(0) = 1)."""
    if depth == 0:
        return 1
    moves = legal_moves(position, capture_compulsory)
    if depth == 1:
        return len(moves)
    return sum(perft(apply_move(position, m), depth - 1, capture_compulsory) for m in moves)


def divide(position: Position, depth: int, capture_compulsory: bool = False) -> dict[str, int]:
    """perft(depth - 1) after each legal move, keyed by move text."""
    return {m.text(): perft(apply_move(position, m), depth - 1, capture_compulsory)
            for m in legal_moves(position, capture_compulsory)}


@dataclass(frozen=True)
class SeatScore:
    """One seat's line of a finished deal's score."""

    cards: int
    clubs: int
    konchinki: int
    points: int


def score(position: Position) -> list[SeatScore]:
    """The score of a finished deal from the capture piles (RULES.md, Score of a deal)."""
    cards = [len(p) for p in position.piles]
    clubs = [sum(1 for c in p if c[1] == "c") for p in position.piles]
    konchinki = [sum(1 for c in p if c in ("2c", "Td")) for p in position.piles]
    result = []
    for seat in range(position.num_seats):
        points = konchinki[seat]
        others = [i for i in range(position.num_seats) if i != seat]
        if all(cards[seat] > cards[i] for i in others):
            points += 2
        if all(clubs[seat] > clubs[i] for i in others):
            points += 1
        result.append(SeatScore(cards[seat], clubs[seat], konchinki[seat], points))
    return result
