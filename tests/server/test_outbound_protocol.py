"""Every message the server sends on a table's WebSocket validates against its model in
:mod:`konkun.server.core.outbound` (games of both games played to the end through the
server, with chat, pings, refused actions, a resignation and a rematch), and the page's
``static/protocol.js`` is the one generated from those models."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from konkun.server import protocol_js
from konkun.server.core.connection import Connection
from konkun.server.core.outbound import SERVER_MESSAGE

from .conftest import (
    TestClient,
    WebSocketTestSession,
    guest,
    legal,
    new_table,
    receive,
    receive_until,
)

FRAMES = os.environ.get("KONKUN_DUMP_FRAMES")


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every text frame any table connection is sent, in order."""
    frames: list[str] = []
    original = Connection.send_text

    def record(self: Connection, text: str) -> None:
        frames.append(text)
        original(self, text)

    monkeypatch.setattr(Connection, "send_text", record)
    yield frames
    if FRAMES:
        Path(FRAMES).write_text("\n".join(frames), encoding="utf-8")


def _play_to_the_end(client: TestClient, game: str, seats: int,
                     rules: dict[str, str]) -> None:
    """A person (seat 0) plays ``game`` against bots to the end: chat, a ping and a
    refused action on the way, then a rematch vote. The person acts on the latest state
    the socket brought, whatever the message waited for when it came (the bots' moves go
    on meanwhile), and sends again what the server refused for speed (``rate_limited``
    naming its type: the server takes ten messages a second from one socket)."""
    table = new_table(client, game=game, seats=seats, rules=rules,
                      bots={str(n): "random" for n in range(1, seats)})
    token, _headers = guest(client, "ann")
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        ws.send_json({"type": "hello", "token": token})
        receive(ws)
        seen: list[dict[str, Any]] = []
        state = _send(ws, {"type": "sit", "seat": 0}, seen,
                      lambda m: m["type"] == "state" and m["you"] == 0
                      and m["table"]["status"] == "playing")
        seen.clear()  # the states before it
        _send(ws, {"type": "chat", "text": "hello"}, seen, lambda m: m["type"] == "chat")
        _send(ws, {"type": "ping"}, seen, lambda m: m["type"] == "pong")
        _send(ws, {"type": "action", "action": "nonsense", "turn": state["turn"]}, seen,
              lambda m: m["type"] == "error" and m["code"] != "rate_limited")
        state = next((m for m in reversed(seen) if m["type"] == "state"), state)
        while state["table"]["status"] == "playing":
            if state["table"]["to_move"] == 0 and legal(state):
                state = _send(ws, {"type": "action", "action": legal(state)[0],
                                   "turn": state["turn"]}, seen,
                              lambda m: m["type"] == "state", timeout=30)
            else:
                state = receive_until(ws, lambda m: m["type"] == "state", timeout=30)
        _send(ws, {"type": "rematch"}, seen, lambda m: m["type"] == "rematch", timeout=30)


def _send(ws: WebSocketTestSession, message: dict[str, Any], seen: list[dict[str, Any]],
          accept: Callable[[dict[str, Any]], bool], timeout: float = 10.0) -> dict[str, Any]:
    """Send ``message`` and return the first message ``accept`` takes; the others go to
    ``seen``. A refusal for speed naming the message's type is waited out and the message
    sent again (the server answers every refused message but a ping)."""
    while True:
        ws.send_json(message)
        answer = receive_until(ws, lambda m: accept(m) or _refused_for_speed(m, message),
                               timeout, seen)
        if accept(answer):
            return answer
        time.sleep(RATE_WAIT)


RATE_WAIT = 0.2
"""Seconds a refused message waits before it is sent again (the server's bucket refills
ten messages a second)."""


def _refused_for_speed(answer: dict[str, Any], message: dict[str, Any]) -> bool:
    return answer["type"] == "error" and answer["code"] == "rate_limited" \
        and answer.get("input") == message["type"]


def _validated(frames: list[str]) -> list[dict[str, Any]]:
    """The frames decoded, each checked against its declared message type."""
    messages = []
    for frame in frames:
        try:
            SERVER_MESSAGE.validate_json(frame)
        except ValidationError as error:
            pytest.fail(f"undeclared message {frame[:300]}: {error}")
        messages.append(json.loads(frame))
    return messages


def test_every_frame_of_a_konchinka_game_is_a_declared_message(
        client: TestClient, sent: list[str]) -> None:
    _play_to_the_end(client, "konchinka", 2, {"target": "1"})
    messages = _validated(sent)
    assert {m["type"] for m in messages} >= {"state", "chat", "pong", "error", "rematch"}


def test_every_frame_of_a_kunken_game_is_a_declared_message(
        client: TestClient, sent: list[str]) -> None:
    _play_to_the_end(client, "kunken", 2, {"deals": "1"})
    messages = _validated(sent)
    assert {m["type"] for m in messages} >= {"state", "chat", "pong", "error", "rematch"}


def test_the_closed_message_of_a_cancelled_table_is_declared(
        client: TestClient, sent: list[str]) -> None:
    token, headers = guest(client, "bea")
    response = client.post("/api/tables", json={"game": "konchinka", "seats": 2},
                           headers=headers)
    table = response.json()["id"]
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "token": token})
        receive(ws)
        ws.send_json({"type": "cancel"})
        receive_until(ws, lambda m: m["type"] == "closed")
    assert "closed" in {m["type"] for m in _validated(sent)}


def test_a_message_with_an_undeclared_key_is_refused() -> None:
    with pytest.raises(ValidationError):
        SERVER_MESSAGE.validate_python({"type": "pong", "extra": 1})
    with pytest.raises(ValidationError):
        SERVER_MESSAGE.validate_python({"type": "closed", "table": "t", "reason": "bored"})


def test_the_pages_protocol_js_is_generated_from_the_models() -> None:
    assert protocol_js.TARGET.read_text(encoding="utf-8") == protocol_js.generate(), \
        "static/protocol.js is out of date: run python -m konkun.server.protocol_js"
