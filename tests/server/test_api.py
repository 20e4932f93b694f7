"""The HTTP API (docs/protocol.md): guests, lobby, tables, seats, errors."""

from __future__ import annotations

from typing import Any

from .conftest import TestClient, guest, new_table


def test_guest_gets_a_signed_token_naming_a_new_player(client: TestClient) -> None:
    response = client.post("/api/guest", json={"nickname": "  ann  "})
    assert response.status_code == 200
    data = response.json()
    assert data["nickname"] == "ann"
    me = client.get("/api/me", headers={"Authorization": f"Bearer {data['token']}"})
    assert me.json() == {"player_id": data["player_id"], "nickname": "ann"}


def test_two_guests_with_one_nickname_are_two_players(client: TestClient) -> None:
    first = client.post("/api/guest", json={"nickname": "ann"}).json()
    second = client.post("/api/guest", json={"nickname": "ann"}).json()
    assert first["player_id"] != second["player_id"]


def test_a_forged_token_is_refused(client: TestClient) -> None:
    token, _ = guest(client, "ann")
    forged = token[:-2] + ("AA" if token[-2:] != "AA" else "BB")
    response = client.get("/api/me", headers={"Authorization": f"Bearer {forged}"})
    assert response.status_code == 401
    assert response.json()["code"] == "unauthorized"


def test_bad_nicknames_are_refused_with_a_clear_message(client: TestClient) -> None:
    response = client.post("/api/guest", json={"nickname": "x" * 25})
    assert response.json()["code"] == "nickname_too_long"
    for nickname in ["", "   ", 7, None, "a\u0000b"]:
        response = client.post("/api/guest", json={"nickname": nickname})
        assert response.status_code == 400, nickname
        assert response.json()["code"] == "bad_request"
        assert "nickname" in response.json()["message"]


def test_create_table_shares_a_link_and_seats_nobody(client: TestClient) -> None:
    summary = new_table(client, seats=3, rules={"target": 3})
    assert summary["link"] == f"/t/{summary['id']}"
    assert summary["status"] == "waiting"
    assert summary["rules"] == {"target": "3"}
    assert [s["kind"] for s in summary["seats"]] == ["empty"] * 3
    assert client.get(f"/api/tables/{summary['id']}").json() == summary
    listed = client.get("/api/tables").json()["tables"]
    assert [t["id"] for t in listed] == [summary["id"]]


def test_bot_seats_are_filled_at_creation(client: TestClient) -> None:
    summary = new_table(client, seats=3, bots={"1": "random", 2: "random"})
    kinds = [(s["kind"], s["bot"]) for s in summary["seats"]]
    assert kinds == [("empty", None), ("bot", "random"), ("bot", "random")]


def test_the_game_starts_when_the_last_seat_is_taken(client: TestClient) -> None:
    table = new_table(client)
    _, ann = guest(client, "ann")
    _, bob = guest(client, "bob")
    first = client.post(f"/api/tables/{table['id']}/sit", json={"seat": 0}, headers=ann)
    assert first.json()["status"] == "waiting"
    second = client.post(f"/api/tables/{table['id']}/sit", json={"seat": 1}, headers=bob)
    assert second.status_code == 200, second.text
    started = second.json()
    assert started["status"] == "playing"
    assert started["to_move"] == 0
    assert [s["name"] for s in started["seats"]] == ["ann", "bob"]


def test_a_seat_belongs_to_one_person(client: TestClient) -> None:
    table = new_table(client, seats=3)
    _, ann = guest(client, "ann")
    _, bob = guest(client, "bob")
    assert client.post(f"/api/tables/{table['id']}/sit", json={"seat": 0},
                       headers=ann).status_code == 200
    taken = client.post(f"/api/tables/{table['id']}/sit", json={"seat": 0}, headers=bob)
    assert taken.status_code == 409
    assert taken.json()["code"] == "seat_taken"
    twice = client.post(f"/api/tables/{table['id']}/sit", json={"seat": 1}, headers=ann)
    assert twice.json()["code"] == "seat_taken"
    anonymous = client.post(f"/api/tables/{table['id']}/sit", json={"seat": 1})
    assert anonymous.status_code == 401


def test_leave_frees_the_seat_while_waiting(client: TestClient) -> None:
    table = new_table(client, seats=3)
    _, ann = guest(client, "ann")
    client.post(f"/api/tables/{table['id']}/sit", json={"seat": 0}, headers=ann)
    left = client.post(f"/api/tables/{table['id']}/leave", headers=ann)
    assert left.json()["seats"][0]["kind"] == "empty"


def _error(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["type"] == "error"
    assert body["code"] == code
    assert isinstance(body["message"], str) and body["message"]


def test_bad_table_requests_get_clear_errors_and_create_nothing(client: TestClient) -> None:
    cases: list[tuple[dict[str, Any], int, str]] = [
        ({"game": "chess", "seats": 2}, 400, "unknown_game"),
        ({"game": 5, "seats": 2}, 400, "unknown_game"),
        ({"game": "fake", "seats": 9}, 400, "invalid_rule"),
        ({"game": "fake", "seats": "two"}, 400, "bad_request"),
        ({"game": "fake", "seats": 2, "rules": {"colour": "red"}}, 400, "invalid_rule"),
        ({"game": "fake", "seats": 2, "rules": {"target": "many"}}, 400, "invalid_rule"),
        ({"game": "fake", "seats": 2, "rules": [1]}, 400, "bad_request"),
        ({"game": "fake", "seats": 2, "variant": "novo"}, 400, "invalid_rule"),
        ({"game": "fake", "seats": 2, "bots": {"5": "random"}}, 400, "bad_seat"),
        ({"game": "fake", "seats": 2, "bots": {"x": "random"}}, 400, "bad_seat"),
        ({"game": "fake", "seats": 2, "bots": {"1": "genius"}}, 400, "unknown_bot"),
        ({"game": "fake", "seats": 2, "bots": {"1": "ismcts:time=999"}}, 400, "unknown_bot"),
    ]
    for body, status, code in cases:
        _error(client.post("/api/tables", json=body), status, code)
    _error(client.post("/api/tables", content=b"{nope", headers={
        "Content-Type": "application/json"}), 400, "bad_request")
    _error(client.post("/api/tables", json=[1, 2]), 400, "bad_request")
    assert client.get("/api/tables").json()["tables"] == []


def test_unknown_tables_and_routes_are_404_json(client: TestClient) -> None:
    _error(client.get("/api/tables/nosuchtable"), 404, "unknown_table")
    _error(client.post("/api/tables/nosuchtable/sit", json={"seat": 0},
                       headers=guest(client, "ann")[1]), 404, "unknown_table")
    _error(client.get("/api/games/nosuchtable/replay"), 404, "unknown_table")
    _error(client.get("/api/nothing"), 404, "not_found")


def test_oversized_bodies_are_refused_before_they_are_read(client: TestClient) -> None:
    big = {"nickname": "a" * 20_000}
    _error(client.post("/api/guest", json=big), 413, "too_large")


def test_sit_out_of_range_and_after_start(client: TestClient) -> None:
    table = new_table(client)
    _, ann = guest(client, "ann")
    _, bob = guest(client, "bob")
    _, cat = guest(client, "cat")
    url = f"/api/tables/{table['id']}/sit"
    _error(client.post(url, json={"seat": 2}, headers=ann), 400, "bad_seat")
    _error(client.post(url, json={"seat": -1}, headers=ann), 400, "bad_seat")
    _error(client.post(url, json={"seat": True}, headers=ann), 400, "bad_request")
    _error(client.post(url, json={}, headers=ann), 400, "bad_request")
    client.post(url, json={"seat": 0}, headers=ann)
    client.post(url, json={"seat": 1}, headers=bob)
    _error(client.post(url, json={"seat": 1}, headers=cat), 409, "not_waiting")
    _error(client.post(f"/api/tables/{table['id']}/leave", headers=ann), 409, "not_waiting")


def test_lobby_offers_bots_and_games(client: TestClient) -> None:
    specs = [b["spec"] for b in client.get("/api/bots").json()["bots"]]
    assert "random" in specs
    games = {g["game"]: g for g in client.get("/api/catalog").json()["games"]}
    assert games["fake"]["min_seats"] == 2
    assert games["fake"]["rules"] == {"target": "2"}


def test_pages_are_served(client: TestClient) -> None:
    for path in ["/", "/t/abc", "/replay/abc"]:
        response = client.get(path)
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/html")
    assert client.get("/healthz").json()["ok"] is True


def test_a_flood_of_requests_is_rate_limited_and_creates_nothing_more(
        client: TestClient) -> None:
    codes = [client.post("/api/guest", json={"nickname": "ann"}).status_code
             for _ in range(100)]
    assert codes.count(429) > 0
    assert codes[0] == 200
    assert client.get("/healthz").status_code == 200
