"""The move log marks the moves the stand-in bot played (issue 35, item 4): each such
action is stored with its flag, so the live state's ``last``, ``GET /api/tables/{id}/log``
and the replay's frames say ``"stand_in": true`` for exactly those, after a restart too."""

from __future__ import annotations

from typing import Any

from konkun.server.core.config import Settings
from konkun.server.tables.replayframes import replay_frames

from .conftest import app_of, guest, legal, receive_until, running, sit


def _state_from(ws: Any, turn: int) -> dict[str, Any]:
    """The next state a socket receives at ``turn`` or later."""
    return receive_until(ws, lambda m: m["type"] == "state" and m["turn"] >= turn)


def _play_while_seat_1_is_away(client: Any, moves: int) \
        -> tuple[str, list[str], list[dict[str, Any]]]:
    """A 2-seat clocked table: seat 0 is connected when seat 1 sits (the match starts)
    and never connects; seat 0 plays its moves, the stand-in seat 1's. The table, the
    seats' tokens and every ``last`` seen, in order."""
    _, headers = guest(client, "host")
    answer = client.post("/api/tables", json={"game": "fake", "seats": 2, "move_seconds": 60,
                                               "rules": {"target": 5}}, headers=headers)
    table_id = answer.json()["id"]
    tokens = [sit(client, table_id, 0, "p0")]
    seen: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[0]}") as ws:
        receive_until(ws, lambda m: m["type"] == "state")
        tokens.append(sit(client, table_id, 1, "p1"))
        state = receive_until(ws, lambda m: m["type"] == "state"
                              and m["table"]["status"] == "playing")
        assert state["table"]["away"] == {"1": "absent"}
        while len(seen) < moves:
            if state["table"]["to_move"] == 0:
                ws.send_json({"type": "action", "turn": state["turn"],
                              "action": legal(state)[0]})
            state = _state_from(ws, state["turn"] + 1)
            seen.append(state["last"])
    return table_id, tokens, seen


def test_the_move_log_marks_the_moves_the_stand_in_played(settings: Settings) -> None:
    settings.away_grace = 0.05
    with running(settings) as client:
        table_id, _tokens, seen = _play_while_seat_1_is_away(client, 6)
        assert {last["actor"] for last in seen} == {0, 1}
        for last in seen:  # the live state says who played it
            assert last.get("stand_in", False) is (last["actor"] == 1), last
        entries = client.get(f"/api/tables/{table_id}/log").json()["entries"]
        marked = {e["turn"] for e in entries if e.get("stand_in")}
        assert marked == {e["turn"] for e in entries if e["actor"] == 1}
        assert marked and all("stand_in" not in e for e in entries if e["actor"] == 0)
    with running(settings) as client:  # a restart reads the marks back
        again = client.get(f"/api/tables/{table_id}/log").json()["entries"]
        assert {e["turn"] for e in again if e.get("stand_in")} == marked
        stored = app_of(client).state.lobby.storage.load(table_id)
        frames = replay_frames(stored, "all")["frames"]
        assert {f["turn"] for f in frames if f.get("stand_in")} == marked


def test_a_move_the_person_plays_after_coming_back_is_not_marked(
        settings: Settings) -> None:
    settings.away_grace = 0.05
    with running(settings) as client:
        table_id, tokens, _seen = _play_while_seat_1_is_away(client, 2)
        with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[1]}") as ws1, \
                client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[0]}") as ws0:
            state = receive_until(ws1, lambda m: m["type"] == "state"
                                  and m["table"]["away"] == {})
            turn = state["turn"]
            while state["table"]["to_move"] != 1:  # seat 0 plays up to seat 1's turn
                seat_0 = _state_from(ws0, turn)
                ws0.send_json({"type": "action", "turn": turn, "action": legal(seat_0)[0]})
                turn += 1
                state = _state_from(ws1, turn)
            ws1.send_json({"type": "action", "turn": state["turn"], "action": legal(state)[0]})
            mine = _state_from(ws1, state["turn"] + 1)
        assert mine["last"]["actor"] == 1 and "stand_in" not in mine["last"]
        entries = client.get(f"/api/tables/{table_id}/log").json()["entries"]
        assert "stand_in" not in entries[mine["last"]["turn"] - 1]
        assert any(e.get("stand_in") for e in entries)  # the earlier ones stay marked
