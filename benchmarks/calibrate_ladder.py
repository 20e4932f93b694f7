"""The bots' initial ratings: arena games between adjacent levels of the ladder, rated
with Glicko-2 (``konkun.ratings.calibrate_ladder``), written to
``src/konkun/ratings/ladder_ratings.json`` for the server's rating pools.

    .venv/bin/python benchmarks/calibrate_ladder.py                 # every pool
    .venv/bin/python benchmarks/calibrate_ladder.py --pool kunken   # one pool, the rest kept
    .venv/bin/python benchmarks/calibrate_ladder.py --deals 8 --out /tmp/ladder.json

Every pool (``konchinka-2``, ``konchinka-3-4``, ``kunken``) plays duplicate deals between
adjacent levels: each level against the one below in 2-player deals (Konchinka 3-4: each
three adjacent levels at a 3-player table), ``--expert-deals`` of them when the expert
plays, else ``--deals``. Those are the ladder's measurements too: each pairing's arena
table (with its intervals) is printed. Time budgets are counted on the CPU clock
(``expert:clock=cpu``), so a loaded machine rates the bots an idle one would. The beginner
is anchored at 1000, so a new player (1500) starts between the casual and strong levels
until their games say otherwise.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from konkun.arena import ArenaConfig, ArenaReport, run_arena
from konkun.arena.stats import bradley_terry_elo
from konkun.bots.ladder import LEVEL_KINDS
from konkun.ratings import calibrate_ladder

POOLS: tuple[tuple[str, str, int], ...] = (
    ("konchinka-2", "konchinka", 2),
    ("konchinka-3-4", "konchinka", 3),
    ("kunken", "kunken", 2),
)
ANCHOR = ("beginner", 1000.0)
OUT = Path(__file__).resolve().parent.parent / "src" / "konkun" / "ratings" / \
    "ladder_ratings.json"
CPU = ":clock=cpu"


Periods = list[list[tuple[str, str, float]]]
"""Rating periods: per set, the pairwise results ``(level, level, score)`` of its deals."""


def log(text: str) -> None:
    print(text, flush=True)


def adjacent(seats: int) -> list[tuple[str, ...]]:
    """Each run of ``seats`` adjacent levels, weakest first."""
    return [LEVEL_KINDS[k:k + seats] for k in range(len(LEVEL_KINDS) - seats + 1)]


def level_periods(report: ArenaReport) -> Periods:
    """The rating periods of an arena run between levels, each named by its kind: one per
    duplicate set, a game per pair of levels, won by the level with more points over the
    set (the same cards dealt to each in turn; equal points are a draw). A single deal is
    mostly the cards' luck (Konchinka's ISMCTS at 2000 iterations wins 53% of its deals
    against 20 iterations but 71% of the decided sets), and people play whole matches, in
    which skill adds up as it does over a set (ISMCTS against greedy: 68% of games to 15,
    74% of decided sets)."""
    names = [name.removesuffix(CPU) for name in report.config.names]
    per_set = len(names) * (len(names) - 1) // 2
    outcomes = report.pair_outcomes()
    return [[(names[i], names[j], score) for i, j, score, _ in outcomes[k:k + per_set]]
            for k in range(0, len(outcomes), per_set)]


def interleaved(runs: list[Periods]) -> Periods:
    """The periods of several runs spread evenly over one sequence (each run's k-th of n
    periods at (k + 1/2) / n), so no level enters the pool late: Glicko-2 rates period
    after period, and a level whose games all came after the others' would still be
    climbing from the initial rating when its deviation had shrunk."""
    keyed = [((k + 0.5) / len(run), number, period)
             for number, run in enumerate(runs) for k, period in enumerate(run)]
    return [period for _, _, period in sorted(keyed, key=lambda item: item[:2])]


def rated_pool(runs: list[Periods], played: int, method: str) -> dict[str, Any]:
    """A pool's entry of ``ladder_ratings.json``, the beginner anchored. Each level's
    rating is the maximum-likelihood (Bradley-Terry) fit to every set of the runs; its
    deviation and volatility are Glicko-2's after rating the sets period by period
    (interleaved). Glicko-2's own rating is not used: with one set a period it moves like
    Elo with a K of about 20 once the deviations have shrunk, so it reflects mostly the
    last few dozen sets (measured: Konchinka's 2000 against 20 iterations, 62% of the
    points over 98 sets alone, came out +10, where the fit gives +80)."""
    periods = interleaved(runs)
    glicko = calibrate_ladder(periods, anchor=ANCHOR)
    kinds = list(LEVEL_KINDS)
    fitted = bradley_terry_elo(len(kinds), [(kinds.index(first), kinds.index(second), score)
                                            for period in periods
                                            for first, second, score in period])
    shift = ANCHOR[1] - fitted[kinds.index(ANCHOR[0])]
    levels = {}
    for k, kind in enumerate(kinds):
        r = glicko[kind]
        levels[kind] = {"rating": round(fitted[k] + shift, 1), "rd": round(r.rd, 1),
                        "volatility": round(r.volatility, 6)}
        log(f"  {kind:9s} {fitted[k] + shift:7.1f}  RD {r.rd:5.1f}  "
            f"(Glicko-2 period by period: {r.rating:7.1f})")
    return {"deals": played, "method": method, "levels": levels}


def write_pools(out: Path, pools: dict[str, Any]) -> None:
    """Write ``pools`` into ``out``, keeping the pools it already holds that were not
    calibrated again (the file is read only now: another run may have written it)."""
    result: dict[str, Any] = json.loads(out.read_text()) if out.exists() else {"pools": {}}
    result["anchor"] = {"level": ANCHOR[0], "rating": ANCHOR[1]}
    result["method"] = "each pool's own method says how it was calibrated"
    result["pools"].update(pools)
    out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    log(f"wrote {out}")


def pool_periods(game: str, seats: int, deals: int, expert_deals: int, seed: int,
                 workers: int | None) -> tuple[list[Periods], int]:
    """The rating periods of one pool's arena runs and how many deals were played."""
    runs: list[Periods] = []
    played = 0
    for number, levels in enumerate(adjacent(seats)):
        count = expert_deals if "expert" in levels else deals
        started = time.perf_counter()
        specs = tuple(f"{kind}{CPU}" for kind in reversed(levels))  # strongest first
        report = run_arena(ArenaConfig(game, specs, seats, count, seed=seed + number),
                           workers=workers)
        runs.append(level_periods(report))
        played += report.games
        log(f"\n  {game} {seats}p {' vs '.join(specs)}: {count} deals, "
            f"{time.perf_counter() - started:.0f} s")
        log(report.format_table())
    return runs, played


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--expert-deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--pool", action="append", choices=[p for p, _, _ in POOLS],
                        help="calibrate only this pool (repeatable); the others are kept")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--out", type=Path, default=OUT)
    options = parser.parse_args(argv)
    method = (f"duplicate deals between adjacent levels, {options.deals} per pairing "
              f"({options.expert_deals} when the expert plays), CPU-clock budgets, seed "
              f"{options.seed}; benchmarks/calibrate_ladder.py")
    pools: dict[str, Any] = {}
    for pool, game, seats in POOLS:
        if options.pool and pool not in options.pool:
            continue
        log(f"{pool}:")
        runs, played = pool_periods(game, seats, options.deals, options.expert_deals,
                                    options.seed, options.workers)
        pools[pool] = rated_pool(runs, played, method)
    write_pools(options.out, pools)
    return 0


if __name__ == "__main__":
    sys.exit(main())
