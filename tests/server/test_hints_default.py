"""The ``hints`` table option of ``POST /api/tables`` (docs/protocol.md): a request that
leaves it out, or sends ``null``, gets a table with hints on (the API's behaviour before the
option existed); anything but a boolean is refused with ``invalid_rule``."""

from __future__ import annotations

from .conftest import TestClient, guest


def test_a_create_request_without_hints_gets_a_table_with_hints_on(client: TestClient) -> None:
    _, headers = guest(client, "ann")
    for extra in ({}, {"hints": None}):
        answer = client.post("/api/tables", json={"game": "fake", "seats": 2} | extra,
                             headers=headers)
        assert answer.status_code == 201, answer.text
        table = answer.json()
        assert table["hints"] is True, extra
        assert client.get(f"/api/tables/{table['id']}").json()["hints"] is True


def test_hints_must_be_a_boolean(client: TestClient) -> None:
    _, headers = guest(client, "ann")
    for bad in ("yes", 1, "true"):
        answer = client.post("/api/tables", json={"game": "fake", "seats": 2, "hints": bad},
                             headers=headers)
        assert answer.json()["code"] == "invalid_rule", bad
