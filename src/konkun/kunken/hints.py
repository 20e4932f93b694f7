"""The solver's advice for one hand, as JSON: the most valuable arrangement into melds and,
for every bank card the bank can be taken from, the melds that would complete the turn.

Used by ``konkun kunken solve`` and by the web app's hints; it reads nothing but what the
player may see (their hand, the bank, whether they have a layout).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from konkun.kunken.melds import slot_text
from konkun.kunken.observation import KunkenObservation
from konkun.kunken.solver import best_arrangement, meld_points, take_hints


def hand_advice(hand: Sequence[int], bank: Sequence[int] | None = None, need: int = 50,
                keep_one: bool = False) -> dict[str, Any]:
    """The best arrangement of ``hand`` (card counts by index, 52 = jokers) and, when a
    ``bank`` is given (card indices, oldest first), how it can be taken from each position;
    ``need`` is the opening minimum still to reach (0 with a layout)."""
    melds = best_arrangement(hand, keep_one)
    advice: dict[str, Any] = {"points": sum(meld_points(m) for m in melds),
                              "melds": [[slot_text(s) for s in m] for m in melds]}
    if bank is not None:
        advice["takes"] = [{"position": i, "card": slot_text(bank[i]),
                            "melds": [[slot_text(s) for s in m] for m in plan]}
                           for i, plan in take_hints(hand, bank, need)]
    return advice


def observation_advice(observation: KunkenObservation) -> dict[str, Any]:
    """:func:`hand_advice` for the seat of ``observation``, from what it sees."""
    seat = observation.seat
    need = 0 if observation.layout[seat] else observation.rules.opening_minimum
    return hand_advice(observation.hand, observation.bank, need, keep_one=True)
