"""Kunken text and JSON forms: cards lists, a full deal state as JSON (round-trip).

:meth:`KunkenDeal.to_json` writes the state; :func:`deal_from_json` reads it back and
checks it (every card of the pack exactly once, seats and phase in range).
"""

from __future__ import annotations

from typing import Any

from konkun.cards import Card
from konkun.errors import InvalidCardError, InvalidNotationError, InvalidPositionError, KonkunError
from konkun.kunken.actions import parse_action
from konkun.kunken.melds import TableMeld, slot_card
from konkun.kunken.rules import MAX_SEATS, MIN_SEATS, KunkenRules
from konkun.kunken.state import PHASES, KunkenDeal, counts_of, install_view


def _cards(value: Any, what: str) -> list[int]:
    if not isinstance(value, list):
        raise InvalidNotationError(f"invalid kunken state: {what} must be a list of cards")
    try:
        return [Card.parse(str(t)).index for t in value]
    except InvalidCardError as error:
        raise InvalidNotationError(f"invalid kunken state: {what}: {error}") from None


def deal_from_json(data: dict[str, Any]) -> KunkenDeal:
    """A deal from :meth:`KunkenDeal.to_json` data; raise
    :class:`~konkun.errors.InvalidNotationError` or
    :class:`~konkun.errors.InvalidPositionError` for bad data."""
    try:
        return _deal_from_json(data)
    except KonkunError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        raise InvalidNotationError(f"invalid kunken state: {error!r}") from None


def _deal_from_json(data: dict[str, Any]) -> KunkenDeal:
    rules = KunkenRules.from_json(data.get("rules", {}))
    n = int(data["num_seats"])
    hands = [counts_of(_cards(h, f"hand {i}")) for i, h in enumerate(data["hands"])]
    if len(hands) != n or not MIN_SEATS <= n <= MAX_SEATS:
        raise InvalidPositionError(f"invalid kunken state: {len(hands)} hands for {n} seats")
    stock = _cards(data["stock"], "stock")
    stock.reverse()
    bank = _cards(data["bank"], "bank")
    deal = KunkenDeal._make(rules, n, int(data["dealer"]), hands, stock, bank)
    deal.melds = [TableMeld.from_json(m) for m in data["melds"]]
    deal.taken = [counts_of(_cards(t, "taken_held")) for t in data["taken_held"]]
    deal.layout = [bool(x) for x in data["has_layout"]]
    deal.renewals = int(data["renewals_used"])
    to_move = data["to_move"]
    deal.to_move = None if to_move is None else int(to_move)
    deal.phase = str(data["phase"])
    if deal.phase not in PHASES:
        raise InvalidPositionError(f"invalid kunken state: phase {deal.phase!r}")
    winner = data.get("winner")
    deal.winner = None if winner is None else int(winner)
    deal.express = bool(data.get("express", False))
    turn = data.get("turn", {})
    taken_card = turn.get("taken_card")
    deal.take_card = -1 if taken_card is None else Card.parse(taken_card).index
    deal.pending = bool(turn.get("pending", False))
    deal.need = int(turn.get("need", 0))
    deal.opening = bool(turn.get("opening", False))
    deal.turn_notold = counts_of(_cards(turn.get("not_old", []), "turn.not_old"))
    deal.history = [parse_action(t) for t in data.get("history", [])]
    _check_cards(deal)
    return deal


def _check_cards(deal: KunkenDeal) -> None:
    """Every card of the pack exactly once (two of each, ``jokers`` jokers)."""
    total = [0] * 53
    for hand in deal.hands:
        for k in range(53):
            total[k] += hand[k]
    for c in deal.stock + deal.bank:
        total[c] += 1
    for meld in deal.melds:
        for s in meld.slots:
            total[slot_card(s)] += 1
    for k in range(52):
        if total[k] != 2:
            raise InvalidPositionError(
                f"invalid kunken state: {Card.from_index(k).text} appears {total[k]} times, "
                "expected 2")
    if total[52] != deal.rules.jokers:
        raise InvalidPositionError(f"invalid kunken state: {total[52]} jokers, expected "
                                   f"{deal.rules.jokers}")
    n = deal.num_seats
    if (deal.to_move is not None and not 0 <= deal.to_move < n) or not 0 <= deal.dealer < n:
        raise InvalidPositionError("invalid kunken state: a seat out of range")


install_view("from_json", deal_from_json)

__all__ = ["deal_from_json"]
