"""Every accepted action is stored before it is acknowledged; a restarted server brings
every unfinished table back exactly where it was, and its bots resume."""

from __future__ import annotations

import time
from typing import Any

import pytest

from konkun.server.core.config import Settings
from konkun.server.store.storage import Storage

from .conftest import (
    TestClient,
    app_of,
    legal,
    new_table,
    receive,
    receive_until,
    running,
    sit,
)


def test_every_acknowledged_action_is_already_in_the_database(settings: Settings) -> None:
    with running(settings) as client:
        table = new_table(client, bots={"1": "random"}, rules={"target": "2"})
        token = sit(client, table["id"], 0, "ann")
        storage: Storage = app_of(client).state.lobby.storage
        checked = 0
        with client.websocket_connect(f"/ws/tables/{table['id']}?token={token}") as ws:
            while True:
                state = receive_until(ws, lambda m: m["type"] == "state")
                assert storage.count_actions(table["id"]) >= state["turn"]
                checked += 1
                if state["table"]["status"] == "finished":
                    break
                if state["table"]["to_move"] == 0:
                    ws.send_json({"type": "action", "turn": state["turn"],
                                  "action": legal(state)[0]})
        assert checked > 3


def test_an_action_the_database_refuses_is_not_played(settings: Settings,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    with running(settings) as client:
        table = new_table(client)
        tokens = [sit(client, table["id"], s, f"p{s}") for s in range(2)]
        lobby = app_of(client).state.lobby
        before = lobby.tables[table["id"]].match.to_json(0)

        def refuse(*_args: Any) -> None:
            raise OSError("disk full")

        monkeypatch.setattr(lobby.storage, "append_action", refuse)
        with client.websocket_connect(f"/ws/tables/{table['id']}?token={tokens[0]}") as ws:
            state = receive(ws)
            ws.send_json({"type": "action", "turn": 0,
                          "action": legal(state)[0]})
            error = receive_until(ws, lambda m: m["type"] == "error")
            assert error["code"] == "storage"
        assert lobby.tables[table["id"]].turn == 0
        assert lobby.tables[table["id"]].match.to_json(0) == before


def _play_some(client: TestClient, table_id: str, token: str, moves: int) -> dict[str, Any]:
    """Play ``moves`` moves for seat 0 (a random bot answers); the last state seen."""
    with client.websocket_connect(f"/ws/tables/{table_id}?token={token}") as ws:
        played = 0
        while True:
            state = receive_until(ws, lambda m: m["type"] == "state"
                                  and m["table"]["to_move"] == 0)
            if played == moves:
                return state
            ws.send_json({"type": "action", "turn": state["turn"],
                          "action": legal(state)[-1]})
            played += 1


@pytest.mark.parametrize("game", ["fake", "konchinka", "kunken"])
def test_a_restarted_server_resumes_every_unfinished_table_exactly(
        settings: Settings, game: str) -> None:
    with running(settings) as client:
        playing = new_table(client, game=game, bots={"1": "random"},
                            rules={"target": "5"})
        token = sit(client, playing["id"], 0, "ann")
        waiting = new_table(client, game=game, seats=3)
        sit(client, waiting["id"], 2, "bob")
        before = _play_some(client, playing["id"], token, 3)
        lobby = app_of(client).state.lobby
        views = [lobby.tables[playing["id"]].match.to_json(s) for s in (0, 1, None)]
        seed = lobby.tables[playing["id"]].seed
    with running(settings) as client:
        lobby = app_of(client).state.lobby
        table = lobby.tables[playing["id"]]
        assert table.status == "playing"
        assert table.seed == seed
        assert table.turn == before["turn"]
        assert [table.match.to_json(s) for s in (0, 1, None)] == views
        listed = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}
        assert listed[waiting["id"]]["seats"][2]["name"] == "bob"
        assert listed[waiting["id"]]["status"] == "waiting"
        with client.websocket_connect(f"/ws/tables/{playing['id']}?token={token}") as ws:
            state = receive(ws)
            assert state["you"] == 0
            assert state["view"] == views[0]
            start, after = state["turn"], state
            while after["turn"] == start or after["last"]["actor"] != 1:
                if after["table"]["to_move"] == 0:  # a Kunken turn is several actions
                    ws.send_json({"type": "action", "turn": after["turn"],
                                  "action": legal(after)[0]})
                after = receive_until(ws, lambda m, seen=after["turn"]: m["type"] == "state"
                                      and m["turn"] > seen)
            assert after["last"]["actor"] == 1  # the bot resumed and answered


def test_a_bot_to_move_at_shutdown_moves_after_the_restart(settings: Settings) -> None:
    settings.bot_delay = 30.0  # the bot cannot move before the shutdown
    with running(settings) as client:
        table = new_table(client, bots={"1": "random"})
        token = sit(client, table["id"], 0, "ann")
        with client.websocket_connect(f"/ws/tables/{table['id']}?token={token}") as ws:
            state = receive(ws)
            ws.send_json({"type": "action", "turn": 0,
                          "action": legal(state)[0]})
            assert receive_until(ws, lambda m: m["turn"] == 1)["table"]["to_move"] == 1
    settings.bot_delay = 0.0
    with running(settings) as client, \
            client.websocket_connect(f"/ws/tables/{table['id']}?token={token}") as ws:
        assert receive_until(ws, lambda m: m["turn"] == 2)["last"]["actor"] == 1


def test_a_finished_game_is_kept_after_a_restart(settings: Settings) -> None:
    with running(settings) as client:
        table = new_table(client, bots={"0": "random", "1": "random"})
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            receive_until(ws, lambda m: m["type"] == "state"
                          and m["table"]["status"] == "finished")
    with running(settings) as client:
        games = client.get("/api/games?finished=1").json()["games"]
        assert [g["id"] for g in games] == [table["id"]]
        summary = client.get(f"/api/tables/{table['id']}").json()
        assert summary["status"] == "finished"
        assert summary["winner"] in (0, 1)


def test_any_sqlalchemy_url_is_used_and_its_directory_made(settings: Settings,
                                                           tmp_path: Any) -> None:
    settings.db_url = f"sqlite:///{tmp_path}/elsewhere/deeper/games.db"
    with running(settings) as client:
        table = new_table(client)
    assert (tmp_path / "elsewhere" / "deeper" / "games.db").exists()
    with running(settings) as client:
        assert client.get(f"/api/tables/{table['id']}").json()["status"] == "waiting"


def test_reading_a_finished_game_does_not_keep_it_in_memory(client: TestClient) -> None:
    table = new_table(client, bots={"0": "random", "1": "random"})
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        receive_until(ws, lambda m: m["table"]["status"] == "finished")
    tables = app_of(client).state.lobby.tables
    assert table["id"] not in tables
    summary = client.get(f"/api/tables/{table['id']}").json()
    assert summary["status"] == "finished"
    assert summary["turn"] > 0
    assert table["id"] not in tables


def test_a_table_that_cannot_be_replayed_does_not_stop_the_server(
        settings: Settings) -> None:
    with running(settings) as client:
        table = new_table(client)
        tokens = [sit(client, table["id"], s, f"p{s}") for s in range(2)]
        del tokens
        storage: Storage = app_of(client).state.lobby.storage
        storage.append_action(table["id"], 0, 0, "not a card")  # a corrupt record
    with running(settings) as client:
        assert client.get("/healthz").status_code == 200
        assert client.get(f"/api/tables/{table['id']}").json()["code"] == "unknown_table"
        assert new_table(client)["status"] == "waiting"


def test_a_game_whose_finish_was_not_stored_is_finished_when_read_back(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    lobby = app_of(client).state.lobby
    real_update = lobby.storage.update_table

    def refuse_finish(table_id: str, values: dict[str, Any]) -> None:
        if values.get("status") == "finished":
            raise OSError("disk full")
        real_update(table_id, values)

    monkeypatch.setattr(lobby.storage, "update_table", refuse_finish)
    table = new_table(client, bots={"0": "random", "1": "random"})
    deadline = time.monotonic() + 30
    while table["id"] in lobby.tables:  # nobody watches: it leaves memory once over
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert stored_status(lobby.storage, table["id"]) == "playing"
    monkeypatch.setattr(lobby.storage, "update_table", real_update)
    summary = client.get(f"/api/tables/{table['id']}").json()
    assert summary["status"] == "finished"
    assert summary["winner"] in (0, 1)
    assert stored_status(lobby.storage, table["id"]) == "finished"


def stored_status(storage: Storage, table_id: str) -> str:
    row = storage.load(table_id)
    assert row is not None
    return row.status
