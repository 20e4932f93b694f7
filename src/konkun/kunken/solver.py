"""Meld search over a hand (RULES.md, Кункен): every meld a hand can lay, the most valuable
arrangement of a hand into melds, whether a take can be completed, and hints.

Hands are *count vectors*: ``counts[k]`` is how many copies of card ``k`` (0..51, see
:mod:`konkun.kunken.melds`) the hand holds, ``counts[52]`` its jokers. With two decks a
count is 0, 1 or 2 (jokers up to 4).

The arrangement search is a depth-first search over the lowest card still undecided (left
in hand, or put in one meld that contains it), memoised on the remaining cards, with a
joker only where the hand holds no copy of the card it stands for (the default rule,
``joker_for_held=false``, docs/kunken.md, decision 11): it is exact for such arrangements.
Meld lists per suit pattern are cached, so the search is fast enough for play-outs.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

from konkun.kunken.melds import JOKER_FOR, OPEN_JOKER, VALUE, joker_for, open_joker, slot_value

Meld = tuple[int, ...]
Step = tuple[str, int, tuple[int, ...]]
"""A step of a take turn: (``meld``, -1, slots), (``swap``, meld, (card,)) or
(``layoff``, meld, (card,))."""
FULL = (1 << 13) - 1


def _mask(window: Sequence[int]) -> int:
    m = 0
    for p in window:
        m |= 1 << p
    return m


# ---------------------------------------------------------------------------------------
# Meld enumeration (cached by suit pattern)

_SEQ_CACHE: dict[tuple[int, int, int], tuple[list[Meld], list[list[int]]]] = {}
_SET_CACHE: dict[tuple[int, int, int], list[Meld]] = {}


_REL_CACHE: dict[tuple[int, int], tuple[list[tuple[int, ...]], list[list[int]]]] = {}
_POS: tuple[tuple[int, int], ...] = tuple((k % 13, k // 13) for k in range(52))


def _relative_sequences(held: int, jokers: int) -> tuple[list[tuple[int, ...]], list[list[int]]]:
    """The windows (positions, by length, then start) that make sequences from the
    held positions (mask) and ``jokers``, and for each position the indices of the windows
    holding it as a real card."""
    key = (held, jokers)
    hit = _REL_CACHE.get(key)
    if hit is not None:
        return hit
    found: list[tuple[int, int]] = []
    if held.bit_count() >= 2:
        for start in range(13):
            gaps = 0
            for length in range(1, 14 if start == 0 else 13):
                if not held >> ((start + length - 1) % 13) & 1:
                    gaps += 1
                    if gaps > jokers:
                        break
                if length >= 3 and gaps * 2 <= length:
                    found.append((length, start))
        found.sort()
    windows = [_WINDOW[length][start] for length, start in found]
    by_pos: list[list[int]] = [[] for _ in range(13)]
    for i, window in enumerate(windows):
        for p in window:
            if held >> p & 1:
                by_pos[p].append(i)
    hit = (windows, by_pos)
    _REL_CACHE[key] = hit
    return hit


_WINDOW: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple((start + i) % 13 for i in range(length)) for start in range(13))
    for length in range(14))


def _sequences(suit: int, held: int, jokers: int) -> tuple[list[Meld], list[list[int]]]:
    """Sequences of ``suit`` from the held positions (mask) and jokers, a joker only where
    no card is held; and for each position the indices of those holding it as a real
    card."""
    jokers = min(jokers, 6)
    key = (suit, held, jokers)
    hit = _SEQ_CACHE.get(key)
    if hit is not None:
        return hit
    base = suit * 13
    get = (_LOOK_HELD[base] if held == FULL else tuple(
        base + p if held >> p & 1 else JOKER_FOR + base + p for p in range(13))).__getitem__
    windows, positions = _relative_sequences(held, jokers)
    hit = ([tuple(map(get, window)) for window in windows], positions)
    if len(_SEQ_CACHE) > 200_000:
        _SEQ_CACHE.clear()
    _SEQ_CACHE[key] = hit
    return hit


_LOOK_HELD = {base: tuple(range(base, base + 13)) for base in (0, 13, 26, 39)}


def _sets(position: int, suits: int, jokers: int) -> list[Meld]:
    """Sets of rank ``position`` from the held suits (mask) and open-suit jokers."""
    key = (position, suits, min(jokers, 2))
    hit = _SET_CACHE.get(key)
    if hit is not None:
        return hit
    held = [s for s in range(4) if suits >> s & 1]
    out: list[Meld] = []
    for size in range(2, len(held) + 1):
        for chosen in combinations(held, size):
            reals = tuple(s * 13 + position for s in chosen)
            for j in range(min(jokers, 4 - size) + 1):
                n = size + j
                if n >= 3 and j * 2 <= n:
                    out.append(reals + (open_joker(position),) * j)
    _SET_CACHE[key] = out
    return out


def _suit_mask(counts: Sequence[int], base: int) -> int:
    m = 0
    for p in range(13):
        if counts[base + p]:
            m |= 1 << p
    return m


def _rank_mask(counts: Sequence[int], position: int) -> int:
    m = 0
    for s in range(4):
        if counts[s * 13 + position]:
            m |= 1 << s
    return m


def _replacements(meld: Meld, jokers: int, fixed: int) -> Iterator[Meld]:
    """Readings of a sequence with held cards also replaced by jokers (``joker_for_held``)."""
    used = sum(1 for s in meld if s >= 52)
    spare = min(jokers, len(meld) // 2) - used
    held = [i for i, s in enumerate(meld) if s < 52 and s != fixed]
    for k in range(1, spare + 1):
        for chosen in combinations(held, k):
            variant = list(meld)
            for i in chosen:
                variant[i] = joker_for(variant[i])
            yield tuple(variant)


def hand_melds(counts: Sequence[int], replace: bool = False) -> list[Meld]:
    """Every distinct meld (canonical slots) the hand can lay down now; a joker stands
    for a card the hand holds only with ``replace`` (rule option ``joker_for_held``)."""
    jokers = counts[52]
    out: list[Meld] = []
    rank_masks = [0] * 13
    suit_masks = [0, 0, 0, 0]
    for k in range(52):
        if counts[k]:
            p, s = _POS[k]
            rank_masks[p] |= 1 << s
            suit_masks[s] |= 1 << p
    for p in range(13):
        suits = rank_masks[p]
        if suits & (suits - 1):
            out.extend(_sets(p, suits, jokers))
    for s in range(4):
        if not suit_masks[s]:
            continue
        seqs = _sequences(s, suit_masks[s], jokers)[0]
        out.extend(seqs)
        if replace and jokers:
            for meld in seqs:
                out.extend(_replacements(meld, jokers, -1))
    return out


def declared_set_variants(meld: Meld) -> list[Meld]:
    """A set of three with one open joker declared each way (RULES.md: a set joker's suit
    may be declared, or stay open): ``Kc Kd X=Kh`` and ``Kc Kd X=Ks`` for ``Kc Kd X``.
    Empty for any other meld (in a set of four the jokers' suits are forced)."""
    if len(meld) != 3 or meld[2] < OPEN_JOKER or meld[1] >= 52:
        return []
    rank = meld[2] - OPEN_JOKER
    present = {meld[0] // 13, meld[1] // 13}
    return [(meld[0], meld[1], joker_for(t * 13 + rank)) for t in range(4) if t not in present]


def melds_with(card: int, counts: Sequence[int], replace: bool = False) -> list[Meld]:
    """Every meld the hand can lay that holds ``card`` (0..51, held) as a real card, or,
    for ``card`` 52, at least one joker (``replace`` as in :func:`hand_melds`)."""
    if card == 52:
        return [m for m in hand_melds(counts, replace) if any(s >= 52 for s in m)]
    jokers = counts[52]
    p, s = divmod(card, 13)[::-1]
    out: list[Meld] = []
    suits = _rank_mask(counts, p)
    if suits.bit_count() >= 2:
        out.extend(m for m in _sets(p, suits, jokers) if card in m)
    melds, positions = _sequences(s, _suit_mask(counts, s * 13), jokers)
    seqs = [melds[i] for i in positions[p]]
    out.extend(seqs)
    if replace and jokers:
        for meld in seqs:
            out.extend(_replacements(meld, jokers, card))
    return out


_POINTS: dict[Meld, int] = {}


def meld_points(meld: Sequence[int]) -> int:
    """Points of a meld's slots (a joker worth the card it stands for)."""
    key = meld if isinstance(meld, tuple) else tuple(meld)
    hit = _POINTS.get(key)
    if hit is not None:
        return hit
    total = sum(map(slot_value, meld))
    _POINTS[key] = total
    return total


# ---------------------------------------------------------------------------------------
# The arrangement search

_INFO: dict[Meld, tuple[int, tuple[int, ...], int, int]] = {}

_Option = tuple[tuple[int, ...], int, int, int, int]
"""A meld as the search uses it: (real cards, jokers, points, its cards' part of a hand
code, its cards' value in the hand)."""
_OPTION: dict[Meld, tuple[int, _Option]] = {}
"""The search's option for a meld, with the meld's lowest card."""


def _info(meld: Meld) -> tuple[int, tuple[int, ...], int, int]:
    """(lowest real card, real cards, jokers, points) of a meld."""
    hit = _INFO.get(meld)
    if hit is None:
        reals = tuple(s for s in meld if s < 52)
        hit = (min(reals), reals, len(meld) - len(reals), meld_points(meld))
        _INFO[meld] = hit
    return hit


_CARDS = range(52)


class HandSearch:
    """A bounded, memoised search for melds worth at least a given number of points, over
    a hand and any part of it.

    Knowledge about each remaining hand (keyed by its code, jokers and whether a card must
    be left) is kept as an interval: its best is at least ``lo`` and less than ``hi``. The
    melds searched are those of the hand the search was built for (a joker only where that
    hand lacks the card), so an answer depends on that hand and the part asked about, never
    on earlier questions: the engine asks its legality questions of the same hands when it
    lists legal actions and when it validates one.
    """

    __slots__ = ("by_low", "counts", "live", "memo", "replace")

    def __init__(self, counts: Sequence[int], replace: bool = False) -> None:
        self.counts = list(counts)
        self.replace = replace
        self.memo: dict[int, tuple[int, int]] = {}
        by_low: list[list[_Option]] = [[] for _ in range(52)]
        live = [False] * 53
        for meld in hand_melds(counts, replace):
            hit = _OPTION.get(meld)
            if hit is None:
                low, reals, used, points = _info(meld)
                hit = _OPTION[meld] = (low, (reals, used, points, sum(1 << 2 * c for c in reals),
                                             10 * used + sum(VALUE[c] for c in reals)))
            by_low[hit[0]].append(hit[1])
            for c in hit[1][0]:
                live[c] = True
        for lst in by_low:
            if len(lst) > 1:
                lst.sort(key=lambda m: -m[2])
        self.by_low = by_low
        self.live = live

    def reach_from(self, counts: list[int], need: int, leave: bool) -> bool:
        """Whether melds worth ``need`` can be laid from ``counts`` (a part of the hand the
        search was built for), keeping a card when ``leave``. ``counts`` is restored."""
        if need <= 0:
            return not leave or sum(counts) > 0
        live = self.live
        dropped: list[int] = []
        total = 10 * counts[52]
        code = 0
        for k in [k for k in _CARDS if counts[k]]:
            if live[k]:
                n = counts[k]
                total += VALUE[k] * n
                code |= n << (2 * k)
            else:
                dropped.append(k)
        if total < need:
            return False
        saved = [counts[k] for k in dropped]
        for k in dropped:
            counts[k] = 0
        self.counts = counts
        try:
            return self._reach(0, code, total, leave and not dropped, need)
        finally:
            for k, n in zip(dropped, saved, strict=True):
                counts[k] = n

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
        key = code << 4 | jokers << 1 | leave
        memo = self.memo
        known = memo.get(key)
        if known is not None:
            if need <= known[0]:
                return True
            if need >= known[1]:
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
            ok = self._reach(k, code - (1 << 2 * k), total - VALUE[k], False, need)
            counts[k] += 1
        if known is None:
            memo[key] = (need, 1 << 30) if ok else (0, need)
        elif ok:
            memo[key] = (need if need > known[0] else known[0], known[1])
        else:
            memo[key] = (known[0], need if need < known[1] else known[1])
        return ok


def reach_points(counts: Sequence[int], need: int, leave_one: bool = False) -> bool:
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
    upper = sum(VALUE[k] * work[k] for k in range(53) if k == 52 or search.live[k])
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
    return _arrangement_for(work, target, leave_one, HandSearch(work, replace)) or []


# ---------------------------------------------------------------------------------------
# The take and the turn's obligations


def third_card_melds(card: int, counts: Sequence[int], taken: Sequence[int],
                     replace: bool = False) -> list[Meld]:
    """Melds holding ``card`` (the taken card) and at least two other cards that were in
    the hand before the take: ``counts`` is the hand now, ``taken`` the cards in it that
    were not (taken this turn, or jokers swapped in); taken copies count as leaving first.
    ``replace``: a joker may stand for a held card (``joker_for_held``)."""
    if counts[card] == 0:
        return []
    return [meld for meld in melds_with(card, counts, replace)
            if is_third_card_meld(meld, card, counts, taken)]


def is_third_card_meld(meld: Meld, card: int, counts: Sequence[int],
                       taken: Sequence[int]) -> bool:
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


def can_complete(counts: Sequence[int], taken: Sequence[int], card: int, need: int,
                 pending: bool, search: HandSearch | None = None,
                 size: int = -1, checked: bool = False, replace: bool = False) -> bool:
    """Whether a take turn can still be completed by laying melds: when ``pending``, a meld
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
        ok = search.reach_from(work, need - meld_points(meld), True)
        for s in meld:
            work[s if s < 52 else 52] += 1
        if ok:
            return True
    return False


def take_options(counts: Sequence[int], bank: Sequence[int], need: int) -> list[int]:
    """The bank positions from which a hand can take the bank (``need``: the opening
    minimum, 0 with a layout): a hint for bots and the UI."""
    out: list[int] = []
    for i in range(len(bank)):
        after, taken = after_take(counts, bank, i)
        if can_complete(after, taken, bank[i], need, True):
            out.append(i)
    return out


def after_take(hand: Sequence[int], bank: Sequence[int], i: int) -> tuple[list[int], list[int]]:
    """The hand after taking the bank from position ``i``, and the cards in it that were
    taken (count vectors)."""
    after = list(hand)
    taken = [0] * 53
    for c in bank[i:]:
        after[c] += 1
        taken[c] += 1
    return after, taken


def third_card_length(card: int, counts: Sequence[int], taken: Sequence[int],
                      replace: bool = False) -> int:
    """The length of the shortest meld of :func:`third_card_melds`, 0 when there is none;
    computed from bit masks, without listing the melds (``replace``: a joker may stand for
    a held card, ``joker_for_held``)."""
    if counts[card] == 0:
        return 0
    if card == 52:
        return _joker_third(counts, taken, replace)
    p, s = _POS[card]
    return _shortest_third(p, s, counts[52], counts[52] - taken[52],
                           *_card_masks(p, s, counts, taken), replace)


def _card_masks(p: int, s: int, counts: Sequence[int],
                taken: Sequence[int]) -> tuple[int, int, int, int]:
    """(old suit, old rank, pool suit, pool rank): :func:`_suit_masks` of suit ``s`` and
    :func:`_rank_masks` of position ``p``."""
    old_suit, pool_suit = _suit_masks(s, counts, taken)
    old_rank, pool_rank = _rank_masks(p, counts, taken)
    return old_suit, old_rank, pool_suit, pool_rank


def _suit_masks(s: int, counts: Sequence[int], taken: Sequence[int]) -> tuple[int, int]:
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


def _rank_masks(p: int, counts: Sequence[int], taken: Sequence[int]) -> tuple[int, int]:
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

    def __init__(self, card: int, counts: Sequence[int], taken: Sequence[int],
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
        self.p, self.s = _POS[card]
        self.jokers = counts[52]
        self.masks = _card_masks(self.p, self.s, counts, taken)
        self.base = (0 if not counts[card] else _shortest_third(
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
            q, t = _POS[x]
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
        return _shortest_third(p, s, jokers, jokers - fresh, old_suit, old_rank, pool_suit,
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


def _joker_third(counts: Sequence[int], taken: Sequence[int], proxies: bool = False) -> int:
    """:func:`third_card_length` for a taken joker (held): the shortest meld with a joker
    and two old cards, counting all but one of its jokers as old up to the old jokers."""
    jokers = counts[52]
    old_jokers = min(jokers - taken[52], jokers - 1)
    best = 0
    for p in range(13):  # sets: two old cards and the joker, or one old card, two jokers
        old, pool = _rank_masks(p, counts, taken)
        if old & (old - 1):
            return 3
        if old and pool != old and jokers >= 2 and old_jokers >= 1:
            best = 4
    for s in range(4):
        old, pool = _suit_masks(s, counts, taken)
        if pool.bit_count() < 2 or (pool == FULL and not proxies) or (
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


_JOKER_SEQUENCE_THIRD: dict[tuple[int, int, int, int, bool], int] = {}


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
        gaps = (wmask & missing).bit_count()
        cap = min(length // 2, jokers)
        if gaps > cap:
            continue
        old_n = (wmask & old).bit_count()
        if proxies:
            slots = min(cap, gaps + (wmask & held_new).bit_count())
            count = old_n + min(old_jokers, slots - 1) if slots else old_n - 1
        elif not gaps:
            continue
        else:
            count = old_n + min(gaps - 1, old_jokers)
        if count >= 2:
            best = length
    return best


_ALL_WINDOW_MASKS = tuple((_mask(_WINDOW[length][start]), length) for length in range(3, 14)
                          for start in range(13 if length < 13 else 1))
"""(mask, length) of every sequence window, by length, then start."""
_WINDOWS_AT_ZERO = tuple(w for w in _ALL_WINDOW_MASKS if w[0] & 1)
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


def take_positions(hand: Sequence[int], bank: Sequence[int], need: int,
                   replace: bool = False) -> list[int]:
    """The bank positions from which ``hand`` can take the bank and complete the turn by
    laying melds (``need``: the opening minimum, 0 with a layout; ``replace``: rule option
    ``joker_for_held``), in order. Joker swaps are not looked at: this is the fast path of
    :func:`konkun.kunken.completion.take_positions`, exact when no swap can help."""
    if need <= 0:
        return _free_take_positions(hand, bank, replace)
    old_suit, old_rank = _hand_masks(hand)
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
            p, s = _POS[card]
            pool_suit[s] |= 1 << p
            pool_rank[p] |= 1 << s
            if not _shortest_third(p, s, after[52], hand[52], old_suit[s], old_rank[p],
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


def _free_take_positions(hand: Sequence[int], bank: Sequence[int],
                         replace: bool = False) -> list[int]:
    """:func:`take_positions` with no points due: the taken card's shortest third-card meld
    must leave a card to discard."""
    old_suit, old_rank = _hand_masks(hand)
    pool_suit = old_suit.copy()
    pool_rank = old_rank.copy()
    old_jokers = jokers = hand[52]
    out: list[int] = []
    size = sum(hand) + len(bank)  # the hand's size after taking from position 0
    for i in range(len(bank) - 1, -1, -1):
        card = bank[i]
        if card == 52:
            jokers += 1
            shortest = third_card_length(52, *after_take(hand, bank, i), replace)
        else:
            p, s = _POS[card]
            pool_suit[s] |= 1 << p
            pool_rank[p] |= 1 << s
            pair = old_rank[p] & ~(1 << s)  # old cards of its rank: a set of three?
            if pair and (old_jokers or pair & (pair - 1)):
                shortest = 3
            elif (old_jokers < 2 and not old_suit[s] & ~(1 << p)) or (
                    not old_jokers and (old_suit[s] & ~(1 << p)).bit_count() < 2):
                continue  # too few old cards (and old jokers) of its suit or rank
            else:
                shortest = _shortest_third(p, s, jokers, old_jokers, old_suit[s], old_rank[p],
                                           pool_suit[s], pool_rank[p], replace)
        if shortest and shortest < size - i:
            out.append(i)
    out.reverse()
    return out


def _hand_masks(hand: Sequence[int]) -> tuple[list[int], list[int]]:
    """The positions held in each suit and the suits held of each rank (masks)."""
    suits = [0, 0, 0, 0]
    ranks = [0] * 13
    for k in range(52):
        if hand[k]:
            p, s = _POS[k]
            suits[s] |= 1 << p
            ranks[p] |= 1 << s
    return suits, ranks


def _shortest_third(p: int, s: int, jokers: int, old_jokers: int, old_suit: int, old_rank: int,
                    pool_suit: int, pool_rank: int, proxies: bool = False) -> int:
    """:func:`third_card_length` from masks: old cards of the card's suit and rank, the
    pool's (old and taken) cards of them, and the jokers (all, and old ones); ``proxies``:
    an old joker may also stand for a card held in the pool (``joker_for_held``)."""
    a = (old_rank & ~(1 << s)).bit_count()
    if a >= 2 or (a == 1 and old_jokers >= 1):
        return 3  # a set of three
    best = 4 if old_jokers >= 2 and pool_rank & ~(1 << s) else 0  # two jokers in a set of 4
    old = old_suit & ~(1 << p)
    if (old == 0 and old_jokers < 2) or (old & (old - 1) == 0 and not old_jokers):
        return best  # fewer than two old cards and old jokers in its suit
    # Turn the suit so that the card is at position 0: the answer depends on nothing else.
    old = ((old >> p) | (old << (13 - p))) & FULL
    pool = ((pool_suit >> p) | (pool_suit << (13 - p))) & FULL
    key = (old, pool, jokers if jokers < 6 else 6, old_jokers if old_jokers < 2 else 2,
           proxies and old_jokers > 0)
    seq = _SEQUENCE_THIRD.get(key, -1)
    if seq < 0:
        if len(_SEQUENCE_THIRD) > 500_000:
            _SEQUENCE_THIRD.clear()
        seq = _SEQUENCE_THIRD[key] = _run_third(old, pool) if not jokers else \
            _sequence_third(*key)
    return seq if seq and (not best or seq < best) else best


_SEQUENCE_THIRD: dict[tuple[int, int, int, int, bool], int] = {}


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
        gaps = (wmask & missing).bit_count()
        if gaps > jokers or gaps * 2 > length:
            continue
        room = gaps
        if proxies:
            room += min((wmask & held_new).bit_count(), length // 2 - gaps, jokers - gaps)
        if (wmask & old).bit_count() + (room if room < old_jokers else old_jokers) >= 2:
            return length
    return 0


def _arrangement_for(work: list[int], need: int, leave: bool,
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


def completion_witness(counts: Sequence[int], taken: Sequence[int], card: int, need: int,
                       pending: bool, search: HandSearch) -> list[Meld] | None:
    """Melds completing a take turn (see :func:`can_complete`), the first holding the taken
    card when ``pending``; ``None`` when there are none. ``search`` covers ``counts`` (and
    says whether a joker may stand for a held card, ``HandSearch.replace``)."""
    work = list(counts)
    size = sum(work)
    if not pending:
        return _arrangement_for(work, need, True, search) if need > 0 else []
    for meld in third_card_melds(card, work, taken, search.replace):
        if len(meld) >= size:
            continue
        for s in meld:
            work[s if s < 52 else 52] -= 1
        rest = need - meld_points(meld)
        found = [] if rest <= 0 else _arrangement_for(work, rest, True, search)
        for s in meld:
            work[s if s < 52 else 52] += 1
        if found is not None:
            return [meld, *found]
    return None
