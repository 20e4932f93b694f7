"""The benchmark's breakdown of a move's time inside the server (``Settings.stage_times``,
:mod:`konkun.server.core.stagetimes`): recorded when asked for, for the move only, and off
otherwise."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

from konkun.server.core.config import Settings
from konkun.server.core.stagetimes import (
    STAGES,
    current_move,
    reset_file,
    tracing_move,
    watch_loop,
)

from .conftest import TestClient, new_table, receive_until, running, sit


def _stages_when(path: Path, ready: Any, timeout: float = 10.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        if path.exists():
            stages: dict[str, Any] = json.loads(path.read_text())
            if ready(stages):
                return stages
        assert time.monotonic() < deadline, f"no such stage times in {path}"
        time.sleep(0.05)


def _play_one_move(client: TestClient) -> None:
    table = new_table(client)
    tokens = [sit(client, table["id"], seat, f"p{seat}") for seat in range(2)]
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        ws.send_json({"type": "hello", "token": tokens[0]})
        state = receive_until(ws, lambda m: m["type"] == "state" and m["you"] == 0)
        ws.send_json({"type": "action", "turn": 0,
                      "action": state["view"]["deal"]["legal"][0]})
        receive_until(ws, lambda m: m["type"] == "state" and m["turn"] == 1)


def test_stage_times_show_where_a_moves_time_went(settings: Settings, tmp_path: Path) -> None:
    settings.stage_times = tmp_path / "stages.json"
    with running(settings) as client:
        _play_one_move(client)
        stages = _stages_when(settings.stage_times,
                              lambda s: s.get("move.to_socket", {}).get("n") == 1)
    for stage in ("move.lock", "move.query_queue", "move.query_run", "move.query_cpu",
                  "move.query_resume", "move.apply", "move.broadcast", "move.encode",
                  "move.total", "move.send"):
        assert stages[stage]["n"] >= 1, stage
    assert stages["move.total"]["n"] == 1  # one move, whatever else the server stored
    assert stages["query.append_action"]["n"] == 1
    assert stages["move.query_run"]["max"] <= stages["move.total"]["max"]
    assert stages["move.total"]["max"] <= stages["move.to_socket"]["max"]
    assert stages["loop.lag"]["n"] > 0
    assert not STAGES.enabled  # the server stopped: off again


def test_stage_times_start_afresh_when_asked(settings: Settings, tmp_path: Path) -> None:
    settings.stage_times = tmp_path / "stages.json"
    with running(settings) as client:
        _play_one_move(client)
        _stages_when(settings.stage_times, lambda s: "move.total" in s)
        reset = reset_file(settings.stage_times)
        reset.touch()
        # The server writes the fresh summary, then removes the file that asked for it:
        # read once it is gone (a summary read before, then the check, was the old one).
        deadline = time.monotonic() + 10
        while reset.exists():
            assert time.monotonic() < deadline, "the server never started afresh"
            time.sleep(0.05)
        stages = json.loads(settings.stage_times.read_text())
    assert "move.total" not in stages


def test_without_stage_times_nothing_is_recorded(client: TestClient) -> None:
    _play_one_move(client)
    assert not STAGES.enabled
    assert STAGES.summary() == {}
    with tracing_move() as trace:
        assert trace is None
        assert current_move() is None


def test_work_started_during_a_move_is_not_part_of_it() -> None:
    async def later() -> object:
        await asyncio.sleep(0)
        return current_move()

    async def scenario() -> tuple[object, object]:
        with tracing_move() as trace:
            task = asyncio.get_running_loop().create_task(later())  # a bot's loop, say
            assert current_move() is trace
        return trace, await task

    STAGES.enabled = True
    try:
        trace, seen_later = asyncio.run(scenario())
    finally:
        STAGES.enabled = False
        STAGES.clear()
    assert trace is not None
    assert seen_later is None


def test_the_reset_file_goes_only_once_the_fresh_summary_is_written(
        tmp_path: Path, monkeypatch: Any) -> None:
    # Whoever waits for the reset file to go must then read a summary that starts afresh
    # (the old order, remove then write, let a reader see the summary before the reset).
    path = tmp_path / "stages.json"
    seen: list[tuple[bool, dict[str, Any]]] = []
    write = STAGES.write

    def spying_write(target: Path) -> None:
        seen.append((reset_file(target).exists(), STAGES.summary()))
        write(target)

    async def one_write() -> None:
        task = asyncio.get_running_loop().create_task(watch_loop(path, every=0.0))
        while reset_file(path).exists():
            await asyncio.sleep(0.01)
        task.cancel()

    monkeypatch.setattr(STAGES, "write", spying_write)
    STAGES.enabled = True
    try:
        STAGES.add("move.total", 0.5)
        reset_file(path).touch()
        asyncio.run(one_write())
    finally:
        STAGES.enabled = False
        STAGES.clear()
    reset_before_its_file_went, summary = seen[0]
    assert reset_before_its_file_went
    assert "move.total" not in summary
    assert "move.total" not in json.loads(path.read_text())
