"""Several real ``konkun serve`` processes on one private PostgreSQL serve the same lobby
and tables (issue 16): one lobby, one taker per seat, one deal per table, one action per
turn whatever process receives it, every view sent from every process the true view of its
seat, and nothing acknowledged lost when one process is killed under load."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
import time
import urllib.error
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, TypeVar

import pytest
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import connect

from error_checks import KUNKEN_SHORT
from konkun.server.testing import (
    HOST,
    ServerProcess,
    free_port,
    request_json,
    start_together,
    wait_until_up,
)

from .conftest import legal
from .postgres import PostgresServer

T = TypeVar("T")

OPEN = ("http_burst=100000", "http_per_second=100000", "read_burst=100000",
        "read_per_second=100000", "replay_burst=100000", "replay_per_second=100000",
        "rate_burst=100000", "rate_per_second=100000", "max_tables_per_address=1000",
        "max_seats_per_address=1000", "max_address_connections=1000",
        "max_tables_per_player=1000")
"""Every test client comes from 127.0.0.1: the per-address limits are lifted."""
LIMIT_ARGS = tuple(arg for pair in OPEN for arg in ("--limit", pair))


def _servers(stack: ExitStack, url: str, count: int, tmp: Path,
             args: tuple[str, ...] = LIMIT_ARGS) -> list[ServerProcess]:
    """``count`` processes on one database (each its own data directory: the secret is
    shared through ``KONKUN_SECRET``), started together with ``args``."""
    servers = [ServerProcess(url, data_dir=tmp / f"p{number}", args=args)
               for number in range(count)]
    for server in servers:
        stack.callback(server.kill)
    return start_together(servers, timeout=180)


@pytest.fixture(scope="module")
def two_processes(postgres: PostgresServer,
                  tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[ServerProcess]]:
    """Two processes on one database with the open limits, shared by this module's tests
    that kill, restart and limit nothing: each plays tables and guests of its own, and
    tables are independent by id (a pair's start-up is seconds on a loaded machine)."""
    with ExitStack() as stack:
        yield _servers(stack, postgres.new_database_url(), 2,
                       tmp_path_factory.mktemp("two-processes"))


def _eventually(check: Callable[[], bool], timeout: float = 5.0) -> None:
    """Wait until ``check()`` holds (an announcement takes milliseconds, a busy machine
    longer)."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "the processes did not agree in time"
        time.sleep(0.05)


def _guest(server: ServerProcess, name: str) -> str:
    answer = request_json(f"{server.url}/api/guest", "POST", {"nickname": name})
    return str(answer["token"])


def _sit(server: ServerProcess, table_id: str, seat: int, token: str) -> int:
    """The HTTP status of taking ``seat``."""
    try:
        request_json(f"{server.url}/api/tables/{table_id}/sit", "POST", {"seat": seat},
                     token=token)
    except urllib.error.HTTPError as error:
        return error.code
    return 200


def _first_state(server: ServerProcess, table_id: str, token: str | None) -> dict[str, Any]:
    with connect(f"ws://{HOST}:{server.port}/ws/tables/{table_id}") as ws:
        if token:
            ws.send(json.dumps({"type": "hello", "token": token}))
        while True:
            message = json.loads(ws.recv(timeout=10))
            if message["type"] == "state" and (token is None or message["you"] is not None):
                return dict(message)


def test_two_processes_show_one_lobby_one_seat_and_one_deal(
        postgres: PostgresServer, tmp_path: Path) -> None:
    with ExitStack() as stack:
        one, two = _servers(stack, postgres.new_database_url(), 2, tmp_path)
        made = {request_json(f"{server.url}/api/tables", "POST",
                             {"game": "konchinka", "seats": 2})["id"]
                for server in (one, two, one, two, one, two)}

        def listed(server: ServerProcess) -> set[str]:
            answer = request_json(f"{server.url}/api/tables?limit=100")
            return {t["id"] for t in answer["tables"]}

        _eventually(lambda: listed(one) == made and listed(two) == made)
        table_id = sorted(made)[0]
        tokens = [_guest(one, "ann"), _guest(two, "bob")]
        with ThreadPoolExecutor(2) as pool:  # both at once, each through its own process
            codes = sorted(pool.map(lambda i: _sit((one, two)[i], table_id, 1, tokens[i]),
                                    range(2)))
        assert codes == [200, 409]
        _eventually(lambda: all(
            request_json(f"{s.url}/api/tables/{table_id}")["seats"][1]["kind"] == "human"
            for s in (one, two)))
        names = {request_json(f"{s.url}/api/tables/{table_id}")["seats"][1]["name"]
                 for s in (one, two)}
        assert len(names) == 1  # both processes show the one winner
        loser = tokens[1] if names == {"ann"} else tokens[0]
        assert _sit(two, table_id, 0, loser) == 200  # the last seat: the game starts once
        _eventually(lambda: all(request_json(f"{s.url}/api/tables/{table_id}")["status"]
                                == "playing" for s in (one, two)))
        views = [_first_state(s, table_id, loser)["view"] for s in (one, two)]
        assert views[0] == views[1]  # one deal, whichever process shows it


def test_workers_above_one_with_sqlite_are_refused(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "konkun", "serve", "--workers", "2",
                           "--data-dir", str(tmp_path), "--port", str(free_port())],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert "--workers 2 needs a PostgreSQL database" in done.stderr
    assert "SQLite serves one process" in done.stderr


def test_workers_share_one_port_and_a_dead_one_is_replaced(
        postgres: PostgresServer, tmp_path: Path) -> None:
    port = free_port()
    command = [sys.executable, "-m", "konkun", "serve", "--workers", "2", "--port",
               str(port), "--db", postgres.new_database_url(), "--data-dir", str(tmp_path),
               *LIMIT_ARGS]
    log = (tmp_path / "log").open("wb")
    supervisor = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    try:
        base = f"http://{HOST}:{port}"
        wait_until_up(base, 60)
        children = _children(supervisor.pid)
        assert len(children) == 2
        made = [request_json(f"{base}/api/tables", "POST",
                             {"game": "konchinka", "seats": 2})["id"] for _ in range(6)]
        subprocess.run(["kill", "-9", str(children[0])], check=True)
        _eventually(lambda: len(_children(supervisor.pid)) == 2
                    and children[0] not in _children(supervisor.pid), timeout=30)
        wait_until_up(base, 30)

        def listed() -> set[str]:
            return {t["id"] for t in request_json(f"{base}/api/tables?limit=100")["tables"]}

        _eventually(lambda: all(listed() == set(made) for _ in range(4)), timeout=30)
    finally:
        supervisor.terminate()
        supervisor.wait(60)
        log.close()


def _children(pid: int) -> list[int]:
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    return [int(p) for p in found.stdout.split()]


class Client(threading.Thread):
    """A player (or a spectator, ``token`` None) who connects to a random live process,
    plays random legal moves on its turn, reconnects elsewhere when its process dies,
    and records every state it is sent."""

    def __init__(self, live: list[ServerProcess], table_id: str, token: str | None,
                 rng: random.Random) -> None:
        super().__init__(daemon=True)
        self.live, self.table_id, self.token, self.rng = live, table_id, token, rng
        self.seen: list[dict[str, Any]] = []
        self.finished = False
        self.reconnects = 0
        self.failure: BaseException | None = None

    def run(self) -> None:
        deadline = time.monotonic() + 240
        try:
            while not self.finished and time.monotonic() < deadline:
                server = self.rng.choice(list(self.live))
                try:
                    self._play(server)
                except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError):
                    self.reconnects += 1
                    time.sleep(0.1)
        except BaseException as error:  # reported by the test
            self.failure = error

    def _play(self, server: ServerProcess) -> None:
        with connect(f"ws://{HOST}:{server.port}/ws/tables/{self.table_id}",
                     open_timeout=5) as ws:
            if self.token:
                ws.send(json.dumps({"type": "hello", "token": self.token}))
            while True:
                message = json.loads(ws.recv(timeout=15))
                if message["type"] != "state":
                    continue
                if self.token and message["you"] is None:
                    continue  # before the hello is read
                self.seen.append(message)
                table = message["table"]
                if table["status"] == "finished":
                    self.finished = True
                    return
                if self.token and table["to_move"] == message["you"]:
                    ws.send(json.dumps({"type": "action", "turn": message["turn"],
                                        "action": self.rng.choice(legal(message))}))


def test_three_processes_play_many_tables_and_one_killed_loses_nothing(
        postgres: PostgresServer, tmp_path: Path) -> None:
    rng = random.Random(16)
    layouts: list[tuple[str, int, str | None, dict[str, str], set[int]]] = [
        ("konchinka", 2, None, {"target": "1"}, set()),
        ("konchinka", 2, None, {"target": "1"}, {1}),
        ("konchinka", 3, "novo", {"target": "1"}, {2}),
        ("kunken", 2, None, KUNKEN_SHORT, set()),
        ("kunken", 3, None, KUNKEN_SHORT, {0}),
        ("konchinka", 2, None, {"target": "1"}, {0, 1}),
    ]
    with ExitStack() as stack:
        servers = _servers(stack, postgres.new_database_url(), 3, tmp_path)
        live = list(servers)
        clients: list[Client] = []
        tables: list[str] = []
        for number in range(9):
            game, seats, variant, rules, bots = layouts[number % len(layouts)]
            body: dict[str, Any] = {"game": game, "seats": seats, "rules": rules,
                                    "bots": {str(b): "random" for b in bots}}
            if variant:
                body["variant"] = variant
            table_id = request_json(f"{rng.choice(servers).url}/api/tables", "POST",
                                    body)["id"]
            tables.append(table_id)
            tokens = []
            for seat in sorted(set(range(seats)) - bots):
                token = _guest(rng.choice(servers), f"p{number}s{seat}")
                tokens.append(token)
                assert _sit(rng.choice(servers), table_id, seat, token) == 200
            for token in [*tokens, None]:  # and a spectator
                clients.append(Client(live, table_id, token, random.Random(rng.random())))
        for client in clients:
            client.start()
        _eventually(lambda: sum(len(c.seen) for c in clients) > 150, timeout=120)
        victim = servers[1]
        live.remove(victim)
        victim.kill()  # SIGKILL: no shutdown code runs
        for client in clients:
            client.join(260)
        assert [c.failure for c in clients if c.failure] == []
        assert all(c.finished for c in clients), [len(c.seen) for c in clients]
        assert sum(c.reconnects for c in clients) > 0  # the victim's clients moved over
        for table_id in tables:
            replay = request_json(f"{live[0].url}/api/games/{table_id}/replay?seat=all")
            frames = replay["frames"]
            for client in (c for c in clients if c.table_id == table_id):
                for message in client.seen:
                    if message["table"]["status"] == "waiting":  # shown before the news of
                        assert message["view"] is None  # the deal reached that process
                        continue
                    frame = frames[message["turn"]]
                    seat = message["you"]
                    view = frame["view"] if seat is None else frame["views"][seat]
                    assert message["view"] == view, (table_id, message["turn"], seat)
                    if message["last"] is not None:
                        assert (message["last"]["action"], message["last"]["actor"]) \
                            == (frame["action"], frame["actor"])
                assert client.seen[-1]["turn"] == len(frames) - 1


def test_one_move_per_turn_when_two_processes_receive_one_each(
        two_processes: list[ServerProcess]) -> None:
    servers = two_processes
    with ExitStack() as stack:
        table_id = request_json(f"{servers[0].url}/api/tables", "POST",
                                {"game": "konchinka", "seats": 2})["id"]
        tokens = [_guest(servers[0], "ann"), _guest(servers[1], "bob")]
        for seat, token in enumerate(tokens):
            assert _sit(servers[seat], table_id, seat, token) == 200
        sockets = {(seat, n): stack.enter_context(
            connect(f"ws://{HOST}:{servers[n].port}/ws/tables/{table_id}"))
            for seat in range(2) for n in range(2)}
        for (seat, _n), ws in sockets.items():
            ws.send(json.dumps({"type": "hello", "token": tokens[seat]}))

        def state_at(ws: Any, turn: int, errors: list[str]) -> dict[str, Any]:
            while True:
                message = json.loads(ws.recv(timeout=15))
                if message["type"] == "error":
                    errors.append(message["code"])
                elif message["type"] == "state" and message["you"] is not None \
                        and message["table"]["status"] != "waiting" \
                        and message["turn"] >= turn:
                    return dict(message)

        errors: list[str] = []
        states = {key: state_at(ws, 0, errors) for key, ws in sockets.items()}
        for turn in range(12):
            state = states[(0, 0)]
            assert all(s["turn"] == turn for s in states.values())
            mover = state["table"]["to_move"]
            options = legal(states[(mover, 0)])
            moves = [options[0], options[-1]]  # two different moves when there are two
            sends = [(sockets[(mover, n)], json.dumps({"type": "action", "turn": turn,
                                                       "action": moves[n]})) for n in range(2)]
            with ThreadPoolExecutor(2) as pool:  # the same player, through both processes
                list(pool.map(lambda pair: pair[0].send(pair[1]), sends))
            turn_errors: list[str] = []
            states = {key: state_at(ws, turn + 1, turn_errors)
                      for key, ws in sockets.items()}
            played = {(s["turn"], s["last"]["action"]) for s in states.values()}
            assert len(played) == 1 and next(iter(played))[0] == turn + 1
            assert next(iter(played))[1] in moves
            views = {(key[0], json.dumps(s["view"], sort_keys=True))
                     for key, s in states.items()}
            assert len(views) == 2  # each seat sees one state, whichever process sent it
            # the second move was refused (it may be read after the state that replaced it)
            deadline = time.monotonic() + 5
            while "stale_turn" not in turn_errors and time.monotonic() < deadline:
                for n in range(2):
                    try:
                        message = json.loads(sockets[(mover, n)].recv(timeout=0.1))
                    except TimeoutError:
                        continue
                    if message["type"] == "error":
                        turn_errors.append(message["code"])
            assert turn_errors == ["stale_turn"], turn_errors
            if state["table"]["status"] == "finished":
                break
        count = request_json(f"{servers[1].url}/api/tables/{table_id}")["turn"]
        assert count == turn + 1


def test_the_move_clock_survives_a_crash_restart(tmp_path: Path) -> None:
    server = ServerProcess(data_dir=tmp_path, args=(*LIMIT_ARGS, "--limit", "away_grace=60"))
    try:  # SQLite, one process
        server.start()
        table_id = request_json(f"{server.url}/api/tables", "POST",
                                {"game": "konchinka", "seats": 2, "move_seconds": 60})["id"]
        tokens = [_guest(server, f"p{seat}") for seat in range(2)]
        for seat, token in enumerate(tokens):
            assert _sit(server, table_id, seat, token) == 200
        started = time.monotonic()

        def clock_seen() -> dict[str, Any]:
            """The clock as the players see it, both connected."""
            with ExitStack() as sockets:
                states = []
                for token in tokens:
                    ws = sockets.enter_context(
                        connect(f"ws://{HOST}:{server.port}/ws/tables/{table_id}"))
                    ws.send(json.dumps({"type": "hello", "token": token}))
                    states.append(ws)
                while True:  # the state once both are there
                    message = json.loads(states[1].recv(timeout=10))
                    if message["type"] == "state" and message["you"] == 1 \
                            and all(s["connected"] for s in message["table"]["seats"]):
                        return dict(message["table"]["clock"])

        assert clock_seen()["remaining"] > 60 - (time.monotonic() - started) - 1.5
        time.sleep(3.0)
        server.restart(crash=True)
        clock = clock_seen()
        spent = time.monotonic() - started
        # the turn's time goes on from the deal, not from the restart
        assert 60 - spent - 1.5 <= clock["remaining"] <= 60 - 3.0 + 0.5, (clock, spent)
    finally:
        server.kill()


def _finished_games(servers: list[ServerProcess], tokens: list[str], count: int) -> list[str]:
    """``count`` two-seat Konchinka games to 1 point, seat ``n``'s player (``tokens[n]``)
    playing through process ``n``, played to their end; their table ids."""
    tables, players = [], []
    for _ in range(count):
        table_id = request_json(f"{servers[0].url}/api/tables", "POST",
                                {"game": "konchinka", "seats": 2,
                                 "rules": {"target": "1"}})["id"]
        tables.append(table_id)
        for seat in range(2):
            assert _sit(servers[seat], table_id, seat, tokens[seat]) == 200
        players += [Client([servers[seat]], table_id, tokens[seat], random.Random(seat))
                    for seat in range(2)]
    for player in players:
        player.start()
    for player in players:
        player.join(60 * max(2, count))
    assert all(p.finished for p in players)
    return tables


def test_rematch_votes_are_seen_through_every_process(
        two_processes: list[ServerProcess]) -> None:
    servers = two_processes
    with ExitStack() as stack:
        tokens = [_guest(servers[n], name) for n, name in enumerate(("ann", "bob"))]
        (table_id,) = _finished_games(servers, tokens, 1)
        sockets = [stack.enter_context(connect(
            f"ws://{HOST}:{servers[seat].port}/ws/tables/{table_id}")) for seat in range(2)]
        for seat, ws in enumerate(sockets):
            ws.send(json.dumps({"type": "hello", "token": tokens[seat]}))

        def until(ws: Any, accept: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
            while True:  # generous: under a loaded machine two processes answer slowly
                message = json.loads(ws.recv(timeout=30))
                if accept(message):
                    return dict(message)

        sockets[0].send(json.dumps({"type": "rematch"}))
        until(sockets[1], lambda m: m["type"] == "state"
              and m["table"]["rematch"]["votes"] == [0])  # seen through the other process
        sockets[1].send(json.dumps({"type": "rematch"}))
        news = [until(ws, lambda m: m["type"] == "rematch") for ws in sockets]
        assert news[0]["table"] == news[1]["table"] is not None  # one rematch, both told
        new = request_json(f"{servers[1].url}/api/tables/{news[0]['table']}")
        assert [s["name"] for s in new["seats"]] == ["ann", "bob"]


def test_the_action_log_and_the_row_refuse_a_second_writer(postgres: PostgresServer) -> None:
    from konkun.server.store.storage import Storage, StoredTable, TurnTakenError

    url = postgres.new_database_url()
    one, two = Storage(url), Storage(url)  # two processes' connections
    try:
        seats = [{"kind": "empty", "player_id": None, "name": None, "bot": None}] * 2
        one.create_table(StoredTable(id="t1", game="konchinka", variant=None, rules={},
                                     seats=seats, seed=None, status="waiting",
                                     created_at="2026-12-01T00:00:00+00:00"))
        taken = [{"kind": "human", "player_id": "a", "name": "a", "bot": None}, seats[1]]
        assert one.compare_and_update("t1", {"seats": seats}, {"seats": taken})
        assert not two.compare_and_update("t1", {"seats": seats}, {"seats": seats[::-1]})
        assert two.compare_and_update("t1", {"status": "waiting"}, {"status": "playing"})
        assert not one.compare_and_update("t1", {"status": "waiting"}, {"seed": "other"})
        one.append_action("t1", 0, 0, "first")
        with pytest.raises(TurnTakenError) as refused:
            two.append_action("t1", 0, 1, "second")
        assert refused.value.code == "stale_turn"
        row = two.load("t1")
        assert row is not None and row.actions == [(0, "first")] and row.seats == taken
    finally:
        one.close()
        two.close()


def test_two_rematch_votes_at_one_instant_through_two_processes_both_count(
        two_processes: list[ServerProcess]) -> None:
    servers = two_processes
    with ExitStack() as stack:
        tokens = [_guest(servers[n], name) for n, name in enumerate(("ann", "bob"))]
        tables = _finished_games(servers, tokens, 3)
        contributions = ["ab" * 32, "cd" * 32]
        for table_id in tables:
            sockets = [stack.enter_context(connect(
                f"ws://{HOST}:{servers[seat].port}/ws/tables/{table_id}")) for seat in range(2)]
            for seat, ws in enumerate(sockets):
                ws.send(json.dumps({"type": "hello", "token": tokens[seat]}))
            for ws in sockets:  # both hellos read before the votes
                while json.loads(ws.recv(timeout=15)).get("you") is None:
                    pass
            votes = [json.dumps({"type": "rematch", "contribution": contributions[seat]})
                     for seat in range(2)]
            start = threading.Barrier(2)

            def vote(seat: int, sockets: list[Any] = sockets, votes: list[str] = votes,
                     start: threading.Barrier = start) -> None:
                start.wait()
                sockets[seat].send(votes[seat])

            with ThreadPoolExecutor(2) as pool:  # the same instant, one through each process
                list(pool.map(vote, range(2)))
            news = []
            for ws in sockets:
                while (message := json.loads(ws.recv(timeout=15)))["type"] != "rematch":
                    pass
                news.append(message["table"])
            assert news[0] == news[1] is not None, table_id  # one rematch, both told
            url = f"{servers[1].url}/api/tables/{news[0]}"

            def started(url: str = url) -> bool:
                # The rematch may reach this process a moment before the new table's start.
                return bool(request_json(url)["status"] == "playing")

            _eventually(started)
            new = request_json(url)
            assert [s["name"] for s in new["seats"]] == ["ann", "bob"]
            assert new["contributed"] == [0, 1]


def _human_table(servers: list[ServerProcess],
                 stack: ExitStack) -> tuple[str, dict[tuple[int, int], Any]]:
    """A started two-seat table; each seat's player connected through each process
    (keys ``(seat, process)``)."""
    table_id = request_json(f"{servers[0].url}/api/tables", "POST",
                            {"game": "konchinka", "seats": 2})["id"]
    tokens = [_guest(servers[n], name) for n, name in enumerate(("ann", "bob"))]
    for seat in range(2):
        assert _sit(servers[seat], table_id, seat, tokens[seat]) == 200
    sockets = {(seat, n): stack.enter_context(connect(
        f"ws://{HOST}:{servers[n].port}/ws/tables/{table_id}"))
        for seat in range(2) for n in range(2)}
    for (seat, _n), ws in sockets.items():
        ws.send(json.dumps({"type": "hello", "token": tokens[seat]}))
    return table_id, sockets


def _state_at(ws: Any, turn: int, timeout: float = 15.0) -> dict[str, Any]:
    """The first state of the game at ``turn`` or later that ``ws`` receives."""
    deadline = time.monotonic() + timeout
    while True:
        message = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        if message["type"] == "state" and message["you"] is not None \
                and message["table"]["status"] != "waiting" and message["turn"] >= turn:
            return dict(message)


def _play_through_first(sockets: dict[tuple[int, int], Any],
                        seen: dict[tuple[int, int], dict[str, Any]],
                        timeout: float = 15.0) -> None:
    """The player to move plays through the first process; every socket, the second
    process's too, is then shown the next turn (``seen``: each socket's last state)."""
    state = seen[(0, 0)]
    turn, mover = state["turn"], state["table"]["to_move"]
    sockets[(mover, 0)].send(json.dumps({"type": "action", "turn": turn,
                                         "action": legal(seen[(mover, 0)])[0]}))
    for key, ws in sockets.items():
        try:
            seen[key] = _state_at(ws, turn + 1, timeout)
        except TimeoutError:
            raise AssertionError(f"the socket of seat {key[0]} through process {key[1]} "
                                 f"was not shown turn {turn + 1} in {timeout} s") from None
        assert seen[key]["turn"] == turn + 1


def _log_lines(server: ServerProcess, words: str) -> list[str]:
    return [line for line in server.log.read_text(errors="replace").splitlines()
            if words in line]


def test_chat_lines_sent_at_one_instant_through_two_processes_reach_every_connection(
        two_processes: list[ServerProcess]) -> None:
    servers = two_processes
    with ExitStack() as stack:
        table_id, sockets = _human_table(servers, stack)
        for ws in sockets.values():
            _until(ws, lambda m: m["type"] == "state" and m["you"] is not None)

        def say(seat: int) -> None:
            sockets[(seat, seat)].send(json.dumps({"type": "chat",
                                                   "text": f"hello from {seat}"}))

        at_one_instant(2, say)  # seat n through process n
        for key, ws in sockets.items():
            lines = [_until(ws, lambda m: m["type"] == "chat")["text"] for _ in range(2)]
            assert sorted(lines) == ["hello from 0", "hello from 1"], key
        history = request_json(f"{servers[1].url}/api/tables/{table_id}/chat")["messages"]
        assert sorted(m["text"] for m in history) == ["hello from 0", "hello from 1"]


def test_a_killed_listener_reconnects_and_reads_back_what_it_missed(
        postgres: PostgresServer, tmp_path: Path) -> None:
    url = postgres.new_database_url()
    with ExitStack() as stack:
        servers = _servers(stack, url, 2, tmp_path)
        _table_id, sockets = _human_table(servers, stack)
        seen = {key: _state_at(ws, 0) for key, ws in sockets.items()}
        _play_through_first(sockets, seen)
        assert servers[1].process is not None
        killed = postgres.execute(url, "SELECT pg_terminate_backend(pid) FROM "
                                  "pg_stat_activity WHERE application_name LIKE "
                                  f"'konkun-listen %.{servers[1].process.pid}.%'")
        assert len(killed) == 1  # the second process's listener, found by its name
        # played while the second process does not listen: read back once it does again
        _play_through_first(sockets, seen)
        _play_through_first(sockets, seen)
        _eventually(lambda: len(_log_lines(servers[1], "listening again")) == 1)
        assert len(_log_lines(servers[1], "listening to the other processes failed")) == 1
        assert _log_lines(servers[0], "listening") == []


def test_a_database_restart_is_logged_once_and_every_table_goes_on(
        postgres: PostgresServer, tmp_path: Path) -> None:
    url = postgres.new_database_url()
    with ExitStack() as stack:
        servers = _servers(stack, url, 2, tmp_path)
        _table_id, sockets = _human_table(servers, stack)
        bot_table = request_json(f"{servers[0].url}/api/tables", "POST",
                                 {"game": "konchinka", "seats": 2,
                                  "bots": {"1": "random"}})["id"]
        token = _guest(servers[1], "cid")
        assert _sit(servers[1], bot_table, 0, token) == 200
        human = stack.enter_context(connect(f"ws://{HOST}:{servers[1].port}/ws/tables/"
                                            f"{bot_table}"))
        human.send(json.dumps({"type": "hello", "token": token}))
        seen = {key: _state_at(ws, 0) for key, ws in sockets.items()}
        _play_through_first(sockets, seen)
        postgres.restart(down_seconds=3.0)
        for server in servers:  # each process listens again (a loaded machine: seconds)
            _eventually(lambda s=server: len(_log_lines(s, "listening again")) == 1,
                        timeout=60)
        for _ in range(3):
            _play_through_first(sockets, seen, timeout=30)
        for _ in range(3):  # the bot table goes on: its bot answers after the outage too
            state = _state_at(human, 0)
            while state["table"]["to_move"] != 0 and state["table"]["status"] == "playing":
                state = _state_at(human, state["turn"] + 1, timeout=30)
            if state["table"]["status"] != "playing":
                break
            human.send(json.dumps({"type": "action", "turn": state["turn"],
                                   "action": legal(state)[0]}))
            _state_at(human, state["turn"] + 1, timeout=30)
        for server in servers:  # the outage logged once, its end once
            assert len(_log_lines(server, "listening again")) == 1
            assert len(_log_lines(server, "listening to the other processes failed")) == 1


SPREAD = 0.5
"""Seconds within which a process's new counts reach the others (milliseconds, on a
machine that is not shared)."""


def _refusal(call: Callable[[], Any]) -> tuple[int, str] | None:
    """The HTTP status and error code ``call`` is refused with (``None``: accepted)."""
    try:
        call()
    except urllib.error.HTTPError as error:
        return error.code, str(json.loads(error.read())["code"])
    return None


def _first_message(server: ServerProcess, table_id: str, token: str) -> dict[str, Any]:
    with connect(f"ws://{HOST}:{server.port}/ws/tables/{table_id}?token={token}") as ws:
        return dict(json.loads(ws.recv(timeout=15)))


def _limited_servers(stack: ExitStack, url: str, limits: dict[str, str],
                     tmp_path: Path) -> list[ServerProcess]:
    """Two processes on ``url`` with the test's open limits, except ``limits``."""
    args = tuple(arg for pair in OPEN if pair.split("=")[0] not in limits
                 for arg in ("--limit", pair))
    args += tuple(arg for name, value in limits.items() for arg in ("--limit", f"{name}={value}"))
    return _servers(stack, url, 2, tmp_path, args)


def test_admission_limits_and_the_login_limiter_count_across_processes(
        postgres: PostgresServer, tmp_path: Path) -> None:
    limits = {"max_address_connections": "3", "max_tables_per_address": "2",
              "max_seats_per_address": "2"}
    with ExitStack() as stack:
        servers = _limited_servers(stack, postgres.new_database_url(), limits, tmp_path)
        one, two = servers

        def create(server: ServerProcess) -> Any:
            return request_json(f"{server.url}/api/tables", "POST",
                                {"game": "konchinka", "seats": 2})["id"]

        tables = [create(one), create(two)]  # the address's two tables, one per process
        time.sleep(SPREAD)
        assert _refusal(lambda: create(one)) == (503, "too_many_tables")
        assert _refusal(lambda: create(two)) == (503, "too_many_tables")

        guests = [_guest(servers[n % 2], f"g{n}") for n in range(6)]
        assert _sit(one, tables[0], 0, guests[0]) == 200
        assert _sit(two, tables[1], 0, guests[1]) == 200  # the address's two seats
        time.sleep(SPREAD)
        assert _sit(one, tables[0], 1, guests[2]) == 429
        assert _sit(two, tables[1], 1, guests[3]) == 429

        spectators = [stack.enter_context(connect(  # three connections: the address's cap
            f"ws://{HOST}:{server.port}/ws/tables/{tables[0]}?token={token}"))
            for server, token in ((one, guests[3]), (one, guests[4]), (two, guests[5]))]
        for ws in spectators:
            assert json.loads(ws.recv(timeout=15))["type"] == "state"
        time.sleep(SPREAD)
        assert _first_message(two, tables[0], guests[2])["code"] == "too_many_connections"
        assert _first_message(one, tables[0], guests[2])["code"] == "too_many_connections"

        token = _guest(one, "dora")
        request_json(f"{one.url}/api/account/claim", "POST",
                     {"password": "correct horse battery"}, token=token)

        def login(server: ServerProcess) -> tuple[int, str] | None:
            return _refusal(lambda: request_json(f"{server.url}/api/account/login", "POST",
                                                 {"nickname": "dora", "password": "wrong"}))

        for number in range(5):  # the account's five failures, through both processes
            assert login(servers[number % 2]) == (401, "wrong_password")
        assert login(one) == (429, "login_limited")
        assert login(two) == (429, "login_limited")


def test_a_seat_and_a_table_count_once_in_the_process_that_follows_them(
        postgres: PostgresServer, tmp_path: Path) -> None:
    """A table and a seat made through one process count once in the other, which both
    follows them from the database and hears the first one announce them (counted twice,
    the address's second table or seat would be refused)."""
    limits = {"max_tables_per_address": "2", "max_seats_per_address": "2"}
    with ExitStack() as stack:
        one, two = _limited_servers(stack, postgres.new_database_url(), limits, tmp_path)
        first = request_json(f"{one.url}/api/tables", "POST",
                             {"game": "konchinka", "seats": 2})["id"]
        time.sleep(SPREAD)  # followed by two, and announced to it
        second = request_json(f"{two.url}/api/tables", "POST",
                              {"game": "konchinka", "seats": 2})["id"]
        assert _sit(one, first, 0, _guest(one, "ann")) == 200
        time.sleep(SPREAD)
        assert _sit(two, second, 0, _guest(two, "bob")) == 200
        time.sleep(SPREAD)
        assert _sit(two, second, 1, _guest(two, "cid")) == 429  # the limit still holds
        assert _sit(one, first, 1, _guest(one, "dan")) == 429
        assert _refusal(lambda: request_json(f"{two.url}/api/tables", "POST",
                                             {"game": "konchinka", "seats": 2})) \
            == (503, "too_many_tables")


@contextmanager
def two_processes_storages(url: str) -> Iterator[list[Any]]:
    """Two storages on one database, as two processes' connections; closed after."""
    from konkun.server.store.storage import Storage

    storages = [Storage(url) for _ in range(2)]
    try:
        yield storages
    finally:
        for storage in storages:
            storage.close()


def at_one_instant(count: int, act: Callable[[int], T]) -> list[T]:
    """``act(0)`` to ``act(count - 1)``, each on its own thread, all released at once."""
    start = threading.Barrier(count)

    def released(number: int) -> T:
        start.wait()
        return act(number)

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(released, range(count)))


def test_login_attempts_at_one_instant_through_two_databases_connections_count_once_each(
        postgres: PostgresServer) -> None:
    from sqlalchemy import create_engine

    from konkun.server.core.loginlimit import LoginRules
    from konkun.server.core.protocol import ProtocolError
    from konkun.server.migrations import upgrade_schema
    from konkun.server.store.clusterlimits import LoginLog

    url = postgres.new_database_url()
    engines = [create_engine(url) for _ in range(2)]  # two processes' connections
    upgrade_schema(engines[0])  # as the server's Storage does when it opens
    logs = [LoginLog(engine, rules=LoginRules(per_pair=5, per_address=5))
            for engine in engines]

    def attempt(number: int) -> str:
        try:
            logs[number % 2].begin(f"acct{number}", "10.1.2.3")
        except ProtocolError as refused:
            return refused.code
        return "admitted"

    try:
        answers = sorted(at_one_instant(16, attempt))
        # the address's five attempts, not five per connection
        assert answers == ["admitted"] * 5 + ["login_limited"] * 11
        assert logs[0].count("address:10.1.2.3") == 5
    finally:
        for engine in engines:
            engine.dispose()

def test_chat_messages_at_one_instant_through_two_processes_are_all_numbered(
        postgres: PostgresServer) -> None:
    from konkun.server.features.chat import ChatStore

    url = postgres.new_database_url()
    with two_processes_storages(url) as storages:
        stores = [ChatStore(storage.engine) for storage in storages]

        def send(number: int) -> str:
            message = stores[number % 2].append("t1", number % 2, f"p{number}",
                                                f"line {number}", 0)
            return str(message["text"])

        sent = sorted(at_one_instant(12, send))  # the same instant, half through each
        assert sent == sorted(f"line {n}" for n in range(12))  # none refused
        stored = sorted(str(m["text"]) for m in stores[1].history("t1"))
        assert stored == sent
        numbers = postgres.execute(url, "SELECT number FROM konkun_chat ORDER BY number")
        assert [n for (n,) in numbers] == list(range(1, 13))  # one number each, no gap

def test_first_ratings_at_one_instant_through_two_processes_count_every_game(
        postgres: PostgresServer) -> None:
    from konkun.server.accounts.ratings_service import RatingStore
    from konkun.server.store.storage import StoredTable

    url = postgres.new_database_url()
    at = "2026-12-01T12:00:00+00:00"
    seats = [{"kind": "human", "player_id": "ann", "name": "Ann", "bot": None},
             {"kind": "bot", "player_id": None, "name": "casual", "bot": "casual"}]
    games = [StoredTable(id=f"t{n}", game="konchinka", variant=None, rules={}, seats=seats,
                         seed="s", status="finished", created_at=at, finished_at=at,
                         winner=0, totals=[11, 5]) for n in range(8)]
    with two_processes_storages(url) as storages:
        stores = [RatingStore(storage.engine) for storage in storages]

        def record(number: int) -> int:
            return len(stores[number % 2].record_finished(games[number], True, {"ann"}))

        rated = at_one_instant(len(games), record)  # ann's first games, all at once
        assert rated == [2] * len(games)  # every game rated both seats, none dropped
        counts = postgres.execute(url, "SELECT player_id, games FROM konkun_ratings "
                                       "ORDER BY player_id")
        assert counts == [("ann", 8), ("bot:casual", 8)]
        indexed = postgres.execute(url, "SELECT count(DISTINCT table_id) FROM "
                                        "konkun_player_games")
        assert indexed == [(8,)]

def _until(ws: Any, accept: Callable[[dict[str, Any]], bool],
           timeout: float = 30.0) -> dict[str, Any]:
    """The first message ``ws`` receives that ``accept`` takes."""
    deadline = time.monotonic() + timeout
    while True:
        message = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        if accept(message):
            return dict(message)


def test_a_rematch_whose_last_vote_was_stored_by_a_process_that_died_starts_in_another(
        postgres: PostgresServer, tmp_path: Path) -> None:
    from konkun.server.features.lifecycle import ExtrasStore
    from konkun.server.store.storage import Storage
    from konkun.server.tables.table import new_table_id

    url = postgres.new_database_url()
    with ExitStack() as stack:
        servers = _servers(stack, url, 2, tmp_path)
        tokens = [_guest(servers[n], name) for n, name in enumerate(("ann", "bob"))]
        (table_id,) = _finished_games(servers, tokens, 1)
        first = stack.enter_context(connect(f"ws://{HOST}:{servers[0].port}/ws/tables/"
                                            f"{table_id}"))
        first.send(json.dumps({"type": "hello", "token": tokens[0]}))
        _until(first, lambda m: m["type"] == "state" and m["you"] == 0)
        first.send(json.dumps({"type": "rematch", "contribution": "ab" * 32}))
        _until(first, lambda m: m["type"] == "state"
               and m["table"]["rematch"]["votes"] == [0])
        # bob's vote reaches the second process, which stores it as it does (with the id
        # of the rematch's table, in a transaction that announces it) and is killed before
        # it makes the table
        servers[1].kill()
        storage = Storage(url)
        stack.callback(storage.close)
        reserved = new_table_id()
        extras, starts = ExtrasStore(storage.engine).vote_rematch(
            table_id, 1, "cd" * 32, {0, 1}, reserved,
            lambda session: storage.announce(session, table_id))
        assert starts and extras.rematch_next == reserved and extras.rematch_to is None
        # the live process makes that rematch and tells ann; bob, reconnecting there, is
        # shown it too
        moved = _until(first, lambda m: m["type"] == "rematch")
        assert moved["table"] == reserved
        second = stack.enter_context(connect(f"ws://{HOST}:{servers[0].port}/ws/tables/"
                                             f"{table_id}"))
        second.send(json.dumps({"type": "hello", "token": tokens[1]}))
        shown = _until(second, lambda m: m["type"] == "state" and m["you"] == 1)
        assert shown["table"]["rematch"]["table"] == reserved
        new = request_json(f"{servers[0].url}/api/tables/{reserved}")
        assert [s["name"] for s in new["seats"]] == ["ann", "bob"]
        assert new["status"] == "playing" and new["contributed"] == [0, 1]
        made = postgres.execute(url, "SELECT count(*) FROM konkun_table_extras WHERE "
                                     f"data::jsonb ->> 'rematch_of' = '{table_id}'")
        assert made == [(1,)]  # one rematch, not a second


def _rematch_shown(message: dict[str, Any]) -> str | None:
    """The rematch a message points to: a ``rematch`` message, or a state whose table
    shows it (the rematch may be made before the connection is attached)."""
    if message["type"] == "rematch":
        return str(message["table"])
    if message["type"] == "state":
        found = message["table"]["rematch"]["table"]
        return None if found is None else str(found)
    return None


def test_a_rematch_whose_maker_crashed_starts_when_the_restarted_server_is_reached(
        tmp_path: Path) -> None:
    from konkun.server.features.lifecycle import ExtrasStore
    from konkun.server.store.storage import Storage
    from konkun.server.tables.table import new_table_id

    with ExitStack() as stack:
        server = ServerProcess(None, data_dir=tmp_path / "one", args=LIMIT_ARGS)
        stack.callback(server.kill)
        server.start(timeout=180)
        tokens = [_guest(server, name) for name in ("ann", "bob")]
        (table_id,) = _finished_games([server, server], tokens, 1)
        server.kill()
        # both votes stored, the last with the rematch's id, and then the crash (SQLite:
        # one process, so the same server makes it once it is back)
        storage = Storage(f"sqlite:///{tmp_path / 'one' / 'konkun.sqlite3'}")
        store, reserved = ExtrasStore(storage.engine), new_table_id()
        store.vote_rematch(table_id, 0, "ab" * 32, {0, 1}, reserved)
        assert store.vote_rematch(table_id, 1, "cd" * 32, {0, 1}, reserved)[1]
        storage.close()
        server.start(timeout=180)
        ws = stack.enter_context(connect(f"ws://{HOST}:{server.port}/ws/tables/{table_id}"))
        ws.send(json.dumps({"type": "hello", "token": tokens[0]}))
        shown = _until(ws, lambda m: _rematch_shown(m) is not None)
        assert _rematch_shown(shown) == reserved
        new = request_json(f"{server.url}/api/tables/{reserved}")
        assert [s["name"] for s in new["seats"]] == ["ann", "bob"]
        assert new["status"] == "playing" and new["contributed"] == [0, 1]


def test_one_session_revoked_at_one_instant_through_two_processes_is_recorded_once(
        postgres: PostgresServer) -> None:
    with two_processes_storages(postgres.new_database_url()) as storages:

        def revoke(number: int) -> None:
            storages[number % 2].revoke(f"session{number // 4}")

        at_one_instant(8, revoke)  # two sessions, each revoked four times at once; none raises
        assert storages[0].revoked_sessions() == {"session0", "session1"}


def test_tables_and_seats_asked_at_one_instant_through_two_processes_stop_at_the_limit(
        postgres: PostgresServer, tmp_path: Path) -> None:
    limits = {"max_tables_per_address": "3", "max_seats_per_address": "2"}
    with ExitStack() as stack:
        servers = _limited_servers(stack, postgres.new_database_url(), limits, tmp_path)

        def create(number: int) -> tuple[int, str] | str:
            try:
                return str(request_json(f"{servers[number % 2].url}/api/tables", "POST",
                                        {"game": "konchinka", "seats": 2})["id"])
            except urllib.error.HTTPError as error:
                return error.code, str(json.loads(error.read())["code"])

        answers = at_one_instant(8, create)  # 8 tables asked at once, 4 through each
        made = [a for a in answers if isinstance(a, str)]
        assert len(made) == 3, answers  # the address's limit, not 3 per process
        assert [a for a in answers if not isinstance(a, str)] == [(503, "too_many_tables")] * 5
        guests = [_guest(servers[n % 2], f"g{n}") for n in range(6)]

        def sit(number: int) -> int:
            return _sit(servers[number % 2], made[number % 3], number // 3, guests[number])

        seated = sorted(at_one_instant(6, sit))  # 6 seats asked at once, 3 through each
        assert seated == [200, 200, 429, 429, 429, 429]
