"""Bots playing Konchinka (issue 4: greedy values captures, кончинки, clubs, card count,
the Jack and denying sweeps; ISMCTS samples worlds consistent with what the seat saw;
a bot sees only its seat's observation)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from bot_checks import Watching, reachable

from konkun.bots import Agent, Budget, parse_spec, play_out
from konkun.bots.ismcts import IsmctsBot
from konkun.bots.konchinka_greedy import (
    KonchinkaGreedy,
    KonchinkaPolicy,
    expected_points,
)
from konkun.cards import Card, parse_cards
from konkun.game import Deal, Observation
from konkun.konchinka import KonchinkaRules, deal_from_seed, parse_kpn

CLASSIC = KonchinkaRules.preset("classic")


def greedy_move(kpn: str) -> str:
    deal = parse_kpn(kpn)
    observation = deal.observe(deal.to_move or 0)
    move = KonchinkaGreedy().choose(observation, tuple(observation.legal_actions()),
                                    random.Random(0), Budget())
    return deal.format_action(move)


def test_greedy_takes_a_konchinka_when_it_can() -> None:
    # Kh and Qs (value 10) can each take the 10 of diamonds: one of those captures it is
    assert greedy_move("classic Td5h3s KhQs/2d7s - -/- 0 1 -") in {"Kh:Td", "Qs:Td"}


def test_greedy_does_not_trail_a_konchinka_for_the_opponent_to_take() -> None:
    # nothing captures; trailing Td would offer it (a point) to the next player
    assert greedy_move("classic 5c Td2h/3d7s - -/- 0 1 -") == "2h"


def test_greedy_sweeps_a_rich_table_with_the_jack() -> None:
    # the classic Jack takes the whole table, here with 2c (a кончинка) and two clubs
    assert greedy_move("classic 2c9cAh5d Js3h/4d7s - -/- 0 1 -") == "Js:Ah9c5d2c"


def test_expected_points_of_decided_contests_are_exact() -> None:
    # seat 0 holds 27 cards (a majority of 52), 7 clubs (a majority of 13) and both
    # кончинки: every point of the deal is already its own
    clubs = [c.index for c in parse_cards("2c3c4c5c6c7c8c")]
    others = [c.index for c in parse_cards("Td2d3d4d5d6d7d8d9dJdQdKdAd2h3h4h5h6h7h8h")]
    points = expected_points([clubs + others, []], 2)
    assert points[0] == pytest.approx(5.0, abs=1e-6)
    assert points[1] == pytest.approx(0.0, abs=1e-6)


def test_expected_points_are_even_at_the_start() -> None:
    points = expected_points([[], []], 2)
    assert points[0] == pytest.approx(points[1])
    assert 0.0 < points[0] < 5.0


class Inspector:
    """A bot that checks what it is given: an observation, never the deal or another
    seat's hand."""

    def __init__(self, deal: Any) -> None:
        self.deal = deal
        self.checked = 0

    def choose(self, observation: Observation[Any], legal: Any, rng: random.Random,
               budget: Budget) -> Any:
        assert isinstance(observation, Observation)
        assert not isinstance(observation, Deal)
        assert not any(obj is self.deal for obj in reachable(observation))
        assert not any(obj is self.deal for obj in reachable(legal))
        text = json.dumps(observation.to_json())
        for seat in range(self.deal.num_seats):
            if seat != observation.seat:
                for card in self.deal.hand(seat):
                    assert f'"{card}"' not in text, f"{card} of seat {seat} leaked"
        for card in self.deal.stock:
            assert f'"{card}"' not in text or card in observation.known_in_stock  # type: ignore[attr-defined]
        self.checked += 1
        return legal[rng.randrange(len(legal))]


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_bot_never_sees_another_hand_or_the_stock(seats: int) -> None:
    deal = deal_from_seed(CLASSIC, seats, 0, 21)
    inspector = Inspector(deal)
    play_out(deal, [Agent(inspector, Budget(), random.Random(s)) for s in range(seats)])
    assert inspector.checked == 48


def test_ismcts_samples_worlds_consistent_with_the_seat_s_knowledge() -> None:
    deal = deal_from_seed(CLASSIC, 2, 1, 5)
    rng = random.Random(2)
    for _ in range(11):  # into the second round: captures, a redeal, a known table
        deal.push(KonchinkaGreedy().choose(deal.observe(deal.to_move or 0),
                                           tuple(deal.legal_actions()), rng, Budget()))
    seat = deal.to_move
    assert seat is not None
    observation = deal.observe(seat)
    watching = Watching(observation)
    bot = IsmctsBot(KonchinkaPolicy())
    bot.choose(watching, tuple(observation.legal_actions()),
               random.Random(4), Budget(iterations=30))
    assert len(watching.worlds) == 30
    for world in watching.worlds:
        assert sorted(world.hand(seat)) == sorted(deal.hand(seat))
        assert sorted(world.table) == sorted(deal.table)
        assert [sorted(p) for p in world.piles] == [sorted(p) for p in deal.piles]
        assert [len(world.hand(s)) for s in range(2)] == [len(deal.hand(s)) for s in range(2)]
        assert world.stock_size == deal.stock_size
        assert world.to_move == deal.to_move
        every = [c for s in range(2) for c in world.hand(s)] + world.table + world.stock + [
            c for p in world.piles for c in p]
        assert sorted(every) == sorted(Card.from_index(i) for i in range(52))


def test_ismcts_with_an_iteration_budget_is_reproducible() -> None:
    def game() -> list[str]:
        deal = deal_from_seed(CLASSIC, 2, 0, 8)
        agents = [parse_spec("ismcts:iters=20").agent("konchinka", random.Random(s))
                  for s in range(2)]
        moves = []
        while not deal.is_over():
            move = agents[deal.to_move or 0].act(deal)
            moves.append(deal.format_action(move))
            deal.push(move)
        return moves

    assert game() == game()


def test_every_bot_finishes_deals_for_every_table_size() -> None:
    for seats in (2, 3, 4):
        for spec in ("random", "greedy", "ismcts:iters=10", "greedy:jack=0"):
            deal = deal_from_seed(CLASSIC, seats, seats - 1, 3)
            agents = [parse_spec(spec).agent("konchinka", random.Random(s))
                      for s in range(seats)]
            points = play_out(deal, agents)
            assert 0 <= sum(points) <= 5


def test_novo_deals_are_played_too() -> None:
    novo = KonchinkaRules.preset("novo")
    deal = deal_from_seed(novo, 2, 0, 4)
    agents = [parse_spec(s).agent("konchinka", random.Random(1))
              for s in ("greedy", "ismcts:iters=10")]
    assert 0 <= sum(play_out(deal, agents)) <= 5


def test_play_outs_through_the_public_api_give_every_seat_points() -> None:
    deal = deal_from_seed(CLASSIC, 3, 0, 6)
    world = deal.observe(deal.to_move or 0).sample_deal(random.Random(1))
    points = KonchinkaPolicy()._play_out_public(world, random.Random(2))
    assert len(points) == 3
    assert all(0.0 <= p <= 5.0 for p in points)


def test_unknown_games_search_with_the_generic_policy() -> None:
    from konkun.bots.policy import SearchPolicy, policy_for
    assert type(policy_for("no-such-game")) is SearchPolicy
    assert isinstance(policy_for("konchinka"), KonchinkaPolicy)
