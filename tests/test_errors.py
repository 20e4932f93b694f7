"""Structured errors (issue 10, item 4): an illegal move carries its action, its reason and
its position apart, so that the command line may print the whole (python-chess style)
while every interface shows a seat the reason alone."""

from __future__ import annotations

import pickle
import random

import pytest

from konkun.cards import Card
from konkun.errors import (
    GameOverError,
    IllegalMoveError,
    InvalidNotationError,
    KonkunError,
)
from konkun.konchinka import KonchinkaRules, Move, parse_kpn
from konkun.kunken import KunkenRules, new_deal
from konkun.kunken.actions import parse_action as parse_kunken_action

KPN = "classic As7h2cQd Kc3d/Qh9c5s/8d4h - -/-/- 1 0 -"
"""Seat 1 to move holds Qh 9c 5s; seat 0 holds Kc 3d, seat 2 holds 8d 4h."""


def test_an_illegal_move_keeps_action_reason_and_position_apart() -> None:
    error = IllegalMoveError("Qd:As", "As not on the table", "a position")
    assert (error.action, error.reason, error.position) == ("Qd:As", "As not on the table",
                                                             "a position")
    assert str(error) == "illegal move 'Qd:As' in a position: As not on the table"
    assert isinstance(error, KonkunError) and isinstance(error, ValueError)


def test_the_one_message_form_is_its_own_reason() -> None:
    error = GameOverError("the deal is over: call reset()")
    assert error.action is None and error.position is None
    assert str(error) == error.reason == "the deal is over: call reset()"
    assert isinstance(error, IllegalMoveError)


def test_any_error_with_a_position_shows_it_only_in_str() -> None:
    error = InvalidNotationError("invalid move 'x'", "a position")
    assert str(error) == "invalid move 'x' in a position"
    assert error.reason == "invalid move 'x'"
    assert KonkunError("plain").reason == str(KonkunError("plain")) == "plain"


@pytest.mark.parametrize("error", [
    IllegalMoveError("Qd:As", "As not on the table", "a position"),
    GameOverError("7c", "the deal is over"),
    InvalidNotationError("invalid move 'x'", "a position")])
def test_errors_pickle_with_their_parts(error: KonkunError) -> None:
    """Across processes (the arena's workers) the reason stays apart from the position."""
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is type(error)
    assert (str(again), again.reason, again.position) == (str(error), error.reason,
                                                          error.position)


def test_a_konchinka_illegal_move_names_the_kpn_in_str_and_not_in_reason() -> None:
    deal = parse_kpn(KPN)
    move = Move(Card.parse("Qh"), frozenset({Card.parse("As"), Card.parse("2c")}))
    with pytest.raises(IllegalMoveError) as caught:
        deal.play(move)
    error = caught.value
    assert error.action == "Qh:As2c" and error.position == deal.kpn()
    assert error.reason == deal.why_illegal(move)
    assert "add up to 3" in error.reason and "Kc" not in error.reason
    assert str(error) == f"illegal move 'Qh:As2c' in {deal.kpn()}: {error.reason}"


def test_a_konchinka_text_that_is_no_move_names_the_kpn_in_str_only() -> None:
    deal = parse_kpn(KPN, KonchinkaRules())
    with pytest.raises(InvalidNotationError) as caught:
        deal.parse_action("hello:")
    assert caught.value.position == deal.kpn() and "Kc" not in caught.value.reason
    assert str(caught.value) == f"{caught.value.reason} in {deal.kpn()}"
    assert "'hello:'" in caught.value.reason


def test_a_kunken_illegal_action_keeps_its_reason_apart() -> None:
    deal = new_deal(KunkenRules(), 2, 0, random.Random(4))
    action = parse_kunken_action("discard 2c")
    with pytest.raises(IllegalMoveError) as caught:
        deal.play(action)
    assert caught.value.reason == deal.why_illegal(action)
    assert caught.value.action == "discard 2c"
    assert str(caught.value).endswith(caught.value.reason)


def test_the_toy_deal_says_why_a_move_is_illegal_as_a_deal_does() -> None:
    from konkun.game import Deal
    from konkun.toy.engine import ToyDeal

    deal = ToyDeal.new(2, 5)
    assert isinstance(deal, Deal)
    held = deal.legal_actions()[0]
    missing = next(c for c in range(1, 100) if c not in deal.legal_actions())
    assert deal.why_illegal(held) is None
    assert deal.why_illegal(missing) == "not in the hand of seat 1"
    with pytest.raises(IllegalMoveError) as caught:
        deal.play(missing)
    assert caught.value.reason == deal.why_illegal(missing)
    assert caught.value.action == str(missing)
