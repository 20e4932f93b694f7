"""Accounts over HTTP: claiming a guest's nickname keeps the player, logging in from another
client, logging out, changing the password, revoking every session, login rate limits per
account and per address, and nicknames unique by case and by look-alike letters."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from argon2 import PasswordHasher

from konkun.server.accounts.accounts import LoginLimiter, Passwords
from konkun.server.core.config import Settings
from konkun.server.web.account_routes import ServiceHolder

from .conftest import app_of, guest, new_table, running

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

PASSWORD = "correct horse battery"


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def holder(client: TestClient) -> ServiceHolder:
    """The account services of the app under ``client``."""
    found = app_of(client).state.accounts
    assert isinstance(found, ServiceHolder)
    return found


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def client(settings: Settings, clock: FakeClock) -> Iterator[TestClient]:
    """An app whose passwords hash cheaply (the scheme is argon2id all the same) and whose
    login limiter reads the fake clock: 5 free attempts per account and address, 20 per
    address, in 900 seconds."""
    with running(settings) as test_client:
        services = holder(test_client)
        services.passwords = Passwords(PasswordHasher(time_cost=1, memory_cost=1024,
                                                      parallelism=1))
        services.limiter = LoginLimiter(5, 20, 900.0, clock)
        yield test_client


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def claim(client: TestClient, token: str, password: str = PASSWORD,
          **fields: Any) -> Any:
    return client.post("/api/account/claim", json={"password": password} | fields,
                       headers=bearer(token))


def login(client: TestClient, nickname: str, password: str = PASSWORD) -> Any:
    return client.post("/api/account/login", json={"nickname": nickname,
                                                   "password": password})


def claimed(client: TestClient, nickname: str) -> tuple[str, str]:
    """A guest who claimed ``nickname``: (token, player id)."""
    token, _ = guest(client, nickname)
    response = claim(client, token)
    assert response.status_code == 200, response.text
    return response.json()["token"], response.json()["player_id"]


def test_claiming_keeps_the_guests_player_and_seats_and_rotates_the_session(
        client: TestClient) -> None:
    token, headers = guest(client, "Masha")
    before = client.get("/api/me", headers=headers).json()
    table = new_table(client)
    assert client.post(f"/api/tables/{table['id']}/sit", json={"seat": 0},
                       headers=headers).status_code == 200
    response = claim(client, token)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["player_id"] == before["player_id"]
    assert body["nickname"] == "Masha" and body["account"] is True
    info = client.get("/api/account", headers=bearer(body["token"])).json()
    assert info == {"player_id": before["player_id"], "nickname": "Masha", "account": True,
                    "sessions": 1}
    # the guest's token (and any copy of it) ends: the account lives in a new session
    assert client.get("/api/account", headers=headers).status_code == 401
    summary = client.get(f"/api/tables/{table['id']}").json()
    assert summary["seats"][0]["name"] == "Masha"
    again = client.post(f"/api/tables/{table['id']}/sit", json={"seat": 1},
                        headers=bearer(body["token"]))
    assert again.json()["code"] == "seat_taken" or again.status_code == 409


def test_a_claim_may_choose_a_new_nickname_and_is_made_once(client: TestClient) -> None:
    token, _ = guest(client, "guest42")
    response = claim(client, token, nickname="Ivan the Terrible")
    assert response.json()["nickname"] == "Ivan the Terrible"
    second = claim(client, response.json()["token"])
    assert second.status_code == 409 and second.json()["code"] == "already_claimed"


def test_weak_passwords_are_refused(client: TestClient) -> None:
    token, _ = guest(client, "Petya")
    for password in ("short", "Petya", "P e t y a"):
        response = claim(client, token, password)
        assert response.status_code == 400, password
        assert response.json()["code"] == "weak_password"
    assert client.get("/api/account", headers=bearer(token)).json()["account"] is False


def test_logging_in_on_another_client_gives_the_same_player_in_a_new_session(
        client: TestClient) -> None:
    token, player = claimed(client, "Olga")
    response = login(client, "olga")  # any case
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["player_id"] == player and body["nickname"] == "Olga"
    assert body["token"] != token
    info = client.get("/api/account", headers=bearer(body["token"])).json()
    assert info["sessions"] == 2
    wrong = login(client, "Olga", "not the password")
    assert wrong.status_code == 401 and wrong.json()["code"] == "wrong_password"
    nobody = login(client, "Nobody", PASSWORD)
    assert nobody.status_code == 401 and nobody.json()["code"] == "wrong_password"
    assert nobody.json()["message"] == wrong.json()["message"]  # tells nothing apart


def test_logging_out_ends_only_that_session(client: TestClient) -> None:
    first, _ = claimed(client, "Sveta")
    second = login(client, "Sveta").json()["token"]
    assert client.post("/api/account/logout", headers=bearer(second)).status_code == 200
    assert client.get("/api/account", headers=bearer(second)).status_code == 401
    info = client.get("/api/account", headers=bearer(first)).json()
    assert info["account"] is True and info["sessions"] == 1


def test_logging_out_everywhere_revokes_every_session_and_survives_a_restart(
        settings: Settings, client: TestClient) -> None:
    first, _ = claimed(client, "Dima")
    second = login(client, "Dima").json()["token"]
    third = login(client, "Dima").json()["token"]
    response = client.post("/api/account/logout-all", headers=bearer(second))
    assert response.json() == {"revoked": 3}
    for token in (first, second, third):
        assert client.get("/api/account", headers=bearer(token)).status_code == 401
    fresh = login(client, "Dima").json()["token"]
    assert client.get("/api/account", headers=bearer(fresh)).status_code == 200
    client.__exit__(None, None, None)
    with running(settings) as restarted:
        for token in (first, second, third):
            assert restarted.get("/api/account", headers=bearer(token)).status_code == 401
        assert restarted.get("/api/account", headers=bearer(fresh)).status_code == 200


def test_a_revoked_session_closes_its_websocket(client: TestClient) -> None:
    token, _ = claimed(client, "Kolya")
    table = new_table(client)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        ws.send_json({"type": "hello", "token": token})
        ws.receive_json()  # the state
        other = login(client, "Kolya").json()["token"]
        client.post("/api/account/logout-all", headers=bearer(other))
        message = ws.receive_json()
        while message.get("type") != "error":
            message = ws.receive_json()
        assert message["code"] == "unauthorized"


def test_changing_the_password_rotates_this_session_and_ends_the_others(
        client: TestClient) -> None:
    first, player = claimed(client, "Lena")
    second = login(client, "Lena").json()["token"]
    wrong = client.post("/api/account/password", headers=bearer(first),
                        json={"password": "guess guess", "new_password": "a new secret"})
    assert wrong.status_code == 401 and wrong.json()["code"] == "wrong_password"
    response = client.post("/api/account/password", headers=bearer(first),
                           json={"password": PASSWORD, "new_password": "a new secret"})
    body = response.json()
    assert body["changed"] is True and body["revoked"] == 1
    assert body["player_id"] == player and body["token"] not in (first, second)
    assert client.get("/api/account", headers=bearer(body["token"])).status_code == 200
    assert client.get("/api/account", headers=bearer(first)).status_code == 401
    assert client.get("/api/account", headers=bearer(second)).status_code == 401
    assert login(client, "Lena").status_code == 401
    assert login(client, "Lena", "a new secret").status_code == 200


def test_a_guest_cannot_change_a_password_or_log_out_everywhere(client: TestClient) -> None:
    token, _ = guest(client, "Just a guest")
    for path in ("/api/account/logout-all", "/api/account/password"):
        response = client.post(path, headers=bearer(token),
                               json={"password": PASSWORD, "new_password": "whatever1"})
        assert response.status_code == 403 and response.json()["code"] == "not_an_account"


def test_logins_are_limited_per_account_and_address(client: TestClient,
                                                    clock: FakeClock) -> None:
    claimed(client, "Vera")
    for _ in range(5):
        assert login(client, "Vera", "wrong password").json()["code"] == "wrong_password"
    limited = login(client, "Vera")  # even the right password, from this address, for now
    assert limited.status_code == 429 and limited.json()["code"] == "login_limited"
    assert login(client, "VERA").json()["code"] == "login_limited"  # one account
    claimed(client, "Zoya")
    assert login(client, "Zoya").status_code == 200  # other accounts are not locked
    clock.now += 901
    assert login(client, "Vera").status_code == 200


def test_logins_are_limited_per_address(client: TestClient, clock: FakeClock) -> None:
    claimed(client, "Anya")  # the claim's hash counts as one of the address's 20
    for number in range(19):
        assert login(client, f"stranger{number}").status_code == 401
    limited = login(client, "Anya")
    assert limited.status_code == 429 and limited.json()["code"] == "login_limited"
    clock.now += 901
    assert login(client, "Anya").status_code == 200


def test_nicknames_are_unique_by_case_and_by_look_alikes(client: TestClient) -> None:
    claimed(client, "Маша")  # Cyrillic
    for name in ("MAШA", "Maшa", "маша", "МАША", "М а ш а"):
        token, _ = guest(client, "someone")
        response = claim(client, token, nickname=name)
        assert response.status_code == 409, name
        assert response.json()["code"] == "nickname_taken"
        taken = client.post("/api/guest", json={"nickname": name})
        assert taken.status_code == 409 and taken.json()["code"] == "nickname_taken"
    assert client.post("/api/guest", json={"nickname": "Sasha"}).status_code == 200
    logged = login(client, "MAШA")  # the look-alike names the one account
    assert logged.status_code == 200 and logged.json()["nickname"] == "Маша"


BORIS_LOOK_ALIKES = [  # from Unicode's table of confusables (tests/test_nicknames.py)
    "ʙᴏʀɪs", "ʙoris", "ꓐꓳꓣꓲꓢ", "ꓐoris", "ᏴOᏒIᏚ", "Ᏼoris", "ΒΟRΙS", "Βoris", "ВОRIЅ",
    "Вoris", "Ｂｏｒｉｓ", "𝐁𝐨𝐫𝐢𝐬", "B o r i s", "B\u043e\u0301ris", "BOR1S", "B0RIS",
    "borιs", "ᗷoris", "Bⲟris", "Boriꜱ", "ɓoris", "BORIS",
]


@pytest.mark.parametrize("look_alike", BORIS_LOOK_ALIKES)
def test_look_alikes_of_an_account_in_other_scripts_are_not_guest_names(
        client: TestClient, look_alike: str) -> None:
    claimed(client, "Boris")
    taken = client.post("/api/guest", json={"nickname": look_alike})
    assert taken.status_code == 409 and taken.json()["code"] == "nickname_taken"


@pytest.mark.parametrize("name", ["Expert", "Expert (bot)", "ᴇxpert bot", "Мастер",
                                  "Сильный (бот)", "Strong", "Beginner", "Casual",
                                  "Любитель", "Random", "Greedy", "bot", "Бот"])
def test_names_of_bots_and_ladder_levels_are_reserved(client: TestClient, name: str) -> None:
    taken = client.post("/api/guest", json={"nickname": name})
    assert taken.status_code == 409 and taken.json()["code"] == "nickname_taken"
    token, _ = guest(client, "Someone")
    assert claim(client, token, nickname=name).status_code == 409


def test_a_nickname_that_shows_nothing_cannot_be_claimed(client: TestClient) -> None:
    token, _ = guest(client, "ok")
    response = claim(client, token, nickname="_-.")
    assert response.status_code == 400 and response.json()["code"] == "bad_request"


def test_stored_passwords_are_argon2id_hashes(client: TestClient) -> None:
    _, player = claimed(client, "Hash")
    services = holder(client)()
    account = services.accounts.store.by_player(player)
    assert account is not None
    assert account.password_hash.startswith("$argon2id$")
    assert PASSWORD not in account.password_hash


def test_a_hash_made_with_weaker_parameters_is_replaced_at_login(client: TestClient) -> None:
    _, player = claimed(client, "Rehash")
    services = holder(client)
    stronger = Passwords(PasswordHasher(time_cost=2, memory_cost=1024, parallelism=1))
    services.passwords = stronger
    services().accounts.passwords = stronger
    old = services().accounts.store.by_player(player)
    assert old is not None and ",t=1," in old.password_hash
    assert login(client, "Rehash").status_code == 200
    new = services().accounts.store.by_player(player)
    assert new is not None and ",t=2," in new.password_hash
    assert login(client, "Rehash").status_code == 200
