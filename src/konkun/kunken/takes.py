"""``konkun kunken takes JSON``: the bank positions the player to move may take the bank from
(CONTRACT.md, Kunken). The input is
``{"hand": [CARD, ...], "bank": [CARD, ...], "melds": [[CARD, ...], ...], "layout": BOOL}``;
the answer is the engine's own exact take check
(:func:`konkun.kunken.completion.takes_with_swaps_first`)."""

from __future__ import annotations

from typing import Any, Final

from konkun.errors import InvalidCardError, InvalidNotationError, InvalidPositionError
from konkun.kunken.completion import Compact, compact, takes_with_swaps_first
from konkun.kunken.melds import BARE_JOKER, card_text, check_meld, parse_slot, slot_card
from konkun.kunken.rules import KunkenRules

KEYS: Final = ("hand", "bank", "melds", "layout")


def _error(what: str) -> InvalidNotationError:
    return InvalidNotationError(f"invalid takes input: {what}")


def _cards(value: Any, what: str) -> list[int]:
    """Plain cards and bare jokers ``X``."""
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise _error(f"{what} must be a list of card texts")
    out = []
    for text in value:
        try:
            slot = parse_slot(text)
        except InvalidCardError as error:
            raise _error(f"{what}: {error}") from None
        if slot > BARE_JOKER:
            raise _error(f"{what}: {text!r} is a declared joker; write a joker in a hand or "
                         "the bank as X")
        out.append(slot)
    return out


def _meld(value: Any, i: int) -> Compact:
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise _error(f"meld {i} must be a list of card texts")
    try:
        slots = [parse_slot(t) for t in value]
    except InvalidCardError as error:
        raise _error(f"meld {i}: {error}") from None
    check = check_meld(slots)
    if not check.valid:
        raise _error(f"meld {i} ({' '.join(value)}) is not a meld: {check.reason}")
    if check.readings > 1:
        raise _error(f"meld {i} ({' '.join(value)}): write each joker of a sequence with "
                     "the card it stands for (X=7c)")
    return compact(check.slots, check.kind)


def read_takes_input(data: Any) -> tuple[list[int], list[int], tuple[Compact, ...], bool,
                                         list[list[int]]]:
    """The hand (count vector), the bank (card indices), the table (compact melds), the
    layout flag and the melds' slots, from CONTRACT.md's JSON; raise
    :class:`~konkun.errors.InvalidNotationError` or
    :class:`~konkun.errors.InvalidPositionError` naming the problem."""
    if not isinstance(data, dict):
        raise _error("expected a JSON object")
    unknown = sorted(set(data) - set(KEYS))
    if unknown:
        raise _error(f"unknown key {unknown[0]!r} (expected {', '.join(KEYS)})")
    missing = [k for k in KEYS if k not in data]
    if missing:
        raise _error(f"missing key {missing[0]!r}")
    hand_cards = _cards(data["hand"], "hand")
    bank = _cards(data["bank"], "bank")
    if not isinstance(data["melds"], list):
        raise _error("melds must be a list of melds")
    table = tuple(_meld(m, i) for i, m in enumerate(data["melds"]))
    slots = [[parse_slot(t) for t in m] for m in data["melds"]]
    layout = data["layout"]
    if not isinstance(layout, bool):
        raise _error(f"layout must be true or false, not {layout!r}")
    if not hand_cards:
        raise InvalidPositionError("invalid takes input: the hand is empty")
    hand = [0] * 53
    for c in hand_cards:
        hand[c] += 1
    return hand, bank, table, layout, slots


def _check_counts(hand: list[int], bank: list[int], slots: list[list[int]],
                  rules: KunkenRules) -> None:
    total = hand.copy()
    for c in bank:
        total[c] += 1
    for meld in slots:
        for s in meld:
            total[slot_card(s)] += 1
    for k in range(52):
        if total[k] > 2:
            raise InvalidPositionError(f"invalid takes input: {card_text(k)} appears "
                                       f"{total[k]} times (two decks hold 2)")
    if total[BARE_JOKER] > rules.jokers:
        raise InvalidPositionError(f"invalid takes input: {total[BARE_JOKER]} jokers, the "
                                   f"pack holds {rules.jokers} (rule jokers)")


def takes(data: Any, rules: KunkenRules) -> list[int]:
    """The bank positions (0 = oldest) the player may take the bank from, in order."""
    hand, bank, table, layout, slots = read_takes_input(data)
    _check_counts(hand, bank, slots, rules)
    need = 0 if layout else rules.opening_minimum
    return takes_with_swaps_first(hand, bank, need, table, layout, rules.joker_for_held,
                                  rules.swap_before_take)
