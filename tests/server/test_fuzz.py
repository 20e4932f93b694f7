"""Bad input of any shape gets a clear error, changes nothing and never takes the server
down (hypothesis generates the input)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from konkun.server.core.config import Settings

from .conftest import TestClient, app_of, guest, new_table, receive, receive_until, running

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12)

MESSAGE = st.one_of(
    JSON,
    st.fixed_dictionaries({"type": st.sampled_from(["action", "sit", "leave", "ping", "x"])},
                          optional={"action": JSON | st.text(max_size=12),
                                    "turn": JSON, "seat": JSON}))

BODY = st.one_of(
    JSON,
    st.fixed_dictionaries({}, optional={
        "game": st.sampled_from(["fake", "konchinka", "chess"]) | JSON,
        "variant": st.sampled_from(["classic", "novo"]) | JSON,
        "seats": st.integers(-3, 9) | JSON,
        "rules": JSON, "bots": JSON}))

QUIET = hsettings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _settings(settings: Settings) -> Settings:
    settings.rate_burst = settings.rate_per_second = 1e6
    settings.http_burst = settings.http_per_second = 1e6
    settings.max_tables_per_address = settings.max_seats_per_address = 10**6
    return settings


def test_any_websocket_message_is_answered_and_changes_nothing_it_should_not(
        settings: Settings) -> None:
    with running(_settings(settings)) as client:
        tables = app_of(client).state.lobby.tables

        @QUIET
        @given(messages=st.lists(MESSAGE, min_size=1, max_size=8))
        def check(messages: list[Any]) -> None:
            table = new_table(client, bots={"1": "random"})
            token, headers = guest(client, "ann")
            client.post(f"/api/tables/{table['id']}/sit", json={"seat": 0}, headers=headers)
            with client.websocket_connect(f"/ws/tables/{table['id']}?token={token}") as ws:
                first = receive(ws)
                before = tables[table["id"]].match.to_json(None)
                for message in messages:
                    if isinstance(message, dict) and message.get("type") == "action" \
                            and message.get("action") in first["view"]["deal"]["legal"]:
                        continue  # a legal move is allowed to change the state
                    ws.send_text(json.dumps(message))
                    reply = receive_until(ws, lambda m: m["type"] != "state")
                    assert reply["type"] in {"error", "pong"}, reply
                    if reply["type"] == "error":
                        assert reply["code"] != "internal", reply
                        assert reply["message"]
                ws.send_json({"type": "ping"})
                assert receive_until(ws, lambda m: m["type"] != "state") == {"type": "pong"}
            assert tables[table["id"]].match.to_json(None) == before

        check()


def test_any_table_request_gets_json_and_never_a_server_error(settings: Settings) -> None:
    with running(_settings(settings)) as client:

        @hsettings(QUIET, max_examples=30)
        @given(bodies=st.lists(BODY, min_size=1, max_size=6))
        def check(bodies: list[Any]) -> None:
            for body in bodies:
                response = client.post("/api/tables", content=json.dumps(body),
                                       headers={"Content-Type": "application/json"})
                assert response.status_code in {201, 400, 413, 422}, response.text
                data = response.json()
                if response.status_code != 201:
                    assert data["type"] == "error" and data["message"]

        check()
        assert client.get("/healthz").status_code == 200


def test_concurrent_tabs_of_one_seat_play_one_action_per_turn(client: TestClient) -> None:
    table = new_table(client)
    tokens = []
    for seat in range(2):
        token, headers = guest(client, f"p{seat}")
        client.post(f"/api/tables/{table['id']}/sit", json={"seat": seat}, headers=headers)
        tokens.append(token)
    url = f"/ws/tables/{table['id']}?token={tokens[0]}"
    with client.websocket_connect(url) as tab1, client.websocket_connect(url) as tab2:
        state = receive(tab1)
        legal = state["view"]["deal"]["legal"]
        tab1.send_json({"type": "action", "action": legal[0], "turn": 0})
        tab2.send_json({"type": "action", "action": legal[-1], "turn": 0})
        error = receive_until(tab2, lambda m: m["type"] == "error")
        assert error["code"] in {"stale_turn", "not_your_turn"}
    assert app_of(client).state.lobby.tables[table["id"]].turn == 1
