"""The toy game (:mod:`konkun.toy`) is a third game that reaches every layer through the
public API only: registered by ``tests/conftest.py`` with :func:`konkun.game.register_game`,
it is played in the arena, at a server table over WebSockets, in the terminal and in the
RL environment, and no layer's code names it."""

from __future__ import annotations

import asyncio
import re
import warnings
from pathlib import Path
from typing import Any

import pytest

from konkun.arena import ArenaConfig, run_arena
from konkun.errors import InvalidRuleError
from konkun.game import get_game
from konkun.toy.engine import CARDS, TABLE, ToyObservation, value
from server.conftest import receive

SRC = Path(__file__).resolve().parents[1] / "src" / "konkun"


def test_no_layer_names_the_third_game() -> None:
    """Outside its own package, no source file of konkun (Python or the page) says ``toy``."""
    naming = [path.relative_to(SRC).as_posix()
              for path in SRC.rglob("*") if path.suffix in (".py", ".js", ".html")
              and "toy" not in path.relative_to(SRC).parts
              and re.search(r"\btoy\b", path.read_text(encoding="utf-8"), re.IGNORECASE)]
    assert naming == []


def test_the_third_games_docstring_example_runs() -> None:
    import doctest

    import konkun.toy

    assert doctest.testmod(konkun.toy).failed == 0


def test_the_registry_knows_the_third_game_with_its_schema() -> None:
    game = get_game("toy")
    assert list(game.seat_counts()) == [2, 3]
    assert game.catalog()["options"][0] == {
        "name": "target", "type": "int", "default": 10, "min": 1, "max": 100,
        "title": {"en": "Game to (points)", "ru": "Игра до (очков)"},
        "description": "the match ends once one total reaches it"}
    with pytest.raises(InvalidRuleError, match="'target'") as error:
        game.rules_from_options(None, {"target": "0"}, 2)
    assert error.value.option == "target"
    with pytest.raises(InvalidRuleError, match="2 or 3 players"):
        game.new_match(None, 4, 1)


def test_the_arena_plays_the_third_game_in_worker_processes() -> None:
    config = ArenaConfig("toy", ("greedy", "random"), 2, games=4, seed=3,
                         rules=(("target", "3"),), unit="match")
    report = run_arena(config, backend="local", workers=2)
    assert report.games == 4
    # every match ends once a total reaches the target, with one highest total
    for result in report.results:
        for played in result.games:
            assert max(played.points) >= 3
            assert played.winner is not None


def test_a_server_table_plays_the_third_game_over_websockets(tmp_path: Path) -> None:
    from konkun.server.app import create_app
    from konkun.server.core.config import Settings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    # the player moves as fast as the bot answers: a long match (ties play on) sends more
    # than the per-connection message limit allows a person (20 at once, 10 a second)
    settings = Settings(data_dir=tmp_path / "data", secret="test-secret", bot_delay=0.0,
                        rate_burst=1e6, rate_per_second=1e6)
    with TestClient(create_app(settings)) as client:
        catalog = {g["game"]: g for g in client.get("/api/catalog").json()["games"]}
        assert catalog["toy"]["min_seats"] == 2
        assert catalog["toy"]["max_seats"] == 3
        assert catalog["toy"]["options"][0]["name"] == "target"
        token = client.post("/api/guest", json={"nickname": "ann"}).json()["token"]
        headers = {"Authorization": f"Bearer {token}"}
        table = client.post("/api/tables", json={
            "game": "toy", "seats": 2, "rules": {"target": "2"},
            "bots": {"1": "greedy"}}).json()
        assert client.post(f"/api/tables/{table['id']}/sit", json={"seat": 0},
                           headers=headers).status_code == 200
        moves = 0
        acted_on: set[int] = set()  # a turn's state may come twice (presence): act once
        with client.websocket_connect(f"/ws/tables/{table['id']}?token={token}") as ws:
            while True:
                state = receive(ws)
                # an ignored refusal would leave the table waiting for this seat for ever
                assert state.get("type") != "error", state
                if state.get("type") != "state":
                    continue
                if state["table"]["status"] == "finished":
                    break
                if state["table"]["to_move"] != 0 or state["turn"] in acted_on:
                    continue
                acted_on.add(state["turn"])
                view = state["view"]["deal"]
                assert view["seat"] == 0 and set(view) >= {"hand", "table", "piles"}
                ws.send_json({"type": "action", "turn": state["turn"],
                              "action": view["legal"][0]})
                moves += 1
        assert moves > 0
        replay = client.get(f"/api/games/{table['id']}/replay?seat=all").json()
        assert replay["record"]["game"] == "toy"
        assert replay["frames"][-1]["view"]["totals"] == get_game("toy").load_record(
            replay["record"]).totals


def test_the_terminal_plays_the_third_game_with_its_own_board(tmp_path: Path) -> None:
    from konkun.tui.app import PlayApp
    from konkun.tui.games import render_board, title
    from konkun.tui.session import PlaySession

    session = PlaySession.new("toy", 3, ["greedy"], rules={"target": "4"}, seed=5)
    assert title("toy") == "Toy"

    async def play() -> None:
        app = PlayApp(session, tmp_path / "save.json", bot_delay=0)
        async with app.run_test() as pilot:
            for _ in range(300):
                if session.is_over():
                    break
                await pilot.press("1")
    asyncio.run(play())
    assert session.is_over()
    assert max(session.match.totals) >= 4
    board: Any = render_board(session)
    assert "Toy, 3 players" in str(board.renderables[0])


def test_the_rl_env_plays_the_third_game() -> None:
    from konkun.rl import make_env

    env = make_env("toy", num_players=3)
    env.reset(seed=4)
    steps = 0
    for agent in env.agent_iter():
        observation, _reward, done, truncated, _info = env.last()
        if done or truncated:
            env.step(None)
            continue
        assert observation["observation"].shape == (6, len(CARDS))
        mask = observation["action_mask"]
        deal: Any = env.deal
        seen: ToyObservation = deal.observe(env.agents.index(agent))
        assert sorted(int(i) for i in mask.nonzero()[0]) == list(seen.hand)
        env.step(int(mask.nonzero()[0][0]))
        steps += 1
    # every card but the two first dealt to the table is played once: the deal ends when
    # the hands and the stock are empty
    assert steps == len(CARDS) - TABLE
    final: Any = env.deal
    assert sum(final.points()) == len(CARDS) - len(final.table)
    # a card that finds its value on the table takes it: no two left there share a value
    assert all(value(c) != value(d) for i, c in enumerate(final.table)
               for d in final.table[i + 1:])


def test_gymnasium_makes_the_third_games_env_once_registered() -> None:
    import gymnasium

    from konkun.rl import register_gymnasium

    register_gymnasium()
    env = gymnasium.make("konkun/Toy-v0", num_players=2)
    observation, _info = env.reset(seed=1)
    assert observation["observation"].shape == (5, len(CARDS))
    env.close()


def test_konkun_verify_checks_a_third_games_record() -> None:
    # the record is the one record type, read through the descriptor: verify needs no
    # code of the game's own
    from konkun.fairness import FairSeed
    from konkun.verify import fair_record, verify_document

    fair = FairSeed("ab" * 32)
    for seat in range(2):
        fair.add(seat, f"{seat + 10:02x}" * 32)
    game = get_game("toy")
    match = game.new_match(game.rules_from_options(None, {"target": "5"}, 2), 2,
                           fair.match_seed())
    while not match.is_over():
        match.play(match.deal.legal_actions()[0])
    record = fair_record(match, fair.reveal())
    assert verify_document(record).ok
    record["actions"][-1] = record["actions"][0]
    assert not verify_document(record).ok


def _finished_record(target: int, seed: int) -> dict[str, Any]:
    game = get_game("toy")
    match = game.new_match(game.rules_from_options(None, {"target": str(target)}, 2), 2, seed)
    while not match.is_over():
        match.play(match.deal.legal_actions()[0])
    return match.record().to_json()


def test_the_post_game_analysis_reads_a_third_games_record() -> None:
    from konkun.bots.analysis import analyze_record, thresholds
    from konkun.bots.policy import SearchPolicy

    record = _finished_record(3, 8)
    # the seat's moves with a choice, counted on a replay of the record
    replay = get_game("toy").load_record({**record, "actions": []})
    choices = 0
    for text in record["actions"]:
        deal = replay.deal
        action = deal.parse_action(text)
        if deal.to_move == 0 and len(deal.observe(0).legal_actions()) > 1:
            choices += 1
        replay.play(action)
    reports = analyze_record(record, 0, samples=4)
    assert len(reports) == choices > 0
    # a game with no marks of its own is marked on the generic scale
    assert thresholds("toy") == SearchPolicy.loss_marks
    inaccuracy, mistake, blunder = SearchPolicy.loss_marks
    for report in reports:
        assert report.best_value >= report.played_value
        expected = ("blunder" if report.loss >= blunder else "mistake"
                    if report.loss >= mistake else "inaccuracy"
                    if report.loss >= inaccuracy else None)
        assert report.mark == expected


def test_the_analysis_refuses_a_record_of_an_unknown_game_by_its_name() -> None:
    from konkun.bots.analysis import analyze_record
    from konkun.errors import InvalidPositionError

    record = _finished_record(2, 1) | {"game": "chess"}
    with pytest.raises(InvalidPositionError, match="'chess'"):
        analyze_record(record, 0)


def test_the_ladders_levels_play_a_third_game_with_their_defaults() -> None:
    import random

    from konkun.bots import parse_spec, play_out
    from konkun.bots.ladder import LADDER, LevelBot

    game = get_game("toy")
    for rung in LADDER:
        bot = parse_spec(rung.kind).create("toy")
        assert isinstance(bot, LevelBot)
        assert str(bot.spec) == rung.default  # the toy tunes no level
    deal = game.new_deal(None, 2, 6)
    agents = [parse_spec(kind).agent("toy", random.Random(seat))
              for seat, kind in enumerate(["beginner", "strong"])]
    play_out(deal, agents)
    assert deal.is_over()


def test_a_game_tunes_a_level_through_its_ladder_add_on() -> None:
    from dataclasses import replace

    from konkun.bots import parse_spec
    from konkun.bots.ladder import LADDER
    from konkun.game import register_game, unregister_game

    toy = get_game("toy")
    register_game(replace(toy, name="tuned", addons={**toy.addons,
                                                     "ladder": {"casual": "random"}}))
    try:
        assert [rung.spec_for("tuned") for rung in LADDER] == [
            "random", "random", LADDER[2].default, LADDER[3].default]
        assert str(parse_spec("casual").create("tuned").spec) == "random"
    finally:
        unregister_game("tuned")


def first_legal_slot(tensor: Any, mask: Any) -> int:
    """A tensor policy: the first slot the mask allows."""
    return int(mask.nonzero()[0][0])


def test_a_tensor_policy_bot_plays_a_third_game(monkeypatch: pytest.MonkeyPatch) -> None:
    target = f"{__name__}:first_legal_slot"
    monkeypatch.setenv("KONKUN_POLICIES", target)
    config = ArenaConfig("toy", (f"policy:{target}", "greedy"), 2, games=2, seed=4)
    report = run_arena(config, backend="serial")
    assert {bot.name: bot.games for bot in report.bots()} == {f"policy:{target}": 2,
                                                              "greedy": 2}


def test_a_tensor_policy_is_refused_for_a_game_without_an_rl_adapter(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from dataclasses import replace

    from konkun.bots.specs import BotSpec, InvalidBotSpecError
    from konkun.game import register_game, unregister_game

    target = f"{__name__}:first_legal_slot"
    monkeypatch.setenv("KONKUN_POLICIES", target)
    toy = get_game("toy")
    register_game(replace(toy, name="unencoded",
                          addons={k: v for k, v in toy.addons.items() if k != "rl"}))
    try:
        with pytest.raises(InvalidBotSpecError, match="'unencoded'"):
            BotSpec.parse(f"policy:{target}").create("unencoded")
    finally:
        unregister_game("unencoded")


def test_konkun_verify_reads_a_third_games_seat_range_from_its_descriptor() -> None:
    from konkun.verify import RecordInputError, verify_document

    record = _finished_record(2, 3) | {"num_seats": 4}
    with pytest.raises(RecordInputError, match="num_seats 4 is not a number of players "
                                               "from 2 to 3"):
        verify_document(record)
