"""The strength ladder (issue 14): four levels, each a spec per game and a bot kind of
its own, named in English and Russian; the lobby offers them weakest first."""

from __future__ import annotations

import random

import pytest

from konkun.arena.games import load_game
from konkun.bots import Agent, parse_spec, play_out
from konkun.bots.ladder import LADDER, LEVEL_KINDS, LevelBot
from konkun.bots.specs import BotSpec, InvalidBotSpecError


def test_the_ladder_has_four_levels_named_in_both_languages() -> None:
    assert LEVEL_KINDS == ("beginner", "casual", "strong", "expert")
    for rung in LADDER:
        assert set(rung.names) == {"en", "ru"} == set(rung.descriptions)
        assert all(rung.names.values()) and all(rung.descriptions.values())


@pytest.mark.parametrize("game", ["konchinka", "kunken"])
def test_every_level_is_a_valid_spec_for_both_games(game: str) -> None:
    for rung in LADDER:
        inner = BotSpec.parse(rung.spec_for(game))
        bot = parse_spec(rung.kind).create(game)
        assert isinstance(bot, LevelBot)
        assert str(bot.spec) == str(inner)
        assert bot.budget == inner.budget()


def test_a_level_plays_with_its_own_budget_whatever_it_is_given() -> None:
    deal = load_game("kunken").new_deal(2, {}, 3, 0)
    agents = [parse_spec(kind).agent("kunken", random.Random(seat))
              for seat, kind in enumerate(["beginner", "strong"])]
    play_out(deal, agents)
    assert deal.is_over()


def test_a_level_takes_no_options_and_no_budget() -> None:
    with pytest.raises(InvalidBotSpecError, match="unknown parameter"):
        parse_spec("strong:c=1").create("kunken")
    with pytest.raises(InvalidBotSpecError, match="its own budget"):
        parse_spec("expert:time=5").create("kunken")


def test_a_level_on_the_cpu_clock_counts_its_thinking_time_in_cpu_time() -> None:
    for game in ("konchinka", "kunken"):
        for rung in LADDER:
            bot = parse_spec(f"{rung.kind}:clock=cpu").create(game)
            assert isinstance(bot, LevelBot)
            inner = BotSpec.parse(rung.spec_for(game)).budget()
            assert bot.budget.cpu == (inner.seconds is not None)
            assert (bot.budget.iterations, bot.budget.seconds) == \
                (inner.iterations, inner.seconds)


def test_a_game_the_ladder_was_not_tuned_for_gets_each_level_s_default() -> None:
    assert [level.spec_for("chess") for level in LADDER] == [
        "random", "greedy", "ismcts:iters=200", "ismcts:iters=2000"]
    assert LADDER[1].spec_for("kunken") == "greedy:v=1"


def test_the_lobby_offers_the_ladder_weakest_first() -> None:
    from konkun.server.core.botseats import offered_bots

    offered = offered_bots()
    levels = [entry for entry in offered if entry["spec"] in LEVEL_KINDS]
    assert [entry["spec"] for entry in levels] == list(LEVEL_KINDS)
    assert [entry["names"]["ru"] for entry in levels] == [r.names["ru"] for r in LADDER]


def test_agents_of_levels_are_agents() -> None:
    agent = parse_spec("casual").agent("konchinka", random.Random(0))
    assert isinstance(agent, Agent)


def test_the_calibrated_ratings_rise_level_by_level_in_every_pool() -> None:
    """The rating pools start the bots where the arena measured them (issue 17): each
    level rated above the one below it, in every pool the server rates."""
    import json
    from importlib import resources

    data = json.loads(resources.files("konkun.ratings").joinpath("ladder_ratings.json")
                      .read_text())
    assert set(data["pools"]) == {"konchinka-2", "konchinka-3-4", "kunken"}
    for pool, entry in data["pools"].items():
        ratings = [entry["levels"][kind]["rating"] for kind in LEVEL_KINDS]
        assert ratings == sorted(ratings) and len(set(ratings)) == len(ratings), pool
