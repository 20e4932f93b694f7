"""Kunken text and JSON forms: cards lists, a full deal state as JSON (round-trip).

:meth:`KunkenDeal.to_json` writes the state; :func:`deal_from_json` reads it back and
checks it (every card of the pack exactly once, seats and phase in range).
"""

from __future__ import annotations

from typing import Any

from konkun.cards import Card
from konkun.errors import InvalidCardError, InvalidNotationError, InvalidPositionError, KonkunError
from konkun.kunken.actions import parse_action
from konkun.kunken.deal_fields import MARK_TAKEN
from konkun.kunken.kkn import marks_problem, parse_marks
from konkun.kunken.melds import TableMeld, card_text, slot_card
from konkun.kunken.position import KunkenPosition, MeldPosition, Phase, TakeTurn
from konkun.kunken.rules import MAX_SEATS, MIN_SEATS, KunkenRules
from konkun.kunken.state import OVER, PHASES, TAKEN, KunkenDeal, install_view


def _cards(value: Any, what: str) -> list[int]:
    if not isinstance(value, list):
        raise InvalidNotationError(f"invalid kunken state: {what} must be a list of cards")
    try:
        return [Card.parse(str(t)).index for t in value]
    except InvalidCardError as error:
        raise InvalidNotationError(f"invalid kunken state: {what}: {error}") from None


def _marks(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise InvalidNotationError("invalid kunken state: turn.joker_marks must be a list of "
                                   "texts")
    return parse_marks(",".join(value)) if value else ()


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


def _bad(what: str) -> InvalidPositionError:
    return InvalidPositionError(f"invalid kunken state: {what}")


def _int(value: Any, what: str, low: int, high: int) -> int:
    """An integer field in ``low..high``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidNotationError(f"invalid kunken state: {what} must be an integer, not "
                                   f"{value!r}")
    if not low <= value <= high:
        raise _bad(f"{what} {value} out of range {low}..{high}")
    return value


def _bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidNotationError(f"invalid kunken state: {what} must be true or false, not "
                                   f"{value!r}")
    return value


def _seat_list(value: Any, what: str, n: int) -> list[Any]:
    """A list with one entry per seat."""
    if not isinstance(value, list):
        raise InvalidNotationError(f"invalid kunken state: {what} must be a list")
    if len(value) != n:
        raise _bad(f"{what} has {len(value)} entries for {n} seats")
    return value


def _deal_from_json(data: dict[str, Any]) -> KunkenDeal:
    if not isinstance(data, dict):
        raise InvalidNotationError("invalid kunken state: expected a JSON object")
    rules = KunkenRules.from_json(data.get("rules", {}))
    n = _int(data["num_seats"], "num_seats", MIN_SEATS, MAX_SEATS)
    hands = [_cards(h, f"hand {i}")
             for i, h in enumerate(_seat_list(data["hands"], "hands", n))]
    stock = _cards(data["stock"], "stock")
    bank = _cards(data["bank"], "bank")
    dealer = _int(data["dealer"], "dealer", 0, n - 1)
    if not isinstance(data["melds"], list):
        raise InvalidNotationError("invalid kunken state: melds must be a list")
    melds = [TableMeld.from_json(m) for m in data["melds"]]
    taken = [_cards(t, f"taken_held {i}")
             for i, t in enumerate(_seat_list(data["taken_held"], "taken_held", n))]
    layout = [_bool(x, f"has_layout {i}")
              for i, x in enumerate(_seat_list(data["has_layout"], "has_layout", n))]
    renewals = _int(data["renewals_used"], "renewals_used", 0, rules.max_stock_renewals)
    to_move = data["to_move"]
    phase_text = str(data["phase"])
    if phase_text not in PHASES:
        raise _bad(f"phase {phase_text!r}: expected one of {', '.join(PHASES)}")
    winner = data.get("winner")
    turn = data.get("turn", {})
    if not isinstance(turn, dict):
        raise InvalidNotationError("invalid kunken state: turn must be an object")
    taken_card = turn.get("taken_card")
    take = TakeTurn(
        -1 if taken_card is None else Card.parse(str(taken_card)).index,
        _bool(turn.get("pending", False), "turn.pending"),
        _int(turn.get("need", 0), "turn.need", -10_000, rules.opening_minimum),
        _bool(turn.get("opening", False), "turn.opening"),
        tuple(sorted(_cards(turn.get("not_old", []), "turn.not_old"))),
        _marks(turn.get("joker_marks", [])))
    history = data.get("history", [])
    if not isinstance(history, list):
        raise InvalidNotationError("invalid kunken state: history must be a list")
    position = KunkenPosition(
        rules=rules, dealer=dealer, hands=tuple(tuple(sorted(h)) for h in hands),
        stock=tuple(stock), bank=tuple(bank),
        melds=tuple(MeldPosition(m.owner, tuple(m.slots), tuple(m.laid_by)) for m in melds),
        taken=tuple(tuple(sorted(t)) for t in taken), layout=tuple(layout),
        renewals=renewals,
        to_move=None if to_move is None else _int(to_move, "to_move", 0, n - 1),
        phase=Phase(phase_text), turn=take if phase_text == TAKEN else None,
        winner=None if winner is None else _int(winner, "winner", 0, n - 1),
        express=_bool(data.get("express", False), "express"))
    if phase_text != TAKEN and (take.taken_card >= 0 or take.pending or take.need
                                or take.opening or take.not_old or take.marks):
        raise _bad(f"a take turn's state (turn) in phase {phase_text!r}")
    deal = KunkenDeal.from_position(position, [parse_action(str(t)) for t in history])
    _check_cards(deal)
    _check_consistency(deal)
    return deal


def _check_consistency(deal: KunkenDeal) -> None:
    """The fields agree with each other: melds owned and laid by seats that exist and have a
    layout, known taken cards in their hands, the turn's state for its phase."""
    n = deal.num_seats
    for i, meld in enumerate(deal.melds):
        if not 0 <= meld.owner < n or not all(0 <= s < n for s in meld.laid_by):
            raise _bad(f"meld {i} ({meld.text()}) belongs to a seat out of range")
        if not deal.layout[meld.owner]:
            raise _bad(f"meld {i} ({meld.text()}) belongs to seat {meld.owner}, whose "
                       "has_layout is false")
    for s in range(n):
        for k in range(53):
            if deal.taken[s][k] > deal.hands[s][k]:
                raise _bad(f"taken_held {s} lists {card_text(k)}, which hand {s} does not hold")
    over = deal.phase == OVER
    if (deal.to_move is None) != over:
        raise _bad(f"to_move {deal.to_move} with phase {deal.phase!r} (null exactly when "
                   "the deal is over)")
    if deal.winner is not None and not over:
        raise _bad(f"winner {deal.winner} while the deal is not over")
    if deal.express and deal.winner is None:
        raise _bad("express without a winner")
    if deal.phase == TAKEN:
        seat = deal.to_move
        assert seat is not None
        if deal.take_card < 0:
            raise _bad("phase 'taken' without turn.taken_card")
        if not deal.opening and deal.need > 0:
            raise _bad(f"turn.need {deal.need} on a turn that is not an opening")
        for k in range(53):
            if deal.turn_notold[k] > deal.hands[seat][k]:
                raise _bad(f"turn.not_old lists {card_text(k)}, which hand {seat} does not "
                           "hold")
        problem = marks_problem(deal.turn_marks, deal.take_card, deal.pending,
                                [m.slots for m in deal.melds])
        if problem is not None:
            raise _bad(f"turn.joker_marks: {problem}")
        taken_out = any(m & MARK_TAKEN for m in deal.turn_marks)
        if deal.pending and not deal.hands[seat][deal.take_card] and not taken_out:
            raise _bad(f"the taken card {card_text(deal.take_card)} is still to be melded "
                       f"but hand {seat} does not hold it")


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
