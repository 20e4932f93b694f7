"""Two source trees' Kunken engines compared by the instructions they execute (valgrind's
callgrind), not by time: seeded random play-outs, the same decisions in both trees, so the
figure does not move with the load of a shared machine.

    .venv/bin/python benchmarks/count_instructions.py OLD_TREE [--new NEW_TREE]
        [--seats 2 4] [--deals 30]

A tree is a checkout with its compiled engine built (``compare_revisions.py`` says how).
For each tree and seat count the play-outs run twice under callgrind, with ``--deals`` deals
and with none; the difference is the play-outs' own instructions (the interpreter's start
and the imports cancel). Printed per seat count: each tree's instructions per decision and
new/old (below 1: the new tree executes fewer). Both trees must make the same decisions
(the same legal lists): the script stops if they do not. Instructions are not time (cache
misses and branch mispredictions are not counted), so a change is also measured with
``compare_revisions.py``. Needs ``valgrind`` (Debian's package); about a minute a run.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def play(seats: int, deals: int) -> int:
    """Play ``deals`` seeded random play-outs; the number of decisions."""
    from konkun.kunken import KunkenRules, new_deal

    rng = random.Random(seats)
    rules = KunkenRules()
    decisions = 0
    for number in range(deals):
        deal = new_deal(rules, seats, number % seats, rng)
        while not deal.is_over():
            deal.push(rng.choice(deal.legal_actions()))
            decisions += 1
    return decisions


def counted(tree: Path, seats: int, deals: int) -> tuple[int, int]:
    """The instructions and decisions of ``deals`` play-outs in ``tree`` under callgrind."""
    with tempfile.TemporaryDirectory() as scratch:
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={scratch}/out",
                   sys.executable, __file__, "--play", str(seats), str(deals)]
        environment = os.environ | {"PYTHONPATH": str(tree / "src")}
        result = subprocess.run(command, capture_output=True, text=True, env=environment,
                                check=True)
    match = COLLECTED.search(result.stderr)
    if match is None:
        raise SystemExit(f"no instruction count from callgrind in {tree}:\n{result.stderr}")
    return int(match.group(1)), int(result.stdout.split()[-1])


def per_decision(tree: Path, seats: int, deals: int) -> tuple[float, int]:
    """The play-outs' instructions per decision in ``tree`` (less those of no deal)."""
    base, _ = counted(tree, seats, 0)
    total, decisions = counted(tree, seats, deals)
    return (total - base) / decisions, decisions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", type=Path, nargs="?")
    parser.add_argument("--new", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--play", type=int, nargs=2, metavar=("SEATS", "DEALS"),
                        help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.play:
        print(play(*options.play))
        return 0
    if options.old is None:
        parser.error("OLD_TREE is required")
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt install valgrind): nothing measured")
        return 0
    for seats in options.seats:
        old, old_decisions = per_decision(options.old.resolve(), seats, options.deals)
        new, new_decisions = per_decision(options.new.resolve(), seats, options.deals)
        if old_decisions != new_decisions:
            raise SystemExit(f"{seats} seats: the trees made {old_decisions} and "
                             f"{new_decisions} decisions: not the same play")
        print(f"{seats} seats, {options.deals} deals ({new_decisions} decisions): "
              f"instructions per decision old {old:,.0f}, new {new:,.0f}; "
              f"new/old {new / old:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
