"""Meld validity (RULES.md, Кункен: Melds): sets, circular sequences, jokers, identical cards."""

from __future__ import annotations

import pytest

from konkun.kunken.melds import check_meld, parse_slots


def verdict(text: str) -> tuple[bool, str | None, int | None]:
    check = check_meld(parse_slots(text.split()))
    return check.valid, check.kind, check.points


@pytest.mark.parametrize(("cards", "kind", "points"), [
    ("Kc Kd Kh", "set", 30),
    ("Kc Kd Kh Ks", "set", 40),
    ("5c 5d 5s", "set", 15),
    ("3h 4h 5h", "sequence", 15),
    ("9d Td Jd Qd", "sequence", 30),
    ("Qh Kh Ah", "sequence", 30),        # wrap-around: Q-K-A
    ("Kh Ah 2h", "sequence", 25),        # K-A-2
    ("Ah 2h 3h", "sequence", 20),        # A-2-3
    ("Jh Qh Kh Ah 2h", "sequence", 45),
    ("2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As", "sequence", 85),
    ("Ah 3h 2h", "sequence", 20),        # any order
])
def test_melds_valid_sets_and_circular_sequences(cards: str, kind: str, points: int) -> None:
    assert verdict(cards) == (True, kind, points)


@pytest.mark.parametrize("cards", [
    "Kc Kd",                 # too few
    "Kc Kd Qh",              # neither
    "Kc Kc Kd",              # two identical (a set needs different suits)
    "5h 5h 6h",              # two identical cards never meet in one meld
    "5h 6h 6h 7h",
    "Kc Kd Kh Ks Kc",        # a set has at most 4 cards
    "5h 7h 9h",              # not consecutive
    "5h 6d 7h",              # two suits
    "Jh Qh Kh Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh",  # 14 cards: Jh twice
    "Qh Kh 2h",              # the circle has no gap-skipping
])
def test_melds_invalid(cards: str) -> None:
    valid, _kind, _points = verdict(cards)
    assert not valid
    assert check_meld(parse_slots(cards.split())).reason


@pytest.mark.parametrize(("cards", "valid", "points"), [
    ("X 5h 6h", True, 15),          # joker at an end
    ("5h X 7h", True, 15),          # joker inside (forced 6h)
    ("X 9h Th", True, 20),          # read as Jh (worth the most)
    ("Qh X Ah", True, 30),          # inside across the top
    ("X Kh Ah", True, 30),          # Q or 2: Q (10) is worth more
    ("X X 5h 6h", True, 20),        # 2 of 4 may be jokers
    ("5h X X 8h", True, 20),
    ("X X 5h", False, None),        # 2 of 3: too many
    ("X X X 5h 6h", False, None),   # 3 of 5: too many
    ("X Kc Kd", True, 30),          # a set with an open joker
    ("X X Kc Kd", True, 40),
    ("X Kc Kd Kh Ks", False, None), # a set of 5
    ("X X 5h 9h", False, None),     # cannot bridge 5..9 with 2 jokers in 4 cards
])
def test_melds_jokers_at_ends_inside_and_the_half_limit(cards: str, valid: bool,
                                                         points: int | None) -> None:
    got_valid, _kind, got_points = verdict(cards)
    assert got_valid is valid
    assert got_points == points


@pytest.mark.parametrize(("cards", "valid", "points"), [
    ("X=7h 5h 6h", True, 15),
    ("X=4h 5h 6h", True, 15),
    ("X=8h 5h 6h", False, None),    # would leave a gap
    ("X=6h 5h 6h", False, None),    # the joker would repeat 6h
    ("X=7d 5h 6h", False, None),    # another suit
    ("X=Kh Kc Kd", True, 30),
    ("X=Kc Kc Kd", False, None),    # the set already has clubs
    ("X=Qh Kc Kd", False, None),    # another rank
    ("X=Jh 9h Th", True, 20),
    ("X=8h 9h Th", True, 15),       # declared: the less valuable reading stands
])
def test_melds_declared_jokers(cards: str, valid: bool, points: int | None) -> None:
    got_valid, _kind, got_points = verdict(cards)
    assert got_valid is valid
    assert got_points == points


def test_melds_reason_in_words() -> None:
    assert "identical" in (check_meld(parse_slots(["5h", "5h", "6h"])).reason or "")
    assert "jokers" in (check_meld(parse_slots(["X", "X", "5h"])).reason or "")
    assert "at least 3" in (check_meld(parse_slots(["5h", "6h"])).reason or "")
