"""Konchinka's moves and scores explained, for a person learning the game.

The page's "coach" shows these next to the choices: every capture with its sum
(``7+2+A = 10 = Q``), the King's 13 or 14 in the Novorossiysk variant, why a card can take
nothing and must be laid on the table, and where each seat's points of a deal came from
(most cards +2, most clubs +1, 2♣ +1, 10♦ +1). Everything is computed here, from the rules,
so the page never re-implements them.

>>> from konkun.cards import parse_cards
>>> from konkun.konchinka.rules import CLASSIC
>>> ace, seven, two, queen = parse_cards("As 7h 2c Qd")
>>> explain_capture(Move.capture(queen, [ace, seven, two]), CLASSIC)["sum"]
10
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from konkun.cards import Card, Rank
from konkun.konchinka.deck import CLASSIC_VALUES, NOVO_VALUES
from konkun.konchinka.moves import Move
from konkun.konchinka.rules import KonchinkaRules
from konkun.konchinka.scoring import (
    KONCHINKA_POINTS,
    MOST_CARDS_POINTS,
    MOST_CLUBS_POINTS,
    TEN_OF_DIAMONDS,
    TWO_OF_CLUBS,
    award_points,
)

JSON = dict[str, Any]

NOVO_KING_SUMS = (13, 14)
"""The sums a Novorossiysk King takes."""


def card_value(card: Card, rules: KonchinkaRules) -> int:
    """The card's value under ``rules`` (classic: the Jack 0, it has none)."""
    return (NOVO_VALUES if rules.is_novo else CLASSIC_VALUES)[card.index]


def sums_taken(card: Card, rules: KonchinkaRules) -> tuple[int, ...]:
    """The sums ``card`` takes: its value, 13 or 14 for a Novorossiysk King, and none for
    the classic Jack (it takes the whole table instead)."""
    if rules.is_novo and card.rank == Rank.KING:
        return NOVO_KING_SUMS
    if not rules.is_novo and card.rank == Rank.JACK:
        return ()
    return (card_value(card, rules),)


def explain_capture(move: Move, rules: KonchinkaRules) -> JSON:
    """A capture in words' parts: ``{"kind": "jack"}`` for the classic Jack taking the
    table; else ``{"kind": "sum", "parts": [{"card", "value"}...], "sum": N, "value": V,
    "king": bool}``, the taken cards highest value first (``7+2+A = 10 = Q``)."""
    card = move.card
    if not rules.is_novo and card.rank == Rank.JACK:
        return {"kind": "jack", "card": card.text}
    parts = sorted(move.taken, key=lambda c: (-card_value(c, rules), c.text))
    return {"kind": "sum", "card": card.text, "value": card_value(card, rules),
            "parts": [{"card": c.text, "value": card_value(c, rules)} for c in parts],
            "sum": sum(card_value(c, rules) for c in parts),
            "king": rules.is_novo and card.rank == Rank.KING}


def explain_trail(card: Card, table: Sequence[Card], can_capture: bool,
                  rules: KonchinkaRules) -> JSON:
    """Why ``card`` is laid on the table: ``reason`` is ``empty_table`` (nothing to take),
    ``no_sum`` (no table cards add up to its ``sums``) or ``chosen`` (it could take, the
    player lays it anyway)."""
    if not table:
        reason = "empty_table"
    elif can_capture:
        reason = "chosen"
    else:
        reason = "no_sum"
    return {"kind": "trail", "card": card.text, "reason": reason,
            "sums": list(sums_taken(card, rules))}


def explain_moves(moves: Iterable[Move], table: Sequence[Card],
                  rules: KonchinkaRules) -> dict[str, JSON]:
    """Each move's explanation by its text (``Move.text()``): captures and trails."""
    moves = list(moves)
    capturing = {m.card for m in moves if m.is_capture}
    return {m.text(): explain_capture(m, rules) if m.is_capture
            else explain_trail(m.card, table, m.card in capturing, rules) for m in moves}


def points_reasons(piles: Sequence[Iterable[Card]], rules: KonchinkaRules) -> list[list[JSON]]:
    """Where each seat's points of a deal came from, seat by seat: a list of
    ``{"reason": "most_cards"|"most_clubs"|"two_clubs"|"ten_diamonds", "points": N}``
    (only reasons that scored); the points of each list add up to the seat's points."""
    sets = [set(pile) for pile in piles]
    cards = [len(pile) for pile in sets]
    clubs = [sum(1 for c in pile if c.suit == TWO_OF_CLUBS.suit) for pile in sets]
    most_cards = award_points(cards, MOST_CARDS_POINTS, rules.tie_points)
    most_clubs = award_points(clubs, MOST_CLUBS_POINTS, rules.tie_points)
    reasons: list[list[JSON]] = []
    for seat, pile in enumerate(sets):
        found = [("most_cards", most_cards[seat]), ("most_clubs", most_clubs[seat]),
                 ("two_clubs", KONCHINKA_POINTS if TWO_OF_CLUBS in pile else 0),
                 ("ten_diamonds", KONCHINKA_POINTS if TEN_OF_DIAMONDS in pile else 0)]
        reasons.append([{"reason": name, "points": points} for name, points in found if points])
    return reasons
