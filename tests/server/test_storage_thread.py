"""The storage thread runs players' actions before other waiting writes
(:mod:`konkun.server.core.storagethread`), so a client looping on table creation or seats
cannot queue a player's move behind its work."""

from __future__ import annotations

import threading
import time
from concurrent.futures import CancelledError
from typing import Any

import pytest

from konkun.server.core.storagethread import StorageThread

from .conftest import TestClient, app_of, legal, new_table, receive_until, sit


def test_an_urgent_job_runs_before_every_waiting_normal_job() -> None:
    worker = StorageThread()
    started, release = threading.Event(), threading.Event()
    ran: list[str] = []

    def blocker() -> None:
        started.set()
        release.wait(10)

    try:
        first = worker.normal.submit(blocker)
        assert started.wait(10)
        normal = [worker.normal.submit(ran.append, f"normal {n}") for n in range(5)]
        urgent = [worker.urgent.submit(ran.append, f"action {n}") for n in range(2)]
        release.set()
        for future in [first, *normal, *urgent]:
            future.result(10)
    finally:
        worker.shutdown()
    assert ran == ["action 0", "action 1", *[f"normal {n}" for n in range(5)]]


def test_a_job_that_fails_gives_its_error_and_the_thread_goes_on() -> None:
    worker = StorageThread()
    try:
        failed = worker.normal.submit(int, "not a number")
        with pytest.raises(ValueError, match="not a number"):
            failed.result(10)
        assert worker.urgent.submit(int, "7").result(10) == 7
    finally:
        worker.shutdown()


def test_shutdown_runs_or_cancels_what_waits_and_then_refuses() -> None:
    worker = StorageThread()
    started, release = threading.Event(), threading.Event()
    running = worker.normal.submit(lambda: started.set() or release.wait(10))
    assert started.wait(10)
    waiting = worker.normal.submit(lambda: "never")
    release.set()
    worker.shutdown(cancel_futures=True)
    assert running.result(10) is True
    with pytest.raises(CancelledError):
        waiting.result(10)
    with pytest.raises(RuntimeError):
        worker.normal.submit(lambda: None)


def test_a_human_tables_action_overtakes_queued_lobby_writes(client: TestClient) -> None:
    """Through the WebSocket: while the storage thread is busy and other writes wait, a
    player's action is stored first."""
    table = new_table(client)
    tokens = [sit(client, table["id"], seat, f"p{seat}") for seat in range(2)]
    lobby = app_of(client).state.lobby
    order: list[str] = []
    started, release = threading.Event(), threading.Event()
    store = lobby.storage.append_action

    def append_action(*args: Any) -> None:
        order.append("action")
        store(*args)

    def blocker() -> None:
        started.set()
        release.wait(10)

    def queued(lane: Any, count: int) -> None:
        """Wait until ``count`` jobs of ``lane`` wait in the storage thread (a loaded
        machine takes its time to hand them over)."""
        deadline = time.monotonic() + 10
        while sum(job[0] == lane._priority for job in lane._thread._queue) < count:
            assert time.monotonic() < deadline, f"fewer than {count} jobs queued"
            time.sleep(0.01)

    lobby.storage.append_action = append_action
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        ws.send_json({"type": "hello", "token": tokens[0]})
        state = receive_until(ws, lambda m: m["type"] == "state" and m["you"] == 0)
        portal = client.portal
        assert portal is not None
        portal.start_task_soon(lobby.db, blocker)
        assert started.wait(10)
        for number in range(3):
            portal.start_task_soon(lobby.db, order.append, f"lobby write {number}")
        queued(lobby.threads.storage, 3)
        ws.send_json({"type": "action", "turn": 0, "action": legal(state)[0]})
        queued(lobby.threads.actions, 1)
        release.set()
        receive_until(ws, lambda m: m["type"] == "state" and m["turn"] == 1)
        portal.call(lobby.db, order.append, "after")  # once the lobby writes are done
    assert order == ["action", *[f"lobby write {n}" for n in range(3)], "after"]
