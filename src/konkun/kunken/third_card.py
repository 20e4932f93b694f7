"""The third-card rule of the take (RULES.md, Кункен): the meld of the taken card must hold
two cards held before the take. The melds that do, and the length of the shortest of them
from bit masks without listing them (:func:`third_card_length`, :class:`ThirdCardCheck`),
over count vectors (:mod:`konkun.kunken.hand_melds`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from konkun.kunken.hand_melds import (
    BITS,
    CARD_PLACE,
    FULL,
    WINDOWS,
    Meld,
    melds_with,
    window_mask,
)


def third_card_melds(card: int, counts: list[int], taken: list[int],
                     replace: bool = False) -> list[Meld]:
    """Melds holding ``card`` (the taken card) and at least two other cards that were in
    the hand before the take: ``counts`` is the hand now, ``taken`` the cards in it that
    were not (taken this turn, or jokers swapped in); taken copies count as leaving first.
    ``replace``: a joker may stand for a held card (``joker_for_held``)."""
    if counts[card] == 0:
        return []
    return [meld for meld in melds_with(card, counts, replace)
            if is_third_card_meld(meld, card, counts, taken)]


def is_third_card_meld(meld: Meld, card: int, counts: list[int],
                       taken: list[int]) -> bool:
    """Whether ``meld`` (laid from ``counts``) holds ``card`` (the taken card; 52: a joker)
    and at least two other cards that were in the hand before the take (``counts`` and
    ``taken`` as in :func:`third_card_melds`)."""
    old = 0
    jokers = 0
    for s in meld:
        if s >= 52:
            jokers += 1
        elif s != card and counts[s] > taken[s]:
            old += 1
    old_jokers = counts[52] - taken[52]
    if card == 52:
        if not jokers:
            return False
        jokers -= 1  # the taken joker itself
        old_jokers = min(old_jokers, counts[52] - 1)
    elif card not in meld:
        return False
    if jokers > old_jokers:
        jokers = old_jokers
    return old + max(0, jokers) >= 2


def third_card_length(card: int, counts: list[int], taken: list[int],
                      replace: bool = False) -> int:
    """The length of the shortest meld of :func:`third_card_melds`, 0 when there is none;
    computed from bit masks, without listing the melds (``replace``: a joker may stand for
    a held card, ``joker_for_held``)."""
    if counts[card] == 0:
        return 0
    if card == 52:
        return _joker_third(counts, taken, replace)
    p, s = CARD_PLACE[card]
    return shortest_third(p, s, counts[52], counts[52] - taken[52],
                           *card_masks(p, s, counts, taken), replace)


def card_masks(p: int, s: int, counts: list[int],
               taken: list[int]) -> tuple[int, int, int, int]:
    """The masks :func:`shortest_third` reads for the card at position ``p`` of suit ``s``:
    (old suit, old rank, pool suit, pool rank), :func:`_suit_masks` of suit ``s`` and
    :func:`_rank_masks` of position ``p`` (``counts``: the hand; ``taken``: its cards not
    held before the take)."""
    old_suit, pool_suit = _suit_masks(s, counts, taken)
    old_rank, pool_rank = _rank_masks(p, counts, taken)
    return old_suit, old_rank, pool_suit, pool_rank


def _suit_masks(s: int, counts: list[int], taken: list[int]) -> tuple[int, int]:
    """The positions of suit ``s`` held before the take (old: more copies than were taken)
    and held now (pool), as masks."""
    old = pool = 0
    base = s * 13
    for q in range(13):
        n = counts[base + q]
        if n:
            pool |= 1 << q
            if n > taken[base + q]:
                old |= 1 << q
    return old, pool


def _rank_masks(p: int, counts: list[int], taken: list[int]) -> tuple[int, int]:
    """The suits of position ``p`` held before the take and held now, as masks."""
    old = pool = 0
    for t in range(4):
        n = counts[t * 13 + p]
        if n:
            pool |= 1 << t
            if n > taken[t * 13 + p]:
                old |= 1 << t
    return old, pool


class ThirdCardCheck:
    """:func:`third_card_length` for a hand after a take, asked again of the hand less a
    few cards (a meld, a lay-off) or with a card swapped for a joker: the questions a turn
    whose taken card is still to be melded asks of each step. Cards that share neither the
    taken card's suit nor its rank, and are not jokers, leave the answer as it is."""

    __slots__ = ("base", "card", "counts", "jokers", "masks", "p", "replace", "s", "taken")

    def __init__(self, card: int, counts: list[int], taken: list[int],
                 replace: bool = False) -> None:
        self.card = card
        self.counts = counts
        self.taken = taken
        self.replace = replace
        if card == 52:  # a taken joker: every suit and rank matters, see without()
            self.p = self.s = -1
            self.jokers = counts[52]
            self.masks = (0, 0, 0, 0)
            self.base = third_card_length(card, counts, taken, replace)
            return
        self.p, self.s = CARD_PLACE[card]
        self.jokers = counts[52]
        self.masks = card_masks(self.p, self.s, counts, taken)
        self.base = (0 if not counts[card] else shortest_third(
            self.p, self.s, counts[52], counts[52] - taken[52], *self.masks, replace))

    def without(self, removed: Sequence[int], swapped: int = -1) -> int:
        """The shortest third-card meld once the cards ``removed`` (meld slots: each real
        card at most once, any slot from 52 up a joker) leave the hand, taken copies first,
        or once card ``swapped`` is given for a joker (0 when there is none). Fewer cards
        can make one where there was none: a joker held before the take may then stand
        for a card that was held."""
        if self.card == 52:
            return self._joker_without(removed, swapped)
        p, s = self.p, self.s
        jokers_out = 0
        moved = False
        old_suit, old_rank, pool_suit, pool_rank = self.masks
        counts, taken = self.counts, self.taken
        for x in (*removed, swapped) if swapped >= 0 else removed:
            if x >= 52:
                jokers_out += 1
                continue
            q, t = CARD_PLACE[x]
            if q != p and t != s:
                continue
            moved = True
            n = counts[x] - 1
            if n == 0:
                if x == self.card:
                    return 0
                pool_suit, old_suit, pool_rank, old_rank = _drop(
                    q, t, p, s, pool_suit, old_suit, pool_rank, old_rank, True)
            elif n <= taken[x] - 1:
                pool_suit, old_suit, pool_rank, old_rank = _drop(
                    q, t, p, s, pool_suit, old_suit, pool_rank, old_rank, False)
        if not moved and not jokers_out and swapped < 0:
            return self.base
        jokers = self.jokers - jokers_out
        fresh = max(0, self.taken[52] - jokers_out)
        if swapped >= 0:
            jokers += 1
            fresh += 1
        return shortest_third(p, s, jokers, jokers - fresh, old_suit, old_rank, pool_suit,
                               pool_rank, self.replace)

    def _joker_without(self, removed: Sequence[int], swapped: int) -> int:
        """:meth:`without` for a taken joker: the hand after the step, asked afresh."""
        counts = list(self.counts)
        taken = list(self.taken)
        for x in removed:
            k = x if x < 52 else 52
            counts[k] -= 1
            if taken[k]:
                taken[k] -= 1
        if swapped >= 0:
            counts[swapped] -= 1
            if taken[swapped]:
                taken[swapped] -= 1
            counts[52] += 1
            taken[52] += 1
        return third_card_length(52, counts, taken, self.replace)


def _joker_third(counts: list[int], taken: list[int], proxies: bool = False) -> int:
    """:func:`third_card_length` for a taken joker (held): the shortest meld with a joker
    and two old cards, counting all but one of its jokers as old up to the old jokers."""
    pool_suit, pool_rank = hand_masks(counts)
    old_suit, old_rank = hand_masks([counts[k] > taken[k] for k in range(52)])
    jokers = counts[52]
    return joker_third_masks(old_suit, pool_suit, old_rank, pool_rank, jokers,
                             min(jokers - taken[52], jokers - 1), proxies)


def joker_third_masks(old_suit: list[int], pool_suit: list[int],
                      old_rank: list[int], pool_rank: list[int], jokers: int,
                      old_jokers: int, proxies: bool = False) -> int:
    """:func:`_joker_third` from the masks of the cards held before the take (``old_``)
    and held now (``pool_``), by suit and by rank position, the jokers held and the old
    ones (at most all but the taken joker)."""
    best = 0
    for p in range(13):  # sets: two old cards and the joker, or one old card, two jokers
        old = old_rank[p]
        if old & (old - 1):
            return 3
        if old and pool_rank[p] != old and jokers >= 2 and old_jokers >= 1:
            best = 4
    for s in range(4):
        old, pool = old_suit[s], pool_suit[s]
        if BITS[pool] < 2 or (pool == FULL and not proxies) or (
                not old and old_jokers < 2):
            continue
        key = (old, pool, jokers if jokers < 6 else 6, old_jokers if old_jokers < 2 else 2,
               proxies)
        seq = _JOKER_SEQUENCE_THIRD.get(key, -1)
        if seq < 0:
            if len(_JOKER_SEQUENCE_THIRD) > 200_000:
                _JOKER_SEQUENCE_THIRD.clear()
            seq = _JOKER_SEQUENCE_THIRD[key] = _joker_sequence_third(*key)
        if seq and (not best or seq < best):
            best = seq
    return best


_JOKER_SEQUENCE_THIRD: Final[dict[tuple[int, int, int, int, bool], int]] = {}


def _joker_sequence_third(old: int, pool: int, jokers: int, old_jokers: int,
                          proxies: bool = False) -> int:
    """The shortest sequence of a suit (held positions ``pool``, old ones ``old``) with a
    joker in a gap and two old cards, all but one joker counting as old up to
    ``old_jokers``; 0 when there is none. With ``proxies`` (``joker_for_held``) the jokers
    may also stand for held cards: the taken joker anywhere, old ones where no old card
    is."""
    missing = FULL & ~pool
    held_new = pool & ~old
    best = 0
    for wmask, length in _ALL_WINDOW_MASKS:
        if best and length >= best:
            break
        gaps = BITS[wmask & missing]
        cap = min(length // 2, jokers)
        if gaps > cap:
            continue
        old_n = BITS[wmask & old]
        if proxies:
            slots = min(cap, gaps + BITS[wmask & held_new])
            count = old_n + min(old_jokers, slots - 1) if slots else old_n - 1
        elif not gaps:
            continue
        else:
            count = old_n + min(gaps - 1, old_jokers)
        if count >= 2:
            best = length
    return best


_ALL_WINDOW_MASKS: Final = tuple(
    (window_mask(WINDOWS[length][start]), length) for length in range(3, 14)
    for start in range(13 if length < 13 else 1))
"""(mask, length) of every sequence window, by length, then start."""
_WINDOWS_AT_ZERO: Final = tuple(w for w in _ALL_WINDOW_MASKS if w[0] & 1)
"""(mask, length) of every sequence window holding position 0, shortest first."""


def _drop(q: int, t: int, p: int, s: int, pool_suit: int, old_suit: int, pool_rank: int,
          old_rank: int, gone: bool) -> tuple[int, int, int, int]:
    """The masks once card (position ``q``, suit ``t``) is no longer old (``gone``: no
    longer held either)."""
    if t == s:
        old_suit &= ~(1 << q)
        if gone:
            pool_suit &= ~(1 << q)
    if q == p:
        old_rank &= ~(1 << t)
        if gone:
            pool_rank &= ~(1 << t)
    return pool_suit, old_suit, pool_rank, old_rank


def hand_masks(hand: list[int]) -> tuple[list[int], list[int]]:
    """The positions held in each suit and the suits held of each rank (masks)."""
    suits = [0, 0, 0, 0]
    ranks = [0] * 13
    for k in range(52):
        if hand[k]:
            p, s = CARD_PLACE[k]
            suits[s] |= 1 << p
            ranks[p] |= 1 << s
    return suits, ranks


def shortest_third(p: int, s: int, jokers: int, old_jokers: int, old_suit: int, old_rank: int,
                   pool_suit: int, pool_rank: int, proxies: bool = False) -> int:
    """:func:`third_card_length` from masks: old cards of the card's suit and rank, the
    pool's (old and taken) cards of them, and the jokers (all, and old ones); ``proxies``:
    an old joker may also stand for a card held in the pool (``joker_for_held``)."""
    a = BITS[old_rank & ~(1 << s)]
    if a >= 2 or (a == 1 and old_jokers >= 1):
        return 3  # a set of three
    best = 4 if old_jokers >= 2 and pool_rank & ~(1 << s) else 0  # two jokers in a set of 4
    old = old_suit & ~(1 << p)
    if (old == 0 and old_jokers < 2) or (old & (old - 1) == 0 and not old_jokers):
        return best  # fewer than two old cards and old jokers in its suit
    # Turn the suit so that the card is at position 0: the answer depends on nothing else.
    old = ((old >> p) | (old << (13 - p))) & FULL
    pool = ((pool_suit >> p) | (pool_suit << (13 - p))) & FULL
    if not jokers:
        seq = _run_third(old, pool)  # a few bit operations: cheaper than the memo
    else:
        key = (old, pool, jokers if jokers < 6 else 6, old_jokers if old_jokers < 2 else 2,
               proxies and old_jokers > 0)
        seq = _SEQUENCE_THIRD.get(key, -1)
        if seq < 0:
            if len(_SEQUENCE_THIRD) > 500_000:
                _SEQUENCE_THIRD.clear()
            seq = _SEQUENCE_THIRD[key] = _sequence_third(*key)
    return seq if seq and (not best or seq < best) else best


_SEQUENCE_THIRD: Final[dict[tuple[int, int, int, int, bool], int]] = {}


def _run_third(old: int, pool: int) -> int:
    """The shortest sequence without jokers holding position 0 and two old cards: a window
    of the run of ``pool`` through 0 (masks turned so the card is at 0), 0 when none."""
    if pool == FULL:
        right = left = 12
    else:
        gaps = ~pool & FULL
        right = (gaps & -gaps).bit_length() - 2  # positions 1..right are held
        high = gaps.bit_length() - 1  # the highest gap: positions high+1..12 are held
        left = 12 - high
    r1 = r2 = l1 = l2 = 0
    for d in range(1, right + 1):
        if old >> d & 1:
            if r1:
                r2 = d
                break
            r1 = d
    for d in range(1, left + 1):
        if old >> (13 - d) & 1:
            if l1:
                l2 = d
                break
            l1 = d
    best = 0
    for length in (r2 + 1 if r2 else 0, l2 + 1 if l2 else 0,
                   l1 + r1 + 1 if l1 and r1 and l1 + r1 < 13 else 0):
        if length and (not best or length < best):
            best = length
    return best


def _sequence_third(old: int, pool: int, jokers: int, old_jokers: int,
                    proxies: bool = False) -> int:
    """The length of the shortest sequence holding position 0 and two old cards (or old
    jokers), the masks turned so the card is at 0; 0 when there is none. With ``proxies``
    an old joker may also stand in for a held card that is not old (``joker_for_held``)."""
    missing = FULL & ~pool
    held_new = pool & ~old & ~1
    for wmask, length in _WINDOWS_AT_ZERO:
        gaps = BITS[wmask & missing]
        if gaps > jokers or gaps * 2 > length:
            continue
        room = gaps
        if proxies:
            room += min(BITS[wmask & held_new], length // 2 - gaps, jokers - gaps)
        if BITS[wmask & old] + (room if room < old_jokers else old_jokers) >= 2:
            return length
    return 0
