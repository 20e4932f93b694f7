"""Scale-out: live tables held by 1, 2 and 3 server processes on one PostgreSQL.

    .venv/bin/python benchmarks/bench_scale.py [--processes 1,2,3] [--steps 25,50,100]
                                               [--hold 15] [--db URL] [--sqlite]

For each number of processes, a fresh database (on a private PostgreSQL started for the
run, unless ``--db`` names a server whose database it may fill) and that many ``konkun
serve`` processes (the real command line, 0.4 s bot delay). Tables of one human client and
one greedy bot are ramped up step by step; each client moves every 2 to 5 s (a random legal
move) through a WebSocket opened on one of the processes in turn, and starts a new table
when its game ends, so the number of live tables stays that of the step. At each step,
after the ramp, the round trips (a move sent to the state that shows it) are measured for
``--hold`` seconds, with the CPU time of the server processes and of PostgreSQL.

It prints, per step, the tables, the actions per second, the round trip p50 and p99 and the
CPU per action (server processes; PostgreSQL), and per number of processes the largest
number of tables held with p99 under 100 ms. ``--sqlite``: one process on its embedded
SQLite file instead (``synchronous=FULL``), the single-process figures of issue 16.
Wall-clock figures on a shared machine: the clients run on it too.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from konkun.server.testing import ServerProcess, request_json

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
LIMITS = ("max_tables=100000", "max_connections=100000", "max_address_connections=100000",
          "max_tables_per_address=100000", "max_tables_per_player=100000",
          "max_seats_per_address=100000", "max_seats_per_player=100000",
          "http_burst=1000000", "http_per_second=1000000", "rate_burst=1000000",
          "rate_per_second=1000000", "read_burst=1000000", "read_per_second=1000000",
          "socket_burst=1000000", "socket_per_second=1000000")
P99_GOAL = 0.100


def _cpu_seconds(pids: list[int]) -> float:
    """User and system CPU seconds of ``pids`` (``/proc``), the dead ones left out."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


POSTMASTER: list[int] = []
"""The private PostgreSQL's main process, when this run started one."""


def _postgres_pids() -> list[int]:
    """The private PostgreSQL's processes (none when ``--db`` named another server)."""
    if not POSTMASTER:
        return []
    found = subprocess.run(["pgrep", "-P", str(POSTMASTER[0])], capture_output=True,
                           text=True)
    return [POSTMASTER[0], *(int(p) for p in found.stdout.split())]


class Load:
    """The clients of one run: tables of a human (this client) and a greedy bot."""

    def __init__(self, servers: list[ServerProcess]) -> None:
        self.servers = servers
        self.next = 0
        self.times: list[float] = []
        self.actions = 0
        self.measuring = False
        self.tasks: list[asyncio.Task[None]] = []
        self.errors = 0

    def _server(self) -> ServerProcess:
        self.next += 1
        return self.servers[self.next % len(self.servers)]

    async def _table(self, number: int) -> tuple[ServerProcess, str, str]:
        server = self._server()
        base = server.url

        def make() -> tuple[str, str]:
            me = request_json(f"{base}/api/guest", "POST", {"nickname": f"b{number}"},
                              timeout=60)
            table = request_json(f"{base}/api/tables", "POST",
                                 {"game": "konchinka", "seats": 2,
                                  "bots": {"1": "greedy"}}, timeout=60)
            request_json(f"{base}/api/tables/{table['id']}/sit", "POST", {"seat": 0},
                         me["token"], timeout=60)
            return str(table["id"]), str(me["token"])

        table_id, token = await asyncio.to_thread(make)
        return self._server(), table_id, token

    async def client(self, number: int) -> None:
        """One human, table after table, until cancelled."""
        rng = random.Random(number)
        while True:
            try:
                server, table_id, token = await self._table(number)
                await self._play(server, table_id, token, rng)
            except asyncio.CancelledError:
                raise
            except Exception:
                self.errors += 1
                await asyncio.sleep(1.0)

    async def _play(self, server: ServerProcess, table_id: str, token: str,
                    rng: random.Random) -> None:
        async with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}",
                           max_size=None) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            sent: tuple[int, float] | None = None
            next_move = time.monotonic() + rng.uniform(0.0, 3.0)
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 60))
                if message["type"] != "state" or message["you"] != 0:
                    continue
                if sent is not None and message["turn"] > sent[0]:
                    if self.measuring:
                        self.times.append(time.monotonic() - sent[1])
                    sent = None
                if self.measuring and message["last"] is not None:
                    self.actions += 1
                table = message["table"]
                if table["status"] == "finished":
                    return
                if table["to_move"] == 0 and sent is None:
                    await asyncio.sleep(max(0.0, next_move - time.monotonic()))
                    next_move = time.monotonic() + rng.uniform(2.0, 5.0)
                    sent = (message["turn"], time.monotonic())
                    await ws.send(json.dumps({"type": "action", "turn": message["turn"],
                                              "action": rng.choice(message["view"]["deal"]
                                                                   ["legal"])}))


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else 0.0


async def ramp(servers: list[ServerProcess], steps: list[int], hold: float) -> int:
    """Ramp the tables; print each step; return the most held with p99 under the goal."""
    load = Load(servers)
    pids = [s.process.pid for s in servers if s.process is not None]
    best = failed = 0
    try:
        for tables in steps:
            while len(load.tasks) < tables:
                load.tasks.append(asyncio.create_task(load.client(len(load.tasks))))
                await asyncio.sleep(0.02)
            await asyncio.sleep(6.0)  # every client seated and moving
            load.times, load.actions, load.measuring = [], 0, True
            cpu, pg_cpu, start = _cpu_seconds(pids), _cpu_seconds(_postgres_pids()), \
                time.monotonic()
            await asyncio.sleep(hold)
            load.measuring = False
            seconds = time.monotonic() - start
            used = _cpu_seconds(pids) - cpu
            pg_used = _cpu_seconds(_postgres_pids()) - pg_cpu
            p50, p99 = _percentile(load.times, 0.5), _percentile(load.times, 0.99)
            actions = max(1, load.actions)
            print(f"  {tables:4d} tables: {load.actions / seconds:6.1f} actions/s, round "
                  f"trip p50 {p50 * 1000:6.1f} ms p99 {p99 * 1000:6.1f} ms "
                  f"({len(load.times)} moves), CPU per action {used / actions * 1000:5.2f} ms "
                  f"server + {pg_used / actions * 1000:5.2f} ms PostgreSQL, "
                  f"{load.errors} client errors", flush=True)
            if p99 < P99_GOAL and load.times:
                best, failed = tables, 0
            else:
                failed += 1
                if failed == 2:  # one miss may be the shared machine's noise
                    break
    finally:
        for task in load.tasks:
            task.cancel()
        await asyncio.gather(*load.tasks, return_exceptions=True)
    return best


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", default="1,2,3")
    parser.add_argument("--steps", default="25,50,100,150,200,300")
    parser.add_argument("--hold", type=float, default=15.0)
    parser.add_argument("--db", default=None, help="a PostgreSQL URL whose server to use")
    parser.add_argument("--sqlite", action="store_true",
                        help="one process on SQLite (no PostgreSQL)")
    args = parser.parse_args()
    counts = [1] if args.sqlite else [int(n) for n in args.processes.split(",")]
    steps = [int(n) for n in args.steps.split(",")]
    print(f"bench_scale: {os.cpu_count()} CPU cores on this machine (shared by the server "
          "processes, PostgreSQL and the clients)")
    with ExitStack() as stack:
        make_url: Any = lambda: str(args.db)  # noqa: E731  (the server given)
        if args.sqlite:
            make_url = lambda: None  # noqa: E731  (SQLite in the data directory)
        elif not args.db:
            from tests.server.postgres import postgres_server

            postgres = stack.enter_context(postgres_server())
            make_url = postgres.new_database_url
            pid_file = postgres.root / "data" / "postmaster.pid"
            POSTMASTER.append(int(pid_file.read_text().split()[0]))
        held = {}
        for count in counts:
            url = make_url()
            data = Path(tempfile.mkdtemp(prefix="konkun-scale-"))
            servers = []
            with ExitStack() as run:
                for number in range(count):
                    server = ServerProcess(url, data_dir=data / f"p{number}", bot_delay=0.4,
                                           args=tuple(a for pair in LIMITS
                                                      for a in ("--limit", pair)))
                    run.callback(server.stop)
                    servers.append(server.start())
                print(f"{count} process{'es' if count > 1 else ''}:", flush=True)
                held[count] = asyncio.run(ramp(servers, steps, args.hold))
        for count, tables in held.items():
            print(f"{count} process{'es' if count > 1 else ''}: {tables} tables held with "
                  f"round trip p99 under {P99_GOAL * 1000:.0f} ms")


if __name__ == "__main__":
    main()
