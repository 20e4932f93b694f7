"""Properties over random deals and games (hypothesis), and the fast paths checked against
the validating API."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from konkun.cards import Card, standard_deck
from konkun.konchinka import (
    CLASSIC,
    NOVO,
    KonchinkaDeal,
    KonchinkaMatch,
    KonchinkaRules,
    Move,
    new_deal,
    parse_kpn,
    replay,
)
from konkun.konchinka.deck import CARDS

RULES = st.builds(KonchinkaRules, variant=st.sampled_from(["classic", "novo"]),
                  capture_compulsory=st.booleans(),
                  table_excludes_jacks=st.booleans())


@settings(max_examples=30, deadline=None)
@given(rules=RULES, seats=st.integers(2, 4), seed=st.integers(0, 10**9))
def test_the_52_cards_are_always_all_present_exactly_once(rules: KonchinkaRules, seats: int,
                                                         seed: int) -> None:
    rng = random.Random(seed)
    deal = new_deal(rules, seats, rng.randrange(seats), rng)
    deck = sorted(standard_deck())
    while True:
        assert sorted(deal.cards_in_play()) == deck
        if deal.is_over():
            break
        deal.play(rng.choice(deal.legal_actions()))
    assert deal.table == [] or deal.last_capturer is None
    assert all(not h for h in deal.hands) and deal.stock == []


@settings(max_examples=40, deadline=None)
@given(seats=st.integers(2, 4), seed=st.integers(0, 10**9), novo=st.booleans(),
       compulsory=st.booleans())
def test_a_deals_points_total_at_most_five(seats: int, seed: int, novo: bool,
                                           compulsory: bool) -> None:
    rules = KonchinkaRules(variant="novo" if novo else "classic", capture_compulsory=compulsory)
    rng = random.Random(seed)
    deal = new_deal(rules, seats, 0, rng)
    points = deal.random_playout(rng)
    assert sum(points) <= 5
    assert all(p >= 0 for p in points)


@settings(max_examples=4, deadline=None)
@given(seats=st.integers(2, 4), seed=st.integers(0, 10**9), novo=st.booleans())
def test_every_game_ends_and_replaying_its_record_gives_the_same_final_state(
        seats: int, seed: int, novo: bool) -> None:
    match = KonchinkaMatch(NOVO if novo else CLASSIC, seats, seed)
    chooser = random.Random(seed)
    moves = 0
    while not match.is_over():
        match.play(chooser.choice(match.legal_actions()))
        moves += 1
        assert moves < 48 * 200
    again = replay(match.record())
    assert again.deal == match.deal
    assert again.totals == match.totals
    assert again.sheet == match.sheet
    assert again.winner() == match.winner()
    assert again.to_json(0) == match.to_json(0)


@settings(max_examples=40, deadline=None)
@given(rules=RULES, seats=st.integers(2, 4), seed=st.integers(0, 10**9))
def test_fast_playout_plays_only_legal_moves(rules: KonchinkaRules, seats: int,
                                             seed: int) -> None:
    rng = random.Random(seed)
    deal = new_deal(rules, seats, rng.randrange(seats), rng)
    fast = deal.copy()
    trace: list[tuple[int, int]] = []
    points = fast.random_playout(random.Random(seed), trace)
    for card, mask in trace:
        assert deal.count_moves() == len(deal.legal_actions())
        deal.play(Move(CARDS[card], frozenset(CARDS[i] for i in range(52) if mask >> i & 1)))
    assert deal.is_over()
    assert deal.points() == points
    assert deal.kpn() == fast.kpn()


@settings(max_examples=30, deadline=None)
@given(rules=RULES, seed=st.integers(0, 10**9))
def test_push_equals_play_and_copy_is_independent(rules: KonchinkaRules, seed: int) -> None:
    rng = random.Random(seed)
    deal = new_deal(rules, 3, 1, rng)
    while not deal.is_over():
        move = rng.choice(deal.legal_actions())
        assert deal.is_legal(move) and deal.why_illegal(move) is None
        pushed = deal.copy()
        before = deal.kpn()
        pushed.push(move)
        assert deal.kpn() == before
        deal.play(move)
        assert pushed == deal


def test_random_playout_chooses_uniformly_among_legal_moves() -> None:
    kpn = "novo As7h2cQd5c6h KhQs9c/5s4d3h - -/- 0 1 -"
    deal = parse_kpn(kpn)
    legal = deal.legal_actions()
    rng = random.Random(7)
    counts: Counter[Move] = Counter()
    samples = 300 * len(legal)
    for _ in range(samples):
        trace: list[tuple[int, int]] = []
        deal.copy().random_playout(rng, trace)
        card, mask = trace[0]
        counts[Move(CARDS[card], frozenset(CARDS[i] for i in range(52) if mask >> i & 1))] += 1
    assert set(counts) == set(legal)
    for move in legal:
        assert 0.75 * 300 < counts[move] < 1.25 * 300, (move, counts[move])


def _rule_value(card: Card, novo: bool) -> int:
    rank = int(card.rank or 0)
    if rank == 14:
        return 1
    if novo:
        return rank
    return 10 if rank in (10, 12, 13) else rank


def _brute_force_moves(deal: KonchinkaDeal) -> set[Move]:
    """RULES.md's moves by enumerating every subset of the table (small tables only)."""
    novo = deal.rules.variant == "novo"
    table = deal.table
    seat = deal.to_move
    assert seat is not None
    result: set[Move] = set()
    for card in deal.hand(seat):
        captures = []
        if not novo and card.rank == 11:
            if table:
                captures.append(Move.capture(card, table))
        else:
            sums = (13, 14) if novo and card.rank == 13 else (_rule_value(card, novo),)
            for mask in range(1, 1 << len(table)):
                chosen = [c for i, c in enumerate(table) if mask >> i & 1]
                if not novo and any(c.rank == 11 for c in chosen):
                    continue
                if sum(_rule_value(c, novo) for c in chosen) in sums:
                    captures.append(Move.capture(card, chosen))
        result.update(captures)
        if not (deal.rules.capture_compulsory and captures):
            result.add(Move.trail(card))
    return result


@settings(max_examples=25, deadline=None)
@given(rules=RULES, seats=st.integers(2, 4), seed=st.integers(0, 10**9))
def test_legal_moves_are_exactly_the_rules_moves(rules: KonchinkaRules, seats: int,
                                                 seed: int) -> None:
    rng = random.Random(seed)
    deal = new_deal(rules, seats, rng.randrange(seats), rng)
    while not deal.is_over():
        legal = deal.legal_actions()
        assert len(legal) == len(set(legal)) == deal.count_moves()
        if len(deal.table) <= 8:
            assert set(legal) == _brute_force_moves(deal), deal.kpn()
        deal.push(rng.choice(legal))
