"""The arena plays the real games: duplicate Konchinka deals are the same cards (the
engine's deal_from_seed), whole Konchinka games run to the target, Kunken deals run."""

from __future__ import annotations

import pytest

from konkun.arena import ArenaConfig, run_arena
from konkun.arena.games import load_game
from konkun.errors import KonkunError


def test_a_konchinka_seed_deals_the_same_cards_every_time() -> None:
    game = load_game("konchinka")
    first = game.new_deal(2, {}, 123, 1)
    second = game.new_deal(2, {}, 123, 1)
    assert first.observe(0).to_json() == second.observe(0).to_json()
    assert first.observe(1).to_json() == second.observe(1).to_json()


def test_konchinka_greedy_beats_random_on_duplicate_deals() -> None:
    report = run_arena(ArenaConfig("konchinka", ("greedy", "random"), 2, 12, seed=3),
                       backend="serial")
    (pair,) = report.pairs()
    assert pair.first_wins > pair.second_wins


def test_whole_konchinka_games_reach_the_target() -> None:
    report = run_arena(ArenaConfig("konchinka", ("greedy", "random"), 2, 2, unit="match",
                                   seed=4, rules=(("target", "6"),)), backend="serial")
    for result in report.results:
        for game in result.games:
            assert max(game.points) >= 6
            assert game.winner is not None


def test_kunken_deals_are_played() -> None:
    report = run_arena(ArenaConfig("kunken", ("greedy", "random"), 2, 2, seed=5),
                       backend="serial")
    assert report.games == 2


@pytest.mark.parametrize(("game", "seats", "rules", "words"), [
    ("konchinka", 5, (), "2 to 4"),
    ("kunken", 6, (), "2 to 5"),
    ("konchinka", 2, (("nosuch", "1"),), "nosuch"),
    ("kunken", 2, (("jokers", "x"),), "jokers"),
])
def test_bad_seats_or_rules_are_refused(game: str, seats: int,
                                        rules: tuple[tuple[str, str], ...], words: str) -> None:
    config = ArenaConfig(game, ("random",) * seats, seats, 2, rules=rules)
    with pytest.raises(KonkunError, match=words):
        config.validate()
