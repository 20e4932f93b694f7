"""The engine's take check against the independent brute force (``bruteforce.py``), over
positions from random and greedy play, with and without each rule option: the engine offers
exactly the bank positions some legal sequence of steps completes, and every step of such a
sequence (the brute force's witness) is then accepted by ``play()``."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from konkun.bots.kunken_greedy import KunkenGreedy
from konkun.bots.policy import pick_best
from konkun.kunken import KunkenDeal, KunkenRules, new_deal
from konkun.kunken.actions import DISCARD
from konkun.kunken.completion import compact_table, takes_with_swaps_first
from konkun.kunken.melds import card_text, slot_text
from konkun.kunken.state import START, cards_of

from .bruteforce import SearchTooBigError, take_witnesses

VARIANTS = {
    "default": KunkenRules(),
    "joker_for_held=false": KunkenRules(joker_for_held=False),
    "swap_before_take": KunkenRules(swap_before_take=True),
    "opening_minimum=0": KunkenRules(opening_minimum=0),
    "opening_minimum=30": KunkenRules(opening_minimum=30),
    "opening_minimum=70": KunkenRules(opening_minimum=70),
    "jokers=2": KunkenRules(jokers=2),
    "joker_for_held=false swap_before_take": KunkenRules(joker_for_held=False,
                                                         swap_before_take=True),
}
BANK_TAIL = 4
"""Positions keep the newest cards of the bank (the rest left out of the question), so
that the brute force stays quick."""
MAX_HAND = 15
BUDGET = 20_000
"""States the brute force may visit per take before the position is left out."""


def _position(rules: KunkenRules, seed: int, steps: int, greedy: bool) -> KunkenDeal | None:
    """A deal at the start of a turn after about ``steps`` actions of random or greedy
    play, or ``None`` when it ended first."""
    rng = random.Random(seed)
    deal = new_deal(rules, rng.choice((2, 3, 4)), 0, rng)
    bot = KunkenGreedy()
    done = 0
    while not deal.is_over():
        if done >= steps and deal.phase == START and len(deal.bank) >= 1:
            return deal
        legal = deal.legal_actions()
        if greedy:
            seat = deal.to_move
            assert seat is not None
            action = pick_best(legal, bot.scores(deal.observe(seat), legal), rng)
        else:
            action = rng.choice(legal)
        deal.push(action)
        done += 1
    return None


def _meld_texts(deal: KunkenDeal) -> list[list[str]]:
    return [[slot_text(s) for s in m.slots] for m in deal.melds]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(sorted(VARIANTS)), seed=st.integers(0, 10**6),
       steps=st.integers(0, 400), greedy=st.booleans())
def test_engine_takes_match_the_brute_force_and_its_witness_plays(
        variant: str, seed: int, steps: int, greedy: bool) -> None:
    rules = VARIANTS[variant]
    deal = _position(rules, seed, steps, greedy)
    if deal is None:
        return
    seat = deal.to_move
    assert seat is not None
    hand = deal.hands[seat]
    if sum(hand) > MAX_HAND:
        return
    offset = max(0, len(deal.bank) - BANK_TAIL)
    bank = deal.bank[offset:]
    layout = deal.layout[seat]
    need = 0 if layout else rules.opening_minimum
    try:
        witnesses = take_witnesses([card_text(k) for k in cards_of(hand)],
                                   [card_text(c) for c in bank], _meld_texts(deal), layout,
                                   joker_for_held=rules.joker_for_held,
                                   swap_before_take=rules.swap_before_take,
                                   opening_minimum=rules.opening_minimum, budget=BUDGET)
    except SearchTooBigError:
        assume(False)  # too slow for the brute force: left out, not guessed
        return
    table = compact_table((m.slots, m.kind) for m in deal.melds)
    engine = takes_with_swaps_first(hand, bank, need, table, layout, rules.joker_for_held,
                                    rules.swap_before_take)
    assert engine == sorted(witnesses), (variant, deal.to_json())
    offered = [a.number - offset for a in deal.legal_actions()
               if a.kind == "take" and a.number >= offset]
    if not rules.swap_before_take:
        assert offered == engine
    for i, steps_text in witnesses.items():
        play = deal.copy()
        for text in steps_text:
            if text.startswith("take "):
                text = f"take {i + offset}"
            play.play(text)
        assert any(a.kind == DISCARD for a in play.legal_actions()), steps_text


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_each_variant_reaches_positions_with_takes(variant: str) -> None:
    # the generator is not vacuous: some positions of each variant offer a take
    found = 0
    for seed in range(24):
        deal = _position(VARIANTS[variant], seed, 10 + seed * 3, seed % 2 == 0)
        if deal is not None and any(a.kind == "take" for a in deal.legal_actions()):
            found += 1
    assert found >= 2
