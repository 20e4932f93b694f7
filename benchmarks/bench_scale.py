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
number of tables held with p99 under 100 ms and the CPU per action at that step (all the
server processes' CPU summed, divided by the actions). ``--sqlite``: one process on its
embedded SQLite file instead (``synchronous=FULL``), the single-process figures of issue 16.
Wall-clock figures on a shared machine: the clients run on it too.

A run never hangs: at the end of a ramp every client stops within :data:`STOP_SECONDS`
(one that does not is named and left behind), and a watchdog thread ends the run with a
clear message (what it was doing, every thread's stack) when a phase (a step, starting or
stopping the servers) overruns its budget by :data:`STALL_SECONDS`, after killing the
servers and the private PostgreSQL.
"""

from __future__ import annotations

import argparse
import asyncio
import faulthandler
import json
import os
import random
import resource
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass
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
SETTLE_SECONDS = 6.0
"""Seconds after a step's ramp before measuring: every new client seated and moving."""
STOP_SECONDS = 30.0
"""Seconds the clients have to stop at the end of a ramp."""
STALL_SECONDS = 60.0
"""Seconds past a phase's own length after which the watchdog ends the run."""


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


class Watchdog:
    """Ends the run with a clear message when a phase overruns its budget.

    An asyncio timeout cannot catch an event loop that is itself stuck (a blocking call, a
    task that ignores its cancellation), so this is a thread: :meth:`phase` names what the
    run is doing and how long it may take; past that, the thread prints it and every
    thread's stack to stderr, runs the cleanups (kill the servers, stop PostgreSQL) and
    exits with status 3."""

    def __init__(self) -> None:
        self._what = "starting"
        self._deadline: float | None = None
        self._budget = 0.0
        self._lock = threading.Lock()
        self.cleanups: list[Callable[[], None]] = []
        threading.Thread(target=self._watch, name="bench-watchdog", daemon=True).start()

    def phase(self, what: str, seconds: float) -> None:
        """The run now does ``what``, which should take at most ``seconds``."""
        with self._lock:
            self._what, self._budget = what, seconds + STALL_SECONDS
            self._deadline = time.monotonic() + self._budget

    def _watch(self) -> None:
        while True:
            time.sleep(1.0)
            with self._lock:
                late = self._deadline is not None and time.monotonic() > self._deadline
                what, budget = self._what, self._budget
            if late:
                break
        print(f"bench_scale: STALLED: {what} took more than {budget:.0f} s; stopping the "
              "run (the threads' stacks follow)", file=sys.stderr, flush=True)
        faulthandler.dump_traceback(all_threads=True)
        for cleanup in reversed(self.cleanups):
            try:
                cleanup()
            except Exception as error:  # the next cleanup still runs
                print(f"bench_scale: cleanup failed: {error}", file=sys.stderr, flush=True)
        os._exit(3)


@dataclass
class Step:
    """One step's figures."""

    tables: int
    p99: float
    moves: int
    server_ms: float
    """Server CPU per action (all the processes summed), milliseconds."""
    postgres_ms: float
    """PostgreSQL's CPU per action, milliseconds."""

    @property
    def held(self) -> bool:
        """Whether the round trip p99 stayed under the goal."""
        return self.moves > 0 and self.p99 < P99_GOAL


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
        self.stopping = False
        """Set at the end of the ramp: every client leaves its loop (a cancellation
        alone may be lost, see :meth:`stop`)."""
        self.requests = ThreadPoolExecutor(8, thread_name_prefix="bench-http")
        """The HTTP calls' threads (not the loop's default executor: ``asyncio.run``
        waits for that one without a timeout on Python 3.11)."""

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

        table_id, token = await asyncio.get_running_loop().run_in_executor(self.requests,
                                                                            make)
        return self._server(), table_id, token

    async def client(self, number: int) -> None:
        """One human, table after table, until :attr:`stopping` (or cancelled)."""
        rng = random.Random(number)
        while not self.stopping:
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
            while not self.stopping:
                # asyncio.timeout, not wait_for: on Python 3.11 wait_for swallows a
                # cancellation that arrives as its message does, and the client then
                # played on forever (the stall of the ramp's end)
                async with asyncio.timeout(60):
                    message = json.loads(await ws.recv())
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
                    if self.stopping:
                        return
                    next_move = time.monotonic() + rng.uniform(2.0, 5.0)
                    sent = (message["turn"], time.monotonic())
                    await ws.send(json.dumps({"type": "action", "turn": message["turn"],
                                              "action": rng.choice(message["view"]["deal"]
                                                                   ["legal"])}))

    async def stop(self) -> None:
        """Stop every client within :data:`STOP_SECONDS`; name those that did not."""
        self.stopping = True
        for task in self.tasks:
            task.cancel()
        _done, pending = await asyncio.wait(self.tasks, timeout=STOP_SECONDS) \
            if self.tasks else (set(), set())
        if pending:
            print(f"  {len(pending)} of {len(self.tasks)} clients did not stop within "
                  f"{STOP_SECONDS:.0f} s; left behind", flush=True)
        self.requests.shutdown(wait=False, cancel_futures=True)


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else 0.0


async def ramp(servers: list[ServerProcess], steps: list[int], hold: float,
               watchdog: Watchdog, label: str) -> list[Step]:
    """Ramp the tables; print each step; return the steps measured (the ramp stops after
    two steps in a row over the goal)."""
    load = Load(servers)
    pids = [s.process.pid for s in servers if s.process is not None]
    measured: list[Step] = []
    failed = 0
    try:
        for tables in steps:
            added = max(0, tables - len(load.tasks))
            watchdog.phase(f"{label}, the step of {tables} tables",
                           added * 0.02 + SETTLE_SECONDS + hold)
            while len(load.tasks) < tables:
                load.tasks.append(asyncio.create_task(load.client(len(load.tasks))))
                await asyncio.sleep(0.02)
            await asyncio.sleep(SETTLE_SECONDS)
            step = await _measure(load, pids, tables, hold)
            measured.append(step)
            if step.held:
                failed = 0
            else:
                failed += 1
                if failed == 2:  # one miss may be the shared machine's noise
                    break
    finally:
        watchdog.phase(f"{label}, stopping {len(load.tasks)} clients", STOP_SECONDS)
        await load.stop()
    return measured


async def _measure(load: Load, pids: list[int], tables: int, hold: float) -> Step:
    """Measure ``hold`` seconds of the running load; print the step."""
    load.times, load.actions, load.measuring = [], 0, True
    cpu, pg_cpu, start = _cpu_seconds(pids), _cpu_seconds(_postgres_pids()), time.monotonic()
    await asyncio.sleep(hold)
    load.measuring = False
    seconds = time.monotonic() - start
    used = _cpu_seconds(pids) - cpu
    pg_used = _cpu_seconds(_postgres_pids()) - pg_cpu
    p50, p99 = _percentile(load.times, 0.5), _percentile(load.times, 0.99)
    actions = max(1, load.actions)
    step = Step(tables, p99, len(load.times), used / actions * 1000, pg_used / actions * 1000)
    print(f"  {tables:4d} tables: {load.actions / seconds:6.1f} actions/s, round "
          f"trip p50 {p50 * 1000:6.1f} ms p99 {p99 * 1000:6.1f} ms "
          f"({len(load.times)} moves), CPU per action {step.server_ms:5.2f} ms "
          f"server + {step.postgres_ms:5.2f} ms PostgreSQL, "
          f"{load.errors} client errors", flush=True)
    return step


def _processes(count: int) -> str:
    return f"{count} process{'es' if count > 1 else ''}"


def _summary(count: int, steps: list[Step]) -> str:
    """The line of one number of processes: the most tables held and its CPU per action."""
    held = [s for s in steps if s.held]
    if held:
        best = max(held, key=lambda s: s.tables)
        return (f"{_processes(count)}: {best.tables} tables held with round trip p99 under "
                f"{P99_GOAL * 1000:.0f} ms (p99 {best.p99 * 1000:.1f} ms); CPU per action "
                f"there {best.server_ms:.2f} ms servers (all processes) + "
                f"{best.postgres_ms:.2f} ms PostgreSQL")
    if not steps:
        return f"{_processes(count)}: no step measured"
    first = steps[0]
    return (f"{_processes(count)}: no step held p99 under {P99_GOAL * 1000:.0f} ms (at "
            f"{first.tables} tables p99 {first.p99 * 1000:.1f} ms, CPU per action "
            f"{first.server_ms:.2f} ms servers + {first.postgres_ms:.2f} ms PostgreSQL)")


def _open_file_limit() -> None:
    """Raise this process's open-file limit to its hard limit (the servers, started from
    here, inherit it): hundreds of sockets per process."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def _stop_postmaster() -> None:
    """The watchdog's last cleanup: a fast shutdown of the private PostgreSQL."""
    if POSTMASTER:
        os.kill(POSTMASTER[0], signal.SIGINT)


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
          f"processes, PostgreSQL and the clients), load average "
          f"{os.getloadavg()[0]:.2f} at the start", flush=True)
    _open_file_limit()
    watchdog = Watchdog()
    with ExitStack() as stack:
        make_url: Any = lambda: str(args.db)  # noqa: E731  (the server given)
        if args.sqlite:
            make_url = lambda: None  # noqa: E731  (SQLite in the data directory)
        elif not args.db:
            from tests.server.postgres import postgres_server

            watchdog.phase("starting PostgreSQL", 120)
            postgres = stack.enter_context(postgres_server())
            make_url = postgres.new_database_url
            pid_file = postgres.root / "data" / "postmaster.pid"
            POSTMASTER.append(int(pid_file.read_text().split()[0]))
            watchdog.cleanups.append(_stop_postmaster)
        results = {}
        for count in counts:
            label = _processes(count)
            watchdog.phase(f"{label}, a new database and starting the servers",
                           60 + 60 * count)
            url = make_url()
            data = Path(tempfile.mkdtemp(prefix="konkun-scale-"))
            servers: list[ServerProcess] = []
            with ExitStack() as run:
                for number in range(count):
                    server = ServerProcess(url, data_dir=data / f"p{number}", bot_delay=0.4,
                                           args=tuple(a for pair in LIMITS
                                                      for a in ("--limit", pair)))
                    run.callback(server.stop)
                    watchdog.cleanups.append(server.kill)
                    servers.append(server.start())
                print(f"{label}:", flush=True)
                results[count] = asyncio.run(ramp(servers, steps, args.hold, watchdog, label))
                watchdog.phase(f"{label}, stopping the servers", 30 * count)
            print(f"  load average {os.getloadavg()[0]:.2f}", flush=True)
        watchdog.phase("stopping PostgreSQL", 120)
    for count, measured in results.items():
        print(_summary(count, measured), flush=True)


if __name__ == "__main__":
    main()
