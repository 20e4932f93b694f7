"""The legal actions of a Kunken deal (:class:`LegalSteps`): the turn's phases, and after a
take only the steps after which the turn can still be completed (the completion checks of
:mod:`~konkun.kunken.solver` and :mod:`~konkun.kunken.completion`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final, TypeVar, cast

from konkun.kunken import completion, solver
from konkun.kunken.actions import (
    DISCARDS,
    DRAW_ACTION,
    LAYOFF,
    MELD,
    SWAP,
    Action,
    layoff,
    meld,
    swap,
    take,
)
from konkun.kunken.arrangement import C_SEARCH
from konkun.kunken.deal_fields import DRAWN, SET_JOKER, START, DealFields, mark_key, mark_meld
from konkun.kunken.melds import (
    BARE_JOKER,
    JOKER_FOR,
    OPEN_JOKER,
    SET,
    TableMeld,
    meld_kind,
    slot_card,
)

COUNTS: Final = 0
""":meth:`LegalSteps.identity_kind`: the count checks decide."""
IDENTITY_TOO: Final = 1
""":meth:`LegalSteps.identity_kind`: the count checks' no is asked again."""
IDENTITY_ONLY: Final = 2
""":meth:`LegalSteps.identity_kind`: only the identity check decides."""
IDENTITY_TAKEN: Final = 3
""":meth:`LegalSteps.identity_kind`: the step lays the taken joker, which only winning it
back can make the third card again."""

SwapThirdList = Callable[
    [list[int], list[int], int, completion.Table, list[tuple[int, ...]], int,
     list[list[tuple[int, int]]], list[Action]],
    tuple[list[tuple[int, ...]], list[tuple[int, int]], list[Action]]]
"""The C core's ``hand_search.swap_third_list``: given the hand, the cards not held before
the take, the taken card, the table (every meld's compact form), the candidate melds, the
hand's size, each table meld's lay-off options (:meth:`TableMeld.layoff_options`) and the
candidate swaps, the legal melds, lay-offs (meld number, slot) and swaps of
:meth:`LegalSteps.reference_swap_third_actions`."""


def _c_swap_third_list() -> SwapThirdList | None:
    """The C core's legal list while only the taken card's meld is due with a layout, when
    the C core is built and in use."""
    if completion.C_SWAP_THIRD_MELDS is None:
        return None
    from konkun.kunken import hand_search
    return hand_search.swap_third_list


C_SWAP_THIRD_LIST: Final = _c_swap_third_list()
"""The legal list of :meth:`LegalSteps._swap_third_actions` in C
(``konkun.kunken.hand_search.swap_third_list``: its melds as
:data:`completion.C_SWAP_THIRD_MELDS` judges them, then each candidate lay-off and swap
legal when the shortest third-card meld over every choice of swaps after it, with the table
as it leaves it, is shorter than the hand it leaves), or ``None`` when it is not built (then
:meth:`LegalSteps.reference_swap_third_actions`)."""


ThirdCardList = Callable[
    [list[int], list[int], int, int, bool, completion.Table, bool, list[tuple[int, ...]], int,
     list[Action]],
    tuple[list[tuple[int, ...]], list[tuple[int, int]], list[Action]]]
"""The C core's ``hand_search.third_card_list``: given the hand, the cards not held before
the take, the taken card, the points due (none), whether the seat has a layout, the table
(every meld's compact form), ``joker_for_held``, the candidate melds, the hand's size and
the candidate swaps, the legal melds, lay-offs (meld number, slot) and swaps of
:meth:`LegalSteps.reference_third_card_actions`."""


def _c_third_card_list() -> ThirdCardList | None:
    """The C core's legal list while the taken card's meld is due and no points are
    (outside the swap-third case), when the C core is built and in use (its judge, which
    the list asks, configured)."""
    if completion.C_JUDGE is None:
        return None
    from konkun.kunken import hand_search
    return hand_search.third_card_list


C_THIRD_CARD_LIST: Final = _c_third_card_list()
"""The legal list of :meth:`LegalSteps._third_card_actions` in C
(``konkun.kunken.hand_search.third_card_list``: each step kept when the taken card's
shortest meld with two old cards after it leaves a card, else when the exact judge says so,
as the reference judges them), or ``None`` when it is not built (then
:meth:`LegalSteps.reference_third_card_actions`)."""


def _c_candidate_melds() -> Callable[[list[int], bool], list[tuple[int, ...]]] | None:
    """The C core's candidate melds of a hand, when the C core is built and in use."""
    if C_SEARCH is None:
        return None
    from konkun.kunken import hand_search
    return hand_search.candidate_melds


C_CANDIDATE_MELDS: Final = _c_candidate_melds()
""":meth:`LegalSteps.candidate_melds` in C (``konkun.kunken.hand_search.candidate_melds``:
the melds of the groups the C search lists, kept as ready tuples per group, then the
declared readings of each set of three), or ``None`` when it is not built (then
:meth:`LegalSteps.reference_candidate_melds`)."""

IdentityVerdicts = Callable[
    [list[int], list[int], int, int, bool, completion.Table, bool, list[int], list[Action]],
    list[bool]]
"""The C core's ``hand_search.identity_verdicts``: given the hand, the cards not held before
the take, the taken card, the points due, the layout, the table (every meld's compact form),
the rule option ``joker_for_held``, the turn's joker marks and the steps (melds, lay-offs,
swaps) of a take turn whose taken card is still to be melded, whether the turn can be
completed after each (:meth:`LegalSteps.reference_identity_completes`)."""


def _c_identity_verdicts() -> IdentityVerdicts | None:
    """The C core's identity verdicts, when the C core is built and in use."""
    if completion.C_JUDGE is None:
        return None
    from konkun.kunken import hand_search
    return hand_search.identity_verdicts


C_IDENTITY_VERDICTS: Final = _c_identity_verdicts()
""":meth:`LegalSteps.identity_verdicts` in C (``konkun.kunken.hand_search.identity_verdicts``:
the turn after each step made as :meth:`Applying.push` makes it, its joker marks too, without
a copy of the deal, then :func:`completion.completable_marked` over the C judge), or ``None``
when it is not built (then :meth:`LegalSteps.reference_identity_completes`)."""

_T = TypeVar("_T")
_Judge = Callable[[_T], bool]
_Judges = tuple[_Judge[tuple[int, ...]], _Judge[int], _Judge[int]]
"""Whether a step leaves the turn completable: a meld (its slots), a lay-off (the card),
a swap (the card given for the joker)."""


class LegalSteps(DealFields):
    """Listing the legal actions, and the completion checks behind them."""

    __slots__ = ()

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to act, each once (empty when the deal is over)."""
        seat = self.to_move
        if seat is None:
            return []
        hand = self.hands[seat]
        phase = self.phase
        if phase == START:
            out = [DRAW_ACTION]
            for i in self._take_positions(seat):
                out.append(take(i))
            if self.swap_before_take:
                out += self.swap_steps(seat, hand)
            return out
        if phase == DRAWN:
            out = self.swap_steps(seat, hand)
            out += self._discards(hand)
            return out
        return self._taken_actions(seat, hand)

    def _taken_actions(self, seat: int, hand: list[int]) -> list[Action]:
        """The legal steps after a take: melds, lay-offs, swaps and (once the turn's
        obligations are met) discards, each kept only if the turn can still be completed.
        Where a joker's identity may matter (:meth:`identity_kind`) the steps are judged
        again by :meth:`identity_completes`."""
        if not self.pending:
            return self._count_taken_actions(seat, hand)
        if self.turn_marks and self.taken_joker_out():
            steps = self.taken_candidates(seat, hand)
            return [a for a, ok in zip(steps, self.identity_verdicts(steps), strict=True)
                    if ok]
        if hand[BARE_JOKER] <= self.turn_notold[BARE_JOKER] - (
                1 if self.take_card == BARE_JOKER else 0):
            laid_marked = False  # every joker laid is a new one: no step marks one
        else:
            laid_marked = True
        if self.turn_marks and self._marks_winnable(hand):
            out = self._count_taken_actions(seat, hand)
            # Jokers held before the take lie on the table: the count checks read them as
            # jokers a swap wins new, a path the player has, so their yes stands.
            kept = set(out)
            candidates = self.taken_candidates(seat, hand)
            asked = [a for a in candidates if a not in kept]
            verdicts = self.identity_verdicts(asked)
            if not any(verdicts):
                return out
            more = iter(verdicts)
            return [a for a in candidates if a in kept or next(more)]
        # No mark on the table can be won back (the cards that could are not in the hand,
        # and cards only leave it): those jokers are table jokers like any other, as the
        # count checks read them; only a step marking a joker a card left wins back needs
        # more.
        if not laid_marked:
            return self._count_taken_actions(seat, hand)
        melds = self.candidate_melds(hand)
        return self._won_back_list(seat, hand, melds,
                                   self._count_taken_actions(seat, hand, melds))

    def _won_back_list(self, seat: int, hand: list[int], melds: list[tuple[int, ...]],
                       out: list[Action]) -> list[Action]:
        """:meth:`_taken_actions` when no joker is marked yet and a step may mark one (the
        hand holds jokers held before the take, or the taken joker): ``out``, the count
        checks' list from the candidate ``melds``, with the melds and lay-offs laying such
        jokers judged again where the count checks' verdict may be wrong
        (:meth:`_meld_won_back`, :meth:`_layoff_won_back`; :data:`IDENTITY_TOO` and
        :data:`IDENTITY_TAKEN`). The count checks' verdicts are read off ``out`` in order
        (it lists the candidates it keeps in the candidate order), so the common case costs
        a walk over the candidates and no set of actions."""
        size = self.hand_sizes[seat]
        count = len(out)
        notold = self.turn_notold
        taken_held = 1 if self.take_card == BARE_JOKER else 0
        new = notold[BARE_JOKER] - taken_held
        shown: list[tuple[int, ...]] = []
        kept: list[bool] = []  # the count checks' verdict on each meld of shown
        at = 0
        for slots in melds:
            if len(slots) < size:
                shown.append(slots)
                # Only a meld's slots are three or more long: out holds the kept melds first.
                ok = at < count and out[at].slots == slots
                if ok:
                    at += 1
                kept.append(ok)
        melds_end = at
        counted: dict[tuple[int, ...], bool] | None = None
        final: list[bool] | None = None  # the verdicts, once one differs from kept
        for i, slots in enumerate(shown):
            jokers = 0
            for x in slots:
                if x >= BARE_JOKER:
                    jokers += 1
            if jokers <= new:
                continue  # new jokers only: no joker is marked
            laying_taken = taken_held == 1 and jokers >= hand[BARE_JOKER]
            if not laying_taken and (kept[i] or not self._wins_laid_joker(hand, slots)):
                continue  # the count checks' yes stands; or no joker laid can come back
            if self._meld_is_third(hand, notold, slots):
                continue  # the taken card's meld: no joker is marked
            if counted is None:
                counted = dict(zip(shown, kept, strict=True))
            verdict = self._meld_won_back(hand, slots, jokers, new, laying_taken, counted)
            ok = self.identity_completes(meld(slots)) if verdict < 0 else verdict == 1
            if ok != kept[i]:
                if final is None:
                    final = kept.copy()
                final[i] = ok
        layoffs: list[tuple[int, int, bool]] | None = None
        layoffs_end = melds_end
        if new <= 0 and size >= 2 and hand[BARE_JOKER]:
            layoffs, layoffs_end = self._won_back_layoffs(seat, hand, out, melds_end)
        if final is None and layoffs is None:
            return out
        result = [meld(slots) for slots, ok in zip(shown, final or kept, strict=True) if ok]
        if layoffs is None:
            result += out[melds_end:]
        else:
            result += [layoff(m, slot) for m, slot, ok in layoffs if ok]
            result += out[layoffs_end:]
        return result

    def _won_back_layoffs(self, seat: int, hand: list[int], out: list[Action],
                          start: int) -> tuple[list[tuple[int, int, bool]] | None, int]:
        """:meth:`_won_back_list` for the lay-offs, when a joker laid off is one held before
        the take or the taken joker (no new joker in the hand): every candidate lay-off
        (meld, slot, verdict) in the candidate order if a verdict differs from the count
        checks' (``out`` from ``start`` on, in the same order), else None; and where the
        lay-offs end in ``out``."""
        count = len(out)
        replace = self.joker_for_held
        laying_taken = self.take_card == BARE_JOKER and hand[BARE_JOKER] <= 1
        at = start
        found: list[tuple[int, int, bool]] = []
        changed = False
        for m, tm in enumerate(self.melds):
            first = len(found)
            jokers = False
            for k, slot in tm.layoff_options():
                if not hand[k] or (JOKER_FOR <= slot < OPEN_JOKER and not replace
                                   and hand[slot - JOKER_FOR]):
                    continue
                ok = False
                if at < count:
                    action = out[at]
                    ok = action.kind == LAYOFF and action.number == m and \
                        action.slots[0] == slot
                    if ok:
                        at += 1
                found.append((m, slot, ok))
                if k == BARE_JOKER:
                    jokers = True
            if not jokers:
                continue
            options = found[first:]
            for j, (_, slot, ok) in enumerate(options):
                if slot < BARE_JOKER or (ok and not laying_taken):
                    continue
                winners = self.layoff_joker_winners(tm, slot)
                if not laying_taken and not any(hand[w] for w in winners):
                    continue  # the count checks' no stands: no card wins the joker back
                verdict = self._layoff_won_back(seat, hand, winners, options)
                now = self.identity_completes(layoff(m, slot)) if verdict < 0 \
                    else verdict == 1
                if now != ok:
                    found[first + j] = (m, slot, now)
                    changed = True
        return (found if changed else None), at

    def _layoff_won_back(self, seat: int, hand: list[int], winners: list[int],
                         options: list[tuple[int, int, bool]]) -> int:
        """The verdict on laying off a joker held before the take (or the taken joker) that
        the cards ``winners`` could win back: laying it and winning it back at once (the only
        way it helps, and as good as later) is laying off, instead of the joker, the card
        that wins it back, whose verdict ``options`` (the meld's candidate lay-offs: meld,
        slot, the count checks' verdict) has. 1 yes, 0 no, -1 when that does not apply
        (no layout for the swap, a lay-off not among the candidates, two copies of the taken
        card). Winning it back with the only copy of the taken card leaves the turn unable
        to lay the taken card's meld, so that way is never a completion."""
        if not self.layout[seat]:
            return -1
        for k in winners:
            if not hand[k]:
                continue
            if k == self.take_card:
                if hand[k] == 1:
                    continue
                return -1
            verdict = -1
            for _, slot, ok in options:
                if slot == k:
                    verdict = 1 if ok else 0
            if verdict < 0:
                return -1
            if verdict:
                return 1
        return 0

    def _meld_won_back(self, hand: list[int], slots: tuple[int, ...], jokers: int, new: int,
                       laying_taken: bool, counted: dict[tuple[int, ...], bool]) -> int:
        """The verdict on a meld the count checks refused that lays ``jokers`` jokers, of
        which all but ``new`` new ones are held before the take, so marked (or that lays the
        taken joker, ``laying_taken``, whatever they said): laying it and winning back some
        of its marked jokers at once (the only way they help, and as good as later:
        :func:`completion.completable_marked`) is laying, instead of those jokers, the cards
        that win them back, and the count checks judged that meld too (``counted``: each
        candidate meld's verdict). 1 yes, 0 no, -1 when that does not apply (a meld not
        among the candidates or that would be the taken card's, two copies of the taken
        card among the winners)."""
        if self.melds_kind(slots) == SET:
            options = self._set_won_back(hand, slots, laying_taken)
        else:
            options = self._sequence_won_back(hand, slots, jokers, new, laying_taken)
        if options is None:
            return -1
        notold = self.turn_notold
        for instead in options:
            verdict = counted.get(instead)
            if verdict is None or self._meld_is_third(hand, notold, instead):
                return -1  # the step laid is not the taken card's meld: its stand-in neither
            if verdict:
                return 1
        return 0

    def _winner_usable(self, hand: list[int], k: int) -> int:
        """Whether winning a joker back with ``k`` (a card of the hand) can help: 1 yes, 0 no
        (``k`` is the only copy of the taken card: the taken card's meld could never be
        laid), -1 unknown (a copy of the taken card among two)."""
        if k != self.take_card:
            return 1
        return 0 if hand[k] == 1 else -1

    def _sequence_won_back(self, hand: list[int], slots: tuple[int, ...], jokers: int,
                           new: int, laying_taken: bool) -> list[tuple[int, ...]] | None:
        """:meth:`_meld_won_back` for a sequence: the melds laid instead (every choice of its
        marked jokers won back, each by the card it stands for). The jokers are laid in
        order: the ``new`` ones first (not marked), then those held before the take, then
        (``laying_taken``) the taken joker last, which must come back. None: unknown."""
        marked: list[int] = []
        taken_at = -1
        seen = 0
        for i, x in enumerate(slots):
            if x < BARE_JOKER:
                continue
            seen += 1
            if x >= OPEN_JOKER:
                return None
            if seen <= new:
                continue
            k = x - JOKER_FOR
            usable = self._winner_usable(hand, k) if hand[k] else 0
            if usable < 0:
                return None
            if usable:
                if laying_taken and seen == jokers:
                    taken_at = len(marked)
                marked.append(i)
        if laying_taken and taken_at < 0:
            return []  # the taken joker cannot come back
        options: list[tuple[int, ...]] = []
        for choice in range(1, 1 << len(marked)):
            if taken_at >= 0 and not choice >> taken_at & 1:
                continue
            replaced = list(slots)
            for bit, i in enumerate(marked):
                if choice >> bit & 1:
                    replaced[i] -= JOKER_FOR
            options.append(tuple(replaced))
        return options

    def _set_won_back(self, hand: list[int], slots: tuple[int, ...],
                      laying_taken: bool) -> list[tuple[int, ...]] | None:
        """:meth:`_meld_won_back` for a set: the melds laid instead (every choice of its
        jokers won back: a declared one by its card, an open one by a missing suit). Any of
        a set's jokers comes back as the best one laid (the taken joker, then those held
        before the take), so the choice's size alone says what comes back. None: unknown."""
        reals: list[int] = []
        declared: list[int] = []
        opened: list[int] = []
        present = 0
        for x in slots:
            if x < BARE_JOKER:
                reals.append(x)
                present |= 1 << x // 13
            elif x < OPEN_JOKER:
                declared.append(x)
                present |= 1 << (x - JOKER_FOR) // 13
            else:
                opened.append(x)
        rank = self._set_rank(slots)
        open_winners: list[int] = []
        if opened:
            for t in range(4):
                k = t * 13 + rank
                if not present >> t & 1 and hand[k]:
                    usable = self._winner_usable(hand, k)
                    if usable < 0:
                        return None
                    if usable:
                        open_winners.append(k)
        declared_winners: list[int] = []
        for x in declared:
            k = x - JOKER_FOR
            usable = self._winner_usable(hand, k) if hand[k] else 0
            if usable < 0:
                return None
            declared_winners.append(k if usable else -1)
        options: list[tuple[int, ...]] = []
        for d in range(1 << len(declared)):
            if any(d >> j & 1 and k < 0 for j, k in enumerate(declared_winners)):
                continue  # a declared joker its card cannot win
            won = reals + [k for j, k in enumerate(declared_winners) if d >> j & 1]
            rest = [x for j, x in enumerate(declared) if not d >> j & 1]
            for o in range(1 << len(open_winners)):
                count = o.bit_count()
                if count > len(opened) or (d == 0 and count == 0):
                    continue
                cards = won + [k for b, k in enumerate(open_winners) if o >> b & 1]
                options.append((*sorted(cards), *rest, *opened[count:]))
        return options

    def _marks_winnable(self, hand: list[int]) -> bool:
        """Whether a card in ``hand`` might win back a joker this turn marked: the card a
        sequence's marked joker stands for, or any card of a set's rank (a superset)."""
        for mark in self.turn_marks:
            key = mark_key(mark)
            if key != SET_JOKER:
                if hand[key]:
                    return True
                continue
            rank = self._set_rank(self.melds[mark_meld(mark)].slots)
            if any(hand[t * 13 + rank] for t in range(4)):
                return True
        return False

    @staticmethod
    def _set_rank(slots: Sequence[int]) -> int:
        """The rank (0..12) of the set ``slots``."""
        x = slots[0]
        if x < BARE_JOKER:
            return x % 13
        if x < OPEN_JOKER:
            return (x - JOKER_FOR) % 13
        return x - OPEN_JOKER

    @staticmethod
    def melds_kind(slots: tuple[int, ...]) -> str:
        """The kind of the meld ``slots`` (:func:`~konkun.kunken.melds.meld_kind`)."""
        return meld_kind(list(slots))

    def taken_candidates(self, seat: int, hand: list[int],
                         melds: list[tuple[int, ...]] | None = None) -> list[Action]:
        """Every meld, lay-off and swap ``seat`` may make now after a take, in the order
        of the legal list, before asking whether the turn stays completable (``melds``:
        :meth:`candidate_melds`, when the caller has them)."""
        size = self.hand_sizes[seat]
        if melds is None:
            melds = self.candidate_melds(hand)
        out = [meld(slots) for slots in melds if len(slots) < size]
        if size >= 2:
            replace = self.joker_for_held
            for m, tm in enumerate(self.melds):
                for k, slot in tm.layoff_options():
                    if hand[k] and not (JOKER_FOR <= slot < OPEN_JOKER and not replace
                                        and hand[slot - JOKER_FOR]):
                        out.append(layoff(m, slot))
        out += self.swap_steps(seat, hand)
        return out

    def identity_kind(self, seat: int, action: Action) -> int:
        """How a step of a take turn whose taken card is still to be melded meets the rule
        that a joker keeps its identity (RULES.md): :data:`COUNTS` (no joker laid but new
        ones, or the taken card's meld, or marks no card left can win back: the count
        checks decide), :data:`IDENTITY_TOO` (it lays jokers held before the take that a
        card left may win back: the count checks' yes stands, their no is asked again) or
        :data:`IDENTITY_ONLY` (the taken joker lies on the table: only
        :meth:`identity_completes` decides; other marks make every step
        :data:`IDENTITY_TOO`)
        or :data:`IDENTITY_TAKEN` (it lays the taken joker: only winning it back helps)."""
        if not self.pending:
            return COUNTS
        if self.turn_marks:
            return IDENTITY_ONLY if self.taken_joker_out() else IDENTITY_TOO
        return self._laying_kind(seat, action)

    def _laying_kind(self, seat: int, action: Action) -> int:
        """:meth:`identity_kind` by the jokers ``action`` lays alone, the marks already on
        the table left aside (:data:`COUNTS`, :data:`IDENTITY_TOO` or
        :data:`IDENTITY_TAKEN`)."""
        if action.kind == SWAP:
            return COUNTS
        hand, slots = self.hands[seat], action.slots
        jokers = sum(1 for x in slots if x >= BARE_JOKER)
        if not jokers:
            return COUNTS
        taken_held = 1 if self.take_card == BARE_JOKER else 0
        if jokers <= self.turn_notold[BARE_JOKER] - taken_held:
            return COUNTS  # new jokers only
        if action.kind == MELD and self._meld_is_third(hand, self.turn_notold, slots):
            return COUNTS
        if taken_held and jokers >= hand[BARE_JOKER]:
            return IDENTITY_TAKEN  # it lays the taken joker

        if action.kind == MELD:
            winners = self._laid_joker_winners(slots)
            return IDENTITY_TOO if any(hand[k] > slots.count(k) for k in winners) else COUNTS
        number = action.number
        assert number is not None  # a lay-off names its meld
        winners = self.layoff_joker_winners(self.melds[number], slots[0])
        return IDENTITY_TOO if any(hand[k] for k in winners) else COUNTS

    def identity_completes(self, action: Action) -> bool:
        """Whether the take turn can still be completed after ``action`` (a meld, lay-off or
        swap), with each joker kept as what it is (held before the take, the taken joker,
        new): :meth:`identity_verdicts` of that step. Exact; the slow path, asked only where
        :meth:`identity_kind` says so."""
        return self.identity_verdicts([action])[0]

    def identity_verdicts(self, actions: list[Action]) -> list[bool]:
        """:meth:`identity_completes` of each of ``actions`` (steps of a take turn whose
        taken card is still to be melded): in one call of the C core when it is built
        (:data:`C_IDENTITY_VERDICTS`), else by
        :meth:`reference_identity_completes`."""
        seat = self.to_move
        if C_IDENTITY_VERDICTS is None or seat is None or not self.pending:
            return [self.reference_identity_completes(a) for a in actions]
        return C_IDENTITY_VERDICTS(
            self.hands[seat], self.turn_notold, self.take_card, self.need, self.layout[seat],
            self.compact_table(), self.joker_for_held, self.turn_marks, actions)

    def reference_identity_completes(self, action: Action) -> bool:
        """:meth:`identity_completes` in Python, the reference of
        :data:`C_IDENTITY_VERDICTS`: the step played on a copy of the deal, then
        :func:`completion.completable_marked`."""
        after = self.scratch_copy(action)
        after.push(action)
        return after.turn_completable()

    def turn_completable(self) -> bool:
        """Whether the take turn in progress can still be completed (exact, with the
        turn's joker marks)."""
        seat = self.to_move
        assert seat is not None
        if self.hand_sizes[seat] < 1:
            return False
        if self.obligations_met():
            return True
        return completion.completable_marked(
            self.hands[seat], self.turn_notold, self.take_card, self.need, self.pending,
            self.layout[seat], self.compact_table(), self.joker_for_held,
            tuple(self.turn_marks))

    def scratch_copy(self, step: Action) -> LegalSteps:
        """A copy to try ``step`` of a take turn on (:meth:`KunkenDeal.scratch_copy`)."""
        raise NotImplementedError

    def push(self, action: Action) -> None:
        """Apply a legal action unchecked (:meth:`Applying.push`)."""
        raise NotImplementedError

    def _count_taken_actions(self, seat: int, hand: list[int],
                             melds: list[tuple[int, ...]] | None = None) -> list[Action]:
        """:meth:`_taken_actions` by the count checks alone (each joker in hand counted as
        held before the take or not; every joker a swap wins new; ``melds``:
        :meth:`candidate_melds`, when the caller has them)."""
        size = self.hand_sizes[seat]
        done = self.obligations_met()
        if not done and self._swap_third_case(seat):
            return self._swap_third_actions(seat, hand, melds)
        if not done and self.need <= 0:
            return self._third_card_actions(seat, hand, melds)
        judges: _Judges | None = None
        search = self._turn_search(hand) if not done else None
        if not done:
            judges = self._completion_judges(seat, hand, search)
        replace = self.joker_for_held
        exact = self._exact_judge(seat, hand) if judges is not None else None
        if melds is None:
            melds = self.candidate_melds(hand)
        # The taken joker on the table makes no meld the taken card's (_meld_is_third),
        # which the C core does not read: left to the reference.
        c_search = search.search if search is not None and not (
            self.take_card == BARE_JOKER and self.turn_marks and self.taken_joker_out()) \
            else None
        table = self.compact_table() if c_search is not None else ()
        if c_search is not None and completion.C_OPENING_MELDS is not None:
            laid = completion.C_OPENING_MELDS(
                hand, self.turn_notold, self.take_card, self.need, self.pending,
                self.opening, table, replace, melds, size, c_search)
        else:
            laid = self._judged_melds(melds, size, judges, exact)
        out = [meld(slots) for slots in laid]
        if size >= 2:
            c_layoffs = (completion.C_LAYOUT_LAYOFFS if self.layout[seat]
                         else completion.C_OPENING_LAYOFFS)
            if c_search is not None and c_layoffs is not None:
                out += [layoff(m, slot) for m, slot in c_layoffs(
                    hand, self.turn_notold, self.take_card, self.need, self.pending, table,
                    replace, c_search)]
            else:
                out += self._judged_layoffs(hand, judges, exact)
        out.extend(action for action in self.swap_steps(seat, hand)
                   if judges is None or judges[2](action.slots[0])
                   or exact is None or exact(action))
        if done:
            out += self._discards(hand)
        return out

    @staticmethod
    def _discards(hand: list[int]) -> list[Action]:
        """A discard of each card the hand holds, in card order."""
        return [DISCARDS[k] for k in range(53) if hand[k]]

    def _third_card_actions(self, seat: int, hand: list[int],
                            melds: list[tuple[int, ...]] | None = None) -> list[Action]:
        """:meth:`_count_taken_actions` while the taken card's meld is due and no points
        are, outside :meth:`_swap_third_case` (``melds``: :meth:`candidate_melds`, when the
        caller has them): the C core's list (:data:`C_THIRD_CARD_LIST`) when it is built,
        else :meth:`reference_third_card_actions`."""
        if melds is None:
            melds = self.candidate_melds(hand)
        card = self.take_card
        # A hand without the taken card (after no legal step), and the taken joker on the
        # table (then no meld is the taken card's: _meld_is_third), are left to the
        # reference.
        if C_THIRD_CARD_LIST is None or (card != BARE_JOKER and not hand[card]) or (
                card == BARE_JOKER and self.turn_marks and self.taken_joker_out()):
            return self.reference_third_card_actions(seat, hand, melds)
        laid, layoffs, swaps = C_THIRD_CARD_LIST(
            hand, self.turn_notold, card, self.need, self.layout[seat], self.compact_table(),
            self.joker_for_held, melds, self.hand_sizes[seat],
            self.swap_steps(seat, hand))
        out = [meld(slots) for slots in laid]
        out += [layoff(m, slot) for m, slot in layoffs]
        out += swaps
        return out

    def reference_third_card_actions(self, seat: int, hand: list[int],
                                     melds: list[tuple[int, ...]] | None = None
                                     ) -> list[Action]:
        """:meth:`_third_card_actions` in Python (``melds``: the candidates, by default
        :meth:`candidate_melds`): the reference of the C core's
        (:data:`C_THIRD_CARD_LIST`), which is what runs when it is built. Each step is
        judged by the fast judges of :meth:`_third_card_judges` (the taken card's shortest
        meld with two old cards after it leaves a card), else by the exact one
        (:meth:`_exact_judge`)."""
        size = self.hand_sizes[seat]
        judges = self._third_card_judges(hand, size)
        exact = self._exact_judge(seat, hand)
        if melds is None:
            melds = self.candidate_melds(hand)
        out = [meld(slots) for slots in self._judged_melds(melds, size, judges, exact)]
        if size >= 2:
            out += self._judged_layoffs(hand, judges, exact)
        out.extend(action for action in self.swap_steps(seat, hand)
                   if judges[2](action.slots[0]) or exact(action))
        return out

    def _judged_layoffs(self, hand: list[int], judges: _Judges | None,
                        exact: Callable[[Action], bool] | None) -> list[Action]:
        """The lay-offs the hand may make now that the fast judge (``judges[1]``, by card),
        else the exact one, keeps: every one with no judges (the turn's obligations met)."""
        out: list[Action] = []
        replace = self.joker_for_held
        verdicts: dict[int, bool] = {}
        exact_verdicts: dict[int, bool] = {}
        for m, tm in enumerate(self.melds):
            # With joker_for_held the exact check reads the table only through its swaps,
            # which a real card laid off onto a meld without jokers or onto a sequence
            # leaves as they are: its verdict is the card's alone.
            same_swaps = replace and (not tm.jokers or tm.kind != SET)
            for k, slot in tm.layoff_options():
                if not hand[k] or (JOKER_FOR <= slot < OPEN_JOKER and not replace
                                   and hand[slot - JOKER_FOR]):
                    continue
                action = layoff(m, slot)
                if judges is not None and exact is not None:
                    ok = verdicts.get(k)
                    if ok is None:
                        ok = verdicts[k] = judges[1](k)
                    if not ok:
                        if same_swaps and slot < BARE_JOKER:
                            known = exact_verdicts.get(k)
                            if known is None:
                                known = exact_verdicts[k] = exact(action)
                            ok = known
                        else:
                            ok = exact(action)
                    if not ok:
                        continue
                out.append(action)
        return out

    def reference_opening_layoffs(self, seat: int, hand: list[int]) -> list[Action]:
        """The lay-offs of :meth:`_count_taken_actions` while opening points are due (the
        hand's size at least 2), in Python: the reference of the C core's
        (:data:`completion.C_OPENING_LAYOFFS`, asked without a layout, and
        :data:`completion.C_LAYOUT_LAYOFFS`, with one), which is what runs when it is
        built."""
        return self._judged_layoffs(hand, self._completion_judges(seat, hand),
                                    self._exact_judge(seat, hand))

    def reference_layout_layoffs(self, seat: int, hand: list[int]) -> list[Action]:
        """The same lay-offs with a layout, in Python: the reference of the C core's
        (:data:`completion.C_LAYOUT_LAYOFFS`), which is what runs when it is built."""
        return self.reference_opening_layoffs(seat, hand)

    @staticmethod
    def _judged_melds(melds: list[tuple[int, ...]], size: int, judges: _Judges | None,
                      exact: Callable[[Action], bool] | None) -> list[tuple[int, ...]]:
        """The melds of ``melds`` leaving a card of the ``size`` held that the fast judge
        (``judges[0]``), else the exact one, keeps: every one with no judges (the turn's
        obligations met)."""
        return [slots for slots in melds
                if len(slots) < size and (judges is None or judges[0](slots)
                                          or exact is None or exact(meld(slots)))]

    def reference_opening_melds(self, seat: int, hand: list[int],
                                melds: list[tuple[int, ...]] | None = None
                                ) -> list[tuple[int, ...]]:
        """The melds of :meth:`_count_taken_actions` while opening points are due
        (``melds``: the candidates, by default :meth:`candidate_melds`), in Python: the
        reference of the C core's (:data:`completion.C_OPENING_MELDS`), which is what runs
        when it is built."""
        return self._judged_melds(
            self.candidate_melds(hand) if melds is None else melds, self.hand_sizes[seat],
            self._completion_judges(seat, hand), self._exact_judge(seat, hand))

    def candidate_melds(self, hand: list[int]) -> list[tuple[int, ...]]:
        """Every meld the hand may lay now: :func:`solver.hand_melds` and each set of three
        with its joker's suit declared (RULES.md: declared or left open); in C
        (:data:`C_CANDIDATE_MELDS`) when it is built, else
        :meth:`reference_candidate_melds`."""
        if C_CANDIDATE_MELDS is not None:
            return C_CANDIDATE_MELDS(hand, self.joker_for_held)
        return self.reference_candidate_melds(hand)

    def reference_candidate_melds(self, hand: list[int]) -> list[tuple[int, ...]]:
        """:meth:`candidate_melds` in Python: the reference of the C core's
        (:data:`C_CANDIDATE_MELDS`)."""
        replace = self.joker_for_held
        melds = solver.hand_melds(hand, replace)
        if hand[BARE_JOKER]:
            for meld in list(melds):
                for variant in solver.declared_set_variants(meld):
                    if replace or not hand[variant[2] - JOKER_FOR]:
                        melds.append(variant)
        return melds

    def compact_table(self, jokered: bool = False) -> completion.Table:
        """The table as the exact completion check reads it (``jokered``: only its melds
        with jokers)."""
        return cast(completion.Table, tuple([m.compact_object() for m in self.melds
                                             if m.jokers or not jokered]))

    def _take_positions(self, seat: int) -> list[int]:
        """The bank positions ``seat`` may take the bank from now (exact)."""
        need = 0 if self.layout[seat] else self.rules.opening_minimum
        if self.joker_for_held and not any(m.jokers for m in self.melds):
            return solver.take_positions(self.hands[seat], self.bank, need, True)
        # With joker_for_held the exact check reads only the melds with jokers.
        table = self.compact_table(jokered=self.joker_for_held)
        return completion.take_positions(self.hands[seat], self.bank, need, table,
                                         self.layout[seat], self.joker_for_held)

    def _exact_judge(self, seat: int, hand: list[int]) -> Callable[[Action], bool]:
        """The exact check of the candidate steps of one legal-action list (where the fast
        judges said no): cheap exact rejections first
        (:class:`completion.StepFilter`), then a witness (:meth:`_won_back_completes`),
        then :meth:`completes_after_step`."""
        made: list[tuple[completion.Table, completion.StepFilter,
                         solver.HandSearch | None]] = []

        def judge(action: Action) -> bool:
            if not made:  # built when first asked: most lists never ask
                table = self.compact_table()
                made.append((table, completion.StepFilter(
                    hand, self.turn_notold, self.take_card, self.need, self.pending,
                    self.opening, table, self.joker_for_held), self._turn_search(hand)))
            table, rough, search = made[0]
            if rough.rejects(action.slots, action.kind == SWAP):
                return False
            return self._won_back_completes(seat, hand, action, search) or \
                self.completes_after_step(seat, action, table)

        return judge

    def _swap_third_case(self, seat: int) -> bool:
        """Whether only the taken card's meld is due, with a layout, ``joker_for_held`` and
        a taken card that is not a joker: where :class:`SwapThirdJudge` judges."""
        return self.pending and self.need <= 0 and self.layout[seat] and \
            self.joker_for_held and self.take_card != BARE_JOKER

    def _swap_third_actions(self, seat: int, hand: list[int],
                            melds: list[tuple[int, ...]] | None = None) -> list[Action]:
        """:meth:`_taken_actions` in :meth:`_swap_third_case` (``melds``:
        :meth:`candidate_melds`, when the caller has them): the C core's list
        (:data:`C_SWAP_THIRD_LIST`) when it is built, else
        :meth:`reference_swap_third_actions`."""
        if melds is None:
            melds = self.candidate_melds(hand)
        # A hand without the taken card (after no legal step) is left to the reference.
        if C_SWAP_THIRD_LIST is None or not hand[self.take_card]:
            return self.reference_swap_third_actions(seat, hand, melds)
        laid, layoffs, swaps = C_SWAP_THIRD_LIST(
            hand, self.turn_notold, self.take_card, self.compact_table(), melds,
            self.hand_sizes[seat], [tm.layoff_options() for tm in self.melds],
            self.swap_steps(seat, hand))
        out = [meld(slots) for slots in laid]
        out += [layoff(m, slot) for m, slot in layoffs]
        out += swaps
        return out

    def reference_swap_third_actions(self, seat: int, hand: list[int],
                                     melds: list[tuple[int, ...]] | None = None
                                     ) -> list[Action]:
        """:meth:`_swap_third_actions` in Python (``melds``: the candidates, by default
        :meth:`candidate_melds`): the reference of the C core's (:data:`C_SWAP_THIRD_LIST`),
        which is what runs when it is built. A step of real cards only (a
        meld without jokers or whose jokers no card left in the hand wins back, a real card
        laid off onto a meld whose swaps it leaves as they are) is legal exactly when it
        lays the taken card's meld or the shortest such meld over every choice of swaps
        after it is shorter than the hand left (the ``plain`` judge of
        :class:`SwapThirdJudge`): when no card of the hand wins a table joker that is
        the fast judge's verdict, and when melds alone cannot complete the turn now the
        fast judge (melds alone after the step) says no and is not asked. Every step leaves
        that length at least as long as it is now (``floor``), so steps leaving that many
        cards or fewer are not asked at all. A meld, and a joker laid off onto a sequence
        or a set without jokers, leave the table's other swaps as they are, so the length
        after it is the shortest over every choice of its jokers won back (``laid_back``,
        ``won_back``: a winner gone, a fresh joker in), each asked of the table as it is.
        The other steps (a lay-off onto a set with jokers, a swap) are judged as in
        :meth:`_taken_actions`: the fast judge, then the exact one."""
        size = self.hand_sizes[seat]
        fast = self._third_card_judges(hand, size)
        alone = self._third_card_meld_fits(hand, size)
        if melds is None:
            melds = self.candidate_melds(hand)
        judged = SwapThirdJudge(self, seat, hand, self.compact_table())
        laid = self._swap_third_melds(hand, size, melds, fast, judged, alone)
        floor, swappable = judged.floor, judged.swappable

        def plain_layoff(k: int) -> bool:
            if not swappable:
                return fast[1](k)
            return (alone and fast[1](k)) or judged.plain((k,), size - 1)

        out = [meld(slots) for slots in laid]
        if size - 1 > floor:
            verdicts: dict[int, bool] = {}  # plain, by card
            fast_verdicts: dict[int, bool] = {}
            joker_verdicts: dict[tuple[int, ...], bool] = {}  # a joker, by its winners
            for m, tm in enumerate(self.melds):
                same_swaps = not tm.jokers or tm.kind != SET
                for k, slot in tm.layoff_options():
                    if not hand[k]:
                        continue
                    if same_swaps and slot < BARE_JOKER:
                        ok = verdicts.get(k)
                        if ok is None:
                            ok = verdicts[k] = plain_layoff(k)
                    elif same_swaps:
                        winners = tuple(w for w in self.layoff_joker_winners(tm, slot)
                                        if hand[w])
                        ok = joker_verdicts.get(winners)
                        if ok is None:
                            ok = joker_verdicts[winners] = judged.won_back(
                                [BARE_JOKER], winners, size - 1)
                    else:
                        ok = fast_verdicts.get(k)
                        if ok is None:
                            ok = fast_verdicts[k] = fast[1](k)
                        ok = ok or judged.judge(layoff(m, slot))
                    if ok:
                        out.append(layoff(m, slot))
        out.extend(action for action in self.swap_steps(seat, hand)
                   if fast[2](action.slots[0]) or judged.judge(action))
        return out

    def reference_swap_third_melds(self, seat: int, hand: list[int],
                                   melds: list[tuple[int, ...]] | None = None
                                   ) -> list[tuple[int, ...]]:
        """The melds of :meth:`_swap_third_actions` (``melds``: the candidates, by default
        :meth:`candidate_melds`), in Python: the reference of the C core's
        (:data:`completion.C_SWAP_THIRD_MELDS`), which is what runs when it is built."""
        size = self.hand_sizes[seat]
        return self._swap_third_melds(
            hand, size, self.candidate_melds(hand) if melds is None else melds,
            self._third_card_judges(hand, size), SwapThirdJudge(self, seat, hand),
            self._third_card_meld_fits(hand, size))

    def _third_card_meld_fits(self, hand: list[int], size: int) -> bool:
        """Whether the taken card's shortest meld with two old cards, with no swap, leaves
        a card of the ``size`` held: then melds alone may complete the turn (cards only
        leave the hand, so with no swap the length after a step is no shorter)."""
        return 0 < solver.third_card_length(self.take_card, hand, self.turn_notold,
                                            True) < size

    def _swap_third_melds(self, hand: list[int], size: int, melds: list[tuple[int, ...]],
                          fast: _Judges, judged: SwapThirdJudge, alone: bool
                          ) -> list[tuple[int, ...]]:
        """The legal melds of :meth:`_swap_third_actions` among ``melds``, in order
        (``alone``: whether melds alone could complete the turn now)."""
        floor, swappable = judged.floor, judged.swappable
        card, notold = self.take_card, self.turn_notold

        def plain_meld(slots: tuple[int, ...], left: int) -> bool:
            if not swappable:
                return fast[0](slots)
            return (alone and fast[0](slots)) or judged.plain(slots, left)

        out: list[tuple[int, ...]] = []
        for slots in melds:
            left = size - len(slots)
            if left <= 0:
                continue
            if card in slots and self._meld_is_third(hand, notold, slots):
                out.append(slots)
            elif left <= floor:
                continue
            elif max(slots) < BARE_JOKER or not self._wins_laid_joker(hand, slots):
                if plain_meld(slots, left):
                    out.append(slots)
            elif (alone and fast[0](slots)) or judged.laid_back(slots, left):
                out.append(slots)
        return out

    def _won_back_completes(self, seat: int, hand: list[int], action: Action,
                            search: solver.HandSearch | None) -> bool:
        """A quick sufficient test (``joker_for_held``) for a meld or lay-off: once it is
        laid, one swap (a card of the hand for a joker the step laid, or for a joker of
        another table meld) and then melds alone complete the turn
        (:func:`solver.can_complete`, the swapped-in joker fresh; ``search``: the turn's
        search, whose melds are all it lays, so a yes is a completion). A swap needs a
        layout, which a meld gives. Not while a taken joker is still to be melded: the
        joker won is another."""
        slots = action.slots
        if not self.joker_for_held or (
                action.kind == LAYOFF and not self.layout[seat]) or action.kind == SWAP or (
                self.pending and self.take_card == BARE_JOKER):
            return False  # a joker won is never the taken joker
        notold = self.turn_notold
        pending, need = self.pending, self.need
        if action.kind == MELD:
            if pending and self._meld_is_third(hand, notold, slots):
                pending = False
            if self.opening:
                need -= solver.meld_points(slots)
            winners = self._laid_joker_winners(slots)
            number = -1
        else:
            assert action.number is not None  # a lay-off names its meld
            number = action.number
            winners = self.layoff_joker_winners(self.melds[number], slots[0]) \
                if slots[0] >= BARE_JOKER else []
        for m, tm in enumerate(self.melds):
            if tm.jokers and m != number:  # the meld laid off onto may change its swaps
                winners.extend(completion.swap_cards(tm.compact()))
        rest, rest_notold = hand.copy(), notold.copy()
        for x in slots:
            k = slot_card(x)
            rest[k] -= 1
            if rest_notold[k]:
                rest_notold[k] -= 1
        for k in sorted(set(winners)):
            if not rest[k]:
                continue
            after, after_notold = rest.copy(), rest_notold.copy()
            after[k] -= 1
            if after_notold[k]:
                after_notold[k] -= 1
            after[BARE_JOKER] += 1
            after_notold[BARE_JOKER] += 1
            if solver.can_complete(after, after_notold, self.take_card, need, pending,
                                   search, sum(after), False, True):
                return True
        return False

    @staticmethod
    def _laid_joker_winners(slots: tuple[int, ...]) -> list[int]:
        """The cards that could win a joker of the meld ``slots`` laid now: the card it
        stands for, or an open set joker's missing suits."""
        return [card for winners in solver.joker_winners(slots) for card in winners]

    @classmethod
    def _wins_laid_joker(cls, hand: list[int], slots: tuple[int, ...]) -> bool:
        """Whether a card the hand keeps after laying the meld ``slots`` could win back one
        of its jokers: the card it stands for, or an open set joker's missing suit."""
        for x in slots:
            # A declared joker's card is never in its meld (a sequence holds each card
            # once, a set each suit once): held is enough.
            if JOKER_FOR <= x < OPEN_JOKER and hand[x - JOKER_FOR]:
                return True
        if max(slots) < OPEN_JOKER:
            return False
        return any(hand[k] > slots.count(k) for k in cls._laid_joker_winners(slots))

    @staticmethod
    def layoff_joker_winners(tm: TableMeld, slot: int) -> list[int]:
        """The cards that could win a joker laid off onto ``tm`` (a sequence, or a set
        without jokers) as ``slot``: the card it stands for, or an open set joker's missing
        suits."""
        if slot < OPEN_JOKER:
            return [slot - JOKER_FOR]
        rank = slot - OPEN_JOKER
        present = {slot_card(x) // 13 for x in tm.slots if x < BARE_JOKER}
        return [t * 13 + rank for t in range(4) if t not in present]

    def completes_after_step(self, seat: int, action: Action,
                             table_now: completion.Table | None = None) -> bool:
        """Whether the take turn can still be completed after ``action`` (a meld, lay-off or
        swap), by any legal sequence of steps: asked where the fast checks found no
        completion by melds alone (:func:`completion.completable`). ``table_now``: the
        table before the step, when the caller has it."""
        table_now = self.compact_table() if table_now is None else table_now
        if self.joker_for_held and all(x < BARE_JOKER for x in action.slots) and \
                not completion.any_swap(table_now, self.hands[seat]):
            return False  # no joker to swap, ever: melds alone decide, and they cannot
        hand = self.hands[seat].copy()
        notold = self.turn_notold.copy()
        table = list(table_now)
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
            table[number] = tm.compact()
        # A joker laid is a new one first; the taken joker (held: a step laying it is
        # IDENTITY_TAKEN, judged apart) stays.
        keep = 1 if self.take_card == BARE_JOKER else 0
        for k in removed:
            hand[k] -= 1
            if notold[k] > (keep if k == BARE_JOKER else 0):
                notold[k] -= 1
        return completion.completable(hand, notold, self.take_card, need, pending, layout,
                                      tuple(table), self.joker_for_held, True)

    def _third_card_judges(self, hand: list[int], size: int) -> _Judges:
        """Whether a meld, a lay-off (a card) or a swap (a card) leaves the turn completable
        by melds alone while the taken card is still to be melded and no points are due: the
        hand must then keep a third-card meld that leaves a card to discard."""
        check = solver.ThirdCardCheck(self.take_card, hand, self.turn_notold,
                                      self.joker_for_held)
        notold = self.turn_notold

        def meld_ok(meld: tuple[int, ...]) -> bool:
            left = size - len(meld)
            return self._meld_is_third(hand, notold, meld) or 0 < check.without(meld) < left

        def layoff_ok(card: int) -> bool:
            return 0 < check.without((card,)) < size - 1

        def swap_ok(card: int) -> bool:
            return 0 < check.without((), card) < size

        return meld_ok, layoff_ok, swap_ok

    def _completion_judges(self, seat: int, hand: list[int],
                           search: solver.HandSearch | None = None) -> _Judges:
        """The same judges when opening points are due: the full completion check, after a
        quick test (for melds) that a known completion survives (``search``: the turn's,
        :meth:`_turn_search`, when the caller has it)."""
        if search is None:
            search = self._turn_search(hand)
        assert search is not None  # reached only while opening points are due
        witnesses: list[list[tuple[int, ...]] | None] = []  # found when first asked
        size = self.hand_sizes[seat]
        swap_search: list[solver.HandSearch | None] = []

        def meld_ok(meld: tuple[int, ...]) -> bool:
            if not witnesses:
                witnesses.append(None if self.take_card == BARE_JOKER else
                                 solver.completion_witness(hand, self.turn_notold,
                                                           self.take_card, self.need,
                                                           self.pending, search))
            witness = witnesses[0]
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

    def swap_steps(self, seat: int, hand: list[int]) -> list[Action]:
        """Every joker swap ``seat`` could make now with ``hand`` (none without a layout),
        before asking whether a take turn stays completable after it."""
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
                                   self.joker_for_held)

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
                                   search, -1, False, self.joker_for_held)

    def _meld_is_third(self, hand: list[int], notold: list[int],
                       meld: tuple[int, ...]) -> bool:
        """Whether ``meld`` holds the taken card and two cards held before the take (never
        while the taken joker lies on the table: another joker does not stand in for it)."""
        if self.take_card == BARE_JOKER and self.turn_marks and self.taken_joker_out():
            return False
        return solver.is_third_card_meld(meld, self.take_card, hand, notold)

    def _turn_search(self, hand: list[int]) -> solver.HandSearch | None:
        """The search the turn's completion checks use (the same in listing and
        validating): over the hand as it is, when an opening minimum is still due."""
        return solver.HandSearch(hand, self.joker_for_held) if self.need > 0 else None

    def _swap_search(self, hand: list[int]) -> solver.HandSearch | None:
        """The same after a swap, which brings a joker into the hand: over the hand with it."""
        if self.need <= 0:
            return None
        plus = hand.copy()
        plus[BARE_JOKER] += 1
        return solver.HandSearch(plus, self.joker_for_held)


class SwapThirdJudge:
    """The exact judge of the steps of a legal list after a take while only the taken
    card's meld is due, with a layout, ``joker_for_held`` and a taken card that is not a
    joker (:meth:`LegalSteps._swap_third_case`): the turn can be completed after a step
    exactly when the shortest third-card meld over every choice of swaps
    (:func:`completion.swap_third_length`) is shorter than the hand left.

    A step that adds no joker a card of the hand can win only takes cards away, and no
    card becomes old, so every meld and swap after it was there before: the length after
    it is at least the length after taking any one of its cards. A step taking none of the
    cards the length reads leaves it as it is. So each card is asked once per list, and
    only the steps these bounds do not decide are asked whole.

    Asked, as :meth:`LegalSteps.completes_after_step` is, only of steps after which melds
    alone cannot complete the turn (the fast judges said no). :meth:`judge` is the exact
    verdict on any step; :meth:`plain` the verdict on a step that only takes real cards
    away (asked without the fast judge: :meth:`LegalSteps._swap_third_actions`; with a
    joker, one no card left in the hand wins back); :meth:`laid_back` the verdict on any
    meld; :meth:`won_back` the verdict on a step putting one joker on the table that only
    given cards win; :attr:`floor` the length now and :attr:`swappable` whether a card of
    the hand wins a table joker.

    A class rather than closures over one another: closures that call each other form a
    reference cycle, which the compiled engine left to the cyclic collector on every
    legal-action list in this case."""

    def __init__(self, deal: LegalSteps, seat: int, hand: list[int],
                 table: completion.Table | None = None) -> None:
        """``table``: the deal's compact table, when the caller has it."""
        self.deal = deal
        self.seat = seat
        self.hand = hand
        self.table = deal.compact_table() if table is None else table
        self.jokers = tuple(m for m in self.table if completion.has_jokers(m))
        self.card = deal.take_card
        self.read = completion.swap_third_cards(self.card, self.jokers)
        self.notold = deal.turn_notold
        self.size = deal.hand_sizes[seat]
        self.known: dict[tuple[object, ...], int] = {}
        # Whether the hand can win a joker of the table: if not, and a step adds none it
        # can win, no swap is ever made, and melds alone cannot complete the turn (why
        # this judge is asked).
        self.swappable = any(hand[k] for m in self.jokers for k in completion.swap_cards(m))
        self.alone = [-1] * 53  # the length once one card leaves the hand (-1: not asked)
        self.floor = self.length_after((), None)

    def length_after(self, removed: Sequence[int], after: completion.Table | None,
                     fresh: int = 0, change: object = None) -> int:
        """The length once the cards ``removed`` leave the hand (taken copies first) and
        ``fresh`` jokers come in (swapped in this turn), with the table's melds with
        jokers ``after`` (``None``: as they are); ``change`` names how the step changes
        them, so that steps taking the same cards it reads and changing the table alike
        are asked once."""
        key = self._key(removed, fresh, change)
        found = self.known.get(key)
        if found is None:
            left, left_notold = self.hand.copy(), self.notold.copy()
            for k in removed:
                left[k] -= 1
                if left_notold[k]:
                    left_notold[k] -= 1
            left[BARE_JOKER] += fresh
            left_notold[BARE_JOKER] += fresh
            found = self.known[key] = completion.swap_third_length(
                left, left_notold, self.card, self.jokers if after is None else after)
        return found

    def _key(self, removed: Sequence[int], fresh: int, change: object) -> tuple[object, ...]:
        """The memo key of :meth:`length_after`: only the removed cards it reads count."""
        read = self.read
        return (tuple(k for k in removed if read[k]), fresh, change)

    def bounded(self, slots: Sequence[int], left: int) -> bool:
        """Whether the length once each real card of ``slots`` leaves alone, a lower
        bound of the length after the step, is shorter than the hand left."""
        read, alone = self.read, self.alone
        for k in slots:
            if k < BARE_JOKER and read[k]:
                found = alone[k]
                if found < 0:
                    found = alone[k] = self.length_after((k,), None)
                if not 0 < found < left:
                    return False
        return True

    def taking(self, removed: Sequence[int], left: int) -> bool:
        """The verdict on a step that only takes the cards ``removed`` (real cards checked
        by :meth:`bounded`) away, leaving ``left`` cards."""
        if BARE_JOKER in removed:
            found = self.alone[BARE_JOKER]
            if found < 0:
                found = self.alone[BARE_JOKER] = self.length_after((BARE_JOKER,), None)
            if not 0 < found < left:
                return False
        return 0 < self.length_after(removed, None) < left

    def changed(self, number: int, tm: TableMeld) -> completion.Table:
        """The table's melds with jokers once meld ``number`` is ``tm``."""
        table = self.table
        return tuple(m for m in (*table[:number], tm.compact(), *table[number + 1:])
                     if completion.has_jokers(m))

    def judge(self, action: Action) -> bool:
        """The exact verdict on ``action``: whether the turn can be completed after it."""
        if action.kind == MELD:
            return self._judge_meld(action.slots)
        number = action.number
        assert number is not None  # a lay-off or a swap names its meld
        tm = self.deal.melds[number]
        slots = action.slots
        slot = slots[0]
        size = self.size
        if action.kind == LAYOFF and (not tm.jokers or tm.kind != SET):
            if slot < BARE_JOKER:
                return self.swappable and self.bounded(slots, size - 1) \
                    and self.taking(slots, size - 1)
            # A joker laid off here is one no card of the hand can win: the sequence's
            # other jokers stay as they were.
            if not any(self.hand[k] for k in self.deal.layoff_joker_winners(tm, slot)):
                return self.swappable and self.taking((BARE_JOKER,), size - 1)
        moved = tm.copy()
        if action.kind == LAYOFF:
            moved.lay_off(slot, self.seat)
            return 0 < self.length_after((slot_card(slot),), self.changed(number, moved), 0,
                                         (number, moved.compact())) < size - 1
        moved.swap(slot)
        return 0 < self.length_after((slot,), self.changed(number, moved), 1,
                                     (number, moved.compact())) < size

    def _judge_meld(self, slots: tuple[int, ...]) -> bool:
        hand = self.hand
        card = self.card
        if card in slots and solver.is_third_card_meld(slots, card, hand, self.notold):
            return True
        left = self.size - len(slots)
        if max(slots) < BARE_JOKER:  # no joker
            return self.swappable and self.bounded(slots, left) and self.taking(slots, left)
        removed = [slot_card(x) for x in slots]
        laid = completion.compact(slots)
        # The meld's jokers matter only if the hand keeps a card that wins one.
        if not any(hand[k] > removed.count(k) for k in completion.swap_cards(laid)):
            return self.swappable and self.bounded(slots, left) \
                and self.taking(removed, left)
        if not self.bounded(slots, left):
            return False
        # Winning its jokers back gives new jokers for old ones (or taken ones) and costs
        # cards: the hand with only its real cards gone and its jokers made new holds
        # every state after it, so its length is a lower bound.
        laid_jokers = len(slots) - sum(1 for x in slots if x < BARE_JOKER)
        if not 0 < self.length_after(removed, None, laid_jokers) < left:
            return False
        return 0 < self.length_after(removed, (*self.jokers, laid), 0, laid) < left

    def laid_back(self, slots: tuple[int, ...], left: int) -> bool:
        """The verdict on the meld ``slots``, which leaves the table's other swaps as they
        are: the shortest length over every choice of its jokers won back (each a winner
        gone, a fresh joker in)."""
        removed = [slot_card(x) for x in slots]
        rest = self.hand.copy()
        for k in removed:
            rest[k] -= 1
        best = 0
        for given in completion.win_back_choices(completion.compact(slots), rest):
            found = self.length_after([*removed, *given], None, len(given))
            if found and (not best or found < best):
                best = found
        return 0 < best < left

    def won_back(self, removed: list[int], winners: Sequence[int], left: int) -> bool:
        """The verdict on a step that takes the cards ``removed`` away and puts one joker
        on the table (in a meld or a lay-off) that only the cards ``winners`` win, leaving
        the table's other swaps as they are: the length is the shorter of those without
        that swap and with it (a winner gone, a fresh joker in)."""
        best = self.length_after(removed, None)
        for k in winners:
            if self.hand[k] > removed.count(k):
                found = self.length_after([*removed, k], None, 1)
                if found and (not best or found < best):
                    best = found
        return 0 < best < left

    def plain(self, slots: Sequence[int], left: int) -> bool:
        """The verdict on a step of real cards only, or of jokers no card left wins back."""
        if max(slots) < BARE_JOKER:
            return self.bounded(slots, left) and 0 < self.length_after(slots, None) < left
        return self.bounded(slots, left) and self.taking([slot_card(x) for x in slots], left)
