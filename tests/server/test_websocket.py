"""Play over the WebSocket (docs/protocol.md): views, turns, errors, reconnects."""

from __future__ import annotations

from typing import Any

from .conftest import (
    TestClient,
    WebSocketTestSession,
    app_of,
    guest,
    new_table,
    receive,
    receive_until,
    sit,
)


def _started_table(client: TestClient, seats: int = 2) -> tuple[str, list[str]]:
    """A started fake table with a human in every seat; their tokens by seat."""
    table = new_table(client, seats=seats)
    return table["id"], [sit(client, table["id"], seat, f"p{seat}") for seat in range(seats)]


def _connect(client: TestClient, table_id: str, token: str | None = None) \
        -> Any:
    query = f"?token={token}" if token else ""
    return client.websocket_connect(f"/ws/tables/{table_id}{query}")


def _true_hand(client: TestClient, table_id: str, seat: int) -> list[str]:
    match = app_of(client).state.lobby.tables[table_id].match
    return sorted(card.text for card in match.deal.hands[seat])


def test_each_seat_receives_its_own_view_on_connect(client: TestClient) -> None:
    table_id, tokens = _started_table(client)
    with _connect(client, table_id, tokens[0]) as ws0, _connect(client, table_id) as spy:
        first = receive(ws0)
        assert first["type"] == "state"
        assert first["you"] == 0
        assert first["turn"] == 0
        assert sorted(first["view"]["deal"]["hand"]) == _true_hand(client, table_id, 0)
        assert sorted(first["view"]["deal"]["legal"]) == _true_hand(client, table_id, 0)
        watcher = receive(spy)
        assert watcher["you"] is None
        assert "hand" not in watcher["view"]["deal"]


def test_an_accepted_action_reaches_every_connection_with_its_own_view(
        client: TestClient) -> None:
    table_id, tokens = _started_table(client)
    with _connect(client, table_id, tokens[0]) as ws0, \
            _connect(client, table_id, tokens[1]) as ws1:
        state = receive_until(ws0, lambda m: m["type"] == "state"
                              and m["table"]["seats"][1]["connected"])
        card = state["view"]["deal"]["legal"][0]
        ws0.send_json({"type": "action", "action": card, "turn": 0})
        mine = receive_until(ws0, lambda m: m["turn"] == 1)
        theirs = receive_until(ws1, lambda m: m["turn"] == 1)
        assert mine["last"] == {"turn": 1, "actor": 0, "action": card}
        assert theirs["last"] == mine["last"]
        assert theirs["you"] == 1
        assert sorted(theirs["view"]["deal"]["hand"]) == _true_hand(client, table_id, 1)
        assert card not in mine["view"]["deal"]["hand"]
        assert theirs["table"]["to_move"] == 1


def _play_error(ws: WebSocketTestSession, message: dict[str, Any], code: str) -> None:
    ws.send_json(message)
    reply = receive_until(ws, lambda m: m["type"] == "error")
    assert reply["code"] == code, reply
    assert reply["message"]


def test_bad_actions_get_clear_errors_and_change_nothing(client: TestClient) -> None:
    table_id, tokens = _started_table(client)
    lobby = app_of(client).state.lobby
    before = lobby.tables[table_id].match.to_json(None)
    hand0 = _true_hand(client, table_id, 0)
    hand1 = _true_hand(client, table_id, 1)
    not_held = next(c for c in ["As", "Kd", "2c", "7h"] if c not in hand0)
    with _connect(client, table_id, tokens[0]) as ws0, \
            _connect(client, table_id, tokens[1]) as ws1, \
            _connect(client, table_id) as spy:
        receive(ws0)
        receive(ws1)
        receive(spy)
        _play_error(ws1, {"type": "action", "action": hand1[0], "turn": 0}, "not_your_turn")
        _play_error(ws0, {"type": "action", "action": hand0[0], "turn": 5}, "stale_turn")
        _play_error(ws0, {"type": "action", "action": "Zz", "turn": 0}, "invalid_action")
        _play_error(ws0, {"type": "action", "action": not_held, "turn": 0}, "illegal_move")
        _play_error(spy, {"type": "action", "action": hand0[0], "turn": 0}, "not_seated")
        _play_error(ws0, {"type": "action", "action": 5, "turn": 0}, "bad_request")
        _play_error(ws0, {"type": "action", "action": hand0[0]}, "bad_request")
        _play_error(ws0, {"type": "action", "action": hand0[0], "turn": "0"}, "bad_request")
        _play_error(ws0, {"type": "dance"}, "bad_request")
        _play_error(ws0, {"type": "sit", "seat": 1}, "not_waiting")
        for raw in ["not json", "[1,2]", "null", '"text"', "{" * 3000]:
            ws0.send_text(raw)
            assert receive_until(ws0, lambda m: m["type"] == "error")["code"] \
                in {"bad_request", "too_large"}
        ws0.send_bytes(b"\x00\x01")
        assert receive_until(ws0, lambda m: m["type"] == "error")["code"] == "bad_request"
        ws0.send_text('{"type": "ping", "pad": "' + "x" * 5000 + '"}')
        assert receive_until(ws0, lambda m: m["type"] == "error")["code"] == "too_large"
        ws0.send_json({"type": "ping"})
        assert receive(ws0) == {"type": "pong"}
    table = lobby.tables[table_id]
    assert table.turn == 0
    assert table.match.to_json(None) == before
    assert _true_hand(client, table_id, 0) == hand0


def test_unknown_table_and_bad_token_are_refused_on_the_socket(client: TestClient) -> None:
    with _connect(client, "nosuchtable") as ws:
        assert receive(ws)["code"] == "unknown_table"
    table_id, _ = _started_table(client)
    with _connect(client, table_id, "forged.token") as ws:
        assert receive(ws)["code"] == "unauthorized"


def test_sit_over_the_socket_starts_the_game(client: TestClient) -> None:
    table = new_table(client)
    token0, _ = guest(client, "ann")
    token1, _ = guest(client, "bob")
    with _connect(client, table["id"], token0) as ws0, \
            _connect(client, table["id"], token1) as ws1, \
            _connect(client, table["id"]) as spy:
        assert receive(ws0)["view"] is None
        _play_error(spy, {"type": "sit", "seat": 0}, "unauthorized")
        ws0.send_json({"type": "sit", "seat": 0})
        seated = receive_until(ws0, lambda m: m["you"] == 0)
        assert seated["table"]["status"] == "waiting"
        _play_error(ws0, {"type": "action", "action": "As", "turn": 0}, "not_started")
        ws1.send_json({"type": "sit", "seat": 1})
        started = receive_until(ws0, lambda m: m["table"]["status"] == "playing")
        assert started["view"]["deal"]["hand"]
        assert receive_until(spy, lambda m: m["table"]["status"] == "playing")["you"] is None


def test_a_closed_tab_reconnects_to_its_seat(client: TestClient) -> None:
    table_id, tokens = _started_table(client)
    with _connect(client, table_id, tokens[0]) as ws0:
        state = receive(ws0)
        card = state["view"]["deal"]["legal"][0]
        ws0.send_json({"type": "action", "action": card, "turn": 0})
        receive_until(ws0, lambda m: m["turn"] == 1)
    with _connect(client, table_id, tokens[0]) as again:
        state = receive(again)
        assert state["you"] == 0
        assert state["turn"] == 1
        assert sorted(state["view"]["deal"]["hand"]) == _true_hand(client, table_id, 0)


def test_two_tabs_of_one_player_both_show_the_seat(client: TestClient) -> None:
    table_id, tokens = _started_table(client)
    with _connect(client, table_id, tokens[1]) as tab1, \
            _connect(client, table_id, tokens[1]) as tab2:
        assert receive(tab1)["you"] == 1
        assert receive(tab2)["you"] == 1


def test_a_flood_of_messages_is_rate_limited_and_the_server_lives(client: TestClient) -> None:
    table_id, tokens = _started_table(client)
    with _connect(client, table_id, tokens[0]) as ws:
        receive(ws)
        for _ in range(300):
            ws.send_json({"type": "ping"})
        replies: list[dict[str, Any]] = []
        while True:
            try:
                replies.append(receive(ws, 0.5))
            except TimeoutError:
                break
        pongs = sum(1 for r in replies if r["type"] == "pong")
        limited = [r for r in replies if r.get("code") == "rate_limited"]
        assert limited
        assert pongs < 300
    with _connect(client, table_id, tokens[0]) as ws:
        assert receive(ws)["type"] == "state"
        ws.send_json({"type": "ping"})
        assert receive(ws) == {"type": "pong"}


def test_every_refused_action_of_a_burst_gets_an_answer(client: TestClient) -> None:
    """40 actions sent at once: each gets an answer (its own error, or ``rate_limited``
    naming the refused ``action``); none is dropped silently."""
    table_id, tokens = _started_table(client)
    hand0 = _true_hand(client, table_id, 0)
    with _connect(client, table_id, tokens[0]) as ws:
        receive(ws)
        for _ in range(40):
            ws.send_json({"type": "action", "action": hand0[0], "turn": 7})
        replies: list[dict[str, Any]] = []
        while True:
            try:
                replies.append(receive(ws, 0.5))
            except TimeoutError:
                break
    errors = [r for r in replies if r["type"] == "error"]
    assert len(errors) == 40
    refused = [r for r in errors if r["code"] == "rate_limited"]
    assert refused
    assert all(r["input"] == "action" for r in refused)
    assert all(r["code"] == "stale_turn" for r in errors if r not in refused)


def test_a_whole_game_against_a_bot_finishes_and_is_kept(client: TestClient) -> None:
    table = new_table(client, bots={"1": "random"})
    token, headers = guest(client, "ann")
    client.post(f"/api/tables/{table['id']}/sit", json={"seat": 0}, headers=headers)
    with _connect(client, table["id"], token) as ws:
        while True:
            state = receive_until(ws, lambda m: m["type"] == "state" and (
                m["table"]["status"] == "finished" or m["table"]["to_move"] == 0))
            if state["table"]["status"] == "finished":
                break
            card = state["view"]["deal"]["legal"][0]
            ws.send_json({"type": "action", "action": card, "turn": state["turn"]})
        assert state["table"]["winner"] in (0, 1)
        assert max(state["table"]["totals"]) >= 2
        _play_error(ws, {"type": "action", "action": "As", "turn": state["turn"]},
                    "game_over")
    finished = client.get("/api/games?finished=1").json()["games"]
    assert [g["id"] for g in finished] == [table["id"]]
    assert client.get("/api/tables").json()["tables"] == []


def test_a_hint_is_a_legal_move_for_the_seat_to_act_only(client: TestClient) -> None:
    table_id, tokens = _started_table(client)
    ann = {"Authorization": f"Bearer {tokens[0]}"}
    bob = {"Authorization": f"Bearer {tokens[1]}"}
    hint = client.get(f"/api/tables/{table_id}/hint", headers=ann)
    assert hint.status_code == 200, hint.text
    assert hint.json()["action"] in _true_hand(client, table_id, 0)
    assert client.get(f"/api/tables/{table_id}/hint", headers=bob).json()["code"] \
        == "not_your_turn"
    assert client.get(f"/api/tables/{table_id}/hint").status_code == 401


def test_a_kunken_hint_carries_the_solvers_advice_for_the_own_hand_only(
        client: TestClient) -> None:
    table = new_table(client, game="kunken", seats=2)
    tokens = [sit(client, table["id"], seat, f"k{seat}") for seat in range(2)]
    match = app_of(client).state.lobby.tables[table["id"]].match
    seat = match.deal.to_move
    headers = {"Authorization": f"Bearer {tokens[seat]}"}
    answer = client.get(f"/api/tables/{table['id']}/hint", headers=headers).json()
    own = match.deal.observe(seat).to_json()
    advice = answer["solver"]
    laid = [card for meld in advice["melds"] for card in meld]
    hand = list(own["hand"])
    for card in laid:  # the arrangement uses the player's own cards, each at most once
        hand.remove(card.split("=")[0])
    assert advice["points"] >= 0
    assert all(take["card"] == own["bank"][take["position"]] for take in advice["takes"])
