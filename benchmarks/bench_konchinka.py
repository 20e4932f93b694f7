"""Konchinka speed: random-playout deals per second and perft nodes per second.

    .venv/bin/python benchmarks/bench_konchinka.py [--seconds S]

Each figure is measured on one core as CPU time of this process (``time.process_time``),
so other load on the machine disturbs it less than wall-clock time would. A random
playout deals a fresh deal (shuffle, cut, four-round deal, initial-table fix) and plays
uniformly random legal moves to the end (``KonchinkaDeal.random_playout``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from konkun.konchinka import KonchinkaRules, new_deal, parse_kpn


def playouts_per_second(rules: KonchinkaRules, seats: int,
                        seconds: float) -> tuple[float, float, float]:
    """Fresh deals dealt and played out at random per CPU second: over the whole run,
    the median and the best of its rounds of 200 deals (the best round is the one least
    disturbed by other load on the machine)."""
    rng = random.Random(2026)
    count = 0
    rounds: list[float] = []
    start = time.process_time()
    while time.process_time() - start < seconds:
        began = time.process_time()
        for _ in range(200):
            new_deal(rules, seats, count % seats, rng).random_playout(rng)
            count += 1
        rounds.append(200 / (time.process_time() - began))
    overall = count / (time.process_time() - start)
    return overall, statistics.median(rounds), max(rounds)


PERFT_POSITIONS = [
    ("classic As7h2cQd Kc3d/Qh9c5s/8d4h - -/-/- 1 0 -", 7),
    ("classic 9h8d6s5c4d3h2sAc KcQs7h5h/Kh9s7c2d 8cTs6h4c3c2hJcJh -/- 0 1 -", 6),
    ("novo 9h8d6s5c4d3h2sAc KcQs7h5h/Kh9s7c2d 8cTs6h4c3c2hJcJh -/- 0 1 -", 6),
]


def perft_nodes_per_second(seconds: float) -> tuple[float, list[tuple[str, int, int]]]:
    """Leaf nodes counted per CPU second over a few positions (repeated until ``seconds``)."""
    results: list[tuple[str, int, int]] = []
    nodes = 0
    start = time.process_time()
    while True:
        counts = [(kpn, depth, parse_kpn(kpn).perft(depth)) for kpn, depth in PERFT_POSITIONS]
        nodes += sum(count for *_, count in counts)
        if not results:  # every pass counts the same: keep the first
            results = counts
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return nodes / elapsed, results


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    for variant, seats in (("classic", 2), ("novo", 2), ("classic", 4)):
        overall, median, best = playouts_per_second(KonchinkaRules.preset(variant), seats,
                                                    args.seconds)
        print(f"random playouts, {variant}, {seats} seats: {overall:,.0f} deals/s "
              f"(rounds of 200: median {median:,.0f}, best {best:,.0f})")
    rate, results = perft_nodes_per_second(args.seconds)
    for kpn, depth, count in results:
        print(f"perft({depth}) = {count:,}  {kpn}")
    print(f"perft: {rate:,.0f} nodes/s")


if __name__ == "__main__":
    main()
