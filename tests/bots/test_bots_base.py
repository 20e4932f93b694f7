"""The bot interface: a bot gets one seat's observation, the legal actions, a random
source and a budget, never the deal (issue 4: "make that impossible by construction")."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from bot_checks import reachable

from konkun.bots import Agent, Bot, Budget, play_out
from konkun.bots.random_bot import RandomBot
from konkun.errors import GameOverError, IllegalMoveError, InvalidRuleError, KonkunError
from konkun.game import Deal, Observation
from konkun.toy.engine import ToyDeal, ToyObservation


class SpyBot:
    """Records what it is given and plays the first legal action."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def choose(self, observation: Observation[Any], legal: Sequence[Any],
               rng: random.Random, budget: Budget) -> Any:
        self.calls.append((observation, legal, rng, budget))
        return legal[0]


def assert_reaches_only_its_own_view(deal: Deal[Any], got: object, seat: int) -> None:
    """Nothing the bot received leads to the deal or to another seat's hidden cards."""
    objects = reachable(got)
    assert not any(obj is deal for obj in objects)
    hidden = [deal.hands[s] for s in range(deal.num_seats) if s != seat]  # type: ignore[attr-defined]
    hidden.append(deal.stock)  # type: ignore[attr-defined]
    assert not any(obj is h for obj in objects for h in hidden)


def test_bot_receives_the_observation_of_its_seat_and_never_the_deal() -> None:
    deal = ToyDeal.new(3, seed=11)
    spy = SpyBot()
    agents = [Agent(spy, Budget(iterations=5), random.Random(seat)) for seat in range(3)]
    while not deal.is_over():
        seat = deal.to_move
        assert seat is not None
        before = len(spy.calls)
        deal.push(agents[seat].act(deal))
        observation, legal, rng, budget = spy.calls[before]
        assert isinstance(observation, Observation)
        assert not isinstance(observation, Deal)
        assert observation.seat == seat
        assert isinstance(legal, tuple)
        assert rng is agents[seat].rng
        assert budget == Budget(iterations=5)
        for argument in (observation, legal):
            assert_reaches_only_its_own_view(deal, argument, seat)


def test_observation_json_holds_no_other_seats_hand() -> None:
    deal = ToyDeal.new(2, seed=5)
    seen = deal.observe(0).to_json()
    assert sorted(seen["hand"]) == sorted(deal.hands[0])
    # seat 1's hand and the stock dealt otherwise: seat 0 sees exactly the same
    hidden = deal.hands[1] + deal.stock
    moved = hidden[1:] + hidden[:1]
    size = len(deal.hands[1])
    other = ToyDeal([list(deal.hands[0]), moved[:size]], list(deal.table), moved[size:],
                    [list(pile) for pile in deal.piles], deal.to_move or 0)
    assert sorted(other.hands[1]) != sorted(deal.hands[1]) and other.stock != deal.stock
    assert other.observe(0).to_json() == seen
    flat = repr(seen)
    assert "stock" in flat and seen["stock"] == len(deal.stock)


def test_agent_rejects_an_answer_that_is_not_legal() -> None:
    class Cheat:
        def choose(self, observation: Observation[Any], legal: Sequence[Any],
                   rng: random.Random, budget: Budget) -> Any:
            return 99

    deal = ToyDeal.new(2, seed=1)
    with pytest.raises(IllegalMoveError, match="99"):
        Agent(Cheat(), Budget(), random.Random(0), "cheat").act(deal)


def test_agent_refuses_to_act_in_a_finished_deal() -> None:
    deal = ToyDeal.new(2, seed=1)
    agents = [Agent(RandomBot[int](), Budget(), random.Random(s)) for s in range(2)]
    play_out(deal, agents)
    with pytest.raises(GameOverError):
        agents[0].act(deal)


def test_play_out_needs_one_agent_per_seat() -> None:
    with pytest.raises(InvalidRuleError, match="1 agents for a deal of 2 seats"):
        play_out(ToyDeal.new(2, seed=1), [Agent(RandomBot[int](), Budget(), random.Random())])


@pytest.mark.parametrize(("iterations", "seconds"), [(0, None), (-3, None), (None, 0.0),
                                                     (None, -1.0)])
def test_budget_limits_must_be_positive(iterations: int | None, seconds: float | None) -> None:
    with pytest.raises(KonkunError, match="budget"):
        Budget(iterations, seconds)


def test_budget_clock_stops_after_the_iteration_limit() -> None:
    clock = Budget(iterations=3).clock()
    assert [clock.tick(), clock.tick(), clock.tick()] == [True, True, False]


def test_empty_budget_falls_back_to_the_bot_default() -> None:
    assert Budget().or_default(Budget(iterations=9)) == Budget(iterations=9)
    assert Budget(seconds=1.0).or_default(Budget(iterations=9)) == Budget(seconds=1.0)


def test_random_bot_is_a_bot_and_plays_legal_moves() -> None:
    bot = RandomBot[int]()
    assert isinstance(bot, Bot)
    deal = ToyDeal.new(2, seed=3)
    rng = random.Random(0)
    observation = deal.observe(deal.to_move or 0)
    assert isinstance(observation, ToyObservation)
    choices = {bot.choose(observation, tuple(observation.legal_actions()), rng, Budget())
               for _ in range(200)}
    assert choices == set(observation.legal_actions())


def test_a_cpu_budget_does_not_count_time_the_thread_spends_waiting() -> None:
    import time

    wall = Budget(seconds=0.02).clock()
    cpu = Budget(seconds=0.02, cpu=True).clock()
    time.sleep(0.05)  # the machine busy elsewhere: wall time passes, no CPU time
    assert wall.tick() is False
    assert cpu.tick() is True
    assert cpu.elapsed < 0.02


def test_a_cpu_budget_stops_once_its_cpu_time_is_spent() -> None:
    clock = Budget(seconds=0.01, cpu=True).clock()
    while clock.tick():
        sum(range(1000))  # spend CPU time
    assert clock.elapsed >= 0.005


def test_a_budget_shows_its_clock_only_when_it_counts_cpu_time() -> None:
    assert repr(Budget(seconds=0.1)) == "Budget(iterations=None, seconds=0.1)"
    assert repr(Budget(seconds=0.1, cpu=True)) == \
        "Budget(iterations=None, seconds=0.1, cpu=True)"
