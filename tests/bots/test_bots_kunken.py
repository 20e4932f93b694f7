"""Bots playing Kunken (issue 4: greedy builds melds, opens at 50 through the engine,
discards safely and takes the bank; ISMCTS samples worlds consistent with what the seat
has seen — cards melded, taken from the bank, counts; a bot sees only its observation)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from bot_checks import Watching
from hypothesis import given, settings
from hypothesis import strategies as st

from konkun.arena.games import load_game
from konkun.bots import Agent, Budget, parse_spec, play_out
from konkun.bots.ismcts import IsmctsBot
from konkun.bots.kunken_bots import KunkenPolicy
from konkun.bots.kunken_greedy import KunkenGreedy, neighbours, quick_meldable
from konkun.cards import Card, parse_cards
from konkun.game import Deal, Observation
from konkun.kunken.melds import VALUE
from konkun.kunken.state import counts_of


def new_deal(seats: int, seed: int) -> Any:
    return load_game("kunken").new_deal(seats, {}, seed, 0)


def counts(text: str) -> list[int]:
    return counts_of([card.index for card in parse_cards(text)])


def test_quick_meldable_counts_sets_and_runs() -> None:
    # a set of three Kings (10 each) and a run 5-6-7 of hearts (5 each); the 2c is dead
    assert quick_meldable(counts("KcKdKs5h6h7h2c"), VALUE) == 30 + 15


def test_quick_meldable_runs_wrap_round_the_ace() -> None:
    # Q-K-A and K-A-2 are sequences (RULES.md, Melds)
    assert quick_meldable(counts("QsKsAs"), VALUE) == 30
    assert quick_meldable(counts("KsAs2s"), VALUE) == 25


def test_neighbours_are_cards_that_can_share_a_meld() -> None:
    hand = counts("7h7s8d5d")
    seven_of_diamonds = Card.parse("7d").index
    # 7h and 7s (a set), 8d (next in suit) and 5d (two away) count
    assert neighbours(seven_of_diamonds, hand) == 3.5


class Inspector:
    """A bot that checks it is given an observation and never another seat's cards."""

    def __init__(self, deal: Any) -> None:
        self.deal = deal
        self.checked = 0
        self.inner = KunkenGreedy()

    def choose(self, observation: Observation[Any], legal: Any, rng: random.Random,
               budget: Budget) -> Any:
        assert isinstance(observation, Observation)
        assert not isinstance(observation, Deal)
        view: Any = observation
        assert view.hand == self.deal.hands[view.seat]
        data = observation.to_json()
        text = json.dumps(data)
        assert "stock" not in data or not isinstance(data.get("stock"), list)
        for seat in range(self.deal.num_seats):
            if seat != view.seat:
                assert view.hand_sizes[seat] == sum(self.deal.hands[seat])
        assert '"hands"' not in text
        self.checked += 1
        return self.inner.choose(observation, legal, rng, budget)


def test_a_bot_never_sees_another_hand_or_the_stock() -> None:
    deal = new_deal(2, 5)
    inspector = Inspector(deal)
    play_out(deal, [Agent(inspector, Budget(), random.Random(s)) for s in range(2)])
    assert inspector.checked > 20


def test_greedy_never_discards_a_joker_while_it_holds_another_card() -> None:
    for seed in range(3):
        deal = new_deal(2, seed)
        greedy = KunkenGreedy()
        rng = random.Random(seed)
        while not deal.is_over():
            seat = deal.to_move
            observation = deal.observe(seat)
            legal = tuple(observation.legal_actions())
            action = greedy.choose(observation, legal, rng, Budget())
            if action.kind == "discard" and action.slots[0] == 52:
                assert all(k == 52 for k in range(53) if deal.hands[seat][k])
            deal.push(action)


def test_ismcts_samples_worlds_consistent_with_the_seat_s_knowledge() -> None:
    deal = new_deal(2, 7)
    greedy = KunkenGreedy()
    rng = random.Random(3)
    while len(deal.melds) < 2 and not deal.is_over():
        observation = deal.observe(deal.to_move)
        deal.push(greedy.choose(observation, tuple(observation.legal_actions()), rng,
                                Budget()))
    assert not deal.is_over()
    seat = deal.to_move
    observation = deal.observe(seat)
    watching = Watching(observation)
    bot = IsmctsBot(KunkenPolicy())
    legal = tuple(observation.legal_actions())
    bot.search(watching, legal, random.Random(4), Budget(iterations=8))
    assert len(watching.worlds) == 8
    for world in watching.worlds:
        assert world.hands[seat] == deal.hands[seat]
        assert world.bank == deal.bank
        assert [m.slots for m in world.melds] == [m.slots for m in deal.melds]
        assert world.hand_sizes == deal.hand_sizes
        assert len(world.stock) == len(deal.stock)
        for other in range(2):  # cards taken from the bank stay in the taker's hand
            assert all(world.hands[other][k] >= deal.taken[other][k] for k in range(53))
        total = [0] * 53
        for hand in world.hands:
            for k in range(53):
                total[k] += hand[k]
        for card in world.stock + world.bank:
            total[card] += 1
        for meld in world.melds:
            for slot in meld.slots:
                total[min(slot, 52)] += 1
        assert total == [2] * 52 + [4]


@pytest.mark.parametrize("seats", [2, 3])
def test_every_bot_finishes_a_deal(seats: int) -> None:
    for spec in ("random", "greedy", "ismcts:iters=3"):
        deal = new_deal(seats, 11)
        agents = [parse_spec(spec).agent("kunken", random.Random(s)) for s in range(seats)]
        play_out(deal, agents)
        if deal.winner is not None:  # a seat went out
            assert not any(deal.hands[deal.winner])
        else:  # or the stock ran out and could not be renewed from the bank
            assert not deal.stock and not deal.stock_renewable()


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 51), st.lists(st.integers(0, 52), min_size=2, max_size=13))
def test_the_play_outs_quick_meld_test_agrees_with_the_rules(card: int,
                                                             cards: list[int]) -> None:
    """``melds_with`` (the play-outs' test before taking the bank's top card) is true
    exactly when the card and two held cards make a meld (RULES.md, Кункен: Melds)."""
    from itertools import combinations

    from konkun.bots.kunken_bots import melds_with
    from konkun.kunken.melds import check_meld

    hand = [0] * 53
    for held in cards:
        hand[held] += 1
    some_meld = any(check_meld([card, a, b]).valid for a, b in combinations(cards, 2))
    assert melds_with(card, hand) == some_meld


def test_play_outs_take_the_bank_where_the_planner_would() -> None:
    """At the start of a turn a play-out takes the bank's top card when it melds with two
    held cards and the seat has a layout (and the engine allows the take), and draws
    otherwise: a discard that hands the next seat the bank must not look safe."""
    from konkun.bots.kunken_bots import melds_with
    from konkun.kunken.actions import take

    policy = KunkenPolicy()
    planner = KunkenGreedy()
    seen = {"take": 0, "draw": 0}
    for seed in range(40):
        if min(seen.values()) >= 3:
            break
        deal = new_deal(2, seed)
        rng = random.Random(seed)
        while not deal.is_over() and min(seen.values()) < 3:
            seat = deal.to_move
            if deal.phase == "start" and deal.layout[seat] and deal.bank:
                top = take(len(deal.bank) - 1)
                expected = top if melds_with(deal.bank[-1], deal.hands[seat]) and \
                    deal.is_legal(top) else None
                chosen = policy.cheap_action(deal, random.Random(0))
                if expected is not None:
                    assert chosen == expected
                    seen["take"] += 1
                else:
                    assert chosen.kind == "draw"
                    seen["draw"] += 1
            observation = deal.observe(seat)
            deal.push(planner.choose(observation, tuple(observation.legal_actions()), rng,
                                     Budget()))
    assert min(seen.values()) >= 3
