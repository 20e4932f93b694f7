"""Every game can end (issue 33, item 1): a seat resigns at any time (``resign``; it ranks
last and takes no more turns), a table on which no person has moved is aborted
(``abort``); both leave a record that replays and verifies (docs/protocol.md,
docs/fairness.md), on SQLite and on PostgreSQL."""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest

from konkun.server.accounts.ratings_service import RatingStore, ranking_totals
from konkun.server.core.config import Settings
from konkun.server.store.storage import Storage, StoredTable
from konkun.verify import verify_document

from .conftest import TestClient, guest, legal, receive_until, running
from .postgres import PostgresServer


@pytest.fixture(params=["sqlite", "postgresql"])
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    """A started app on a fresh SQLite file or PostgreSQL database; a stand-in plays an
    away seat at once."""
    settings = Settings(data_dir=tmp_path / "data", secret="test-secret", bot_delay=0.0,
                        refusal_seconds=0.0, socket_burst=10_000, away_grace=0.0,
                        rate_burst=10_000, rate_per_second=10_000.0)
    if request.param == "postgresql":
        server: PostgresServer = request.getfixturevalue("postgres")
        settings = settings.model_copy(update={"db_url": server.new_database_url()})
    with running(settings) as test_client:
        yield test_client


def _table(client: TestClient, token: str, **fields: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json=fields,
                           headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 201, response.text
    summary: dict[str, Any] = response.json()
    return summary


def _sit(client: TestClient, table_id: str, seat: int, token: str) -> None:
    response = client.post(f"/api/tables/{table_id}/sit",
                           json={"seat": seat, "contribution": secrets.token_hex(32)},
                           headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200, response.text


@contextmanager
def _socket(client: TestClient, table_id: str, token: str | None) -> Iterator[Any]:
    """A socket on the table, said hello with ``token`` (a watcher's without one)."""
    with client.websocket_connect(f"/ws/tables/{table_id}") as session:
        if token is not None:
            session.send_json({"type": "hello", "token": token})
        yield session


def _finished(client: TestClient, table_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        summary: dict[str, Any] = client.get(f"/api/tables/{table_id}").json()
        if summary["status"] == "finished":
            return summary
        time.sleep(0.02)
    raise AssertionError(f"table {table_id} did not finish")


def _verified(client: TestClient, table_id: str) -> None:
    document = client.get(f"/api/games/{table_id}/replay?seat=all").json()
    verdict = verify_document(document)
    assert verdict.ok, verdict.message
    assert document["table"]["ended"]["turn"] == len(document["record"]["actions"])
    for forged in ({"turn": document["table"]["ended"]["turn"] + 1}, None):
        changed = dict(document, table=dict(document["table"]))
        changed["table"]["ended"] = None if forged is None \
            else dict(document["table"]["ended"]) | forged
        assert not verify_document(changed).ok  # the ending must fit the record


def _error(session: Any) -> dict[str, Any]:
    return receive_until(session, lambda m: m["type"] == "error")


def test_resign_ends_a_two_seat_match_the_other_seat_wins_and_it_verifies(
        client: TestClient) -> None:
    ann, _ = guest(client, "ann")
    bob, _ = guest(client, "bob")
    table = _table(client, ann, game="konchinka", seats=2)
    _sit(client, table["id"], 0, ann)
    _sit(client, table["id"], 1, bob)
    with _socket(client, table["id"], ann) as session:
        receive_until(session, lambda m: m["type"] == "state")
        session.send_json({"type": "resign"})
        state = receive_until(session, lambda m: m["type"] == "state"
                              and m["table"]["status"] == "finished")
    assert state["table"]["winner"] == 1
    assert state["table"]["resigned"] == [0]
    assert state["table"]["ended"]["reason"] == "resigned"
    summary = _finished(client, table["id"])
    assert summary["winner"] == 1
    _verified(client, table["id"])


def test_only_a_seated_player_resigns_and_only_while_the_match_is_played(
        client: TestClient) -> None:
    ann, _ = guest(client, "ann")
    bob, _ = guest(client, "bob")
    table = _table(client, ann, game="konchinka", seats=2)
    _sit(client, table["id"], 0, ann)
    with _socket(client, table["id"], ann) as session:
        session.send_json({"type": "resign"})
        assert _error(session)["code"] == "not_started"
        _sit(client, table["id"], 1, bob)
        with _socket(client, table["id"], None) as watcher:
            watcher.send_json({"type": "resign"})
            assert _error(watcher)["code"] == "not_seated"
        session.send_json({"type": "resign"})
        receive_until(session, lambda m: m["type"] == "state"
                      and m["table"]["status"] == "finished")
        session.send_json({"type": "resign"})
        assert _error(session)["code"] == "game_over"


def test_a_resigned_seat_takes_no_more_turns_the_stand_in_plays_it_for_nothing(
        client: TestClient) -> None:
    tokens = [guest(client, name)[0] for name in ("ann", "bob", "cid")]
    table = _table(client, tokens[0], game="fake", seats=3, rules={"target": "3"})
    for seat, token in enumerate(tokens):
        _sit(client, table["id"], seat, token)
    with _socket(client, table["id"], tokens[0]) as session:
        state = receive_until(session, lambda m: m["type"] == "state")
        session.send_json({"type": "resign"})
        state = receive_until(session, lambda m: m["type"] == "state"
                              and m["table"]["resigned"] == [0])
        assert state["table"]["status"] == "playing"
        assert state["table"]["away"] == {"0": "resigned"} or \
            state["table"]["to_move"] != 0
        session.send_json({"type": "back"})
        assert _error(session)["code"] == "resigned"
    summary = client.get(f"/api/tables/{table['id']}").json()
    assert summary["status"] == "playing"  # two people play on
    # seat 0 never waits for its player: whenever it is to move, the stand-in moves
    deadline = time.monotonic() + 10
    while summary["to_move"] == 0 and time.monotonic() < deadline:
        time.sleep(0.02)
        summary = client.get(f"/api/tables/{table['id']}").json()
    assert summary["to_move"] != 0


def test_a_resigned_seat_never_wins_and_ranks_last_in_its_rating() -> None:
    assert ranking_totals([5, 2, 1], [0]) == [0, 2, 1]
    assert ranking_totals([5, 2, 1], []) == [5, 2, 1]


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_resigning_account_is_rated_as_last_whatever_its_total(
        backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    url = f"sqlite:///{tmp_path / 'ratings.db'}"
    if backend == "postgresql":
        server: PostgresServer = request.getfixturevalue("postgres")
        url = server.new_database_url()
    storage = Storage(url)
    try:
        store = RatingStore(storage.engine)
        seats = [{"kind": "human", "name": p, "player_id": p} for p in ("a", "b")]
        row = StoredTable(id="t1", game="konchinka", variant=None, rules={}, seats=seats,
                          seed="s", status="finished", created_at="2026-01-01T00:00:00+00:00",
                          finished_at="2026-01-01T00:10:00+00:00", winner=1, totals=[9, 3])
        changes = store.record_finished(row, True, {"a", "b"}, [0])
        after = {c.player: c.after.rating - c.before.rating for c in changes}
        assert after["a"] < 0 < after["b"]
    finally:
        storage.close()


def test_the_match_ends_when_only_bots_would_remain(client: TestClient) -> None:
    ann, _ = guest(client, "ann")
    table = _table(client, ann, game="fake", seats=3, bots={"1": "random", "2": "random"},
                   rules={"target": "20"})
    _sit(client, table["id"], 0, ann)
    with _socket(client, table["id"], ann) as session:
        session.send_json({"type": "resign"})
        receive_until(session, lambda m: m["type"] == "state"
                      and m["table"]["status"] == "finished")
    summary = _finished(client, table["id"])
    assert summary["winner"] != 0


def test_abort_ends_a_table_where_no_person_moved_with_no_winner_and_it_verifies(
        client: TestClient) -> None:
    ann, _ = guest(client, "ann")
    table = _table(client, ann, game="konchinka", seats=2, bots={"1": "random"})
    _sit(client, table["id"], 0, ann)
    with _socket(client, table["id"], ann) as session:
        receive_until(session, lambda m: m["type"] == "state")
        session.send_json({"type": "abort"})
        state = receive_until(session, lambda m: m["type"] == "state"
                              and m["table"]["status"] == "finished")
    assert state["table"]["ended"]["reason"] == "aborted"
    assert _finished(client, table["id"])["winner"] is None
    _verified(client, table["id"])


def test_abort_is_refused_once_a_person_has_moved(client: TestClient) -> None:
    ann, _ = guest(client, "ann")
    bob, _ = guest(client, "bob")
    table = _table(client, ann, game="konchinka", seats=2)
    _sit(client, table["id"], 0, ann)
    _sit(client, table["id"], 1, bob)
    with ExitStack() as stack:
        sockets = {seat: stack.enter_context(_socket(client, table["id"], token))
                   for seat, token in ((0, ann), (1, bob))}
        summary = client.get(f"/api/tables/{table['id']}").json()
        mover = summary["to_move"]
        session = sockets[mover]
        state = receive_until(session, lambda m: m["type"] == "state" and m["you"] == mover)
        session.send_json({"type": "action", "turn": state["turn"],
                           "action": legal(state)[0]})
        receive_until(session, lambda m: m["type"] == "state"
                      and m["turn"] == state["turn"] + 1)
        session.send_json({"type": "abort"})
        assert _error(session)["code"] == "people_moved"
    assert client.get(f"/api/tables/{table['id']}").json()["status"] == "playing"
