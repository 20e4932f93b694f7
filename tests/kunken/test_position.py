"""The public position (``deal.position()`` / ``KunkenDeal.from_position``) and its text,
the KKN: round-trips over random play, a rebuilt deal plays on identically, bad notation
is refused with a typed error naming the input and the field."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from konkun.errors import InvalidNotationError, InvalidPositionError, KonkunError
from konkun.kunken import KunkenDeal, KunkenRules, new_deal
from konkun.kunken.kkn import format_kkn, parse_kkn
from konkun.kunken.position import KunkenPosition, Phase

RULES = st.builds(
    KunkenRules, jokers=st.sampled_from([0, 2, 4]), hand_size=st.sampled_from([4, 7, 13]),
    opening_minimum=st.sampled_from([0, 30, 50]), empty_stock=st.sampled_from(
        ["turn_bank", "end"]), max_stock_renewals=st.integers(0, 2),
    joker_for_held=st.booleans(), swap_before_take=st.booleans())


def _step(deal: KunkenDeal, rng: random.Random) -> None:
    """One random legal action, leaning towards laying down (so that take turns, melds,
    lay-offs and swaps are reached, not only draws and discards)."""
    legal = deal.legal_actions()
    laying = [a for a in legal if a.kind not in ("draw", "discard")]
    deal.push(rng.choice(laying if laying and rng.random() < 0.7 else legal))


def _views(deal: KunkenDeal) -> list[object]:
    return [deal.observe(seat).to_json() for seat in range(deal.num_seats)]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=RULES, seats=st.integers(2, 5), seed=st.integers(0, 10**9))
def test_kkn_round_trips_and_a_rebuilt_deal_plays_on_identically(
        rules: KunkenRules, seats: int, seed: int) -> None:
    rng = random.Random(seed)
    deal = new_deal(rules, seats, seed % seats, rng)
    twin = KunkenDeal.from_position(deal.position())
    for _ in range(120):
        position = deal.position()
        text = format_kkn(position)
        assert "\n" not in text and deal.kkn() == text
        assert parse_kkn(text) == position
        assert twin.position() == position
        rebuilt = KunkenDeal.from_position(position)
        assert rebuilt.legal_actions() == deal.legal_actions()
        assert _views(rebuilt) == _views(deal)
        assert rebuilt.points() == deal.points()
        if deal.is_over():
            break
        action = rng.choice(deal.legal_actions())
        deal.push(action)
        twin.push(action)
        if not deal.is_over():
            _step(deal, rng)
            twin.push(deal.history[-1])


def test_position_is_a_frozen_hashable_value() -> None:
    deal = new_deal(KunkenRules(), 3, 1, random.Random(5))
    position = deal.position()
    assert position == deal.copy().position() and hash(position) == hash(deal.position())
    with pytest.raises(dataclasses.FrozenInstanceError):
        position.dealer = 0  # type: ignore[misc]
    assert (position.num_seats, position.to_move, position.phase) == (3, 2, Phase.START)
    assert all(len(h) == 13 for h in position.hands) and len(position.bank) == 1
    assert len(position.stock) == 108 - 3 * 13 - 1


def test_the_stock_is_listed_next_card_first() -> None:
    deal = new_deal(KunkenRules(), 2, 0, random.Random(8))
    first = deal.position().stock[0]
    deal.play("draw")
    assert first in deal.position().hands[1]
    assert deal.position().stock == deal.position().stock  # a value, read twice alike


# A hand-made position: seat 1 took the bank from 7h (its opening), melded 7h 8h 9h and
# is still 25 points short; seat 0's set of kings holds an open joker seat 1 laid off.
EXAMPLE = ("kunken - 0 1:taken AsKdQc9s4c3d/KhQh7c6d5d4s3sX - - 0:KcKdKhX@1,1:7h8h9h -/- "
           "11 0 7h:25:o:- -")


def _example_deck_fill(text: str) -> str:
    """``text`` with every card the example leaves out put into its stock (clubs first)."""
    words = text.split(" ")
    words[5] = "-"
    position = parse_kkn_loose(" ".join(words))
    return " ".join([*words[:5], position, *words[6:]])


def parse_kkn_loose(text: str) -> str:
    """The stock a KKN needs for the pack to be whole (two of every card, four jokers)."""
    from konkun.cards import Card, parse_cards

    words = text.split(" ")
    left = {Card.from_index(k).text: 2 for k in range(52)} | {"X": 4}
    for word in (words[4].replace("/", ""), words[6]):
        for card in parse_cards(word.replace("-", "")):
            left[card.text] -= 1
    for meld in words[7].split(","):
        body = meld.partition(":")[2]
        i = 0
        while i < len(body):
            if body[i] == "X":
                left["X"] -= 1
                i += 4 if body[i + 1:i + 2] == "=" else 1
            elif body[i] == "@":
                i += 2
            else:
                left[body[i:i + 2]] -= 1
                i += 2
    return "".join(card * n for card, n in left.items())


def test_a_hand_made_kkn_reads_into_its_position() -> None:
    text = _example_deck_fill(EXAMPLE)
    position = parse_kkn(text)
    assert position.to_move == 1 and position.phase == Phase.TAKEN
    assert position.turn is not None and position.turn.need == 25 and position.turn.opening
    assert not position.turn.pending
    assert position.melds[0].laid_by == (0, 0, 0, 1)
    assert position.layout == (True, True)
    assert format_kkn(position) == text
    deal = KunkenDeal.from_position(position)
    assert not [a for a in deal.legal_actions() if a.kind == "discard"]  # 25 points short


BAD = [
    ("kunken - 0 0:start", InvalidNotationError, "13 fields"),
    ("konchinka - 0 0:start - - - - -/- 00 0 - -", InvalidNotationError, "field kunken"),
    ("kunken jokers=9 0 0:start - - - - -/- 00 0 - -", InvalidNotationError, "field rules"),
    ("kunken - 0 2:start -/- - - - -/- 00 0 - -", InvalidPositionError, "turn: seat 2"),
    ("kunken - 0 0:begin -/- - - - -/- 00 0 - -", InvalidNotationError, "field turn"),
    ("kunken - 0 0:start Zz/- - - - -/- 00 0 - -", InvalidNotationError, "field hands"),
    ("kunken - 0 0:start -/- - - - -/- 0 0 - -", InvalidNotationError, "field layout"),
    ("kunken - 0 0:start -/- - - - -/- 00 0 - -", InvalidPositionError, "appears 0 times"),
    ("kunken - 0 0:start -/- - - 0:2c5h9d -/- 10 0 - -", InvalidPositionError,
     "is not a meld"),
    ("kunken - 0 0:start -/- - - - -/- 00 0 7h:0:x:- -", InvalidNotationError, "flags"),
]


@pytest.mark.parametrize(("text", "error", "named"), BAD, ids=[b[2] for b in BAD])
def test_bad_kkn_is_refused_with_a_typed_error_naming_input_and_field(
        text: str, error: type[KonkunError], named: str) -> None:
    with pytest.raises(error) as caught:
        parse_kkn(text)
    message = str(caught.value)
    assert repr(text) in message and named in message


def test_a_take_state_outside_a_take_turn_is_refused() -> None:
    deal = new_deal(KunkenRules(), 2, 0, random.Random(2))
    words = deal.kkn().split(" ")
    words[11] = "7h:0:-:-"
    with pytest.raises(InvalidPositionError, match="take turn's state in phase start"):
        parse_kkn(" ".join(words))


def test_every_field_of_a_reached_position_survives_the_text() -> None:
    rng = random.Random(4)
    seen: set[str] = set()
    for seed in range(30):
        deal = new_deal(KunkenRules(hand_size=7, opening_minimum=0), 2, 0, random.Random(seed))
        while not deal.is_over() and len(deal.history) < 300:
            _step(deal, rng)
            position = deal.position()
            assert parse_kkn(deal.kkn()) == position
            seen.add(position.phase)
            if position.melds and any(len(set(m.laid_by)) > 1 for m in position.melds):
                seen.add("layoff by another seat")
            if position.winner is not None:
                seen.add("express" if position.express else "winner")
    assert {"start", "drawn", "taken", "over", "winner"} <= seen


def test_a_position_is_not_its_history() -> None:
    deal = new_deal(KunkenRules(), 2, 0, random.Random(3))
    deal.play("draw")
    rebuilt = KunkenDeal.from_position(deal.position())
    assert rebuilt.history == [] and rebuilt.position() == deal.position()
    with_history = KunkenDeal.from_position(deal.position(), deal.history)
    assert with_history.history == deal.history
    assert isinstance(deal.position(), KunkenPosition)
