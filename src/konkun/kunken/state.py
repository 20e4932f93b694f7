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
from collections.abc import Iterable
from typing import Any

from konkun.cards import double_deck, shuffled
from konkun.errors import GameOverError, IllegalMoveError, InvalidNotationError
from konkun.game import Observation, check_dealer, check_seat_count
from konkun.kunken.actions import (
    LAYOFF,
    MELD,
    Action,
    layoff,
    meld,
    parse_action,
)
from konkun.kunken.applying import Applying
from konkun.kunken.deal_fields import (
    DRAWN,
    OVER,
    PHASES,
    START,
    TAKEN,
    cards_of,
    copy_public_state,
    counts_of,
    install_view,
    installed_view,
)
from konkun.kunken.kkn import format_kkn, mark_text
from konkun.kunken.melds import (
    BARE_JOKER,
    JOKER_FOR,
    OPEN_JOKER,
    SET,
    VALUE,
    TableMeld,
    card_text,
    check_meld,
    slot_value,
)
from konkun.kunken.position import KunkenPosition, MeldPosition, Phase, TakeTurn
from konkun.kunken.rules import MAX_SEATS, MIN_SEATS, KunkenRules
from konkun.kunken.scoring import deal_points


class KunkenDeal(Applying):
    """One deal of Kunken: hands, stock, bank, melds and the turn in progress.

    Build one with :func:`new_deal` (a shuffled deal) or :meth:`from_json`. Cards are integers
    (``Card.index``, joker 52); :mod:`konkun.kunken.melds` explains meld slots. Its fields
    are :class:`~konkun.kunken.deal_fields.DealFields`'; listing the legal actions, saying
    why one is illegal and applying one live in :mod:`~konkun.kunken.legal_steps`,
    :mod:`~konkun.kunken.legality` and :mod:`~konkun.kunken.applying`.
    """

    __slots__ = ()


    # ------------------------------------------------------------------ construction

    @classmethod
    def from_position(cls, position: KunkenPosition,
                      history: Iterable[Action] = ()) -> KunkenDeal:
        """A deal that plays on from ``position`` exactly as the deal it was taken from
        (unchecked: :func:`~konkun.kunken.kkn.parse_kkn` checks text); ``history``: the
        actions that led to it, if known (a position does not hold them)."""
        deal = cls()
        deal.set_rules(position.rules)
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
        deal.drawn = []
        turn = position.turn
        deal.take_card = -1 if turn is None else turn.taken_card
        deal.pending = turn is not None and turn.pending
        deal.need = 0 if turn is None else turn.need
        deal.opening = turn is not None and turn.opening
        deal.turn_notold = counts_of(turn.not_old if turn is not None else ())
        deal.turn_marks = list(turn.marks) if turn is not None else []
        return deal

    def position(self) -> KunkenPosition:
        """The deal now as a frozen value (:class:`~konkun.kunken.position.KunkenPosition`):
        :meth:`from_position` of it plays on exactly as this deal."""
        turn = None
        if self.phase == TAKEN:
            turn = TakeTurn(self.take_card, self.pending, self.need, self.opening,
                            tuple(cards_of(self.turn_notold)), tuple(sorted(self.turn_marks)))
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

    def copy(self) -> KunkenDeal:
        """An independent copy."""
        d = KunkenDeal()
        d.set_rules(self.rules)
        d.num_seats = self.num_seats
        d.dealer = self.dealer
        d.hands = [h.copy() for h in self.hands]
        d.hand_sizes = self.hand_sizes.copy()
        d.stock = self.stock.copy()
        d.bank = self.bank.copy()
        copy_public_state(self, d)
        d.history = self.history.copy()
        d.drawn = self.drawn.copy()
        return d

    def scratch_copy(self, step: Action) -> KunkenDeal:
        """A copy to try ``step`` (a meld, lay-off or swap of the seat to move in a take
        turn) on: its own copy of what the step changes (the mover's hand and taken cards,
        the list of melds and the meld laid off onto or swapped with, the layouts and the
        turn), everything else shared (the step leaves it as it is) and no history."""
        seat = self.to_move
        assert seat is not None  # a take turn
        d = KunkenDeal()
        d.set_rules(self.rules)
        d.num_seats = self.num_seats
        d.dealer = self.dealer
        d.hands = self.hands.copy()
        d.hands[seat] = self.hands[seat].copy()
        d.hand_sizes = self.hand_sizes.copy()
        d.stock = self.stock
        d.bank = self.bank
        d.melds = self.melds.copy()
        number = step.number
        if step.kind != MELD and number is not None:
            d.melds[number] = self.melds[number].copy()
        d.taken = self.taken.copy()
        d.taken[seat] = self.taken[seat].copy()
        d.layout = self.layout.copy()
        d.renewals = self.renewals
        d.to_move = seat
        d.phase = self.phase
        d.winner = self.winner
        d.express = self.express
        d.take_card = self.take_card
        d.pending = self.pending
        d.need = self.need
        d.opening = self.opening
        d.turn_notold = self.turn_notold.copy()
        d.turn_marks = self.turn_marks.copy()
        d.history = []
        d.drawn = []
        return d

    @classmethod
    def determinized(cls, public: Any, hands: list[list[int]],
                     stock: list[int]) -> KunkenDeal:
        """A deal with the public part of ``public`` (a deal or a
        :class:`~konkun.kunken.observation.KunkenObservation`: rules, dealer, bank, melds,
        taken cards, layouts, renewals, the turn) and the hidden part given: ``hands`` (count
        vectors, kept) and ``stock`` (kept; the next card to draw last). The fast path of
        determinization (``sample_deal``); unchecked, no history."""
        d = cls()
        d.set_rules(public.rules)
        d.num_seats = public.num_seats
        d.dealer = public.dealer
        d.hands = hands
        d.hand_sizes = [sum(h) for h in hands]
        d.stock = stock
        d.bank = public.bank.copy()
        copy_public_state(public, d)
        d.history = []
        d.drawn = []
        return d

    # ------------------------------------------------------------------ queries

    def is_over(self) -> bool:
        """True once the deal has ended (a player went out, or the stock ran out)."""
        return self.phase == OVER

    def play_randomly(self, rng: random.Random) -> None:
        """Play to the end of the deal, each move drawn uniformly from the legal actions
        with ``rng.random()`` (what :class:`konkun.bots.policy.SearchPolicy`'s random
        play-outs play, here in one compiled loop, without a Python call per move)."""
        draw = rng.random
        while self.phase != OVER:
            legal = self.legal_actions()
            self.push(legal[int(draw() * len(legal))])

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
        view: Observation[Action] = installed_view("observation")(self, seat)
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
            "phase": str(self.phase),
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
                "joker_marks": [mark_text(m) for m in sorted(self.turn_marks)],
            },
            "winner": self.winner,
            "express": self.express,
            "history": [a.text() for a in self.history],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> KunkenDeal:
        """A deal from :meth:`to_json` data."""
        deal: KunkenDeal = installed_view("from_json")(data)
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


__all__ = ["DRAWN", "OVER", "PHASES", "START", "TAKEN", "KunkenDeal", "cards_of",
           "copy_public_state", "counts_of", "install_view", "new_deal"]
