"""Konchinka's play-outs and RL environments on two commits, interleaved: the ratio
new/old of each figure.

    .venv/bin/python benchmarks/bench_trees.py OLD [NEW] [--rounds R] [--seconds S]
        [--figures playout,playout-compulsory,vector,self-play]

``OLD`` and ``NEW`` are git revisions (``NEW`` defaults to the work tree as it is). Each
revision's ``src`` is exported to a temporary folder; each round runs every figure once
per tree, in a fresh Python process (``PYTHONPATH`` set to that tree), old first or new
first in turn. Every figure is CPU time of its own process (one core), measured by the
functions of ``bench_konchinka.py`` and ``bench_rl.py`` from this folder on both trees:

- ``playout``: classic random play-outs, 2 seats, deals per CPU second;
- ``playout-compulsory``: the same with ``capture_compulsory``;
- ``vector``: the Konchinka vector env (256 deals, random masked agent against random
  opponents), agent steps per CPU second;
- ``vector-compulsory``: the same with ``capture_compulsory``;
- ``self-play``: the Konchinka self-play vector env, agent steps per CPU second.

It prints each round's figures and, per figure, the median ratio new/old over the rounds.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

MEASURE = """
import sys
sys.path.insert(0, {benchmarks!r})
figure, seconds = {figure!r}, {seconds!r}
if figure.startswith("playout"):
    from bench_konchinka import playouts_per_second
    from konkun.konchinka import KonchinkaRules
    rules = KonchinkaRules.preset("classic")
    if figure.endswith("compulsory"):
        rules = rules.with_options({{"capture_compulsory": "true"}})
    print(playouts_per_second(rules, 2, seconds)[0])
else:
    from functools import partial
    from bench_rl import SELF_PLAY, vector_cpu_rate
    from konkun.rl.envs import konchinka_vector_env
    if figure == "self-play":
        make = SELF_PLAY["konchinka"]
    elif figure.endswith("compulsory"):
        make = partial(konchinka_vector_env, rules={{"capture_compulsory": "true"}})
    else:
        make = konchinka_vector_env
    print(vector_cpu_rate(make, 256, seconds, 1)[2])
"""

FIGURES = ("playout", "playout-compulsory", "vector", "vector-compulsory", "self-play")


def export(revision: str | None, folder: Path) -> Path:
    """The ``src`` of ``revision`` (``None``: this work tree's) under ``folder``."""
    if revision is None:
        return ROOT / "src"
    archive = subprocess.run(["git", "archive", revision, "src"], cwd=ROOT, check=True,
                             capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return folder / "src"


def measure(src: Path, figure: str, seconds: float) -> float:
    """One figure on the tree ``src``, in a fresh process."""
    code = MEASURE.format(benchmarks=str(HERE), figure=figure, seconds=seconds)
    result = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                            text=True, env={**os.environ, "PYTHONPATH": str(src)})
    return float(result.stdout.strip().splitlines()[-1])


def main() -> None:
    """Print the figures and the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new", nargs="?", default=None)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--figures", default=",".join(FIGURES))
    args = parser.parse_args()
    figures = args.figures.split(",")
    with tempfile.TemporaryDirectory() as temporary:
        trees = {"old": export(args.old, Path(temporary) / "old"),
                 "new": export(args.new, Path(temporary) / "new")}
        ratios: dict[str, list[float]] = {figure: [] for figure in figures}
        for round_number in range(args.rounds):
            order = ("old", "new") if round_number % 2 == 0 else ("new", "old")
            for figure in figures:
                rate = {name: measure(trees[name], figure, args.seconds) for name in order}
                ratios[figure].append(rate["new"] / rate["old"])
                print(f"round {round_number + 1} {figure}: old {rate['old']:,.0f} "
                      f"new {rate['new']:,.0f} per CPU s, new/old {ratios[figure][-1]:.3f}",
                      flush=True)
    for figure in figures:
        print(f"{figure}: median new/old {statistics.median(ratios[figure]):.3f} "
              f"(rounds: {', '.join(f'{r:.3f}' for r in ratios[figure])})")


if __name__ == "__main__":
    main()
