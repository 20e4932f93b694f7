"""One Konchinka deal: the position, its legal moves, validated and fast play.

:class:`KonchinkaDeal` implements :class:`konkun.game.Deal` for :class:`Move`. Build one
with :func:`~konkun.konchinka.dealing.new_deal` (shuffle, cut, the four-round deal and the
initial-table fix, from a random source), :func:`~konkun.konchinka.dealing.deal_from_seed`
(the same from a record seed, reproducible), :func:`~konkun.konchinka.dealing.deal_from_deck`
(from a given deck order), :func:`konkun.konchinka.notation.parse_kpn`
or :meth:`KonchinkaDeal.from_position` (a frozen
:class:`~konkun.konchinka.position.KonchinkaPosition`, what :meth:`~KonchinkaDeal.position`
gives); all of them end in :meth:`KonchinkaDeal.from_indices`.

Bots and RL read and play a deal through its fast integer interface (``turn``,
``options()``, ``push_option``, ``hand_indices``, ``table_codes``, ``pile_masks``,
``state_ints()`` ...: ``docs/konchinka.md``), never its private fields.

- :meth:`KonchinkaDeal.legal_actions`, :meth:`~KonchinkaDeal.is_legal`,
  :meth:`~KonchinkaDeal.why_illegal` (the reason as text, or ``None``);
- :meth:`~KonchinkaDeal.play` validates and raises
  :class:`~konkun.errors.IllegalMoveError` saying why; :meth:`~KonchinkaDeal.push` is
  the unchecked fast path; :meth:`~KonchinkaDeal.random_playout`
  (:mod:`konkun.konchinka.playout`) plays uniformly random legal moves to the end on
  integer cards (simulation);
- a redeal (every hand empty, stock not) and the end-of-deal sweep (to the last
  capturer) happen inside the move that empties the last hand.

Internally cards are their indices (``Card.index``, 0..51, :mod:`konkun.konchinka.deck`),
capture piles are bit masks, and the table is a sorted list of codes ``value << 6 | index``
together with its counting polynomial (:mod:`konkun.konchinka.captures`): how many
captures each value has is read off that one integer, which is what makes
:meth:`~KonchinkaDeal.count_moves` and the random playouts fast. The captures themselves
are listed from a memo keyed by the table's value multiset.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from konkun.cards import Card, Rank
from konkun.errors import GameOverError, IllegalMoveError, InvalidNotationError
from konkun.game import Observation
from konkun.konchinka.captures import (
    CAPTURES,
    CLASSIC_CODES,
    CLASSIC_SHIFTS,
    CLASSIC_SLOTS,
    FIELD,
    INV_BY_VALUE,
    KING_SLOT,
    MUL_BY_VALUE,
    NOVO_CODES,
    NOVO_SHIFTS,
    NOVO_SLOTS,
    POLY_MASK,
    SHIFT,
    SLOT_KEY_MASKS,
    Captures,
    capture_count,
    compute_captures,
)
from konkun.konchinka.deck import CARDS, HAND_SIZE, card_mask, mask_cards
from konkun.konchinka.move_memo import MOVE_MEMO, memo_move, move_of, move_sort_key
from konkun.konchinka.moves import Move, sort_cards
from konkun.konchinka.playout import RandomPlayout
from konkun.konchinka.position import HistoryEntry, KonchinkaPosition
from konkun.konchinka.rules import TRAIL_FLAGS, TRAILS, KonchinkaRules, may_trail
from konkun.konchinka.scoring import DealScore, score_masks

_VIEWS: dict[str, Callable[..., Any]] = {}
# The deal's views are written in the modules above this one, which read the deal:
# observation (``observe``) and notation (``kpn``). Each hands its maker to
# install_view on import, and konkun.konchinka imports both, so a deal always has them
# while no import points back down here.


def install_view(name: str, maker: Callable[..., Any]) -> None:
    """Give the deal a view written above it: ``"observation"`` (deal, seat) -> the
    seat's observation, or ``"kpn"`` (deal) -> its KPN text."""
    _VIEWS[name] = maker




HistoryRecord = tuple[int, int, tuple[int, ...], bool]
"""One move of :attr:`KonchinkaDeal.history_indices`: (seat, played card index, the taken
card indices in table order, whether a redeal followed)."""

StateInts = tuple[int, Sequence[Sequence[int]], Sequence[int], Sequence[int], int, int, int,
                  tuple[tuple[int, int], ...]]
"""What :meth:`KonchinkaDeal.state_ints` returns."""


class KonchinkaDeal(RandomPlayout):
    """A Konchinka deal (implements :class:`konkun.game.Deal` for :class:`Move`).

    Construct it with :func:`new_deal`, :func:`deal_from_seed`, :func:`deal_from_deck`,
    :func:`konkun.konchinka.notation.parse_kpn` or :meth:`from_cards`.
    """

    __slots__ = ("_codes", "_dealer", "_hands", "_history", "_in_hands", "_last",
                 "_next_seat", "_piles", "_poly", "_returned", "_rules", "_seats", "_slots",
                 "_stock", "_stock_start", "_swept", "_table", "_turn")

    _rules: KonchinkaRules
    _seats: int
    _dealer: int
    _slots: tuple[int, ...]
    _codes: tuple[int, ...]
    _hands: list[list[int]]
    _table: list[int]
    _poly: int
    _stock: list[int]
    _piles: list[int]
    _last: int
    _turn: int
    _in_hands: int
    _history: list[HistoryRecord]
    _returned: tuple[tuple[int, int], ...]
    _stock_start: int
    _swept: tuple[int, ...]
    _next_seat: int

    # ------------------------------------------------------------------ construction

    @classmethod
    def from_indices(cls, rules: KonchinkaRules, *, dealer: int,
                     hands: Sequence[Sequence[int]], table: Iterable[int],
                     stock: Sequence[int], piles: Sequence[int], next_seat: int,
                     over: bool, last_capturer: int | None,
                     history: Iterable[HistoryRecord] = (),
                     returned: tuple[tuple[int, int], ...] = (), dealt_from_stock: int = 0,
                     final_sweep: tuple[int, ...] = ()) -> KonchinkaDeal:
        """A deal from its parts as card indices (``Card.index``), unchecked: the one path
        every constructor takes, and the fast one for bots and RL. ``hands`` in the order
        each is held (see :attr:`KonchinkaPosition.hands`), ``stock`` the next card to be
        dealt first, ``piles`` bit masks (``1 << index``), ``history`` as
        :attr:`history_indices` gives it, ``final_sweep`` in any order; the other parts as in
        :class:`~konkun.konchinka.position.KonchinkaPosition`."""
        deal: KonchinkaDeal = cls.__new__(cls)
        seats = len(hands)
        deal._rules = rules
        deal._seats = seats
        deal._dealer = dealer
        if rules.variant == "novo":
            deal._slots, deal._codes = NOVO_SLOTS, NOVO_CODES
        else:
            deal._slots, deal._codes = CLASSIC_SLOTS, CLASSIC_CODES
        deal._hands = own = [list(hand) for hand in hands]
        deal._in_hands = sum(map(len, own))
        deal._set_table(table)
        deal._stock = list(reversed(stock))
        deal._piles = list(piles)
        deal._last = -1 if last_capturer is None else last_capturer
        deal._turn = -1 if over else next_seat
        deal._next_seat = next_seat
        deal._history = list(history)
        deal._returned = returned
        deal._stock_start = len(stock) + dealt_from_stock
        deal._swept = tuple(sorted(final_sweep, key=deal._codes.__getitem__)) if final_sweep \
            else ()
        return deal

    @classmethod
    def from_cards(cls, rules: KonchinkaRules, *, dealer: int, to_move: int | None,
                   hands: Sequence[Iterable[Card]], table: Iterable[Card],
                   stock: Iterable[Card], piles: Sequence[Iterable[Card]] | None = None,
                   last_capturer: int | None = None, over: bool = False) -> KonchinkaDeal:
        """A deal from its parts, unchecked (use :func:`~konkun.konchinka.notation.parse_kpn`
        for validated input). ``stock`` lists the next card to be dealt first; for a
        finished deal (``over``) ``to_move`` is the seat that would move next."""
        return cls.from_indices(
            rules, dealer=dealer, hands=[[c.index for c in hand] for hand in hands],
            table=[c.index for c in table], stock=[c.index for c in stock],
            piles=[card_mask(pile) for pile in (piles or [[]] * len(hands))],
            next_seat=(dealer + 1) % len(hands) if to_move is None else to_move,
            over=over or to_move is None, last_capturer=last_capturer)

    @classmethod
    def from_position(cls, position: KonchinkaPosition) -> KonchinkaDeal:
        """The deal at ``position`` (unchecked): it plays on exactly as the deal the
        position was taken from (:meth:`position`)."""
        codes = NOVO_CODES if position.rules.variant == "novo" else CLASSIC_CODES
        history = [(entry.seat, entry.move.card.index,
                    tuple(sorted((c.index for c in entry.move.taken), key=codes.__getitem__)),
                    entry.redeal) for entry in position.history]
        return cls.from_indices(
            position.rules, dealer=position.dealer,
            hands=[[c.index for c in hand] for hand in position.hands],
            table=[c.index for c in position.table],
            stock=[c.index for c in position.stock],
            piles=[card_mask(pile) for pile in position.piles], next_seat=position.next_seat,
            over=position.over, last_capturer=position.last_capturer, history=history,
            returned=tuple((card.index, low) for card, low in position.returned_to_stock),
            dealt_from_stock=position.dealt_from_stock,
            final_sweep=tuple(c.index for c in position.final_sweep))

    def position(self) -> KonchinkaPosition:
        """This deal at this moment as a frozen value (:meth:`from_position` undoes it)."""
        return KonchinkaPosition(
            rules=self._rules, dealer=self._dealer,
            hands=tuple(tuple(CARDS[c] for c in hand) for hand in self._hands),
            table=tuple(self.table), stock=tuple(self.stock),
            piles=tuple(tuple(mask_cards(mask)) for mask in self._piles),
            next_seat=self.next_seat, over=self._turn < 0, last_capturer=self.last_capturer,
            history=tuple(HistoryEntry(seat, move_of(card, taken), redeal)
                          for seat, card, taken, redeal in self._history),
            returned_to_stock=tuple(self.returned_to_stock),
            dealt_from_stock=self._stock_start - len(self._stock),
            final_sweep=tuple(CARDS[c] for c in self._swept))

    def _set_table(self, cards: Iterable[int]) -> None:
        codes = self._codes
        table = self._table = sorted([codes[c] for c in cards])
        # table_poly, inlined (sample_deal builds a deal per ISMCTS iteration): times
        # (1 + x**value) is a shift and an add; a classic Jack (value 0) is left out
        poly = 1
        for code in table:
            if code >= 64:
                poly = (poly + (poly << SHIFT[code >> 6])) & POLY_MASK
        self._poly = poly

    # ------------------------------------------------------------------ reading

    @property
    def rules(self) -> KonchinkaRules:
        """The rules this deal is played by."""
        return self._rules

    @property
    def num_seats(self) -> int:
        """How many seats play the deal (2 to 4)."""
        return self._seats

    @property
    def dealer(self) -> int:
        """The dealer's seat."""
        return self._dealer

    @property
    def to_move(self) -> int | None:
        """The seat to move, or ``None`` when the deal is over."""
        return None if self._turn < 0 else self._turn

    @property
    def next_seat(self) -> int:
        """The seat to move, or for a finished deal the seat that would move next."""
        return self._next_seat if self._turn < 0 else self._turn

    @property
    def last_capturer(self) -> int | None:
        """The seat that made the last capture, or ``None`` if nobody has captured."""
        return None if self._last < 0 else self._last

    def hand(self, seat: int) -> list[Card]:
        """The cards in ``seat``'s hand, in the canonical order."""
        return sort_cards(CARDS[c] for c in self._hands[seat])

    @property
    def hands(self) -> list[list[Card]]:
        """Every seat's hand."""
        return [self.hand(seat) for seat in range(self._seats)]

    @property
    def table(self) -> list[Card]:
        """The face-up table cards, in the canonical order."""
        return sort_cards(CARDS[code & 63] for code in self._table)

    @property
    def stock(self) -> list[Card]:
        """The stock, the next card to be dealt first."""
        return [CARDS[c] for c in reversed(self._stock)]

    @property
    def stock_size(self) -> int:
        """How many cards the stock holds."""
        return len(self._stock)

    def captured(self, seat: int) -> list[Card]:
        """The cards in ``seat``'s capture pile, in the canonical order."""
        return mask_cards(self._piles[seat])

    @property
    def piles(self) -> list[list[Card]]:
        """Every seat's capture pile."""
        return [self.captured(seat) for seat in range(self._seats)]

    @property
    def history(self) -> list[tuple[int, Move]]:
        """The moves of the deal so far, each with the seat that made it."""
        return [(seat, move_of(card, taken)) for seat, card, taken, _ in self._history]

    @property
    def redeal_after(self) -> list[bool]:
        """For each move of :attr:`history`, whether a redeal followed it."""
        return [redeal for *_, redeal in self._history]

    @property
    def final_sweep(self) -> list[Card]:
        """The table cards swept to the last capturer at the end of the deal."""
        return sort_cards(CARDS[c] for c in self._swept)

    @property
    def returned_to_stock(self) -> list[tuple[Card, int]]:
        """Cards sent back from the initial table into the stock, each with the smallest
        stock position (0: next to be dealt) it can have had when play began."""
        return [(CARDS[c], low) for c, low in self._returned]

    # ------------------------------------------------------------------ the fast interface
    # Integers only, no copies: bots and RL read the deal through these in their hot loops
    # (docs/konchinka.md, "The fast interface"). The sequences are the deal's own: read
    # them, never change them (play with push_option), and read them again after a move.

    @property
    def turn(self) -> int:
        """The seat to move, or -1 when the deal is over (:attr:`to_move` as an int)."""
        return self._turn

    @property
    def hand_indices(self) -> Sequence[Sequence[int]]:
        """Every seat's hand as card indices, in the order held (not sorted)."""
        return self._hands

    @property
    def table_codes(self) -> Sequence[int]:
        """The table as sorted codes ``value << 6 | index`` (the value of the rules'
        variant; a classic Jack 0): the positions of :meth:`options` index it."""
        return self._table

    @property
    def pile_masks(self) -> Sequence[int]:
        """Every seat's capture pile as a bit mask of card indices (``1 << index``)."""
        return self._piles

    @property
    def history_indices(self) -> Sequence[HistoryRecord]:
        """The moves so far as (seat, card index, taken card indices, redeal followed)."""
        return self._history

    @property
    def dealt_from_stock(self) -> int:
        """How many cards have been dealt from the stock since play began."""
        return self._stock_start - len(self._stock)

    def state_ints(self) -> StateInts:
        """(:attr:`turn`, :attr:`hand_indices`, :attr:`table_codes`, :attr:`pile_masks`,
        :attr:`stock_size`, :attr:`dealer`, the last capturer or -1,
        :attr:`returned_indices`) in one call: what a tensor encoder reads of every deal of
        a batch at every step."""
        return (self._turn, self._hands, self._table, self._piles, len(self._stock),
                self._dealer, self._last, self._returned)

    @property
    def returned_indices(self) -> tuple[tuple[int, int], ...]:
        """:attr:`returned_to_stock` as (card index, lowest stock position) pairs."""
        return self._returned

    def unseen_by(self, seat: int | None) -> list[int]:
        """The card indices ``seat`` cannot see (the other hands and the stock; for
        ``None``, a spectator, every hand), sorted: what a determinization deals out."""
        return sorted([c for s, hand in enumerate(self._hands) if s != seat for c in hand]
                      + self._stock)

    def returned_in_stock(self) -> list[int]:
        """The card indices of :attr:`returned_to_stock` that are surely still in the stock
        (fewer cards dealt from it since play began than their lowest position)."""
        if not self._returned:
            return []
        dealt = self._stock_start - len(self._stock)
        return [card for card, low in self._returned if dealt <= low]

    def is_over(self) -> bool:
        """True once every hand and the stock are empty."""
        return self._turn < 0

    def cards_in_play(self) -> list[Card]:
        """Every card of the deal (hands, table, stock and piles)."""
        indices = [c for h in self._hands for c in h] + [code & 63 for code in self._table]
        indices += self._stock
        mask = 0
        for pile in self._piles:
            mask |= pile
        return sort_cards([CARDS[c] for c in indices] + mask_cards(mask))

    def kpn(self) -> str:
        """The position in KPN (``CONTRACT.md``)."""
        text: str = _VIEWS["kpn"](self)
        return text

    def __str__(self) -> str:
        return self.kpn()

    def __repr__(self) -> str:
        return f"parse_kpn({self.kpn()!r})"

    # ------------------------------------------------------------------ moves

    def _table_key(self) -> int:
        key = 0
        for code in self._table:
            key += 1 << ((code >> 6) << 2)
        return key << 4

    def options(self) -> list[tuple[int, tuple[int, ...]]]:
        """The legal moves as (card index, positions into :attr:`table_codes`), the
        positions empty for a trail: the fast form of :meth:`legal_actions`, in the order
        of the hand, each card's trail (when allowed) before its captures."""
        if self._turn < 0:
            return []
        key = -1
        cache = CAPTURES
        key_masks = SLOT_KEY_MASKS
        slots = self._slots
        trails = TRAILS[self._rules.capture_compulsory]
        poly = self._poly
        table = bool(self._table)
        options: list[tuple[int, tuple[int, ...]]] = []
        for card in self._hands[self._turn]:
            slot = slots[card]
            found: Captures = ()
            if capture_count(poly, slot, table):
                if key < 0:
                    key = self._table_key()
                part = key & key_masks[slot] | slot
                found = cache.get(part) or compute_captures(part >> 4, slot)
            if trails[bool(found)]:
                options.append((card, ()))
            options.extend((card, positions) for positions in found)
        return options

    def options_by_card(self) -> list[tuple[int, bool, Captures]]:
        """The legal moves grouped by the card played, in the order of the hand: (card
        index, whether it may be trailed, its captures as positions into
        :attr:`table_codes`): :meth:`options` without a tuple per move (the captures are
        the memo's own tuples: read them, never change them)."""
        if self._turn < 0:
            return []
        key = -1
        cache = CAPTURES
        key_masks = SLOT_KEY_MASKS
        slots = self._slots
        shifts = NOVO_SHIFTS if slots is NOVO_SLOTS else CLASSIC_SHIFTS
        idle_trail, trail = TRAIL_FLAGS[self._rules.capture_compulsory]
        poly = self._poly
        table = bool(self._table)
        grouped: list[tuple[int, bool, Captures]] = []
        for card in self._hands[self._turn]:
            # capture_count, inlined: the field of the card's value in the polynomial
            place = shifts[card]
            if place > 0:
                count = (poly >> place) & FIELD
            elif place:
                count = ((poly >> SHIFT[13]) & FIELD) + ((poly >> SHIFT[14]) & FIELD)
            else:
                count = table
            if count:
                if key < 0:
                    key = self._table_key()
                slot = slots[card]
                part = key & key_masks[slot] | slot
                grouped.append((card, trail,
                                cache.get(part) or compute_captures(part >> 4, slot)))
            else:
                grouped.append((card, idle_trail, ()))
        return grouped

    def count_moves(self) -> int:
        """How many legal moves there are (``len(legal_actions())``, without listing them)."""
        if self._turn < 0:
            return 0
        poly = self._poly
        slots = self._slots
        trails = TRAILS[self._rules.capture_compulsory]
        total = 0
        for card in self._hands[self._turn]:
            found = capture_count(poly, slots[card], bool(self._table))
            total += found + trails[found > 0]
        return total

    def legal_actions(self) -> list[Move]:
        """Every legal move of the seat to move, each once, in the canonical order
        (played card in card order; its trail first, then its captures)."""
        table = self._table
        cache = MOVE_MEMO
        found = []
        for card, positions in self.options():
            key = card
            for p in positions:
                key |= 1 << ((table[p] & 63) + 6)
            entry = cache.get(key)
            if entry is None:
                entry = memo_move(key)
            found.append(entry)
        found.sort(key=move_sort_key)
        return [move for _, move in found]

    legal_moves = legal_actions

    def why_illegal(self, move: Move) -> str | None:
        """Why ``move`` is illegal now, in words, or ``None`` when it is legal."""
        if self._turn < 0:
            return "the deal is over"
        card = move.card
        seat = self._turn
        if card.is_joker or card.index not in self._hands[seat]:
            return f"{card} is not in the hand of seat {seat}, the seat to move"
        slot = self._slots[card.index]
        if move.is_trail:
            can_capture = capture_count(self._poly, slot, bool(self._table)) > 0
            if not may_trail(self._rules.capture_compulsory, can_capture):
                return (f"{card} can capture, and with capture_compulsory a card that can "
                        "capture may not be trailed")
            return None
        on_table = {code & 63 for code in self._table}
        taken = sort_cards(move.taken)
        missing = [c for c in taken if c.is_joker or c.index not in on_table]
        if missing:
            return f"{', '.join(map(str, missing))} not on the table"
        if not self._rules.is_novo:
            if card.rank == Rank.JACK:
                if len(taken) != len(self._table):
                    return "in classic a Jack takes the whole table"
                return None
            jacks = [c for c in taken if c.rank == Rank.JACK]
            if jacks:
                return (f"{jacks[0]} is a Jack: in classic only a Jack, taking the whole "
                        "table, can take a Jack")
        codes = self._codes
        total = sum(codes[c.index] >> 6 for c in taken)
        sums = (13, 14) if slot == KING_SLOT else (codes[card.index] >> 6,)
        if total not in sums:
            wanted = " or ".join(map(str, sums))
            return (f"the taken cards add up to {total}, not {wanted} "
                    f"(the value of {card}); one capture per move")
        return None

    def is_legal(self, action: Move) -> bool:
        """Whether ``action`` is legal now."""
        return isinstance(action, Move) and self.why_illegal(action) is None

    def play(self, action: Move) -> None:
        """Apply a legal move; raise :class:`~konkun.errors.IllegalMoveError` (or
        :class:`~konkun.errors.GameOverError`) saying why otherwise, leaving the deal
        unchanged."""
        if not isinstance(action, Move):
            raise IllegalMoveError(repr(action), "not a Move", self.kpn())
        reason = self.why_illegal(action)
        if reason is not None:
            error = GameOverError if self._turn < 0 else IllegalMoveError
            raise error(action.text(), reason, self.kpn())
        self.push(action)

    def play_text(self, text: str) -> Move:
        """Parse and play a move's text; return the move."""
        move = self.parse_action(text)
        self.play(move)
        return move

    def push(self, action: Move) -> None:
        """Apply a move known to be legal, without checking (the fast path)."""
        table = self._table
        codes = self._codes
        positions = tuple(sorted(bisect_left(table, codes[c.index]) for c in action.taken))
        self.push_option(action.card.index, positions)

    def push_option(self, card: int, positions: tuple[int, ...]) -> bool:
        """Play one of :meth:`options`, unchecked (the fast path of :meth:`push`);
        return whether a redeal followed."""
        seat = self._turn
        self._hands[seat].remove(card)
        self._in_hands -= 1
        table = self._table
        if positions:
            if len(positions) == len(table):
                taken = table
                self._table = []
            else:
                taken = [table[p] for p in positions]
                for p in reversed(positions):
                    del table[p]
            mask = 1 << card
            poly = self._poly
            taken_list = []
            for code in taken:
                index = code & 63
                taken_list.append(index)
                mask |= 1 << index
                poly = poly * INV_BY_VALUE[code >> 6] & POLY_MASK
            self._poly = poly
            self._piles[seat] |= mask
            self._last = seat
            taken_cards = tuple(taken_list)
        else:
            code = self._codes[card]
            insort(table, code)
            self._poly = self._poly * MUL_BY_VALUE[code >> 6] & POLY_MASK
            taken_cards = ()
        redeal = False
        if self._in_hands:
            hands = self._hands
            seats = self._seats
            turn = (seat + 1) % seats
            while not hands[turn]:
                turn = (turn + 1) % seats
            self._turn = turn
        elif self._stock:
            self._redeal()
            redeal = True
        else:
            self._finish()
            self._next_seat = (seat + 1) % self._seats
        self._history.append((seat, card, taken_cards, redeal))
        return redeal

    def _redeal(self) -> None:
        """Deal 4 cards to each seat from the stock, one at a time from the seat left of
        the dealer (the stock's next card is the list's last)."""
        stock = self._stock
        hands = self._hands
        seats = self._seats
        first = (self._dealer + 1) % seats
        size = HAND_SIZE * seats
        if len(stock) >= size:
            dealt = stock[:-size - 1:-1]  # in dealing order
            del stock[-size:]
            for k in range(seats):
                hands[(first + k) % seats].extend(dealt[k::seats])
        else:  # only for hand-made positions: deal what there is
            for k in range(len(stock)):
                hands[(first + k) % seats].append(stock.pop())
        self._in_hands = sum(len(h) for h in hands)
        self._turn = first

    def _finish(self) -> None:
        if self._last >= 0 and self._table:
            self._swept = tuple(code & 63 for code in self._table)
            for c in self._swept:
                self._piles[self._last] |= 1 << c
            self._table = []
            self._poly = 1
        self._turn = -1

    # ------------------------------------------------------------------ the protocol

    def copy(self) -> KonchinkaDeal:
        """An independent copy."""
        other: KonchinkaDeal = KonchinkaDeal.__new__(KonchinkaDeal)
        other._rules = self._rules
        other._seats = self._seats
        other._dealer = self._dealer
        other._slots = self._slots
        other._codes = self._codes
        other._hands = [h[:] for h in self._hands]
        other._table = self._table[:]
        other._poly = self._poly
        other._stock = self._stock[:]
        other._piles = self._piles[:]
        other._last = self._last
        other._turn = self._turn
        other._in_hands = self._in_hands
        other._history = self._history[:]
        other._returned = self._returned
        other._stock_start = self._stock_start
        other._swept = self._swept
        other._next_seat = self._next_seat
        return other

    def __copy__(self) -> KonchinkaDeal:
        return self.copy()

    def observe(self, seat: int) -> Observation[Move]:
        """What ``seat`` knows now (its hand, never another hand or the stock order): a
        :class:`~konkun.konchinka.observation.KonchinkaObservation`."""
        view: Observation[Move] = _VIEWS["observation"](self, seat)
        return view

    def score(self) -> DealScore:
        """The deal's score from the capture piles (meaningful once it is over)."""
        return score_masks(self._piles, self._rules.tie_points)

    def points(self) -> list[int]:
        """Each seat's points for the deal (meaningful once it is over)."""
        return self.score().points

    def format_action(self, action: Move) -> str:
        """The text of a move (``Qd`` or ``Qd:As7h2c``)."""
        return action.text()

    def parse_action(self, text: str) -> Move:
        """Read a move's text; raise :class:`~konkun.errors.InvalidNotationError` (its
        ``reason`` quotes only ``text``; ``str()`` adds the position)."""
        try:
            return Move.parse(text)
        except InvalidNotationError as error:
            raise InvalidNotationError(error.reason, self.kpn()) from None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, KonchinkaDeal):
            return NotImplemented
        return self._state_tuple() == other._state_tuple()

    __hash__ = None  # type: ignore[assignment]

    def _state_tuple(self) -> tuple[Any, ...]:
        return (self._rules, self._seats, self._dealer, [sorted(h) for h in self._hands],
                self._table, self._stock, self._piles, self._last, self._turn)

    def perft(self, depth: int) -> int:
        """The number of move sequences of length ``depth`` from here (``perft(0)`` is 1;
        a finished deal has no moves)."""
        if depth <= 0:
            return 1
        if depth == 1:
            return self.count_moves()
        total = 0
        for card, positions in self.options():
            child = self.copy()
            child.push_option(card, positions)
            total += child.perft(depth - 1)
        return total

    def perft_divide(self, depth: int) -> list[tuple[Move, int]]:
        """For each legal move (in :meth:`legal_actions` order), the number of move
        sequences of length ``depth`` that start with it."""
        counts = []
        for move in self.legal_actions():
            child = self.copy()
            child.push(move)
            counts.append((move, child.perft(depth - 1)))
        return counts


def perft(deal: KonchinkaDeal, depth: int) -> int:
    """The number of move sequences of length ``depth`` from ``deal`` (``CONTRACT.md``)."""
    return deal.perft(depth)
