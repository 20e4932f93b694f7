"""Issue 13, replays: a finished game's replay is built once and kept, replays and lobby
reads are served off the commit path, and they are rate-limited per address."""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from konkun.server.core.config import Settings
from konkun.server.store.storage import Storage
from konkun.server.tables import replayframes
from konkun.server.testing import HOST, request_json, run_server_in_thread

from .conftest import TestClient, legal, new_table, receive_until, running


def _finished_game(client: TestClient) -> str:
    table = new_table(client, bots={"0": "random", "1": "random"})
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        receive_until(ws, lambda m: m["table"]["status"] == "finished")
    return str(table["id"])


def test_a_finished_games_replay_is_built_once_and_kept(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    table_id = _finished_game(client)
    builds = []
    original = replayframes.replay_frames

    def counted(*args: Any) -> dict[str, Any]:
        builds.append(args[1])
        return original(*args)

    monkeypatch.setattr(replayframes, "replay_frames", counted)
    answers = [client.get(f"/api/games/{table_id}/replay?seat=all") for _ in range(4)]
    assert all(a.status_code == 200 for a in answers)
    assert len({a.content for a in answers}) == 1
    plain = client.get(f"/api/games/{table_id}/replay?seat=all",
                       headers={"Accept-Encoding": "identity"})
    assert json.loads(plain.content) == answers[0].json()
    assert builds == ["all"]


def test_replays_are_rate_limited(settings: Settings) -> None:
    settings.replay_burst = 3
    settings.replay_per_second = 0.001
    with running(settings) as client:
        table_id = _finished_game(client)
        codes = [client.get(f"/api/games/{table_id}/replay").status_code for _ in range(5)]
        assert codes == [200, 200, 200, 429, 429]
        assert client.get(f"/api/games/{table_id}/replay").json()["code"] == "rate_limited"


def test_lobby_reads_are_rate_limited(settings: Settings) -> None:
    settings.read_burst = 3
    settings.read_per_second = 0.001
    with running(settings) as client:
        codes = [client.get("/api/tables").status_code for _ in range(4)]
        assert codes == [200, 200, 200, 429]


def test_replays_and_lobby_reads_are_off_the_commit_path(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A replay whose reading is stuck in the database does not hold up a player's move."""
    release = threading.Event()
    original_load = Storage.load
    stuck: list[str] = []

    def slow_load(self: Storage, table_id: str) -> Any:
        if table_id in stuck:
            release.wait(10)
        return original_load(self, table_id)

    monkeypatch.setattr(Storage, "load", slow_load)
    with run_server_in_thread(data_dir=tmp_path) as server:
        url = server.url
        done = request_json(f"{url}/api/tables", "POST",
                            {"game": "fake", "seats": 2, "bots": {"0": "random",
                                                                   "1": "random"}})
        while request_json(f"{url}/api/tables/{done['id']}")["status"] != "finished":
            time.sleep(0.05)
        stuck.append(done["id"])
        readers = [threading.Thread(target=_quietly, args=(
            f"{url}/api/games/{done['id']}/replay?seat={seat}",), daemon=True)
            for seat in ("all", "0", "1")]
        for reader in readers:
            reader.start()
        time.sleep(0.3)  # the replays are now stuck reading the finished game
        table = request_json(f"{url}/api/tables", "POST",
                             {"game": "fake", "seats": 2, "bots": {"1": "random"}})
        token = request_json(f"{url}/api/guest", "POST", {"nickname": "ann"})["token"]
        request_json(f"{url}/api/tables/{table['id']}/sit", "POST", {"seat": 0}, token)
        with connect(f"ws://{HOST}:{server.port}/ws/tables/{table['id']}?token={token}",
                     origin=url) as ws:  # type: ignore[arg-type]
            state = json.loads(ws.recv(timeout=5))
            started = time.monotonic()
            ws.send(json.dumps({"type": "action", "turn": state["turn"],
                                "action": legal(state)[0]}))
            while json.loads(ws.recv(timeout=5)).get("turn") != state["turn"] + 1:
                pass
            assert time.monotonic() - started < 1.0
        release.set()
        for reader in readers:
            reader.join(10)


def _quietly(url: str) -> None:
    try:
        with urllib.request.urlopen(url, timeout=15) as response:
            response.read()
    except OSError:
        pass


def test_a_kept_replay_is_not_sent_again_to_a_client_that_has_it(client: TestClient) -> None:
    table_id = _finished_game(client)
    first = client.get(f"/api/games/{table_id}/replay?seat=all")
    tag = first.headers["etag"]
    again = client.get(f"/api/games/{table_id}/replay?seat=all",
                       headers={"If-None-Match": tag})
    assert (again.status_code, again.content) == (304, b"")
    assert again.headers["etag"] == tag
    other_seat = client.get(f"/api/games/{table_id}/replay?seat=0",
                            headers={"If-None-Match": tag})
    assert other_seat.status_code == 200 and other_seat.headers["etag"] != tag
    stale = client.get(f"/api/games/{table_id}/replay?seat=all",
                       headers={"If-None-Match": '"stale"'})
    assert stale.status_code == 200 and stale.json() == first.json()
