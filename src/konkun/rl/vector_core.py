"""The core of :class:`~konkun.rl.vector.KonkunVectorEnv`: the deals of the vector and
how they are stepped and encoded.

:class:`VectorCore` plays any game through its RL adapter. A game may give a faster core
with its adapter: the adapter's ``vector_core`` names (``"module:attribute"``) a factory
``(adapter, num_seats, seat, num_envs, all_random) -> VectorCore`` (Konchinka's
:mod:`konkun.rl.konchinka_vector`, Kunken's :mod:`konkun.rl.kunken_vector`);
:func:`core_for` builds it, or the generic core without one.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from konkun.game import load_target
from konkun.rl.adapter import GameAdapter

FloatArray = npt.NDArray[np.float32]


def write_masks(masks: npt.NDArray[np.bool_], slot_maps: Sequence[Mapping[int, Any]],
                rows: Iterable[int], size: int) -> None:
    """Set every mask False, then row ``i`` (for ``i`` in ``rows``) True at the legal slots
    ``slot_maps[i]``: one fancy-index assignment over the flattened masks (``size``
    slots a row)."""
    masks.fill(False)
    masks.reshape(-1)[[i * size + slot for i in rows for slot in slot_maps[i]]] = True


class SlotBatch(Protocol):
    """Every deal of the vector in one object that plays the agent's slots itself (the
    opponents being random): what the vector env's fast step loop calls."""

    def play_agent(self, index: int, slot: int, rng: random.Random) -> int:
        """Play the agent's ``slot`` in deal ``index``, then the random opponents: ``-1``
        for an illegal slot (nothing played), ``1`` when the deal ended, else ``0``."""
        ...

    def legal_slot_list(self, index: int) -> list[int]:
        """The agent's legal slots in deal ``index``."""
        ...

    def points(self, index: int) -> list[int]:
        """Deal ``index``'s points per seat."""
        ...

    def write(self, observations: FloatArray, masks: npt.NDArray[np.bool_]) -> None:
        """Write every deal's observation tensor and legal-slot mask."""
        ...


class VectorCore:
    """Any game through the adapter: engine actions, slot dictionaries, tensors. A
    game's core may override any method with a faster path, and may carry a ``batch``
    (:class:`SlotBatch`) that steps the agent's actions of every deal itself."""

    batch: SlotBatch | None = None

    def __init__(self, adapter: GameAdapter, num_seats: int) -> None:
        self.adapter = adapter
        self.num_seats = num_seats
        self.deals: list[Any] = []

    def new(self, index: int, rng: random.Random) -> None:
        """Deal deal ``index`` anew (or the first time) from ``rng``."""
        deal = self.adapter.new_deal(self.num_seats, rng)
        if index < len(self.deals):
            self.deals[index] = deal
        else:
            self.deals.append(deal)

    def engine_deal(self, index: int) -> Any:
        """Deal ``index`` as the engine's deal (a snapshot when the core keeps its own)."""
        return self.deals[index]

    def to_move(self, index: int) -> int | None:
        """The seat to move in deal ``index``; ``None`` once it is over."""
        seat: int | None = self.deals[index].to_move
        return seat

    def slots(self, index: int) -> dict[int, Any]:
        """Deal ``index``'s legal slots of the seat to move (slot -> move)."""
        deal = self.deals[index]
        return self.adapter.slots(deal, deal.legal_actions())

    def fill_slots(self, index: int, result: dict[int, Any]) -> None:
        """Write deal ``index``'s legal slots (slot -> move) into the empty ``result``."""
        result.update(self.slots(index))

    def apply(self, index: int, move: Any) -> None:
        """Play ``move`` (a value of :meth:`slots`) in deal ``index``."""
        self.deals[index].push(move)

    def push_action(self, index: int, action: Any) -> None:
        """Play the engine's ``action`` (an opponent's choice) in deal ``index``."""
        self.deals[index].push(action)

    def apply_moves(self, rows: list[int], moves: list[Any]) -> list[int]:
        """:meth:`apply` ``moves[j]`` in deal ``rows[j]``; the deals that ended."""
        ended: list[int] = []
        for i, move in zip(rows, moves, strict=True):
            self.apply(i, move)
            if self.to_move(i) is None:
                ended.append(i)
        return ended

    def random_move(self, index: int, rng: random.Random) -> None:
        """Play a uniformly random legal move in deal ``index``."""
        legal = self.deals[index].legal_actions()
        self.push_action(index, legal[rng.randrange(len(legal))])

    def points(self, index: int) -> list[int]:
        """Deal ``index``'s points per seat."""
        points: list[int] = self.deals[index].points()
        return points

    def observe_movers(self, slot_maps: list[dict[int, Any]], masks: npt.NDArray[np.bool_],
                       out: FloatArray) -> list[int]:
        """Every deal's legal slots of the seat to move (into ``slot_maps``), its mask and
        its tensor as that seat sees it; returns the seats (no deal may be over)."""
        seats: list[int] = []
        for i in range(len(self.deals)):
            seat = self.to_move(i)
            assert seat is not None  # a finished deal was dealt anew
            seats.append(seat)
            slot_maps[i] = self.slots(i)
        rows = range(len(self.deals))
        write_masks(masks, slot_maps, rows, self.adapter.action_size)
        self.encode_each(seats, out, rows)
        return seats

    def encode(self, seat: int, out: FloatArray, rows: Sequence[int]) -> None:
        """Write the tensor of deal ``rows[j]`` (as ``seat`` sees it) into ``out[j]``."""
        self.encode_each([seat] * len(rows), out, rows)

    def encode_each(self, seats: Sequence[int], out: FloatArray, rows: Sequence[int]) -> None:
        """Write the tensor of deal ``rows[j]`` as ``seats[j]`` sees it into ``out[j]``."""
        for j, (i, seat) in enumerate(zip(rows, seats, strict=True)):
            out[j] = self.adapter.encode_deal(self.deals[i], seat).reshape(-1)


def core_for(adapter: GameAdapter, num_seats: int, seat: int, num_envs: int,
             all_random: bool, fast: bool = True) -> VectorCore:
    """The vector's core for ``adapter``'s game: its own (the adapter's ``vector_core``)
    when ``fast``, else (or without one) the generic :class:`VectorCore`."""
    target: str | None = getattr(adapter, "vector_core", None) if fast else None
    if target is None:
        return VectorCore(adapter, num_seats)
    core: VectorCore = load_target(target)(adapter, num_seats, seat, num_envs, all_random)
    return core
