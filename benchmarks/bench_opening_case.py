"""The legal lists of one case alone: a take turn still to be completed while opening points
are due (``LegalSteps._count_taken_actions`` with the completion judges, the case of issue
36's seventh slice), collected from seeded random play-outs, then listed again and timed.

    PYTHONPATH=src .venv/bin/python benchmarks/bench_opening_case.py [--deals 60] [--rounds 5]
        [--layout]

Prints, per seat count, ``opening lists, N seats: LISTS/s`` (CPU time; the best of the
rounds, the judge's memo emptied before each), a figure ``compare_revisions.py`` reads
(``--script benchmarks/bench_opening_case.py``). ``--layout``: only the positions where the
seat to move has a layout (the ninth slice's case: its lay-offs then ask a swap after the
step), printed as ``opening lists with a layout, N seats``."""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import konkun.kunken
from konkun.kunken import completion
from konkun.kunken.deal_fields import TAKEN
from konkun.kunken.rules import KunkenRules
from konkun.kunken.state import KunkenDeal, new_deal


def in_case(deal: KunkenDeal) -> bool:
    """Whether the seat to move is in a take turn still to be completed, points due."""
    return deal.to_move is not None and deal.phase == TAKEN and \
        not deal.obligations_met() and deal.need > 0


def positions(seats: int, deals: int, seed: int, layout: bool = False,
              case: Callable[[KunkenDeal], bool] | None = None) -> list[KunkenDeal]:
    """Copies of every position of the case met in ``deals`` seeded random play-outs (only
    those where the seat to move has a layout, with ``layout``; ``case``: another case than
    :func:`in_case`)."""
    case = case or in_case
    rng = random.Random(seed)
    out = []
    for _ in range(deals):
        deal = new_deal(KunkenRules(), seats, 0, rng)
        while not deal.is_over():
            actions = deal.legal_actions()
            if case(deal) and (not layout or deal.layout[deal.to_move or 0]):
                out.append(deal.copy())
            deal.push(rng.choice(actions))
    return out


def lists_per_second(found: list[KunkenDeal], rounds: int) -> float:
    """The legal lists of ``found`` per CPU second, the best of ``rounds``."""
    best = float("inf")
    for _ in range(rounds):
        completion.forget_judged()
        start = time.process_time()
        for deal in found:
            deal.legal_actions()
        best = min(best, time.process_time() - start)
    return len(found) / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--layout", action="store_true")
    args = parser.parse_args()
    print("engine:", "compiled" if konkun.kunken.NATIVE else "pure Python")
    for seats in (2, 4):
        found = positions(seats, args.deals, seats, args.layout)
        label = "opening lists with a layout" if args.layout else "opening lists"
        print(f"{label}, {seats} seats: {lists_per_second(found, args.rounds):,.0f} "
              f"lists/s over {len(found)} positions")


if __name__ == "__main__":
    main()
