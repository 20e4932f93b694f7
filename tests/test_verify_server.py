"""``konkun verify`` on the replay document a real server serves: the fairness data it
publishes (docs/fairness.md) is checked here with hashlib alone, then by the verifier."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
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
    """The digests of docs/fairness.md step 6, computed here with hashlib alone (a server's
    first digest binds its seats' kinds and names too)."""
    record, table = document["record"], document["table"]
    rules = json.dumps(record["rules"], sort_keys=True, separators=(",", ":"))
    seats = json.dumps([{"kind": seat["kind"], "name": seat["name"]} for seat in table["seats"]],
                       sort_keys=True, separators=(",", ":"))  # ASCII: \uXXXX beyond it
    first = (f"{table['commitment']}\n{record['game']}\n{record['num_seats']}\n{rules}\n"
             f"{seats}\n")
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


KONCHINKA_BOTS = {"game": "konchinka", "seats": 2, "rules": {"target": "3"},
                  "bots": {"0": "random", "1": "greedy"}}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One served replay document (every hand open) of a bots' Konchinka game."""
    return _served_replay(tmp_path_factory.mktemp("served"), KONCHINKA_BOTS)


def _copy(document: dict[str, Any]) -> dict[str, Any]:
    copied: dict[str, Any] = json.loads(json.dumps(document))
    return copied


def test_a_replay_with_the_seat_names_swapped_is_refused(served: dict[str, Any],
                                                          tmp_path: Path) -> None:
    assert verify_document(served).ok
    swapped = _copy(served)
    seats = swapped["table"]["seats"]
    seats[0]["name"], seats[1]["name"] = seats[1]["name"], seats[0]["name"]
    verdict = verify_document(swapped)
    assert not verdict.ok and "first digest" in verdict.message
    path = tmp_path / "swapped.json"
    path.write_text(json.dumps(swapped))
    done = subprocess.run([sys.executable, "-m", "konkun", "verify", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and done.stdout.startswith("not verified:"), done


def test_a_replay_whose_frames_show_other_cards_is_refused(served: dict[str, Any]) -> None:
    for key in ("views", "view"):
        altered = _copy(served)
        frame = altered["frames"][3]
        hand = frame["views"][0]["deal"]["hand"] if key == "views" else None
        if key == "views":
            hand[0], frame["views"][1]["deal"]["hand"][0] = \
                frame["views"][1]["deal"]["hand"][0], hand[0]
        else:
            frame["view"]["deal"]["table"] = [*reversed(frame["view"]["deal"]["table"]), "As"]
        verdict = verify_document(altered)
        assert not verdict.ok and "frame 3" in verdict.message, (key, verdict.message)


def test_false_results_in_the_summary_beside_a_record_result_are_refused(
        served: dict[str, Any]) -> None:
    record = served["record"]
    altered = _copy(served)
    altered["record"]["result"] = {"totals": served["table"]["totals"],
                                   "winner": served["table"]["winner"],
                                   "actions_digest": served["table"]["actions_digest"]}
    assert verify_document(altered).ok  # the true results, shown twice
    altered["table"]["winner"] = 1 - served["table"]["winner"]
    altered["table"]["totals"] = list(reversed(served["table"]["totals"]))
    verdict = verify_document(altered)
    assert not verdict.ok and "table" in verdict.message, verdict.message
    assert record == served["record"]


def test_a_verified_replay_names_every_field_it_did_not_verify(
        served: dict[str, Any]) -> None:
    verdict = verify_document(served)
    assert verdict.ok
    unverified = verdict.message.split("shown but not verified (nothing binds them): ")[1]
    assert set(unverified.split(", ")) == {
        "table.id", "table.variant", "table.rules.target", "table.seats[*].bot",
        "table.seats[*].connected", "table.spectators", "table.created_at",
        "table.finished_at", "table.link", "chat"}
    added = _copy(served)
    added["table"]["note"] = "seat 1 cheated"
    message = verify_document(added).message
    assert "table.note" in message



def test_kunken_frames_without_the_later_steps_field_verify_and_altered_steps_do_not(
        tmp_path: Path) -> None:
    """A Kunken replay exported before views had ``steps`` (the parts of the legal
    actions) is still verified; a frame whose steps differ from the replay's is not."""
    document = _served_replay(tmp_path, {"game": "kunken", "seats": 2, "rules": {"deals": "1"},
                                         "bots": {"0": "random", "1": "greedy"}})
    turn = next(n for n, frame in enumerate(document["frames"])
                if any(view["steps"] for view in frame["views"]))
    older = _copy(document)
    for frame in older["frames"]:
        for view in frame["views"]:
            del view["steps"]
    assert verify_document(older).ok
    altered = _copy(document)
    steps = next(view["steps"] for view in altered["frames"][turn]["views"] if view["steps"])
    steps[0] = {"kind": "draw"} if steps[0]["kind"] != "draw" else {"kind": "discard"}
    verdict = verify_document(altered)
    assert not verdict.ok and f"frame {turn}" in verdict.message, verdict.message
