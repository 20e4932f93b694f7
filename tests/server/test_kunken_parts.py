"""The server serves each Kunken action's parts (``konkun.kunken.parts``; docs/kunken.md,
"Action parts") wherever the page tells an action: the view's ``steps`` beside
``legal``, the state's ``last.parts``, the move log's entries, the replay's frames and the
analysis's moves; a game that does not describe its actions gets none."""

from __future__ import annotations

import random
from typing import Any

from konkun.kunken.parts import text_parts
from konkun.server.core.games import get_game
from konkun.server.core.movelog import move_log
from konkun.server.tables.replayframes import replay_frames
from konkun.server.web.analysis import with_parts

from .conftest import TestClient, app_of, guest, legal, new_table, receive, receive_until


def _played(game: str, seats: int, seed: str, moves: int) -> list[tuple[int, str]]:
    """(seat, text) of ``moves`` seeded random actions of a new match of ``game``."""
    adapter = get_game(game)
    match = adapter.new_match(adapter.check(None, {}, seats), seats, seed)
    rng = random.Random(seed)
    played = []
    for _ in range(moves):
        seat = match.deal.to_move
        action = rng.choice(match.deal.legal_actions())
        played.append((seat, action.text()))
        match.play(action)
    return played


def test_every_kunken_move_log_entry_carries_the_engines_parts() -> None:
    adapter = get_game("kunken")
    actions = _played("kunken", 3, "log-seed", 200)
    entries = move_log(adapter, adapter.check(None, {}, 3), 3, "log-seed", actions)
    assert [e["action"] for e in entries] == [text for _seat, text in actions]
    for entry in entries:
        assert entry["parts"] == text_parts(entry["action"])
        assert entry["parts"]["kind"] == entry["action"].split()[0]
    assert {e["parts"]["kind"] for e in entries} >= {"draw", "discard"}


def test_a_game_that_does_not_describe_its_actions_has_no_parts() -> None:
    adapter = get_game("konchinka")
    actions = _played("konchinka", 2, "k-seed", 12)
    entries = move_log(adapter, adapter.check(None, {}, 2), 2, "k-seed", actions)
    assert entries and all("parts" not in e for e in entries)
    assert adapter.describe("Qd") is None
    assert get_game("kunken").describe("no such action") is None, "bad text: no parts"


def test_analysis_moves_carry_the_parts_of_the_played_and_the_best_action() -> None:
    moves = [{"played": "take 2", "best": "draw", "turn": 1}]
    assert with_parts("kunken", moves) == [{"played": "take 2", "best": "draw", "turn": 1,
                                            "played_parts": {"kind": "take", "bank": 2},
                                            "best_parts": {"kind": "draw"}}]
    assert with_parts("konchinka", [{"played": "Qd", "best": "Qd"}]) == [
        {"played": "Qd", "best": "Qd"}]
    assert with_parts("no-such-game", moves) == moves


def _first_states(client: TestClient, moves: int) -> tuple[str, list[dict[str, Any]]]:
    """A person plays ``moves`` of a 2-seat Kunken table against a bot: the table and
    every state seen."""
    table = new_table(client, game="kunken", seats=2, bots={"1": "random"})
    token, _headers = guest(client, "ann")
    seen: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        ws.send_json({"type": "hello", "token": token})
        receive(ws)
        ws.send_json({"type": "sit", "seat": 0})
        state = receive_until(ws, lambda m: m["type"] == "state" and m["you"] == 0
                              and m["table"]["status"] == "playing")
        seen.append(state)
        played = 0
        while played < moves:
            if state["table"]["to_move"] == 0 and legal(state):
                ws.send_json({"type": "action", "action": legal(state)[-1],
                              "turn": state["turn"]})
                played += 1
            state = receive_until(ws, lambda m, turn=state["turn"]: m["type"] == "state"
                                  and m["turn"] > turn, timeout=30)
            seen.append(state)
    return table["id"], seen


def test_the_state_serves_each_legal_steps_parts_and_the_last_actions(
        client: TestClient) -> None:
    table_id, states = _first_states(client, 6)
    lasts = [s["last"] for s in states if s["last"]]
    assert lasts
    for last in lasts:
        assert last["parts"] == text_parts(last["action"])
    mine = [s for s in states if s["view"]["legal"]]
    assert mine
    for state in mine:
        view = state["view"]
        assert len(view["steps"]) == len(view["legal"])
        for text, step in zip(view["legal"], view["steps"], strict=True):
            assert {k: v for k, v in step.items() if k != "alternatives"} \
                == text_parts(text)
    theirs = [s for s in states if s["table"]["to_move"] == 1]
    assert all(s["view"]["steps"] == [] for s in theirs)
    stored = app_of(client).state.lobby.storage.load(table_id)
    frames = replay_frames(stored, 0)["frames"]
    assert frames[0].get("parts") is None
    for frame in frames[1:]:
        assert frame["parts"] == text_parts(frame["action"])
