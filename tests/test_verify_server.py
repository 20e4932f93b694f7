"""``konkun verify`` on the replay document today's server really serves, with the
fairness data added as docs/fairness.md asks the server to add it: the record's and the
summary's shapes are the ones verify reads."""

from __future__ import annotations

import hashlib
import json
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

from konkun.fairness import FairSeed
from konkun.verify import verify_document

pytest.importorskip("fastapi")

from konkun.server.app import create_app
from konkun.server.config import Settings

with warnings.catch_warnings():  # starlette asks for httpx2; httpx is what we pin
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def _served_replay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fair: FairSeed,
                   body: dict[str, Any]) -> dict[str, Any]:
    """Play a bots-only table to its end on a real app; return its replay document."""
    monkeypatch.setattr("konkun.server.seats.new_secret_seed", fair.match_seed)
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


def _with_fairness(document: dict[str, Any], fair: FairSeed) -> dict[str, Any]:
    """What the server will add once wired: the commitment in the summary, the revealed
    fairness data in the record, the digests in the frames and the summary."""
    document["table"]["commitment"] = fair.commitment
    document["record"]["fairness"] = fair.reveal().to_json()
    record = document["record"]
    rules = json.dumps(record["rules"], sort_keys=True, separators=(",", ":"))
    first = f"{fair.commitment}\n{record['game']}\n{record['num_seats']}\n{rules}\n"
    digest = hashlib.sha256(first.encode()).hexdigest()
    for frame in document["frames"][1:]:
        line = f"{digest}\n{frame['turn']}:{frame['actor']}:{frame['action']}\n"
        digest = hashlib.sha256(line.encode()).hexdigest()
        frame["digest"] = digest
    document["table"]["actions_digest"] = digest
    return document


@pytest.mark.parametrize("body", [
    {"game": "konchinka", "seats": 2, "rules": {"target": "3"},
     "bots": {"0": "random", "1": "greedy"}},
    {"game": "kunken", "seats": 3, "rules": {"deals": "1"},
     "bots": {"0": "random", "1": "greedy", "2": "random"}},
])
def test_a_served_replay_with_fairness_data_is_verified(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: dict[str, Any]) -> None:
    fair = FairSeed()  # bots only: no contributions
    document = _served_replay(tmp_path, monkeypatch, fair, body)
    assert verify_document(document).message.startswith(
        "not verified: the record has no fairness data")  # today's server
    verdict = verify_document(_with_fairness(document, fair))
    assert verdict.ok, verdict.message
    document["frames"][2]["action"] = document["frames"][1]["action"]
    assert not verify_document(document).ok
