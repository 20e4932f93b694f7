"""A table's life (docs/protocol.md, issue 12): cancel, expiry, idempotent creation, the
table options, and the rematch that moves every connection to a new table."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from konkun.server.core.config import Settings
from konkun.server.store.storage import Storage

from .conftest import (
    TestClient,
    app_of,
    guest,
    new_table,
    receive_until,
    running,
    sit,
)
from .postgres import PostgresServer


def _connect(client: TestClient, table_id: str, token: str | None = None) -> Any:
    query = f"?token={token}" if token else ""
    return client.websocket_connect(f"/ws/tables/{table_id}{query}")


def _create(client: TestClient, headers: dict[str, str], **fields: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json={"game": "fake", "seats": 2} | fields,
                           headers=headers)
    assert response.status_code == 201, response.text
    summary: dict[str, Any] = response.json()
    return summary


def test_the_creator_cancels_a_waiting_table_and_every_connection_is_told(
        client: TestClient) -> None:
    token, headers = guest(client, "ann")
    _, other = guest(client, "bob")
    table = _create(client, headers)
    client.post(f"/api/tables/{table['id']}/sit", json={"seat": 0}, headers=headers)
    assert client.get(f"/api/tables/{table['id']}").json()["creator_seat"] == 0
    refused = client.post(f"/api/tables/{table['id']}/cancel", headers=other)
    assert refused.status_code == 403
    assert refused.json()["code"] == "not_creator"
    with _connect(client, table["id"]) as watcher:
        receive_until(watcher, lambda m: m["type"] == "state")
        with _connect(client, table["id"], token) as ws:
            ws.send_json({"type": "cancel"})
            closed = receive_until(watcher, lambda m: m["type"] == "closed")
    assert closed == {"type": "closed", "table": table["id"], "reason": "cancelled"}
    assert client.get(f"/api/tables/{table['id']}").json()["code"] == "unknown_table"
    assert client.get("/api/tables").json()["tables"] == []


def test_a_started_table_cannot_be_cancelled(client: TestClient) -> None:
    _, headers = guest(client, "ann")
    table = _create(client, headers, bots={"1": "random"})
    client.post(f"/api/tables/{table['id']}/sit", json={"seat": 0}, headers=headers)
    answer = client.post(f"/api/tables/{table['id']}/cancel", headers=headers)
    assert answer.json()["code"] == "not_waiting"


def test_a_waiting_table_nobody_joins_expires(settings: Settings) -> None:
    settings.waiting_table_seconds = 0.5
    with running(settings) as client:
        table = new_table(client)
        started = new_table(client, bots={"0": "random", "1": "random"})
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if client.get(f"/api/tables/{table['id']}").status_code == 404:
                break
            time.sleep(0.1)
        assert client.get(f"/api/tables/{table['id']}").json()["code"] == "unknown_table"
        assert client.get(f"/api/tables/{started['id']}").status_code == 200


def test_creating_twice_with_one_request_id_makes_one_table(client: TestClient) -> None:
    _, headers = guest(client, "ann")
    first = _create(client, headers, request_id="click-1")
    again = _create(client, headers, request_id="click-1")
    other = _create(client, headers, request_id="click-2")
    assert again["id"] == first["id"]
    assert other["id"] != first["id"]
    assert len(client.get("/api/tables").json()["tables"]) == 2


def test_table_options_are_checked_shown_and_kept_over_a_restart(settings: Settings) -> None:
    with running(settings) as client:
        _, headers = guest(client, "ann")
        for bad in (-1, 3601, "30", True):
            answer = client.post("/api/tables", json={"game": "fake", "seats": 2,
                                                      "move_seconds": bad}, headers=headers)
            assert answer.json()["code"] == "invalid_rule", bad
        table = _create(client, headers, move_seconds=30, hints=False)
        assert (table["move_seconds"], table["hints"]) == (30, False)
        assert _create(client, headers)["move_seconds"] == 0
    with running(settings) as client:
        again = client.get(f"/api/tables/{table['id']}").json()
        assert (again["move_seconds"], again["hints"]) == (30, False)


def test_a_table_without_hints_refuses_them(client: TestClient) -> None:
    _, headers = guest(client, "ann")
    table = _create(client, headers, hints=False, bots={"1": "random"})
    client.post(f"/api/tables/{table['id']}/sit", json={"seat": 0}, headers=headers)
    lobby = app_of(client).state.lobby
    deadline = time.monotonic() + 5
    while lobby.tables[table["id"]].to_move != 0 and time.monotonic() < deadline:
        time.sleep(0.02)
    answer = client.get(f"/api/tables/{table['id']}/hint", headers=headers)
    assert answer.json()["code"] == "hints_off"


def test_a_rematch_starts_when_every_human_accepts_and_moves_every_connection(
        client: TestClient) -> None:
    table = new_table(client, seats=3, bots={"2": "random"}, rules={"target": 1})
    ann, bob = (sit(client, table["id"], seat, name) for seat, name in ((0, "ann"), (1, "bob")))
    with _connect(client, table["id"], ann) as ws0, _connect(client, table["id"], bob) as ws1, \
            _connect(client, table["id"]) as watcher:
        first = receive_until(ws0, lambda m: m["type"] == "state")
        sockets = {0: ws0, 1: ws1}
        state = first
        while state["table"]["status"] != "finished":
            mover = state["table"]["to_move"]
            if mover in sockets:
                mine = receive_until(sockets[mover], lambda m, t=state["turn"]:
                                     m["type"] == "state" and m["turn"] == t)
                sockets[mover].send_json({"type": "action", "turn": mine["turn"],
                                          "action": mine["view"]["deal"]["legal"][0]})
            state = receive_until(watcher, lambda m, t=state["turn"]:
                                  m["type"] == "state" and m["turn"] > t)
        watcher.send_json({"type": "rematch"})
        assert receive_until(watcher, lambda m: m["type"] == "error")["code"] == "not_seated"
        ws0.send_json({"type": "rematch"})
        offered = receive_until(ws1, lambda m: m["type"] == "state"
                                and m["table"]["rematch"]["votes"] == [0])
        assert offered["table"]["rematch"]["table"] is None
        ws1.send_json({"type": "rematch"})
        moved = [receive_until(ws, lambda m: m["type"] == "rematch")
                 for ws in (ws0, ws1, watcher)]
    new_id = moved[0]["table"]
    assert all(m == {"type": "rematch", "table": new_id, "link": f"/t/{new_id}"}
               for m in moved)
    old = client.get(f"/api/tables/{table['id']}").json()
    new = client.get(f"/api/tables/{new_id}").json()
    assert new["status"] == "playing"
    assert [(s["kind"], s["name"]) for s in new["seats"]] == \
        [(s["kind"], s["name"]) for s in old["seats"]]
    assert (new["game"], new["variant"], new["rules"]) == (old["game"], old["variant"],
                                                          old["rules"])
    assert new["rematch"]["of"] == table["id"]
    with _connect(client, new_id, ann) as ws:
        assert receive_until(ws, lambda m: m["type"] == "state")["you"] == 0


def _wait_finished(client: TestClient, table_id: str) -> None:
    """Wait (10 s at most) until an all-bot table has played to its end."""
    deadline = time.monotonic() + 10
    while client.get(f"/api/tables/{table_id}").json()["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.05)


def _finished_and_out_of_memory(client: TestClient, table_id: str) -> None:
    """Wait (10 s at most) until an all-bot table has played to its end and its last move,
    done, has let it leave memory (nobody watches it): a test that then reads it back holds
    an object nothing else lets go of."""
    _wait_finished(client, table_id)
    tables = app_of(client).state.lobby.tables
    deadline = time.monotonic() + 10
    while table_id in tables:
        assert time.monotonic() < deadline
        time.sleep(0.01)


def test_the_move_log_names_every_action_with_its_seat_and_deal(client: TestClient) -> None:
    table = new_table(client, bots={"0": "random", "1": "random"}, rules={"target": 2})
    _wait_finished(client, table["id"])
    summary = client.get(f"/api/tables/{table['id']}").json()
    entries = client.get(f"/api/tables/{table['id']}/log").json()["entries"]
    assert [e["turn"] for e in entries] == list(range(1, summary["turn"] + 1))
    # high card: 2 seats play their 3 cards each, so every deal is 6 actions
    assert [e["deal"] for e in entries] == [1 + k // 6 for k in range(len(entries))]
    replay = client.get(f"/api/games/{table['id']}/replay").json()
    assert [(e["actor"], e["action"]) for e in entries] == \
        [(f["actor"], f["action"]) for f in replay["frames"][1:]]
    waiting = new_table(client)
    assert client.get(f"/api/tables/{waiting['id']}/log").json() == {"entries": []}


def test_a_finished_deal_is_shown_with_every_seats_end_and_points(client: TestClient) -> None:
    table = new_table(client, bots={"0": "random", "1": "random"}, rules={"target": 2})
    _wait_finished(client, table["id"])
    first = client.get(f"/api/tables/{table['id']}/deals/1").json()
    assert (first["deal"], first["turn"]) == (1, 6)  # 2 seats play 3 cards each
    # high card: the seat that played the highest card scores 1, the other 0
    assert sorted(first["points"]) == [0, 1]
    assert [v["seat"] for v in first["views"]] == [0, 1]
    missing = client.get(f"/api/tables/{table['id']}/deals/99")
    assert missing.json()["code"] == "not_finished"


def test_a_connection_to_a_finished_table_that_left_memory_meanwhile_still_hears_it(
        client: TestClient, monkeypatch: Any) -> None:
    # Seen with two processes: a player's socket came to a finished table while a read-back
    # of the other process's change held its lock; the read-back found nobody connected and
    # let the table leave memory, the socket was attached to the table let go, and it never
    # heard the rematch the other process then made.
    table = new_table(client, bots={"0": "random", "1": "random"}, rules={"target": 1})
    _finished_and_out_of_memory(client, table["id"])
    lobby = app_of(client).state.lobby
    assert client.portal is not None
    held = client.portal.call(lobby.get_table, table["id"], True)

    async def read_back_that_lets_it_go(waited_for: Any) -> Any:
        lobby.tables.pop(waited_for.id, None)  # finished, nobody connected: it leaves memory
        return waited_for

    monkeypatch.setattr(lobby.replication, "up_to_date", read_back_that_lets_it_go)
    with _connect(client, table["id"]) as watcher:
        receive_until(watcher, lambda m: m["type"] == "state")
        kept = lobby.tables.get(table["id"])
        assert kept is not None and kept is not held  # read back again, and kept
        assert len(kept.connections) == 1


def test_a_read_back_lets_go_only_the_table_object_it_read(
        settings: Settings, postgres: PostgresServer, monkeypatch: pytest.MonkeyPatch) -> None:
    # Seen with two processes: a read-back of the other process's change waited for a
    # finished table's lock; meanwhile its last connection left (it left memory) and a new
    # one read it back as a new object. The read-back, done, found its own object unwatched
    # and let go of the table under that id: the new connection's.
    settings = settings.model_copy(update={"db_url": postgres.new_database_url()})
    with running(settings) as client:
        table = new_table(client, bots={"0": "random", "1": "random"}, rules={"target": 1})
        _finished_and_out_of_memory(client, table["id"])
        lobby = app_of(client).state.lobby
        replication = lobby.replication
        portal = client.portal
        assert portal is not None
        stale = portal.call(lobby.get_table, table["id"], True)

        async def found_a_change(read: Any) -> bool:
            read.behind, read.unshown = False, True
            return True

        monkeypatch.setattr(replication, "catch_up", found_a_change)

        async def read_back_waits_while_the_table_leaves_memory() -> None:
            await stale.lock.acquire()
            replication._want_refresh(table["id"])
            for _ in range(3):
                await asyncio.sleep(0)  # the read-back starts and waits for the lock
            del lobby.tables[table["id"]]  # its last connection left

        portal.call(read_back_waits_while_the_table_leaves_memory)
        with _connect(client, table["id"]) as watcher:
            receive_until(watcher, lambda m: m["type"] == "state")
            fresh = lobby.tables[table["id"]]
            assert fresh is not stale and len(fresh.connections) == 1
            portal.call(stale.lock.release)
            deadline = time.monotonic() + 10
            while table["id"] in replication._refreshing:
                assert time.monotonic() < deadline
                time.sleep(0.01)
            assert lobby.tables.get(table["id"]) is fresh


def test_a_change_read_back_under_the_lock_by_another_part_is_still_shown(
        settings: Settings, postgres: PostgresServer) -> None:
    # Seen with two processes after a database restart (leases lost, taken again): the
    # lease claim read the other process's move back under the table's lock and showed it
    # to nobody; the read-back the move's announcement asked for then found nothing new,
    # so this process's players never saw the move.
    settings = settings.model_copy(update={"db_url": postgres.new_database_url()})
    with running(settings) as client:
        table_id = new_table(client)["id"]
        tokens = [sit(client, table_id, seat, name) for seat, name in enumerate(("ann", "bob"))]
        lobby = app_of(client).state.lobby
        replication = lobby.replication
        portal = client.portal
        assert portal is not None
        with _connect(client, table_id, tokens[0]) as ann:
            receive_until(ann, lambda m: m["type"] == "state"
                          and m["table"]["status"] == "playing")
            table = lobby.tables[table_id]
            assert table.match is not None and table.to_move is not None
            deal = table.match.deal
            move = deal.format_action(deal.legal_actions()[0])  # whoever's turn it is
            other_process = Storage(settings.database_url())
            other_process.origin = "another-process"
            try:
                portal.call(table.lock.acquire)
                portal.start_task_soon(replication._claim, [table_id])  # waits for the lock
                other_process.append_action(table_id, 0, table.to_move, move)
                deadline = time.monotonic() + 10
                while table_id not in replication._refreshing:  # the announcement came
                    assert time.monotonic() < deadline, "the move was never announced"
                    time.sleep(0.01)
                portal.call(table.lock.release)  # the claim reads the move back first
                moved = receive_until(ann, lambda m: m["type"] == "state" and m["turn"] > 0,
                                      timeout=10)
            finally:
                other_process.close()
            assert moved["turn"] == 1
