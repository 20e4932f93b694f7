"""Issue 13, admission control: connections, tables and seats per address and per player,
a seat's own player always admitted, reconnect churn coalesced, waiting tables expiring,
the lobby list paged."""

from __future__ import annotations

import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any

import pytest

from konkun.server.core.config import Settings
from konkun.server.core.kinds import SeatKind, TableStatus
from konkun.server.core.protocol import ProtocolError
from konkun.server.features.admission import Admission, held_at, seat_identity

from .conftest import TestClient, guest, new_table, receive, running, sit


def _refused(client: TestClient, url: str) -> dict[str, Any]:
    """The error a WebSocket connection to ``url`` is refused with."""
    with client.websocket_connect(url) as ws:
        message = receive(ws)
        assert message["type"] == "error", message
        return message


def test_spectators_cannot_lock_a_seated_player_out_of_her_table(settings: Settings) -> None:
    settings.max_table_connections = 4
    settings.hello_seconds = 0.3
    with running(settings) as client, ExitStack() as stack:
        table = new_table(client)
        token = sit(client, table["id"], 0, "ann")
        for _ in range(4):
            stack.enter_context(client.websocket_connect(f"/ws/tables/{table['id']}"))
        assert _refused(client, f"/ws/tables/{table['id']}")["code"] == \
            "too_many_connections"
        with client.websocket_connect(f"/ws/tables/{table['id']}?token={token}") as ws:
            state = receive(ws)
            assert state["type"] == "state" and state["you"] == 0
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:  # with a hello
            ws.send_json({"type": "hello", "token": token})
            state = receive(ws)
            assert state["type"] == "state" and state["you"] == 0


def test_connections_per_address_are_limited(settings: Settings) -> None:
    settings.max_address_connections = 3
    with running(settings) as client, ExitStack() as stack:
        tables = [new_table(client)["id"] for _ in range(2)]
        for number in range(3):
            ws = stack.enter_context(client.websocket_connect(
                f"/ws/tables/{tables[number % 2]}"))
            assert receive(ws)["type"] == "state"
        assert _refused(client, f"/ws/tables/{tables[1]}")["code"] == "too_many_connections"


def test_connections_per_player_are_limited(settings: Settings) -> None:
    settings.max_player_connections = 2
    with running(settings) as client, ExitStack() as stack:
        table = new_table(client)["id"]
        token, _ = guest(client, "ann")
        for _ in range(2):
            ws = stack.enter_context(client.websocket_connect(
                f"/ws/tables/{table}?token={token}"))
            assert receive(ws)["type"] == "state"
        assert _refused(client, f"/ws/tables/{table}?token={token}")["code"] == \
            "too_many_connections"
        with client.websocket_connect(f"/ws/tables/{table}") as ws:  # others still get in
            assert receive(ws)["type"] == "state"


def _drain(ws: Any, wait: float) -> int:
    """How many messages arrive on ``ws`` until it is quiet for ``wait`` seconds."""
    count = 0
    while True:
        try:
            receive(ws, wait)
        except TimeoutError:
            return count
        count += 1


def test_reconnect_churn_is_coalesced_into_few_broadcasts(client: TestClient) -> None:
    table = new_table(client)
    token = sit(client, table["id"], 0, "ann")
    with client.websocket_connect(f"/ws/tables/{table['id']}?token={token}") as watcher:
        assert receive(watcher)["type"] == "state"
        cycles = 60
        started = time.monotonic()
        for _ in range(cycles):
            with client.websocket_connect(f"/ws/tables/{table['id']}") as churn:
                churn.send_json({"type": "hello"})
                assert receive(churn)["type"] == "state"
        elapsed = time.monotonic() - started
        seen = _drain(watcher, 0.5)
    # a burst of 8 at once, then at most one state per coalescing window (0.1 s)
    assert seen <= 8 + elapsed / 0.1 + 2, (seen, elapsed)
    assert seen < cycles


def test_tables_per_player_and_per_address_are_limited(settings: Settings) -> None:
    settings.max_tables_per_player = 2
    settings.max_tables_per_address = 3
    with running(settings) as client:
        _, ann = guest(client, "ann")
        body = {"game": "fake", "seats": 2}
        for _ in range(2):
            assert client.post("/api/tables", json=body, headers=ann).status_code == 201
        refused = client.post("/api/tables", json=body, headers=ann)
        assert refused.status_code == 503 and refused.json()["code"] == "too_many_tables"
        assert client.post("/api/tables", json=body).status_code == 201  # the address's 3rd
        refused = client.post("/api/tables", json=body)
        assert refused.status_code == 503 and refused.json()["code"] == "too_many_tables"


def test_seats_per_player_are_limited_over_the_websocket_too(settings: Settings) -> None:
    settings.max_seats_per_player = 2
    with running(settings) as client:
        tables = [new_table(client)["id"] for _ in range(3)]
        token, _ = guest(client, "ann")
        codes = []
        for table in tables:
            with client.websocket_connect(f"/ws/tables/{table}?token={token}") as ws:
                receive(ws)
                ws.send_json({"type": "sit", "seat": 0})
                codes.append(receive(ws).get("code"))
        assert codes == [None, None, "too_many_seats"]


def test_seats_per_address_are_limited(settings: Settings) -> None:
    settings.max_seats_per_address = 2
    with running(settings) as client:
        tables = [new_table(client)["id"] for _ in range(3)]
        answers = []
        for table in tables:
            _, headers = guest(client, "p")
            answers.append(client.post(f"/api/tables/{table}/sit", json={"seat": 0},
                                       headers=headers))
        assert [a.status_code for a in answers] == [200, 200, 429]
        assert answers[2].json()["code"] == "too_many_seats"


def test_websocket_sit_and_leave_count_against_the_address_rate_limit(
        settings: Settings) -> None:
    settings.http_burst = 6
    settings.http_per_second = 0.001
    with running(settings) as client:
        table = new_table(client)["id"]  # 1 token
        token, _ = guest(client, "ann")  # 2 tokens
        codes = []
        with client.websocket_connect(f"/ws/tables/{table}?token={token}") as ws:
            receive(ws)
            for number in range(6):
                ws.send_json({"type": "sit", "seat": 0} if number % 2 == 0
                             else {"type": "leave"})
                codes.append(receive(ws).get("code"))
        assert codes == [None] * 4 + ["rate_limited"] * 2
        refused = client.post("/api/guest", json={"nickname": "bob"})
        assert refused.json()["code"] == "rate_limited"


def test_waiting_tables_expire(settings: Settings) -> None:
    """A table nobody joined closes after ``waiting_table_seconds``, and the address that
    made it may make another. The wait is long while the limit is checked (a loaded machine
    once took the 0.3 s between the two requests, and the second table was made) and short
    after it: the server reads the setting at every sweep."""
    settings.waiting_table_seconds = 0.3  # the sweeps' period follows the starting value
    settings.max_tables_per_address = 1
    with running(settings) as client:
        settings.waiting_table_seconds = 3600.0
        table = new_table(client)["id"]
        assert client.post("/api/tables", json={"game": "fake", "seats": 2}) \
            .json()["code"] == "too_many_tables"
        settings.waiting_table_seconds = 0.3
        deadline = time.monotonic() + 5
        while client.get(f"/api/tables/{table}").status_code != 404:
            assert time.monotonic() < deadline, "the waiting table never expired"
            time.sleep(0.05)
        assert client.get("/api/tables").json()["tables"] == []
        new_table(client)  # the address may create again


def test_waiting_tables_expire_after_a_restart(settings: Settings) -> None:
    with running(settings) as client:
        table = new_table(client)["id"]
    settings.waiting_table_seconds = 0.0
    with running(settings) as client:
        assert client.get(f"/api/tables/{table}").status_code == 404


def test_the_lobby_list_is_paged(settings: Settings) -> None:
    settings.lobby_page = 3
    with running(settings) as client:
        made = [new_table(client)["id"] for _ in range(7)]
        first = client.get("/api/tables").json()
        assert len(first["tables"]) == 3 and first["total"] == 7
        pages = [t["id"] for t in first["tables"]]
        pages += [t["id"] for t in client.get("/api/tables?offset=3&limit=100")
                  .json()["tables"]]
        assert sorted(pages) == sorted(made)
        assert client.get("/api/tables?limit=1000").json()["code"] == "bad_request"


@pytest.mark.parametrize("path", ["/api/games", "/api/tables?status=finished"])
def test_the_finished_list_is_paged(client: TestClient, path: str) -> None:
    answer = client.get(path + ("&" if "?" in path else "?") + "limit=2").json()
    assert answer["limit"] == 2 and answer["offset"] == 0


@dataclass
class _Seat:
    kind: SeatKind = SeatKind.EMPTY
    player_id: str | None = None


@dataclass
class _Extras:
    creator: str | None = None


@dataclass
class _Table:
    """The fields the admission checks read of a table."""

    id: str
    status: TableStatus = TableStatus.WAITING
    creator_address: str | None = None
    seat_addresses: dict[int, str] = field(default_factory=dict)
    connections: list[Any] = field(default_factory=list)
    seats: list[_Seat] = field(default_factory=lambda: [_Seat(), _Seat()])
    extras: _Extras = field(default_factory=_Extras)

    def seat_of(self, player_id: str | None) -> int | None:
        return next((n for n, s in enumerate(self.seats) if s.player_id == player_id), None)


def _tables() -> list[_Table]:
    """Ann's table (from address a) with her at seat 0, a bot at seat 1; a finished one."""
    mine = _Table("t1", creator_address="a", extras=_Extras("ann"),
                  seats=[_Seat(SeatKind.HUMAN, "ann"), _Seat(SeatKind.BOT)],
                  seat_addresses={0: "a"})
    over = _Table("t0", TableStatus.FINISHED, creator_address="a", extras=_Extras("ann"),
                  seats=[_Seat(SeatKind.HUMAN, "ann")], seat_addresses={0: "a"})
    return [mine, over]


def test_held_at_names_each_open_table_and_human_seat_under_its_keys() -> None:
    assert sorted(held_at(_tables())) == [
        ("seats:address:a", seat_identity("t1", 0)), ("seats:player:ann", "t1:0"),
        ("tables:address:a", "t1"), ("tables:player:ann", "t1")]


def test_a_table_or_seat_both_followed_and_announced_counts_once(settings: Settings) -> None:
    """What the lobby's tables show and what is held elsewhere (being made, or announced by
    another process) is united by identity: the same table or seat counts once."""
    settings.max_tables_per_address = settings.max_seats_per_address = 2
    settings.max_tables_per_player = settings.max_seats_per_player = 2
    admission = Admission(settings)
    announced = {"tables:address:a": {"t1"}, "seats:address:a": {"t1:0"},
                 "tables:player:ann": {"t1"}, "seats:player:ann": {"t1:0"}}
    admission.held_elsewhere = lambda key: set(announced.get(key, set()))
    admission.check_new_table(_tables(), "ann", "a")  # t1 once: one of two
    admission.check_seat(_tables(), "ann", "a")
    announced = {"tables:address:a": {"t2"}, "seats:address:a": {"t2:1"}}
    with pytest.raises(ProtocolError) as refused:  # t1 here and t2 elsewhere: two of two
        admission.check_new_table(_tables(), None, "a")
    assert refused.value.code == "too_many_tables"
    with pytest.raises(ProtocolError) as refused:
        admission.check_seat(_tables(), "bob", "a")
    assert refused.value.code == "too_many_seats" and "holds 2 seats" in refused.value.message
