"""The exact completion check of a take turn (RULES.md, Кункен: the take, joker swaps).

A take turn is complete once a meld laid this turn held the taken card and two cards held
before the take, an opening's melds reach the minimum, and a card is left to discard. The
question "can this turn still be completed?" is answered here exactly, over every legal
sequence of melds, joker swaps (with other players' melds and with melds laid this turn),
lay-offs and the final discard:

- fast sufficient checks first (:func:`konkun.kunken.solver.can_complete`: melds from the
  hand alone), then cheap necessary ones, and a memoised search only where they disagree;
- with ``joker_for_held`` (the default) a joker may stand for any card missing from its
  meld, so the order of the melds does not matter and the search is small: which table
  jokers to win (each for a card of the hand), the meld of the taken card, and the most
  valuable arrangement of the rest (:class:`~konkun.kunken.solver.HandSearch`). A swap
  needs a layout: a player without one lays a meld first. A joker laid this turn and
  swapped back at once is the same as laying the card itself, except in the taken card's
  meld, where an old joker counts as held before the take: that meld is read with old
  jokers standing for any of its cards but the taken one;
- without ``joker_for_held`` a joker may stand only for a card not held at that moment, so
  the order matters (a card laid first, in a meld or a lay-off, frees the joker to stand
  for it): the search then tries every meld, lay-off and swap, step by step.

Built (``python -m konkun.native --build``), the judge (:func:`completable`: its checks,
its memo, and the search of :func:`_search_pending`) runs in C (``hand_search.c``,
:data:`C_JUDGE`), asking the other searches here where its checks do not decide;
:func:`reference_completable` is the same judge in Python, used when the C core is not built
(or ``KONKUN_PURE`` is set) and by the tests that prove both agree.

The table is given as *compact melds* (:func:`compact`): a sequence
``(0, suit, start, length, joker positions mask)``, a set
``(1, rank position, real suits mask, declared joker suits mask, open jokers)``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Final

from konkun.kunken import solver, third_card
from konkun.kunken.arrangement import C_SEARCH
from konkun.kunken.hand_melds import BITS
from konkun.kunken.melds import JOKER_FOR, OPEN_JOKER, VALUE
from konkun.kunken.melds import Compact as Compact
from konkun.kunken.melds import compact as compact

Table = tuple[Compact, ...]

_MEMO: Final[dict[tuple[object, ...], bool]] = {}
_MEMO_LIMIT: Final = 200_000


def compact_table(melds: Iterable[tuple[Sequence[int], str]]) -> Table:
    """The compact table of ``(slots, kind)`` pairs (a deal's table meld caches its own:
    :meth:`konkun.kunken.melds.TableMeld.compact`)."""
    return tuple(compact(slots, kind) for slots, kind in melds)


def has_jokers(m: Compact) -> bool:
    """Whether a compact meld holds a joker."""
    return bool(m[4]) if m[0] == 0 else bool(m[3] or m[4])


def swaps(m: Compact, hand: list[int]) -> Iterator[tuple[int, Compact]]:
    """Every swap the hand can make with meld ``m``: (the card given, the meld after)."""
    if m[0] == 0:
        _, suit, start, length, jmask = m
        bits = jmask
        while bits:
            low = bits & -bits
            bits ^= low
            q = low.bit_length() - 1
            if hand[suit * 13 + q]:
                yield suit * 13 + q, (0, suit, start, length, jmask & ~low)
        return
    _, rank, real, decl, n_open = m
    for t in range(4):
        card = t * 13 + rank
        if not hand[card]:
            continue
        bit = 1 << t
        if decl & bit:
            yield card, (1, rank, real | bit, decl & ~bit, n_open)
        elif n_open and not (real | decl) & bit:
            yield card, (1, rank, real | bit, decl, n_open - 1)


def win_back_choices(m: Compact, hand: list[int]) -> list[tuple[int, ...]]:
    """Every distinct choice of cards (sorted) the hand can give, one swap after another,
    for jokers of meld ``m`` alone, the empty one first."""
    found: set[tuple[int, ...]] = set()
    _choose_win_backs(m, (), list(hand), found)
    return sorted(found, key=len)


def _choose_win_backs(meld: Compact, given: tuple[int, ...], work: list[int],
                      found: set[tuple[int, ...]]) -> None:
    # A module function, not a closure: a recursive closure is a reference cycle, garbage
    # only the cyclic collector frees (and its runs cost more than the search).
    key = tuple(sorted(given))
    if key in found:
        return
    found.add(key)
    for card, after in swaps(meld, work):
        work[card] -= 1
        _choose_win_backs(after, (*given, card), work, found)
        work[card] += 1


def layoffs(m: Compact) -> Iterator[tuple[int, Compact]]:
    """Every real card that can be laid off onto ``m``: (the card, the meld after)."""
    if m[0] == 0:
        _, suit, start, length, jmask = m
        if length >= 13:
            return
        left = (start - 1) % 13
        yield suit * 13 + left, (0, suit, left, length + 1, jmask)
        right = (start + length) % 13
        if right != left:
            yield suit * 13 + right, (0, suit, start, length + 1, jmask)
        return
    _, rank, real, decl, n_open = m
    if BITS[real] + BITS[decl] + n_open >= 4:
        return
    for t in range(4):
        if not (real | decl) >> t & 1:
            yield t * 13 + rank, (1, rank, real | 1 << t, decl, n_open)


_SWAP_CARDS: Final[dict[Compact, tuple[int, ...]]] = {}


def swap_cards(m: Compact) -> tuple[int, ...]:
    """The cards that can win a joker of meld ``m`` now (each once, in order; empty
    without jokers): what :func:`any_swap` reads, cached per meld."""
    hit = _SWAP_CARDS.get(m)
    if hit is None:
        hit = tuple(_winning_cards(m)) if has_jokers(m) else ()
        if len(_SWAP_CARDS) > 100_000:
            _SWAP_CARDS.clear()
        _SWAP_CARDS[m] = hit
    return hit


def _winning_cards(m: Compact) -> Iterator[int]:
    """The cards :func:`swaps` accepts for meld ``m`` from a hand holding every card."""
    if m[0] == 0:
        _, suit, _, _, jmask = m
        for q in range(13):
            if jmask >> q & 1:
                yield suit * 13 + q
        return
    _, rank, real, decl, n_open = m
    for t in range(4):
        if decl >> t & 1 or (n_open and not (real | decl) >> t & 1):
            yield t * 13 + rank


def any_swap(table: Table, hand: list[int]) -> bool:
    """Whether the hand can swap some joker of the table now."""
    for m in table:
        cards = _SWAP_CARDS.get(m)  # not a bound .get: compiled, that is a Python call
        if cards is None:
            cards = swap_cards(m)
        for k in cards:
            if hand[k]:
                return True
    return False


def _key_table(table: Table, replace: bool) -> Table:
    """The part of the table the answer depends on: with ``joker_for_held`` only melds
    holding jokers (nothing is gained by a lay-off), else every meld."""
    if replace:
        return tuple(sorted(m for m in table if has_jokers(m)))
    return tuple(sorted(table))


def completable(hand: list[int], notold: list[int], card: int, need: int,
                pending: bool, layout: bool, table: Table, replace: bool,
                melds_fail: bool = False) -> bool:
    """Whether a take turn can still be completed, exactly (module docstring): the C
    core's judge when it is built (:data:`C_JUDGE`), else :func:`reference_completable`
    (which documents the arguments). The C judge refuses bad input (counts out of range, a
    card index past 52, a table meld of the wrong shape) with a :class:`ValueError` or
    :class:`TypeError` naming it."""
    if C_JUDGE is not None:
        return C_JUDGE(hand, notold, card, need, pending, layout, table, replace, melds_fail)
    return reference_completable(hand, notold, card, need, pending, layout, table, replace,
                                 melds_fail)


def reference_completable(hand: list[int], notold: list[int], card: int, need: int,
                          pending: bool, layout: bool, table: Table, replace: bool,
                          melds_fail: bool = False) -> bool:
    """Whether a take turn can still be completed, exactly (module docstring): the
    reference, in Python, of the C core's judge (:data:`C_JUDGE`), which
    :func:`completable` runs when it is built.

    ``hand``: the count vector now; ``notold``: the cards in it that were not held before
    the take (taken, or jokers swapped in this turn); ``card``: the taken card; ``need``:
    opening points still due (0 with a layout before the turn); ``pending``: the taken card
    is still to be melded; ``layout``: the player may swap (a meld laid before or earlier
    this turn); ``table``: every meld on the table, compact; ``replace``: the rule option
    ``joker_for_held``; ``melds_fail``: the caller knows that melds from the hand alone
    (:func:`konkun.kunken.solver.can_complete`) cannot complete the turn."""
    size = sum(hand)
    if size < 1:
        return False
    if not pending and need <= 0:
        return True
    if melds_fail and replace and not any_swap(table, hand):
        return False  # cards only leave the hand: no swap ever, and melds alone cannot
    if pending and (not hand[card] or not _third_card_possible(hand, notold, card, size,
                                                               table)):
        return False
    if need > 0 and _points_bound(hand, table) - _lowest(hand) < need:
        return False
    if not melds_fail and solver.can_complete(hand, notold, card, need, pending, None, size,
                                              False, replace):
        return True
    if replace and not any_swap(table, hand):
        return False  # cards only leave the hand: no swap ever, and melds alone cannot
    if replace and pending and need <= 0 and layout:
        return third_card_by_swaps(hand, notold, card, size, table)
    if not replace and not completable(hand, notold, card, need, pending, layout, table,
                                       True):
        # Every step allowed without joker_for_held is allowed with it. (Not melds_fail:
        # melds alone failed without it, which says nothing of melds with it.)
        return False
    key = (bytes(hand), bytes(notold) if pending else b"", card if pending else -1,
           max(need, 0), pending, layout, _key_table(table, replace), replace)
    known = _MEMO.get(key)
    if known is not None:
        return known
    _MEMO[key] = False  # a state revisited on its own path completes nothing new
    ok = search_completion(hand, notold, card, need, pending, layout, table, replace)
    if len(_MEMO) > _MEMO_LIMIT:
        _MEMO.clear()
    _MEMO[key] = ok
    return ok


def search_completion(hand: list[int], notold: list[int], card: int, need: int,
                      pending: bool, layout: bool, table: Table, replace: bool) -> bool:
    """The search of :func:`reference_completable` (and of the C judge, which runs
    :func:`_search_pending`'s itself) where its checks do not decide: over copies of the
    hand and its cards not held before the take."""
    if replace:
        return _search_free(list(hand), need, table) if not pending else _search_pending(
            list(hand), list(notold), card, need, layout, table)
    return _search_steps(list(hand), list(notold), card, need, pending, layout, table)


def completable_marked(hand: list[int], notold: list[int], card: int, need: int,
                       pending: bool, layout: bool, table: Table, replace: bool,
                       marks: Sequence[int]) -> bool:
    """:func:`completable` with the turn's joker marks (RULES.md: a joker keeps its
    identity through the turn): ``marks`` are the jokers held before the take, or the taken
    joker, that this turn laid on the table
    (:func:`~konkun.kunken.deal_fields.joker_mark`, ``table`` holding every meld in order),
    each given back as what it was when a swap wins it.

    Exact. A marked joker is either never won back (then it is one more table joker, and
    :func:`completable` answers, unless it is the taken joker: then the taken card's meld
    is never laid) or won back, and then at once: winning it needs a card the hand holds
    now (cards only leave the hand), so winning it first loses nothing. Without a layout a
    meld comes first (not the taken card's, which :func:`completable` tried)."""
    if not marks or not pending:
        return completable(hand, notold, card, need, pending, layout, table, replace)
    size = sum(hand)
    if size < 1:
        return False
    taken_out = any(m & 1 for m in marks)
    if not taken_out and completable(hand, notold, card, need, pending, layout, table,
                                     replace):
        return True
    if not layout:
        for meld in solver.hand_melds(hand, replace):
            if len(meld) >= size or (not taken_out and solver.is_third_card_meld(
                    meld, card, hand, notold)) or (not taken_out and lays_taken_joker(
                        meld, card, hand)):
                continue
            after, after_notold = _laid(hand, notold, meld, -1 if taken_out else card)
            rest = need - solver.meld_points(meld) if need > 0 else 0
            if completable_marked(after, after_notold, card, rest, pending, True,
                                  (*table, compact(meld)), replace, marks):
                return True
        return False
    for j, mark in enumerate(marks):
        i, key = mark >> 7, (mark >> 1) & 63
        m = table[i]
        rest_marks = (*marks[:j], *marks[j + 1:])
        for given, after_meld in swaps(m, hand):
            if m[0] == 0 and given != key:
                continue  # a sequence's marked joker is won by its own card
            after, after_notold = hand.copy(), notold.copy()
            _remove(after, after_notold, given)
            after[52] += 1
            if mark & 1:
                after_notold[52] += 1  # the taken joker is back
            if completable_marked(after, after_notold, card, need, pending, True,
                                  _replace_meld(table, i, after_meld), replace, rest_marks):
                return True
    return False


def lays_taken_joker(meld: Sequence[int], card: int, hand: list[int]) -> bool:
    """Whether laying ``meld`` (not the taken card's meld) lays the taken joker: the taken
    card is a joker and the meld takes every joker of the hand (the player lays the others
    first). The search never does: only winning it back, by the card it stands for, would
    let the taken card's meld be laid, and laying that card instead does as well."""
    return card == 52 and sum(1 for x in meld if x >= 52) >= hand[52]


def _third_card_possible(hand: list[int], notold: list[int], card: int, size: int,
                         table: Table) -> bool:
    """A necessary condition for the taken card's meld: one with two old cards or old
    jokers, counting every joker on the table as one that might be won, and any old joker
    as able to stand for any card, fits in the hand with a card left. (Cards only leave the
    hand, and no card becomes old.)"""
    if card == 52:
        return True
    extra = _table_jokers(table)
    p, s = card % 13, card // 13
    shortest = third_card.shortest_third(p, s, hand[52] + extra, hand[52] - notold[52],
                                         *third_card.card_masks(p, s, hand, notold), True)
    return 0 < shortest < size


def _points_bound(hand: list[int], table: Table) -> int:
    """More than any melds of the turn can be worth: every card of the hand and 10 for
    each joker on the table."""
    total = 0
    for k in range(53):  # a loop, not sum(map(mul, ...)): compiled, no call per card
        n = hand[k]
        if n:
            total += VALUE[k] * n
    for m in table:
        total += 10 * (BITS[m[4]] if m[0] == 0 else BITS[m[3]] + m[4])
    return total


def _lowest(hand: list[int]) -> int:
    return 5 if any(hand[k] for k in range(52) if VALUE[k] == 5) else 10


def _remove(hand: list[int], notold: list[int], k: int) -> None:
    hand[k] -= 1
    if notold[k]:
        notold[k] -= 1


def _laid(hand: list[int], notold: list[int], meld: Sequence[int],
          card: int = -1) -> tuple[list[int], list[int]]:
    """Copies of the hand and its cards not held before the take, after laying ``meld``.
    A joker laid is a new one while the hand holds one, else one held before the take;
    with ``card`` a joker (the taken card, held: the search never lays it outside its
    meld, :func:`lays_taken_joker`) one joker not held before the take is that one, and
    stays."""
    hand, notold = hand.copy(), notold.copy()
    keep = 1 if card == 52 else 0
    for x in meld:
        if x < 52:
            _remove(hand, notold, x)
        else:
            hand[52] -= 1
            if notold[52] > keep:
                notold[52] -= 1
    return hand, notold


def _swapped(hand: list[int], notold: list[int], given: int) -> tuple[list[int], list[int]]:
    """Copies of the hand and its cards not held before the take, after giving ``given``
    for a joker."""
    hand, notold = hand.copy(), notold.copy()
    _remove(hand, notold, given)
    hand[52] += 1
    notold[52] += 1
    return hand, notold


def _replace_meld(table: Table, i: int, m: Compact) -> Table:
    return (*table[:i], m, *table[i + 1:])


def _all_swaps(hand: list[int], table: Table) -> Iterator[tuple[int, Table]]:
    for i, m in enumerate(table):
        if has_jokers(m):
            for given, after in swaps(m, hand):
                yield given, _replace_meld(table, i, after)


# ------------------------------------------------------------------ joker_for_held


def _search_pending(hand: list[int], notold: list[int], card: int, need: int, layout: bool,
                    table: Table) -> bool:
    """The taken card still to be melded (``joker_for_held``): its meld now, then the rest;
    or a swap first (with a layout); or, without a layout, a meld first to gain one. The
    reference of the C judge's search (``search_pending`` in ``hand_search.c``)."""
    size = sum(hand)
    for meld in solver.third_card_melds(card, hand, notold, True):
        if len(meld) >= size:
            continue
        after, after_notold = _laid(hand, notold, meld, card)
        rest = need - solver.meld_points(meld) if need > 0 else 0
        if completable(after, after_notold, card, rest, False, True,
                       (*table, compact(meld)), True):
            return True
    if layout:
        for given, after_table in _all_swaps(hand, table):
            after, after_notold = _swapped(hand, notold, given)
            if completable(after, after_notold, card, need, True, True, after_table, True):
                return True
        return False
    if not any(has_jokers(m) for m in table):
        return False
    for meld in solver.hand_melds(hand, True):
        if len(meld) >= size or lays_taken_joker(meld, card, hand):
            continue
        after, after_notold = _laid(hand, notold, meld, card)
        if not after[card] or not any_swap(table, after):
            continue
        rest = need - solver.meld_points(meld) if need > 0 else 0
        if completable(after, after_notold, card, rest, True, True, (*table, compact(meld)),
                       True):
            return True
    return False


def third_card_by_swaps(hand: list[int], notold: list[int], card: int, size: int,
                        table: Table) -> bool:
    """The taken card still to be melded, no points due, a layout, ``joker_for_held``:
    whether some choice of table swaps leaves a third-card meld shorter than the hand
    (:func:`konkun.kunken.solver.third_card_length`, from masks). This is
    :func:`_search_pending` in that case: a swap keeps the hand's size, swaps commute, and
    with no points due the taken card's meld is the only one left to lay. The hand as it
    is was already asked (melds alone cannot complete the turn)."""
    for after, after_notold in _swap_states(list(hand), list(notold), table, 0, set()):
        if 0 < solver.third_card_length(card, after, after_notold, True) < size:
            return True
    return False


def _swap_states(hand: list[int], notold: list[int], table: Table, start: int,
                 seen: set[tuple[bytes, Table]]) -> Iterator[tuple[list[int], list[int]]]:
    """The hand and its cards not held before the take after every non-empty choice of
    swaps with the melds from ``start`` on (a state reached twice is given once)."""
    for i in range(start, len(table)):
        m = table[i]
        if not has_jokers(m):
            continue
        for given, after_meld in swaps(m, hand):
            after, after_notold = _swapped(hand, notold, given)
            after_table = _replace_meld(table, i, after_meld)
            key = (bytes(after), after_table)
            if key in seen:
                continue
            seen.add(key)
            yield after, after_notold
            yield from _swap_states(after, after_notold, after_table, i, seen)


_SWAP_THIRD: Final[dict[tuple[object, ...], int]] = {}
_SWAP_THIRD_LIMIT: Final = 200_000


def swap_third_cards(card: int, table: Table) -> list[bool]:
    """Which cards :func:`swap_third_length` reads (by card index): the taken card's suit
    and rank, every card that can win a joker of the table, and the joker."""
    p, s = card % 13, card // 13
    read = [False] * 53
    for k in range(s * 13, s * 13 + 13):
        read[k] = True
    for t in range(4):
        read[t * 13 + p] = True
    for m in table:
        for k in swap_cards(m):
            read[k] = True
    read[52] = True
    return read


def swap_third_length(hand: list[int], notold: list[int], card: int,
                      table: Table) -> int:
    """:func:`reference_swap_third_length` (which documents it): the C core's
    (:data:`C_SWAP_THIRD`, which computes it afresh, without a memo) when it is built."""
    if C_SWAP_THIRD is not None:
        return C_SWAP_THIRD(hand, notold, card, table)
    return reference_swap_third_length(hand, notold, card, table)


def reference_swap_third_length(hand: list[int], notold: list[int], card: int,
                                table: Table) -> int:
    """The shortest meld of the taken ``card`` (not a joker) with two old cards (or old
    jokers) over every choice of swaps with the ``table``, none included (joker_for_held);
    0 when there is none. With no points due and a layout the turn can be completed
    exactly when it is shorter than the hand (:func:`third_card_by_swaps`).

    Memoised on what it reads (:func:`_swap_third_key`): the hand's cards of the taken
    card's suit and rank, its jokers, and the swaps it can make."""
    if not hand[card]:
        return 0  # the taken card left the hand (a swap never brings it back)
    if not any_swap(table, hand):
        return solver.third_card_length(card, hand, notold, True)
    key = _swap_third_key(hand, notold, card, table)
    found = _SWAP_THIRD.get(key)
    if found is None:
        found = solver.third_card_length(card, hand, notold, True)
        for after, after_notold in _swap_states(list(hand), list(notold), table, 0, set()):
            length = solver.third_card_length(card, after, after_notold, True)
            if length and (not found or length < found):
                found = length
        if len(_SWAP_THIRD) > _SWAP_THIRD_LIMIT:
            _SWAP_THIRD.clear()
        _SWAP_THIRD[key] = found
    return found


def _swap_third_key(hand: list[int], notold: list[int], card: int,
                    table: Table) -> tuple[object, ...]:
    """What :func:`swap_third_length` depends on. The third-card length reads only the
    taken card's suit and rank and the jokers; a swap gives a card of the hand (its count
    matters) for a new joker. A joker no card of the hand can win never moves (cards only
    leave the hand), and a sequence's jokers are each won by one card, independently, so a
    sequence counts only as the held cards that win its jokers; a set's jokers depend on
    each other, so a set with a joker the hand can win counts whole."""
    winners: list[int] = []
    sets: list[Compact] = []
    for m in table:
        cards = _SWAP_CARDS.get(m)
        if cards is None:
            cards = swap_cards(m)
        held = [k for k in cards if hand[k]]
        if held:
            winners.extend(held)
            if m[0] != 0:
                sets.append(m)
    winners.sort()
    p, s = card % 13, card // 13
    base = s * 13
    own = [*hand[base:base + 13], *notold[base:base + 13], hand[52], notold[52]]
    for t in range(4):
        if t != s:
            own += (hand[t * 13 + p], notold[t * 13 + p])
    return (card, bytes(own), tuple(winners), bytes([hand[k] for k in winners]),
            tuple(sorted(sets)))


def _search_free(hand: list[int], need: int, table: Table) -> bool:
    """Opening points still due, the taken card melded (so a layout): win some of the
    table's jokers, then melds worth ``need`` from what is left, keeping a card."""
    seen = {bytes(hand)}  # the hand alone: already asked (solver.can_complete)
    for pool in _pools(hand, table, 0):
        code = bytes(pool)
        if code in seen:
            continue
        seen.add(code)
        if solver.HandSearch(pool, True).reach_from(pool, need, True):
            return True
    return False


def _pools(hand: list[int], table: Table, start: int) -> Iterator[list[int]]:
    """The hand after every choice of swaps with the melds from ``start`` on."""
    yield hand
    for i in range(start, len(table)):
        m = table[i]
        if not has_jokers(m):
            continue
        for given, after in swaps(m, hand):
            pool = hand.copy()
            pool[given] -= 1
            pool[52] += 1
            yield from _pools(pool, _replace_meld(table, i, after), i)


# ------------------------------------------------------------------ without joker_for_held


def _search_steps(hand: list[int], notold: list[int], card: int, need: int, pending: bool,
                  layout: bool, table: Table) -> bool:
    """Every next step, one by one: a meld, a lay-off of a real card (it may free a joker
    to stand for that card), a swap."""
    size = sum(hand)
    for meld in solver.hand_melds(hand, False):
        if len(meld) >= size:
            continue
        third = pending and solver.is_third_card_meld(meld, card, hand, notold)
        if pending and not third and lays_taken_joker(meld, card, hand):
            continue
        after, after_notold = _laid(hand, notold, meld, card)
        rest = need - solver.meld_points(meld) if need > 0 else 0
        if completable(after, after_notold, card, rest, pending and not third, True,
                       (*table, compact(meld)), False):
            return True
    if layout:
        for given, after_table in _all_swaps(hand, table):
            after, after_notold = _swapped(hand, notold, given)
            if completable(after, after_notold, card, need, pending, True, after_table,
                           False):
                return True
    if size >= 2 and (hand[52] or any(has_jokers(m) for m in table)):
        for i, m in enumerate(table):
            for k, after_meld in layoffs(m):
                if not hand[k] or (pending and k == card and hand[k] == 1):
                    continue
                after = hand.copy()
                after_notold = notold.copy()
                _remove(after, after_notold, k)
                if completable(after, after_notold, card, need, pending, layout,
                               _replace_meld(table, i, after_meld), False):
                    return True
    return False


# ------------------------------------------------------------------ takes


def take_positions(hand: list[int], bank: list[int], need: int, table: Table,
                   layout: bool, replace: bool) -> list[int]:
    """The bank positions the hand may take the bank from now, exactly
    (:func:`reference_take_positions`, which documents the arguments): the C core's take
    scan (:data:`konkun.kunken.solver.C_TAKE_SCAN`) when it is built. The C core refuses bad
    input (as :func:`konkun.kunken.solver.take_positions` and :func:`completable` do) with a
    :class:`ValueError` or :class:`TypeError` naming it."""
    if solver.C_TAKE_SCAN is not None:
        return solver.C_TAKE_SCAN(hand, bank, need, table, layout, replace)
    return reference_take_positions(hand, bank, need, table, layout, replace)


def reference_take_positions(hand: list[int], bank: list[int], need: int, table: Table,
                             layout: bool, replace: bool) -> list[int]:
    """The bank positions the hand may take the bank from now (``need``: the opening
    minimum, 0 with a ``layout``; ``table``: the table's compact melds; ``replace``:
    ``joker_for_held``), exactly: the reference, in Python, of the C core's take scan. The
    fast path first (:func:`konkun.kunken.solver.take_positions`), the exact check for the
    others that pass its first necessary conditions (:func:`_take_candidates`)."""
    fast = solver.take_positions(hand, bank, need, replace)
    jokers = tuple(m for m in table if has_jokers(m))
    if replace and not jokers:
        return fast
    offered = set(fast)
    by_swaps = replace and need <= 0 and layout
    size = sum(hand)
    # The candidates read the table only through its jokers.
    for i in _take_candidates(hand, bank, jokers if replace else table, replace):
        if i in offered:
            continue
        after, taken = solver.after_take(hand, bank, i)
        if by_swaps and bank[i] != 52:
            # Only the taken card's meld is due, with a layout: the shortest one over
            # every choice of swaps decides (what completable() finds, memoised).
            ok = 0 < swap_third_length(after, taken, bank[i], jokers) < size + len(bank) - i
        else:
            ok = completable(after, taken, bank[i], need, True, layout, table, replace,
                             replace)
        if ok:
            offered.add(i)
    return sorted(offered)


def _take_candidates(hand: list[int], bank: list[int], table: Table,
                     replace: bool) -> Iterator[int]:
    """The bank positions, last first, whose take passes :func:`completable`'s first
    necessary conditions: with ``joker_for_held`` some swap with the table (melds alone
    were asked first), and room for the taken card's meld with every table joker won
    (:func:`_third_card_possible`). The masks grow with the taken part of the bank."""
    winning = [False] * 52
    can_swap = not replace
    for m in table:
        for k in swap_cards(m):
            winning[k] = True
            can_swap = can_swap or hand[k] > 0
    if not can_swap and not any(c < 52 and winning[c] for c in bank):
        return  # no card of the hand or the bank wins a joker: no swap ever
    extra = _table_jokers(table)
    old_suit, old_rank = third_card.hand_masks(hand)
    pool_suit, pool_rank = old_suit.copy(), old_rank.copy()
    jokers = hand[52]
    size = sum(hand)
    for i in range(len(bank) - 1, -1, -1):
        card = bank[i]
        size += 1
        if card == 52:
            jokers += 1
            if can_swap:
                yield i
            continue
        p, s = card % 13, card // 13
        pool_suit[s] |= 1 << p
        pool_rank[p] |= 1 << s
        can_swap = can_swap or winning[card]
        if can_swap and 0 < third_card.shortest_third(
                p, s, jokers + extra, hand[52], old_suit[s], old_rank[p], pool_suit[s],
                pool_rank[p], True) < size:
            yield i


def _table_jokers(table: Table) -> int:
    """The number of jokers on the table."""
    total = 0
    for m in table:
        if m[4]:
            total += BITS[m[4]] if m[0] == 0 else m[4]
        if m[0] and m[3]:
            total += BITS[m[3]]
    return total


class StepFilter:
    """:func:`completable`'s first necessary conditions, asked of the candidate steps of
    one take turn at once (melds, lay-offs, swaps). A step it rejects is one after which
    :func:`completable` says no, so the engine asks it of every candidate step of a
    legal-action list before the exact check (:meth:`rejects`)."""

    __slots__ = ("card", "checks", "extra", "hand", "need", "notold", "opening", "pending",
                 "replace", "size", "winning")

    def __init__(self, hand: list[int], notold: list[int], card: int, need: int,
                 pending: bool, opening: bool, table: Table, replace: bool) -> None:
        """The turn now: the hand, its cards not held before the take, the taken card, the
        opening points still due, whether the taken card is still to be melded, whether
        this is an opening, the table, the rule ``joker_for_held``."""
        self.hand = hand
        self.notold = notold
        self.card = card
        self.need = need
        self.pending = pending
        self.opening = opening
        self.replace = replace
        self.size = sum(hand)
        cards = {k for m in table for k in swap_cards(m) if hand[k]}
        self.winning = [(k, hand[k]) for k in sorted(cards)]
        """The hand's cards that can win a table joker, with their counts."""
        self.extra = _table_jokers(table) if pending and card != 52 else -1
        """The table's jokers, or -1 when the taken card's meld is not asked about (melded,
        or the taken card is a joker)."""
        self.checks: dict[int, solver.ThirdCardCheck] = {}
        """:func:`_third_card_possible` before the step (every table joker one that might
        be won) by the number of old jokers fewer, built when asked."""

    def rejects(self, slots: Sequence[int], swap: bool = False) -> bool:
        """Whether the turn surely cannot be completed after a step: a meld of ``slots``
        (of more than one slot), a lay-off of ``slots[0]``, or (``swap``) the swap of the
        card ``slots[0]`` for a table joker. Cards only leave the hand, and the step wins no
        table joker but the one it swaps."""
        pending, need = self.pending, self.need
        if len(slots) > 1:
            if pending and solver.is_third_card_meld(tuple(slots), self.card, self.hand,
                                                     self.notold):
                pending = False
            if self.opening:
                need -= solver.meld_points(slots)
        if not pending and need <= 0:
            return False  # the obligations are met
        removed = [x for x in slots if x < 52]
        if self.replace and not self._swap_left(slots, removed):
            return True  # no swap ever, and melds alone cannot
        if pending and self.extra >= 0:
            # A joker laid goes to the table (one that might be won); taken jokers leave
            # the hand first, so the old ones left are fewer by those laid beyond them.
            fewer = max(0, len(slots) - len(removed) - self.notold[52])
            left = self.size if swap else self.size - len(slots)
            return not 0 < self._possible(fewer).without(removed) < left
        return False

    def _possible(self, fewer_old: int) -> solver.ThirdCardCheck:
        """:attr:`checks` for ``fewer_old``."""
        found = self.checks.get(fewer_old)
        if found is None:
            plus, plus_notold = list(self.hand), list(self.notold)
            plus[52] += self.extra
            plus_notold[52] += self.extra + fewer_old
            found = self.checks[fewer_old] = solver.ThirdCardCheck(self.card, plus,
                                                                  plus_notold, True)
        return found

    def _swap_left(self, slots: Sequence[int], removed: list[int]) -> bool:
        """Whether a card left in the hand after the step may still win a joker: one of
        the table's, or one the step lays (for any card it might stand for)."""
        if any(n > removed.count(k) for k, n in self.winning):
            return True
        hand = self.hand
        for x in slots:
            if x >= 52:
                stands = (x - JOKER_FOR,) if x < OPEN_JOKER else tuple(
                    t * 13 + x - OPEN_JOKER for t in range(4))
                if any(hand[k] > removed.count(k) for k in stands):
                    return True
        return False


def takes_with_swaps_first(hand: list[int], bank: list[int], need: int,
                           table: Table, layout: bool, replace: bool,
                           swap_before_take: bool) -> list[int]:
    """:func:`take_positions`, and with ``swap_before_take`` (and a layout) also the
    positions reached by first swapping table jokers for cards of the hand (the jokers then
    count as held before the take): the ``konkun kunken takes`` answer."""
    found = set(take_positions(hand, bank, need, table, layout, replace))
    if swap_before_take and layout:
        seen = {(bytes(hand), _key_table(table, False))}
        frontier = [(list(hand), table)]
        while frontier:
            h, t = frontier.pop()
            for given, after_table in _all_swaps(h, t):
                after = h.copy()
                after[given] -= 1
                after[52] += 1
                key = (bytes(after), _key_table(after_table, False))
                if key in seen:
                    continue
                seen.add(key)
                frontier.append((after, after_table))
                found.update(take_positions(after, bank, need, after_table, layout, replace))
    return sorted(found)


Step = tuple[str, int, tuple[int, ...]]
"""A step of a plan: (``meld``, -1, slots), (``swap``, meld number, (card,)) or
(``layoff``, meld number, (card,)); meld numbers count the melds laid by the plan on."""


def plan(hand: list[int], notold: list[int], card: int, need: int, pending: bool,
         layout: bool, table: Table, replace: bool) -> list[Step] | None:
    """Steps that complete a take turn (:func:`completable`'s arguments), each leaving the
    turn completable, until the obligations are met; ``None`` when there are none."""
    if not completable(hand, notold, card, need, pending, layout, table, replace):
        return None
    h, n, t = list(hand), list(notold), table
    steps: list[Step] = []
    while pending or need > 0:
        for step, (h2, n2, pending2, need2, t2) in _next_steps(h, n, card, need, pending,
                                                                layout, t, replace):
            if completable(h2, n2, card, need2, pending2, True if step[0] == "meld" else
                           layout, t2, replace):
                steps.append(step)
                layout = layout or step[0] == "meld"
                h, n, pending, need, t = h2, n2, pending2, need2, t2
                break
        else:  # pragma: no cover - completable() promised a completion
            raise AssertionError("no step keeps the turn completable")
    return steps


def _next_steps(hand: list[int], notold: list[int], card: int, need: int, pending: bool,
                layout: bool, table: Table, replace: bool
                ) -> Iterator[tuple[Step, tuple[list[int], list[int], bool, int, Table]]]:
    """Every step from a state with its result: the taken card's melds first, then the other
    melds by value, swaps, lay-offs."""
    size = sum(hand)
    melds = [m for m in solver.hand_melds(hand, replace) if len(m) < size]
    melds.sort(key=lambda m: (not (pending and solver.is_third_card_meld(m, card, hand,
                                                                          notold)),
                              -solver.meld_points(m)))
    for meld in melds:
        third = pending and solver.is_third_card_meld(meld, card, hand, notold)
        if pending and not third and lays_taken_joker(meld, card, hand):
            continue
        h, n = _laid(hand, notold, meld, card)
        yield ("meld", -1, meld), (h, n, pending and not third,
                                   need - solver.meld_points(meld) if need > 0 else 0,
                                   (*table, compact(meld)))
    if layout:
        for i, m in enumerate(table):
            if has_jokers(m):
                for given, after in swaps(m, hand):
                    h, n = _swapped(hand, notold, given)
                    yield ("swap", i, (given,)), (h, n, pending, need,
                                                  _replace_meld(table, i, after))
    if size >= 2:
        for i, m in enumerate(table):
            for k, after in layoffs(m):
                if hand[k]:
                    h, n = hand.copy(), notold.copy()
                    _remove(h, n, k)
                    yield ("layoff", i, (k,)), (h, n, pending, need,
                                                _replace_meld(table, i, after))


def take_plans(hand: Sequence[int], bank: Sequence[int], need: int,
               table: Sequence[tuple[int, int, int, int, int]] = (), replace: bool = True,
               layout: bool | None = None) -> list[tuple[int, list[solver.Step]]]:
    """For each bank position the bank can be taken from (exactly, as the engine offers
    ``take``), the steps that complete the turn: ``(position, steps)``, each step
    ``("meld", -1, slots)``, ``("swap", meld, (card,))`` or ``("layoff", meld, (card,))``
    (:func:`plan`). ``need``: the opening minimum, 0 with a
    layout; ``table``: the table's melds in compact form
    (:func:`compact`); ``replace``: ``joker_for_held``."""
    layout = need <= 0 if layout is None else layout
    table = tuple(table)
    hand, bank = list(hand), list(bank)
    out: list[tuple[int, list[solver.Step]]] = []
    for i in take_positions(hand, bank, need, table, layout, replace):
        after, taken = solver.after_take(hand, bank, i)
        melds = solver.completion_witness(after, taken, bank[i], need, True,
                                   solver.HandSearch(after, replace))
        if melds is not None:
            out.append((i, [("meld", -1, m) for m in melds]))
            continue
        steps = plan(after, taken, bank[i], need, True, layout, table, replace)
        if steps is not None:
            out.append((i, steps))
    return out


def take_hints(hand: list[int], bank: list[int], need: int,
               table: Sequence[tuple[int, int, int, int, int]] = (), replace: bool = True,
               layout: bool | None = None) -> list[tuple[int, list[solver.Meld]]]:
    """For each bank position the bank can be taken from, how: ``(position, melds)``, the
    melds (the first holding the taken card) laid by the steps of :func:`take_plans`;
    ``need`` is the opening minimum (0 with a layout). For bots and the UI's hints."""
    return [(i, [slots for kind, _, slots in steps if kind == "meld"])
            for i, steps in take_plans(hand, bank, need, table, replace, layout)]


# ------------------------------------------------------------------ the C judge

Judge = Callable[[list[int], list[int], int, int, bool, bool, Table, bool, bool], bool]
""":func:`completable`'s signature."""


def _c_judge() -> Judge | None:
    """The C core's judge (``hand_search.completable``), configured with the Python part
    it asks (the searches it does not run), when the C core is built and in use
    (:data:`konkun.kunken.arrangement.C_SEARCH`)."""
    if C_SEARCH is None:
        return None
    from konkun.kunken import hand_search
    hand_search.configure_judge(search_completion)
    return hand_search.completable


C_JUDGE: Final = _c_judge()
"""The C core's :func:`completable` (``konkun.kunken.hand_search.completable``), or ``None``
when it is not built: then :func:`reference_completable` judges. Used exactly when the C
search is (:data:`konkun.kunken.arrangement.C_SEARCH`)."""


def _c_swap_third() -> Callable[[list[int], list[int], int, Table], int] | None:
    """The C core's :func:`swap_third_length`, when the C core is built and in use."""
    if C_SEARCH is None:
        return None
    from konkun.kunken import hand_search
    return hand_search.swap_third_length


C_SWAP_THIRD: Final = _c_swap_third()
"""The C core's :func:`swap_third_length` (``konkun.kunken.hand_search.swap_third_length``),
or ``None`` when it is not built (then :func:`reference_swap_third_length`)."""


SwapThirdMelds = Callable[[list[int], list[int], int, Table, list[tuple[int, ...]], int],
                          tuple[int, list[tuple[int, ...]]]]
"""The C core's ``hand_search.swap_third_melds``: given the hand, the cards not held before
the take, the taken card, the table's melds with jokers, the candidate melds and the hand's
size, the :func:`swap_third_length` of now and the legal melds."""


def _c_swap_third_melds() -> SwapThirdMelds | None:
    """The C core's verdicts on the melds of a legal list while only the taken card's meld
    is due with a layout, when the C core is built and in use."""
    if C_SEARCH is None:
        return None
    from konkun.kunken import hand_search
    return hand_search.swap_third_melds


C_SWAP_THIRD_MELDS: Final = _c_swap_third_melds()
"""The legal melds of ``LegalSteps._swap_third_actions`` in C
(``konkun.kunken.hand_search.swap_third_melds``: a meld is legal when it is the taken card's
meld or the shortest third-card meld over every choice of swaps after it, its own jokers'
too, is shorter than the hand it leaves), with the :func:`swap_third_length` of now, which
it computes first; or ``None`` when it is not built (then
``LegalSteps.reference_swap_third_melds``)."""


def _c_opening_melds() -> Callable[..., list[tuple[int, ...]]] | None:
    """The C core's verdicts on the melds of a legal list while opening points are due
    (``hand_search.opening_melds``, which takes the C search of a
    :class:`~konkun.kunken.solver.HandSearch`), when the C core is built and in use."""
    if C_SEARCH is None:
        return None
    from konkun.kunken import hand_search
    return hand_search.opening_melds


C_OPENING_MELDS: Final = _c_opening_melds()
"""The legal melds of ``LegalSteps._count_taken_actions`` while opening points are due, in
C (``konkun.kunken.hand_search.opening_melds``: given the hand, the cards not held before
the take, the taken card, the points due, whether the taken card is still to be melded,
whether a meld's points count, the table, ``joker_for_held``, the candidate melds, the
hand's size and the C search of the hand, the melds leaving a card after which the turn can
still be completed: by melds alone, else by any steps, :func:`completable`); or ``None``
when it is not built (then ``LegalSteps.reference_opening_melds``)."""


def _c_opening_layoffs() -> Callable[..., list[tuple[int, int]]] | None:
    """The C core's verdicts on the lay-offs of a legal list while opening points are due,
    without a layout (``hand_search.opening_layoffs``), when the C core is built and in
    use."""
    if C_SEARCH is None:
        return None
    from konkun.kunken import hand_search
    return hand_search.opening_layoffs


C_OPENING_LAYOFFS: Final = _c_opening_layoffs()
"""The legal lay-offs of ``LegalSteps._count_taken_actions`` while opening points are due,
without a layout, in C (``konkun.kunken.hand_search.opening_layoffs``: given the hand, the
cards not held before the take, the taken card, the points due, whether the taken card is
still to be melded, the table (every meld, in order), ``joker_for_held`` and the C search
of the hand, the (meld number, slot) pairs of each table meld's lay-off options the hand
holds after which the turn can still be completed: by melds alone, else by any steps); or
``None`` when it is not built (then ``LegalSteps.reference_opening_layoffs``)."""


def _c_layout_layoffs() -> Callable[..., list[tuple[int, int]]] | None:
    """The C core's verdicts on the lay-offs of a legal list while opening points are due,
    with a layout (``hand_search.layout_layoffs``), when the C core is built and in use."""
    if C_SEARCH is None:
        return None
    from konkun.kunken import hand_search
    return hand_search.layout_layoffs


C_LAYOUT_LAYOFFS: Final = _c_layout_layoffs()
"""The legal lay-offs of ``LegalSteps._count_taken_actions`` while opening points are due,
with a layout, in C (``konkun.kunken.hand_search.layout_layoffs``: the arguments and answer
of :data:`C_OPENING_LAYOFFS`, each lay-off kept by melds alone, else by one swap and melds
alone, else by any steps); or ``None`` when it is not built (then
``LegalSteps.reference_layout_layoffs``)."""


def forget_judged() -> None:
    """Empty the memo of the judge that runs (:data:`C_JUDGE`'s, else
    :func:`reference_completable`'s) and of the reference: an answer never depends on them,
    but a state met again on its own search's path is judged from where it was first met,
    so a test comparing the two judges starts both from empty memos."""
    _MEMO.clear()
    if C_JUDGE is not None:
        from konkun.kunken import hand_search
        hand_search.forget_judged()
