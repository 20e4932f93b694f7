"""Issue 13, bad input: input that cannot be sent back (NaN, lone surrogates) is a
``bad_request``, never a 500 or a dropped connection; a database outage is logged once."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from konkun.server.core.config import Settings

from .conftest import TestClient, app_of, guest, legal, new_table, receive, running, sit

JSON_HEADERS = {"Content-Type": "application/json"}


def _post(client: TestClient, path: str, body: bytes, headers: dict[str, str] | None = None) \
        -> Any:
    return client.post(path, content=body, headers=JSON_HEADERS | (headers or {}))


def test_a_bare_nan_body_is_a_bad_request(client: TestClient) -> None:
    table = new_table(client)
    _, headers = guest(client, "ann")
    for path in ["/api/guest", "/api/tables", f"/api/tables/{table['id']}/sit"]:
        for body in [b"NaN", b"-Infinity", b'{"seat": NaN}']:
            response = _post(client, path, body, headers)
            assert response.status_code == 400, (path, body, response.text)
            assert response.json()["code"] == "bad_request"


def test_a_nan_nickname_is_a_bad_request(client: TestClient) -> None:
    response = _post(client, "/api/guest", b'{"nickname": NaN}')
    assert response.status_code == 400
    assert response.json()["code"] == "bad_request"


def test_a_lone_surrogate_nickname_is_a_bad_request(client: TestClient) -> None:
    for body in [b'{"nickname": "\\ud800"}', b'{"nickname": "ann\\udfff"}',
                 b'{"\\ud800": 1, "nickname": "ann"}']:
        response = _post(client, "/api/guest", body)
        assert response.status_code == 400, body
        assert response.json()["code"] == "bad_request"
        response.json()  # the answer itself is valid UTF-8 JSON


def test_a_lone_surrogate_in_a_table_body_is_a_bad_request(client: TestClient) -> None:
    body = b'{"game": "fake", "seats": 2, "rules": {"target": "\\ud800"}}'
    response = _post(client, "/api/tables", body)
    assert response.status_code == 400
    assert response.json()["code"] == "bad_request"


def test_a_lone_surrogate_action_is_a_bad_request_and_the_connection_stays(
        client: TestClient) -> None:
    table = new_table(client)
    token = sit(client, table["id"], 0, "ann")
    sit(client, table["id"], 1, "bob")
    with client.websocket_connect(f"/ws/tables/{table['id']}?token={token}") as ws:
        state = receive(ws)
        for text in ['{"type": "action", "action": "\\ud800", "turn": 0}',
                     '{"type": "action", "action": "x", "turn": NaN}',
                     '{"type": "\\udc00"}']:
            ws.send_text(text)
            reply = receive(ws)
            assert reply["type"] == "error" and reply["code"] == "bad_request", reply
        ws.send_json({"type": "ping"})
        assert receive(ws) == {"type": "pong"}
        ws.send_json({"type": "action", "turn": 0, "action": legal(state)[0]})
        assert receive(ws)["turn"] == 1


def test_a_database_outage_is_logged_once_then_its_recovery(
        settings: Settings, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    with running(settings) as client:
        table = new_table(client)
        tokens = [sit(client, table["id"], s, f"p{s}") for s in range(2)]
        storage = app_of(client).state.lobby.storage
        working = storage.append_action

        def refuse(*_args: Any) -> None:
            raise OSError("connection refused")

        with client.websocket_connect(f"/ws/tables/{table['id']}?token={tokens[0]}") as ws:
            state = receive(ws)
            caplog.clear()
            monkeypatch.setattr(storage, "append_action", refuse)
            for _ in range(10):
                ws.send_json({"type": "action", "turn": 0, "action": legal(state)[0]})
                assert receive(ws)["code"] == "storage"
            refused = client.get("/api/tables/nosuchtable0")  # reads fail too, quietly
            assert refused.status_code in (404, 503)
            monkeypatch.setattr(storage, "append_action", working)
            ws.send_json({"type": "action", "turn": 0, "action": legal(state)[0]})
            assert receive(ws)["turn"] == 1
        records = [r for r in caplog.records if r.name.startswith("konkun")]
        assert [r.levelno for r in records] == [logging.ERROR, logging.WARNING], \
            [r.getMessage() for r in records]
        assert "unavailable" in records[0].getMessage()
        assert "again" in records[1].getMessage()
