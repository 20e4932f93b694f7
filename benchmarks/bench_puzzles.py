"""How many puzzles ``konkun puzzles generate`` finds per CPU minute, per game, and how
long the exact uniqueness check of one shipped puzzle takes.

    .venv/bin/python benchmarks/bench_puzzles.py [--count 50] [--seed 1]

The figures are CPU time of this process (``time.process_time``), so a busy machine
gives the same figures as an idle one.
"""

from __future__ import annotations

import argparse
import time

from konkun.puzzles import konchinka, kunken, load_puzzles
from konkun.puzzles.cli import check


def main() -> None:
    """Print the puzzles found per CPU minute and the check time per puzzle."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    kinds = (("konchinka endgame", lambda n, s: konchinka.generate(n, s)),
             ("kunken opening take", lambda n, s: kunken.generate(n, s, kunken.KIND)),
             ("kunken go out", lambda n, s: kunken.generate(n, s, kunken.GO_OUT)))
    for name, generate in kinds:
        started = time.process_time()
        found = generate(args.count, args.seed)
        seconds = time.process_time() - started
        print(f"{name:20} {len(found)} puzzles in {seconds:.2f} CPU s: "
              f"{len(found) / seconds * 60:.0f} per CPU minute")
    puzzles = load_puzzles()
    started = time.process_time()
    for puzzle in puzzles:
        assert check(puzzle) is None
    seconds = time.process_time() - started
    print(f"{'check':20} {len(puzzles)} shipped puzzles in {seconds:.2f} CPU s: "
          f"{seconds / len(puzzles) * 1000:.1f} ms each")


if __name__ == "__main__":
    main()
