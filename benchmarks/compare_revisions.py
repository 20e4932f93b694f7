"""Two source trees of the project measured by one benchmark script, interleaved: new/old
ratios per figure.

    .venv/bin/python benchmarks/compare_revisions.py OLD_TREE [--new NEW_TREE]
        [--script benchmarks/bench_kunken.py] [--rounds 5] [--pure] [-- SCRIPT_ARGS...]

A tree is a checkout of the project (a folder holding ``src/konkun``), for example an older
commit checked out with ``git worktree add --detach DIR COMMIT`` and its compiled engine
built there (``PYTHONPATH=DIR/src python -m konkun.native --build``). ``--new`` defaults to
the checkout holding this script. Each round runs the script once per tree, in a fresh
process with that tree's ``src`` first on ``PYTHONPATH``, old first in odd rounds and new
first in even ones, so drift of a shared machine falls on both. The script is the same file
for both trees (``--script``, a path relative to the new tree unless absolute), so both run
the same workload; it must only import names both trees have. Arguments after ``--`` go to
the script (bench_kunken.py: ``--seconds 3``). ``--pure`` sets ``KONKUN_PURE=1`` for both.

A figure is an output line ``LABEL: NUMBER ...`` (the first number after the first colon,
commas allowed); lines without a number (``engine: compiled (mypyc)``) are shown once per
tree, so a stale build that fell back to pure Python is seen. Printed: each figure's values
per round, each round's new/old ratio, and their median. The figures are rates (more is
faster): a ratio above 1 means the new tree is faster.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

FIGURE = re.compile(r"^(?P<label>[^:]+):\s*(?P<value>[0-9][0-9,]*(?:\.[0-9]+)?)")
"""A figure line: a label, a colon, a number (commas grouping thousands allowed)."""


def parse_figures(output: str) -> tuple[dict[str, float], list[str]]:
    """The figures (label to value, in output order) and the other lines of ``output``."""
    figures: dict[str, float] = {}
    other: list[str] = []
    for line in output.splitlines():
        match = FIGURE.match(line)
        if match:
            figures[match["label"].strip()] = float(match["value"].replace(",", ""))
        elif line.strip():
            other.append(line.strip())
    return figures, other


def run_tree(tree: Path, script: Path, args: list[str], pure: bool) -> str:
    """The output of ``script`` run with ``tree``'s sources first on the import path."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(tree / "src")
    if pure:
        env["KONKUN_PURE"] = "1"
    else:
        env.pop("KONKUN_PURE", None)
    done = subprocess.run([sys.executable, str(script), *args], env=env, cwd=tree,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{script} failed in {tree} (exit {done.returncode}):\n{done.stderr}")
    return done.stdout


def tree_root(text: str) -> Path:
    """``text`` as a project tree (a folder holding ``src/konkun``), or exit naming it."""
    path = Path(text).resolve()
    if not (path / "src" / "konkun").is_dir():
        raise SystemExit(f"{text!r} is not a project tree: it has no src/konkun folder")
    return path


def main() -> None:
    """Run the rounds and print the figures and ratios."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old", help="the old tree (a checkout holding src/konkun)")
    parser.add_argument("--new", default=str(Path(__file__).resolve().parent.parent),
                        help="the new tree (default: this checkout)")
    parser.add_argument("--script", default="benchmarks/bench_kunken.py")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--pure", action="store_true", help="KONKUN_PURE=1 for both trees")
    argv = sys.argv[1:]
    split = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:split])
    script_args = argv[split + 1:]
    old, new = tree_root(args.old), tree_root(args.new)
    script = Path(args.script)
    if not script.is_absolute():
        script = new / script
    trees = {"old": old, "new": new}
    values: dict[str, dict[str, list[float]]] = {"old": {}, "new": {}}
    print(f"old: {old}\nnew: {new}\nscript: {script} {' '.join(script_args)}")
    for number in range(1, args.rounds + 1):
        order = ("old", "new") if number % 2 else ("new", "old")
        for name in order:
            figures, other = parse_figures(run_tree(trees[name], script, script_args,
                                                    args.pure))
            if number == 1:
                print(f"{name}: {'; '.join(other)}")
            for label, value in figures.items():
                values[name].setdefault(label, []).append(value)
        print(f"round {number} done ({' then '.join(order)})", flush=True)
    print()
    for label, olds in values["old"].items():
        news = values["new"].get(label)
        if not news:
            print(f"{label}: only the old tree prints it")
            continue
        ratios = [n / o for n, o in zip(news, olds, strict=True) if o > 0]
        print(f"{label}: new/old median {statistics.median(ratios):.3f} "
              f"(rounds {' / '.join(f'{r:.3f}' for r in ratios)}; "
              f"old {' / '.join(f'{v:,.0f}' for v in olds)}; "
              f"new {' / '.join(f'{v:,.0f}' for v in news)})")


if __name__ == "__main__":
    main()
