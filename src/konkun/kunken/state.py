"""The Kunken deal: the deal itself and its turn machine (RULES.md, Кункен).

A turn is a short sequence of :class:`~konkun.kunken.actions.Action` (docs/kunken.md):

- phase ``start``: ``draw`` or ``take I`` (legal only when the turn can be completed: a
  meld holding the taken card and two cards held before the take, the opening minimum
  without a layout, and a card left to discard);
- phase ``drawn`` (after ``draw``): ``swap`` (with a layout) and ``discard``;
- phase ``taken`` (after ``take``): ``meld``, ``layoff``, ``swap`` and, once the turn's
  obligations are met, ``discard``. Only steps after which the turn can still be completed
  are legal, so a player is never stuck.

:meth:`KunkenDeal.play` validates and raises :class:`konkun.errors.IllegalMoveError` saying
why; :meth:`KunkenDeal.push` is the unchecked fast path.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from konkun.cards import double_deck, shuffled
from konkun.errors import GameOverError, IllegalMoveError, InvalidNotationError
from konkun.game import Observation, check_dealer, check_seat_count
from konkun.kunken import completion, solver
from konkun.kunken.actions import (
    DISCARD,
    DISCARDS,
    DRAW,
    DRAW_ACTION,
    LAYOFF,
    MELD,
    SWAP,
    TAKE,
    Action,
    layoff,
    meld,
    parse_action,
    swap,
    take,
)
from konkun.kunken.kkn import format_kkn
from konkun.kunken.melds import (
    BARE_JOKER,
    JOKER_FOR,
    OPEN_JOKER,
    SET,
    VALUE,
    TableMeld,
    card_text,
    check_meld,
    slot_card,
    slot_value,
)
from konkun.kunken.position import KunkenPosition, MeldPosition, Phase, TakeTurn
from konkun.kunken.rules import MAX_SEATS, MIN_SEATS, KunkenRules
from konkun.kunken.scoring import deal_points

_VIEWS: dict[str, Callable[..., Any]] = {}
# The deal's views are written in the modules above this one, which read the deal:
# observation (``observe``) and notation (``from_json``). Each hands its maker to
# install_view on import, and konkun.kunken imports both, so a deal always has them while
# no import points back down here.


def install_view(name: str, maker: Callable[..., Any]) -> None:
    """Give the deal a view written above it: ``"observation"`` (deal, seat) -> the seat's
    observation, or ``"from_json"`` (data) -> the deal :meth:`KunkenDeal.to_json` wrote."""
    _VIEWS[name] = maker


_T = TypeVar("_T")
_Judge = Callable[[_T], bool]
_Judges = tuple[_Judge[tuple[int, ...]], _Judge[int], _Judge[int]]
"""Whether a step leaves the turn completable: a meld (its slots), a lay-off (the card),
a swap (the card given for the joker)."""

START = Phase.START
DRAWN = Phase.DRAWN
TAKEN = Phase.TAKEN
OVER = Phase.OVER
PHASES = tuple(Phase)


def counts_of(cards: Iterable[int]) -> list[int]:
    """A count vector (53 entries) of card indices."""
    counts = [0] * 53
    for c in cards:
        counts[c] += 1
    return counts


def cards_of(counts: list[int]) -> list[int]:
    """The card indices of a count vector, in index order."""
    return [k for k in range(53) for _ in range(counts[k])]


def copy_public_state(source: Any, target: Any) -> None:
    """Copy what every seat sees of a deal (a deal or an observation, to either): the
    melds, the cards known taken from the bank, the layouts, the stock renewals and the
    state of the turn."""
    target.melds = [m.copy() for m in source.melds]
    target.taken = [t.copy() for t in source.taken]
    target.layout = source.layout.copy()
    target.renewals = source.renewals
    target.to_move = source.to_move
    target.phase = source.phase
    target.winner = source.winner
    target.express = source.express
    target.take_card = source.take_card
    target.pending = source.pending
    target.need = source.need
    target.opening = source.opening
    target.turn_notold = source.turn_notold.copy()


class KunkenDeal:
    """One deal of Kunken: hands, stock, bank, melds and the turn in progress.

    Build one with :func:`new_deal` (a shuffled deal) or :meth:`from_json`. Cards are integers
    (``Card.index``, joker 52); :mod:`konkun.kunken.melds` explains meld slots.
    """

    __slots__ = (
        "bank", "dealer", "express", "hand_sizes", "hands", "history", "layout", "melds",
        "need", "num_seats", "opening", "pending", "phase", "renewals", "rules", "stock",
        "take_card", "taken", "to_move", "turn_notold", "winner",
    )

    rules: KunkenRules
    num_seats: int
    dealer: int
    hands: list[list[int]]
    hand_sizes: list[int]
    stock: list[int]
    bank: list[int]
    melds: list[TableMeld]
    taken: list[list[int]]
    layout: list[bool]
    renewals: int
    to_move: int | None
    phase: Phase
    winner: int | None
    express: bool
    take_card: int
    pending: bool
    need: int
    opening: bool
    turn_notold: list[int]
    history: list[Action]

    # ------------------------------------------------------------------ construction

    @classmethod
    def from_position(cls, position: KunkenPosition,
                      history: Iterable[Action] = ()) -> KunkenDeal:
        """A deal that plays on from ``position`` exactly as the deal it was taken from
        (unchecked: :func:`~konkun.kunken.kkn.parse_kkn` checks text); ``history``: the
        actions that led to it, if known (a position does not hold them)."""
        deal = cls.__new__(cls)
        deal.rules = position.rules
        deal.num_seats = len(position.hands)
        deal.dealer = position.dealer
        deal.hands = [counts_of(h) for h in position.hands]
        deal.hand_sizes = [len(h) for h in position.hands]
        deal.stock = list(reversed(position.stock))  # the next card to draw is last
        deal.bank = list(position.bank)
        deal.melds = [TableMeld(m.owner, m.slots, m.laid_by) for m in position.melds]
        deal.taken = [counts_of(t) for t in position.taken]
        deal.layout = list(position.layout)
        deal.renewals = position.renewals
        deal.to_move = position.to_move
        deal.phase = position.phase
        deal.winner = position.winner
        deal.express = position.express
        deal.history = list(history)
        turn = position.turn
        deal.take_card = -1 if turn is None else turn.taken_card
        deal.pending = turn is not None and turn.pending
        deal.need = 0 if turn is None else turn.need
        deal.opening = turn is not None and turn.opening
        deal.turn_notold = counts_of(turn.not_old if turn is not None else ())
        return deal

    def position(self) -> KunkenPosition:
        """The deal now as a frozen value (:class:`~konkun.kunken.position.KunkenPosition`):
        :meth:`from_position` of it plays on exactly as this deal."""
        turn = None
        if self.phase == TAKEN:
            turn = TakeTurn(self.take_card, self.pending, self.need, self.opening,
                            tuple(cards_of(self.turn_notold)))
        return KunkenPosition(
            rules=self.rules,
            dealer=self.dealer,
            hands=tuple(tuple(cards_of(h)) for h in self.hands),
            stock=tuple(reversed(self.stock)),
            bank=tuple(self.bank),
            melds=tuple(MeldPosition(m.owner, tuple(m.slots), tuple(m.laid_by))
                        for m in self.melds),
            taken=tuple(tuple(cards_of(t)) for t in self.taken),
            layout=tuple(self.layout),
            renewals=self.renewals,
            to_move=self.to_move,
            phase=Phase(self.phase),
            turn=turn,
            winner=self.winner,
            express=self.express,
        )

    def kkn(self) -> str:
        """The deal's position as KKN text (:func:`~konkun.kunken.kkn.format_kkn`)."""
        return format_kkn(self.position())

    def _reset_turn(self) -> None:
        self.take_card = -1
        self.pending = False
        self.need = 0
        self.opening = False
        self.turn_notold = [0] * 53

    def copy(self) -> KunkenDeal:
        """An independent copy."""
        d = KunkenDeal.__new__(KunkenDeal)
        d.rules = self.rules
        d.num_seats = self.num_seats
        d.dealer = self.dealer
        d.hands = [h.copy() for h in self.hands]
        d.hand_sizes = self.hand_sizes.copy()
        d.stock = self.stock.copy()
        d.bank = self.bank.copy()
        copy_public_state(self, d)
        d.history = self.history.copy()
        return d

    # ------------------------------------------------------------------ queries

    def is_over(self) -> bool:
        """True once the deal has ended (a player went out, or the stock ran out)."""
        return self.phase == OVER

    def obligations_met(self) -> bool:
        """After a take: the taken card is melded and the opening minimum reached."""
        return not self.pending and self.need <= 0

    def points(self) -> list[int]:
        """Each seat's score for the deal (RULES.md, Score of a deal): + table cards each
        seat laid (melds and lay-offs), - cards in hand (a joker 10); express doubles the
        winner's plus and the others' minus."""
        plus = [0] * self.num_seats
        for table_meld in self.melds:
            for slot, seat in zip(table_meld.slots, table_meld.laid_by, strict=True):
                plus[seat] += slot_value(slot)
        minus = [sum(VALUE[k] * n for k, n in enumerate(h) if n) for h in self.hands]
        return deal_points(plus, minus, self.winner, self.express)

    def stock_renewable(self) -> bool:
        """Whether an empty stock can be renewed from the bank now."""
        return (self.rules.empty_stock == "turn_bank"
                and self.renewals < self.rules.max_stock_renewals and bool(self.bank))

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to act, each once (empty when the deal is over)."""
        seat = self.to_move
        if seat is None:
            return []
        hand = self.hands[seat]
        if self.phase == START:
            out = [DRAW_ACTION]
            out.extend(take(i) for i in self._take_positions(seat))
            if self.rules.swap_before_take:
                out += self._swaps(seat, hand)
            return out
        if self.phase == DRAWN:
            out = self._swaps(seat, hand)
            out += [DISCARDS[k] for k in range(53) if hand[k]]
            return out
        return self._taken_actions(seat, hand)

    def _taken_actions(self, seat: int, hand: list[int]) -> list[Action]:
        """The legal steps after a take: melds, lay-offs, swaps and (once the turn's
        obligations are met) discards, each kept only if the turn can still be completed."""
        size = self.hand_sizes[seat]
        done = self.obligations_met()
        judges: _Judges | None = None
        if not done:
            judges = (self._third_card_judges(hand, size) if self.need <= 0
                      else self._completion_judges(seat, hand))
        replace = self.rules.joker_for_held
        table = self._table() if judges is not None and (
            not replace or any(m.jokers for m in self.melds)) else None
        out = [meld(slots) for slots in self._hand_melds(hand)
               if len(slots) < size and (judges is None or judges[0](slots)
                                         or self._exact_ok(seat, meld(slots), table))]
        if size >= 2:
            verdicts: dict[int, bool] = {}
            for m, tm in enumerate(self.melds):
                for k, slot in tm.layoff_options():
                    if not hand[k] or (JOKER_FOR <= slot < OPEN_JOKER and not replace
                                       and hand[slot - JOKER_FOR]):
                        continue
                    action = layoff(m, slot)
                    if judges is not None:
                        ok = verdicts.get(k)
                        if ok is None:
                            ok = verdicts[k] = judges[1](k)
                        if not ok and not self._exact_ok(seat, action, table):
                            continue
                    out.append(action)
        out.extend(action for action in self._swaps(seat, hand)
                   if judges is None or judges[2](action.slots[0])
                   or self._exact_ok(seat, action, table))
        if done:
            out += [DISCARDS[k] for k in range(53) if hand[k]]
        return out

    def _hand_melds(self, hand: list[int]) -> list[tuple[int, ...]]:
        """Every meld the hand may lay now: :func:`solver.hand_melds` and each set of three
        with its joker's suit declared (RULES.md: declared or left open)."""
        replace = self.rules.joker_for_held
        melds = solver.hand_melds(hand, replace)
        if hand[BARE_JOKER]:
            for meld in list(melds):
                for variant in solver.declared_set_variants(meld):
                    if replace or not hand[variant[2] - JOKER_FOR]:
                        melds.append(variant)
        return melds

    def _table(self) -> completion.Table:
        """The table as the exact completion check reads it."""
        return completion.compact_table((m.slots, m.kind) for m in self.melds)

    def _take_positions(self, seat: int) -> list[int]:
        """The bank positions ``seat`` may take the bank from now (exact)."""
        need = 0 if self.layout[seat] else self.rules.opening_minimum
        if self.rules.joker_for_held and not any(m.jokers for m in self.melds):
            return solver.take_positions(self.hands[seat], self.bank, need, True)
        return completion.take_positions(self.hands[seat], self.bank, need, self._table(),
                                         self.layout[seat], self.rules.joker_for_held)

    def _exact_ok(self, seat: int, action: Action,
                  table_now: completion.Table | None = None) -> bool:
        """Whether the take turn can still be completed after ``action`` (a meld, lay-off or
        swap), by any legal sequence of steps: asked where the fast checks found no
        completion by melds alone (:func:`completion.completable`). ``table_now``: the
        table before the step, when the caller has it."""
        if self.rules.joker_for_held and not any(m.jokers for m in self.melds) and all(
                x < BARE_JOKER for x in action.slots):
            return False  # no joker to swap, ever: melds alone decide, and they cannot
        hand = self.hands[seat].copy()
        notold = self.turn_notold.copy()
        table = list(self._table() if table_now is None else table_now)
        pending, need, layout = self.pending, self.need, self.layout[seat]
        if action.kind == MELD:
            meld = action.slots
            if pending and self._meld_is_third(hand, notold, meld):
                pending = False
            if self.opening:
                need -= solver.meld_points(meld)
            removed = [slot_card(x) for x in meld]
            table.append(completion.compact(meld))
            layout = True
        else:
            number = action.number
            assert number is not None  # a lay-off or a swap names its meld
            tm = self.melds[number].copy()
            slot = action.slots[0]
            removed = [slot_card(slot)]
            if action.kind == LAYOFF:
                tm.lay_off(slot, seat)
            else:
                tm.swap(slot)
                hand[BARE_JOKER] += 1
                notold[BARE_JOKER] += 1
            table[number] = completion.compact(tm.slots, tm.kind)
        for k in removed:
            hand[k] -= 1
            if notold[k]:
                notold[k] -= 1
        return completion.completable(hand, notold, self.take_card, need, pending, layout,
                                      tuple(table), self.rules.joker_for_held, True)

    def _third_card_judges(self, hand: list[int], size: int) -> _Judges:
        """Whether a meld, a lay-off (a card) or a swap (a card) leaves the turn completable
        by melds alone while the taken card is still to be melded and no points are due: the
        hand must then keep a third-card meld that leaves a card to discard."""
        check = solver.ThirdCardCheck(self.take_card, hand, self.turn_notold,
                                      self.rules.joker_for_held)
        notold = self.turn_notold

        def meld_ok(meld: tuple[int, ...]) -> bool:
            left = size - len(meld)
            return self._meld_is_third(hand, notold, meld) or 0 < check.without(meld) < left

        def layoff_ok(card: int) -> bool:
            return 0 < check.without((card,)) < size - 1

        def swap_ok(card: int) -> bool:
            return 0 < check.without((), card) < size

        return meld_ok, layoff_ok, swap_ok

    def _completion_judges(self, seat: int, hand: list[int]) -> _Judges:
        """The same judges when opening points are due: the full completion check, after a
        quick test that a known completion survives."""
        search = self._turn_search(hand)
        assert search is not None  # reached only while opening points are due
        witness: list[tuple[int, ...]] | None = None
        if self.take_card != BARE_JOKER:
            witness = solver.completion_witness(hand, self.turn_notold, self.take_card,
                                                self.need, self.pending, search)
        size = self.hand_sizes[seat]
        swap_search: list[solver.HandSearch | None] = []

        def meld_ok(meld: tuple[int, ...]) -> bool:
            if witness and self._witness_survives(hand, meld, witness, size):
                return True
            return self._completes_after_meld(seat, meld, search)

        def layoff_ok(card: int) -> bool:
            return self._completes_after_removal(seat, card, False, search)

        def swap_ok(card: int) -> bool:
            if not swap_search:
                swap_search.append(self._swap_search(hand))
            return self._completes_after_removal(seat, card, True, swap_search[0])

        return meld_ok, layoff_ok, swap_ok

    def _witness_survives(self, hand: list[int], meld: tuple[int, ...],
                          witness: list[tuple[int, ...]], size: int) -> bool:
        """A quick sufficient test: after ``meld`` is laid, the melds of ``witness`` (a
        completion of the turn) other than ``meld`` itself can all still be laid."""
        rest = list(witness)
        if meld in rest:
            rest.remove(meld)
        elif self.pending:
            c_meld = witness[0]
            c_jokers = sum(1 for x in c_meld if x >= BARE_JOKER)
            m_jokers = sum(1 for x in meld if x >= BARE_JOKER)
            if c_jokers and m_jokers:
                return False  # the taken card's meld may lean on old jokers
        use = [0] * 53
        total = len(meld)
        for m in rest:
            total += len(m)
            for x in m:
                use[x if x < BARE_JOKER else BARE_JOKER] += 1
        if total >= size:
            return False
        for x in meld:
            k = x if x < BARE_JOKER else BARE_JOKER
            use[k] += 1
            if use[k] > hand[k]:
                return False
        return True

    def _swaps(self, seat: int, hand: list[int]) -> list[Action]:
        if not self.layout[seat]:
            return []
        out: list[Action] = []
        for m, tm in enumerate(self.melds):
            if not tm.jokers:
                continue
            if tm.kind == SET:
                rank = tm.suit_or_rank
                for s in range(4):
                    k = s * 13 + rank
                    if hand[k] and tm.swap_index(k) >= 0:
                        out.append(swap(m, k))
            else:
                for slot in tm.slots:
                    if JOKER_FOR <= slot < OPEN_JOKER and hand[slot - JOKER_FOR]:
                        out.append(swap(m, slot - JOKER_FOR))
        return out

    def _can_take(self, seat: int, i: int) -> bool:
        return i in self._take_positions(seat)

    def _completes_after_meld(self, seat: int, meld: tuple[int, ...],
                              search: solver.HandSearch | None = None) -> bool:
        hand = self.hands[seat]
        notold = self.turn_notold
        pending = self.pending
        if pending and self._meld_is_third(hand, notold, meld):
            pending = False
        need = self.need - solver.meld_points(meld) if self.opening else 0
        if not pending and need <= 0:
            return True  # the caller keeps a card to discard
        hand = hand.copy()
        notold = notold.copy()
        for s in meld:
            k = s if s < BARE_JOKER else BARE_JOKER
            hand[k] -= 1
            if notold[k]:
                notold[k] -= 1
        return solver.can_complete(hand, notold, self.take_card, need, pending, search,
                                   self.hand_sizes[seat] - len(meld), False,
                                   self.rules.joker_for_held)

    def _completes_after_removal(self, seat: int, card: int, swap: bool,
                                 search: solver.HandSearch | None = None) -> bool:
        hand = self.hands[seat].copy()
        notold = self.turn_notold.copy()
        hand[card] -= 1
        if notold[card]:
            notold[card] -= 1
        if swap:
            hand[BARE_JOKER] += 1
            notold[BARE_JOKER] += 1
        return solver.can_complete(hand, notold, self.take_card, self.need, self.pending,
                                   search, -1, False, self.rules.joker_for_held)

    def _meld_is_third(self, hand: list[int], notold: list[int],
                       meld: tuple[int, ...]) -> bool:
        """Whether ``meld`` holds the taken card and two cards held before the take."""
        return solver.is_third_card_meld(meld, self.take_card, hand, notold)

    # ------------------------------------------------------------------ validation

    def why_illegal(self, action: Action) -> str | None:
        """Why ``action`` is illegal now, in words; ``None`` when it is legal."""
        seat = self.to_move
        if seat is None:
            return "the deal is over"
        hand = self.hands[seat]
        kind = action.kind
        if self.phase == START:
            if kind == DRAW:
                return None
            if kind == SWAP and self.rules.swap_before_take:
                return self._swap_reason(seat, hand, action)
            if kind == TAKE:
                position = action.number
                if position is None or not 0 <= position < len(self.bank):
                    return (f"the bank has no position {position} (it holds "
                            f"{len(self.bank)} cards)")
                if self._can_take(seat, position):
                    return None
                return self._take_reason(seat, position)
            return f"the turn begins with draw or take, not {kind}"
        if kind in (DRAW, TAKE):
            return f"the player has already {'drawn' if self.phase == DRAWN else 'taken'}"
        if kind == DISCARD:
            card = action.slots[0]
            if not hand[card]:
                return f"{card_text(card)} is not in the hand"
            if self.phase == TAKEN:
                if self.pending:
                    return (f"the taken card {card_text(self.take_card)} must first be melded "
                            "with two cards held before the take")
                if self.need > 0:
                    return (f"an opening must lay melds worth {self.rules.opening_minimum}: "
                            f"{self.need} more needed")
            return None
        if kind == SWAP:
            return self._swap_reason(seat, hand, action)
        if self.phase == DRAWN:
            return "nothing is laid down on a turn that began with a draw (only joker swaps)"
        if kind == MELD:
            return self._meld_reason(seat, hand, action)
        if kind == LAYOFF:
            return self._layoff_reason(seat, hand, action)
        return f"unknown action kind {kind!r}"

    def _turn_search(self, hand: list[int]) -> solver.HandSearch | None:
        """The search the turn's completion checks use (the same in listing and
        validating): over the hand as it is, when an opening minimum is still due."""
        return solver.HandSearch(hand, self.rules.joker_for_held) if self.need > 0 else None

    def _swap_search(self, hand: list[int]) -> solver.HandSearch | None:
        """The same after a swap, which brings a joker into the hand: over the hand with it."""
        if self.need <= 0:
            return None
        plus = hand.copy()
        plus[BARE_JOKER] += 1
        return solver.HandSearch(plus, self.rules.joker_for_held)

    def _take_reason(self, seat: int, i: int) -> str:
        hand = self.hands[seat]
        card = self.bank[i]
        after, notold = solver.after_take(hand, self.bank, i)
        if not solver.third_card_melds(card, after, notold):
            return (f"{card_text(card)} does not make a meld with two cards held before the "
                    "take")
        if not self.layout[seat]:
            return (f"no opening worth {self.rules.opening_minimum} with a meld holding "
                    f"{card_text(card)} (and a card left to discard)")
        return "the turn could not be completed with a card left to discard"

    def _swap_reason(self, seat: int, hand: list[int], action: Action) -> str | None:
        if not self.layout[seat]:
            return "only a player who has laid down a meld may swap a joker"
        card = action.slots[0]
        if card >= BARE_JOKER:
            return "a joker is swapped for a card, not a joker"
        if not hand[card]:
            return f"{card_text(card)} is not in the hand"
        number = action.number
        if number is None or not 0 <= number < len(self.melds):
            return f"there is no meld {number}"
        if self.melds[number].swap_index(card) < 0:
            return (f"meld {number} ({self.melds[number].text()}) has no joker "
                    f"standing for {card_text(card)}")
        if self.phase == TAKEN and not self.obligations_met() and not \
                self._completes_after_removal(seat, card, True, self._swap_search(hand)) \
                and not self._exact_ok(seat, action):
            return "after this swap the turn could not be completed"
        return None

    def _meld_reason(self, seat: int, hand: list[int], action: Action) -> str | None:
        check = check_meld(action.slots)
        if not check.valid:
            return check.reason
        if check.readings > 1:
            return "a joker's card must be declared (X=card) where it is not forced"
        slots = check.slots
        need = counts_of([slot_card(s) for s in slots])
        for k in range(53):
            if need[k] > hand[k]:
                return f"{card_text(k)} is not in the hand" if need[k] == 1 or hand[k] == 0 \
                    else f"only {hand[k]} {card_text(k)} in the hand"
        if not self.rules.joker_for_held:
            for s in slots:
                if JOKER_FOR <= s < OPEN_JOKER and hand[s - JOKER_FOR]:
                    return (f"a joker may not stand for {card_text(s - JOKER_FOR)}, which the "
                            "player holds (rule joker_for_held=false)")
        if len(slots) >= self.hand_sizes[seat]:
            return "the player may not lay down the last card: one must be left to discard"
        if not self.obligations_met() and not self._completes_after_meld(
                seat, slots, self._turn_search(hand)) and not self._exact_ok(
                    seat, meld(slots)):
            return "after this meld the turn could not be completed"
        return None

    def _layoff_reason(self, seat: int, hand: list[int], action: Action) -> str | None:
        number = action.number
        if number is None or not 0 <= number < len(self.melds):
            return f"there is no meld {number}"
        slot = action.slots[0]
        card = slot_card(slot)
        if not hand[card]:
            return f"{card_text(card)} is not in the hand"
        tm = self.melds[number]
        if slot not in tm.layoff_slots(card):
            return f"{card_text(card)} does not extend meld {number} ({tm.text()})"
        if JOKER_FOR <= slot < OPEN_JOKER and hand[slot - JOKER_FOR] and \
                not self.rules.joker_for_held:
            return (f"a joker may not stand for {card_text(slot - JOKER_FOR)}, which the "
                    "player holds (rule joker_for_held=false)")
        if self.hand_sizes[seat] < 2:
            return "the player may not lay off the last card: one must be left to discard"
        if not self.obligations_met() and not self._completes_after_removal(
                seat, card, False, self._turn_search(hand)) and not self._exact_ok(seat, action):
            return "after this lay-off the turn could not be completed"
        return None

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is legal now."""
        return self.why_illegal(action) is None

    def play(self, action: Action | str) -> None:
        """Validate and apply an action (or its text); raise
        :class:`~konkun.errors.IllegalMoveError` saying why it is illegal."""
        if isinstance(action, str):
            action = self.parse_action(action)
        reason = self.why_illegal(action)
        if reason is not None:
            error = GameOverError if self.phase == OVER else IllegalMoveError
            raise error(action.text(), reason, self.kkn())
        self.push(action)

    # ------------------------------------------------------------------ applying

    def push(self, action: Action) -> None:
        """Apply a legal action without checking it (the fast path)."""
        seat = self.to_move
        assert seat is not None
        self.history.append(action)
        kind = action.kind
        if kind == DISCARD:
            self._discard(seat, action.slots[0])
        elif kind == DRAW:
            self._draw(seat)
        elif kind == MELD:
            self._meld(seat, action.slots)
        else:
            number = action.number
            assert number is not None  # take, layoff and swap name a position or a meld
            if kind == TAKE:
                self._take(seat, number)
            elif kind == LAYOFF:
                slot = action.slots[0]
                self._remove(seat, slot if slot < BARE_JOKER else BARE_JOKER)
                self.melds[number].lay_off(slot, seat)
            elif kind == SWAP:
                self._swap(seat, number, action.slots[0])

    def _swap(self, seat: int, number: int, card: int) -> None:
        self._remove(seat, card)
        self.melds[number].swap(card)
        self.hands[seat][BARE_JOKER] += 1
        self.hand_sizes[seat] += 1
        if self.phase == TAKEN:
            self.turn_notold[BARE_JOKER] += 1

    def _remove(self, seat: int, card: int) -> None:
        self.hands[seat][card] -= 1
        self.hand_sizes[seat] -= 1
        if self.taken[seat][card]:
            self.taken[seat][card] -= 1
        if self.turn_notold[card]:
            self.turn_notold[card] -= 1

    def _draw(self, seat: int) -> None:
        if not self.stock:
            if self.stock_renewable():
                self.stock = self.bank[::-1]
                self.bank = []
                self.renewals += 1
            else:
                self._end(None)
                return
        card = self.stock.pop()
        self.hands[seat][card] += 1
        self.hand_sizes[seat] += 1
        self.phase = DRAWN

    def _take(self, seat: int, i: int) -> None:
        cards = self.bank[i:]
        del self.bank[i:]
        hand = self.hands[seat]
        taken = self.taken[seat]
        notold = self.turn_notold
        for c in cards:
            hand[c] += 1
            taken[c] += 1
            notold[c] += 1
        self.hand_sizes[seat] += len(cards)
        self.take_card = cards[0]
        self.pending = True
        self.opening = not self.layout[seat]
        self.need = self.rules.opening_minimum if self.opening else 0
        self.phase = TAKEN

    def _meld(self, seat: int, meld: tuple[int, ...]) -> None:
        if self.pending and self._meld_is_third(self.hands[seat], self.turn_notold, meld):
            self.pending = False
        if self.opening:
            self.need -= sum(slot_value(s) for s in meld)
        for s in meld:
            self._remove(seat, s if s < BARE_JOKER else BARE_JOKER)
        self.melds.append(TableMeld(seat, meld))
        self.layout[seat] = True

    def _discard(self, seat: int, card: int) -> None:
        self._remove(seat, card)
        self.bank.append(card)
        if self.hand_sizes[seat] == 0:
            self.express = self.phase == TAKEN and self.opening
            self._end(seat)
            return
        self.to_move = (seat + 1) % self.num_seats
        self.phase = START
        self._reset_turn()

    def _end(self, winner: int | None) -> None:
        self.winner = winner
        self.to_move = None
        self.phase = OVER
        self._reset_turn()

    def perft(self, depth: int) -> int:
        """The number of action sequences of length ``depth`` from here (``perft(0)`` is 1;
        a finished deal has no actions). Each action is one step: a turn is several."""
        if depth <= 0:
            return 1
        actions = self.legal_actions()
        if depth == 1:
            return len(actions)
        total = 0
        for action in actions:
            child = self.copy()
            child.push(action)
            total += child.perft(depth - 1)
        return total

    def perft_divide(self, depth: int) -> list[tuple[Action, int]]:
        """For each legal action (in :meth:`legal_actions` order), the number of action
        sequences of length ``depth`` that start with it."""
        counts = []
        for action in self.legal_actions():
            child = self.copy()
            child.push(action)
            counts.append((action, child.perft(depth - 1)))
        return counts

    # ------------------------------------------------------------------ text

    def format_action(self, action: Action) -> str:
        """The text of an action (docs/kunken.md, Actions)."""
        return action.text()

    def parse_action(self, text: str) -> Action:
        """Read an action's text into its canonical action: a meld's cards in any order,
        a joker read where it is forced (raise
        :class:`~konkun.errors.InvalidNotationError` when the text is not an action)."""
        action = parse_action(text)
        if action.kind == MELD:
            check = check_meld(action.slots)
            if check.valid and check.readings == 1:
                return meld(check.slots)
            if check.valid:
                options = " or ".join(" ".join(_slot_texts(r)) for r in check.alternatives)
                raise InvalidNotationError(f"invalid action {text!r}: declare the joker "
                                           f"(X=card): {options}")
            return action
        number = action.number
        if action.kind != LAYOFF or number is None or not 0 <= number < len(self.melds):
            return action
        if action.slots[0] == BARE_JOKER:
            slots = self.melds[number].layoff_slots(BARE_JOKER)
            if len(slots) == 1:
                return layoff(number, slots[0])
            if len(slots) > 1:
                raise InvalidNotationError(
                    f"invalid action {text!r}: declare the joker: "
                    + " or ".join(f"X={card_text(s - JOKER_FOR)}" for s in slots))
        if JOKER_FOR <= action.slots[0] < OPEN_JOKER and self.melds[number].kind == SET:
            card = action.slots[0] - JOKER_FOR
            return layoff(number, OPEN_JOKER + card % 13)
        return action

    def observe(self, seat: int) -> Observation[Action]:
        """What ``seat`` knows now (:class:`~konkun.kunken.observation.KunkenObservation`)."""
        view: Observation[Action] = _VIEWS["observation"](self, seat)
        return view

    # ------------------------------------------------------------------ JSON

    def to_json(self) -> dict[str, Any]:
        """The full state as JSON data; :meth:`from_json` reads it back exactly."""
        return {
            "game": "kunken",
            "rules": self.rules.to_json(),
            "num_seats": self.num_seats,
            "dealer": self.dealer,
            "to_move": self.to_move,
            "phase": self.phase,
            "hands": [[card_text(k) for k in cards_of(h)] for h in self.hands],
            "stock": [card_text(k) for k in reversed(self.stock)],
            "bank": [card_text(k) for k in self.bank],
            "melds": [m.to_json() for m in self.melds],
            "taken_held": [[card_text(k) for k in cards_of(t)] for t in self.taken],
            "has_layout": self.layout.copy(),
            "renewals_used": self.renewals,
            "turn": {
                "taken_card": card_text(self.take_card) if self.take_card >= 0 else None,
                "pending": self.pending,
                "need": self.need,
                "opening": self.opening,
                "not_old": [card_text(k) for k in cards_of(self.turn_notold)],
            },
            "winner": self.winner,
            "express": self.express,
            "history": [a.text() for a in self.history],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> KunkenDeal:
        """A deal from :meth:`to_json` data."""
        deal: KunkenDeal = _VIEWS["from_json"](data)
        return deal

    def __repr__(self) -> str:
        return (f"<KunkenDeal seats={self.num_seats} to_move={self.to_move} "
                f"phase={self.phase} stock={len(self.stock)} bank="
                f"{''.join(card_text(c) for c in self.bank) or '-'}>")


def new_deal(rules: KunkenRules, num_seats: int, dealer: int,
             rng: random.Random) -> KunkenDeal:
    """A new deal: the pack shuffled with ``rng`` (:func:`konkun.cards.shuffled`), 13 cards
    to each player one at a time from the seat left of ``dealer``, one card face up to start
    the bank, the rest the stock; the seat left of the dealer plays first. The same rules,
    seats, dealer and ``rng`` state give the same deal (the arena's duplicate deals)."""
    check_seat_count("Kunken", num_seats, MIN_SEATS, MAX_SEATS)
    check_dealer(num_seats, dealer)
    pack = [c.index for c in shuffled(double_deck(rules.jokers), rng)]
    hands = [[0] * 53 for _ in range(num_seats)]
    pos = 0
    for _ in range(rules.hand_size):
        for i in range(num_seats):
            hands[(dealer + 1 + i) % num_seats][pack[pos]] += 1
            pos += 1
    empty: tuple[int, ...] = ()
    return KunkenDeal.from_position(KunkenPosition(
        rules=rules, dealer=dealer, hands=tuple(tuple(cards_of(h)) for h in hands),
        stock=tuple(pack[pos + 1:]), bank=(pack[pos],), melds=(),
        taken=(empty,) * num_seats, layout=(False,) * num_seats,
        to_move=(dealer + 1) % num_seats))


def _slot_texts(slots: tuple[int, ...]) -> list[str]:
    from konkun.kunken.melds import slot_text

    return [slot_text(s) for s in slots]


__all__ = ["DRAWN", "OVER", "PHASES", "START", "TAKEN", "KunkenDeal", "new_deal"]
