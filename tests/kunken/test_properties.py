"""Properties over random games with random legal actions (hypothesis): every card present
exactly once at every step, every deal ends, the score matches an independent recount,
legality agrees with the legal list, JSON round-trips, observations sample consistently, and a
record replays to the same final state."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from konkun.cards import Card
from konkun.kunken import (
    KunkenDeal,
    KunkenMatch,
    KunkenRecord,
    KunkenRules,
    new_deal,
    replay,
)
from konkun.kunken.actions import Action, discard, take
from konkun.kunken.state import OVER

SETTINGS = settings(max_examples=12, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _value(text: str) -> int:
    """Points of a card text, from RULES.md's table (not the engine's)."""
    rank = text.split("=")[-1][0] if text != "X" else "X"
    return 10 if rank in "AKQJX" else 5


def recount(deal: KunkenDeal) -> list[int]:
    """Deal points recomputed from the state JSON: + laid cards, - hand, express doubling."""
    data = deal.to_json()
    n = data["num_seats"]
    plus = [0] * n
    for meld in data["melds"]:
        rank = next(c for c in meld["cards"] if c != "X" and not c.startswith("X="))[0]
        for text, seat in zip(meld["cards"], meld["laid_by"], strict=True):
            plus[seat] += _value(text) if text != "X" else (10 if rank in "AKQJ" else 5)
    minus = [sum(_value(c) for c in hand) for hand in data["hands"]]
    winner = data["winner"]
    if data["express"]:
        return [2 * plus[s] - minus[s] if s == winner else plus[s] - 2 * minus[s]
                for s in range(n)]
    return [plus[s] - minus[s] for s in range(n)]


def all_cards(deal: KunkenDeal) -> Counter[int]:
    counts: Counter[int] = Counter()
    for hand in deal.hands:
        for k, n in enumerate(hand):
            counts[k] += n
    counts.update(deal.stock)
    counts.update(deal.bank)
    for meld in deal.melds:
        counts.update(min(s, 52) for s in meld.slots)
    return counts


def expected_cards(rules: KunkenRules) -> Counter[int]:
    counts: Counter[int] = Counter(dict.fromkeys(range(52), 2))
    if rules.jokers:
        counts[52] = rules.jokers
    return counts


def play_random(deal: KunkenDeal, rng: random.Random, check: bool, limit: int = 5000) -> int:
    expected = expected_cards(deal.rules)
    steps = 0
    while not deal.is_over():
        legal = deal.legal_actions()
        assert legal, "a player to move always has an action"
        assert len(set(legal)) == len(legal)
        if check:
            _check_legality(deal, legal, rng)
        deal.push(rng.choice(legal))
        assert all_cards(deal) == expected
        steps += 1
        assert steps < limit, "the deal must end"
    return steps


def _check_legality(deal: KunkenDeal, legal: list[Action], rng: random.Random) -> None:
    legal_set = set(legal)
    for action in rng.sample(legal, min(4, len(legal))):
        assert deal.is_legal(action), (action.text(), deal.why_illegal(action))
        assert deal.parse_action(action.text()) == action
    probes = [discard(k) for k in range(53)] + [take(i) for i in range(len(deal.bank))]
    for action in rng.sample(probes, 6):
        assert deal.is_legal(action) == (action in legal_set), action.text()
    copy = KunkenDeal.from_json(json.loads(json.dumps(deal.to_json())))
    assert copy.to_json() == deal.to_json()
    seat = deal.to_move
    assert seat is not None
    view = deal.observe(seat)
    sample = view.sample_deal(rng)
    assert sample.hands[seat] == deal.hands[seat]
    assert sample.hand_sizes == deal.hand_sizes
    assert len(sample.stock) == len(deal.stock)
    assert all_cards(sample) == expected_cards(deal.rules)
    for other in range(deal.num_seats):
        assert all(sample.hands[other][k] >= deal.taken[other][k] for k in range(53))
    assert set(view.legal_actions()) == legal_set


@SETTINGS
@given(seed=st.integers(0, 10**9), seats=st.integers(2, 5))
def test_random_deals_keep_every_card_once_and_end(seed: int, seats: int) -> None:
    rng = random.Random(seed)
    deal = new_deal(KunkenRules(), seats, seed % seats, rng)
    play_random(deal, rng, check=False)
    assert deal.phase == OVER
    assert deal.points() == recount(deal)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9))
def test_random_deals_legality_json_and_observations_agree(seed: int) -> None:
    rng = random.Random(seed)
    deal = new_deal(KunkenRules(), 2 + seed % 3, 0, rng)
    play_random(deal, rng, check=True)
    assert deal.points() == recount(deal)


@SETTINGS
@given(seed=st.integers(0, 10**9))
def test_random_deals_with_house_rules_end(seed: int) -> None:
    rules = KunkenRules(jokers=2, empty_stock="end", opening_minimum=30)
    rng = random.Random(seed)
    deal = new_deal(rules, 3, 1, rng)
    play_random(deal, rng, check=False)
    assert deal.points() == recount(deal)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), text_seed=st.booleans())
def test_record_replays_to_the_same_final_state(seed: int, text_seed: bool) -> None:
    rules = KunkenRules(deals=2, tie="shared")
    match_seed: int | str = f"s{seed}" if text_seed else seed
    match = KunkenMatch(rules, 2, match_seed)
    rng = random.Random(seed)
    while not match.is_over():
        match.play(rng.choice(match.deal.legal_actions()))
    record = KunkenRecord.from_json(json.loads(json.dumps(match.record().to_json())))
    again = replay(record)
    assert again.is_over()
    assert again.totals == match.totals
    assert again.deal_points == match.deal_points
    assert again.deal.to_json() == match.deal.to_json()
    assert again.to_json(0) == match.to_json(0)


def test_every_card_text_is_ascii_two_characters() -> None:
    deal = new_deal(KunkenRules(), 2, 0, random.Random(3))
    data = deal.to_json()
    for hand in data["hands"]:
        for text in hand:
            assert text == "X" or (len(text) == 2 and Card.parse(text).text == text)


def test_legal_list_and_validation_agree_on_every_candidate() -> None:
    """Every take, discard, lay-off and swap that could be named is legal exactly when it
    is listed (the same completion checks answer both), over whole random deals."""
    from konkun.kunken.actions import LAYOFF, SWAP

    for seats, seed in ((2, 3), (4, 8)):
        rng = random.Random(seed)
        deal = new_deal(KunkenRules(), seats, 0, rng)
        while not deal.is_over():
            legal = deal.legal_actions()
            listed = set(legal)
            if deal.phase == "taken" or rng.random() < 0.2:
                probes = [discard(k) for k in range(53)] + [take(i) for i in
                                                           range(len(deal.bank))]
                for m, meld in enumerate(deal.melds):
                    probes.extend(Action(LAYOFF, m, (slot,)) for _k, slot in
                                  meld.layoff_options())
                    probes.extend(Action(SWAP, m, (k,)) for k in range(52))
                for action in set(probes) | listed:
                    assert deal.is_legal(action) == (action in listed), action.text()
            deal.push(rng.choice(legal))
