"""Chat at the table (docs/protocol.md, issue 12): every connection receives each line
with its sender's seat and name; lines are checked, rate limited, kept and replayed."""

from __future__ import annotations

from typing import Any

import pytest

from konkun.server.features import chat
from konkun.server.features.chat import CHAT_BURST, MAX_CHAT

from .conftest import TestClient, guest, new_table, receive_until, sit


def _socket(client: TestClient, table_id: str, token: str | None = None) -> Any:
    query = f"?token={token}" if token else ""
    return client.websocket_connect(f"/ws/tables/{table_id}{query}")


def _chat(ws: Any) -> dict[str, Any]:
    return receive_until(ws, lambda m: m["type"] == "chat")


def _error(ws: Any) -> str:
    return str(receive_until(ws, lambda m: m["type"] == "error")["code"])


def test_every_connection_receives_a_line_with_its_senders_seat_and_name(
        client: TestClient) -> None:
    table = new_table(client)
    ann, bob = sit(client, table["id"], 0, "ann"), sit(client, table["id"], 1, "bob")
    watcher, _ = guest(client, "vera")
    with _socket(client, table["id"], ann) as ws0, _socket(client, table["id"], bob) as ws1, \
            _socket(client, table["id"], watcher) as ws2, _socket(client, table["id"]) as ws3:
        ws0.send_json({"type": "chat", "text": "  hello\n  <b>all</b>  "})
        lines = [_chat(ws) for ws in (ws0, ws1, ws2, ws3)]
        assert all(line == lines[0] for line in lines)
        assert (lines[0]["seat"], lines[0]["name"], lines[0]["spectator"], lines[0]["text"]) \
            == (0, "ann", False, "hello <b>all</b>")
        ws2.send_json({"type": "chat", "text": "good luck"})
        line = _chat(ws1)
        assert (line["seat"], line["name"], line["spectator"]) == (None, "vera", True)
        ws3.send_json({"type": "chat", "text": "hi"})
        assert _error(ws3) == "unauthorized"


def test_empty_long_and_control_lines_are_refused_and_a_flood_is_slowed(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    # One token an hour, so a slow machine cannot refill the burst while the test sends it.
    monkeypatch.setattr(chat, "CHAT_EVERY", 3600.0)
    table = new_table(client)
    ann = sit(client, table["id"], 0, "ann")
    with _socket(client, table["id"], ann) as ws:
        for text, code in (("   ", "chat_empty"), ("x" * (MAX_CHAT + 1), "chat_too_long"),
                           ("a\u0007b", "bad_request"), (7, "bad_request")):
            ws.send_json({"type": "chat", "text": text})
            assert _error(ws) == code, text
        ws.send_json({"type": "chat", "text": "\U0001F44D\U0001F3FD" * MAX_CHAT})
        assert _chat(ws)["text"] == "\U0001F44D\U0001F3FD" * MAX_CHAT
        for n in range(CHAT_BURST):
            ws.send_json({"type": "chat", "text": f"line {n}"})
        received = [_chat(ws)["text"] for _ in range(CHAT_BURST - 1)]
        assert received == [f"line {n}" for n in range(CHAT_BURST - 1)]
        assert _error(ws) == "rate_limited"


def test_the_chat_is_kept_with_the_game_and_shown_in_its_replay(client: TestClient) -> None:
    table = new_table(client, bots={"1": "random"}, rules={"target": 1})
    ann = sit(client, table["id"], 0, "ann")
    with _socket(client, table["id"], ann) as ws:
        state = receive_until(ws, lambda m: m["type"] == "state")
        ws.send_json({"type": "chat", "text": "first"})
        _chat(ws)
        while state["table"]["status"] != "finished":
            if state["table"]["to_move"] == 0:
                ws.send_json({"type": "action", "turn": state["turn"],
                              "action": state["view"]["deal"]["legal"][0]})
            state = receive_until(ws, lambda m, t=state["turn"]: m["type"] == "state"
                                  and m["turn"] > t)
        ws.send_json({"type": "chat", "text": "gg"})
        assert _error(ws) == "chat_closed"  # a finished game's replay stays as it was
    kept = client.get(f"/api/tables/{table['id']}/chat").json()["messages"]
    assert [m["text"] for m in kept] == ["first"]
    assert kept[0]["turn"] <= 1
    replay = client.get(f"/api/games/{table['id']}/replay").json()
    assert [m["text"] for m in replay["chat"]] == ["first"]
    assert client.get("/api/tables/nosuch/chat").json()["code"] == "unknown_table"


def test_a_tables_chat_is_capped(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past MAX_TABLE_CHAT messages a table's chat refuses more (``chat_full``)."""
    monkeypatch.setattr(chat, "MAX_TABLE_CHAT", 3)
    table = new_table(client)
    ann, bob = sit(client, table["id"], 0, "ann"), sit(client, table["id"], 1, "bob")
    with _socket(client, table["id"], ann) as ws0, _socket(client, table["id"], bob) as ws1:
        for n in range(3):
            ws0.send_json({"type": "chat", "text": f"line {n}"})
            assert _chat(ws0)["text"] == f"line {n}"
        ws1.send_json({"type": "chat", "text": "one more"})
        assert _error(ws1) == "chat_full"
    kept = client.get(f"/api/tables/{table['id']}/chat").json()["messages"]
    assert [m["text"] for m in kept] == ["line 0", "line 1", "line 2"]
