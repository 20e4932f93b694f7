"""The teaching API: the daily puzzle (CONTRACT.md) and the guided game's moves."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from konkun.konchinka.notation import parse_kpn
from konkun.kunken.kkn import parse_kkn
from konkun.learn import load_lesson
from konkun.puzzles import daily_puzzle
from konkun.puzzles.collection import puzzles_of

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


def _verb_and_rest(text: str) -> tuple[str, list[str]]:
    verb, *rest = text.split()
    return verb, rest


def _assert_parts_of(parts: dict[str, Any], text: str) -> None:
    """The served parts say what the action's text says (docs/kunken.md, "Action parts")."""
    verb, rest = _verb_and_rest(text)
    assert parts["kind"] == verb, (parts, text)
    if verb == "take":
        assert parts["bank"] == int(rest[0]) and "cards" not in parts
    elif verb in ("meld", "discard"):
        assert parts["cards"] == rest
    elif verb == "layoff":
        assert (parts["cards"], parts["meld"]) == ([rest[0]], int(rest[1]))
    elif verb == "swap":
        assert (parts["cards"], parts["meld"]) == ([rest[1]], int(rest[0]))


def test_kunken_lesson_serves_the_parts_of_the_taught_action_and_the_bots_moves(
        client: TestClient) -> None:
    lesson = load_lesson("kunken")
    moves = [step.move for step in lesson.steps]
    # the taught melds' points by RULES.md, Values: A, K, Q, J = 10; T..2 = 5
    points = {"meld Ad Ah As": 30, "meld Td Jd Qd": 25}
    views = [client.post("/api/learn/kunken", json={"moves": moves[:n]}).json()
             for n in range(len(moves) + 1)]
    for n, view in enumerate(views):
        taught = view["expect"]
        if taught is None:
            assert n == len(moves) and view["expect_parts"] is None
        else:
            _assert_parts_of(view["expect_parts"], taught)
            if taught in points:
                assert view["expect_parts"]["points"] == points[taught]
        assert len(view["bot_parts"]) == len(view["bot_moves"])
        for parts, text in zip(view["bot_parts"], view["bot_moves"], strict=True):
            _assert_parts_of(parts, text)
    # the bot answers the player's discard of 7c by taking the bank: it took from the bank
    # as it was after that discard (the bank shown before it, and the 7c)
    after_discard = views[2]
    assert after_discard["bot_moves"][0].startswith("take ")
    assert after_discard["bot_bank"] == [*views[1]["observation"]["bank"], "7c"]


def test_konchinka_lesson_serves_no_kunken_parts(client: TestClient) -> None:
    view = client.post("/api/learn/konchinka", json={"moves": []}).json()
    assert not {"expect_parts", "bot_parts", "bot_bank"} & set(view)


def test_kunken_puzzles_serve_the_parts_of_the_solution_and_of_each_line_move(
        client: TestClient) -> None:
    for puzzle in puzzles_of("kunken"):
        served = client.get(f"/api/puzzles/{puzzle.id}").json()
        assert served["solution"] == puzzle.solution
        _assert_parts_of(served["solution_parts"], puzzle.solution)
        bank = served["board"]["observation"]["bank"]
        assert 0 <= served["solution_parts"]["bank"] < len(bank)  # a card of the board's bank
        assert len(served["line_parts"]) == len(puzzle.line)
        for parts, text in zip(served["line_parts"], puzzle.line, strict=True):
            _assert_parts_of(parts, text)
    konchinka = client.get("/api/puzzles/daily?game=konchinka").json()
    assert not {"solution_parts", "line_parts"} & set(konchinka)
