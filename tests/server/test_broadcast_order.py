"""A table's broadcast queues the seated players' states before any spectator's, so a
crowd of spectators (64 anonymous sockets, say) never delays the players' own states."""

from __future__ import annotations

import json

import pytest

from konkun.server.core.connection import Connection

from .conftest import TestClient, legal, new_table, receive_until, sit


def test_seated_players_get_a_move_before_every_spectator(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    table = new_table(client)
    tokens = [sit(client, table["id"], seat, f"p{seat}") for seat in range(2)]
    url = f"/ws/tables/{table['id']}"
    queued: list[str | None] = []
    send_text = Connection.send_text

    def recording(self: Connection, text: str) -> None:
        if json.loads(text).get("turn") == 1:
            queued.append(self.player_id)
        send_text(self, text)

    spectators = [client.websocket_connect(url) for _ in range(6)]
    for spectator in spectators:
        spectator.__enter__()
    try:
        with client.websocket_connect(url) as first, client.websocket_connect(url) as second:
            for ws, token in ((first, tokens[0]), (second, tokens[1])):
                ws.send_json({"type": "hello", "token": token})
            state = receive_until(first, lambda m: m["type"] == "state" and m["you"] == 0)
            receive_until(second, lambda m: m["type"] == "state" and m["you"] == 1)
            monkeypatch.setattr(Connection, "send_text", recording)
            first.send_json({"type": "action", "turn": 0, "action": legal(state)[0]})
            receive_until(first, lambda m: m["type"] == "state" and m["turn"] == 1)
            receive_until(second, lambda m: m["type"] == "state" and m["turn"] == 1)
    finally:
        for spectator in spectators:
            spectator.__exit__(None, None, None)
    first_broadcast = queued[:8]  # later ones: the sockets closing
    assert None not in first_broadcast[:2]
    assert first_broadcast[2:] == [None] * 6
