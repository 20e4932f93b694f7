"""The bots' initial ratings: arena games between the ladder's levels, rated with
Glicko-2 (``konkun.ratings.calibrate_ladder``), written to
``src/konkun/ratings/ladder_ratings.json`` for the server's rating pools.

    .venv/bin/python benchmarks/calibrate_ladder.py                 # the stored run
    .venv/bin/python benchmarks/calibrate_ladder.py --deals 8 --out /tmp/ladder.json

Every pool (``konchinka-2``, ``konchinka-3-4``, ``kunken``) plays duplicate deals: every
pair of levels in 2-player deals (Konchinka 3-4: every three levels at a 3-player table),
``--expert-deals`` of them when the expert (a second a move in Konchinka) plays, else
``--deals``. The beginner is anchored at 1000, so a new player (1500) starts between the
casual and strong levels until their games say otherwise.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path
from typing import Any

from konkun.arena import ArenaConfig, run_arena
from konkun.bots.ladder import LEVEL_KINDS
from konkun.ratings import arena_periods, calibrate_ladder

POOLS: tuple[tuple[str, str, int], ...] = (
    ("konchinka-2", "konchinka", 2),
    ("konchinka-3-4", "konchinka", 3),
    ("kunken", "kunken", 2),
)
ANCHOR = ("beginner", 1000.0)
OUT = Path(__file__).resolve().parent.parent / "src" / "konkun" / "ratings" / \
    "ladder_ratings.json"


def log(text: str) -> None:
    print(text, flush=True)


def pool_periods(game: str, seats: int, deals: int, expert_deals: int,
                 seed: int) -> tuple[list[list[tuple[str, str, float]]], int]:
    """The rating periods of one pool's arena runs and how many deals were played."""
    periods: list[list[tuple[str, str, float]]] = []
    played = 0
    for number, levels in enumerate(itertools.combinations(LEVEL_KINDS, seats)):
        count = expert_deals if "expert" in levels else deals
        started = time.perf_counter()
        report = run_arena(ArenaConfig(game, tuple(levels), seats, count, seed=seed + number),
                           workers=1)
        periods.extend(arena_periods(report))
        played += sum(len(result.games) for result in report.results)
        log(f"  {game} {seats}p {'/'.join(levels)}: {count} deals, "
            f"{time.perf_counter() - started:.0f} s")
    return periods, played


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--expert-deals", type=int, default=12)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--out", type=Path, default=OUT)
    options = parser.parse_args(argv)
    result: dict[str, Any] = {
        "anchor": {"level": ANCHOR[0], "rating": ANCHOR[1]},
        "method": f"duplicate deals, {options.deals} per pairing of levels "
                  f"({options.expert_deals} when the expert plays), seed {options.seed}; "
                  "benchmarks/calibrate_ladder.py",
        "pools": {}}
    for pool, game, seats in POOLS:
        log(f"{pool}:")
        periods, played = pool_periods(game, seats, options.deals, options.expert_deals,
                                       options.seed)
        ladder = calibrate_ladder(periods, anchor=ANCHOR)
        result["pools"][pool] = {
            "deals": played,
            "levels": {kind: {"rating": round(r.rating, 1), "rd": round(r.rd, 1),
                              "volatility": round(r.volatility, 6)}
                       for kind, r in ladder.items()}}
        for kind in LEVEL_KINDS:
            r = ladder[kind]
            log(f"  {kind:9s} {r.rating:7.1f}  RD {r.rd:5.1f}")
    options.out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    log(f"wrote {options.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
