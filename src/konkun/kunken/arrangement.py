"""The most valuable arrangement of a hand into melds (RULES.md, Кункен), over count vectors
(:mod:`konkun.kunken.hand_melds`).

The search is a depth-first search over the lowest card still undecided (left in hand, or
put in one meld that contains it), memoised on the remaining cards, with a joker only where
the hand holds no copy of the card it stands for unless ``replace`` (rule option
``joker_for_held``): it is exact for such arrangements.

Built (``python -m konkun.native --build``), the search runs in C (``hand_search.c``, the
module ``konkun.kunken.hand_search``), which also lists each group's melds itself;
:class:`ReferenceSearch` is the same search in Python and :func:`group_options` the same
listing, used when the C core is not built (or ``KONKUN_PURE`` is set) and by the tests that
prove both agree.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final, Protocol, cast

from konkun.kunken.hand_melds import (
    Meld,
    hand_meld_groups,
    meld_group,
    meld_points,
    melds_with,
)
from konkun.kunken.melds import POSITION_VALUE, VALUE

_INFO: Final[dict[Meld, tuple[int, tuple[int, ...], int, int]]] = {}

_Option = tuple[tuple[int, ...], int, int, int, int]
"""A meld as the search uses it: (real cards, jokers, points, its cards' part of a hand
code, its cards' value in the hand)."""
_OPTION: Final[dict[Meld, tuple[int, object]]] = {}
"""The search's option for a meld (an :data:`_Option`), with the meld's lowest card. Typed
``object`` so that a compiled module keeps the option's tuple as it is: it would take a
tuple typed ``_Option`` apart and build a new one each time it stores it in a list."""
_GROUP_OPTIONS: Final[dict[int, tuple[tuple[int, object], ...]]] = {}
""":data:`_OPTION` of each meld of a group of :func:`hand_meld_groups`, by its key."""
_CODE_SHIFT: Final = 4
"""A remaining hand's code, as :class:`HandSearch` keys its memo: the count of card ``k``
at bit ``2 * k + _CODE_SHIFT``, the low bits free for the jokers and whether a card must be
left (one ``|`` makes the key: the code is a large int, each operation on it allocates)."""
_CARD_CODE: Final[tuple[int, ...]] = tuple(1 << (2 * k + _CODE_SHIFT) for k in range(52))
"""One card ``k`` in a hand code."""
_LO: Final = 31
"""A memo entry of :class:`HandSearch` is ``lo << _LO | hi``: the remaining hand's best is
at least ``lo`` and less than ``hi`` (both below ``1 << 31``)."""
_HI: Final = (1 << _LO) - 1
"""The ``hi`` bits of a memo entry."""
_UNBOUNDED: Final = 1 << 30
"""``hi`` when nothing bounds the best from above."""
_NO_OPTIONS: Final[list[_Option]] = []
"""The options of a card that is the lowest of no meld of the hand (shared, never changed)."""


def _info(meld: Meld) -> tuple[int, tuple[int, ...], int, int]:
    """(lowest real card, real cards, jokers, points) of a meld."""
    hit = _INFO.get(meld)
    if hit is None:
        reals = tuple(s for s in meld if s < 52)
        hit = (min(reals), reals, len(meld) - len(reals), meld_points(meld))
        _INFO[meld] = hit
    return hit


def _options(melds: tuple[Meld, ...]) -> tuple[tuple[int, object], ...]:
    """The search's options of melds, each with its lowest card (:data:`_OPTION`)."""
    out = []
    for meld in melds:
        hit = _OPTION.get(meld)
        if hit is None:
            low, reals, used, points = _info(meld)
            hit = _OPTION[meld] = (low, (reals, used, points, sum(_CARD_CODE[c] for c in reals),
                                         10 * used + sum(VALUE[c] for c in reals)))
        out.append(hit)
    return tuple(out)


def group_options(kind: int, place: int, mask: int, jokers: int
                  ) -> tuple[tuple[int, object], ...]:
    """The search's options of one group of melds (:func:`~konkun.kunken.hand_melds.meld_group`
    of the same arguments), each with its lowest card: the reference of what the C core
    lists for each group it meets (``hand_search.group_options``, the same without the
    hand code)."""
    return _options(meld_group(kind, place, mask, jokers)[1])


def _group_options(key: int, melds: tuple[Meld, ...]) -> tuple[tuple[int, object], ...]:
    """The search's options of a group of melds (:func:`hand_meld_groups`), cached by its
    key."""
    group = _options(melds)
    if len(_GROUP_OPTIONS) > 200_000:
        _GROUP_OPTIONS.clear()
    _GROUP_OPTIONS[key] = group
    return group


class Search(Protocol):
    """What :class:`HandSearch` runs: :class:`ReferenceSearch` or the C core's ``Search``."""

    def reach_from(self, counts: list[int], need: int, leave: bool) -> bool:
        """Whether melds worth ``need`` can be laid from ``counts``, keeping a card when
        ``leave``."""

    def live_value(self, counts: list[int]) -> int:
        """The points of the cards of ``counts`` in some meld of the hand, and of its
        jokers."""


def _c_core() -> Callable[[list[int], bool], Search] | None:
    """The C core's search type, when it is built and its build is in use."""
    try:
        from konkun.kunken import hand_search
    except ImportError:
        return None
    hand_search.configure(VALUE, POSITION_VALUE)
    return hand_search.Search


C_SEARCH: Final = _c_core()
"""The C core's search (``konkun.kunken.hand_search.Search``), or ``None`` when it is not
built: ``konkun.kunken``'s compiled build (:mod:`konkun.native`) holds it, so it is used
exactly when that build is current and ``KONKUN_PURE`` is not set."""


class HandSearch:
    """A bounded, memoised search for melds worth at least a given number of points, over
    a hand and any part of it: the C core's when it is built, else :class:`ReferenceSearch`.

    ``counts`` holds 53 counts: copies of each card (at most 3), then the jokers (at most
    7); the C core refuses anything else with a :class:`ValueError` or :class:`TypeError`.
    """

    __slots__ = ("replace", "search")

    def __init__(self, counts: list[int], replace: bool = False) -> None:
        self.replace = replace
        self.search: Search = (ReferenceSearch(counts, replace) if C_SEARCH is None
                               else C_SEARCH(counts, replace))

    def reach_from(self, counts: list[int], need: int, leave: bool) -> bool:
        """Whether melds worth ``need`` can be laid from ``counts`` (a part of the hand the
        search was built for), keeping a card when ``leave``. ``counts`` is restored."""
        return self.search.reach_from(counts, need, leave)

    def live_value(self, counts: list[int]) -> int:
        """The points of the cards of ``counts`` that are in some meld of the hand, and of
        its jokers: no arrangement of ``counts`` is worth more."""
        return self.search.live_value(counts)


class ReferenceSearch:
    """A bounded, memoised search for melds worth at least a given number of points, over
    a hand and any part of it (the reference, in Python, of the C core's search).

    Knowledge about each remaining hand (keyed by its code, jokers and whether a card must
    be left) is kept as an interval: its best is at least ``lo`` and less than ``hi``. The
    melds searched are those of the hand the search was built for (a joker only where that
    hand lacks the card), so an answer depends on that hand and the part asked about, never
    on earlier questions: the engine asks its legality questions of the same hands when it
    lists legal actions and when it validates one.
    """

    __slots__ = ("by_low", "counts", "live", "memo", "replace")

    def __init__(self, counts: list[int], replace: bool = False) -> None:
        self.counts = list(counts)
        self.replace = replace
        # Each bound pair is one int (lo << 31 | hi, :data:`_LO`): a dict of ints only is
        # never tracked by the cyclic collector, and no tuple is made per entry.
        self.memo: dict[int, int] = {}
        # Most cards are the lowest of no meld: they share one empty list (never appended
        # to) instead of 52 new lists per search, each one more object for the collector.
        by_low: list[list[_Option]] = [_NO_OPTIONS] * 52
        live = [False] * 53
        for key, melds in hand_meld_groups(counts, replace):
            group = _GROUP_OPTIONS.get(key)
            if group is None:
                group = _group_options(key, melds)
            for low, option in group:
                options = by_low[low]
                if options is _NO_OPTIONS:
                    by_low[low] = cast("list[_Option]", [option])
                else:
                    cast("list[object]", options).append(option)
                for c in cast("_Option", option)[0]:
                    live[c] = True
        for lst in by_low:
            if len(lst) > 1:
                lst.sort(key=lambda m: -m[2])
        self.by_low = by_low
        self.live = live

    def live_value(self, counts: list[int]) -> int:
        """The points of the cards of ``counts`` that are in some meld of the hand, and of
        its jokers."""
        live = self.live
        return VALUE[52] * counts[52] + sum([VALUE[k] * counts[k] for k in range(52) if live[k]])

    def reach_from(self, counts: list[int], need: int, leave: bool) -> bool:
        """Whether melds worth ``need`` can be laid from ``counts`` (a part of the hand the
        search was built for), keeping a card when ``leave``. ``counts`` is restored."""
        if need <= 0:
            return not leave or sum(counts) > 0
        live = self.live
        dropped: list[int] = []
        total = 10 * counts[52]
        # The hand's code (:data:`_CODE_SHIFT`) in two halves (cards 0..25 and 26..51),
        # each a small int while it is built: compiled, shifts past 62 bits would allocate
        # at every card.
        low = high = 0
        for k in range(52):
            n = counts[k]
            if not n:
                continue
            if live[k]:
                total += VALUE[k] * n
                if k < 26:
                    low |= n << (2 * k + _CODE_SHIFT)
                else:
                    high |= n << (2 * k - 52)
            else:
                dropped.append(k)
        if total < need:
            return False
        code = high << (52 + _CODE_SHIFT) | low
        self.counts = counts
        if not dropped:
            return self._reach(0, code, total, leave, need)
        saved = [counts[k] for k in dropped]
        for k in dropped:
            counts[k] = 0
        try:
            return self._reach(0, code, total, leave and not dropped, need)
        finally:
            for i in range(len(dropped)):
                counts[dropped[i]] = saved[i]

    def _reach(self, start: int, code: int, total: int, leave: bool, need: int) -> bool:
        counts = self.counts
        jokers = counts[52]
        if need <= 0:
            return not leave or total > 0
        if total - (5 if leave else 0) < need:
            return False
        k = start
        while counts[k] == 0:
            k += 1
            if k == 52:
                return False
        key = code | jokers << 1 | leave
        memo = self.memo
        known = memo.get(key)
        if known is not None:
            if need <= known >> _LO:
                return True
            if need >= known & _HI:
                return False
        ok = False
        for reals, used, points, delta, lost in self.by_low[k]:
            if used > jokers:
                continue
            for c in reals:
                if counts[c] == 0:
                    break
            else:
                for c in reals:
                    counts[c] -= 1
                counts[52] -= used
                ok = self._reach(k, code - delta, total - lost, leave, need - points)
                counts[52] += used
                for c in reals:
                    counts[c] += 1
                if ok:
                    break
        if not ok:
            counts[k] -= 1
            ok = self._reach(k, code - _CARD_CODE[k], total - VALUE[k], False, need)
            counts[k] += 1
        if known is None:
            memo[key] = need << _LO | _UNBOUNDED if ok else need
        else:
            lo, hi = known >> _LO, known & _HI
            if ok:
                memo[key] = (need if need > lo else lo) << _LO | hi
            else:
                memo[key] = lo << _LO | (need if need < hi else hi)
        return ok


def reach_points(counts: list[int], need: int, leave_one: bool = False) -> bool:
    """Whether the hand can lay melds worth at least ``need`` points (``leave_one``:
    keeping a card for the discard)."""
    return HandSearch(counts).reach_from(list(counts), need, leave_one)


def max_meld_points(counts: Sequence[int], leave_one: bool = False,
                    replace: bool = False) -> int:
    """The most points the hand can lay down in melds (``leave_one``: keeping at least one
    card for the discard; -1 when no card can be kept, i.e. an empty hand; ``replace``: a
    joker may stand for a held card, ``joker_for_held``)."""
    work = list(counts)
    if leave_one and sum(work) == 0:
        return -1
    search = HandSearch(work, replace)
    upper = search.live_value(work)
    lo, hi = 0, upper + 5  # the best is in [lo, hi)
    while hi - lo > 5:
        mid = (lo + hi) // 10 * 5
        if mid <= lo:
            mid = lo + 5
        if search.reach_from(work, mid, leave_one):
            lo = mid
        else:
            hi = mid
    return lo


def best_arrangement(counts: Sequence[int], leave_one: bool = False,
                     replace: bool = False) -> list[Meld]:
    """A most valuable arrangement of the hand into melds (canonical slots), keeping a card
    for the discard when ``leave_one`` (``replace`` as in :func:`max_meld_points`)."""
    work = list(counts)
    target = max_meld_points(counts, leave_one, replace)
    return arrangement_worth(work, target, leave_one, HandSearch(work, replace)) or []


def arrangement_worth(work: list[int], need: int, leave: bool,
                     search: HandSearch) -> list[Meld] | None:
    """Melds from ``work`` worth ``need`` (keeping a card when ``leave``), or ``None``."""
    if not search.reach_from(work, need, leave):
        return None
    out: list[Meld] = []
    k = 0
    removed: list[int] = []
    while need > 0:
        while work[k] == 0:
            k += 1
        for meld in melds_with(k, work, search.replace):
            low, reals, used, points = _info(meld)
            if low != k or used > work[52]:
                continue
            for c in reals:
                work[c] -= 1
            work[52] -= used
            if search.reach_from(work, need - points, leave):
                out.append(meld)
                removed.extend(reals)
                removed.extend([52] * used)
                need -= points
                break
            work[52] += used
            for c in reals:
                work[c] += 1
        else:
            work[k] -= 1
            removed.append(k)
            leave = False
    for c in removed:
        work[c] += 1
    return out
