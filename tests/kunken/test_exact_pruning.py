"""The exact take check's cheap rejections are exact: over positions from random play with
each rule variant, every step ``completion.StepFilter`` rejects is one the full check
(``completion.completable`` after the step) rejects too, and the take scan's candidates
(``completion._take_candidates``) lose no bank position the full check accepts."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from konkun.kunken import KunkenDeal, KunkenRules
from konkun.kunken.actions import SWAP, Action, layoff, meld
from konkun.kunken.completion import StepFilter, completable, take_positions
from konkun.kunken.solver import after_take
from konkun.kunken.solver import take_positions as fast_take_positions
from konkun.kunken.state import START, TAKEN, new_deal

VARIANTS = [
    KunkenRules(),
    KunkenRules(joker_for_held=False),
    KunkenRules(opening_minimum=0),
    KunkenRules(opening_minimum=70),
    KunkenRules(jokers=2),
]


def _candidate_steps(deal: KunkenDeal, seat: int) -> list[Action]:
    """Every meld, lay-off of a card of the hand and swap the player could try now (before
    asking whether the turn stays completable)."""
    hand = deal.hands[seat]
    size = deal.hand_sizes[seat]
    steps = [meld(slots) for slots in deal.candidate_melds(hand) if len(slots) < size]
    if size >= 2:
        steps += [layoff(m, slot) for m, tm in enumerate(deal.melds)
                  for k, slot in tm.layoff_options() if hand[k]]
    return steps + deal.swap_steps(seat, hand)


def _walk(rules: KunkenRules, seed: int, steps: int) -> list[KunkenDeal]:
    """The deals met in ``steps`` actions of random play (copies)."""
    rng = random.Random(seed)
    deal = new_deal(rules, rng.choice((2, 3, 4)), 0, rng)
    seen = []
    for _ in range(steps):
        if deal.is_over():
            break
        seen.append(deal.copy())
        deal.push(rng.choice(deal.legal_actions()))
    return seen


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.sampled_from(range(len(VARIANTS))))
def test_step_filter_rejects_only_steps_the_exact_check_rejects(seed: int,
                                                                 variant: int) -> None:
    rules = VARIANTS[variant]
    for deal in _walk(rules, seed, 250):
        seat = deal.to_move
        if deal.phase != TAKEN or seat is None or deal.obligations_met():
            continue
        hand = deal.hands[seat]
        table = deal.compact_table()
        rough = StepFilter(hand, deal.turn_notold, deal.take_card, deal.need, deal.pending,
                           deal.opening, table, rules.joker_for_held)
        for step in _candidate_steps(deal, seat):
            if rough.rejects(step.slots, step.kind == SWAP):
                assert not deal.completes_after_step(seat, step, table), step.text()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.sampled_from(range(len(VARIANTS))))
def test_take_scan_candidates_lose_no_take(seed: int, variant: int) -> None:
    rules = VARIANTS[variant]
    replace = rules.joker_for_held
    for deal in _walk(rules, seed, 250):
        seat = deal.to_move
        if deal.phase != START or seat is None:
            continue
        hand = deal.hands[seat]
        need = 0 if deal.layout[seat] else rules.opening_minimum
        table = deal.compact_table()
        every = set(fast_take_positions(hand, deal.bank, need, replace))
        every.update(i for i in range(len(deal.bank)) if completable(
            *after_take(hand, deal.bank, i), deal.bank[i], need, True, deal.layout[seat],
            table, replace, replace))
        assert take_positions(hand, deal.bank, need, table, deal.layout[seat],
                              replace) == sorted(every)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.sampled_from(range(len(VARIANTS))))
def test_steps_listed_after_a_take_are_exactly_the_legal_ones(seed: int,
                                                              variant: int) -> None:
    """The legal list's own exact judges (for the taken card's meld alone:
    ``completion.swap_third_length`` and its bounds) agree with validation, which asks
    ``completes_after_step`` of each step, on every candidate step."""
    rules = VARIANTS[variant]
    for deal in _walk(rules, seed, 250):
        seat = deal.to_move
        if deal.phase != TAKEN or seat is None or deal.obligations_met():
            continue
        listed = {a for a in deal.legal_actions() if a.kind != "discard"}
        legal = {step for step in _candidate_steps(deal, seat) if deal.is_legal(step)}
        assert listed == legal, sorted(a.text() for a in listed ^ legal)
