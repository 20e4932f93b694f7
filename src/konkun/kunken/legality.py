"""Why an action is illegal in a Kunken deal, in words (:class:`Legality`): the reasons
``why_illegal`` gives and ``play`` raises.
"""

from __future__ import annotations

from collections.abc import Callable

from konkun.kunken import solver
from konkun.kunken.actions import (
    DISCARD,
    DRAW,
    LAYOFF,
    MELD,
    SWAP,
    TAKE,
    Action,
    meld,
)
from konkun.kunken.deal_fields import DRAWN, START, TAKEN, counts_of
from konkun.kunken.legal_steps import IDENTITY_ONLY, IDENTITY_TAKEN, IDENTITY_TOO, LegalSteps
from konkun.kunken.melds import (
    BARE_JOKER,
    JOKER_FOR,
    OPEN_JOKER,
    card_text,
    check_meld,
    slot_card,
)


class Legality(LegalSteps):
    """``why_illegal`` and ``is_legal``."""

    __slots__ = ()

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
            if kind == SWAP and self.swap_before_take:
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
        if self.phase == TAKEN and not self.obligations_met() and not self._step_completes(
                seat, action, lambda: self._completes_after_removal(
                    seat, card, True, self._swap_search(hand))
                or self.completes_after_step(seat, action)):
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
        if not self.joker_for_held:
            for s in slots:
                if JOKER_FOR <= s < OPEN_JOKER and hand[s - JOKER_FOR]:
                    return (f"a joker may not stand for {card_text(s - JOKER_FOR)}, which the "
                            "player holds (rule joker_for_held=false)")
        if len(slots) >= self.hand_sizes[seat]:
            return "the player may not lay down the last card: one must be left to discard"
        if not self.obligations_met() and not self._step_completes(
                seat, meld(slots), lambda: self._completes_after_meld(
                    seat, slots, self._turn_search(hand))
                or self.completes_after_step(seat, meld(slots))):
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
                not self.joker_for_held:
            return (f"a joker may not stand for {card_text(slot - JOKER_FOR)}, which the "
                    "player holds (rule joker_for_held=false)")
        if self.hand_sizes[seat] < 2:
            return "the player may not lay off the last card: one must be left to discard"
        if not self.obligations_met() and not self._step_completes(
                seat, action, lambda: self._completes_after_removal(
                    seat, card, False, self._turn_search(hand))
                or self.completes_after_step(seat, action)):
            return "after this lay-off the turn could not be completed"
        return None

    def _step_completes(self, seat: int, action: Action, by_counts: Callable[[], bool]
                        ) -> bool:
        """Whether the take turn can still be completed after a meld, lay-off or swap:
        ``by_counts`` (the count checks) or, where a joker's identity may matter
        (:meth:`identity_kind`), :meth:`identity_completes`."""
        kind = self.identity_kind(seat, action)
        if kind in (IDENTITY_ONLY, IDENTITY_TAKEN):
            return self.identity_completes(action)
        return by_counts() or (kind == IDENTITY_TOO and self.identity_completes(action))

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is legal now."""
        return self.why_illegal(action) is None

