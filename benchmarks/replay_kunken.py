"""Kunken legal lists timed on the same positions in two versions of the engine: record
seeded random play-outs once, then replay them with each version, timing ``legal_actions``
by kind of position (CPU time, best of the rounds).

    .venv/bin/python benchmarks/replay_kunken.py record FILE [--seats 2] [--deals 300]
    PYTHONPATH=OLD/src .venv/bin/python benchmarks/replay_kunken.py replay FILE [--rounds 3]
    PYTHONPATH=NEW/src .venv/bin/python benchmarks/replay_kunken.py replay FILE [--rounds 3]

Random play-outs of two engines whose legal lists differ (a rule change) drift apart after
the first differing list, so ``bench_kunken.py`` then times different positions; a replay
times the very same ones. A deal is replayed until its next recorded action is not in the
list (the version refuses it); the count of such deals is printed. The kinds: the turn's
phase, and after a take whether the taken card's meld is due (``pend``), whether the turn
has joker marks (``marks``) and whether the hand holds a joker (``J``)."""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import defaultdict
from pathlib import Path

import konkun.kunken
from konkun.kunken import KunkenRules, new_deal
from konkun.kunken.actions import Action, ActionKind
from konkun.kunken.state import TAKEN, KunkenDeal

Recorded = tuple[int, int, int, list[Action]]
"""A recorded deal: the seed of its generator, the seats, the dealer, the actions."""


def record(path: Path, seats: int, deals: int) -> None:
    """Play ``deals`` seeded random play-outs and write them to ``path``."""
    rng = random.Random(seats)
    out = []
    for number in range(deals):
        seed = rng.randrange(1 << 30)
        play = random.Random(seed)
        deal = new_deal(KunkenRules(), seats, number % seats, play)
        actions = []
        while not deal.is_over():
            action = play.choice(deal.legal_actions())
            actions.append([action.kind.value, action.number, list(action.slots)])
            deal.push(action)
        out.append([seed, seats, number % seats, actions])
    path.write_text(json.dumps(out))


def load(path: Path) -> list[Recorded]:
    """The recorded deals of ``path``."""
    return [(seed, seats, dealer, [Action(ActionKind(k), n, tuple(s)) for k, n, s in acts])
            for seed, seats, dealer, acts in json.loads(path.read_text())]


def position_kind(deal: KunkenDeal) -> str:
    """The kind of the position, as the replay groups its timings."""
    if deal.phase != TAKEN:
        return str(deal.phase.value)
    seat = deal.to_move
    assert seat is not None
    return "taken" + (":pend" if deal.pending else ":done") + \
        (":marks" if getattr(deal, "turn_marks", None) else "") + \
        (":J" if deal.hands[seat][52] else "")


def replay(path: Path, rounds: int) -> None:
    """Replay the deals of ``path`` ``rounds`` times and print the best time per kind."""
    games = load(path)
    best: dict[str, float] = {}
    calls: dict[str, int] = defaultdict(int)
    refused = 0
    clock = time.process_time
    for _ in range(rounds):
        spent: dict[str, float] = defaultdict(float)
        calls.clear()
        refused = 0
        for seed, seats, dealer, actions in games:
            deal = new_deal(KunkenRules(), seats, dealer, random.Random(seed))
            for action in actions:
                kind = position_kind(deal)
                start = clock()
                legal = deal.legal_actions()
                spent[kind] += clock() - start
                calls[kind] += 1
                if action not in legal:
                    refused += 1
                    break
                deal.push(action)
        for kind, seconds in spent.items():
            best[kind] = min(best.get(kind, seconds), seconds)
    print("engine:", "compiled (mypyc)" if konkun.kunken.NATIVE else "pure Python")
    for kind in sorted(best):
        print(f"{kind}: {best[kind]:.3f} s ({calls[kind]:,} lists)")
    print(f"total: {sum(best.values()):.3f} s ({refused} deals stopped at a refused action)")


def main() -> None:
    """Record or replay."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=("record", "replay"))
    parser.add_argument("file", type=Path)
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if args.mode == "record":
        record(args.file, args.seats, args.deals)
    else:
        replay(args.file, args.rounds)


if __name__ == "__main__":
    main()
