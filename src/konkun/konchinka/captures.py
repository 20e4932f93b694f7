"""Capture generation: which sets of table cards each played card can take.

A card's capture "slot" says what it takes; the table's counting polynomial (see
:func:`table_poly`) gives how many captures each slot has without listing them, and
:func:`compute_captures` lists them, memoized by the table's value multiset. The table
itself is a sorted list of codes ``value << 6 | index`` (:data:`CLASSIC_CODES`,
:data:`NOVO_CODES`).
"""

from __future__ import annotations

from collections.abc import Iterable

from konkun.cards import Rank
from konkun.konchinka.deck import CARDS, CLASSIC_VALUES, NOVO_VALUES

MAX_SUM = 14
"""The largest value a capture can add up to (the novo King's 14)."""

# The capture "slot" of a played card: the index into a table's capture entry.
# 0: the whole table (the classic Jack); 1..14: sets adding up to that value;
# 15: sets adding up to 13 or 14 (the novo King).
WHOLE_TABLE = 0
"""The slot of the classic Jack: it takes the whole table."""
KING_SLOT = 15
"""The slot of the novo King: sets adding up to 13 or 14."""
CLASSIC_SLOTS = tuple(CLASSIC_VALUES)
"""The capture slot of each card index in classic (its value; the Jack 0)."""
NOVO_SLOTS = tuple(KING_SLOT if CARDS[i].rank == Rank.KING else NOVO_VALUES[i]
                   for i in range(52))
"""The capture slot of each card index in novo (its value; the King :data:`KING_SLOT`)."""

# Counting captures without listing them: the table's generating polynomial
# prod(1 + x**value) over its valued cards, truncated to degree 14, is kept as one integer
# with a 32-bit field per coefficient, so the number of sets adding up to s is field s.
# Laying a card multiplies by (1 + x**v); taking one multiplies by its inverse series
# sum((-1)**k * x**(v*k)) -- exact on the low 15 fields, which hold the true counts.
FIELD_BITS = 32
"""Bits per coefficient of the packed counting polynomial."""
FIELD = (1 << FIELD_BITS) - 1
"""The mask of one coefficient."""
POLY_MASK = (1 << (FIELD_BITS * (MAX_SUM + 1))) - 1
"""The mask of the polynomial's low fields (degrees 0..14)."""
SHIFT = tuple(FIELD_BITS * s for s in range(MAX_SUM + 1))
"""The shift of each degree's field."""
MUL_BY_VALUE = (1, *((1 << (FIELD_BITS * v)) + 1 for v in range(1, MAX_SUM + 1)))
"""By value v: the packed ``1 + x**v`` (laying a card of value v multiplies by it)."""
INV_BY_VALUE = (1, *(sum((-1) ** k << (FIELD_BITS * v * k) for k in range(MAX_SUM // v + 1))
                      for v in range(1, MAX_SUM + 1)))
"""By value v: the packed inverse series of ``1 + x**v`` (taking such a card)."""
CLASSIC_CODES = tuple((v << 6) | i for i, v in enumerate(CLASSIC_VALUES))
"""The table code ``value << 6 | index`` of each card index in classic."""
# Where a played card's capture count sits in the polynomial: its field's shift; 0 for
# the classic Jack (the whole table), -1 for the novo King (fields 13 and 14).
CLASSIC_SHIFTS = tuple(-1 if s == KING_SLOT else FIELD_BITS * s for s in CLASSIC_SLOTS)
"""By card index in classic: where its capture count sits in the polynomial."""
NOVO_SHIFTS = tuple(-1 if s == KING_SLOT else FIELD_BITS * s for s in NOVO_SLOTS)
"""By card index in novo: where its capture count sits in the polynomial."""
NOVO_CODES = tuple((v << 6) | i for i, v in enumerate(NOVO_VALUES))
"""The table code ``value << 6 | index`` of each card index in novo."""


def table_poly(values: Iterable[int]) -> int:
    """The packed counting polynomial of a table's values (Jacks in classic: value 0,
    left out)."""
    poly = 1
    for value in values:
        poly = poly * MUL_BY_VALUE[value] & POLY_MASK
    return poly


Captures = tuple[tuple[int, ...], ...]
"""The captures of one slot: tuples of positions into the sorted table."""
CAPTURES: dict[int, Captures] = {}
"""The memo of :func:`compute_captures`, keyed by ``key << 4 | slot``."""
_CAPTURES_LIMIT = 1 << 16


def compute_captures(key: int, slot: int) -> Captures:
    """The captures of one slot on a table with the value multiset ``key``
    (``sum(1 << 4 * value)``), as tuples of positions into the table sorted by value
    (Jack-free sets; slot 0: the whole table); memoized under ``key << 4 | slot``."""
    values: list[int] = []
    value = 0
    rest = key
    while rest:
        if rest & 15:
            values += [value] * (rest & 15)
        rest >>= 4
        value += 1
    size = len(values)
    found: list[tuple[int, ...]] = []
    chosen: list[int] = []

    def extend(start: int, remaining: int) -> None:
        for position in range(start, size):
            value = values[position]
            if value > remaining:
                break
            chosen.append(position)
            if value == remaining:
                found.append(tuple(chosen))
            else:
                extend(position + 1, remaining - value)
            chosen.pop()

    if slot == WHOLE_TABLE:
        if size:
            found.append(tuple(range(size)))
    else:
        for target in ((13, 14) if slot == KING_SLOT else (slot,)):
            extend(values.count(0), target)
    entry = tuple(found)
    if len(CAPTURES) >= _CAPTURES_LIMIT:
        CAPTURES.clear()
    CAPTURES[key << 4 | slot] = entry
    return entry


def capture_count(poly: int, slot: int, table: bool) -> int:
    """How many captures ``slot`` has on a table with the packed polynomial ``poly``
    (``table``: whether the table holds any card)."""
    if slot == WHOLE_TABLE:
        return 1 if table else 0
    if slot == KING_SLOT:
        return ((poly >> SHIFT[13]) & FIELD) + ((poly >> SHIFT[14]) & FIELD)
    return (poly >> SHIFT[slot]) & FIELD
