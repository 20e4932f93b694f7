"""Provably fair deals at a served table (docs/fairness.md): the commitment is published
from the start, the seats' contributions make the match seed, the server seed is revealed
at the end, and the replay a player downloads verifies. Expected values are computed here
with hashlib from the published scheme, never read off the server's code."""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

import pytest
from starlette.testclient import TestClient

from konkun.server.core.config import Settings
from konkun.verify import verify_document

from .conftest import guest, legal, new_table, receive_until, running

HEX = frozenset("0123456789abcdef")


def _value() -> str:
    return secrets.token_hex(32)


def _sit(client: TestClient, table_id: str, seat: int, name: str,
         contribution: object = None) -> tuple[str, Any]:
    token, headers = guest(client, name)
    body: dict[str, Any] = {"seat": seat}
    if contribution is not None:
        body["contribution"] = contribution
    return token, client.post(f"/api/tables/{table_id}/sit", json=body, headers=headers)


def _match_seed(server_seed: str, contributions: dict[int, str]) -> str:
    lines = ["konkun-fair-v1", server_seed] + [f"{seat}:{value}" for seat, value
                                               in sorted(contributions.items())]
    return hashlib.sha256("".join(f"{line}\n" for line in lines).encode()).hexdigest()


def _play_out(client: TestClient, table_id: str, tokens: dict[int, str]) -> None:
    """Play every human seat's first legal action until the game is over."""
    sockets = {seat: client.websocket_connect(f"/ws/tables/{table_id}")
               for seat in tokens}
    try:
        latest = {}
        for seat, ws in sockets.items():
            ws.__enter__()
            ws.send_json({"type": "hello", "token": tokens[seat]})
            latest[seat] = receive_until(ws, lambda m, s=seat: m["type"] == "state"
                                         and m["you"] == s)
        while True:
            turn = max(state["turn"] for state in latest.values())
            for seat, ws in sockets.items():
                if latest[seat]["turn"] < turn:
                    latest[seat] = receive_until(ws, lambda m, t=turn: m["type"] == "state"
                                                 and m["turn"] >= t, timeout=30)
            state = latest[min(sockets)]
            if state["table"]["status"] == "finished":
                return
            mover = state["table"]["to_move"]
            if mover in sockets:
                sockets[mover].send_json({"type": "action", "turn": turn,
                                          "action": legal(latest[mover])[0]})
            seat = min(sockets)
            latest[seat] = receive_until(sockets[seat], lambda m, t=turn: m["type"] == "state"
                                         and m["turn"] > t, timeout=30)
    finally:
        for ws in sockets.values():
            ws.__exit__(None, None, None)


def test_a_new_table_publishes_its_commitment_and_keeps_its_server_seed(
        client: TestClient) -> None:
    table = new_table(client)
    commitment = table["commitment"]
    assert len(commitment) == 64 and set(commitment) <= HEX
    assert table["server_seed"] is None and table["contributed"] == []
    again = client.get(f"/api/tables/{table['id']}").json()
    assert again["commitment"] == commitment and again["server_seed"] is None
    assert new_table(client)["commitment"] != commitment  # a fresh seed per table


def test_a_contribution_sent_with_the_seat_is_counted_and_dropped_with_it(
        client: TestClient) -> None:
    table = new_table(client)
    token, answer = _sit(client, table["id"], 0, "ann", _value())
    assert answer.status_code == 200, answer.text
    assert answer.json()["contributed"] == [0]
    left = client.post(f"/api/tables/{table['id']}/leave",
                       headers={"Authorization": f"Bearer {token}"})
    assert left.status_code == 200, left.text
    assert client.get(f"/api/tables/{table['id']}").json()["contributed"] == []


@pytest.mark.parametrize("bad", ["xyz", "AB" * 32, "a" * 63, "a" * 65, 123, True, ["a"]])
def test_a_bad_contribution_is_refused_and_the_seat_stays_empty(
        client: TestClient, bad: object) -> None:
    table = new_table(client)
    _token, answer = _sit(client, table["id"], 0, "ann", bad)
    assert answer.status_code == 400, answer.text
    assert answer.json()["code"] in {"bad_contribution", "bad_request"}
    summary = client.get(f"/api/tables/{table['id']}").json()
    assert summary["seats"][0]["kind"] == "empty" and summary["contributed"] == []


def test_the_match_seed_comes_from_the_server_seed_and_every_contribution(
        client: TestClient) -> None:
    table = new_table(client, rules={"target": 1})
    values = {0: _value(), 1: _value()}
    tokens = {}
    for seat, name in ((0, "ann"), (1, "bob")):
        tokens[seat], answer = _sit(client, table["id"], seat, name, values[seat])
        assert answer.status_code == 200, answer.text
    started = client.get(f"/api/tables/{table['id']}").json()
    assert started["status"] == "playing" and started["contributed"] == [0, 1]
    assert started["server_seed"] is None and len(started["first_digest"]) == 64
    _play_out(client, table["id"], tokens)
    finished = client.get(f"/api/tables/{table['id']}").json()
    server_seed = finished["server_seed"]
    assert hashlib.sha256(server_seed.encode()).hexdigest() == table["commitment"]
    replay = client.get(f"/api/games/{table['id']}/replay?seat=all").json()
    assert replay["record"]["seed"] == _match_seed(server_seed, values)
    assert replay["record"]["fairness"]["contributions"] == [
        {"seat": seat, "value": value} for seat, value in values.items()]
    assert replay["table"]["actions_digest"] == finished["actions_digest"] \
        == replay["frames"][-1]["digest"]


def test_a_konchinka_game_against_a_bot_verifies_and_fails_once_altered(
        settings: Settings) -> None:
    settings = settings.model_copy(update={"rate_burst": 1000.0, "rate_per_second": 1000.0})
    with running(settings) as client:
        table = new_table(client, game="konchinka", rules={"target": "1"},
                          bots={"1": "greedy"})
        value = _value()
        token, answer = _sit(client, table["id"], 0, "ann", value)
        assert answer.status_code == 200, answer.text
        _play_out(client, table["id"], {0: token})
        document = client.get(f"/api/games/{table['id']}/replay?seat=all").json()
    verdict = verify_document(document)
    assert verdict.ok, verdict.message
    assert {"seat": 0, "value": value} in document["record"]["fairness"]["contributions"]
    document["record"]["fairness"]["contributions"][0]["value"] = _value()
    assert not verify_document(document).ok


def test_the_running_digest_survives_a_restart(settings: Settings) -> None:
    with running(settings) as client:
        table = new_table(client, rules={"target": 3})
        token, answer = _sit(client, table["id"], 0, "ann", _value())
        assert answer.status_code == 200, answer.text
        assert _sit(client, table["id"], 1, "bob", _value())[1].status_code == 200
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            ws.send_json({"type": "hello", "token": token})
            state = receive_until(ws, lambda m: m["type"] == "state" and m["you"] == 0
                                  and m["table"]["to_move"] == 0)
            ws.send_json({"type": "action", "turn": state["turn"],
                          "action": legal(state)[0]})
            receive_until(ws, lambda m, t=state["turn"]: m["type"] == "state"
                          and m["turn"] > t)
        before = client.get(f"/api/tables/{table['id']}").json()
    with running(settings) as client:
        after = client.get(f"/api/tables/{table['id']}").json()
    assert before["turn"] == after["turn"] == 1
    assert after["actions_digest"] == before["actions_digest"] is not None
    assert after["first_digest"] == before["first_digest"]


def test_a_rematch_deals_from_the_contributions_sent_with_the_votes(
        client: TestClient) -> None:
    table = new_table(client, rules={"target": 1})
    tokens = {seat: _sit(client, table["id"], seat, name, _value())[0]
              for seat, name in ((0, "ann"), (1, "bob"))}
    _play_out(client, table["id"], tokens)
    values = {0: _value(), 1: _value()}
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws0, \
            client.websocket_connect(f"/ws/tables/{table['id']}") as ws1:
        for seat, ws in ((0, ws0), (1, ws1)):
            ws.send_json({"type": "hello", "token": tokens[seat]})
            receive_until(ws, lambda m, s=seat: m["type"] == "state" and m["you"] == s)
        ws0.send_json({"type": "rematch", "contribution": values[0]})
        receive_until(ws1, lambda m: m["type"] == "state"
                      and m["table"]["rematch"]["votes"] == [0])
        ws1.send_json({"type": "rematch", "contribution": values[1]})
        moved = receive_until(ws1, lambda m: m["type"] == "rematch")
    rematch = client.get(f"/api/tables/{moved['table']}").json()
    assert rematch["status"] == "playing" and rematch["contributed"] == [0, 1]
    assert rematch["commitment"] != table["commitment"]


def test_a_rematch_commitment_is_published_before_any_contribution_for_it(
        settings: Settings) -> None:
    """The finished table's summary shows the rematch's commitment before the vote sends
    a contribution; the rematch is dealt from the seed behind that commitment, and its
    replay verifies."""
    settings = settings.model_copy(update={"rate_burst": 1000.0, "rate_per_second": 1000.0})
    with running(settings) as client:
        table = new_table(client, game="konchinka", rules={"target": "1"},
                          bots={"1": "greedy"})
        token, answer = _sit(client, table["id"], 0, "ann", _value())
        assert answer.status_code == 200, answer.text
        _play_out(client, table["id"], {0: token})
        value = _value()
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            ws.send_json({"type": "hello", "token": token})
            state = receive_until(ws, lambda m: m["type"] == "state" and m["you"] == 0)
            published = state["table"]["rematch"]["commitment"]
            assert len(published) == 64 and set(published) <= HEX
            assert published != table["commitment"]
            ws.send_json({"type": "rematch", "contribution": value})
            moved = receive_until(ws, lambda m: m["type"] == "rematch")
        rematch = client.get(f"/api/tables/{moved['table']}").json()
        assert rematch["commitment"] == published and rematch["contributed"] == [0]
        _play_out(client, moved["table"], {0: token})
        finished = client.get(f"/api/tables/{moved['table']}").json()
        document = client.get(f"/api/games/{moved['table']}/replay?seat=all").json()
    assert hashlib.sha256(finished["server_seed"].encode()).hexdigest() == published
    assert {"seat": 0, "value": value} in document["record"]["fairness"]["contributions"]
    verdict = verify_document(document)
    assert verdict.ok, verdict.message
