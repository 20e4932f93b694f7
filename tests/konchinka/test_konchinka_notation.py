"""KPN and move notation (CONTRACT.md): parse, format, round trips, strict errors."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from konkun.cards import Card
from konkun.errors import InvalidNotationError, InvalidPositionError, KonkunError
from konkun.konchinka import (
    CLASSIC,
    NOVO,
    KonchinkaRules,
    Move,
    MoveKind,
    format_kpn,
    new_deal,
    parse_kpn,
)

EXAMPLE = "classic As7h2cQd Kc3d/Qh9c5s/8d4h - -/-/- 1 0 -"


def test_kpn_contract_example_reads_every_field() -> None:
    deal = parse_kpn(EXAMPLE)
    assert deal.rules == CLASSIC
    assert set(deal.table) == {Card.parse(t) for t in ("As", "7h", "2c", "Qd")}
    assert [len(h) for h in deal.hands] == [2, 3, 2]
    assert deal.stock == []
    assert deal.piles == [[], [], []]
    assert deal.to_move == 1
    assert deal.dealer == 0
    assert deal.last_capturer is None


def test_kpn_lists_in_any_order_read_the_same() -> None:
    shuffled = "classic Qd2c7hAs 3dKc/5s9cQh/4h8d - -/-/- 1 0 -"
    assert parse_kpn(shuffled) == parse_kpn(EXAMPLE)
    assert format_kpn(parse_kpn(shuffled)) == format_kpn(parse_kpn(EXAMPLE))


def test_kpn_written_in_canonical_card_order_stock_in_its_order() -> None:
    text = "novo 2c7hAsQd Kc3d/Qh9c5s 5d6d7d8d9dTdJd2d 2h/- 0 1 0"
    assert format_kpn(parse_kpn(text)) == "novo AsQd7h2c Kc3d/Qh9c5s 5d6d7d8d9dTdJd2d 2h/- 0 1 0"


def test_kpn_accepts_ten_and_suit_symbols_on_input() -> None:
    deal = parse_kpn("classic 10♦ K♣3d/Qh - -/- 0 1 -")
    assert deal.table == [Card.parse("Td")]
    assert format_kpn(deal) == "classic Td Kc3d/Qh - -/- 0 1 -"


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9), seats=st.integers(2, 4), novo=st.booleans(),
       steps=st.integers(0, 60))
def test_kpn_round_trip_over_random_positions(seed: int, seats: int, novo: bool,
                                              steps: int) -> None:
    rng = random.Random(seed)
    deal = new_deal(NOVO if novo else CLASSIC, seats, rng.randrange(seats), rng)
    for _ in range(steps):
        if deal.is_over():
            break
        deal.play(rng.choice(deal.legal_actions()))
    text = format_kpn(deal)
    again = parse_kpn(text)
    assert format_kpn(again) == text
    assert again == deal
    assert again.legal_actions() == deal.legal_actions()


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_move_text_round_trip(seed: int) -> None:
    rng = random.Random(seed)
    deal = new_deal(CLASSIC, 2, 0, rng)
    while not deal.is_over():
        for move in deal.legal_actions():
            assert Move.parse(move.text()) == move
            shuffled = list(move.taken)
            rng.shuffle(shuffled)
            if shuffled:
                text = move.card.text + ":" + "".join(c.text for c in shuffled)
                assert Move.parse(text) == move
        deal.play(rng.choice(deal.legal_actions()))


def test_move_text_canonical_order_rank_high_to_low_then_suit() -> None:
    assert Move.parse("Qd:2c7hAs").text() == "Qd:As7h2c"
    assert Move.parse("Ks:5h5c5d").text() == "Ks:5c5d5h"
    assert Move.parse("Jh:2cAsKdTh").text() == "Jh:AsKdTh2c"
    assert str(Move.parse("Qd")) == "Qd"
    assert repr(Move.parse("10d:5h5c")) == "Move.parse('Td:5c5h')"


def test_a_move_is_a_frozen_dataclass_whose_kind_is_an_enum() -> None:
    # RULES.md: a move either lays its card on the table or takes cards with it
    trail, capture = Move.parse("Qd"), Move.parse("Qd:As7h2c")
    assert (trail.kind, capture.kind) == (MoveKind.TRAIL, MoveKind.CAPTURE)
    assert trail.is_trail and capture.is_capture
    with pytest.raises(AttributeError):
        capture.card = trail.card  # type: ignore[misc]
    assert {capture, Move.parse("Qd:2c7hAs")} == {capture}


@pytest.mark.parametrize("text", ["", "Q", "Qd:", ":As", "QdAs", "Qd:Qd", "Qd:AsAs", "X",
                                  "Zz", "Qd:Zz", "Qd:X", "Qd::As"])
def test_move_bad_text_is_a_notation_error(text: str) -> None:
    with pytest.raises(InvalidNotationError, match="invalid move"):
        Move.parse(text)


@pytest.mark.parametrize(("text", "error", "words"), [
    ("classic As Kc/Qh - -/- 0 1", InvalidNotationError, "8 fields"),
    ("classic  As Kc/Qh - -/- 0 1 -", InvalidNotationError, "8 fields"),
    ("classic As Kc/Qh - -/- 0 1 - extra", InvalidNotationError, "8 fields"),
    ("vanilla As Kc/Qh - -/- 0 1 -", InvalidNotationError, "variant"),
    ("classic Zz Kc/Qh - -/- 0 1 -", InvalidNotationError, "table"),
    ("classic As Kc/Q - -/- 0 1 -", InvalidNotationError, "hand of seat 1"),
    ("classic As Kc/Qh - -/- x 1 -", InvalidNotationError, "seat to move"),
    ("classic As Kc/Qh - -/- 0 -1 -", InvalidNotationError, "dealer"),
    ("classic As Kc/Qh - -/- 0 1 z", InvalidNotationError, "last capture"),
    ("classic As Kc/ - -/- 0 1 -", InvalidNotationError, "hand of seat 1"),
    ("classic As Kc/Qh - -/- 0 2 -", InvalidPositionError, "dealer"),
    ("classic As Kc/Qh - -/- 2 1 -", InvalidPositionError, "seat to move"),
    ("classic As Kc/Qh - -/- 0 1 3", InvalidPositionError, "last capture"),
    ("classic As Kc - - 0 0 -", InvalidPositionError, "1 hands"),
    ("classic As Kc/Qh/2c/3c/4c - -/-/-/-/- 0 1 -", InvalidPositionError, "5 hands"),
    ("classic As Kc/Qh - -/-/- 0 1 -", InvalidPositionError, "capture piles"),
    ("classic As As/Qh - -/- 0 1 -", InvalidPositionError, "As appears more than once"),
    ("classic As Kc/Qh - Kc/- 0 1 0", InvalidPositionError, "Kc appears more than once"),
    ("classic As KcX/Qh - -/- 0 1 -", InvalidPositionError, "joker"),
    ("classic As -/Qh - -/- 0 1 -", InvalidPositionError, "holds no card"),
    ("classic As -/- 2c3c4c5c6c7c8c9c -/- 0 1 -", InvalidPositionError, "redeal"),
    ("classic As Kc/Qh 2c3c -/- 0 1 -", InvalidPositionError, "stock of 2 cards"),
    ("classic As -/- - Kc/- 0 1 0", InvalidPositionError, "sweep"),
])
def test_kpn_bad_input_names_the_input(text: str, error: type[KonkunError],
                                       words: str) -> None:
    with pytest.raises(error, match=words) as caught:
        parse_kpn(text)
    assert repr(text) in str(caught.value)


def test_kpn_rules_must_match_the_variant() -> None:
    with pytest.raises(InvalidPositionError, match="novo"):
        parse_kpn(EXAMPLE, NOVO)
    rules = KonchinkaRules(capture_compulsory=True)
    assert parse_kpn(EXAMPLE, rules).rules is rules


def test_kpn_finished_deal_without_captures_may_keep_its_table() -> None:
    deal = parse_kpn("classic As -/- - -/- 0 1 -")
    assert deal.is_over()
    assert deal.legal_actions() == []
    assert deal.perft(0) == 1
    assert deal.perft(1) == 0


def test_kpn_subset_of_the_deck_is_a_position() -> None:
    deal = parse_kpn("novo 5d Ks/2h/3h 4c5c6c7c8c9cTcJcQcKcAc2d -/-/- 2 0 -")
    assert deal.to_move == 2
    assert len(deal.cards_in_play()) == 16


def test_kpn_piles_need_not_agree_with_the_last_capture() -> None:
    deal = parse_kpn("classic - -/- - 2cAs/Td 0 1 -")
    assert deal.is_over()
    assert deal.points() == [2 + 1 + 1, 1]


def test_a_move_kind_is_an_enum_equal_to_its_word() -> None:
    from konkun.konchinka import MoveKind

    assert Move.parse("Qd").kind is MoveKind.TRAIL
    assert Move.parse("Qd:As7h2c").kind == "capture"
