"""SQLite commits without waiting for the disk (WAL, ``synchronous=NORMAL``) and still
keep every acknowledged action when the server process is killed; ``full`` is there for
whoever must survive a power loss too."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from websockets.sync.client import connect

from konkun.server.core.config import SettingsError, load_settings
from konkun.server.store.storage import Storage
from konkun.server.testing import ServerProcess, request_json

SYNCHRONOUS = {1: "normal", 2: "full"}
"""SQLite's answers to ``PRAGMA synchronous``."""


def _pragmas(storage: Storage) -> tuple[str, str]:
    with storage.engine.connect() as connection:
        journal = connection.execute(text("PRAGMA journal_mode")).scalar_one()
        synchronous = connection.execute(text("PRAGMA synchronous")).scalar_one()
    return str(journal), SYNCHRONOUS[int(synchronous)]


def test_sqlite_commits_do_not_wait_for_the_disk_by_default(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    try:
        assert _pragmas(storage) == ("wal", "normal")
    finally:
        storage.close()


def test_sqlite_synchronous_full_is_kept_on_request(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'db.sqlite3'}", "full")
    try:
        assert _pragmas(storage) == ("wal", "full")
    finally:
        storage.close()


def test_a_bad_sqlite_synchronous_is_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="sqlite_synchronous"):
        load_settings(sqlite_synchronous="off", data_dir=tmp_path)
    with pytest.raises(ValueError, match="'off'"):
        Storage(f"sqlite:///{tmp_path / 'db.sqlite3'}", "off")


def _state(ws: Any, turn: int, to_play: bool = False) -> dict[str, Any]:
    """The first state of ``turn`` or later (``to_play``: that lets this seat play)."""
    while True:
        message = json.loads(ws.recv(timeout=30))
        if message["type"] == "state" and message["turn"] >= turn and (
                not to_play or message["view"]["deal"]["legal"]):
            return dict(message)


def test_every_acknowledged_action_survives_kill_9_with_synchronous_normal(
        tmp_path: Path) -> None:
    """Two humans play; right after the last acknowledgement the process is killed
    (SIGKILL, no shutdown code); the database then holds every action acknowledged."""
    server = ServerProcess(data_dir=tmp_path / "data", bot_delay=0.0).start()
    try:
        tokens = [request_json(f"{server.url}/api/guest", "POST", {"nickname": f"p{seat}"})
                  ["token"] for seat in range(2)]
        table = request_json(f"{server.url}/api/tables", "POST",
                             {"game": "konchinka", "seats": 2})
        for seat, token in enumerate(tokens):
            request_json(f"{server.url}/api/tables/{table['id']}/sit", "POST",
                         {"seat": seat}, token)
        url = f"ws://127.0.0.1:{server.port}/ws/tables/{table['id']}"
        with connect(url) as first, connect(url) as second:
            sockets = [first, second]
            for ws, token in zip(sockets, tokens, strict=True):
                ws.send(json.dumps({"type": "hello", "token": token}))
            state = _state(first, 0)
            for turn in range(6):
                mover = sockets[state["table"]["to_move"]]
                state = _state(mover, turn, to_play=True)
                mover.send(json.dumps({"type": "action", "turn": turn,
                                       "action": state["view"]["deal"]["legal"][0]}))
                state = _state(mover, turn + 1)  # acknowledged
            acknowledged = state["turn"]
            server.kill()
    finally:
        server.kill()
    storage = Storage(f"sqlite:///{tmp_path / 'data' / 'konkun.sqlite3'}")
    try:
        assert storage.count_actions(table["id"]) >= acknowledged == 6
    finally:
        storage.close()
