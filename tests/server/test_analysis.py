"""The replay page's "Analyse" (issue 14): ``POST /api/games/{id}/analysis`` analyses a
finished game in the background on the bot scheduler, one analysis per game, a bounded
number at once, kept when done; ``GET`` reads its progress and result."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from konkun.server.web.analysis import ANALYSIS_CLIENT, AnalysisService, AnalysisSettings

from .conftest import TestClient, app_of, new_table, receive_until


def _finished_game(client: TestClient, game: str = "konchinka") -> str:
    rules = {"target": "1"} if game in ("konchinka", "toy") else {}
    table = new_table(client, game=game, bots={"0": "random", "1": "random"}, rules=rules)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        receive_until(ws, lambda m: m["table"]["status"] == "finished", timeout=30)
    return str(table["id"])


def _service(client: TestClient) -> AnalysisService:
    service = app_of(client).state.analysis
    assert isinstance(service, AnalysisService)
    service.settings = AnalysisSettings(samples=3, seconds=0.2, step=8)
    return service


def _wait_done(client: TestClient, table_id: str, timeout: float = 60.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        answer: dict[str, Any] = client.get(f"/api/games/{table_id}/analysis").json()
        if answer["status"] != "running":
            return answer
        assert time.monotonic() < deadline, answer
        time.sleep(0.1)


def test_an_unknown_game_has_no_analysis(client: TestClient) -> None:
    for table_id in ("nosuch", "x" * 40):
        response = client.post(f"/api/games/{table_id}/analysis")
        assert response.status_code == 404
        assert response.json()["code"] == "unknown_table"


def test_a_game_not_yet_finished_is_not_analysed(client: TestClient) -> None:
    table = new_table(client, game="konchinka")
    response = client.post(f"/api/games/{table['id']}/analysis")
    assert response.status_code == 409
    assert response.json()["code"] == "not_finished"
    assert client.get(f"/api/games/{table['id']}/analysis").json()["status"] == "none"


def test_a_third_game_is_analysed_in_the_search_processes(client: TestClient) -> None:
    # the analysis reads the record through the game's descriptor, so any registered game
    # is analysed; the toy game, registered by text (tests/conftest.py), is registered in
    # the scheduler's worker processes too
    _service(client)
    table_id = _finished_game(client, "toy")
    assert client.post(f"/api/games/{table_id}/analysis").status_code == 202
    answer = _wait_done(client, table_id)
    assert answer["status"] == "done", answer
    assert answer["game"] == "toy"
    assert answer["done"] == answer["total"] == len(answer["moves"]) > 0
    # it has no marks of its own: the generic scale
    assert answer["thresholds"] == {"inaccuracy": 0.3, "mistake": 0.7, "blunder": 1.5}


def test_a_game_no_longer_registered_is_refused_by_its_name(client: TestClient) -> None:
    from konkun.game import unregister_game

    table_id = _finished_game(client, "fake")
    unregister_game("fake")
    response = client.post(f"/api/games/{table_id}/analysis")
    assert response.status_code == 400
    assert response.json()["code"] == "unknown_game"
    assert "'fake'" in response.json()["message"]


def test_a_finished_game_is_analysed_move_by_move_for_every_seat(client: TestClient) -> None:
    service = _service(client)
    table_id = _finished_game(client)
    started = client.post(f"/api/games/{table_id}/analysis")
    assert started.status_code == 202
    assert started.json()["status"] == "running"
    answer = _wait_done(client, table_id)
    assert answer["status"] == "done", answer
    moves = answer["moves"]
    assert answer["done"] == answer["total"] == len(moves) > 0
    assert {m["seat"] for m in moves} == {0, 1}
    actions = client.get(f"/api/games/{table_id}/replay").json()["record"]["actions"]
    assert [m["played"] for m in moves] == [actions[m["turn"]] for m in moves]
    for move in moves:
        assert move["best_value"] >= move["played_value"]
        assert move["loss"] == pytest.approx(move["best_value"] - move["played_value"],
                                             abs=0.002)
        assert (move["mark"] is None) == (move["loss"] < answer["thresholds"]["inaccuracy"])
    (deal,) = answer["deals"]  # a game to 1 point: one deal
    for seat in deal["seats"]:
        mine = [m for m in moves if m["seat"] == seat["seat"]]
        assert seat["moves"] == len(mine)
        assert seat["lost"] == pytest.approx(sum(m["loss"] for m in mine), abs=0.01)
    assert service.started == 1


def test_repeated_requests_share_one_analysis_and_then_its_kept_result(
        client: TestClient) -> None:
    service = _service(client)
    table_id = _finished_game(client)
    first = client.post(f"/api/games/{table_id}/analysis").json()
    again = client.post(f"/api/games/{table_id}/analysis").json()
    assert first["status"] == again["status"] == "running"
    done = _wait_done(client, table_id)
    kept = client.post(f"/api/games/{table_id}/analysis")
    assert kept.status_code == 200
    assert kept.json() == done
    assert service.started == 1


def test_at_most_max_running_games_are_analysed_at_once(client: TestClient) -> None:
    service = _service(client)
    service.settings = AnalysisSettings(samples=2, seconds=0.1, max_running=1)
    gate = asyncio.Event()
    calls: list[str] = []
    real_runner = service.runner

    async def held(function: Any, *args: Any) -> Any:
        calls.append(function.__name__)
        await gate.wait()  # the first analysis stays running until the gate opens
        return await real_runner(function, *args)

    service.runner = held
    first, second = _finished_game(client), _finished_game(client)
    assert client.post(f"/api/games/{first}/analysis").status_code == 202
    busy = client.post(f"/api/games/{second}/analysis")
    assert busy.status_code == 503
    assert busy.json()["code"] == "analysis_busy"
    assert client.post(f"/api/games/{first}/analysis").status_code == 202  # its own: fine
    portal = client.portal
    assert portal is not None
    portal.call(gate.set)
    assert _wait_done(client, first)["status"] == "done"
    assert client.post(f"/api/games/{second}/analysis").status_code == 202
    assert _wait_done(client, second)["status"] == "done"
    assert calls[0] == "count_moves"


def test_the_analysis_runs_on_the_bot_scheduler_as_its_own_client(client: TestClient) -> None:
    service = _service(client)
    lobby = app_of(client).state.lobby
    seen: list[tuple[str, bool, bool]] = []
    real_run = lobby.scheduler.run

    async def watched(function: Any, *args: Any, client: str, human: bool,
                      quick: bool) -> Any:
        if function.__module__ == "konkun.server.web.analysis":
            seen.append((client, human, quick))
        return await real_run(function, *args, client=client, human=human, quick=quick)

    lobby.scheduler.run = watched
    table_id = _finished_game(client)
    client.post(f"/api/games/{table_id}/analysis")
    assert _wait_done(client, table_id)["status"] == "done"
    assert seen and set(seen) == {(ANALYSIS_CLIENT, False, False)}
    assert service.running == 0
