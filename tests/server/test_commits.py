"""Group commit (:mod:`konkun.server.store.commits`): the actions played at one instant share one
transaction (one ``fsync`` on SQLite), each acknowledged only once it is committed, and an
acknowledged action survives ``kill -9``."""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from sqlalchemy import event
from websockets.sync.client import connect

from konkun.server.store.commits import GroupCommit
from konkun.server.store.storage import Storage, StoredTable, TurnTakenError
from konkun.server.testing import HOST, ServerProcess, request_json

from .conftest import app_of, new_table, running
from .test_scaleout import LIMIT_ARGS


def _commits(storage: Storage) -> list[int]:
    """A list that grows by one at each commit of ``storage``'s engine."""
    seen: list[int] = []
    event.listen(storage.engine, "commit", lambda _connection: seen.append(1))
    return seen


def _table(storage: Storage, table_id: str) -> None:
    seats = [{"kind": "empty", "player_id": None, "name": None, "bot": None}] * 2
    storage.create_table(StoredTable(id=table_id, game="konchinka", variant=None, rules={},
                                     seats=seats, seed="s", status="playing",
                                     created_at="2026-12-01T00:00:00+00:00"))


def test_a_group_holding_an_action_at_a_persons_table_takes_the_urgent_lane(
        tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    for table_id in ("bots", "person"):
        _table(storage, table_id)
    thread = ThreadPoolExecutor(1)
    lanes: list[bool] = []

    async def run(function: Any, *args: Any, urgent: bool = False) -> Any:
        lanes.append(urgent)
        return await asyncio.get_running_loop().run_in_executor(thread, function, *args)

    async def play() -> None:
        writer = GroupCommit(storage, run)
        await writer.append("bots", 0, 0, "a")  # alone, a bot table's: the normal lane
        await asyncio.gather(writer.append("bots", 1, 1, "b"),  # queued at one instant:
                             writer.append("bots", 2, 0, "c"),  # one group
                             writer.append("person", 0, 0, "d", urgent=True))

    asyncio.run(play())
    assert lanes == [False, True]  # the group of b, c and d holds a person's action
    thread.shutdown()
    storage.close()


def test_actions_played_at_one_instant_share_a_commit_and_each_is_stored(
        tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    tables = [f"t{n}" for n in range(20)]
    for table_id in tables:
        _table(storage, table_id)
    commits = _commits(storage)
    thread = ThreadPoolExecutor(1)

    async def run(function: Any, *args: Any, urgent: bool = False) -> Any:
        return await asyncio.get_running_loop().run_in_executor(thread, function, *args)

    async def play(actions: list[tuple[str, int, int, str]]) -> list[BaseException | None]:
        writer = GroupCommit(storage, run)
        answers = await asyncio.gather(*(writer.append(*a) for a in actions),
                                       return_exceptions=True)
        return [a if isinstance(a, BaseException) else None for a in answers]

    assert asyncio.run(play([(t, 0, 0, f"{t}-0") for t in tables])) == [None] * 20
    assert len(commits) <= 2  # the first alone, the 19 queued meanwhile in one more
    # a group holding an action at a turn already taken (another process's): each alone
    answers = asyncio.run(play([*((t, 1, 1, f"{t}-1") for t in tables), ("t3", 0, 1, "x")]))
    assert answers[:-1] == [None] * 20
    assert isinstance(answers[-1], TurnTakenError) and answers[-1].code == "stale_turn"
    for table_id in tables:
        row = storage.load(table_id)
        assert row is not None and row.actions == [(0, f"{table_id}-0"), (1, f"{table_id}-1")]
    thread.shutdown()
    storage.close()


def test_the_server_commits_concurrent_moves_of_many_tables_in_groups(
        settings: Any) -> None:
    with running(settings) as client:
        lobby = app_of(client).state.lobby
        commits = _commits(lobby.storage)
        tables = [new_table(client, game="konchinka", rules={"target": "1"},
                            bots={"0": "random", "1": "random"})["id"] for _ in range(12)]
        deadline = time.monotonic() + 120
        while any(client.get(f"/api/tables/{t}").json()["status"] != "finished"
                  for t in tables):
            assert time.monotonic() < deadline
            time.sleep(0.1)
        actions = sum(client.get(f"/api/tables/{t}").json()["turn"] for t in tables)
        assert lobby.commits.actions == actions
        assert lobby.commits.groups < actions  # moves of different tables shared one
        assert len(commits) < actions  # every other write included: fewer than one each


def test_an_acknowledged_action_survives_kill_9(tmp_path: Path) -> None:
    server = ServerProcess(data_dir=tmp_path, bot_delay=0.0, args=LIMIT_ARGS)
    try:
        server.start()
        tables = [request_json(f"{server.url}/api/tables", "POST",
                               {"game": "konchinka", "seats": 2,
                                "bots": {"0": "random", "1": "random"}})["id"]
                  for _ in range(10)]
        seen = dict.fromkeys(tables, -1)  # the last turn each spectator was shown
        stop = threading.Event()

        def watch(table_id: str) -> None:
            try:
                with connect(f"ws://{HOST}:{server.port}/ws/tables/{table_id}") as ws:
                    while not stop.is_set():
                        message = json.loads(ws.recv(timeout=5))
                        if message["type"] == "state":
                            seen[table_id] = max(seen[table_id], int(message["turn"]))
            except Exception:  # the server was killed
                return

        watchers = [threading.Thread(target=watch, args=(t,), daemon=True) for t in tables]
        for watcher in watchers:
            watcher.start()
        time.sleep(1.0 + random.random())
        server.kill()  # SIGKILL, mid-game
        stop.set()
        for watcher in watchers:
            watcher.join(10)
        assert sum(seen.values()) > 0
        storage = Storage(f"sqlite:///{tmp_path / 'konkun.sqlite3'}")
        try:
            for table_id in tables:  # a state is sent only once its action is stored
                assert storage.count_actions(table_id) >= seen[table_id], table_id
        finally:
            storage.close()
    finally:
        server.kill()
