"""Rated games played through the server: a finished web game between two accounts, or an
account and a ladder bot, moves their ratings (each seat is told at once); a casual table
moves none; profiles and leaderboards show the result."""

from __future__ import annotations

import random
import time
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from argon2 import PasswordHasher

from konkun.ratings import Rating, rate
from konkun.server.accounts.accounts import Passwords
from konkun.server.accounts.ratings_service import initial_rating
from konkun.server.core.config import Settings

from .conftest import app_of, guest, legal, receive, receive_until, running

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient, WebSocketTestSession


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    """An app whose rate limits let one test client play whole games quickly."""
    fast = settings.model_copy(update={"rate_burst": 10_000, "rate_per_second": 10_000.0,
                                       "read_burst": 10_000, "read_per_second": 10_000.0})
    with running(fast) as test_client:
        app_of(test_client).state.accounts.passwords = Passwords(
            PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
        yield test_client


def account(client: TestClient, nickname: str) -> tuple[str, str]:
    """A claimed account's token and player id."""
    _, headers = guest(client, nickname)
    response = client.post("/api/account/claim", json={"password": "long enough pw"},
                           headers=headers)
    assert response.status_code == 200, response.text
    return response.json()["token"], response.json()["player_id"]


def create(client: TestClient, token: str, **fields: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json=fields,
                           headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 201, response.text
    summary: dict[str, Any] = response.json()
    return summary


def sit(client: TestClient, table_id: str, seat: int, token: str) -> None:
    response = client.post(f"/api/tables/{table_id}/sit", json={"seat": seat},
                           headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200, response.text


def ann_and_bob_seated(client: TestClient, **fields: Any) \
        -> tuple[str, str, str, str, dict[str, Any]]:
    """Two accounts, Ann and Bob, seated 0 and 1 at a new two-seat Konchinka table made by
    Ann with ``fields`` (to 1 point, or the standard rules when rated): their tokens,
    their player ids and the table."""
    ann, ann_id = account(client, "Ann")
    bob, bob_id = account(client, "Bob")
    rules = {} if fields.get("rated") else {"target": "1"}  # rated: the standard rules
    table = create(client, ann, game="konchinka", seats=2, rules=rules, **fields)
    sit(client, table["id"], 0, ann)
    sit(client, table["id"], 1, bob)
    return ann, ann_id, bob, bob_id, table


def play_out(client: TestClient, table_id: str, tokens: dict[int, str]) \
        -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Play a random legal move for every human seat until the game ends (the table's
    summary says whose turn it is); return the final summary and every message the
    first seat got."""
    sockets: dict[int, WebSocketTestSession] = {}
    seen: list[dict[str, Any]] = []
    latest: dict[int, dict[str, Any]] = {}

    def read(seat: int, timeout: float = 10.0) -> None:
        message = receive(sockets[seat], timeout)
        if seat == min(sockets):
            seen.append(message)
        if message["type"] == "state" and message["you"] == seat:
            latest[seat] = message

    try:
        for seat, token in tokens.items():
            ws = client.websocket_connect(f"/ws/tables/{table_id}").__enter__()
            ws.send_json({"type": "hello", "token": token})
            sockets[seat] = ws
        rng = random.Random(17)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            summary = client.get(f"/api/tables/{table_id}").json()
            if summary["status"] == "finished":
                break
            mover = summary["to_move"]
            if mover not in sockets:
                time.sleep(0.01)  # a bot's move
                continue
            while mover not in latest or latest[mover]["turn"] < summary["turn"]:
                read(mover)
            mine = latest[mover]
            if mine["turn"] == summary["turn"] and legal(mine):
                sockets[mover].send_json({"type": "action", "turn": mine["turn"],
                                          "action": rng.choice(legal(mine))})
                while latest[mover]["turn"] == mine["turn"]:
                    read(mover)
        first = min(sockets)
        while not any(m["type"] == "rated" for m in seen):
            try:
                read(first, 0.5)
            except TimeoutError:
                break
        return summary, seen
    finally:
        for ws in sockets.values():
            ws.__exit__(None, None, None)


def test_a_rated_table_has_hints_off_and_a_move_clock(client: TestClient) -> None:
    token, _ = account(client, "Ann")
    summary = create(client, token, game="konchinka", seats=2, rated=True, hints=True)
    assert summary["rated"] is True and summary["hints"] is False
    assert summary["move_seconds"] == 60
    casual = create(client, token, game="konchinka", seats=2)
    assert casual["rated"] is False and casual["move_seconds"] == 0
    bad = client.post("/api/tables", json={"game": "konchinka", "seats": 2, "rated": "yes"})
    assert bad.status_code == 400


def test_a_finished_rated_game_between_two_accounts_updates_both_ratings(
        client: TestClient) -> None:
    ann, ann_id, bob, bob_id, table = ann_and_bob_seated(client, rated=True)
    final, seen = play_out(client, table["id"], {0: ann, 1: bob})
    totals = final["totals"]
    rated = next(m for m in seen if m["type"] == "rated")
    by_seat = {entry["seat"]: entry for entry in rated["ratings"]}
    score = 1.0 if totals[0] > totals[1] else 0.5 if totals[0] == totals[1] else 0.0
    expected = rate(Rating(), [(Rating(), score)]).rating
    assert by_seat[0]["rating"] == round(expected, 1)
    assert by_seat[0]["player_id"] == ann_id and by_seat[1]["player_id"] == bob_id
    ann_profile = client.get(f"/api/players/{ann_id}").json()
    assert ann_profile["nickname"] == "Ann" and ann_profile["account"] is True
    assert ann_profile["played"] == [{"game": "konchinka", "variant": "classic", "played": 1,
                                      "wins": int(final["winner"] == 0)}]
    (pool,) = ann_profile["ratings"]
    assert pool["pool"] == "konchinka-2" and pool["games"] == 1
    assert [h["table"] for h in pool["history"]] == [table["id"]]
    assert ann_profile["recent"][0]["replay"] == f"/replay/{table['id']}"
    board = client.get("/api/leaderboard/konchinka-2").json()["players"]
    names = [entry["nickname"] for entry in board]
    assert "Strong" in names
    assert not {"Ann", "Bob"} & set(names)  # one game: not established yet
    assert [e["rating"] for e in board] == sorted((e["rating"] for e in board), reverse=True)


def test_an_account_against_a_ladder_bot_moves_the_bots_rating_too(
        client: TestClient) -> None:
    ann, ann_id = account(client, "Ann")
    table = create(client, ann, game="kunken", seats=2, rated=True,
                   bots={"1": "beginner"})
    sit(client, table["id"], 0, ann)
    final, _ = play_out(client, table["id"], {0: ann})
    assert final["status"] == "finished"
    bot = client.get("/api/players/bot:beginner").json()
    assert bot["bot"] is True and bot["names"]["ru"] == "Новичок"
    (pool,) = bot["ratings"]
    assert pool["pool"] == "kunken" and pool["games"] == 1
    assert pool["rating"] != round(initial_rating("kunken", "bot:beginner").rating, 1)
    assert client.get(f"/api/players/{ann_id}").json()["ratings"][0]["games"] == 1


def test_a_casual_game_between_accounts_counts_in_the_profile_but_not_the_rating(
        client: TestClient) -> None:
    ann, ann_id, bob, _, table = ann_and_bob_seated(client)
    play_out(client, table["id"], {0: ann, 1: bob})
    profile = client.get(f"/api/players/{ann_id}").json()
    assert profile["ratings"] == [] and profile["played"][0]["played"] == 1
    assert profile["recent"][0]["rated"] is False


def test_a_rematch_of_a_rated_table_is_rated_and_its_game_moves_the_ratings(
        client: TestClient) -> None:
    """The rematch keeps the table's options (issue 12), rated among them: its summary
    and its stored options say rated, and its finished game is rated like the first."""
    ann, _, bob, _, table = ann_and_bob_seated(client, rated=True)
    play_out(client, table["id"], {0: ann, 1: bob})
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws0, \
            client.websocket_connect(f"/ws/tables/{table['id']}") as ws1:
        for ws, token in ((ws0, ann), (ws1, bob)):
            ws.send_json({"type": "hello", "token": token})
            receive_until(ws, lambda m: m["type"] == "state")
        ws0.send_json({"type": "rematch"})
        ws1.send_json({"type": "rematch"})
        new_id = receive_until(ws1, lambda m: m["type"] == "rematch")["table"]
    rematch = client.get(f"/api/tables/{new_id}").json()
    assert rematch["rated"] is True and rematch["rematch"]["of"] == table["id"]
    assert (rematch["hints"], rematch["move_seconds"]) == (False, table["move_seconds"])
    assert app_of(client).state.lobby.extras_store.load(new_id).rated is True
    _, seen = play_out(client, new_id, {0: ann, 1: bob})
    rated = next(m for m in seen if m["type"] == "rated")
    assert rated["table"] == new_id and {e["seat"] for e in rated["ratings"]} == {0, 1}
    finished = client.get("/api/tables", params={"status": "finished"}).json()["tables"]
    assert {row["id"]: row["rated"] for row in finished} == {table["id"]: True, new_id: True}


def test_unknown_players_and_pools_are_404(client: TestClient) -> None:
    assert client.get("/api/players/nobody").json()["code"] == "unknown_player"
    assert client.get("/api/leaderboard/chess").status_code == 404
    assert client.get("/api/leaderboard").json() == {
        "pools": ["konchinka-2", "konchinka-3-4", "kunken"]}
