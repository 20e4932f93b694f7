"""Whether a take can be completed by laying melds, and where the bank can be taken from
(RULES.md, Кункен), over count vectors; the fast path of the exact take check in
:mod:`konkun.kunken.completion`, which adds joker swaps.

The search code lives in modules named by concern: :mod:`konkun.kunken.hand_melds` (every
meld a hand can lay), :mod:`konkun.kunken.arrangement` (the most valuable arrangement,
:class:`HandSearch`) and :mod:`konkun.kunken.third_card` (the third-card rule); this module
also gives their public names, as before.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from konkun.kunken.arrangement import (
    C_SEARCH,
    HandSearch,
    arrangement_worth,
    best_arrangement,
    max_meld_points,
    reach_points,
)
from konkun.kunken.hand_melds import (
    BITS,
    CARD_PLACE,
    Meld,
    declared_set_variants,
    hand_melds,
    meld_points,
    melds_with,
)
from konkun.kunken.melds import JOKER_FOR, OPEN_JOKER, Compact
from konkun.kunken.third_card import (
    ThirdCardCheck,
    hand_masks,
    is_third_card_meld,
    joker_third_masks,
    shortest_third,
    third_card_length,
    third_card_melds,
)

Step = tuple[str, int, tuple[int, ...]]
"""A step of a take turn: (``meld``, -1, slots), (``swap``, meld, (card,)) or
(``layoff``, meld, (card,))."""

__all__ = [
    "C_CAN_COMPLETE", "C_TAKE_SCAN", "HandSearch", "Meld", "Step", "ThirdCardCheck", "after_take",
    "best_arrangement", "can_complete", "completion_witness", "declared_set_variants",
    "hand_melds", "is_third_card_meld", "max_meld_points", "meld_points", "melds_with",
    "reach_points", "reference_can_complete", "reference_take_positions", "take_options",
    "take_positions", "third_card_length", "third_card_melds", "won_back",
]


def can_complete(counts: list[int], taken: list[int], card: int, need: int,
                 pending: bool, search: HandSearch | None = None,
                 size: int = -1, checked: bool = False, replace: bool = False) -> bool:
    """Whether a take turn can still be completed by laying melds
    (:func:`reference_can_complete`, which documents the arguments): the C core's
    (:data:`C_CAN_COMPLETE`) when it is built. The C core refuses bad input (counts out of
    range, a card index past 52) with a :class:`ValueError` or :class:`TypeError` naming
    it."""
    if C_CAN_COMPLETE is not None:
        return C_CAN_COMPLETE(counts, taken, card, need, pending,
                              None if search is None else search.search, size, checked,
                              replace)
    return reference_can_complete(counts, taken, card, need, pending, search, size, checked,
                                  replace)


def reference_can_complete(counts: list[int], taken: list[int], card: int, need: int,
                           pending: bool, search: HandSearch | None = None,
                           size: int = -1, checked: bool = False,
                           replace: bool = False) -> bool:
    """Whether a take turn can still be completed by laying melds (the reference, in
    Python, of the C core's :data:`C_CAN_COMPLETE`): when ``pending``, a meld
    holding ``card`` with two old cards (:func:`third_card_melds`), melds worth ``need``
    more points in all, and a card left to discard. ``search``: a :class:`HandSearch` built
    for ``counts`` or a hand holding it (reused across calls); ``size``: the number of cards
    when known; ``checked``: :func:`third_card_length` is known to be non-zero;
    ``replace``: a joker may stand for a held card (``joker_for_held``). No joker swaps:
    :mod:`konkun.kunken.completion` adds them."""
    if size < 0:
        size = sum(counts)
    if not pending:
        if need <= 0:
            return size >= 1
        return (search or HandSearch(counts, replace)).reach_from(list(counts), need, True)
    if counts[card] == 0 or (not checked and not third_card_length(card, counts, taken,
                                                                    replace)):
        return False
    melds = third_card_melds(card, counts, taken, replace)
    if not melds:
        return False
    for meld in melds:
        if len(meld) < size and need - meld_points(meld) <= 0:
            return True
    if need <= 0:
        return False
    work = list(counts)
    if search is None:
        search = HandSearch(work, replace)
    for meld in melds:
        if len(meld) >= size:
            continue
        for s in meld:
            work[s if s < 52 else 52] -= 1
        rest = need - meld_points(meld)
        ok = search.reach_from(work, rest, True) or (replace and any(
            search.reach_from(won, rest, True) for won in won_back(work, meld)))
        for s in meld:
            work[s if s < 52 else 52] += 1
        if ok:
            return True
    return False


def _c_can_complete() -> Callable[..., bool] | None:
    """The C core's :func:`can_complete` (``hand_search.can_complete``, which takes the C
    search of a :class:`HandSearch`), when the C core is built and in use."""
    if C_SEARCH is None:
        return None
    from konkun.kunken import hand_search
    return hand_search.can_complete


C_CAN_COMPLETE: Final = _c_can_complete()
"""The C core's :func:`can_complete` (``konkun.kunken.hand_search.can_complete``), or
``None`` when it is not built: then :func:`reference_can_complete` answers. Used exactly when
the C search is (:data:`konkun.kunken.arrangement.C_SEARCH`)."""


TakeScan = Callable[[list[int], list[int], int, tuple[Compact, ...] | None, bool, bool],
                    list[int]]
"""The C core's take scan (``hand_search.take_positions``): hand, bank, need, the table of
compact melds (``None``: melds alone, :func:`take_positions`; else
:func:`konkun.kunken.completion.take_positions`), layout, ``joker_for_held``."""


def _c_take_scan() -> TakeScan | None:
    """The C core's take scan, when the C core is built and in use."""
    if C_SEARCH is None:
        return None
    from konkun.kunken import hand_search
    return hand_search.take_positions


C_TAKE_SCAN: Final = _c_take_scan()
"""The C core's take scan (``konkun.kunken.hand_search.take_positions``), or ``None`` when
it is not built: then :func:`reference_take_positions` (and
:func:`konkun.kunken.completion.reference_take_positions`) answer. Used exactly when the C
search is (:data:`konkun.kunken.arrangement.C_SEARCH`)."""


def won_back(rest: Sequence[int], meld: Meld) -> list[list[int]]:
    """The hands after laying ``meld`` (``rest``: the hand without it) and then winning
    back some of its jokers by swaps (RULES.md: a joker of a meld laid earlier this turn may
    be swapped for the card it stands for, and used at once), each non-empty choice once.

    This matters only in the taken card's meld, and only with ``joker_for_held``: there an
    old joker counts as a card held before the take, so ``X=9c Tc Jc`` (Tc taken, 9c taken
    too) meets the third-card rule where ``9c Tc Jc`` does not, and the swap of 9c brings the
    joker back for the opening's other melds. Anywhere else, laying a joker and winning it
    back is the same as laying the card itself."""
    choices = joker_winners(meld)
    out: list[list[int]] = []
    if choices:
        _choose_won_back(choices, 0, 0, list(rest), set(), out)
    return out


def joker_winners(meld: Meld) -> list[tuple[int, ...]]:
    """Per joker of ``meld`` (declared ones first, then open set jokers), the cards that
    win it by a swap: the card it stands for, or an open set joker's missing suits."""
    choices: list[tuple[int, ...]] = []
    present = 0  # a set's suits taken by its real cards and declared jokers
    for x in meld:
        if x < 52:
            present |= 1 << x // 13
        elif x < OPEN_JOKER:
            choices.append((x - JOKER_FOR,))
            present |= 1 << (x - JOKER_FOR) // 13
    for x in meld:
        if x >= OPEN_JOKER:
            rank = x - OPEN_JOKER
            choices.append(tuple(t * 13 + rank for t in range(4) if not present >> t & 1))
    return choices


def _choose_won_back(choices: list[tuple[int, ...]], i: int, given: int, hand: list[int],
                     seen: set[bytes], out: list[list[int]]) -> None:
    # A module function, not a closure: a recursive closure is a reference cycle.
    if i == len(choices):
        if given and (code := bytes(hand)) not in seen:
            seen.add(code)
            out.append(hand.copy())
        return
    _choose_won_back(choices, i + 1, given, hand, seen, out)
    for card in choices[i]:
        if hand[card] and not given >> card & 1:
            hand[card] -= 1
            hand[52] += 1
            _choose_won_back(choices, i + 1, given | 1 << card, hand, seen, out)
            hand[card] += 1
            hand[52] -= 1


def take_options(counts: list[int], bank: list[int], need: int) -> list[int]:
    """The bank positions from which a hand can take the bank (``need``: the opening
    minimum, 0 with a layout): a hint for bots and the UI."""
    out: list[int] = []
    for i in range(len(bank)):
        after, taken = after_take(counts, bank, i)
        if can_complete(after, taken, bank[i], need, True):
            out.append(i)
    return out


def after_take(hand: list[int], bank: list[int], i: int) -> tuple[list[int], list[int]]:
    """The hand after taking the bank from position ``i``, and the cards in it that were
    taken (count vectors)."""
    after = list(hand)
    taken = [0] * 53
    for c in bank[i:]:
        after[c] += 1
        taken[c] += 1
    return after, taken


def take_positions(hand: list[int], bank: list[int], need: int,
                   replace: bool = False) -> list[int]:
    """The bank positions from which ``hand`` can take the bank and complete the turn by
    laying melds (:func:`reference_take_positions`, which documents the arguments): the C
    core's take scan (:data:`C_TAKE_SCAN`) when it is built. The C core refuses bad input
    (counts out of range, a bank card past 52, more copies of a card in the hand and the
    bank than a search holds) with a :class:`ValueError` or :class:`TypeError` naming it."""
    if C_TAKE_SCAN is not None:
        return C_TAKE_SCAN(hand, bank, need, None, False, replace)
    return reference_take_positions(hand, bank, need, replace)


def reference_take_positions(hand: list[int], bank: list[int], need: int,
                             replace: bool = False) -> list[int]:
    """The bank positions from which ``hand`` can take the bank and complete the turn by
    laying melds (``need``: the opening minimum, 0 with a layout; ``replace``: rule option
    ``joker_for_held``), in order: the reference, in Python, of the C core's
    :data:`C_TAKE_SCAN`. Joker swaps are not looked at: this is the fast path of
    :func:`konkun.kunken.completion.take_positions`, exact when no swap can help."""
    if need <= 0:
        return _free_take_positions(hand, bank, replace)
    old_suit, old_rank = hand_masks(hand)
    pool_suit = old_suit.copy()
    pool_rank = old_rank.copy()
    after = list(hand)
    taken = [0] * 53
    search: HandSearch | None = None
    out: list[int] = []
    hand_size = sum(hand)
    for i in range(len(bank) - 1, -1, -1):
        card = bank[i]
        after[card] += 1
        taken[card] += 1
        if card != 52:
            p, s = CARD_PLACE[card]
            pool_suit[s] |= 1 << p
            pool_rank[p] |= 1 << s
            if not shortest_third(p, s, after[52], hand[52], old_suit[s], old_rank[p],
                                   pool_suit[s], pool_rank[p], replace):
                continue
        elif not third_card_length(52, after, taken, replace):
            continue
        if search is None:
            whole = list(hand)
            for c in bank:
                whole[c] += 1
            search = HandSearch(whole, replace)
            if not search.reach_from(whole, need, True):
                break  # not even the whole bank with the hand is worth the points
        if can_complete(after, taken, card, need, True, search, hand_size + len(bank) - i,
                        True, replace):
            out.append(i)
    out.reverse()
    return out


def _free_take_positions(hand: list[int], bank: list[int],
                         replace: bool = False) -> list[int]:
    """:func:`reference_take_positions` with no points due: the taken card's shortest
    third-card meld must leave a card to discard."""
    old_suit, old_rank = hand_masks(hand)
    pool_suit = old_suit.copy()
    pool_rank = old_rank.copy()
    old_jokers = jokers = hand[52]
    out: list[int] = []
    size = sum(hand) + len(bank)  # the hand's size after taking from position 0
    for i in range(len(bank) - 1, -1, -1):
        card = bank[i]
        if card == 52:
            jokers += 1
            # Old cards: the hand's; held now: the hand's and the bank's from i on.
            shortest = joker_third_masks(old_suit, pool_suit, old_rank, pool_rank, jokers,
                                         min(old_jokers, jokers - 1), replace)
        else:
            p, s = CARD_PLACE[card]
            pool_suit[s] |= 1 << p
            pool_rank[p] |= 1 << s
            pair = old_rank[p] & ~(1 << s)  # old cards of its rank: a set of three?
            if pair and (old_jokers or pair & (pair - 1)):
                shortest = 3
            elif (old_jokers < 2 and not old_suit[s] & ~(1 << p)) or (
                    not old_jokers and BITS[old_suit[s] & ~(1 << p)] < 2):
                continue  # too few old cards (and old jokers) of its suit or rank
            else:
                shortest = shortest_third(p, s, jokers, old_jokers, old_suit[s], old_rank[p],
                                           pool_suit[s], pool_rank[p], replace)
        if shortest and shortest < size - i:
            out.append(i)
    out.reverse()
    return out


def completion_witness(counts: list[int], taken: list[int], card: int, need: int,
                       pending: bool, search: HandSearch) -> list[Meld] | None:
    """Melds completing a take turn (see :func:`can_complete`), the first holding the taken
    card when ``pending``; ``None`` when there are none. ``search`` covers ``counts`` (and
    says whether a joker may stand for a held card, ``HandSearch.replace``)."""
    work = list(counts)
    size = sum(work)
    if not pending:
        return arrangement_worth(work, need, True, search) if need > 0 else []
    for meld in third_card_melds(card, work, taken, search.replace):
        if len(meld) >= size:
            continue
        for s in meld:
            work[s if s < 52 else 52] -= 1
        rest = need - meld_points(meld)
        found = [] if rest <= 0 else arrangement_worth(work, rest, True, search)
        for s in meld:
            work[s if s < 52 else 52] += 1
        if found is not None:
            return [meld, *found]
    return None
