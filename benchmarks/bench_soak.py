"""Soak under attack: honest players' round trips while every abuse of issue 13 runs.

    .venv/bin/python benchmarks/bench_soak.py [--seconds 60] [--honest 4] [--no-abuse]
        [--without ABUSE] [--attack-nice 10]

A real server (``konkun serve`` in a child process, SQLite in a temporary directory, its
default limits and a 0.4 s bot delay) is started. Honest players, from their own address
(127.0.0.2), each sit at a Konchinka table against a greedy bot and move every 2 to 5 s.
Next to them, from 127.0.0.1, for the same bounded time and all at once:

- spectator sockets opened on the honest tables until refused, and reconnect churn;
- silent TCP sockets, half-sent request heads and promised bodies never sent;
- six clients looping on a 4-seat Kunken replay with every hand open;
- table creation, guest creation and WebSocket ``sit`` spam, bad input (``NaN`` bodies,
  rules that never end);
- three all-bot tables of ``ismcts:time=2`` searching all the time.

It prints the honest move round trip (send a move, receive the state that shows it) p50
and p99, and the greedy bot's answer time (from the state after the honest move to the
one with the bot's move; it includes the 0.4 s bot delay). Wall-clock figures.

The attackers run in a process of their own, ``--attack-nice`` (10) nicer than the
server and the honest clients: a real attacker's clients run on other machines, so they
get what the server leaves of the CPU rather than an equal share of its two cores. The
server records where each honest move's time went (``KONKUN_STAGE_TIMES``,
:mod:`konkun.server.core.stagetimes`: the table's lock, the storage thread's queue, the
commit and its CPU, the event loop resuming the move, the broadcast and its JSON, the
socket) and how late its event loop wakes; the breakdown is printed next to a probe of
the machine's own stalls (a 5 ms sleep and an ``fsync`` in the bench process).
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import multiprocessing
import os
import random
import socket
import statistics
import tempfile
import threading
import time
import urllib.error
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

from konkun.server.testing import ServerProcess, request_json

HONEST = "127.0.0.2"
BOT_DELAY = 0.4


def _http(port: int, method: str, path: str, body: Any = None, token: str | None = None,
          source: str = HONEST, raw: bytes | None = None) -> tuple[int, Any]:
    """One HTTP call from ``source``; (status, JSON answer or None)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30,
                                            source_address=(source, 0))
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    try:
        connection.request(method, path, body=data, headers=headers)
        response = connection.getresponse()
        text = response.read()
        try:
            return response.status, json.loads(text)
        except ValueError:
            return response.status, None
    finally:
        connection.close()


def _ws(port: int, path: str, source: str) -> ClientConnection:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    return connect(f"ws://127.0.0.1:{port}{path}", sock=sock,
                   origin=f"http://127.0.0.1:{port}")  # type: ignore[arg-type]


class Honest:
    """One honest player at a table against a greedy bot, moving every 2 to 5 s."""

    def __init__(self, port: int, rng: random.Random) -> None:
        self.port = port
        self.rng = rng
        self.round_trips: list[float] = []
        self.bot_answers: list[float] = []
        self.errors = 0
        self.table = ""

    def setup(self) -> None:
        _status, me = _http(self.port, "POST", "/api/guest", {"nickname": "honest"})
        self.token = me["token"]
        _status, table = _http(self.port, "POST", "/api/tables", {
            "game": "konchinka", "seats": 2, "bots": {"1": "greedy"}}, self.token)
        self.table = table["id"]
        _http(self.port, "POST", f"/api/tables/{self.table}/sit", {"seat": 0}, self.token)

    def play(self, until: float) -> None:
        with _ws(self.port, f"/ws/tables/{self.table}", HONEST) as ws:
            ws.send(json.dumps({"type": "hello", "token": self.token}))
            state = self._next_state(ws, lambda m: m["you"] == 0)
            while time.monotonic() < until and state["table"]["status"] != "finished":
                if state["table"]["to_move"] != 0:
                    state = self._next_state(ws, lambda m: True)
                    continue
                time.sleep(self.rng.uniform(2, 5))
                turn = state["turn"]
                sent = time.perf_counter()
                ws.send(json.dumps({"type": "action", "turn": turn,
                                    "action": self.rng.choice(state["view"]["deal"]["legal"])}))
                state = self._next_state(ws, lambda m, t=turn: m["turn"] > t)
                shown = time.perf_counter()
                self.round_trips.append(shown - sent)
                if state["table"]["to_move"] == 1:
                    state = self._next_state(ws, lambda m, t=turn: m["turn"] > t + 1)
                    self.bot_answers.append(time.perf_counter() - shown)

    def _next_state(self, ws: ClientConnection, accept: Callable[[dict[str, Any]], bool]) \
            -> dict[str, Any]:
        while True:
            message = json.loads(ws.recv(timeout=120))
            if message["type"] == "error":
                self.errors += 1
            elif message["type"] == "state" and accept(message):
                return message


class Tally:
    """What each abuse achieved: outcomes (an HTTP status, ``ok``, ``refused``) by abuse,
    counted from the attackers' threads."""

    def __init__(self) -> None:
        self.counts: Counter[tuple[str, str]] = Counter()
        self._lock = threading.Lock()

    def add(self, abuse: str, outcome: object) -> None:
        """Count one outcome of ``abuse``."""
        with self._lock:
            self.counts[(abuse, str(outcome))] += 1


def _forever(stop: threading.Event, work: Callable[[], None],
             tally: Tally) -> Callable[[], None]:
    def loop() -> None:
        while not stop.is_set():
            try:
                work()
            except Exception:
                tally.add(work.__name__, "refused")
    return loop


def abuses(port: int, honest_tables: list[str], replay_id: str, stop: threading.Event,
           tally: Tally, without: frozenset[str] = frozenset()) -> list[Callable[[], None]]:
    """The attacks, each a function run in its own thread until ``stop`` (less those
    named in ``without``), their outcomes counted in ``tally``."""
    attacker = "127.0.0.1"
    held: list[Any] = []

    def http(abuse: str, method: str, path: str, body: Any = None,
             raw: bytes | None = None) -> tuple[int, Any]:
        status, answer = _http(port, method, path, body, source=attacker, raw=raw)
        tally.add(abuse, status)
        return status, answer

    def spectators() -> None:
        for table in honest_tables:
            try:
                ws = _ws(port, f"/ws/tables/{table}", attacker)
                held.append(ws)
                tally.add("spectators", "ok")
            except Exception:
                tally.add("spectators", "refused")
        time.sleep(1)

    def churn() -> None:
        with _ws(port, f"/ws/tables/{honest_tables[0]}", attacker) as ws:
            ws.send(json.dumps({"type": "hello"}))
            ws.recv(timeout=10)
        tally.add("churn", "ok")

    def silent_sockets() -> None:
        sockets = []
        for number in range(150):
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            if number % 3 == 1:
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
            elif number % 3 == 2:
                sock.sendall(b"POST /api/guest HTTP/1.1\r\nHost: x\r\nContent-Type: "
                             b"application/json\r\nContent-Length: 100\r\n\r\n{")
            sockets.append(sock)
            tally.add("silent_sockets", "ok")
        stop.wait(15)
        for sock in sockets:
            sock.close()

    def replays() -> None:
        http("replays", "GET", f"/api/games/{replay_id}/replay?seat=all")

    def creation_spam() -> None:
        http("creation_spam", "POST", "/api/tables", {"game": "konchinka", "seats": 2})
        http("creation_spam", "POST", "/api/guest", raw=b"NaN")
        http("creation_spam", "POST", "/api/tables", {"game": "kunken", "seats": 2,
                                                      "rules": {"deals": str(10**59)}})

    def sit_spam() -> None:
        _status, me = http("sit_spam", "POST", "/api/guest", {"nickname": "eve"})
        if not me or "token" not in me:
            time.sleep(0.5)
            return
        with _ws(port, f"/ws/tables/{honest_tables[-1]}", attacker) as ws:
            ws.send(json.dumps({"type": "hello", "token": me["token"]}))
            for seat in range(20):
                ws.send(json.dumps({"type": "sit", "seat": seat % 2}))
            tally.add("sit_spam", "sent 20 sit")
            time.sleep(0.2)

    def strong_bots() -> None:
        for number in range(3):  # three clients, so one client's cap does not hide it
            status, _ = _http(port, "POST", "/api/tables", {
                "game": "konchinka", "seats": 2, "bots": {
                    "0": "ismcts:time=2", "1": "ismcts:time=2"}}, source=f"127.0.0.{3 + number}")
            tally.add("strong_bots", status)
        stop.wait(30)

    chosen = [spectators, churn, silent_sockets, *[replays] * 6, creation_spam, sit_spam,
              strong_bots]
    return [_forever(stop, work, tally) for work in chosen if work.__name__ not in without]


def run_abuses(port: int, honest_tables: list[str], replay_id: str, done: Any,
               results: Any, without: frozenset[str], niceness: int) -> None:
    """Every abuse at once until ``done`` is set, then put (seconds, outcome counts) on
    ``results``. It runs in a process of its own, ``niceness`` below the benchmark's:
    a real attacker's clients run on other machines, so here they get what the server
    and the honest clients leave of the CPU instead of taking an equal share of it. It
    also starts a session of its own: where the kernel schedules sessions as groups
    (``sched_autogroup``), ``nice`` orders only the processes of one session, and the
    attackers' CPU would count against the benchmark's (and the server's) session; in
    their own, they compete as one more session, as another machine's would not at all."""
    if niceness:
        with contextlib.suppress(OSError):
            os.setsid()
    with contextlib.suppress(OSError):
        os.nice(niceness)
    stop = threading.Event()
    tally = Tally()
    threads = [threading.Thread(target=work, daemon=True)
               for work in abuses(port, honest_tables, replay_id, stop, tally, without)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    done.wait()
    stop.set()
    results.put((time.monotonic() - started, dict(tally.counts)))


def print_tally(seconds: float, counts: dict[tuple[str, str], int]) -> None:
    """The abusive throughput achieved: outcomes per abuse, in all and per second."""
    by_abuse: dict[str, list[tuple[str, int]]] = {}
    for (abuse, outcome), count in sorted(counts.items()):
        by_abuse.setdefault(abuse, []).append((outcome, count))
    print(f"abuse achieved over {seconds:.0f} s (outcome: count, per second):")
    for abuse, outcomes in by_abuse.items():
        print(f"  {abuse}: " + ", ".join(f"{outcome}: {count} ({count / seconds:.1f}/s)"
                                         for outcome, count in outcomes))


def finished_kunken_replay(port: int) -> str:
    """A finished 4-seat Kunken match of random bots (one deal), for the replay abuse."""
    table = request_json(f"http://127.0.0.1:{port}/api/tables", "POST", {
        "game": "kunken", "seats": 4, "rules": {"deals": "1"},
        "bots": {str(s): "random" for s in range(4)}})
    while request_json(f"http://127.0.0.1:{port}/api/tables/{table['id']}")["status"] \
            != "finished":
        time.sleep(0.5)
    return str(table["id"])


class MachineProbe:
    """What the shared machine itself costs, measured next to the honest players: how late
    a 5 ms sleep wakes (CPU contention) and how long a small write + fsync takes in the
    server's temporary directory (the disk a move's commit waits for)."""

    def __init__(self, folder: Path) -> None:
        self.file = folder / "probe"
        self.wakeups: list[float] = []
        self.syncs: list[float] = []

    def run(self, until: float) -> None:
        """Probe every 50 ms until ``until`` (a ``time.monotonic`` value)."""
        with open(self.file, "ab") as handle:
            while time.monotonic() < until:
                started = time.perf_counter()
                time.sleep(0.005)
                self.wakeups.append(time.perf_counter() - started - 0.005)
                started = time.perf_counter()
                handle.write(b"x" * 100)
                handle.flush()
                os.fsync(handle.fileno())
                self.syncs.append(time.perf_counter() - started)
                time.sleep(0.045)

    def report(self) -> str:
        """The probes' p50 and p99, in milliseconds."""
        def figures(values: list[float]) -> str:
            return f"p50 {statistics.median(values) * 1000:.1f} ms, p99 " \
                f"{_percentile(values, 0.99) * 1000:.1f} ms, max {max(values) * 1000:.1f} ms"
        return f"machine: 5 ms sleep overshoot {figures(self.wakeups)}; write+fsync " \
            f"{figures(self.syncs)} (n={len(self.syncs)})"


def cpu_seconds(pid: int) -> float:
    """The CPU time (user + system, all threads) process ``pid`` has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--honest", type=int, default=4)
    parser.add_argument("--no-abuse", action="store_true", help="honest players only")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--attack-nice", type=int, default=10, metavar="N",
                        help="run the attackers' process N nicer than the server "
                             "(0: an equal share of the CPU)")
    parser.add_argument("--without", action="append", default=[], metavar="ABUSE",
                        help="leave one abuse out (spectators, churn, silent_sockets, "
                             "replays, creation_spam, sit_spam, strong_bots)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        stages_file = Path(folder) / "stages.json"
        os.environ["KONKUN_STAGE_TIMES"] = str(stages_file)  # read by the server only
        with ServerProcess(data_dir=Path(folder), bot_delay=BOT_DELAY).start() as server:
            soak(args, server, Path(folder), stages_file)


def soak(args: argparse.Namespace, server: ServerProcess, folder: Path,
         stages_file: Path) -> None:
    """The soak itself against the started ``server``; prints the figures."""
    rng = random.Random(args.seed)
    port = server.port
    replay_id = finished_kunken_replay(port)
    players = [Honest(port, random.Random(rng.random())) for _ in range(args.honest)]
    for player in players:
        player.setup()
    spawn = multiprocessing.get_context("spawn")
    done, results = spawn.Event(), spawn.Queue()
    attack = None if args.no_abuse else spawn.Process(
        target=run_abuses, args=(port, [p.table for p in players], replay_id, done,
                                 results, frozenset(args.without), args.attack_nice),
        daemon=True)
    if attack is not None:
        attack.start()
        time.sleep(3)  # the attack is under way before the honest players start
    stages_file.with_name(stages_file.name + ".reset").touch()  # the server starts afresh
    time.sleep(1.2)
    assert server.process is not None
    cpu_before, wall_before = cpu_seconds(server.process.pid), time.monotonic()
    load_before = os.getloadavg()
    until = time.monotonic() + args.seconds
    probe = MachineProbe(folder)
    honest = [threading.Thread(target=p.play, args=(until,)) for p in players]
    honest.append(threading.Thread(target=probe.run, args=(until,)))
    for thread in honest:
        thread.start()
    for thread in honest:
        thread.join()
    server_cpu = (cpu_seconds(server.process.pid) - cpu_before) \
        / (time.monotonic() - wall_before)
    time.sleep(1.2)  # the server writes its stage times once a second
    stages = json.loads(stages_file.read_text()) if stages_file.exists() else {}
    achieved = None
    if attack is not None:
        done.set()
        achieved = results.get(timeout=60)
        attack.join(10)
        attack.terminate()
    status, _ = _http(port, "GET", "/healthz")
    log_lines = server.log.read_text(errors="replace").count("\n")
    trips = [t for p in players for t in p.round_trips]
    answers = [t for p in players for t in p.bot_answers]
    print(f"soak: {args.seconds:g} s, {args.honest} honest tables, "
          f"{'no abuse' if args.no_abuse else 'every abuse at once'}"
          + (f" except {', '.join(args.without)}" if args.without else "")
          + f"; attackers {args.attack_nice} nicer; load average "
          f"{load_before[0]:.1f} before, {os.getloadavg()[0]:.1f} after")
    if trips:
        print(f"honest move round trip: n={len(trips)} p50 {statistics.median(trips) * 1000:.1f}"
              f" ms, p99 {_percentile(trips, 0.99) * 1000:.1f} ms, max "
              f"{max(trips) * 1000:.1f} ms")
    if answers:
        print(f"greedy bot answer (incl. {BOT_DELAY} s delay): n={len(answers)} p50 "
              f"{statistics.median(answers):.2f} s, p99 {_percentile(answers, 0.99):.2f} s, "
              f"max {max(answers):.2f} s")
    print(f"honest errors: {sum(p.errors for p in players)}; /healthz after: {status}; "
          f"server log lines: {log_lines}")
    print(f"server process CPU (event loop, database and quick-bot threads; not the "
          f"search and replay workers): {server_cpu:.0%} of one core")
    print(probe.report())
    print_stages(stages)
    if achieved is not None:
        print_tally(*achieved)


MOVE_STAGES = (
    ("move.lock", "waiting for the table's lock (a bot's move holds it)"),
    ("move.query_queue", "waiting for the storage thread"),
    ("move.query_run", "storing the action (commit), in the storage thread"),
    ("move.query_cpu", "  of which the storage thread's CPU"),
    ("move.query_resume", "storage done until the event loop resumes the move"),
    ("move.apply", "applying the action to the game"),
    ("move.broadcast", "broadcast to the table's connections"),
    ("move.encode", "  of which each seat's view and its JSON (per seat)"),
    ("move.total", "message read until broadcast queued"),
    ("move.send", "queued until written to the mover's socket"),
    ("move.to_socket", "message read until written to the socket"),
    ("loop.lag", "event loop: lateness of a 5 ms sleep"),
)


def print_stages(stages: dict[str, dict[str, float]]) -> None:
    """Where an honest move's time went in the server (from its stage times), then what
    kept the storage and read threads busy."""
    if not stages:
        print("no stage times (a server without konkun.server.core.stagetimes)")
        return
    print("inside the server, per honest move (ms):          n     mean   p50    p99    max")
    for stage, meaning in MOVE_STAGES:
        if stage in stages:
            row = stages[stage]
            print(f"  {meaning:<46} {row['n']:>6.0f} {row['mean']:>6.1f} {row['p50']:>6.1f}"
                  f" {row['p99']:>6.1f} {row['max']:>6.1f}")
    print("storage and read threads, time per job (ms):     n     mean   p99    total")
    jobs = {k: v for k, v in stages.items() if k.split(".")[0] in ("query", "read")}
    for stage, row in sorted(jobs.items(), key=lambda item: -item[1]["mean"] * item[1]["n"]):
        print(f"  {stage:<46} {row['n']:>6.0f} {row['mean']:>6.1f} {row['p99']:>6.1f}"
              f" {row['mean'] * row['n']:>8.0f}")


if __name__ == "__main__":
    with contextlib.suppress(urllib.error.URLError):
        main()
