"""Kunken actions: frozen values with an enum kind and no sentinel number."""

from __future__ import annotations

import dataclasses

import pytest

from konkun.kunken.actions import (
    Action,
    ActionKind,
    discard,
    draw,
    layoff,
    meld,
    parse_action,
    swap,
    take,
)
from konkun.kunken.melds import parse_slot, parse_slots


def test_an_action_is_frozen_and_slotted() -> None:
    action = take(3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        action.number = 4  # type: ignore[misc]
    assert not hasattr(action, "__dict__")


def test_the_kind_is_an_enum_equal_to_its_word() -> None:
    assert draw().kind is ActionKind.DRAW
    assert take(0).kind == "take"
    assert {a.kind for a in (draw(), take(1), discard(4))} == {"draw", "take", "discard"}


def test_only_take_layoff_and_swap_carry_a_number() -> None:
    slots = tuple(parse_slots(["5h", "6h", "7h"]))
    for action in (draw(), meld(slots), discard(parse_slot("Qs"))):
        assert action.number is None
        with pytest.raises(ValueError, match="no bank position or meld number"):
            _ = action.target
    assert take(2).target == 2
    assert layoff(1, parse_slot("Kd")).target == 1
    assert swap(0, parse_slot("Ac")).target == 0


@pytest.mark.parametrize("text", ["draw", "take 3", "meld 5h X=6h 7h", "layoff Kd 2",
                                  "swap 1 Ac", "discard Qs"])
def test_text_reads_back_to_an_equal_hashable_action(text: str) -> None:
    action = parse_action(text)
    assert action.text() == text == str(action)
    assert action == parse_action(text) and hash(action) == hash(parse_action(text))
    assert isinstance(action, Action)
    assert eval(repr(action), {"Action": Action, "ActionKind": ActionKind}) == action
