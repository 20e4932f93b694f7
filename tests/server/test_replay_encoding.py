"""A finished game's replay is built in a worker process, and encoded frame by frame (so
the JSON encoder never holds the interpreter lock for a whole replay) into exactly the
bytes one ``json.dumps`` gives."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from konkun.server.core.config import Settings
from konkun.server.features.replays import encode_json_frames, encode_replay

from .conftest import TestClient, app_of, new_table, receive_until, running

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=10)


@given(st.dictionaries(st.sampled_from(["table", "record", "seat", "chat", "fair"]), JSON),
       st.lists(st.dictionaries(st.text(max_size=5), JSON, max_size=4), max_size=5),
       st.integers(0, 5))
def test_a_replay_encoded_frame_by_frame_is_the_same_json(
        fields: dict[str, Any], frames: list[dict[str, Any]], where: int) -> None:
    """Wherever ``frames`` sits among the keys, whatever text the other fields hold (a
    chat line may hold anything)."""
    items = list(fields.items())
    payload = dict([*items[:where], ("frames", frames), *items[where:]])
    expected = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    assert encode_json_frames(payload) == expected
    assert encode_replay(payload).body == expected.encode()


def test_a_payload_without_frames_is_encoded_whole() -> None:
    payload = {"table": {"id": "t"}, "frames": "not a list"}
    assert encode_json_frames(payload) == '{"table":{"id":"t"},"frames":"not a list"}'


def _finished_konchinka(client: TestClient) -> str:
    table = client.post("/api/tables", json={
        "game": "konchinka", "seats": 2, "bots": {"0": "random", "1": "random"}}).json()
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        receive_until(ws, lambda m: m["table"]["status"] == "finished", timeout=60)
    return str(table["id"])


def test_a_replay_is_built_in_the_worker_process_as_in_a_thread(settings: Settings) -> None:
    """The replay built in the worker process is the one a read thread builds; a game
    registered as an object (the tests' fake game) is built in a thread."""
    with running(settings) as client:
        lobby = app_of(client).state.lobby
        fake = new_table(client, bots={"0": "random", "1": "random"})
        with client.websocket_connect(f"/ws/tables/{fake['id']}") as ws:
            receive_until(ws, lambda m: m["table"]["status"] == "finished")
        assert client.get(f"/api/games/{fake['id']}/replay?seat=all").status_code == 200
        assert not lobby.replay_worker.started
        table_id = _finished_konchinka(client)
        in_process = client.get(f"/api/games/{table_id}/replay?seat=all")
        assert lobby.replay_worker.started
    settings.replay_processes = False
    with running(settings) as client:
        in_thread = client.get(f"/api/games/{table_id}/replay?seat=all")
        assert not app_of(client).state.lobby.replay_worker.started
    assert in_process.status_code == in_thread.status_code == 200
    assert in_process.content == in_thread.content
    assert len(in_process.json()["frames"]) > 1
