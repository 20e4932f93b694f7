"""ISMCTS over the generic protocols, on the toy game (issue 4: sampled worlds consistent
with what the seat has seen, a time or iteration budget, a seed for reproducibility)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from bot_checks import Watching

from konkun.bots import Agent, Budget, parse_spec, play_out
from konkun.bots.ismcts import IsmctsBot, decided, guarded_best
from konkun.bots.policy import SearchPolicy
from konkun.game import Deal
from konkun.toy.bots import ToyPolicy
from konkun.toy.engine import CARDS, ToyDeal, ToyObservation


def play_game(specs: Sequence[str], seed: int, agent_seed: int = 0) -> tuple[list[int], list[int]]:
    deal = ToyDeal.new(len(specs), seed)
    agents = [parse_spec(s).agent("toy", random.Random(agent_seed * 10 + k))
              for k, s in enumerate(specs)]
    actions: list[int] = []
    while not deal.is_over():
        seat = deal.to_move
        assert seat is not None
        action = agents[seat].act(deal)
        actions.append(action)
        deal.push(action)
    return deal.points(), actions


def test_same_seed_and_iteration_budget_give_the_same_game() -> None:
    first = play_game(["ismcts:iters=60", "ismcts:iters=60"], seed=4, agent_seed=7)
    second = play_game(["ismcts:iters=60", "ismcts:iters=60"], seed=4, agent_seed=7)
    assert first == second


def toy_legal() -> list[int]:
    """The legal actions of the seat to move at the start of toy deal 2."""
    deal = ToyDeal.new(2, seed=2)
    return deal.observe(deal.to_move or 0).legal_actions()


def toy_search(legal: Sequence[int], budget: Budget) -> tuple[IsmctsBot[int], int]:
    """A toy-policy ISMCTS bot and its choice among ``legal`` at the start of toy deal 2
    (random source 1)."""
    deal = ToyDeal.new(2, seed=2)
    bot = IsmctsBot(ToyPolicy())
    return bot, bot.choose(deal.observe(deal.to_move or 0), tuple(legal), random.Random(1),
                           budget)


def test_iteration_budget_is_the_number_of_iterations() -> None:
    bot, _ = toy_search(toy_legal(), Budget(iterations=37))
    assert bot.last_iterations == 37


def test_time_budget_stops_the_search() -> None:
    bot, _ = toy_search(toy_legal(), Budget(seconds=0.02))
    assert bot.last_iterations >= 1
    assert bot.total_seconds < 2.0


def test_a_forced_move_is_played_without_search() -> None:
    only = toy_legal()[0]
    bot, choice = toy_search((only,), Budget(iterations=50))
    assert choice == only
    assert bot.last_iterations == 0


def test_search_samples_only_worlds_consistent_with_the_observation() -> None:
    deal = ToyDeal.new(2, seed=9)
    for _ in range(4):  # some cards captured, some on the table
        deal.push(deal.legal_actions()[0])
    seat = deal.to_move
    assert seat is not None
    observation = deal.observe(seat)
    assert isinstance(observation, ToyObservation)
    watching = Watching(observation)
    bot = IsmctsBot(SearchPolicy[int]())
    bot.choose(watching, tuple(observation.legal_actions()),
               random.Random(3), Budget(iterations=40))
    sampled: list[ToyDeal] = watching.worlds
    assert len(sampled) == 40
    for world in sampled:
        assert sorted(world.hands[seat]) == sorted(deal.hands[seat])
        assert world.table == deal.table
        assert world.piles == deal.piles
        assert [len(h) for h in world.hands] == [len(h) for h in deal.hands]
        assert len(world.stock) == len(deal.stock)
        everything = [c for h in world.hands for c in h] + world.table + world.stock + [
            c for p in world.piles for c in p]
        assert sorted(everything) == list(CARDS)
    others = {tuple(sorted(w.hands[1 - seat])) for w in sampled}
    assert len(others) > 1  # the hidden hand really is sampled


def pair_wins(first: str, second: str, pairs: int) -> int:
    """Deal pairs (same shuffle, seats swapped) where ``first`` takes more cards."""
    wins = 0
    for seed in range(pairs):
        a, _ = play_game([first, second], seed, seed)
        b, _ = play_game([second, first], seed, seed)
        wins += a[0] + b[1] > a[1] + b[0]
    return wins


def test_ismcts_beats_random_on_duplicate_deals() -> None:
    assert pair_wins("ismcts:iters=100", "random", 20) >= 14


def test_random_rollouts_can_be_asked_for() -> None:
    bot = parse_spec("ismcts:rollout=random").create("toy")
    assert isinstance(bot, IsmctsBot)
    assert type(bot.policy) is SearchPolicy


def test_agent_runs_ismcts_to_the_end_of_a_deal() -> None:
    deal = ToyDeal.new(3, seed=1)
    agents = [Agent(IsmctsBot(ToyPolicy()), Budget(iterations=20), random.Random(s))
              for s in range(3)]
    points = play_out(deal, agents)
    assert deal.is_over()
    assert points == [len(pile) for pile in deal.piles]  # a point per captured card
    captured = [card for pile in deal.piles for card in pile]
    assert sorted(captured + deal.table) == list(CARDS)  # the rest stays on the table


def test_flat_root_search_is_reproducible_with_an_iteration_budget() -> None:
    spec = "ismcts:iters=30:root=flat"
    first = play_game([spec, spec], seed=5, agent_seed=3)
    second = play_game([spec, spec], seed=5, agent_seed=3)
    assert first == second


def test_flat_root_search_plays_every_candidate_in_every_world() -> None:
    deal = ToyDeal.new(2, seed=2)
    observation = deal.observe(deal.to_move or 0)
    watching = Watching(observation)
    legal = observation.legal_actions()
    bot = IsmctsBot(ToyPolicy(), flat=True)
    bot.choose(watching, tuple(legal), random.Random(1), Budget(iterations=25))
    assert len(watching.worlds) == 25  # a world per iteration, each candidate played in it
    assert bot.last_iterations == 25 * len(legal)


def test_guarded_best_keeps_the_favourite_unless_another_is_clearly_better() -> None:
    # candidate 1 better by 1 in every world: no spread, clearly better
    assert guarded_best([[0.0, 1.0, -1.0]] * 10, 1.0) == 1
    # candidate 1 ahead on average by 0.2 with a spread of 1 per world: within the guard
    noisy = [[0.0, 1.2], [0.0, -0.8]] * 5
    assert guarded_best(noisy, 1.0) == 0
    assert guarded_best(noisy, 0.0) == 1
    # of two clearly better candidates, the larger advantage
    assert guarded_best([[0.0, 1.0, 2.0], [0.0, 1.0, 2.5]], 1.0) == 2
    assert guarded_best([[0.0, 5.0]], 1.0) == 0  # one world says nothing about the spread


def test_flat_root_spec_and_its_guard() -> None:
    bot = parse_spec("ismcts:root=flat:guard=2").create("toy")
    assert isinstance(bot, IsmctsBot)
    assert bot.flat and bot.guard == 2.0
    assert not parse_spec("ismcts").create("toy").flat  # type: ignore[attr-defined]


def test_early_stop_makes_the_same_choice_as_the_whole_budget() -> None:
    # the early search is a prefix of the whole one (the same random source), stopped
    # once the remaining iterations could not change which move is the most visited
    saved = 0
    for seed in range(12):
        deal = ToyDeal.new(2, seed=seed)
        observation = deal.observe(deal.to_move or 0)
        legal = tuple(observation.legal_actions())
        whole, early = IsmctsBot(ToyPolicy()), IsmctsBot(ToyPolicy(), early=True)
        budget = Budget(iterations=400)
        assert early.choose(observation, legal, random.Random(seed), budget) == \
            whole.choose(observation, legal, random.Random(seed), budget)
        assert early.last_iterations <= whole.last_iterations == 400
        saved += whole.last_iterations - early.last_iterations
    assert saved > 0


def test_decided_when_the_leader_cannot_be_overtaken() -> None:
    deal = ToyDeal.new(2, seed=2)
    root = IsmctsBot(ToyPolicy()).search(deal.observe(deal.to_move or 0), toy_legal(),
                                         random.Random(1), Budget(iterations=90))
    visits = sorted((child.visits for child in root.children.values()), reverse=True)
    lead = visits[0] - visits[1]
    assert decided(root, lead - 1)
    assert not decided(root, lead)


def test_early_belongs_to_the_tree_search() -> None:
    assert parse_spec("ismcts:early=1").create("toy").early  # type: ignore[attr-defined]
    assert not parse_spec("ismcts").create("toy").early  # type: ignore[attr-defined]


class _SameMovesByTheGeneralLoop(SearchPolicy[Any]):
    """The generic policy's moves, through :meth:`SearchPolicy.play_out`'s general loop (a
    policy with its own ``rollout_action`` gets that loop, not the random play-out's)."""

    def rollout_action(self, deal: Deal[Any], legal: Sequence[Any], rng: random.Random) -> Any:
        return legal[int(rng.random() * len(legal))]


def test_random_play_out_plays_what_the_general_loop_plays() -> None:
    """The random play-out's loop, and Kunken's compiled one (``play_randomly``), play the
    moves the general loop plays with the same random source."""
    from konkun.kunken import KunkenRules, new_deal

    for seed in range(6):
        fast = new_deal(KunkenRules(), 2 + seed % 3, 0, random.Random(seed))
        general = fast.copy()
        points = SearchPolicy[Any]().play_out(fast, random.Random(seed))
        assert points == _SameMovesByTheGeneralLoop().play_out(general, random.Random(seed))
        assert fast.history == general.history and fast.is_over()
        toy, toy_general = ToyDeal.new(2, seed), ToyDeal.new(2, seed)
        points = SearchPolicy[Any]().play_out(toy, random.Random(seed))
        assert not hasattr(toy, "play_randomly")
        assert points == _SameMovesByTheGeneralLoop().play_out(toy_general, random.Random(seed))


def test_uniform_choice_reaches_every_action_evenly() -> None:
    from konkun.bots.policy import uniform_choice

    rng = random.Random(5)
    counts = [0] * 7
    for _ in range(7000):
        counts[uniform_choice(range(7), rng)] += 1
    assert all(850 < count < 1150 for count in counts)
