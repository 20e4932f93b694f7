"""Every meld a hand can lay (RULES.md, Кункен), from count vectors: ``counts[k]`` is how
many copies of card ``k`` (0..51, see :mod:`konkun.kunken.melds`) the hand holds,
``counts[52]`` its jokers. Meld lists per suit pattern are cached, so listing is fast
enough for play-outs; a joker stands for a card the hand holds only with ``replace``
(rule option ``joker_for_held``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import Final

from konkun.kunken.melds import JOKER_FOR, OPEN_JOKER, joker_for, open_joker, slot_value

Meld = tuple[int, ...]
FULL: Final = (1 << 13) - 1
BITS: Final[tuple[int, ...]] = tuple(m.bit_count() for m in range(1 << 13))
"""The number of bits set in each mask of 13 bits or fewer (a suit's rank positions, a
rank's suits): compiled, ``int.bit_count()`` is a Python method call, an index is not."""


def window_mask(window: Sequence[int]) -> int:
    """The bit mask of a window's rank positions (bit ``p`` for position ``p``)."""
    m = 0
    for p in window:
        m |= 1 << p
    return m


# The caches hold tuples of integers only, never lists: the cyclic garbage collector stops
# tracking such tuples, while every list of a cache would be walked by each of its full
# collections (which then cost the compiled engine a fifth of its time).
Positions = tuple[tuple[int, ...], ...]
"""For each rank position, the indices of the windows (or sequences) holding it."""

# Their keys are small ints (a tuple key costs an allocation and a tuple hash per look-up).
_SEQ_CACHE: Final[dict[int, tuple[tuple[Meld, ...], Positions]]] = {}
"""Per :func:`sequence_key`."""
_SET_CACHE: Final[dict[int, tuple[Meld, ...]]] = {}
"""Per :func:`set_key`."""


_REL_CACHE: Final[dict[int, tuple[tuple[tuple[int, ...], ...], Positions]]] = {}
"""Per held mask and joker count: ``held << 3 | jokers``."""


def sequence_key(suit: int, held: int, jokers: int) -> int:
    """The cache key of the sequences of ``suit`` from the held positions (mask) and
    ``jokers`` (they depend on at most 6 jokers): below ``1 << 18``."""
    return (suit << 13 | held) << 3 | (jokers if jokers < 6 else 6)


def set_key(position: int, suits: int, jokers: int) -> int:
    """The cache key of the sets of rank ``position`` from the held suits (mask) and
    ``jokers`` (they depend on at most 2 jokers): below ``1 << 10``."""
    return (position << 4 | suits) << 2 | (jokers if jokers < 2 else 2)
CARD_PLACE: Final[tuple[tuple[int, int], ...]] = tuple((k % 13, k // 13) for k in range(52))
"""Each card index's ``(rank position, suit)``."""


def _relative_sequences(held: int, jokers: int) -> tuple[tuple[tuple[int, ...], ...],
                                                         Positions]:
    """The windows (positions, by length, then start) that make sequences from the
    held positions (mask) and ``jokers``, and for each position the indices of the windows
    holding it as a real card."""
    key = held << 3 | jokers
    hit = _REL_CACHE.get(key)
    if hit is not None:
        return hit
    found: list[tuple[int, int]] = []
    if BITS[held] >= 2:
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
    windows = tuple(WINDOWS[length][start] for length, start in found)
    by_pos: list[list[int]] = [[] for _ in range(13)]
    for i, window in enumerate(windows):
        for p in window:
            if held >> p & 1:
                by_pos[p].append(i)
    hit = (windows, tuple(map(tuple, by_pos)))
    _REL_CACHE[key] = hit
    return hit


WINDOWS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(tuple((start + i) % 13 for i in range(length)) for start in range(13))
    for length in range(14))
"""``WINDOWS[length][start]``: the rank positions of a sequence window (wrapping past the
ace)."""


def _sequences(suit: int, held: int, jokers: int) -> tuple[tuple[Meld, ...], Positions]:
    """Sequences of ``suit`` from the held positions (mask) and jokers, a joker only where
    no card is held; and for each position the indices of those holding it as a real
    card."""
    jokers = min(jokers, 6)
    key = sequence_key(suit, held, jokers)
    hit = _SEQ_CACHE.get(key)
    if hit is not None:
        return hit
    base = suit * 13
    slot = _LOOK_HELD[base] if held == FULL else tuple(
        base + p if held >> p & 1 else JOKER_FOR + base + p for p in range(13))
    windows, positions = _relative_sequences(held, jokers)
    # Indexing, not map(slot.__getitem__, ...): compiled, that is a Python call per slot.
    hit = (tuple([tuple([slot[p] for p in window]) for window in windows]), positions)
    if len(_SEQ_CACHE) > 200_000:
        _SEQ_CACHE.clear()
    _SEQ_CACHE[key] = hit
    return hit


_LOOK_HELD: Final = {base: tuple(range(base, base + 13)) for base in (0, 13, 26, 39)}


def _sets(position: int, suits: int, jokers: int) -> tuple[Meld, ...]:
    """Sets of rank ``position`` from the held suits (mask) and open-suit jokers."""
    key = set_key(position, suits, jokers)
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
    hit = tuple(out)
    _SET_CACHE[key] = hit
    return hit


def _suit_mask(counts: list[int], base: int) -> int:
    m = 0
    for p in range(13):
        if counts[base + p]:
            m |= 1 << p
    return m


def _rank_mask(counts: list[int], position: int) -> int:
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


def hand_melds(counts: list[int], replace: bool = False) -> list[Meld]:
    """Every distinct meld (canonical slots) the hand can lay down now; a joker stands
    for a card the hand holds only with ``replace`` (rule option ``joker_for_held``)."""
    jokers = counts[52]
    out: list[Meld] = []
    rank_masks, suit_masks = _hand_masks(counts)
    for p in range(13):
        suits = rank_masks[p]
        if suits & (suits - 1):
            out.extend(_sets(p, suits, jokers))
    for s in range(4):
        if suit_masks[s]:
            out.extend(_replaced_sequences(s, suit_masks[s], jokers) if replace and jokers
                       else _sequences(s, suit_masks[s], jokers)[0])
    return out


def _hand_masks(counts: list[int]) -> tuple[list[int], list[int]]:
    """The held suits of each rank position and the held positions of each suit (masks)."""
    rank_masks = [0] * 13
    suit_masks = [0, 0, 0, 0]
    for k in range(52):
        if counts[k]:
            p, s = CARD_PLACE[k]
            rank_masks[p] |= 1 << s
            suit_masks[s] |= 1 << p
    return rank_masks, suit_masks


SEQUENCE_GROUP: Final = 1 << 20
"""Added to a :func:`sequence_key` to name a group of sequences (:func:`hand_meld_groups`)."""
REPLACED_GROUP: Final = 2 << 20
"""Added to a :func:`sequence_key` to name a group of sequences with their readings with
held cards replaced by jokers."""


SET_KIND: Final = 0
"""A :func:`meld_group` kind: the sets of a rank."""
SEQUENCE_KIND: Final = 1
"""A :func:`meld_group` kind: the sequences of a suit."""
REPLACED_KIND: Final = 2
"""A :func:`meld_group` kind: the sequences of a suit with their readings with held cards
replaced by jokers (``joker_for_held``)."""


def meld_group(kind: int, place: int, mask: int, jokers: int) -> tuple[int, tuple[Meld, ...]]:
    """One group of :func:`hand_meld_groups` and its key: the sets of rank position ``place``
    from the held suits ``mask`` (kind :data:`SET_KIND`), or the sequences of suit
    ``place`` from its held positions ``mask`` (:data:`SEQUENCE_KIND`), with their readings
    with held cards replaced (:data:`REPLACED_KIND`); ``jokers`` in the hand."""
    if kind == SET_KIND:
        return set_key(place, mask, jokers), _sets(place, mask, jokers)
    if kind == SEQUENCE_KIND:
        return SEQUENCE_GROUP + sequence_key(place, mask, jokers), _sequences(place, mask,
                                                                               jokers)[0]
    return REPLACED_GROUP + sequence_key(place, mask, jokers), _replaced_sequences(place, mask,
                                                                                   jokers)


def hand_meld_groups(counts: list[int], replace: bool = False
                     ) -> list[tuple[int, tuple[Meld, ...]]]:
    """:func:`hand_melds` in groups, in the same order (:func:`meld_group`: each rank's sets,
    then each suit's sequences): each group's melds with a key that names them (the same
    key, the same melds), so that what is derived from a group's melds can be cached per key
    (one look-up per group instead of one per meld)."""
    jokers = counts[52]
    out: list[tuple[int, tuple[Meld, ...]]] = []
    rank_masks, suit_masks = _hand_masks(counts)
    for p in range(13):
        suits = rank_masks[p]
        if suits & (suits - 1):
            out.append(meld_group(SET_KIND, p, suits, jokers))
    kind = REPLACED_KIND if replace and jokers else SEQUENCE_KIND
    for s in range(4):
        held = suit_masks[s]
        if held:
            out.append(meld_group(kind, s, held, jokers))
    return out


_REPLACED_CACHE: Final[dict[int, tuple[Meld, ...]]] = {}
"""Per :func:`sequence_key`."""


def _replaced_sequences(suit: int, held: int, jokers: int) -> tuple[Meld, ...]:
    """:func:`_sequences` of ``suit``, then their readings with held cards also replaced by
    jokers (:func:`_replacements`), cached per held mask and joker count."""
    key = sequence_key(suit, held, jokers)
    hit = _REPLACED_CACHE.get(key)
    if hit is None:
        seqs = _sequences(suit, held, jokers)[0]
        readings = list(seqs)
        for meld in seqs:
            readings.extend(_replacements(meld, jokers, -1))
        hit = tuple(readings)
        if len(_REPLACED_CACHE) > 200_000:
            _REPLACED_CACHE.clear()
        _REPLACED_CACHE[key] = hit
    return hit


def declared_set_variants(meld: Meld) -> list[Meld]:
    """A set of three with one open joker declared each way (RULES.md: a set joker's suit
    may be declared, or stay open): ``Kc Kd X=Kh`` and ``Kc Kd X=Ks`` for ``Kc Kd X``.
    Empty for any other meld (in a set of four the jokers' suits are forced)."""
    if len(meld) != 3 or meld[2] < OPEN_JOKER or meld[1] >= 52:
        return []
    rank = meld[2] - OPEN_JOKER
    present = {meld[0] // 13, meld[1] // 13}
    return [(meld[0], meld[1], joker_for(t * 13 + rank)) for t in range(4) if t not in present]


def melds_with(card: int, counts: list[int], replace: bool = False) -> list[Meld]:
    """Every meld the hand can lay that holds ``card`` (0..51, held) as a real card, or,
    for ``card`` 52, at least one joker (``replace`` as in :func:`hand_melds`)."""
    if card == 52:
        return [m for m in hand_melds(counts, replace) if any(s >= 52 for s in m)]
    jokers = counts[52]
    p, s = divmod(card, 13)[::-1]
    out: list[Meld] = []
    suits = _rank_mask(counts, p)
    if BITS[suits] >= 2:
        out.extend(m for m in _sets(p, suits, jokers) if card in m)
    melds, positions = _sequences(s, _suit_mask(counts, s * 13), jokers)
    seqs = [melds[i] for i in positions[p]]
    out.extend(seqs)
    if replace and jokers:
        for meld in seqs:
            out.extend(_replacements(meld, jokers, card))
    return out


_POINTS: Final[dict[Meld, int]] = {}


def meld_points(meld: Sequence[int]) -> int:
    """Points of a meld's slots (a joker worth the card it stands for)."""
    key = meld if isinstance(meld, tuple) else tuple(meld)
    hit = _POINTS.get(key)
    if hit is not None:
        return hit
    total = sum(map(slot_value, meld))
    _POINTS[key] = total
    return total
