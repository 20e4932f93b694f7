"""The abandonment policy (issue 33, item 1; docs/server.md): a table whose person stops
playing ends, or is handed over, within ``Settings.abandon_seconds`` (plus one sweep),
with a clock or without, connected or not; the others may claim an idle seat sooner. On
SQLite and PostgreSQL."""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from konkun.server.core.config import Settings
from konkun.verify import verify_document

from .conftest import TestClient, app_of, guest, receive_until, running
from .postgres import PostgresServer

ABANDON = 1.0
"""The abandonment delay these tests run with (the server's default is 300 s)."""
CLAIM = 0.3
"""The delay before a claim (the default is 60 s)."""
SWEEP = ABANDON / 10
"""How often the server sweeps (``abandon_seconds / 10``)."""
FLOOD_ABANDON = 5.0
"""The flood test's delay: long enough that filling the server (36 requests) is over
before the first table is given up, even on a loaded machine."""


def _settings(request: pytest.FixtureRequest, tmp_path: Path, **changes: Any) -> Settings:
    delays: dict[str, Any] = {"abandon_seconds": ABANDON, "idle_claim_seconds": CLAIM}
    settings = Settings(data_dir=tmp_path / "data", secret="test-secret", bot_delay=0.0,
                        refusal_seconds=0.0, socket_burst=10_000, rate_burst=10_000,
                        rate_per_second=10_000.0, **(delays | changes))
    if request.param == "postgresql":
        server: PostgresServer = request.getfixturevalue("postgres")
        settings = settings.model_copy(update={"db_url": server.new_database_url()})
    return settings


@pytest.fixture(params=["sqlite", "postgresql"])
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    """A server that abandons after ``ABANDON`` seconds and holds at most 12 tables."""
    with running(_settings(request, tmp_path, max_tables=12, max_tables_per_address=100,
                           max_seats_per_address=100)) as test_client:
        yield test_client


@pytest.fixture(params=["sqlite", "postgresql"])
def flood_client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    """As :func:`client`, abandoning after ``FLOOD_ABANDON`` seconds."""
    with running(_settings(request, tmp_path, max_tables=12, max_tables_per_address=100,
                           max_seats_per_address=100,
                           abandon_seconds=FLOOD_ABANDON)) as test_client:
        yield test_client


def _table(client: TestClient, token: str, **fields: Any) -> Any:
    return client.post("/api/tables", json=fields,
                       headers={"Authorization": f"Bearer {token}"})


def _sit(client: TestClient, table_id: str, seat: int, token: str) -> None:
    response = client.post(f"/api/tables/{table_id}/sit",
                           json={"seat": seat, "contribution": secrets.token_hex(32)},
                           headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200, response.text


def _summary(client: TestClient, table_id: str) -> dict[str, Any]:
    response = client.get(f"/api/tables/{table_id}")
    assert response.status_code == 200, response.text
    summary: dict[str, Any] = response.json()
    return summary


def _verified(client: TestClient, table_id: str) -> None:
    document = client.get(f"/api/games/{table_id}/replay?seat=all").json()
    verdict = verify_document(document)
    assert verdict.ok, verdict.message


def test_a_flood_of_abandoned_tables_is_cleared_within_the_documented_time(
        flood_client: TestClient) -> None:
    client = flood_client
    made = []
    for number in range(12):  # the server's cap, filled with games nobody plays
        token, _ = guest(client, f"flood{number}")
        response = _table(client, token, game="konchinka", seats=2, bots={"1": "random"})
        assert response.status_code == 201, response.text
        _sit(client, response.json()["id"], 0, token)
        made.append(response.json()["id"])
    late, _ = guest(client, "late")
    full = _table(client, late, game="konchinka", seats=2, bots={"1": "random"})
    assert full.json()["code"] == "too_many_tables"
    started = time.monotonic()
    # asked one table at a time, well within the server's read limit (20 a second): asking
    # every table each round ran into it once several had finished, and was refused
    unfinished = list(made)
    while unfinished:
        if _summary(client, unfinished[0])["status"] == "finished":
            unfinished.pop(0)
            continue
        assert time.monotonic() - started < FLOOD_ABANDON * 1.1 + 3.0, "not cleared in time"
        time.sleep(0.1)
    for table_id in made:
        summary = _summary(client, table_id)
        assert summary["winner"] == 1  # the bot: the idle person ranks last
    _verified(client, made[0])
    assert _table(client, late, game="konchinka", seats=2,
                  bots={"1": "random"}).status_code == 201


def _two_people(client: TestClient) -> tuple[str, dict[int, str]]:
    tokens = {0: guest(client, "ann")[0], 1: guest(client, "bob")[0]}
    response = _table(client, tokens[0], game="konchinka", seats=2)
    table_id = response.json()["id"]
    for seat, token in tokens.items():
        _sit(client, table_id, seat, token)
    return table_id, tokens


def _socket(client: TestClient, table_id: str, token: str) -> Any:
    ws = client.websocket_connect(f"/ws/tables/{table_id}")
    session = ws.__enter__()
    session.send_json({"type": "hello", "token": token})
    receive_until(session, lambda m: m["type"] == "state")
    return ws, session


def test_a_connected_staller_loses_a_clockless_table(client: TestClient) -> None:
    table_id, tokens = _two_people(client)
    mover = _summary(client, table_id)["to_move"]
    sockets = [_socket(client, table_id, token) for token in tokens.values()]
    try:  # both connected; the one to move never moves
        state = receive_until(sockets[1 - mover][1], lambda m: m["type"] == "state"
                              and m["table"]["status"] == "finished",
                              timeout=ABANDON + SWEEP + 5.0)
    finally:
        for ws, _ in sockets:
            ws.__exit__(None, None, None)
    assert state["table"]["winner"] == 1 - mover
    assert state["table"]["ended"]["reason"] == "abandoned"
    assert state["table"]["resigned"] == [mover]
    _verified(client, table_id)


@pytest.fixture(params=["sqlite", "postgresql"])
def patient(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    """A server whose own sweep waits a minute: only a claim ends a table sooner."""
    with running(_settings(request, tmp_path).model_copy(
            update={"abandon_seconds": 60.0})) as test_client:
        yield test_client


def test_the_others_claim_an_idle_seat_once_it_idled_the_documented_time(
        patient: TestClient) -> None:
    client = patient
    settings = app_of(client).state.lobby.settings  # read at each claim
    settings.idle_claim_seconds = 3600.0  # so that no machine is slow enough to reach it
    table_id, tokens = _two_people(client)
    mover = _summary(client, table_id)["to_move"]
    ws, other = _socket(client, table_id, tokens[1 - mover])
    try:
        other.send_json({"type": "claim"})
        assert receive_until(other, lambda m: m["type"] == "error")["code"] == "not_idle"
        settings.idle_claim_seconds = CLAIM
        time.sleep(CLAIM + 0.1)
        other.send_json({"type": "claim"})
        state = receive_until(other, lambda m: m["type"] == "state"
                              and m["table"]["status"] == "finished")
    finally:
        ws.__exit__(None, None, None)
    assert state["table"]["winner"] == 1 - mover
