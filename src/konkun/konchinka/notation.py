"""KPN, the Konchinka position notation of ``CONTRACT.md``: parse and format.

One line, eight fields separated by single spaces: variant, table, hands (seat 0 first,
joined by ``/``), stock (next card to be dealt first), capture piles (joined by ``/``),
the seat to move, the dealer's seat, the seat of the last capture or ``-``. A card list
is card texts written together (``As7h2cQd``) or ``-`` when empty.

>>> deal = parse_kpn("classic As7h2cQd Kc3d/Qh9c5s/8d4h - -/-/- 1 0 -")
>>> [m.text() for m in deal.legal_actions()][:3]
['Qh', 'Qh:Qd', 'Qh:As7h2c']
>>> format_kpn(deal)
'classic AsQd7h2c Kc3d/Qh9c5s/8d4h - -/-/- 1 0 -'

Reading is strict: every card at most once, 2 to 4 seats, as many piles as hands, seat
fields in range, and a position that can occur in play:

- the seat to move holds a card unless every hand is empty;
- when every hand is empty the stock is empty too (a redeal happens inside the move);
- the stock holds a multiple of ``4 * seats`` cards (it is dealt out in redeals of 4);
- when every hand and the stock are empty, the table is empty unless nobody captured
  (the end-of-deal sweep happens inside the last move); the deal is then over.

The piles and the last capture are not checked against each other (a position written by
hand for ``score`` may leave the last capture as ``-``).

A finished deal is written with the seat that would move next in rotation.
Written lists (table, hands, piles) are in the canonical card order (rank high to low,
then suit c d h s); the stock keeps its order.
"""

from __future__ import annotations

from konkun.cards import Card, format_cards, parse_cards
from konkun.errors import InvalidCardError, InvalidNotationError, InvalidPositionError
from konkun.konchinka.deal import KonchinkaDeal, install_view
from konkun.konchinka.deck import HAND_SIZE
from konkun.konchinka.moves import sort_cards
from konkun.konchinka.position import KonchinkaPosition
from konkun.konchinka.rules import MAX_SEATS, MIN_SEATS, VARIANTS, KonchinkaRules

FIELDS = 8


def format_kpn(deal: KonchinkaDeal | KonchinkaPosition) -> str:
    """The KPN of a deal, or of a position (the text of its part the KPN holds)."""
    hands = deal.hands
    if isinstance(deal, KonchinkaPosition):
        hands = [sort_cards(hand) for hand in hands]
    last = deal.last_capturer
    return " ".join([
        deal.rules.variant,
        format_cards(deal.table),
        "/".join(format_cards(h) for h in hands),
        format_cards(deal.stock),
        "/".join(format_cards(p) for p in deal.piles),
        str(deal.next_seat),
        str(deal.dealer),
        "-" if last is None else str(last),
    ])


def parse_kpn(text: str, rules: KonchinkaRules | None = None) -> KonchinkaDeal:
    """Read a KPN into a deal; ``rules`` supplies the options (its variant must agree
    with the KPN's, else the KPN's preset is used). Raises
    :class:`~konkun.errors.InvalidNotationError` for malformed text and
    :class:`~konkun.errors.InvalidPositionError` for a position that cannot occur."""
    if not isinstance(text, str):
        raise InvalidNotationError(f"invalid KPN {text!r}: expected text")
    fields = text.strip().split(" ")
    if len(fields) != FIELDS:
        raise InvalidNotationError(
            f"invalid KPN {text!r}: expected {FIELDS} fields separated by single spaces, "
            f"found {len(fields)}")
    variant, table_text, hands_text, stock_text, piles_text, move_text, dealer_text, \
        last_text = fields
    if variant not in VARIANTS:
        raise InvalidNotationError(
            f"invalid KPN {text!r}: unknown variant {variant!r} (expected classic or novo)")
    if rules is None:
        rules = KonchinkaRules.preset(variant)
    elif rules.variant != variant:
        raise InvalidPositionError(
            f"invalid KPN {text!r}: the position is {variant} but the rules are "
            f"{rules.variant}")
    table = _cards(text, "table", table_text)
    hands = [_cards(text, f"hand of seat {i}", h) for i, h in enumerate(hands_text.split("/"))]
    stock = _cards(text, "stock", stock_text)
    piles = [_cards(text, f"capture pile of seat {i}", p)
             for i, p in enumerate(piles_text.split("/"))]
    seats = len(hands)
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise InvalidPositionError(
            f"invalid KPN {text!r}: {seats} hands, expected {MIN_SEATS} to {MAX_SEATS} seats")
    if len(piles) != seats:
        raise InvalidPositionError(
            f"invalid KPN {text!r}: {seats} hands but {len(piles)} capture piles")
    to_move = _seat(text, "seat to move", move_text, seats)
    dealer = _seat(text, "dealer's seat", dealer_text, seats)
    last = None if last_text == "-" else _seat(text, "last capture seat", last_text, seats)
    _check_cards(text, table, hands, stock, piles)
    over = _check_play(text, hands, stock, table, to_move, last)
    return KonchinkaDeal.from_cards(rules, dealer=dealer, to_move=to_move, hands=hands,
                                    table=table, stock=stock, piles=piles,
                                    last_capturer=last, over=over)


def _cards(text: str, what: str, field: str) -> list[Card]:
    if field == "":
        raise InvalidNotationError(f"invalid KPN {text!r}: empty {what} (write '-')")
    try:
        cards = parse_cards(field)
    except InvalidCardError as error:
        raise InvalidNotationError(f"invalid KPN {text!r}: {what}: {error}") from None
    if field != "-" and not cards:
        raise InvalidNotationError(f"invalid KPN {text!r}: bad {what} {field!r}")
    if any(c.is_joker for c in cards):
        raise InvalidPositionError(f"invalid KPN {text!r}: {what}: Konchinka has no joker")
    return cards


def _seat(text: str, what: str, field: str, seats: int) -> int:
    if not field.isdigit() or (len(field) > 1 and field[0] == "0"):
        raise InvalidNotationError(f"invalid KPN {text!r}: {what} {field!r} is not a seat")
    seat = int(field)
    if seat >= seats:
        raise InvalidPositionError(
            f"invalid KPN {text!r}: {what} {seat} out of range for {seats} seats")
    return seat


def _check_cards(text: str, table: list[Card], hands: list[list[Card]], stock: list[Card],
                 piles: list[list[Card]]) -> None:
    seen: set[Card] = set()
    for card in [*table, *(c for h in hands for c in h), *stock, *(c for p in piles for c in p)]:
        if card in seen:
            raise InvalidPositionError(f"invalid KPN {text!r}: {card} appears more than once")
        seen.add(card)


def _check_play(text: str, hands: list[list[Card]], stock: list[Card], table: list[Card],
                to_move: int, last: int | None) -> bool:
    """Check that the position can occur in play; return whether the deal is over."""
    seats = len(hands)
    if len(stock) % (HAND_SIZE * seats):
        raise InvalidPositionError(
            f"invalid KPN {text!r}: a stock of {len(stock)} cards cannot be dealt out in "
            f"redeals of {HAND_SIZE} cards to {seats} seats")
    if any(hands):
        if not hands[to_move]:
            raise InvalidPositionError(
                f"invalid KPN {text!r}: seat {to_move} is to move but holds no card")
        return False
    if stock:
        raise InvalidPositionError(
            f"invalid KPN {text!r}: every hand is empty but the stock is not "
            "(the redeal happens inside the move)")
    if table and last is not None:
        raise InvalidPositionError(
            f"invalid KPN {text!r}: the deal is over but the table still holds "
            f"{format_cards(sort_cards(table))} (the sweep to seat {last} happens inside "
            "the last move)")
    return True


install_view("kpn", format_kpn)
