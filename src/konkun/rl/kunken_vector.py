"""Kunken's core of the vector env (:mod:`konkun.rl.vector_core`), the ``vector_core`` of
:class:`~konkun.rl.kunken_adapter.KunkenAdapter`: the deals read in one compiled pass
(:mod:`konkun.rl.kunken_loops`), every deal's tensor written at once, the table's rows
kept from step to step.

The rows of a tensor (``docs/rl.md``) fall in two groups. The **table rows** (the cards each
seat laid, the cards the jokers stand for, one row per meld and the meld owners) change only
when a meld is laid or a meld gets a lay-off or a swap; the core pushes every action of its
deals, so it knows which melds an action touched, and it keeps those rows of every deal in
its own arrays (with the integer counts behind them), redoing only the touched melds' share.
The **other rows** (hand, bank, the bank's top, what was taken, the turn's cards, the
features) change with almost every action and are written afresh for all deals at once:
each deal's card counts as bytes, joined, and turned into rows by C
(:mod:`konkun.rl.tensor_rows`) where it is built, else by one numpy call per row kind. The
tests check every row against :meth:`KunkenAdapter.encode_deal` after every step.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from konkun.kunken.melds import BARE_JOKER, JOKER_FOR, OPEN_JOKER
from konkun.kunken.state import KunkenDeal
from konkun.rl.kunken_adapter import BANK_TOP, PHASES, KunkenAdapter
from konkun.rl.kunken_loops import (
    C_ROWS,
    SCALARS,
    MeldCards,
    Snapshot,
    Views,
    gather_touched,
    observe_movers,
    play_to_agent,
    push_moves,
    push_noting,
    read_views,
)
from konkun.rl.vector_core import FloatArray, VectorCore

_MELDS = 9  # the column of the deal's meld count among them
_BANK = 10  # of its bank's size



def make_core(adapter: Any, num_seats: int, seat: int, num_envs: int,
              all_random: bool) -> VectorCore:
    """Kunken's core; against random opponents it is also the vector's ``batch``."""
    return KunkenCore(adapter, num_seats, seat, num_envs, all_random)


class KunkenCore(VectorCore):
    """Kunken through the engine's legal actions; the tensors of ``seat`` written by
    :meth:`encode` with the table rows kept incrementally (see the module). Against random
    opponents (``all_random``) the core is its own :class:`~konkun.rl.vector_core.SlotBatch`:
    :meth:`write` keeps each deal's slots (one ``legal_actions`` per position, for the
    mask and the agent's step) and :meth:`play_agent` plays a slot and the opponents'
    random actions in one loop."""

    few = 4
    """Up to this many deals, :meth:`encode_each` encodes each with the adapter."""
    write_in_c: Any = None if C_ROWS is None else C_ROWS.write_rows
    """The C module's ``write_rows`` (:mod:`konkun.rl.tensor_rows`, built with the
    engine), which writes every row but the meld rows; without it :meth:`_rest` and its
    numpy calls do (the tests run both)."""

    def __init__(self, adapter: KunkenAdapter, num_seats: int, seat: int, num_envs: int,
                 all_random: bool = False) -> None:
        super().__init__(adapter, num_seats)
        self.kunken = adapter
        self.seat = seat
        self._slot_maps: list[dict[int, Any]] = [{} for _ in range(num_envs)]
        if all_random:
            self.batch = self
        n = num_seats
        t = adapter.table_slots
        self._rows = 15 + 2 * n + t
        # Per deal, by seat number (each viewer's tensor puts them in its own order): rows
        # 10 .. 10+n (laid by seat 0 .. n-1, then what jokers stand for); and the meld
        # rows 13+2n .. 13+2n+t with each meld's owner (-1: no meld there).
        self._laid = np.zeros((num_envs, n + 1, 53), dtype=np.float32)
        self._table = np.zeros((num_envs, t, 53), dtype=np.float32)
        self._owners = np.full((num_envs, t), -1, dtype=np.int64)
        self._laid_counts = np.zeros((num_envs, n + 1, 53), dtype=np.int64)
        self._snapshots: list[list[Snapshot]] = [[] for _ in range(num_envs)]
        self._meld_counts = np.zeros(num_envs, dtype=np.int64)  # len(self._snapshots[i])
        self._touched: list[set[int]] = [set() for _ in range(num_envs)]
        self._dirty: set[int] = set()  # the deals with a touched meld
        # The tensor array the meld rows of every deal were last written into, and the
        # deals whose meld rows changed since: only theirs are written there again.
        self._written: FloatArray | None = None
        self._rewrite: set[int] = set()
        # The mask array last written and its True cells: only those are cleared.
        self._masked: npt.NDArray[np.bool_] | None = None
        self._mask_cells = np.zeros(0, dtype=np.int64)
        # Per viewer, the seat numbers in its order, then the stand-for row's index n.
        # Per viewer, what the owners row holds for a meld of owner o at o + 1 (0: none).
        self._owner_values = np.array([[0.0] + [((owner - viewer) % n + 1) / n
                                                for owner in range(n)] for viewer in range(n)])
        self._laid_orders = np.array([[(viewer + offset) % n for offset in range(n)] + [n]
                                      for viewer in range(n)], dtype=np.int64)
        self._scale = adapter.card_scale
        rules = adapter.rules
        self._norms = (float(adapter.pack), float(max(1, rules.max_stock_renewals)),
                       float(max(1, rules.opening_minimum)))
        self._norm52 = float(adapter.card_scale[52])

    # ------------------------------------------------------------------ playing

    def new(self, index: int, rng: random.Random) -> None:
        super().new(index, rng)
        self._laid[index] = 0.0
        self._table[index] = 0.0
        self._owners[index] = -1
        self._laid_counts[index] = 0
        self._snapshots[index] = []
        self._meld_counts[index] = 0
        self._touched[index] = set()
        self._dirty.discard(index)
        self._rewrite.add(index)

    def apply(self, index: int, move: Any) -> None:
        self.push_action(index, move)  # a Kunken slot's move is the engine's action

    def push_action(self, index: int, action: Any) -> None:
        """Play ``action`` and remember the meld it laid or changed."""
        touched = self._touched[index]
        push_noting(cast(KunkenDeal, self.deals[index]), action, touched)
        if touched:
            self._dirty.add(index)

    def apply_moves(self, rows: list[int], moves: list[Any]) -> list[int]:
        """:meth:`push_action` of each move in one compiled loop
        (:func:`~konkun.rl.kunken_loops.push_moves`); the deals that ended."""
        ended, changed = push_moves(cast("list[KunkenDeal]", self.deals), rows, moves,
                                    self._touched)
        self._dirty.update(changed)
        return ended

    def play_agent(self, index: int, slot: int, rng: random.Random) -> int:
        """Play the agent's ``slot`` (of the last :meth:`write`) in deal ``index``, then
        the random opponents up to the agent or the end: ``-1`` for an illegal slot
        (nothing played), ``1`` when the deal ended, else ``0``."""
        action = self._slot_maps[index].get(slot)
        if action is None:
            return -1
        touched = self._touched[index]
        ended = play_to_agent(cast(KunkenDeal, self.deals[index]), action, self.seat, rng,
                              touched)
        if touched:
            self._dirty.add(index)
        return ended

    def legal_slot_list(self, index: int) -> list[int]:
        """The agent's legal slots in deal ``index`` (of the last :meth:`write`), in
        order (as the generic path draws a random one from)."""
        return sorted(self._slot_maps[index])

    def write(self, observations: FloatArray, masks: npt.NDArray[np.bool_]) -> None:
        """Write every deal's tensor and mask, keeping each deal's slots for
        :meth:`play_agent`."""
        self.observe_movers(self._slot_maps, masks, observations, self.seat)

    def observe_movers(self, slot_maps: list[dict[int, Any]], masks: npt.NDArray[np.bool_],
                       out: FloatArray, seat: int = -1) -> list[int]:
        """Every deal's legal slots (into ``slot_maps``), mask and tensor as ``seat`` (by
        default the seat to move) sees it, read in one compiled pass over the deals
        (:func:`~konkun.rl.kunken_loops.observe_movers`); returns the seats."""
        seats, cells, views = observe_movers(
            cast("list[KunkenDeal]", self.deals), seat, self.kunken.bases,
            self.kunken.action_size, slot_maps)
        flat = masks.reshape(-1)
        if masks is self._masked:
            flat[self._mask_cells] = False
        else:
            masks.fill(False)
            self._masked = masks
        self._mask_cells = np.array(cells, dtype=np.int64)
        flat[self._mask_cells] = True
        self._write_rows(seats, out, range(len(self.deals)), views)
        return seats

    # ------------------------------------------------------------------ tensors

    def encode(self, seat: int, out: FloatArray, rows: Sequence[int]) -> None:
        """Write the tensor of deal ``rows[j]`` into ``out[j]`` (flattened)."""
        self.encode_each([seat] * len(rows), out, rows)

    def encode_each(self, seats: Sequence[int], out: FloatArray, rows: Sequence[int]) -> None:
        """Write the tensor of deal ``rows[j]`` as ``seats[j]`` sees it into ``out[j]``. A
        few deals (the final observations of the deals a step ended) are encoded by the
        adapter, which costs less than the numpy calls' fixed cost over all deals; their
        kept rows are brought up to date by the next encoding of every deal."""
        if len(rows) <= self.few:
            for j, (i, seat) in enumerate(zip(rows, seats, strict=True)):
                out[j] = self.kunken.encode_deal(self.deals[i], seat).reshape(-1)
            if out is self._written:
                self._written = None
        else:
            views = read_views(cast("list[KunkenDeal]", self.deals), list(rows), list(seats))
            self._write_rows(seats, out, rows, views)

    def _write_rows(self, seats: Sequence[int], out: FloatArray, rows: Sequence[int],
                    views: Views) -> None:
        """:meth:`encode_each` from the deals' ``views`` (as
        :func:`~konkun.rl.kunken_loops.read_views` reads them)."""
        count = len(rows)
        every = rows == range(len(self.deals))
        dense, banks, scalars = views
        n = self.num_seats
        t = self.kunken.table_slots
        picked = np.asarray(rows, dtype=np.int64)
        melds = np.array(scalars[_MELDS::SCALARS + 2 * n], dtype=np.int64)
        grown = np.flatnonzero(melds != self._meld_counts[picked])
        if self._dirty or len(grown):
            self._sync_tables(self._dirty.union(picked[grown].tolist()))
        shaped = out[:count].reshape(count, self._rows, 53)
        meld_rows = shaped[:, 13 + 2 * n:13 + 2 * n + t]
        if not every:
            meld_rows[:] = self._table[picked]
            if out is self._written:
                self._written = None
        else:
            if out is not self._written:
                meld_rows[:] = self._table
                self._written = out
            elif self._rewrite:
                changed = np.fromiter(self._rewrite, dtype=np.int64, count=len(self._rewrite))
                meld_rows[changed] = self._table[changed]
            self._rewrite.clear()
        if self.write_in_c is not None and shaped.flags.c_contiguous:
            self.write_in_c(shaped, dense, banks, scalars, list(seats), list(rows), self._laid,
                            self._owners, self.kunken.card_scale, (n, t, self._rows),
                            self._norms)
            return
        values = np.array(scalars, dtype=np.int64).reshape(count, SCALARS + 2 * n)
        viewers = np.asarray(seats, dtype=np.int64)
        orders = self._laid_orders[viewers]  # (count, n + 1): seat numbers in view order
        shaped[:, 10:11 + n] = self._laid[picked[:, None], orders]
        owners = self._owners if every else self._owners[picked]
        owner_row = shaped[:, 13 + 2 * n + t]
        owner_row.fill(0.0)
        owner_row[:, :t] = self._owner_values[viewers[:, None], owners + 1]
        self._rest(dense, banks, values, orders[:, :n], shaped)

    def _sync_tables(self, stale: set[int]) -> None:
        """Bring the table rows of the deals in ``stale`` up to their melds: only the
        touched melds are read (and melds the core did not see laid), their cards
        gathered into flat lists, and the rows rewritten by a few numpy calls."""
        t = self.kunken.table_slots
        width = (self.num_seats + 1) * 53
        counted = MeldCards()  # the cards leaving (old snapshots) and joining the laid counts
        shown = MeldCards()  # the cards of the meld rows written afresh
        owner_cells: list[int] = []
        owners: list[int] = []
        rows = sorted(stale)
        counts = gather_touched(cast("list[KunkenDeal]", self.deals), rows, self._touched,
                                self._snapshots, t, width, counted, shown, owner_cells, owners)
        self._meld_counts[rows] = counts
        self._rewrite.update(rows)
        self._dirty.clear()
        self._count_laid(stale, counted)
        self._show_melds(shown)
        self._owners.reshape(-1)[owner_cells] = owners

    def _count_laid(self, stale: set[int], counted: MeldCards) -> None:
        """Add ``counted``'s cards (each meld's at its deal's base) to the laid counts
        (per seat number and card, then per card a joker stands for), then write the
        ``stale`` deals' laid rows from them."""
        n = self.num_seats
        slots, by, bases, signs = card_arrays(counted)
        cells = bases + by * 53 + np.minimum(slots, BARE_JOKER)
        stands = (slots >= JOKER_FOR) & (slots < OPEN_JOKER)
        cells = np.concatenate((cells, bases[stands] + n * 53 + slots[stands] - JOKER_FOR))
        np.add.at(self._laid_counts.reshape(-1), cells, np.concatenate((signs, signs[stands])))
        changed = np.fromiter(stale, dtype=np.int64, count=len(stale))
        now = self._laid_counts[changed]
        self._laid[changed, :n] = np.minimum(now[:, :n] * self._scale, 1.0)
        self._laid[changed, n] = now[:, n] != 0

    def _show_melds(self, shown: MeldCards) -> None:
        """Write the meld rows of ``shown`` (each meld's at its flat row number) afresh:
        its real cards and the cards its jokers stand for, and its jokers (counted,
        scaled) in the joker column."""
        if not shown.melds:
            return
        slots, _, rows, _ = card_arrays(shown)
        table = self._table.reshape(-1, 53)
        table[shown.melds] = 0.0
        flat = table.reshape(-1)
        cards = np.where(slots < BARE_JOKER, slots, slots - JOKER_FOR)
        shows = (slots < BARE_JOKER) | (slots >= JOKER_FOR) & (slots < OPEN_JOKER)
        flat[rows[shows] * 53 + cards[shows]] = 1.0
        jokers = np.bincount(np.repeat(np.arange(len(shown.melds)), shown.lengths),
                             weights=slots >= BARE_JOKER, minlength=len(shown.melds))
        held = np.flatnonzero(jokers)
        flat[np.asarray(shown.melds)[held] * 53 + 52] = np.minimum(
            jokers[held].astype(np.int64) * self._norm52, 1.0)

    def _rest(self, dense: bytes, banks: bytes, values: npt.NDArray[np.int64],
              orders: npt.NDArray[np.int64], shaped: FloatArray) -> None:
        """Write every row but the table rows (``shaped[j]`` is the ``j``-th deal's tensor,
        ``orders[j]`` the seat numbers in its viewer's order) from the views."""
        count = len(values)
        n = self.num_seats
        t = self.kunken.table_slots
        everyone = np.arange(count)[:, None]
        norm = self.kunken.card_scale
        # A count never exceeds the copies in the pack, so a scaled count is at most 1:
        # the adapter's np.minimum(..., 1.0) never binds, and the products are written
        # straight into the rows.
        people = np.frombuffer(dense, dtype=np.uint8).reshape(count, 2 + n, 53)
        np.multiply(people[:, 0], norm, out=shaped[:, 0])
        np.multiply(people[everyone, 1 + orders], norm, out=shaped[:, 11 + n:11 + 2 * n])
        np.multiply(people[:, 1 + n], norm, out=shaped[:, 11 + 2 * n])
        lengths = values[:, _BANK]
        cards = np.frombuffer(banks, dtype=np.uint8).astype(np.int64)
        owner = np.repeat(np.arange(count), lengths)
        bank_counts = np.bincount(owner * 53 + cards, minlength=count * 53)
        np.multiply(bank_counts.reshape(count, 53), norm, out=shaped[:, 1])
        shaped[:, 2:2 + BANK_TOP] = 0.0
        from_top = np.cumsum(lengths)[owner] - 1 - np.arange(len(cards))
        top = from_top < BANK_TOP
        shaped[owner[top], 2 + from_top[top], cards[top]] = 1.0
        shaped[:, 12 + 2 * n] = 0.0
        taking = np.flatnonzero(values[:, 8] >= 0)
        shaped[taking, 12 + 2 * n, values[taking, 8]] = 1.0
        by_number = values[:, SCALARS:].reshape(count, 2, n)
        by_seat = by_number[everyone[:, None], np.arange(2)[:, None], orders[:, None]]
        self._features(shaped[:, 14 + 2 * n + t], values, by_seat, lengths)

    def _features(self, row: FloatArray, values: npt.NDArray[np.int64],
                  seats: npt.NDArray[np.int64], bank_sizes: npt.NDArray[np.int64]) -> None:
        """The features rows of all deals (as :meth:`KunkenAdapter._features` writes one)."""
        rules = self.kunken.rules
        pack = self.kunken.pack
        n = self.num_seats
        everyone = np.arange(len(row))
        row.fill(0.0)
        row[:, 0] = values[:, 0] / pack
        row[:, 1] = np.minimum(1.0, values[:, 1] / max(1, rules.max_stock_renewals))
        row[:, 2:2 + n] = np.minimum(1.0, seats[:, 0] / 28.0)
        row[:, 2 + n:2 + 2 * n] = seats[:, 1] != 0
        row[everyone, 2 + 2 * n + values[:, 2]] = 1.0
        base = 2 + 3 * n
        row[:, base] = values[:, 3]
        phased = np.flatnonzero(values[:, 4] < len(PHASES))
        row[phased, base + 1 + values[phased, 4]] = 1.0
        row[:, base + 4] = values[:, 5]
        row[:, base + 5] = np.minimum(1.0, np.maximum(0, values[:, 6])
                                      / max(1, rules.opening_minimum))
        row[:, base + 6] = values[:, 7]
        row[:, base + 7] = bank_sizes / pack



def card_arrays(cards: MeldCards) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64],
                                          npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Per card of ``cards``: its slot, who laid it, its meld's base and sign."""
    lengths = cards.lengths
    return (np.array(cards.slots, dtype=np.int64), np.array(cards.by, dtype=np.int64),
            np.repeat(np.array(cards.melds, dtype=np.int64), lengths),
            np.repeat(np.array(cards.signs, dtype=np.int64), lengths))
