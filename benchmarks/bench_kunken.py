"""Kunken engine speed: random play-out decisions per second and deals per second (2 and 4
seats), and the solver's hands per second. Run: ``.venv/bin/python benchmarks/bench_kunken.py``
(``--seconds N`` per figure, default 5; ``--rule NAME=VALUE`` for the play-outs). One core;
the first line says whether the engine runs compiled (``python -m konkun.native``), with
the C core of the hand search, or pure Python (``KONKUN_PURE=1`` asks for it). Rates are
per second of this process's CPU time (``time.process_time``), so a busy machine does not
skew them.
``--warmup N`` first plays N seconds of untimed 2-seat play-outs (other seeds), so the
engine's caches are as filled as in a long run (a training loop); the default 0 times a
fresh process."""

from __future__ import annotations

import argparse
import random
import statistics
import time

import konkun.kunken
from konkun.cards import double_deck
from konkun.kunken import KunkenRules, arrangement, completion, legal_steps, new_deal, solver
from konkun.kunken.completion import take_hints
from konkun.kunken.solver import best_arrangement, max_meld_points
from konkun.kunken.state import counts_of

C_PARTS = (
    (arrangement, "C_SEARCH", "the hand search"),
    (solver, "C_CAN_COMPLETE", "the melds-alone check"),
    (completion, "C_JUDGE", "the completion judge"),
    (solver, "C_TAKE_SCAN", "the take scan"),
    (completion, "C_SWAP_THIRD_MELDS", "the swap-third melds"),
    (legal_steps, "C_SWAP_THIRD_LIST", "the swap-third list"),
    (completion, "C_OPENING_MELDS", "the opening melds"),
    (completion, "C_OPENING_LAYOFFS", "the opening lay-offs"),
    (completion, "C_LAYOUT_LAYOFFS", "the lay-offs with a layout"),
    (legal_steps, "C_CANDIDATE_MELDS", "the candidate melds"),
    (legal_steps, "C_IDENTITY_VERDICTS", "the joker-identity verdicts"),
    (legal_steps, "C_THIRD_CARD_LIST", "the third-card list"),
)
"""The C core's parts, each with the constant that holds it when it runs (read with
``getattr``, so that the script also runs on trees from before some of them)."""


def engine() -> str:
    """Which engine runs: pure Python, compiled, or compiled with the parts of the C core
    that run (:data:`C_PARTS`)."""
    if not konkun.kunken.NATIVE:
        return "pure Python"
    parts = [f"of {name}" for module, constant, name in C_PARTS
             if getattr(module, constant, None) is not None]
    if not parts:
        return "compiled (mypyc)"
    listed = parts[-1] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"
    return f"compiled (mypyc, with the C core {listed})"


def playouts(seats: int, seconds: float, seed: int | None = None,
             rules: KunkenRules | None = None) -> tuple[float, float, float, float, float]:
    """Random legal play-outs (legal_actions, then push a random one) for ``seconds``:
    (decisions/s, deals/s, mean decisions per deal, and the median and best decisions/s of
    its rounds of 20 deals: the best round is the one least disturbed by other work on the
    machine); ``seed`` defaults to ``seats``."""
    rules = rules or KunkenRules()
    rng = random.Random(seats if seed is None else seed)
    decisions = deals = 0
    rounds: list[float] = []
    start = round_start = time.process_time()
    round_decisions = 0
    while time.process_time() - start < seconds:
        deal = new_deal(rules, seats, deals % seats, rng)
        while not deal.is_over():
            deal.push(rng.choice(deal.legal_actions()))
            decisions += 1
        deals += 1
        if deals % 20 == 0:
            now = time.process_time()
            rounds.append((decisions - round_decisions) / (now - round_start))
            round_start, round_decisions = now, decisions
    elapsed = time.process_time() - start
    rate = decisions / elapsed
    return (rate, deals / elapsed, decisions / max(deals, 1),
            statistics.median(rounds) if rounds else rate, max(rounds, default=rate))


def solver_hands(size: int, seconds: float) -> float:
    """Random ``size``-card hands solved (the most valuable arrangement) per second."""
    rng = random.Random(size)
    pack = [c.index for c in double_deck(4)]
    hands = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        counts = counts_of(rng.sample(pack, size))
        max_meld_points(counts, True)
        best_arrangement(counts, True)
        hands += 1
    return hands / (time.process_time() - start)


def take_hint_hands(seconds: float) -> float:
    """Take hints as the UI shows them (``completion.take_hints``: every bank position the bank
    can be taken from, with melds completing the turn) for a 13-card hand and a 15-card
    bank, per second."""
    rng = random.Random(1)
    pack = [c.index for c in double_deck(4)]
    done = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        cards = rng.sample(pack, 28)
        take_hints(counts_of(cards[:13]), cards[13:], 50)
        done += 1
    return done / (time.process_time() - start)


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--warmup", type=float, default=0.0)
    parser.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                        help="a rule option for the play-outs (repeatable)")
    args = parser.parse_args()
    rules = KunkenRules.from_options(dict(r.split("=", 1) for r in args.rule))
    print("engine:", engine())
    if args.warmup > 0:
        playouts(2, args.warmup, seed=1000)
    for seats in (2, 4):
        rate, deals, mean, median, best = playouts(seats, args.seconds, rules=rules)
        print(f"random play-outs, {seats} seats: {rate:,.0f} decisions/s, {deals:,.1f} deals/s "
              f"({mean:,.0f} decisions per deal; rounds of 20 deals: median {median:,.0f}, "
              f"best {best:,.0f})")
    for size in (13, 20):
        print(f"solver, {size}-card hands: {solver_hands(size, args.seconds):,.0f} hands/s")
    print(f"take hints (13-card hand, 15-card bank): {take_hint_hands(args.seconds):,.0f} hands/s")


if __name__ == "__main__":
    main()
