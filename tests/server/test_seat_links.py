"""Seat links and session tokens (``docs/protocol.md``, "Seat links"; ``docs/server.md``,
"Accounts and sessions"): a seat link's token plays its seat at its table and opens
nothing else (not the account, not another table), stays a seat token when renewed and
ends with its session; tokens of the first release have expired; tokens signed by a
process whose clock is a little ahead verify."""

from __future__ import annotations

import time
import warnings
from typing import Any

import pytest
from itsdangerous import URLSafeSerializer

from konkun.server.core.auth import CLOCK_SKEW, TokenSigner
from konkun.server.core.config import Settings
from konkun.server.core.protocol import ProtocolError

from .conftest import guest, new_table, receive_until, running

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

PASSWORD = "correct horse battery"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def seated_account(client: TestClient) -> tuple[str, str, str]:
    """An account holder seated at seat 0 of a new table: (token, player id, table id)."""
    token, headers = guest(client, "Anna")
    claimed = client.post("/api/account/claim", json={"password": PASSWORD}, headers=headers)
    assert claimed.status_code == 200, claimed.text
    token = claimed.json()["token"]
    table = new_table(client)
    sat = client.post(f"/api/tables/{table['id']}/sit", json={"seat": 0},
                      headers=bearer(token))
    assert sat.status_code == 200, sat.text
    return token, claimed.json()["player_id"], table["id"]


def seat_link(client: TestClient, token: str, table_id: str) -> Any:
    return client.post(f"/api/tables/{table_id}/seat-link", json={}, headers=bearer(token))


def test_a_seat_link_cannot_read_the_account(client: TestClient) -> None:
    token, player, table_id = seated_account(client)
    answer = seat_link(client, token, table_id)
    assert answer.status_code == 200, answer.text
    link = answer.json()
    assert link["seat"] == 0 and link["link"] == f"/t/{table_id}#seat={link['token']}"
    seat_token = link["token"]
    assert seat_token != token
    for method, path in (("GET", "/api/account"), ("GET", "/api/me"),
                         ("POST", "/api/account/password"), ("POST", "/api/account/logout-all"),
                         ("POST", "/api/revoke"), ("POST", "/api/tables")):
        refused = client.request(method, path, headers=bearer(seat_token),
                                 json={"password": PASSWORD, "new_password": "taken over"})
        assert refused.status_code == 401, (path, refused.text)
        assert refused.json()["code"] == "unauthorized"
    holder = client.get(f"/api/tables/{table_id}/me", headers=bearer(seat_token)).json()
    assert holder == {"table": table_id, "player_id": player, "nickname": "Anna", "seat": 0,
                      "seat_link": True}


def test_a_seat_link_plays_its_seat_and_opens_no_other_table(client: TestClient) -> None:
    token, _, table_id = seated_account(client)
    seat_token = seat_link(client, token, table_id).json()["token"]
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_json({"type": "hello", "token": seat_token})
        assert receive_until(ws, lambda m: m["type"] == "state" and m["you"] == 0)
    other = new_table(client)
    with client.websocket_connect(f"/ws/tables/{other['id']}") as ws:
        ws.send_json({"type": "hello", "token": seat_token})
        assert receive_until(ws, lambda m: m["type"] == "error")["code"] == "unauthorized"
    assert client.post(f"/api/tables/{other['id']}/sit", json={"seat": 0},
                       headers=bearer(seat_token)).status_code == 401


def test_only_a_seated_player_gets_a_seat_link(client: TestClient) -> None:
    _, headers = guest(client, "Bob")
    table = new_table(client)
    answer = client.post(f"/api/tables/{table['id']}/seat-link", json={}, headers=headers)
    assert answer.status_code == 409 or answer.json()["code"] == "not_seated"


def test_a_renewed_seat_token_is_still_a_seat_token(settings: Settings) -> None:
    settings.token_renew_seconds = 0
    with running(settings) as client:
        token, _, table_id = seated_account(client)
        seat_token = seat_link(client, token, table_id).json()["token"]
        answer = client.get(f"/api/tables/{table_id}/me", headers=bearer(seat_token))
        renewed = answer.headers["x-konkun-token"]
        assert client.get("/api/account", headers=bearer(renewed)).status_code == 401
        assert client.get(f"/api/tables/{table_id}/me",
                          headers=bearer(renewed)).json()["seat"] == 0


def test_logging_out_everywhere_ends_the_seat_links(client: TestClient) -> None:
    token, _, table_id = seated_account(client)
    seat_token = seat_link(client, token, table_id).json()["token"]
    assert client.post("/api/account/logout-all", headers=bearer(token)).status_code == 200
    refused = client.get(f"/api/tables/{table_id}/me", headers=bearer(seat_token))
    assert refused.status_code == 401 and "revoked" in refused.json()["message"]


def test_a_token_of_the_first_release_has_expired(client: TestClient) -> None:
    old = URLSafeSerializer("test-secret", salt="konkun.guest.v1").dumps(
        {"id": "p1", "name": "ann"})
    refused = client.get("/api/me", headers=bearer(old))
    assert refused.status_code == 401 and "first release" in refused.json()["message"]


def test_a_token_from_a_process_whose_clock_is_ahead_verifies_within_the_skew() -> None:
    token, who = TokenSigner("s").issue("ann")  # signed now, by the wall clock
    two_minutes_behind = TokenSigner("s", clock=lambda: time.time() - 120)
    assert two_minutes_behind.verify(token).player_id == who.player_id
    far_behind = TokenSigner("s", clock=lambda: time.time() - CLOCK_SKEW - 60)
    with pytest.raises(ProtocolError) as refused:
        far_behind.verify(token)
    assert refused.value.code == "unauthorized" and "future" in str(refused.value)
