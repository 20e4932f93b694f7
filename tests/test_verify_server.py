"""``konkun verify`` on the replay document a real server serves: the fairness data it
publishes (docs/fairness.md) is checked here with hashlib alone, then by the verifier."""

from __future__ import annotations

import hashlib
import json
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

from konkun.verify import verify_document

pytest.importorskip("fastapi")

from konkun.server.app import create_app
from konkun.server.core.config import Settings

with warnings.catch_warnings():  # starlette asks for httpx2; httpx is what we pin
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def _served_replay(tmp_path: Path, body: dict[str, Any]) -> dict[str, Any]:
    """Play a bots-only table to its end on a real app; return its replay document."""
    settings = Settings(data_dir=tmp_path / "data", secret="test-secret", bot_delay=0.0)
    with TestClient(create_app(settings)) as client:
        response = client.post("/api/tables", json=body)
        assert response.status_code == 201, response.text
        table_id = response.json()["id"]
        deadline = time.monotonic() + 60
        while True:
            replay = client.get(f"/api/games/{table_id}/replay?seat=all")
            if replay.status_code == 200:
                document: dict[str, Any] = replay.json()
                return document
            assert time.monotonic() < deadline, replay.text
            time.sleep(0.05)


def _chain(document: dict[str, Any]) -> list[str]:
    """The digests of docs/fairness.md step 6, computed here with hashlib alone."""
    record, table = document["record"], document["table"]
    rules = json.dumps(record["rules"], sort_keys=True, separators=(",", ":"))
    first = f"{table['commitment']}\n{record['game']}\n{record['num_seats']}\n{rules}\n"
    chain = [hashlib.sha256(first.encode()).hexdigest()]
    for frame in document["frames"][1:]:
        line = f"{chain[-1]}\n{frame['turn']}:{frame['actor']}:{frame['action']}\n"
        chain.append(hashlib.sha256(line.encode()).hexdigest())
    return chain


@pytest.mark.parametrize("body", [
    {"game": "konchinka", "seats": 2, "rules": {"target": "3"},
     "bots": {"0": "random", "1": "greedy"}},
    {"game": "kunken", "seats": 3, "rules": {"deals": "1"},
     "bots": {"0": "random", "1": "greedy", "2": "random"}},
])
def test_a_served_replay_is_verified_as_served(tmp_path: Path, body: dict[str, Any]) -> None:
    document = _served_replay(tmp_path, body)
    table, fairness = document["table"], document["record"]["fairness"]
    server_seed = table["server_seed"]
    assert hashlib.sha256(server_seed.encode()).hexdigest() == table["commitment"]
    assert fairness == {"scheme": "konkun-fair-v1", "commitment": table["commitment"],
                        "server_seed": server_seed, "contributions": []}  # bots only
    message = f"konkun-fair-v1\n{server_seed}\n".encode()
    assert document["record"]["seed"] == hashlib.sha256(message).hexdigest()
    chain = _chain(document)
    assert [frame["digest"] for frame in document["frames"]] == chain
    assert (table["first_digest"], table["actions_digest"]) == (chain[0], chain[-1])
    verdict = verify_document(document)
    assert verdict.ok, verdict.message
    document["frames"][2]["action"] = document["frames"][1]["action"]
    assert not verify_document(document).ok
