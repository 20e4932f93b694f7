"""A 300-character password or nickname, as a person may paste one: each gets the error
of its rule (``weak_password``, ``nickname_too_long``, or for a login ``wrong_password``),
never the request checker's ``bad_request``."""

from __future__ import annotations

import warnings

from .conftest import guest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

LONG = "p" * 300
PASSWORD = "correct horse battery"


def _code(response: object) -> str:
    code: str = response.json()["code"]  # type: ignore[attr-defined]
    return code


def test_a_300_character_password_or_nickname_gets_its_rules_error(
        client: TestClient) -> None:
    assert _code(client.post("/api/guest", json={"nickname": "n" * 300})) == \
        "nickname_too_long"
    _, auth = guest(client, "Anna")
    refused = client.post("/api/account/claim", json={"password": LONG}, headers=auth)
    assert (refused.status_code, _code(refused)) == (400, "weak_password")
    refused = client.post("/api/account/claim", json={"password": PASSWORD,
                                                      "nickname": "n" * 300}, headers=auth)
    assert (refused.status_code, _code(refused)) == (400, "nickname_too_long")
    claimed = client.post("/api/account/claim", json={"password": PASSWORD}, headers=auth)
    assert claimed.status_code == 200, claimed.text
    auth = {"Authorization": f"Bearer {claimed.json()['token']}"}
    refused = client.post("/api/account/password", json={"password": PASSWORD,
                                                         "new_password": LONG}, headers=auth)
    assert (refused.status_code, _code(refused)) == (400, "weak_password")
    refused = client.post("/api/account/login", json={"nickname": "Anna", "password": LONG})
    assert (refused.status_code, _code(refused)) == (401, "wrong_password")
    refused = client.post("/api/account/login", json={"nickname": "n" * 300,
                                                      "password": PASSWORD})
    assert (refused.status_code, _code(refused)) == (400, "nickname_too_long")
    assert client.post("/api/account/login", json={"nickname": "Anna",
                                                   "password": PASSWORD}).status_code == 200
