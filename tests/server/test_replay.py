"""Finished games are kept; the replay steps through any game move by move, from any
seat's view, or with all hands open once the game is over."""

from __future__ import annotations

from typing import Any

from konkun.server.core.games import get_game

from .conftest import TestClient, guest, new_table, receive, receive_until


def _finished_game(client: TestClient, game: str = "fake", **fields: Any) -> str:
    table = new_table(client, game=game, bots={"0": "random", "1": "random"}, **fields)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        receive_until(ws, lambda m: m["table"]["status"] == "finished")
    return str(table["id"])


def test_a_running_game_has_no_replay_yet(client: TestClient) -> None:
    table = new_table(client)
    response = client.get(f"/api/games/{table['id']}/replay?seat=all")
    assert response.status_code == 409
    assert response.json()["code"] == "not_finished"


def test_replay_from_one_seat_shows_only_that_seat(client: TestClient) -> None:
    table_id = _finished_game(client)
    replay = client.get(f"/api/games/{table_id}/replay?seat=1").json()
    frames = replay["frames"]
    record = replay["record"]
    assert [f["turn"] for f in frames] == list(range(len(record["actions"]) + 1))
    assert [f["action"] for f in frames[1:]] == record["actions"]
    assert frames[0]["action"] is None
    assert all(f["view"]["deal"]["seat"] == 1 for f in frames)
    assert frames[-1]["view"]["over"] is True


def test_replay_with_all_hands_open_rebuilds_the_game_from_its_record(
        client: TestClient) -> None:
    table_id = _finished_game(client)
    replay = client.get(f"/api/games/{table_id}/replay?seat=all").json()
    record = replay["record"]
    assert isinstance(record["seed"], str)  # the secret seed, shown once the game is over
    adapter = get_game("fake")
    match = adapter.new_match(adapter.check(None, {}, 2), 2, record["seed"])
    for frame in replay["frames"][1:]:
        match.play(match.deal.parse_action(frame["action"]))
        assert frame["views"] == [match.to_json(0), match.to_json(1)]
        assert frame["view"] == match.to_json(None)


def test_replay_of_a_konchinka_game(client: TestClient) -> None:
    table_id = _finished_game(client, "konchinka", rules={"target": "1"})
    replay = client.get(f"/api/tables/{table_id}/replay").json()
    assert replay["frames"][-1]["view"]["over"] is True
    assert all(f["view"]["deal"]["hand"] is None for f in replay["frames"])
    assert replay["record"]["game"] == "konchinka"


def test_bad_replay_requests(client: TestClient) -> None:
    table_id = _finished_game(client)
    for seat in ["7", "-1", "north"]:
        response = client.get(f"/api/games/{table_id}/replay?seat={seat}")
        assert response.status_code == 400
        assert response.json()["code"] == "bad_seat"


def test_a_finished_table_still_opens_for_its_players(client: TestClient) -> None:
    table = new_table(client, bots={"1": "random"})
    token, headers = guest(client, "ann")
    client.post(f"/api/tables/{table['id']}/sit", json={"seat": 0}, headers=headers)
    with client.websocket_connect(f"/ws/tables/{table['id']}?token={token}") as ws:
        while True:
            state = receive_until(ws, lambda m: m["table"]["status"] == "finished"
                                  or m["table"]["to_move"] == 0)
            if state["table"]["status"] == "finished":
                break
            ws.send_json({"type": "action", "turn": state["turn"],
                          "action": state["view"]["deal"]["legal"][0]})
    with client.websocket_connect(f"/ws/tables/{table['id']}?token={token}") as ws:
        state = receive(ws)
        assert state["you"] == 0
        assert state["table"]["status"] == "finished"
