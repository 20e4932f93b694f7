"""The solver's advice (``konkun.kunken.hints``), as the UI and ``konkun kunken solve`` show it."""

from __future__ import annotations

from konkun.cards import parse_cards
from konkun.kunken.hints import hand_advice

from .helpers import counts


def test_advice_takes_the_bank_from_the_five_of_diamonds_as_in_the_source() -> None:
    """The source's example: three Kings and 3♦ 4♦ 6♦ take the bank from 5♦ for 50."""
    bank = [c.index for c in parse_cards("2s5dQh")]
    advice = hand_advice(counts("KcKdKs3d4d6d9h"), bank, need=50)
    assert advice["points"] == 30  # only the Kings meld without the bank
    takes = {take["card"]: take["melds"] for take in advice["takes"]}
    assert set(takes) == {"5d"}
    assert sorted(map(sorted, takes["5d"])) == [["3d", "4d", "5d", "6d"], ["Kc", "Kd", "Ks"]]


def test_advice_offers_no_take_below_the_opening_minimum() -> None:
    bank = [c.index for c in parse_cards("5d")]
    assert hand_advice(counts("3d4d6d9h2c"), bank, need=50)["takes"] == []
    with_layout = hand_advice(counts("3d4d6d9h2c"), bank, need=0)
    assert [take["card"] for take in with_layout["takes"]] == ["5d"]
