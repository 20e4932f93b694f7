"""A seat's observation holds exactly what it may know; determinizations are consistent."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from konkun.cards import Card, parse_cards, standard_deck
from konkun.game import Deal, Observation
from konkun.konchinka import (
    CLASSIC,
    NOVO,
    KonchinkaDeal,
    deal_from_deck,
    new_deal,
    parse_kpn,
    spectator_view,
)

KEYS = {"game", "seat", "num_seats", "variant", "rules", "to_move", "dealer", "hand",
        "hand_sizes", "table", "stock_size", "captured", "captured_counts", "last_capturer",
        "known_in_stock", "history", "final_sweep", "over", "points", "score", "legal",
        "explain", "score_reasons"}


def advanced(seed: int, seats: int, steps: int, novo: bool = False) -> KonchinkaDeal:
    rng = random.Random(seed)
    deal = new_deal(NOVO if novo else CLASSIC, seats, rng.randrange(seats), rng)
    for _ in range(steps):
        if deal.is_over():
            break
        deal.play(rng.choice(deal.legal_actions()))
    return deal


def test_deal_and_observation_implement_the_protocols() -> None:
    deal = advanced(1, 3, 5)
    assert isinstance(deal, Deal)
    assert isinstance(deal.observe(0), Observation)


def test_observation_json_has_exactly_the_documented_keys() -> None:
    deal = advanced(2, 2, 7)
    data = deal.observe(0).to_json()
    json.dumps(data)
    assert set(data) == KEYS
    assert data["hand"] == [c.text for c in deal.hand(0)]
    assert data["hand_sizes"] == [len(h) for h in deal.hands]
    assert data["stock_size"] == deal.stock_size
    assert data["captured"] == [[c.text for c in p] for p in deal.piles]
    assert [e["move"] for e in data["history"]] == [m.text() for _, m in deal.history]


def test_observation_legal_moves_only_for_the_seat_to_move() -> None:
    deal = advanced(3, 3, 4)
    mover = deal.to_move
    assert mover is not None
    for seat in range(3):
        legal = deal.observe(seat).to_json()["legal"]
        if seat == mover:
            assert legal == [m.text() for m in deal.legal_actions()]
        else:
            assert legal == []


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**9), seats=st.integers(2, 4), steps=st.integers(0, 40))
def test_observation_never_shows_another_hand_or_the_stock(seed: int, seats: int,
                                                          steps: int) -> None:
    deal = advanced(seed, seats, steps)
    for seat in [*range(seats), None]:
        observation = deal.observe(seat) if seat is not None else spectator_view(deal)
        text = json.dumps(observation.to_json())
        hidden = [c for s, h in enumerate(deal.hands) if s != seat for c in h]
        known = set(observation.known_in_stock)
        hidden += [c for c in deal.stock if c not in known]
        for card in hidden:
            assert f'"{card.text}"' not in text, (seat, card)


def test_observation_captures_are_public_with_who_took_them() -> None:
    deal = parse_kpn("classic As7h2cQd Qh/5s - -/- 0 1 -")
    deal.play(deal.parse_action("Qh:As7h2c"))
    data = deal.observe(1).to_json()
    assert data["captured"] == [["As", "Qh", "7h", "2c"], []]
    assert data["last_capturer"] == 0
    assert data["history"] == [{"seat": 0, "move": "Qh:As7h2c", "card": "Qh",
                                "taken": ["As", "7h", "2c"], "redeal": False}]


def test_observation_of_a_finished_deal_has_points_and_score() -> None:
    deal = parse_kpn("classic 5h 9c/- - Kc/Qd 0 1 1")
    deal.play(deal.parse_action("9c"))
    data = deal.observe(0).to_json()
    assert data["over"] is True and data["to_move"] is None
    assert data["points"] == deal.points()
    assert data["final_sweep"] == {"seat": 1, "cards": ["9c", "5h"]}
    assert data["score"]["seats"][1]["cards"] == 3


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**9), seats=st.integers(2, 4), steps=st.integers(0, 40),
       novo=st.booleans())
def test_sample_deal_is_consistent_with_the_observation(seed: int, seats: int, steps: int,
                                                        novo: bool) -> None:
    deal = advanced(seed, seats, steps, novo)
    seat = seed % seats
    observation = deal.observe(seat)
    sample = observation.sample_deal(random.Random(seed))
    assert sorted(sample.cards_in_play()) == sorted(standard_deck())
    assert sample.hand(seat) == deal.hand(seat)
    assert sample.table == deal.table
    assert sample.piles == deal.piles
    assert [len(h) for h in sample.hands] == [len(h) for h in deal.hands]
    assert sample.stock_size == deal.stock_size
    assert sample.to_move == deal.to_move
    assert sample.last_capturer == deal.last_capturer
    assert sample.dealer == deal.dealer
    assert sample.history == deal.history
    assert set(observation.known_in_stock) <= set(sample.stock)
    assert sample.observe(seat).to_json() == observation.to_json()
    if deal.to_move == seat:
        assert sample.legal_actions() == deal.legal_actions()
    sample.random_playout(random.Random(seed))
    assert sample.is_over()


def test_sample_deal_deals_unseen_cards_uniformly() -> None:
    deal = advanced(11, 2, 0)
    observation = deal.observe(0)
    counts: Counter[Card] = Counter()
    rng = random.Random(5)
    runs = 4000
    for _ in range(runs):
        counts.update(observation.sample_deal(rng).hand(1))
    unseen = [c for c in standard_deck()
              if c not in deal.hand(0) and c not in deal.table
              and c not in observation.known_in_stock]
    expected = runs * 4 / len(unseen)
    for card in unseen:
        assert 0.7 * expected < counts[card] < 1.3 * expected, card


def test_cards_returned_to_the_stock_are_known_to_be_there() -> None:
    deck = parse_cards("2s 4s Kc  5s 6s 7c  8s 9s 3h  Ts Qs Kd  9d")
    deck += [c for c in standard_deck() if c not in deck]
    deal = deal_from_deck(CLASSIC, 2, 0, deck, random.Random(1))
    observation = deal.observe(1)
    assert observation.known_in_stock == (Card.parse("Kd"),)
    assert observation.to_json()["known_in_stock"] == ["Kd"]
    for seed in range(50):
        sample = observation.sample_deal(random.Random(seed))
        assert Card.parse("Kd") in sample.stock
