"""Soak under attack: honest players' round trips while every abuse of issues 13 and 33 runs.

    .venv/bin/python benchmarks/bench_soak.py [--seconds 60] [--honest 4] [--no-abuse]
        [--without ABUSE] [--only ABUSE] [--attack-nice 10]
        [--src LABEL=SRC_DIR ...] [--rounds 1]

A real server (``konkun serve`` in a child process, SQLite in a temporary directory, its
default limits and a 0.4 s bot delay) is started. Honest players, from their own address
(127.0.0.2), each sit at a Konchinka table against a greedy bot and move every 2 to 5 s.
Next to them, from 127.0.0.1, for the same bounded time and all at once:

- spectator sockets opened on the honest tables until refused, and reconnect churn;
- silent TCP sockets, half-sent request heads and promised bodies never sent;
- six clients looping on a 4-seat Kunken replay with every hand open;
- table creation, guest creation and WebSocket ``sit`` spam, bad input (``NaN`` bodies,
  rules that never end);
- three all-bot tables of ``ismcts:time=2`` searching all the time;
- (issue 33) wrong passwords for the honest owner's account from 8 addresses, as fast as
  the server answers; claims (a new guest, then ``POST /api/account/claim``: one password
  hash each) from 6 addresses, one client each; idle tables (a guest sits against a bot
  and never moves) from 26 addresses, five a guest, six clients, until refused; bursts
  of 40 stale actions at once on the attacker's own table (are all of them answered
  within 15 s?);
  chat floods, as a spectator, into every honest table.

Meanwhile the honest owner of an account logs in from the honest address every 3 s with
the right password (does the password flood lock her out?), and after the run a fresh
address asks for a new table (did the idle-table flood fill the server?).

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

``--src LABEL=DIR`` (repeated) runs the same soak against each source tree in turn (the
server's ``PYTHONPATH``; say an old commit's ``git worktree`` beside this one), ``--rounds``
times, interleaved, and ends with one table of the runs; an abuse a tree has no endpoint
for (every answer 404 or 405) is marked so there.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import itertools
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
OWNER = "Owner"
OWNER_PASSWORD = "the owner's own long secret"


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
    return connect(f"ws://127.0.0.1:{port}{path}", sock=sock, ping_interval=None,
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


class Owner:
    """The honest owner of an account, logging in from the honest address every 3 s."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.outcomes: Counter[str] = Counter()
        self.times: list[float] = []

    def setup(self) -> None:
        """Make the account (a guest who claims her name)."""
        _status, me = _http(self.port, "POST", "/api/guest", {"nickname": OWNER})
        status, answer = _http(self.port, "POST", "/api/account/claim",
                               {"password": OWNER_PASSWORD}, me["token"])
        if status != 200:
            raise RuntimeError(f"the owner's claim was refused: {status} {answer}")

    def play(self, until: float) -> None:
        """Log in every 3 s until ``until``, counting the answers."""
        while time.monotonic() < until:
            started = time.perf_counter()
            status, answer = _http(self.port, "POST", "/api/account/login",
                                   {"nickname": OWNER, "password": OWNER_PASSWORD})
            self.times.append(time.perf_counter() - started)
            code = answer.get("code") if isinstance(answer, dict) else None
            if "at once" in str(answer):  # the account's verifications at once are taken
                code = f"{code} (checks at once)"
            self.outcomes["ok" if status == 200 else f"{status} {code}"] += 1
            time.sleep(3)


class Tally:
    """What each abuse achieved: outcomes (an HTTP status, ``ok``, ``refused``) by abuse,
    counted from the attackers' threads."""

    def __init__(self) -> None:
        self.counts: Counter[tuple[str, str]] = Counter()
        self._lock = threading.Lock()

    def add(self, abuse: str, outcome: object, count: int = 1) -> None:
        """Count ``count`` outcomes ``outcome`` of ``abuse``."""
        with self._lock:
            self.counts[(abuse, str(outcome))] += count


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
    chosen += trust_abuses(port, honest_tables, stop, tally)
    return [_forever(stop, work, tally) for work in chosen if work.__name__ not in without]


ABUSES = ("spectators", "churn", "silent_sockets", "replays", "creation_spam", "sit_spam",
          "strong_bots", "password_flood", "claim_flood", "idle_tables", "message_burst",
          "chat_flood")
"""Every abuse's name (``--without``, ``--only``)."""

PASSWORD_ADDRESSES = [f"127.0.1.{n}" for n in range(1, 9)]
CLAIM_ADDRESSES = [f"127.0.3.{n}" for n in range(1, 7)]
IDLE_ADDRESSES = [f"127.0.2.{n}" for n in range(1, 27)]


def trust_abuses(port: int, honest_tables: list[str], stop: threading.Event,
                 tally: Tally) -> list[Callable[[], None]]:
    """The attacks of issue 33 (see the module's text), in :func:`abuses`' form."""

    def post(abuse: str, path: str, body: Any, source: str, token: str | None = None,
             count: bool = True) -> tuple[int, Any]:
        status, answer = _http(port, "POST", path, body, token, source)
        if count:
            code = answer.get("code") if isinstance(answer, dict) and status >= 400 else None
            tally.add(abuse, f"{status} {code}" if code else status)
        return status, answer

    def guest(source: str, name: str) -> str | None:
        status, me = _http(port, "POST", "/api/guest", {"nickname": name}, source=source)
        return str(me["token"]) if status == 200 and isinstance(me, dict) else None

    guessers = itertools.count()

    def password_flood() -> None:
        source = PASSWORD_ADDRESSES[next(guessers) % len(PASSWORD_ADDRESSES)]
        post("password_flood", "/api/account/login",
             {"nickname": OWNER, "password": f"guess {random.random()}"}, source)

    def guest_or_pause(abuse: str, source: str, name: str) -> str | None:
        """A guest token for ``name`` from ``source``; None (tallied, after a pause) when
        the server refuses one."""
        token = guest(source, name)
        if token is None:
            tally.add(abuse, "guest refused")
            stop.wait(0.5)
        return token

    claims = itertools.count()

    def claim_flood() -> None:
        number = next(claims)
        source = CLAIM_ADDRESSES[number % len(CLAIM_ADDRESSES)]
        token = guest_or_pause("claim_flood", source, f"c{number}x")
        if token is None:
            return
        post("claim_flood", "/api/account/claim", {"password": f"claimed secret {number}"},
             source, token)

    idlers = itertools.count()

    def idle_tables() -> None:
        number = next(idlers)
        source = IDLE_ADDRESSES[number % len(IDLE_ADDRESSES)]
        token = guest_or_pause("idle_tables", source, f"idle{number}")
        if token is None:
            return
        for _ in range(5):
            status, table = post("idle_tables", "/api/tables", {
                "game": "konchinka", "seats": 2, "bots": {"1": "greedy"}}, source, token)
            if status != 201:
                stop.wait(1)
                return
            post("idle_tables", f"/api/tables/{table['id']}/sit", {"seat": 0}, source,
                 token, count=False)

    def message_burst() -> None:
        source = "127.0.4.1"
        token = guest(source, "burst")
        status, table = _http(port, "POST", "/api/tables", {
            "game": "konchinka", "seats": 2, "bots": {"1": "greedy"}}, token, source) \
            if token is not None else (0, None)
        if token is None or status != 201:
            tally.add("message_burst", f"no table ({status})")
            stop.wait(5)
            return
        table_id = str(dict(table)["id"])
        _http(port, "POST", f"/api/tables/{table_id}/sit", {"seat": 0}, token, source)
        with _ws(port, f"/ws/tables/{table_id}", source) as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            while not stop.is_set():
                _drain(ws, 1.0)
                for _ in range(40):
                    ws.send(json.dumps({"type": "action", "turn": -1, "action": "none"}))
                errors = sum(1 for m in _drain(ws, 15.0, until_errors=40)
                             if m.get("type") == "error")
                tally.add("message_burst", "answered", min(errors, 40))
                tally.add("message_burst", "unanswered", max(0, 40 - errors))

    def chat_flood() -> None:
        source = "127.0.5.1"
        token = guest(source, "chatter")
        if token is None:
            stop.wait(1)
            return
        sockets = []
        try:
            for table in honest_tables:
                ws = _ws(port, f"/ws/tables/{table}", source)
                ws.send(json.dumps({"type": "hello", "token": token}))
                sockets.append(ws)
            while not stop.is_set():
                for ws in sockets:
                    for _ in range(5):
                        ws.send(json.dumps({"type": "chat", "text": "buy cheap chips"}))
                for ws in sockets:
                    for message in _drain(ws, 0.3):
                        if message.get("type") == "chat" and message.get("name") == "chatter":
                            tally.add("chat_flood", "delivered")
                        elif message.get("type") == "error":
                            tally.add("chat_flood", f"error {message.get('code')}")
        finally:
            for ws in sockets:
                ws.close()

    return [*[password_flood] * len(PASSWORD_ADDRESSES),
            *[claim_flood] * len(CLAIM_ADDRESSES), *[idle_tables] * 6, message_burst,
            chat_flood]


def _drain(ws: ClientConnection, seconds: float,
           until_errors: int | None = None) -> list[dict[str, Any]]:
    """The messages ``ws`` receives within ``seconds`` (or until ``until_errors`` errors
    came: a loaded server's answers come late, which is not the same as never)."""
    messages: list[dict[str, Any]] = []
    errors = 0
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0 and errors != until_errors:
        try:
            messages.append(json.loads(ws.recv(timeout=left)))
        except TimeoutError:
            break
        errors += messages[-1].get("type") == "error"
    return messages


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
                        help="leave one abuse out (" + ", ".join(ABUSES) + ")")
    parser.add_argument("--only", action="append", default=[], metavar="ABUSE",
                        help="run only this abuse (repeatable)")
    parser.add_argument("--src", action="append", default=[], metavar="LABEL=DIR",
                        help="a source tree for the server (repeatable: the runs "
                             "alternate between them and end with one table)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="how many times each --src tree is run")
    args = parser.parse_args()
    if args.only:
        args.without += [name for name in ABUSES if name not in args.only]
    trees = [tuple(item.split("=", 1)) for item in args.src] or [("", "")]
    runs: list[tuple[str, dict[str, Any]]] = []
    for number in range(args.rounds):
        for label, tree in trees:
            if tree:
                os.environ["PYTHONPATH"] = str(Path(tree).resolve())
                print(f"\n=== round {number + 1}: {label} ({tree}) ===", flush=True)
            runs.append((label, one_run(args)))
    if args.src:
        print_runs(runs)


def one_run(args: argparse.Namespace) -> dict[str, Any]:
    """One soak on a fresh server; its summary (see :func:`soak`)."""
    with tempfile.TemporaryDirectory() as folder:
        stages_file = Path(folder) / "stages.json"
        os.environ["KONKUN_STAGE_TIMES"] = str(stages_file)  # read by the server only
        with ServerProcess(data_dir=Path(folder), bot_delay=BOT_DELAY).start() as server:
            return soak(args, server, Path(folder), stages_file)


def peak_memory(pid: int) -> float:
    """The peak resident memory of process ``pid`` so far, in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def soak(args: argparse.Namespace, server: ServerProcess, folder: Path,
         stages_file: Path) -> dict[str, Any]:
    """The soak itself against the started ``server``; prints the figures and returns
    their summary."""
    rng = random.Random(args.seed)
    port = server.port
    replay_id = finished_kunken_replay(port)
    players = [Honest(port, random.Random(rng.random())) for _ in range(args.honest)]
    for player in players:
        player.setup()
    owner = Owner(port)
    owner.setup()
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
    honest.append(threading.Thread(target=owner.play, args=(until,)))
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
    new_table = fresh_table(port)
    memory = peak_memory(server.process.pid)
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
    print("the owner's own logins (right password, every 3 s): "
          + ", ".join(f"{k}: {v}" for k, v in sorted(owner.outcomes.items()))
          + (f"; p50 {statistics.median(owner.times) * 1000:.0f} ms" if owner.times else ""))
    print(f"a new table from a fresh address after the run: {new_table}")
    print(f"honest errors: {sum(p.errors for p in players)}; /healthz after: {status}; "
          f"server log lines: {log_lines}; server peak memory {memory:.0f} MiB")
    print(f"server process CPU (event loop, database and quick-bot threads; not the "
          f"search and replay workers): {server_cpu:.0%} of one core")
    print(probe.report())
    print_stages(stages)
    if achieved is not None:
        print_tally(*achieved)
    return {"trips": trips, "answers": answers, "owner": owner.outcomes,
            "new_table": new_table, "memory": memory, "cpu": server_cpu,
            "load": load_before[0], "achieved": achieved}


def fresh_table(port: int) -> str:
    """Whether a guest from an address the attack never used can make a table now."""
    source = "127.0.6.1"
    status, me = _http(port, "POST", "/api/guest", {"nickname": "late"}, source=source)
    if status != 200:
        return f"guest refused ({status})"
    status, answer = _http(port, "POST", "/api/tables", {"game": "konchinka", "seats": 2},
                           me["token"], source)
    return "made" if status == 201 else f"{status} {(answer or {}).get('code')}"


def _rate(counts: dict[tuple[str, str], int], seconds: float, abuse: str,
          *outcomes: str) -> str:
    """How often ``abuse`` met one of ``outcomes``: per second, and its share of the
    abuse's answers; ``no endpoint`` when every answer was 404 or 405."""
    mine = {outcome: n for (name, outcome), n in counts.items() if name == abuse}
    total = sum(mine.values())
    if not total:
        return "not run"
    if all(o.split()[0] in ("404", "405") for o in mine):
        return "no endpoint"
    hits = sum(n for o, n in mine.items() if o in outcomes)
    return f"{hits / seconds:.1f}/s ({hits} of {total})"


def print_runs(runs: list[tuple[str, dict[str, Any]]]) -> None:
    """One table of the runs: the honest figures, then what the abuses of issue 33
    achieved."""
    print("\n| run | load | honest round trip p50 / p99 (n) | bot p99 | owner's logins ok "
          "| server CPU | peak MiB | new table after |")
    print("|---|---|---|---|---|---|---|---|")
    for label, run in runs:
        trips, owner = run["trips"], run["owner"]
        honest = (f"{statistics.median(trips) * 1000:.1f} / "
                  f"{_percentile(trips, 0.99) * 1000:.0f} ms ({len(trips)})") if trips else "-"
        bot = f"{_percentile(run['answers'], 0.99):.2f} s" if run["answers"] else "-"
        print(f"| {label} | {run['load']:.1f} | {honest} | {bot} | {owner['ok']} of "
              f"{sum(owner.values())} | {run['cpu']:.0%} | {run['memory']:.0f} | "
              f"{run['new_table']} |")
    print("\n| run | wrong passwords checked | claims hashed | idle tables made "
          "| burst actions answered | chat lines delivered |")
    print("|---|---|---|---|---|---|")
    for label, run in runs:
        if run["achieved"] is None:
            continue
        seconds, counts = run["achieved"]
        print(f"| {label} | {_rate(counts, seconds, 'password_flood', '401 wrong_password')}"
              f" | {_rate(counts, seconds, 'claim_flood', '200')}"
              f" | {_rate(counts, seconds, 'idle_tables', '201')}"
              f" | {_rate(counts, seconds, 'message_burst', 'answered')}"
              f" | {_rate(counts, seconds, 'chat_flood', 'delivered')} |")


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
