"""The Kunken greedy bot that plays to go out (issue 14): its turn plan counts melds and
lay-offs, it takes the bank to go out whenever it can (with a margin: when that leaves
it ahead; RULES.md, Кункен: Going out), and ``greedy:v=1`` keeps the first greedy bot
for comparisons."""

from __future__ import annotations

import random
from typing import Any

import pytest

from konkun.bots import Budget, parse_spec
from konkun.bots.kunken_greedy import KunkenGreedy
from konkun.bots.kunken_planner import KunkenPlanner, turn_plan
from konkun.bots.specs import InvalidBotSpecError
from konkun.cards import parse_cards
from konkun.kunken.melds import TableMeld, check_meld
from konkun.kunken.position import KunkenPosition, MeldPosition
from konkun.kunken.rules import KunkenRules
from konkun.kunken.state import KunkenDeal, cards_of, counts_of


def counts(text: str) -> list[int]:
    return counts_of([card.index for card in parse_cards(text)])


def table_meld(owner: int, text: str) -> TableMeld:
    check = check_meld([card.index for card in parse_cards(text)])
    assert check.valid, check.reason
    return TableMeld(owner, list(check.slots))


def position(hands: list[str], bank: str, melds: list[tuple[int, str]]) -> KunkenDeal:
    """Seat 0 to start its turn; the stock holds every card not placed."""
    rules = KunkenRules()
    hand_counts = [counts(h) for h in hands]
    bank_cards = [card.index for card in parse_cards(bank)]
    table = [table_meld(owner, text) for owner, text in melds]
    left = [2] * 52 + [rules.jokers]
    for hand in hand_counts:
        for k in range(53):
            left[k] -= hand[k]
    for k in bank_cards:
        left[k] -= 1
    for meld in table:
        for slot in meld.slots:
            left[min(slot, 52)] -= 1
    stock = [k for k in range(53) for _ in range(left[k])]
    return KunkenDeal.from_position(KunkenPosition(
        rules=rules, dealer=len(hands) - 1,
        hands=tuple(tuple(cards_of(h)) for h in hand_counts), stock=tuple(reversed(stock)),
        bank=tuple(bank_cards),
        melds=tuple(MeldPosition(m.owner, tuple(m.slots), tuple(m.laid_by)) for m in table),
        taken=tuple(() for _ in hands),
        layout=tuple(any(m.owner == s for m in table) for s in range(len(hands))),
        to_move=0))


def test_turn_plan_lays_melds_then_lays_off_what_fits_and_keeps_the_discard() -> None:
    # Kc Kd Ks is a set; 8h and then 7h extend the 9h-Th-Jh on the table; 2c stays
    plan = turn_plan(counts("KcKdKs8h7h2c"), [table_meld(1, "9hThJh")], 0)
    assert plan is not None
    assert [sorted(m) for m in plan.melds] == [sorted(c.index for c in parse_cards("KcKdKs"))]
    assert plan.points == 30 + 5 + 5
    assert plan.rest == counts("2c")
    assert plan.goes_out


def test_turn_plan_of_a_hand_with_dead_cards_does_not_go_out() -> None:
    plan = turn_plan(counts("KcKdKs2c7d"), [], 0)
    assert plan is not None
    assert plan.left == 2 and not plan.goes_out


GOING_OUT = (["7h8hKcKd2c", "2d3d4d5d6d7d8d9dTdJdQdKdAd"], "Ks",
             [(0, "AcAdAs"), (1, "9hThJh")])
"""Seat 0 can take Ks for Kc Kd Ks, lay off 8h and 7h and discard 2c: out, far ahead
of seat 1 (its 13 cards in hand count against it)."""


def play_turn(deal: KunkenDeal, bot: Any) -> None:
    seat = deal.to_move
    assert seat is not None
    rng = random.Random(1)
    while deal.to_move == seat and not deal.is_over():
        observation = deal.observe(seat)
        deal.push(bot.choose(observation, tuple(observation.legal_actions()), rng, Budget()))


def test_the_planner_takes_the_bank_to_go_out() -> None:
    deal = position(*GOING_OUT)
    play_turn(deal, KunkenPlanner())
    assert deal.is_over() and deal.winner == 0
    assert deal.hands[0] == [0] * 53


BEHIND = (["7h8hKcKd2c", "2d3d"], "Ks",
          [(0, "AcAdAs"), (1, "9hThJh"), (1, "2s3s4s5s6s7s8s9sTsJsQsKs"), (1, "AhAcAd")])
"""GOING_OUT's turn for seat 0 (70 points laid if it goes out), but seat 1 has laid 125
and holds only 10: going out leaves seat 0 behind."""


def test_the_planner_goes_out_even_when_behind() -> None:
    deal = position(*BEHIND)
    play_turn(deal, KunkenPlanner())
    assert deal.is_over() and deal.winner == 0
    points = deal.points()
    assert points[0] < points[1]  # behind, but the deal is not left to go on


def test_with_a_margin_the_planner_goes_out_only_when_ahead() -> None:
    deal = position(*BEHIND)
    play_turn(deal, KunkenPlanner(margin=0.0))
    assert not deal.is_over()
    ahead = position(*GOING_OUT)
    play_turn(ahead, KunkenPlanner(margin=0.0))
    assert ahead.is_over() and ahead.winner == 0


def test_the_first_greedy_bot_keeps_its_hand_instead() -> None:
    deal = position(*GOING_OUT)
    play_turn(deal, KunkenGreedy())
    assert not deal.is_over()


def test_greedy_v1_is_the_first_greedy_bot_and_greedy_the_planner() -> None:
    assert type(parse_spec("greedy").create("kunken")) is KunkenPlanner
    assert type(parse_spec("greedy:v=1").create("kunken")) is KunkenGreedy
    planner = parse_spec("greedy:margin=20:threat=3").create("kunken")
    assert isinstance(planner, KunkenPlanner)
    assert (planner.margin, planner.threat) == (20.0, 3)


@pytest.mark.parametrize("text", ["greedy:v=3", "greedy:v=1:margin=5", "greedy:v=x"])
def test_bad_versions_are_refused(text: str) -> None:
    with pytest.raises(InvalidBotSpecError, match="greedy"):
        parse_spec(text).create("kunken")
