"""RULES.md's joker rules added with issue 11, one test each, named after the rule: a joker
for a card the player holds, the swap timing (and the option ``swap_before_take``), a set
joker's declared suit, and a set joker laid and swapped back in one turn."""

from __future__ import annotations

import pytest

from konkun.errors import IllegalMoveError
from konkun.kunken import KunkenRules

from .helpers import card, position, texts


def test_a_joker_may_stand_for_a_card_the_player_also_holds() -> None:
    # "with 5h 6h 7h and X in hand, 5h X=6h 7h is a meld"
    deal = position(["5h 6h 7h X 9c", "Tc"], "9d", melds=[(0, "Kc Kh Ks")])
    deal.play("take 0")
    deal.play("meld 9c 9d X")
    assert "meld 5h X=6h 7h" not in texts(deal)  # the joker is gone into the set
    deal = position(["5h 6h 7h X 9c 9s", "Tc"], "9d", melds=[(0, "Kc Kh Ks")])
    deal.play("take 0")
    deal.play("meld 9c 9d 9s")
    assert "meld 5h X=6h 7h" in texts(deal)
    deal.play("meld 5h X=6h 7h")
    assert deal.hands[0][deal.melds[-1].slots[0] + 1] == 1  # 6h still in hand


def test_a_joker_may_stand_for_a_held_card_in_two_crossed_melds() -> None:
    # 5h 6h 7h then 6h X=7h 8h from 5h 6h 7h 6h 8h X: the second 7h is the joker
    deal = position(["5h 6h 7h 6h 8h X 2c", "Tc"], "7h", layout=[True, False])
    assert "take 0" in texts(deal)
    deal.play("take 0")
    deal.play("meld 5h 6h 7h")
    deal.play("meld 6h 7h X=8h")


def test_swaps_come_after_the_draw_or_the_take() -> None:
    deal = position(["Ac 2c 3c", "Tc"], "9s", stock="8h",
                    melds=[(1, "X Ad Ah"), (0, "5s 6s 7s")])
    assert not any(t.startswith("swap") for t in texts(deal))
    with pytest.raises(IllegalMoveError, match="begins with draw or take"):
        deal.play("swap 0 Ac")
    deal.play("draw")
    assert "swap 0 Ac" in texts(deal)


def test_swap_before_take_option_the_joker_counts_as_held_before_the_take() -> None:
    # 9h 2c with a layout; bank 8h 7h: 7h 8h and the joker won before the take make the
    # third-card meld only when the joker counts as held before the take
    melds = [(1, "X Ad Ah"), (0, "5s 6s 7s")]
    plain = position(["9h Ac 2c 3d", "Tc"], "7h", melds=melds)
    assert "take 0" not in texts(plain)
    rules = KunkenRules(swap_before_take=True)
    early = position(["9h Ac 2c 3d", "Tc"], "7h", melds=melds, rules=rules)
    assert "swap 0 Ac" in texts(early)
    assert "take 0" not in texts(early)
    early.play("swap 0 Ac")
    assert "take 0" in texts(early)
    early.play("take 0")
    early.play("meld 7h X=8h 9h")
    early.play("discard 2c")


def test_a_set_jokers_suit_may_be_declared_or_stay_open() -> None:
    deal = position(["Kc Kd X 2c 3d", "Tc Kh Ks"], "Kc", layout=[True, False])
    deal.play("take 0")
    legal = texts(deal)
    assert {"meld Kc Kd X", "meld Kc Kd X=Kh", "meld Kc Kd X=Ks"} <= set(legal)
    deal.play("meld Kc Kd X=Kh")
    assert deal.melds[0].to_json()["stands_for"] == [None, None, "Kh"]
    assert deal.melds[0].swap_index(card("Ks")) < 0 and deal.melds[0].swap_index(card("Kh")) == 2


def test_a_set_joker_laid_this_turn_swapped_back_for_the_taken_card_meld() -> None:
    # Kc and X held, Kd Kh taken: Kc Kd X is the third-card meld (the joker held before
    # the take), then Kh for the joker: the joker is back in hand for the opening
    deal = position(["Kc X Ac Ad As 2c", "Tc"], "Kd Kh")
    assert "take 0" in texts(deal)
    for step in ("take 0", "meld Kc Kd X", "swap 0 Kh", "meld Ac Ad As X", "discard 2c"):
        assert step in texts(deal), step
        deal.play(step)
    assert deal.winner == 0 and deal.express
