"""An arena run played in parts that survive being stopped: each finished set is kept in
a checkpoint file, a restart skips the sets already there, and several processes can
share one run (``--shard K/N`` plays the sets whose index is K modulo N; ``--reverse``
plays from the last set down, so a second process can start from the other end;
``--start K`` skips the sets before index K, for a third from the middle).

    .venv/bin/python benchmarks/arena_parts.py play kunken expert:clock=cpu,strong:clock=cpu \\
        --games 600 --seed 19 --out /tmp/kunken-expert@0.pkl --shard 0/2
    .venv/bin/python benchmarks/arena_parts.py show /tmp/kunken-expert@*.pkl

``show`` merges the files of one run (the same configuration; a set played twice counts
once) and prints the arena's table for the sets played, and which those are. Each set is
exactly the set of that index in ``konkun arena GAME --bots ... --games N --seed S`` (its
seed derives from the run's seed and its index), so a run of the first K sets equals
``konkun arena`` with ``--games`` K times the set size. On a machine shared by several
sessions (each session's processes share one scheduling group), one process per shard,
each started in its own session (``setsid``), gets the run its share of the CPU.
"""

from __future__ import annotations

import argparse
import os
import pickle
import sys
import time
from pathlib import Path

from konkun.arena import ArenaConfig, ArenaReport
from konkun.arena.backends import run_jobs
from konkun.arena.runner import JobResult


def load(paths: list[Path]) -> ArenaReport:
    """The report of the sets kept in ``paths`` (files of one run)."""
    config: ArenaConfig | None = None
    results: dict[int, JobResult] = {}
    seconds = 0.0
    for path in paths:
        with path.open("rb") as handle:
            found, kept, spent = pickle.load(handle)
        if config is not None and (found.game, found.specs, found.seed) != \
                (config.game, config.specs, config.seed):
            raise SystemExit(f"{path}: another run than {paths[0]}")
        config = found
        results.update({result.index: result for result in kept})
        seconds = max(seconds, spent)
    if config is None:
        raise SystemExit("no checkpoint file given")
    return ArenaReport(config, [results[k] for k in sorted(results)], seconds)


def spans(indexes: list[int]) -> str:
    """``0-41, 283-299``: the sorted ``indexes`` as runs."""
    runs: list[str] = []
    for k, index in enumerate(indexes):
        if k == 0 or indexes[k - 1] != index - 1:
            start = index
        if k + 1 == len(indexes) or indexes[k + 1] != index + 1:
            runs.append(f"{start}-{index}")
    return ", ".join(runs)


def play(options: argparse.Namespace) -> None:
    """Play the sets of the run not yet in the checkpoint, keeping each as it ends."""
    config = ArenaConfig(options.game, tuple(options.bots.split(",")), options.players or
                         len(options.bots.split(",")), options.games, seed=options.seed)
    config.validate()
    out: Path = options.out
    kept: list[JobResult] = []
    before = 0.0
    if out.exists():
        before, kept = load([out]).seconds, load([out]).results
    done = {result.index for result in kept}
    shard, shards = (int(part) for part in options.shard.split("/"))
    jobs = [job for job in config.jobs() if job.index not in done and
            job.index % shards == shard and job.index >= options.start]
    if options.reverse:
        jobs.reverse()
    start = time.perf_counter()
    for result in run_jobs(jobs, "local", 1):
        kept.append(result)
        partial = out.with_suffix(".part")
        with partial.open("wb") as handle:
            pickle.dump((config, kept, before + time.perf_counter() - start), handle)
        os.replace(partial, out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    playing = commands.add_parser("play", help="play (or go on playing) a run's sets")
    playing.add_argument("game")
    playing.add_argument("bots", metavar="SPEC,SPEC,...")
    playing.add_argument("--games", type=int, required=True)
    playing.add_argument("--seed", type=int, required=True)
    playing.add_argument("--players", type=int, default=None)
    playing.add_argument("--out", type=Path, required=True)
    playing.add_argument("--shard", default="0/1", metavar="K/N")
    playing.add_argument("--reverse", action="store_true")
    playing.add_argument("--start", type=int, default=0, metavar="K",
                         help="play only the sets from index K on")
    showing = commands.add_parser("show", help="the table of the sets played so far")
    showing.add_argument("files", nargs="+", type=Path)
    options = parser.parse_args(argv)
    if options.command == "play":
        play(options)
        return 0
    report = load(options.files)
    played = sorted(result.index for result in report.results)
    print(f"sets played: {spans(played)} of {report.config.sets}")
    print(report.format_table())
    return 0


if __name__ == "__main__":
    sys.exit(main())
