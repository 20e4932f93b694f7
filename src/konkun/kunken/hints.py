"""The solver's advice for one hand, as JSON: the most valuable arrangement into melds and,
for every bank card the bank can be taken from, the steps that would complete the turn.

Used by ``konkun kunken solve`` and by the web app's hints; it reads nothing but what the
player may see (their hand, the bank, the melds on the table, whether they have a layout).
The take positions are the engine's own, exact (:mod:`konkun.kunken.completion`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from konkun.kunken.completion import Table, compact_table, take_plans
from konkun.kunken.melds import slot_text
from konkun.kunken.observation import KunkenObservation
from konkun.kunken.rules import DEFAULT_RULES, KunkenRules
from konkun.kunken.solver import Step, best_arrangement, meld_points


def hand_advice(hand: Sequence[int], bank: Sequence[int] | None = None, need: int = 50,
                keep_one: bool = False, table: Table = (),
                rules: KunkenRules | None = None, layout: bool | None = None
                ) -> dict[str, Any]:
    """The best arrangement of ``hand`` (card counts by index, 52 = jokers) and, when a
    ``bank`` is given (card indices, oldest first), how it can be taken from each position;
    ``need`` is the opening minimum still to reach (0 with a layout); ``table``: the melds
    on the table (compact, :func:`konkun.kunken.completion.compact`), whose jokers may be
    won by swaps. Each take lists its ``steps`` (action texts; melds on the table are
    numbered as in the deal, the plan's own melds after them) and their ``melds``."""
    rules = rules or DEFAULT_RULES
    replace = rules.joker_for_held
    melds = best_arrangement(hand, keep_one, replace)
    advice: dict[str, Any] = {"points": sum(meld_points(m) for m in melds),
                              "melds": [[slot_text(s) for s in m] for m in melds]}
    if bank is not None:
        advice["takes"] = [
            {"position": i, "card": slot_text(bank[i]),
             "melds": [[slot_text(s) for s in slots] for kind, _, slots in plan
                       if kind == "meld"],
             "steps": [f"take {i}", *(_step_text(step) for step in plan)]}
            for i, plan in take_plans(hand, bank, need, table, replace, layout)]
    return advice


def _step_text(step: Step) -> str:
    kind, number, slots = step
    if kind == "meld":
        return "meld " + " ".join(slot_text(s) for s in slots)
    if kind == "swap":
        return f"swap {number} {slot_text(slots[0])}"
    return f"layoff {slot_text(slots[0])} {number}"


def observation_advice(observation: KunkenObservation) -> dict[str, Any]:
    """:func:`hand_advice` for the seat of ``observation``, from what it sees."""
    seat = observation.seat
    layout = observation.layout[seat]
    need = 0 if layout else observation.rules.opening_minimum
    table = compact_table((m.slots, m.kind) for m in observation.melds)
    return hand_advice(observation.hand, observation.bank, need, keep_one=True, table=table,
                       rules=observation.rules, layout=layout)
