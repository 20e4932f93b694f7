"""The public position value (``deal.position()`` / ``KonchinkaDeal.from_position``) and
the fast integer interface agree with the deal they come from."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from konkun.cards import Card
from konkun.konchinka import KonchinkaDeal, KonchinkaRules, format_kpn, new_deal, parse_kpn
from konkun.konchinka.position import KonchinkaPosition

CARD = Card.from_index
RULES = st.builds(KonchinkaRules, variant=st.sampled_from(["classic", "novo"]),
                  capture_compulsory=st.booleans(),
                  table_excludes_jacks=st.booleans())


def _played(rules: KonchinkaRules, seats: int, seed: int, moves: int) -> KonchinkaDeal:
    rng = random.Random(seed)
    deal = new_deal(rules, seats, seed % seats, rng)
    for _ in range(moves):
        legal = deal.legal_actions()
        if not legal:
            break
        deal.play(rng.choice(legal))
    return deal


def _views(deal: KonchinkaDeal) -> list[object]:
    return [deal.observe(seat).to_json() for seat in range(deal.num_seats)]


@settings(max_examples=60, deadline=None)
@given(rules=RULES, seats=st.integers(2, 4), seed=st.integers(0, 10**9),
       moves=st.integers(0, 60))
def test_from_position_plays_on_identically(rules: KonchinkaRules, seats: int, seed: int,
                                            moves: int) -> None:
    deal = _played(rules, seats, seed, moves)
    position = deal.position()
    twin = KonchinkaDeal.from_position(position)
    assert twin.position() == position
    assert twin == deal
    assert twin.kpn() == deal.kpn()
    rng = random.Random(seed + 1)
    while True:
        assert twin.legal_actions() == deal.legal_actions()
        assert twin.options() == deal.options()
        assert _views(twin) == _views(deal)
        assert twin.history == deal.history and twin.redeal_after == deal.redeal_after
        legal = deal.legal_actions()
        if not legal:
            break
        move = rng.choice(legal)
        deal.play(move)
        twin.play(move)
    assert twin.points() == deal.points()
    assert twin.final_sweep == deal.final_sweep
    assert twin.position() == deal.position()


@settings(max_examples=40, deadline=None)
@given(rules=RULES, seats=st.integers(2, 4), seed=st.integers(0, 10**9),
       moves=st.integers(0, 40))
def test_a_random_playout_from_the_position_is_the_same(rules: KonchinkaRules, seats: int,
                                                        seed: int, moves: int) -> None:
    deal = _played(rules, seats, seed, moves)
    twin = KonchinkaDeal.from_position(deal.position())
    trace: list[tuple[int, int]] = []
    twin_trace: list[tuple[int, int]] = []
    points = deal.random_playout(random.Random(seed), trace)
    assert twin.random_playout(random.Random(seed), twin_trace) == points
    assert twin_trace == trace
    assert twin.position() == deal.position()


def test_the_position_is_a_frozen_hashable_value() -> None:
    deal = _played(KonchinkaRules.preset("classic"), 3, 7, 5)
    position = deal.position()
    assert position == deal.position()
    assert hash(position) == hash(deal.position())
    with pytest.raises(dataclasses.FrozenInstanceError):
        position.dealer = 0  # type: ignore[misc]
    deal.play(deal.legal_actions()[0])
    assert deal.position() != position
    assert KonchinkaDeal.from_position(position).position() == position


def test_the_position_of_a_finished_deal_says_over_and_who_would_move_next() -> None:
    deal = _played(KonchinkaRules.preset("novo"), 2, 11, 1000)
    position = deal.position()
    assert position.over and position.to_move is None
    assert position.next_seat == deal.next_seat
    assert not any(position.hands) and not position.stock and not position.table
    assert sum(len(pile) for pile in position.piles) == 52
    assert len(position.history) == 52 - 4  # every card but the initial table is played
    twin = KonchinkaDeal.from_position(position)
    assert twin.is_over() and twin.points() == deal.points()


@settings(max_examples=40, deadline=None)
@given(rules=RULES, seats=st.integers(2, 4), seed=st.integers(0, 10**9),
       moves=st.integers(0, 40))
def test_the_kpn_is_the_text_of_part_of_the_position(rules: KonchinkaRules, seats: int,
                                                     seed: int, moves: int) -> None:
    deal = _played(rules, seats, seed, moves)
    position = deal.position()
    read = parse_kpn(deal.kpn(), rules).position()
    assert format_kpn(KonchinkaDeal.from_position(position)) == deal.kpn()
    assert format_kpn(position) == deal.kpn()
    assert read.rules == position.rules and read.dealer == position.dealer
    assert read.table == position.table and read.stock == position.stock
    assert read.piles == position.piles
    assert [set(h) for h in read.hands] == [set(h) for h in position.hands]
    assert (read.next_seat, read.over, read.last_capturer) == \
        (position.next_seat, position.over, position.last_capturer)
    assert read.history == () and read.returned_to_stock == ()  # not in the KPN


@settings(max_examples=40, deadline=None)
@given(rules=RULES, seats=st.integers(2, 4), seed=st.integers(0, 10**9),
       moves=st.integers(0, 40))
def test_the_fast_interface_reads_what_the_public_one_says(rules: KonchinkaRules, seats: int,
                                                           seed: int, moves: int) -> None:
    deal = _played(rules, seats, seed, moves)
    assert deal.turn == (-1 if deal.to_move is None else deal.to_move)
    for seat in range(seats):
        assert sorted(deal.hand_indices[seat]) == sorted(c.index for c in deal.hand(seat))
        assert deal.pile_masks[seat] == sum(1 << c.index for c in deal.captured(seat))
    assert sorted(code & 63 for code in deal.table_codes) == \
        sorted(c.index for c in deal.table)
    assert list(deal.table_codes) == sorted(deal.table_codes)
    assert len(deal.options()) == deal.count_moves() == len(deal.legal_actions())
    assert [(s, Card.from_index(c), {Card.from_index(i) for i in taken})
            for s, c, taken, _ in deal.history_indices] == \
        [(s, move.card, set(move.taken)) for s, move in deal.history]
    assert deal.dealt_from_stock == deal.position().dealt_from_stock
    last = -1 if deal.last_capturer is None else deal.last_capturer
    assert deal.state_ints() == (deal.turn, deal.hand_indices, deal.table_codes,
                                 deal.pile_masks, deal.stock_size, deal.dealer, last,
                                 deal.returned_indices)
    assert [(CARD(c), low) for c, low in deal.returned_indices] == deal.returned_to_stock
    hidden = {c.index for s, hand in enumerate(deal.hands) if s != 0 for c in hand}
    assert deal.unseen_by(0) == sorted(hidden | {c.index for c in deal.stock})
    in_stock = {c.index for c in deal.stock}
    assert set(deal.returned_in_stock()) <= in_stock


@settings(max_examples=40, deadline=None)
@given(rules=RULES, seats=st.integers(2, 4), seed=st.integers(0, 10**9),
       moves=st.integers(0, 40))
def test_push_option_is_push_of_the_same_move(rules: KonchinkaRules, seats: int, seed: int,
                                              moves: int) -> None:
    deal = _played(rules, seats, seed, moves)
    if deal.is_over():
        return
    rng = random.Random(seed)
    card, positions = rng.choice(deal.options())
    table = deal.table_codes
    taken = frozenset(Card.from_index(table[p] & 63) for p in positions)
    fast = deal.copy()
    fast.push_option(card, positions)
    deal.play(next(m for m in deal.legal_actions()
                   if m.card.index == card and m.taken == taken))
    assert fast.position() == deal.position()


def test_a_position_can_be_written_by_hand() -> None:
    rules = KonchinkaRules.preset("classic")
    c = Card.parse
    position = KonchinkaPosition(
        rules=rules, dealer=0, hands=((c("Kc"), c("3d")), (c("Qh"), c("9c"))),
        table=(c("As"), c("7h"), c("2c"), c("Qd")), stock=(), piles=((), ()), next_seat=1,
        over=False, last_capturer=None)
    deal = KonchinkaDeal.from_position(position)
    assert [m.text() for m in deal.legal_actions()] == \
        ["Qh", "Qh:Qd", "Qh:As7h2c", "9c", "9c:7h2c"]
    assert deal.position() == dataclasses.replace(position, table=tuple(deal.table))
