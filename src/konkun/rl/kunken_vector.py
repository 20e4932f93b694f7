"""Kunken's core of the vector env (:mod:`konkun.rl.vector_core`), the ``vector_core`` of
:class:`~konkun.rl.kunken_adapter.KunkenAdapter`: every row's tensor written in one call."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from konkun.rl.vector_core import FloatArray, VectorCore


def make_core(adapter: Any, num_seats: int, seat: int, num_envs: int,
              all_random: bool) -> VectorCore:
    """Kunken's core (the same for any opponents)."""
    return KunkenCore(adapter, num_seats)


class KunkenCore(VectorCore):
    """Kunken through the engine's legal actions, every row's tensor written in one
    :meth:`~konkun.rl.kunken_adapter.KunkenAdapter.encode_deals` call."""

    def encode(self, seat: int, out: FloatArray, rows: Sequence[int]) -> None:
        deals = self.deals
        self.adapter.encode_deals([deals[i] for i in rows], seat, out)  # type: ignore[attr-defined]
