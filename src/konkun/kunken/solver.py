"""Meld search over a hand (RULES.md, Кункен): every meld a hand can lay, the most valuable
arrangement of a hand into melds, and whether the bank can be taken from a card.

Hands are *count vectors*: ``counts[k]`` is how many copies of card ``k`` (0..51, see
:mod:`konkun.kunken.melds`) the hand holds, ``counts[52]`` its jokers. With two decks a
count is 0, 1 or 2 (jokers up to 4).

The arrangement search is a depth-first search over the lowest card still undecided (left
in hand, or put in one meld that contains it), memoised on the remaining cards, with a
joker only where the hand holds no copy of the card it stands for (the default rule,
``joker_for_held=false``, docs/kunken.md): under that rule it is exact.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

from konkun.kunken.melds import JOKER_FOR, POSITION_VALUE, VALUE, joker_for, open_joker

NEG = -(10**9)
Meld = tuple[int, ...]


def _windows_with(position: int) -> list[tuple[int, ...]]:
    """Every circular window of 3..13 positions containing ``position``, shortest first."""
    out: list[tuple[int, ...]] = []
    for length in range(3, 14):
        starts = [0] if length == 13 else [(position - off) % 13 for off in range(length)]
        for start in starts:
            out.append(tuple((start + i) % 13 for i in range(length)))
    return out


def _mask(window: Sequence[int]) -> int:
    m = 0
    for p in window:
        m |= 1 << p
    return m


WINDOWS_WITH: tuple[list[tuple[int, tuple[int, ...]]], ...] = tuple(
    [(_mask(w), w) for w in _windows_with(p)] for p in range(13))


def _all_windows() -> list[tuple[int, tuple[int, ...]]]:
    out: list[tuple[int, tuple[int, ...]]] = []
    for length in range(3, 13):
        for start in range(13):
            w = tuple((start + i) % 13 for i in range(length))
            out.append((_mask(w), w))
    out.append((_mask(range(13)), tuple(range(13))))
    return out


ALL_WINDOWS = _all_windows()
FULL = (1 << 13) - 1


def _sequence_variants(base: int, window: Sequence[int], counts: Sequence[int], jokers: int,
                       fixed: int, gaps: int, replace: bool) -> Iterator[Meld]:
    """Every reading of ``window`` (suit ``base // 13``) from the hand: the ``gaps`` are
    jokers, and up to the joker limit a held card may also be replaced by a joker; the card
    at position ``fixed`` (or none: -1) stays real."""
    row = [base + p if counts[base + p] else joker_for(base + p) for p in window]
    yield tuple(row)
    spare = min(jokers, len(window) // 2) - gaps
    if spare <= 0 or not replace:
        return
    held = [i for i, p in enumerate(window) if counts[base + p] and p != fixed]
    for k in range(1, spare + 1):
        for chosen in combinations(held, k):
            variant = row.copy()
            for i in chosen:
                variant[i] = joker_for(variant[i])
            yield tuple(variant)


def _set_variants(position: int, suits: Sequence[int], jokers: int,
                  must: int) -> Iterator[Meld]:
    """Every set of rank ``position`` from the held ``suits`` (each once) and jokers;
    ``must`` (a suit, or -1) must be among the real cards."""
    for size in range(2, min(4, len(suits)) + 1):
        for chosen in combinations(suits, size):
            if must >= 0 and must not in chosen:
                continue
            reals = tuple(s * 13 + position for s in chosen)
            for j in range(min(jokers, 4 - size) + 1):
                n = size + j
                if n < 3 or j * 2 > n:
                    continue
                yield reals + (open_joker(position),) * j


def _suit_mask(counts: Sequence[int], base: int) -> int:
    m = 0
    for p in range(13):
        if counts[base + p]:
            m |= 1 << p
    return m


def hand_melds(counts: Sequence[int], replace: bool = False) -> list[Meld]:
    """Every distinct meld (canonical slots) the hand can lay down now; a joker stands
    for a card the hand holds only with ``replace`` (rule option ``joker_for_held``)."""
    jokers = counts[52]
    out: list[Meld] = []
    for p in range(13):
        suits = [s for s in range(4) if counts[s * 13 + p]]
        if len(suits) >= 2:
            out.extend(_set_variants(p, suits, jokers, -1))
    for s in range(4):
        base = s * 13
        held = _suit_mask(counts, base)
        nheld = held.bit_count()
        if nheld < 2:
            continue
        missing_all = FULL & ~held
        for wmask, window in ALL_WINDOWS:
            length = len(window)
            gaps = (wmask & missing_all).bit_count()
            if gaps > jokers or gaps * 2 > length:
                continue
            out.extend(_sequence_variants(base, window, counts, jokers, -1, gaps, replace))
    return out


def melds_with(card: int, counts: Sequence[int], replace: bool = False) -> list[Meld]:
    """Every meld the hand can lay that holds ``card`` (0..51, held) as a real card, or,
    for ``card`` 52, at least one joker (``replace`` as in :func:`hand_melds`)."""
    if card == 52:
        return [m for m in hand_melds(counts, replace) if any(s >= 52 for s in m)]
    jokers = counts[52]
    p, s = card % 13, card // 13
    out: list[Meld] = []
    suits = [t for t in range(4) if counts[t * 13 + p]]
    if len(suits) >= 2:
        out.extend(_set_variants(p, suits, jokers, s))
    base = s * 13
    missing_all = FULL & ~_suit_mask(counts, base)
    for wmask, window in WINDOWS_WITH[p]:
        gaps = (wmask & missing_all).bit_count()
        if gaps > jokers or gaps * 2 > len(window):
            continue
        out.extend(_sequence_variants(base, window, counts, jokers, p, gaps, replace))
    return out


def slot_hand_card(slot: int) -> int:
    """The hand card a slot uses (a real card, or 52 for a joker)."""
    return slot if slot < 52 else 52


def meld_points(meld: Meld) -> int:
    """Points of a canonical meld."""
    total = 0
    for s in meld:
        if s < 52:
            total += VALUE[s]
        elif s >= 105:
            total += POSITION_VALUE[s - 105]
        else:
            total += VALUE[s - JOKER_FOR]
    return total


# ---------------------------------------------------------------------------------------
# The most valuable arrangement

_MEMO: dict[tuple[int, int, bool], tuple[int, int]] = {}
_MEMO_LIMIT = 400_000


def _code(counts: Sequence[int]) -> int:
    code = 0
    for k in range(52):
        if counts[k]:
            code |= counts[k] << (2 * k)
    return code


def _index_melds(counts: Sequence[int]) -> list[list[tuple[tuple[int, ...], int, int]]]:
    """Every meld of the hand by its lowest real card: (real cards, jokers, points)."""
    by_low: list[list[tuple[tuple[int, ...], int, int]]] = [[] for _ in range(52)]
    for meld in hand_melds(counts):
        reals = tuple(s for s in meld if s < 52)
        by_low[min(reals)].append((reals, len(meld) - len(reals), meld_points(meld)))
    return by_low


class _Search:
    """A bounded, memoised search for melds worth at least a given number of points.

    Knowledge about each remaining hand (keyed by its code, jokers and whether a card must
    be left) is kept as an interval: its best is at least ``lo`` and less than ``hi``.
    """

    __slots__ = ("by_low", "counts")

    def __init__(self, counts: list[int]) -> None:
        self.counts = counts
        self.by_low = _index_melds(counts)
        for lst in self.by_low:
            lst.sort(key=lambda m: -m[2])

    def reach(self, start: int, code: int, total: int, leave: bool, need: int) -> bool:
        """Whether melds worth ``need`` can be laid from the remaining cards (``total``:
        their points, jokers at 10), leaving a card when ``leave``."""
        counts = self.counts
        jokers = counts[52]
        if need <= 0:
            return not leave or total > 0
        if total - (5 if leave else 0) < need:
            return False
        k = start
        while k < 52 and counts[k] == 0:
            k += 1
        if k == 52:
            return False
        key = (code, jokers, leave)
        known = _MEMO.get(key)
        if known is not None:
            if need <= known[0]:
                return True
            if need >= known[1]:
                return False
        ok = False
        for reals, used, points in self.by_low[k]:
            if used > jokers:
                continue
            for c in reals:
                if counts[c] == 0:
                    break
            else:
                sub = code
                lost = 0
                for c in reals:
                    counts[c] -= 1
                    sub -= 1 << 2 * c
                    lost += VALUE[c]
                counts[52] -= used
                ok = self.reach(k, sub, total - lost - 10 * used, leave, need - points)
                counts[52] += used
                for c in reals:
                    counts[c] += 1
                if ok:
                    break
        if not ok:
            counts[k] -= 1
            ok = self.reach(k, code - (1 << 2 * k), total - VALUE[k], False, need)
            counts[k] += 1
        lo, hi = known if known is not None else (0, 1 << 30)
        if ok:
            lo = max(lo, need)
        else:
            hi = min(hi, need)
        if len(_MEMO) > _MEMO_LIMIT:
            _MEMO.clear()
        _MEMO[key] = (lo, hi)
        return ok


def _prepare(counts: list[int]) -> tuple[_Search, int, bool]:
    """Drop the cards no meld can use; return the search, the points left and whether a
    card was dropped (then one is left for the discard)."""
    search = _Search(counts)
    live = [0] * 52
    for lst in search.by_low:
        for reals, _used, _points in lst:
            for c in reals:
                live[c] = 1
    dead = False
    for k in range(52):
        if counts[k] and not live[k]:
            dead = True
            counts[k] = 0
    total = sum(VALUE[k] * counts[k] for k in range(53))
    return search, total, dead


def reach_points(counts: Sequence[int], need: int, leave_one: bool = False) -> bool:
    """Whether the hand can lay melds worth at least ``need`` points (``leave_one``:
    keeping a card for the discard)."""
    work = list(counts)
    if need <= 0:
        return not leave_one or sum(work) > 0
    search, total, dead = _prepare(work)
    return search.reach(0, _code(work), total, leave_one and not dead, need)


def max_meld_points(counts: Sequence[int], leave_one: bool = False) -> int:
    """The most points the hand can lay down in melds (``leave_one``: keeping at least one
    card for the discard; -1 when no card can be kept, i.e. an empty hand)."""
    work = list(counts)
    if leave_one and sum(work) == 0:
        return -1
    search, total, dead = _prepare(work)
    leave = leave_one and not dead
    code = _code(work)
    lo, hi = 0, total + 5  # the best is in [lo, hi)
    while hi - lo > 5:
        mid = (lo + hi) // 10 * 5
        if mid <= lo:
            mid = lo + 5
        if search.reach(0, code, total, leave, mid):
            lo = mid
        else:
            hi = mid
    return lo


def best_arrangement(counts: Sequence[int], leave_one: bool = False) -> list[Meld]:
    """A most valuable arrangement of the hand into melds (canonical slots), keeping a card
    for the discard when ``leave_one``."""
    target = max_meld_points(counts, leave_one)
    if target <= 0:
        return []
    work = list(counts)
    search, total, dead = _prepare(work)
    leave = leave_one and not dead
    out: list[Meld] = []
    k = 0
    code = _code(work)
    need = target
    while need > 0:
        while work[k] == 0:
            k += 1
        for meld in melds_with(k, work):
            reals = [s for s in meld if s < 52]
            used = len(meld) - len(reals)
            if min(reals) != k or used > work[52]:
                continue
            points = meld_points(meld)
            sub = code
            lost = 10 * used
            for c in reals:
                work[c] -= 1
                sub -= 1 << 2 * c
                lost += VALUE[c]
            work[52] -= used
            if search.reach(k, sub, total - lost, leave, need - points):
                out.append(meld)
                code, total, need = sub, total - lost, need - points
                break
            work[52] += used
            for c in reals:
                work[c] += 1
        else:
            work[k] -= 1
            code -= 1 << 2 * k
            total -= VALUE[k]
            leave = False
    return out


# ---------------------------------------------------------------------------------------
# The take and the turn's obligations


def third_card_melds(card: int, counts: Sequence[int], taken: Sequence[int]) -> list[Meld]:
    """Melds holding ``card`` (the taken card) and at least two other cards that were in
    the hand before the take: ``counts`` is the hand now, ``taken`` the cards taken this
    turn still in it (taken copies count as leaving first)."""
    out: list[Meld] = []
    if counts[card] == 0:
        return out
    for meld in melds_with(card, counts):
        old = 0
        jokers = 0
        skipped_card = False
        for s in meld:
            if s >= 52:
                jokers += 1
            elif s == card and not skipped_card:
                skipped_card = True
            elif counts[s] > taken[s]:
                old += 1
        old_jokers = counts[52] - taken[52]
        if card == 52:
            jokers -= 1  # the taken joker itself
            old_jokers = min(old_jokers, counts[52] - 1)
        old += max(0, min(jokers, old_jokers))
        if old >= 2:
            out.append(meld)
    return out


def can_complete(counts: Sequence[int], taken: Sequence[int], card: int, need: int,
                 pending: bool) -> bool:
    """Whether a take turn can still be completed by laying melds: when ``pending``, a meld
    holding ``card`` with two old cards (:func:`third_card_melds`), melds worth ``need``
    more points in all, and a card left to discard."""
    size = sum(counts)
    if not pending:
        if need <= 0:
            return size >= 1
        if sum(VALUE[k] * counts[k] for k in range(53)) - 5 < need:
            return False
        return max_meld_points(counts, True) >= need
    work = list(counts)
    total = sum(VALUE[k] * work[k] for k in range(53))
    for meld in third_card_melds(card, work, taken):
        if len(meld) >= size:
            continue
        points = meld_points(meld)
        rest_need = need - points
        if rest_need <= 0:
            return True
        for s in meld:
            work[s if s < 52 else 52] -= 1
        ok = total - points - 5 >= rest_need and max_meld_points(work, True) >= rest_need
        for s in meld:
            work[s if s < 52 else 52] += 1
        if ok:
            return True
    return False
