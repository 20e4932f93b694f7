"""The legal lists of one case alone: a take turn whose taken card is still to be melded,
with joker marks, where the joker-identity verdicts decide (``LegalSteps._taken_actions``'
marks-winnable and taken-joker-out branches, the case of issue 36's eleventh slice),
collected from seeded random play-outs, then listed again and timed.

    PYTHONPATH=src .venv/bin/python benchmarks/bench_identity_case.py [--deals 150]
        [--rounds 5]

Prints, per seat count, ``identity lists, N seats: LISTS/s`` (CPU time; the best of the
rounds, the judge's memo emptied before each), a figure ``compare_revisions.py`` reads
(``--script benchmarks/bench_identity_case.py``)."""

from __future__ import annotations

import argparse

from bench_opening_case import lists_per_second, positions  # a sibling script

import konkun.kunken
from konkun.kunken.deal_fields import TAKEN
from konkun.kunken.state import KunkenDeal


def in_case(deal: KunkenDeal) -> bool:
    """Whether the seat to move is in a take turn with marks whose legal list the identity
    verdicts decide (the taken joker on the table, or a mark a card in the hand may win)."""
    seat = deal.to_move
    if seat is None or deal.phase != TAKEN or not deal.pending or not deal.turn_marks:
        return False
    # the branch's own test, as _taken_actions asks it (main's build has it too)
    return deal.taken_joker_out() or deal._marks_winnable(deal.hands[seat])  # noqa: SLF001


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print("engine:", "compiled" if konkun.kunken.NATIVE else "pure Python")
    for seats in (2, 4):
        found = positions(seats, args.deals, seats, case=in_case)
        print(f"identity lists, {seats} seats: {lists_per_second(found, args.rounds):,.0f} "
              f"lists/s over {len(found)} positions")


if __name__ == "__main__":
    main()
