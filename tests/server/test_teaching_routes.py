"""The teaching API: the daily puzzle (CONTRACT.md) and the guided game's moves."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from konkun.konchinka.notation import parse_kpn
from konkun.kunken.kkn import parse_kkn
from konkun.learn import load_lesson
from konkun.puzzles import daily_puzzle

from .conftest import TestClient


@pytest.mark.parametrize("game", ["konchinka", "kunken"])
def test_daily_puzzle_has_the_position_in_the_games_notation_and_the_solution(
        client: TestClient, game: str) -> None:
    response = client.get(f"/api/puzzles/daily?game={game}")
    assert response.status_code == 200
    data: dict[str, Any] = response.json()
    today = datetime.datetime.now(datetime.UTC).date()
    assert data["date"] == today.isoformat()
    assert data["id"] == daily_puzzle(game, today).id
    if game == "konchinka":
        deal = parse_kpn(data["position"])
        assert deal.is_legal(deal.parse_action(data["solution"]))
    else:
        assert parse_kkn(data["position"]).to_move == data["seat"]
        assert data["solution"].startswith("take ")
    assert data["line"][0] == data["solution"]


def test_daily_puzzle_of_an_unknown_game_is_refused(client: TestClient) -> None:
    for query in ("?game=chess", ""):
        response = client.get(f"/api/puzzles/daily{query}")
        assert response.status_code == 400
        assert response.json()["code"] == "unknown_game"


def test_a_puzzle_by_id_and_an_unknown_one(client: TestClient) -> None:
    puzzle = daily_puzzle("kunken")
    assert client.get(f"/api/puzzles/{puzzle.id}").json()["position"] == puzzle.position
    assert client.get("/api/puzzles/nope").json()["code"] == "not_found"


def test_learn_replays_the_moves_and_refuses_one_not_taught(client: TestClient) -> None:
    lesson = load_lesson("konchinka")
    start = client.post("/api/learn/konchinka", json={"moves": []}).json()
    assert start["step"] == 0 and start["expect"] == lesson.steps[0].move
    assert start["observation"]["seat"] == lesson.seat
    assert "hands" not in start["observation"]  # the bot's cards stay hidden
    wrong = client.post("/api/learn/konchinka", json={"moves": ["Jd"]})
    assert wrong.status_code == 409 and wrong.json()["code"] == "illegal_move"
    after = client.post("/api/learn/konchinka", json={"moves": [lesson.steps[0].move]})
    assert after.json()["step"] == 1 and after.json()["bot_moves"]


@pytest.mark.parametrize("body", [{"moves": "Kh"}, {"moves": [1]}])
def test_learn_bad_body_is_a_bad_request(client: TestClient, body: dict[str, Any]) -> None:
    response = client.post("/api/learn/kunken", json=body)
    assert response.status_code == 400 and response.json()["code"] == "bad_request"


def test_learn_unknown_game_and_pages(client: TestClient) -> None:
    assert client.post("/api/learn/chess", json={}).json()["code"] == "unknown_game"
    for path in ("/learn/konchinka", "/learn/kunken", "/puzzles", "/puzzles/kunken"):
        response = client.get(path)
        assert response.status_code == 200 and "text/html" in response.headers["content-type"]
