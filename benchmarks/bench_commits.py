"""Group commit on SQLite: actions stored per second with one commit per action (the old
path) and with :class:`~konkun.server.store.commits.GroupCommit`, interleaved.

    .venv/bin/python benchmarks/bench_commits.py [--tables N] [--moves M] [--rounds R]

N tables each play M actions one after another (an action is sent once the previous one is
acknowledged, that is committed), all tables at once, on a SQLite file in a temporary
directory (WAL, ``synchronous=FULL``: one ``fsync`` per commit) through one storage thread
as the server does. Each round runs both paths on fresh databases, old first or new first
in turn; the figures are per round and the median ratio new/old. Wall-clock figures on a
shared machine: compare ratios, not absolute rates.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from konkun.server.store.commits import GroupCommit
from konkun.server.store.storage import Storage, StoredTable


def _storage(folder: Path, name: str, tables: int) -> Storage:
    storage = Storage(f"sqlite:///{folder / name}")
    seats = [{"kind": "empty", "player_id": None, "name": None, "bot": None}] * 2
    for number in range(tables):
        storage.create_table(StoredTable(id=f"t{number}", game="konchinka", variant=None,
                                         rules={}, seats=seats, seed="s", status="playing",
                                         created_at="2026-12-01T00:00:00+00:00"))
    return storage


async def _play(storage: Storage, tables: int, moves: int, grouped: bool) -> float:
    """Seconds for every table to store ``moves`` actions."""
    thread = ThreadPoolExecutor(1, thread_name_prefix="konkun-db")
    loop = asyncio.get_running_loop()

    async def run(function: Any, *args: Any, urgent: bool = False) -> Any:
        return await loop.run_in_executor(thread, function, *args)

    writer = GroupCommit(storage, run)

    async def table(number: int) -> None:
        for turn in range(moves):
            if grouped:
                await writer.append(f"t{number}", turn, turn % 2, f"a{turn}")
            else:
                await run(storage.append_action, f"t{number}", turn, turn % 2, f"a{turn}")

    start = time.perf_counter()
    await asyncio.gather(*(table(n) for n in range(tables)))
    seconds = time.perf_counter() - start
    thread.shutdown()
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--moves", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=4)
    options = parser.parse_args()
    actions = options.tables * options.moves
    ratios = []
    with tempfile.TemporaryDirectory() as folder:
        for number in range(options.rounds):
            rates = {}
            order = (False, True) if number % 2 == 0 else (True, False)
            for grouped in order:
                name = f"r{number}{'g' if grouped else 'o'}.sqlite3"
                storage = _storage(Path(folder), name, options.tables)
                seconds = asyncio.run(_play(storage, options.tables, options.moves, grouped))
                storage.close()
                rates[grouped] = actions / seconds
            ratios.append(rates[True] / rates[False])
            print(f"round {number}: one commit per action {rates[False]:8.0f} actions/s, "
                  f"group commit {rates[True]:8.0f} actions/s, ratio {ratios[-1]:.1f}")
    print(f"{options.tables} tables x {options.moves} actions: median ratio "
          f"group/old {statistics.median(ratios):.1f}")


if __name__ == "__main__":
    main()
