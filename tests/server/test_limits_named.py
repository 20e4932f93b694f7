"""A limit's refusal names the limit that refused, with its figure, and the player finds
her unfinished tables (issue 33, item 1; docs/protocol.md)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from konkun.server.core.config import Settings

from .conftest import TestClient, guest, running
from .postgres import PostgresServer


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    """A server as full as one guest's five tables make it."""
    with running(settings.model_copy(update={"max_tables": 5})) as test_client:
        yield test_client


def test_a_guest_who_walked_away_from_five_bot_games_is_told_her_own_limit(
        client: TestClient) -> None:
    _, headers = guest(client, "ann")
    made = set()
    for _ in range(5):
        response = client.post("/api/tables", headers=headers,
                               json={"game": "fake", "seats": 2, "bots": {"1": "random"}})
        assert response.status_code == 201, response.text
        client.post(f"/api/tables/{response.json()['id']}/sit", json={"seat": 0},
                    headers=headers)
        made.add(response.json()["id"])
    refused = client.post("/api/tables", headers=headers,
                          json={"game": "fake", "seats": 2, "bots": {"1": "random"}})
    assert refused.json()["code"] == "too_many_tables"
    assert refused.json()["limit"] == "player"  # not the server's cap, also reached
    assert refused.json()["max"] == 5
    mine = client.get("/api/tables/mine", headers=headers).json()["tables"]
    assert {t["id"] for t in mine} == made
    _, other = guest(client, "bob")
    assert client.get("/api/tables/mine", headers=other).json()["tables"] == []
    server_full = client.post("/api/tables", headers=other, json={"game": "fake", "seats": 2})
    assert server_full.json()["limit"] == "server"


def test_too_many_seats_names_the_players_limit(settings: Settings) -> None:
    with running(settings.model_copy(update={"max_seats_per_player": 2})) as client:
        _, headers = guest(client, "ann")
        for _ in range(2):
            table = client.post("/api/tables", json={"game": "fake", "seats": 2}).json()
            assert client.post(f"/api/tables/{table['id']}/sit", json={"seat": 0},
                               headers=headers).status_code == 200
        table = client.post("/api/tables", json={"game": "fake", "seats": 2}).json()
        refused = client.post(f"/api/tables/{table['id']}/sit", json={"seat": 0},
                              headers=headers).json()
        assert (refused["code"], refused["limit"], refused["max"]) == \
            ("too_many_seats", "player", 2)


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_the_per_address_counts_survive_a_restart(
        backend: str, settings: Settings, request: pytest.FixtureRequest) -> None:
    limited = settings.model_copy(update={"max_tables_per_address": 2,
                                          "max_seats_per_address": 2})
    if backend == "postgresql":
        server: PostgresServer = request.getfixturevalue("postgres")
        limited = limited.model_copy(update={"db_url": server.new_database_url()})
    with running(limited) as client:
        for name in ("ann", "bob"):
            _, headers = guest(client, name)
            table = client.post("/api/tables", headers=headers,
                                json={"game": "fake", "seats": 2}).json()
            assert client.post(f"/api/tables/{table['id']}/sit", json={"seat": 0},
                               headers=headers).status_code == 200
    with running(limited) as client:  # the same database, a new server
        _, headers = guest(client, "cid")
        refused = client.post("/api/tables", headers=headers, json={"game": "fake", "seats": 2})
        assert (refused.json()["code"], refused.json()["limit"]) == \
            ("too_many_tables", "address")
        open_table = client.get("/api/tables").json()["tables"][0]
        seat = client.post(f"/api/tables/{open_table['id']}/sit", json={"seat": 1},
                           headers=headers).json()
        assert (seat["code"], seat["limit"]) == ("too_many_seats", "address")
