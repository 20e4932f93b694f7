"""The Kunken environments' loops over deals and actions, compiled with the engine.

:mod:`konkun.native` builds this module with the engine's modules, so its loops read a
compiled deal's fields and an action's kind without a lookup by name. It holds no numpy
and no tensor layout beyond the slot numbers: :mod:`konkun.rl.kunken_adapter` defines the
slots and :mod:`konkun.rl.kunken_vector` turns what :func:`read_views` reads into rows.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final

from konkun.kunken.actions import DISCARD, DRAW, LAYOFF, MELD, SWAP, TAKE, Action
from konkun.kunken.deal_fields import DRAWN, START, TAKEN
from konkun.kunken.melds import BARE_JOKER, meld_value
from konkun.kunken.state import KunkenDeal

PHASE_CODES: Final = {START: 0, DRAWN: 1, TAKEN: 2}
"""The code of each phase in the features row (3 for a deal that is over)."""
_DRAW: Final = 0
_TAKE: Final = 1
_DISCARD: Final = 2
_MELD: Final = 3
_LAYOFF: Final = 4
_SWAP: Final = 5  # the last: a lay-off's or more is a lay-off or a swap
KIND_CODES: Final = {DRAW: _DRAW, TAKE: _TAKE, DISCARD: _DISCARD, MELD: _MELD,
                     LAYOFF: _LAYOFF, SWAP: _SWAP}
"""Each action kind's small number, for the loops' branches (a plain string equal to a
kind finds the same number)."""
NO_CARDS: Final = bytes(53)
"""The counts of no card."""
SCALARS: Final = 11
"""The integers :func:`read_views` reads per deal before its hand sizes and layouts."""


def append_bytes_pure(out: bytearray, items: list[int]) -> None:
    """``out += bytes(items)``: :data:`append_bytes` without the C module."""
    out += bytes(items)


def _c_module() -> Any:
    try:
        from konkun.rl import tensor_rows
    except ImportError:  # not built: pure Python and numpy
        return None
    return tensor_rows


C_ROWS: Final = _c_module()
""":mod:`konkun.rl.tensor_rows`, built with the engine (``None`` where it is not)."""
append_bytes: Final[Callable[[bytearray, list[int]], None]] = (
    append_bytes_pure if C_ROWS is None else C_ROWS.append_bytes)
"""Append a list of ints 0..255 to a bytearray, a byte each: ``tensor_rows.append_bytes``
where it is built (``bytes(list)`` converts each item through the number protocol, ten
times the cost), else ``out += bytes(items)``."""


class SlotBases:
    """Where each block of the Kunken action space starts, and its sizes (the attributes
    of :class:`~konkun.rl.kunken_adapter.KunkenAdapter` of the same names)."""

    def __init__(self, take_base: int, discard_base: int, meld_base: int, layoff_base: int,
                 swap_base: int, joker_layoff_base: int, table_slots: int, meld_slots: int,
                 joker_layoff_slots: int) -> None:
        self.take_base = take_base
        self.discard_base = discard_base
        self.meld_base = meld_base
        self.layoff_base = layoff_base
        self.swap_base = swap_base
        self.joker_layoff_base = joker_layoff_base
        self.table_slots = table_slots
        self.meld_slots = meld_slots
        self.joker_layoff_slots = joker_layoff_slots

    def __reduce__(self) -> tuple[type[SlotBases], tuple[int, ...]]:
        # Pickled by value, so the compiled class unpickles in another process too.
        return (SlotBases, (self.take_base, self.discard_base, self.meld_base,
                            self.layoff_base, self.swap_base, self.joker_layoff_base,
                            self.table_slots, self.meld_slots, self.joker_layoff_slots))

    def slots(self, bank_size: int, legal: list[Action]) -> dict[int, Action]:
        """The slot of each reachable action of ``legal`` (a position's legal actions,
        its bank holding ``bank_size`` cards)."""
        result: dict[int, Action] = {}
        melds: list[Action] = []
        joker_layoffs: list[Action] = []
        table = self.table_slots
        for action in legal:
            kind = KIND_CODES[action.kind]  # one lookup, not a string comparison per kind
            if kind == _DISCARD:
                result[self.discard_base + action.slots[0]] = action
            elif kind == _DRAW:
                result[0] = action
            elif kind == _TAKE:
                result[self.take_base + bank_size - 1 - action.target] = action
            elif kind == _MELD:
                melds.append(action)
            elif kind == _LAYOFF:
                slot = action.slots[0]
                if slot >= BARE_JOKER:
                    joker_layoffs.append(action)
                elif action.target < table:
                    result[self.layoff_base + action.target * 52 + slot] = action
            elif action.target < table:  # a swap
                result[self.swap_base + action.target * 52 + action.slots[0]] = action
        if len(melds) > 1:
            # Sorted by keys built here (a sort key would be called through Python).
            keyed = [(meld_order(action), k) for k, action in enumerate(melds)]
            keyed.sort()
            melds = [melds[k] for _, k in keyed]
        for offset, action in enumerate(melds[:self.meld_slots]):
            result[self.meld_base + offset] = action
        if joker_layoffs:
            joker_layoffs.sort(key=joker_layoff_order)
            for offset, action in enumerate(joker_layoffs[:self.joker_layoff_slots]):
                result[self.joker_layoff_base + offset] = action
        return result


def meld_order(action: Action) -> tuple[int, int, tuple[int, ...]]:
    """The meld block's order: most points first, then fewer cards, then the slots."""
    return (-meld_value(action.slots), len(action.slots), action.slots)


def joker_layoff_order(action: Action) -> tuple[int, tuple[int, ...]]:
    """The joker lay-off block's order: by meld, then the card the joker stands for."""
    return (action.target, action.slots)


Views = tuple[bytes, bytes, list[int]]
"""What :func:`read_views` reads: the card counts, the banks and the integers."""


def read_views(deals: list[KunkenDeal], rows: list[int], seats: list[int]) -> Views:
    """What a tensor's rows but the table rows are made of, for deal ``rows[j]`` as
    ``seats[j]`` sees it: the card counts (its hand, the cards taken by seat number, the
    turn's cards) and the banks, each deal's after the last as bytes, and per deal the
    :data:`SCALARS` integers (stock size, renewals, the dealer's offset, whether the seat
    is to act, the phase's code, pending, need, opening, the card to meld, the number of
    melds, the bank's size), then its hand sizes and layouts by seat number."""
    dense = bytearray()
    banks = bytearray()
    scalars: list[int] = []
    for j in range(len(rows)):
        i = rows[j]
        _read_one(deals[i], seats[j], dense, banks, scalars)
    return bytes(dense), bytes(banks), scalars


def observe_movers(deals: list[KunkenDeal], seat: int, bases: SlotBases, size: int,
                   slot_maps: list[dict[int, Action]]) -> tuple[list[int], list[int], Views]:
    """For every deal ``i``, in one pass while its fields are in the cache: the seat it
    is seen as (``seat``, or with ``-1`` the seat to move), its legal slots into
    ``slot_maps[i]``, then :func:`read_views`'s reading. Returns the seats, the mask's
    legal cells (``i * size + slot``, flat) and the views."""
    seats: list[int] = []
    cells: list[int] = []
    dense = bytearray()
    banks = bytearray()
    scalars: list[int] = []
    for i in range(len(deals)):
        d = deals[i]
        viewer = seat
        if viewer < 0:
            mover = d.to_move
            assert mover is not None  # a finished deal was dealt anew
            viewer = mover
        seats.append(viewer)
        slots = bases.slots(len(d.bank), d.legal_actions())
        slot_maps[i] = slots
        base = i * size
        for slot in slots:
            cells.append(base + slot)
        _read_one(d, viewer, dense, banks, scalars)
    return seats, cells, (bytes(dense), bytes(banks), scalars)


def _read_one(d: KunkenDeal, seat: int, dense: bytearray, banks: bytearray,
              scalars: list[int]) -> None:
    """Append deal ``d`` as ``seat`` sees it to :func:`read_views`'s reading."""
    n = d.num_seats
    append_bytes(dense, d.hands[seat])
    for counts in d.taken:
        append_bytes(dense, counts)
    to_move = d.to_move
    phase = d.phase
    if to_move is None or phase != TAKEN:
        dense += NO_CARDS  # only a take turn takes cards
    else:
        append_bytes(dense, d.turn_notold)
    bank = d.bank
    append_bytes(banks, bank)
    scalars.append(len(d.stock))
    scalars.append(d.renewals)
    scalars.append((d.dealer - seat) % n)
    scalars.append(1 if to_move == seat else 0)
    scalars.append(PHASE_CODES.get(phase, 3))
    scalars.append(1 if d.pending else 0)
    scalars.append(d.need)
    scalars.append(1 if d.opening else 0)
    scalars.append(d.take_card)
    scalars.append(len(d.melds))
    scalars.append(len(bank))
    scalars.extend(d.hand_sizes)
    for laid in d.layout:
        scalars.append(1 if laid else 0)


Snapshot = tuple[tuple[int, ...], tuple[int, ...]]
"""A meld as last encoded: its slots and who laid each."""


class MeldCards:
    """The cards of some melds gathered for numpy: their slots and who laid each, in
    flat lists, and per meld a base (a flat cell or row number), a sign and a length."""

    def __init__(self) -> None:
        self.slots: list[int] = []
        self.by: list[int] = []
        self.melds: list[int] = []  # the bases
        self.signs: list[int] = []
        self.lengths: list[int] = []

    def add(self, base: int, sign: int, snapshot: Snapshot) -> None:
        """Gather one meld's cards."""
        slots, by = snapshot
        self.slots.extend(slots)
        self.by.extend(by)
        self.melds.append(base)
        self.signs.append(sign)
        self.lengths.append(len(slots))


def gather_touched(deals: list[KunkenDeal], stale: list[int], touched: list[set[int]],
                   snapshots: list[list[Snapshot]], table_slots: int, width: int,
                   counted: MeldCards, shown: MeldCards,
                   owner_cells: list[int], owners: list[int]) -> list[int]:
    """Read the touched melds of the deals ``stale`` (and the melds laid that their
    ``snapshots`` do not hold yet) and clear ``touched``: each meld's old snapshot into
    ``counted`` with sign -1 and its new one with +1 (at the deal's base ``i * width``);
    the new one into ``shown`` at its flat row ``i * table_slots + m`` when it has a row; a
    new meld's row cell and owner into ``owner_cells`` and ``owners``. Returns each stale
    deal's number of melds."""
    counts: list[int] = []
    for i in stale:
        marked = touched[i]
        melds = deals[i].melds
        kept = snapshots[i]
        if len(melds) != len(kept):
            marked.update(range(len(kept), len(melds)))
        base = i * width
        for m in sorted(marked):
            meld = melds[m]
            now = (tuple(meld.slots), tuple(meld.laid_by))
            if m < len(kept):
                counted.add(base, -1, kept[m])
                kept[m] = now
            else:
                kept.append(now)
                if m < table_slots:
                    owner_cells.append(i * table_slots + m)
                    owners.append(meld.owner)
            counted.add(base, 1, now)
            if m < table_slots:
                shown.add(i * table_slots + m, 1, now)
        marked.clear()
        counts.append(len(kept))
    return counts


def push_noting(deal: KunkenDeal, action: Action, touched: set[int]) -> None:
    """Play ``action`` in ``deal``, adding the meld it laid or changed to ``touched``."""
    deal.push(action)
    kind = KIND_CODES[action.kind]
    if kind == _MELD:
        touched.add(len(deal.melds) - 1)
    elif kind >= _LAYOFF:
        touched.add(action.target)


def push_moves(deals: list[KunkenDeal], rows: list[int], moves: list[Action],
               touched: list[set[int]]) -> tuple[list[int], list[int]]:
    """Play ``moves[j]`` in deal ``rows[j]``, noting the melds each laid or changed in
    ``touched[rows[j]]``: (the deals that ended, the deals with a touched meld)."""
    ended: list[int] = []
    changed: list[int] = []
    for j in range(len(rows)):
        i = rows[j]
        deal = deals[i]
        melds = touched[i]
        push_noting(deal, moves[j], melds)
        if melds:
            changed.append(i)
        if deal.to_move is None:
            ended.append(i)
    return ended, changed


def play_to_agent(deal: KunkenDeal, action: Action, seat: int, rng: random.Random,
                  touched: set[int]) -> int:
    """Play ``action``, then random opponents' actions (``rng.randrange`` over the legal
    list) until ``seat`` is to move or the deal is over: ``1`` when it ended, else ``0``.
    The melds each action laid or changed are added to ``touched``."""
    while True:
        push_noting(deal, action, touched)
        mover = deal.to_move
        if mover is None:
            return 1
        if mover == seat:
            return 0
        legal = deal.legal_actions()
        action = legal[rng.randrange(len(legal))]
