"""The arena's work: duplicate sets (the same shuffle with seats rotated), counting, and
the same results on every backend."""

from __future__ import annotations

import pickle

import pytest

from konkun.arena import ArenaConfig, run_arena
from konkun.arena.backends import run_jobs
from konkun.arena.games import load_game
from konkun.arena.runner import Job, run_job, seatings
from konkun.errors import InvalidRuleError, KonkunError


def test_duplicate_sets_rotate_every_bot_through_every_seat() -> None:
    assert seatings(2, 2, True, 0) == ((0, 1), (1, 0))
    three = seatings(3, 3, True, 5)
    assert len(three) == 3
    for seat in range(3):
        assert sorted(s[seat] for s in three) == [0, 1, 2]


def test_without_duplicate_one_seating_per_set_alternating() -> None:
    assert [seatings(2, 2, False, i) for i in range(3)] == [((0, 1),), ((1, 0),), ((0, 1),)]


def test_games_are_rounded_up_to_whole_sets() -> None:
    config = ArenaConfig("toy", ("greedy", "random"), 2, games=7)
    assert (config.sets, config.per_set) == (4, 2)
    report = run_arena(config, backend="serial")
    assert report.games == 8


def test_jobs_are_plain_picklable_data() -> None:
    jobs = ArenaConfig("toy", ("greedy", "ismcts:iters=5"), 2, games=4, seed=3).jobs()
    assert pickle.loads(pickle.dumps(jobs)) == jobs
    assert len({job.seed for job in jobs}) == len(jobs)


def test_a_duplicate_set_replays_the_same_cards() -> None:
    job = ArenaConfig("toy", ("random", "random"), 2, games=2, seed=1).jobs()[0]
    game = load_game("toy")
    first = game.new_deal(2, {}, job.seed, 0)
    second = game.new_deal(2, {}, job.seed, 0)
    assert first.hands == second.hands and first.stock == second.stock  # type: ignore[attr-defined]
    result = run_job(job)
    assert [g.seating for g in result.games] == [(0, 1), (1, 0)]


def test_greedy_outscores_random_on_the_toy_game() -> None:
    report = run_arena(ArenaConfig("toy", ("greedy", "random"), 2, games=60, seed=2),
                       backend="serial")
    greedy, random_bot = report.bots()
    assert greedy.points.mean > random_bot.points.mean
    assert greedy.elo > random_bot.elo
    (pair,) = report.pairs()
    assert pair.first_wins > pair.second_wins
    assert pair.sets == 30


def test_matches_are_played_to_the_target() -> None:
    report = run_arena(ArenaConfig("toy", ("greedy", "random", "random"), 3, games=3,
                                   unit="match", rules=(("target", "12"),)), backend="serial")
    assert report.games == 3
    for result in report.results:
        for game in result.games:
            assert max(game.points) >= 12
            assert game.winner is not None
            assert game.points[game.winner] == max(game.points)


def test_local_processes_give_the_serial_results() -> None:
    config = ArenaConfig("toy", ("ismcts:iters=20", "greedy"), 2, games=8, seed=5)
    serial = run_arena(config, backend="serial")
    local = run_arena(config, backend="local", workers=2)
    assert [r.games for r in serial.results] == [r.games for r in local.results]


def test_the_report_counts_wins_and_points_per_seat() -> None:
    report = run_arena(ArenaConfig("toy", ("greedy", "random"), 2, games=10, seed=8),
                       backend="serial")
    data = report.to_json()
    assert data["games"] == 10 and data["sets"] == 5
    for bot in data["bots"]:
        assert bot["games"] == 10
        assert bot["win_ci"][0] <= bot["win_rate"] <= bot["win_ci"][1]
    points = sum(g.points[g.seating.index(0)] for r in report.results for g in r.games)
    assert data["bots"][0]["points_per_game"] == pytest.approx(points / 10)
    assert "greedy vs random" in report.format_table()


@pytest.mark.parametrize(("config", "words"), [
    (ArenaConfig("chess", ("greedy", "random"), 2, 4), "unknown game 'chess'"),
    (ArenaConfig("toy", ("greedy",), 2, 4), "1 bots"),
    (ArenaConfig("toy", ("greedy", "random"), 2, 0), "number of games"),
    (ArenaConfig("toy", ("greedy", "random", "random", "random"), 4, 4), "2 or 3 players"),
    (ArenaConfig("toy", ("greedy", "random"), 2, 4, rules=(("jokers", "2"),)), "'jokers'"),
])
def test_bad_configurations_are_refused_before_any_work(config: ArenaConfig,
                                                        words: str) -> None:
    with pytest.raises(KonkunError, match=words):
        config.validate()


def test_unknown_backend_is_refused() -> None:
    with pytest.raises(InvalidRuleError, match="unknown backend 'cloud'"):
        list(run_jobs([Job("toy", 2, (), ("random", "random"), "deal", 0, 1, ((0, 1),))],
                      backend="cloud"))
