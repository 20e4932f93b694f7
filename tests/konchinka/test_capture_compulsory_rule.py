"""``capture_compulsory`` lives in one place (``rules.may_trail`` and its table
``rules.TRAILS``): every mover (the listed moves, the grouped moves, the move count, the
refusal in words, the random draws) follows it."""

from __future__ import annotations

import random

import pytest

from konkun.konchinka import KonchinkaRules, new_deal
from konkun.konchinka.captures import CLASSIC_SHIFTS, NOVO_SHIFTS, table_poly
from konkun.konchinka.deal import KonchinkaDeal
from konkun.konchinka.deck import CARDS
from konkun.konchinka.moves import Move
from konkun.konchinka.playout import draw_random_move
from konkun.konchinka.rules import TRAILS, may_trail


def deal_shifts(deal: KonchinkaDeal) -> tuple[int, ...]:
    """Where each card's capture count lies in the deal's table polynomial."""
    return NOVO_SHIFTS if deal.rules.variant == "novo" else CLASSIC_SHIFTS


def test_capture_compulsory_forbids_trailing_only_a_card_that_can_capture() -> None:
    assert may_trail(capture_compulsory=False, can_capture=False)
    assert may_trail(capture_compulsory=False, can_capture=True)
    assert may_trail(capture_compulsory=True, can_capture=False)
    assert not may_trail(capture_compulsory=True, can_capture=True)
    assert TRAILS == {False: (1, 1), True: (1, 0)}


@pytest.mark.parametrize("variant", ["classic", "novo"])
@pytest.mark.parametrize("compulsory", [False, True])
def test_capture_compulsory_every_mover_follows_the_one_rule(variant: str,
                                                             compulsory: bool) -> None:
    rules = KonchinkaRules(variant=variant, capture_compulsory=compulsory)  # type: ignore[arg-type]
    rng = random.Random(7)
    for number in range(30):
        deal = new_deal(rules, 2 + number % 3, number % 2, rng)
        while not deal.is_over():
            seat = deal.to_move
            assert seat is not None
            legal = set(deal.legal_actions())
            assert len(legal) == deal.count_moves()
            captures_of = {card for card, positions in deal.options() if positions}
            for card, trail, captures in deal.options_by_card():
                assert trail == may_trail(compulsory, bool(captures))
                assert ((card, ()) in deal.options()) == trail
            for card in deal.hand(seat):
                trail = Move.trail(card)
                allowed = may_trail(compulsory, card.index in captures_of)
                assert (trail in legal) == allowed
                assert (deal.why_illegal(trail) is None) == allowed
            hand = list(deal.hand_indices[seat])
            poly = table_poly(code >> 6 for code in deal.table_codes)
            for draw in range(20):  # the random draw trails only a card that may trail
                index, pick = draw_random_move(hand, poly, bool(deal.table),
                                               deal_shifts(deal), compulsory,
                                               random.Random(draw))
                if pick < 0:
                    assert Move.trail(CARDS[hand[index]]) in legal
            deal.push_random(rng)
