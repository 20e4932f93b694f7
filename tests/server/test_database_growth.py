"""Issue 13, database growth: finished games of bots only are pruned after a configurable
time; games with a human are kept."""

from __future__ import annotations

import time

from konkun.server.core.config import Settings

from .conftest import app_of, legal, new_table, receive_until, running, sit


def test_bot_only_games_are_pruned_and_games_of_humans_kept(settings: Settings) -> None:
    settings.bot_game_seconds = 0.2  # the server's pruning loop then runs every 0.05 s
    with running(settings) as client:
        lobby_settings = app_of(client).state.lobby.settings
        lobby_settings.bot_game_seconds = 3600  # nothing is pruned while both games are played
        bots_only = new_table(client, bots={"0": "random", "1": "random"})["id"]
        with client.websocket_connect(f"/ws/tables/{bots_only}") as ws:
            receive_until(ws, lambda m: m["table"]["status"] == "finished")
        human = new_table(client, bots={"1": "random"})["id"]
        token = sit(client, human, 0, "ann")
        with client.websocket_connect(f"/ws/tables/{human}?token={token}") as ws:
            while True:
                state = receive_until(ws, lambda m: m["type"] == "state")
                if state["table"]["status"] == "finished":
                    break
                if state["table"]["to_move"] == 0:
                    ws.send_json({"type": "action", "turn": state["turn"],
                                  "action": legal(state)[0]})
        assert client.get(f"/api/games/{bots_only}/replay").status_code == 200
        lobby_settings.bot_game_seconds = 0.2  # read at each pruning
        deadline = time.monotonic() + 10
        while client.get(f"/api/tables/{bots_only}").status_code != 404:
            assert time.monotonic() < deadline, "the bot game was never pruned"
            time.sleep(0.1)
        storage = app_of(client).state.lobby.storage
        assert storage.count_actions(bots_only) == 0
        assert client.get(f"/api/games/{bots_only}/replay").status_code == 404
        assert client.get(f"/api/games/{human}/replay").status_code == 200
        assert storage.count_actions(human) > 0
        listed = [g["id"] for g in client.get("/api/games").json()["games"]]
        assert listed == [human]
