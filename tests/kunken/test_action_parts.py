"""The parts of each action the page is served (``konkun.kunken.parts``; docs/kunken.md,
"Action parts"): the match view's ``steps`` beside ``legal``, checked against the engine
itself (the action parsed, the meld it lays, the lay-off's and swap's meld) and against
RULES.md's card values, over seeded play-outs with every rule option and 2 to 5 seats."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from konkun.errors import InvalidNotationError
from konkun.kunken import KunkenMatch, KunkenRules
from konkun.kunken.actions import parse_action
from konkun.kunken.parts import action_parts, legal_steps, meld_points, text_parts

from .helpers import position

RULE_SETS = [
    KunkenRules(),
    KunkenRules(jokers=2, opening_minimum=30),
    KunkenRules(jokers=4, opening_minimum=0, swap_before_take=True),
    KunkenRules(empty_stock="end", joker_for_held=False, hand_size=9),
    KunkenRules(max_stock_renewals=0, opening_minimum=80, swap_before_take=True),
]
"""Rule options that change which actions are legal."""

PREFERENCE = {"take": 4.0, "meld": 6.0, "layoff": 6.0, "swap": 6.0, "discard": 1.0,
              "draw": 1.0}
"""A play-out takes, melds, lays off and swaps often, to reach positions full of melds."""


def rules_value(text: str) -> int:
    """RULES.md, Values: A K Q J count 10, T..2 count 5 (read from a card's text)."""
    return 10 if text[0] in "AKQJ" else 5


def card_in_meld_value(text: str, meld: list[str]) -> int:
    """A card's points in ``meld`` by RULES.md: a joker as the card it stands for (an
    open set joker: the set's rank)."""
    if text.startswith("X="):
        return rules_value(text[2:])
    if text == "X":
        return rules_value(next(c for c in meld if not c.startswith("X")))
    return rules_value(text)


def joker_free(text: str) -> list[str]:
    """An action's words with every joker's meaning left out, its cards in one order."""
    kind, *rest = re.sub(r"\bX=[2-9TJQKA][cdhs]\b", "X", text).split()
    return [kind, *sorted(rest)]


def check_step(match: KunkenMatch, text: str, step: dict[str, Any], legal: list[str],
               index: int) -> None:
    """One served step against the engine and RULES.md."""
    deal = match.deal
    action = deal.parse_action(text)
    assert step["kind"] == text.split()[0] == str(action.kind)
    words = text.split()[1:]
    if step["kind"] in ("draw", "take"):
        assert "cards" not in step
    if step["kind"] == "take":
        assert step["bank"] == int(words[0]) < len(deal.bank)
    elif step["kind"] == "meld":
        assert step["cards"] == words
        assert step["points"] == sum(card_in_meld_value(c, words) for c in words)
        after = deal.copy()
        after.play(action)
        laid = after.melds[-1]
        assert step["points"] == laid.value(), "the meld's points as the engine lays it"
        assert sorted(laid.to_json()["cards"]) == sorted(words)
    elif step["kind"] == "layoff":
        assert (step["cards"], step["meld"]) == ([words[0]], int(words[1]))
        assert step["meld"] < len(deal.melds)
    elif step["kind"] == "swap":
        assert (step["meld"], step["cards"]) == (int(words[0]), [words[1]])
        assert deal.melds[step["meld"]].swap_index(action.card) >= 0
    elif step["kind"] == "discard":
        assert step["cards"] == words
    meanings = re.findall(r"\bX=([2-9TJQKA][cdhs])\b", text)
    assert step.get("jokers", []) == meanings
    others = [j for j, a in enumerate(legal)
              if j != index and meanings and joker_free(a) == joker_free(text)]
    assert step.get("alternatives", []) == others


def play_out(rules: KunkenRules, seats: int, seed: int, limit: int) -> int:
    """Play a seeded match, checking every served step of the seat to move; the number of
    steps checked."""
    rng = random.Random(seed)
    match = KunkenMatch(rules, seats, seed)
    checked = 0
    for _ in range(limit):
        if match.is_over():
            break
        seat = match.deal.to_move
        assert seat is not None
        view = match.to_json(seat)
        legal, steps = view["legal"], view["steps"]
        assert len(steps) == len(legal) > 0
        for i, (text, step) in enumerate(zip(legal, steps, strict=True)):
            check_step(match, text, step, legal, i)
            assert action_parts(parse_action(text)) | (
                {"alternatives": step["alternatives"]} if "alternatives" in step else {}
            ) == step, "the same parts from the action's text"
            checked += 1
        for other in range(seats):
            if other != seat:
                assert match.to_json(other)["steps"] == []
        assert match.to_json(None)["steps"] == []
        actions = match.legal_actions()
        weights = [PREFERENCE[str(a.kind)] for a in actions]
        match.play(rng.choices(actions, weights)[0])
    return checked


@pytest.mark.parametrize("rules", RULE_SETS, ids=range(len(RULE_SETS)))
@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_served_steps_equal_the_engines_parts_and_points(rules: KunkenRules,
                                                         seats: int) -> None:
    checked = sum(play_out(rules, seats, seed, 160) for seed in (seats, 100 + seats))
    assert checked > 100


def test_served_steps_cover_every_kind_and_joker_alternatives() -> None:
    kinds: set[str] = set()
    with_alternatives = 0
    for seed in range(12):
        match = KunkenMatch(RULE_SETS[2], 3, seed)
        rng = random.Random(seed)
        for _ in range(300):
            if match.is_over():
                break
            seat = match.deal.to_move
            steps = match.to_json(seat)["steps"]
            kinds.update(s["kind"] for s in steps)
            with_alternatives += sum(1 for s in steps if "alternatives" in s)
            actions = match.legal_actions()
            match.play(rng.choices(actions, [PREFERENCE[str(a.kind)] for a in actions])[0])
    assert kinds == {"draw", "take", "meld", "layoff", "swap", "discard"}
    assert with_alternatives > 0


def test_meld_points_read_an_undeclared_joker_as_the_meld_reads_it() -> None:
    # a set of sevens: an open joker counts as a seven (5), not as a joker in hand (10)
    assert text_parts("meld 7c 7h X")["points"] == 15
    assert text_parts("meld Kc Kd X")["points"] == 30
    assert text_parts("meld 5h X=6h 7h") == {"kind": "meld", "cards": ["5h", "X=6h", "7h"],
                                              "jokers": ["6h"], "points": 15}
    assert meld_points([]) == 0


def test_text_parts_of_each_kind() -> None:
    assert text_parts("draw") == {"kind": "draw"}
    assert text_parts("take 3") == {"kind": "take", "bank": 3}
    assert text_parts("layoff X=Qd 2") == {"kind": "layoff", "cards": ["X=Qd"], "meld": 2,
                                           "jokers": ["Qd"]}
    assert text_parts("swap 0 Qs") == {"kind": "swap", "cards": ["Qs"], "meld": 0}
    assert text_parts("discard X") == {"kind": "discard", "cards": ["X"]}
    with pytest.raises(InvalidNotationError, match="'meld'"):
        text_parts("meld")


def test_joker_alternatives_list_the_other_meanings_of_the_same_step() -> None:
    deal = position(["7h 8h X 2c 3d 9s", "2s 3s 4s"], "Kc 7h", melds=[(0, "Ac Ad As")])
    deal.play("take 1")
    actions = deal.legal_actions()
    steps = legal_steps(actions)
    texts = [a.text() for a in actions]
    seq = [i for i, t in enumerate(texts) if t.startswith("meld") and "X=" in t
           and "7h" in t and "8h" in t and len(t.split()) == 4]
    assert len(seq) >= 2, texts
    for i in seq:
        assert sorted(steps[i]["alternatives"] + [i]) == seq
