"""Bot strength and search speed: the figures issue 4 asks for.

    .venv/bin/python benchmarks/bench_bots.py            # the full run (under 20 minutes
                                                         # on 2 cores)
    .venv/bin/python benchmarks/bench_bots.py --quick    # a smoke run (a minute or two)

Konchinka, 2 players, duplicate deal pairs (the same shuffle, seats swapped):
  1. greedy vs random: share of deal pairs where greedy scores more (target >= 80%);
  2. ismcts (<= 0.1 s per move) vs greedy over >= 400 deals: share of decided pairs
     (target >= 60%, the 95% Wilson interval above 50%);
  3. ismcts vs greedy in whole games to 15 (>= 50 games, duplicate pairs): games won.
Kunken, 2 players, duplicate deal pairs:
  4. greedy vs random and 5. ismcts vs greedy: average points per deal, each with its 95%
     interval, and whether the intervals separate.
Then ISMCTS iterations per second for each game (measured in the runs) and the wall time.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from konkun.arena import ArenaConfig, ArenaReport, run_arena


def log(text: str) -> None:
    print(text, flush=True)


def duel(game: str, first: str, second: str, games: int, seed: int, unit: str = "deal",
         workers: int | None = None) -> ArenaReport:
    config = ArenaConfig(game, (first, second), 2, games, unit, True, seed)  # type: ignore[arg-type]
    start = time.perf_counter()
    report = run_arena(config, backend="local", workers=workers)
    log(f"\n--- {game}: {first} vs {second}, {report.games} {config.unit_plural} "
        f"({time.perf_counter() - start:.0f} s)")
    log(report.format_table())
    return report


def pair_figures(report: ArenaReport) -> dict[str, Any]:
    (pair,) = report.pairs()
    first, second = report.bots()
    low, high = pair.first_share_ci()
    separate = first.points.low > second.points.high or second.points.low > first.points.high
    return {
        "pairs": pair.sets, "first_wins": pair.first_wins, "second_wins": pair.second_wins,
        "ties": pair.ties, "share_of_all_pairs": pair.first_wins / pair.sets,
        "share_of_decided": pair.first_share, "share_ci": [low, high],
        "margin_per_pair": pair.margin.mean, "margin_ci": [pair.margin.low, pair.margin.high],
        "points": [first.points.mean, second.points.mean],
        "points_ci": [[first.points.low, first.points.high],
                      [second.points.low, second.points.high]],
        "intervals_separate": separate,
        "wins": [first.wins, second.wins], "games": [first.games, second.games],
        "iterations_per_second": first.iterations_per_second,
        "seconds_per_move": first.seconds_per_move,
        "longest_move_seconds": first.longest_think,
    }


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small counts (a smoke run)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--konchinka-ismcts", default="ismcts:time=0.09:width=3")
    parser.add_argument("--kunken-ismcts", default="ismcts:time=0.09:width=3")
    parser.add_argument("--deals", type=int, default=400, help="Konchinka deals per duel")
    parser.add_argument("--games", type=int, default=50, help="Konchinka games to 15")
    parser.add_argument("--kunken-deals", type=int, default=120,
                        help="Kunken deals, greedy vs random")
    parser.add_argument("--kunken-search-deals", type=int, default=240,
                        help="Kunken deals, ismcts vs greedy")
    parser.add_argument("--only", choices=("konchinka", "kunken"), default=None)
    parser.add_argument("--json", default=None, metavar="FILE", help="also write the figures")
    args = parser.parse_args()
    if args.quick:
        args.deals, args.games, args.kunken_deals, args.kunken_search_deals = 20, 4, 8, 4
    started = time.perf_counter()
    figures: dict[str, Any] = {"seed": args.seed}
    checks: list[tuple[str, bool]] = []
    if args.only in (None, "konchinka"):
        ks = args.konchinka_ismcts
        r1 = pair_figures(duel("konchinka", "greedy", "random", args.deals, args.seed,
                               workers=args.workers))
        r2 = pair_figures(duel("konchinka", ks, "greedy", args.deals, args.seed + 1,
                               workers=args.workers))
        r3 = pair_figures(duel("konchinka", ks, "greedy", args.games, args.seed + 2, "match",
                               workers=args.workers))
        figures["konchinka"] = {"greedy_vs_random": r1, "ismcts_vs_greedy": r2,
                                "ismcts_vs_greedy_games_to_15": r3, "ismcts": ks}
        checks += [
            ("Konchinka greedy > random in >= 80% of deal pairs",
             r1["share_of_all_pairs"] >= 0.8),
            ("Konchinka ismcts > greedy in >= 60% of decided deal pairs, CI above 50%",
             r2["share_of_decided"] >= 0.6 and r2["share_ci"][0] > 0.5),
            ("Konchinka ismcts time per move <= 0.1 s", (r2["seconds_per_move"] or 0) <= 0.1),
        ]
    if args.only in (None, "kunken"):
        ks = args.kunken_ismcts
        r4 = pair_figures(duel("kunken", "greedy", "random", args.kunken_deals, args.seed + 3,
                               workers=args.workers))
        r5 = pair_figures(duel("kunken", ks, "greedy", args.kunken_search_deals, args.seed + 4,
                               workers=args.workers))
        figures["kunken"] = {"greedy_vs_random": r4, "ismcts_vs_greedy": r5, "ismcts": ks}
        checks += [
            ("Kunken greedy > random in points per deal, intervals separate",
             r4["points"][0] > r4["points"][1] and r4["intervals_separate"]),
            ("Kunken ismcts > greedy in points per deal, intervals separate",
             r5["points"][0] > r5["points"][1] and r5["intervals_separate"]),
            ("Kunken ismcts time per move <= 0.1 s", (r5["seconds_per_move"] or 0) <= 0.1),
        ]
    wall = time.perf_counter() - started
    figures["wall_seconds"] = wall
    log("\n=== summary")
    for game in ("konchinka", "kunken"):
        if game in figures:
            for name, data in figures[game].items():
                if isinstance(data, dict) and data.get("iterations_per_second"):
                    log(f"{game} {name}: ISMCTS {data['iterations_per_second']:,.0f} "
                        f"iterations/s, {data['seconds_per_move']:.3f} s per move on average,"
                        f" longest {data['longest_move_seconds']:.3f} s")
    for name, ok in checks:
        log(f"{verdict(ok)}  {name}")
    log(f"wall time {wall:.0f} s ({wall / 60:.1f} min)")
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(figures, handle, indent=2)
    return 0 if all(ok for _, ok in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
