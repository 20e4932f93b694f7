"""The move clock and absent players (docs/protocol.md, issue 12): a bot plays for a seat
that ran out of time or whose player is gone, and the player takes the seat back."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from konkun.server.core.config import Settings
from konkun.server.features import clock as clock_module

from .conftest import TestClient, WebSocketTestSession, guest, receive_until, running, sit


@pytest.fixture
def quick(settings: Settings) -> Settings:
    """A server whose away seats move after 0.2 s and absent players may be voted out
    after 0.3 s."""
    settings.away_grace = 0.2
    settings.absent_vote_after = 0.3
    return settings


def _table(client: TestClient, **options: Any) -> tuple[str, list[str]]:
    _, headers = guest(client, "host")
    answer = client.post("/api/tables", json={"game": "fake", "seats": 2,
                                               "rules": {"target": 5}} | options,
                         headers=headers)
    table_id = answer.json()["id"]
    return table_id, [sit(client, table_id, seat, f"p{seat}") for seat in range(2)]


def _socket(client: TestClient, table_id: str, token: str) -> Any:
    return client.websocket_connect(f"/ws/tables/{table_id}?token={token}")


@contextlib.contextmanager
def _seated_while_connected(client: TestClient, **options: Any,
                            ) -> Iterator[tuple[list[WebSocketTestSession], float]]:
    """A 2-seat table whose players open their sockets before they sit: the game starts
    with both of them there (a player who sits, then connects late, is away at once on a
    clocked table, and the stand-in plays for them after the grace, not the clock). The
    second socket opens after more than the grace, as on a loaded machine. Yields the
    sockets and the monotonic time before the seats were taken."""
    _, headers = guest(client, "host")
    answer = client.post("/api/tables", json={"game": "fake", "seats": 2,
                                               "rules": {"target": 5}} | options,
                         headers=headers)
    table_id = answer.json()["id"]
    players = [guest(client, f"p{seat}") for seat in range(2)]
    with _socket(client, table_id, players[0][0]) as ws0:
        time.sleep(0.3)
        with _socket(client, table_id, players[1][0]) as ws1:
            sitting = time.monotonic()
            for seat, (_, player_headers) in enumerate(players):
                response = client.post(f"/api/tables/{table_id}/sit", json={"seat": seat},
                                       headers=player_headers)
                assert response.status_code == 200, response.text
            yield [ws0, ws1], sitting


def _state_after(ws: WebSocketTestSession, turn: int, timeout: float = 10) -> dict[str, Any]:
    return receive_until(ws, lambda m: m["type"] == "state" and m["turn"] > turn, timeout)


def test_a_seat_out_of_time_is_played_by_the_bot_and_marked_away(quick: Settings) -> None:
    with running(quick) as client, \
            _seated_while_connected(client, move_seconds=1) as (sockets, started):
        # timed from before the seats are taken: the clock starts with the deal, after
        # this (the state that shows it may be read late on a loaded machine)
        state = receive_until(sockets[0], lambda m: m["type"] == "state"
                              and m["table"]["status"] == "playing")
        slow = state["table"]["to_move"]
        assert state["table"]["clock"]["seat"] == slow
        assert 0 < state["table"]["clock"]["remaining"] <= 1
        played = _state_after(sockets[1 - slow], state["turn"])
        assert time.monotonic() - started >= 0.8  # the clock ran out first
        assert played["last"]["actor"] == slow
        assert played["table"]["away"] == {str(slow): "timeout"}
        # the other seat plays; the away seat's next move comes after the grace only
        while played["table"]["to_move"] != slow:  # read from the mover's socket
            sockets[1 - slow].send_json({"type": "action", "turn": played["turn"],
                                         "action": played["view"]["deal"]["legal"][0]})
            played = _state_after(sockets[1 - slow], played["turn"])
        assert played["table"]["clock"] == {"seat": slow, "remaining": None, "away": True}
        started = time.monotonic()
        again = _state_after(sockets[1 - slow], played["turn"])
        assert again["last"]["actor"] == slow
        assert time.monotonic() - started < 0.8  # the grace, not the whole clock
        sockets[slow].send_json({"type": "back"})
        back = receive_until(sockets[1 - slow], lambda m: m["type"] == "state"
                             and m["table"]["away"] == {})
        assert back["table"]["away"] == {}


def test_on_a_clocked_table_a_disconnected_player_is_away_until_they_return(
        quick: Settings) -> None:
    with running(quick) as client:
        table_id, tokens = _table(client, move_seconds=120)
        with _socket(client, table_id, tokens[0]) as ws0:
            first = receive_until(ws0, lambda m: m["type"] == "state")
            assert first["table"]["away"] == {"1": "absent"}
            state = first
            started = time.monotonic()
            for _ in range(4):  # seat 1's moves come within the grace, not in 120 s
                if state["table"]["to_move"] == 0:
                    ws0.send_json({"type": "action", "turn": state["turn"],
                                   "action": state["view"]["deal"]["legal"][0]})
                state = _state_after(ws0, state["turn"])
            assert time.monotonic() - started < 10
            with _socket(client, table_id, tokens[1]) as ws1:
                back = receive_until(ws1, lambda m: m["type"] == "state")
                assert back["table"]["away"] == {}
                assert back["you"] == 1


def test_without_a_clock_the_others_vote_a_bot_in_for_an_absent_player(
        quick: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    # the clock's time is the test's: a loaded machine may take the vote's whole wait
    # between the start and the first vote, which must come before it
    later = {"by": 0.0}
    monkeypatch.setattr(clock_module, "time", SimpleNamespace(
        monotonic=lambda: time.monotonic() + later["by"]))
    quick.absent_vote_after = 60
    with running(quick) as client:
        table_id, tokens = _table(client)
        with _socket(client, table_id, tokens[0]) as ws0:
            state = receive_until(ws0, lambda m: m["type"] == "state")
            assert state["table"]["clock"] is None
            assert "1" in state["table"]["absent"]
            ws0.send_json({"type": "vote_bot", "seat": 1})
            refused = receive_until(ws0, lambda m: m["type"] == "error")
            assert refused["code"] == "not_absent"
            later["by"] = 61.0
            for bad in (0, 5):
                ws0.send_json({"type": "vote_bot", "seat": bad})
                assert receive_until(ws0, lambda m: m["type"] == "error")["code"] == "bad_seat"
            ws0.send_json({"type": "vote_bot", "seat": 1})
            voted = receive_until(ws0, lambda m: m["type"] == "state"
                                  and m["table"]["away"] == {"1": "vote"})
            assert voted["table"]["bot_votes"] == {"1": [0]}
            state = voted
            while state["table"]["to_move"] != 1:
                ws0.send_json({"type": "action", "turn": state["turn"],
                               "action": state["view"]["deal"]["legal"][0]})
                state = _state_after(ws0, state["turn"])
            played = _state_after(ws0, state["turn"])
            assert played["last"]["actor"] == 1
            with _socket(client, table_id, tokens[1]):
                back = receive_until(ws0, lambda m: m["type"] == "state"
                                     and m["table"]["away"] == {})
                assert back["table"]["absent"] == {}
