"""``konkun kunken meld`` and ``konkun kunken score`` against an independent oracle.

``oracle.py`` judges melds by brute force from RULES.md (no engine code). Every
hand-written case below states the answer worked out by hand from the rules; the oracle
must give it, and so must the engine through the CONTRACT.md command (run in-process by
``konkun.cli.main``; a few real subprocess runs prove the console path). Random card lists
from hypothesis then compare the engine with the oracle directly.
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scripts import load_script

HERE = Path(__file__).resolve().parent


def _load_oracle() -> ModuleType:
    return load_script("konkun_tests_kunken_oracle", HERE / "oracle.py")


oracle = _load_oracle()
pytest.importorskip("konkun.kunken")


def run_cli(*args: str) -> tuple[int, str, str]:
    """Run ``konkun ARGS`` in this process; return (status, stdout, stderr)."""
    from konkun.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(args))
    return status, out.getvalue(), err.getvalue()


def engine_meld(cards: list[str]) -> dict[str, Any]:
    """The engine's JSON answer for ``konkun kunken meld CARDS``."""
    status, out, err = run_cli("kunken", "meld", *cards)
    assert (status, err) == (0, ""), (cards, status, err)
    answer: dict[str, Any] = json.loads(out)
    assert set(answer) == {"valid", "kind", "points", "reason"}, answer
    if answer["valid"]:
        assert answer["reason"] is None, answer
    else:
        assert answer["kind"] is None and answer["points"] is None, answer
        assert isinstance(answer["reason"], str) and answer["reason"].strip(), answer
    return answer


def key(answer: dict[str, Any]) -> tuple[bool, str | None, int | None]:
    """What the engine and the oracle must agree on (the reason's words are free)."""
    return (answer["valid"], answer["kind"], answer["points"])


SEQ, SET = "sequence", "set"
# (rule illustrated, cards, expected (valid, kind, points)) -- worked out by hand.
CASES: list[tuple[str, str, tuple[bool, str | None, int | None]]] = [
    ("wrap-around Q-K-A", "Qh Kh Ah", (True, SEQ, 30)),
    ("wrap-around K-A-2", "Kh Ah 2h", (True, SEQ, 25)),
    ("A-2-3 with the Ace low", "Ah 2h 3h", (True, SEQ, 20)),
    ("wrap-around K-A-2-3", "3h Kh 2h Ah", (True, SEQ, 30)),
    ("a plain run, cards in any order", "7c 5c 6c", (True, SEQ, 15)),
    ("10 accepted for T", "9c 10c Jc", (True, SEQ, 20)),
    ("a gap is not a sequence", "5c 6c 8c", (False, None, None)),
    ("K-A-3 has a gap", "Kh Ah 3h", (False, None, None)),
    ("two suits are not a sequence", "5c 6d 7c", (False, None, None)),
    ("joker inside a run is forced", "5c X 7c", (True, SEQ, 15)),
    ("joker at an end: both readings worth 5", "X 5c 6c", (True, SEQ, 15)),
    ("joker at an end read as the Jack, worth more than the 8", "X 9c Tc", (True, SEQ, 20)),
    ("joker at an end read as the Ace, worth more than the 4", "X 2c 3c", (True, SEQ, 20)),
    ("joker after Q-K is the Jack or the Ace", "X Qd Kd", (True, SEQ, 30)),
    ("two jokers in four cards", "X X Qc Kc", (True, SEQ, 40)),
    ("two jokers around 9-T-J", "X X 9c Tc Jc", (True, SEQ, 40)),
    ("three jokers in six cards is half", "X X X 7c 8c 9c", (True, SEQ, 40)),
    ("two jokers in three cards is too many", "X X 7c", (False, None, None)),
    ("three jokers in five cards is too many", "X X X 7c 8c", (False, None, None)),
    ("three jokers in four cards is too many", "X X X 7c", (False, None, None)),
    ("full circle of 13", "Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc", (True, SEQ, 85)),
    ("full circle with a joker for the 7", "Ac 2c 3c 4c 5c 6c X 8c 9c Tc Jc Qc Kc",
     (True, SEQ, 85)),
    ("full circle with six jokers", "Ac 2c 3c 4c 5c 6c 7c X X X X X X", (True, SEQ, 85)),
    ("14 cards: one card would repeat", "Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc X",
     (False, None, None)),
    ("14 cards of two suits", "Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ad",
     (False, None, None)),
    ("set of 3", "7c 7d 7h", (True, SET, 15)),
    ("set of 4", "7c 7d 7h 7s", (True, SET, 20)),
    ("set of three kings (the source's example)", "Kc Kd Kh", (True, SET, 30)),
    ("the source's run 3-4-5-6 of diamonds", "3d 4d 5d 6d", (True, SEQ, 20)),
    ("the source's joker and two aces", "X Ad Ah", (True, SET, 30)),
    ("a set with two jokers", "X X Ac Ad", (True, SET, 40)),
    ("a set of 4 with a joker", "7c 7d X 7s", (True, SET, 20)),
    ("a set of 5 with a joker is too long", "7c 7d 7h 7s X", (False, None, None)),
    ("two identical cards (two decks)", "7c 7c 7d", (False, None, None)),
    ("two identical cards in a run", "5c 5c 6c 7c", (False, None, None)),
    ("identical cards in a set of 4", "7c 7c 7d 7h", (False, None, None)),
    ("ranks mixed", "7c 7d 8c", (False, None, None)),
    ("two cards are too few", "7c 7d", (False, None, None)),
    ("declared joker in place", "X=7d 5d 6d", (True, SEQ, 15)),
    ("declared joker below the run", "X=4d 5d 6d", (True, SEQ, 15)),
    ("declared joker at the cheaper end counts as declared", "X=8c 9c Tc", (True, SEQ, 15)),
    ("declared joker at the dearer end", "X=Jc 9c Tc", (True, SEQ, 20)),
    ("declared joker of the wrong rank", "X=8d 5d 6d", (False, None, None)),
    ("declared joker of the wrong suit", "X=7c 5d 6d", (False, None, None)),
    ("declared joker inside the run", "5h X=6h 7h", (True, SEQ, 15)),
    ("declared joker inside, wrong card", "5h X=8h 7h", (False, None, None)),
    ("declared joker in a set", "X=7s 7c 7d", (True, SET, 15)),
    ("declared joker of another rank in a set", "X=8s 7c 7d", (False, None, None)),
    ("declared joker repeats a suit of the set", "7c 7d X=7d", (False, None, None)),
    ("declared joker repeats a card of the run", "5h X=5h 6h 7h", (False, None, None)),
]


@pytest.mark.parametrize(("rule", "cards", "expected"), CASES, ids=[c[0] for c in CASES])
def test_oracle_gives_the_hand_worked_answer(rule: str, cards: str,
                                             expected: tuple[bool, str | None, int | None]
                                             ) -> None:
    verdict = oracle.judge(cards.split())
    assert verdict.key() == expected, rule
    assert (verdict.reason is None) == verdict.valid


@pytest.mark.parametrize(("rule", "cards", "expected"), CASES, ids=[c[0] for c in CASES])
def test_meld_command_gives_the_rules_answer(rule: str, cards: str,
                                             expected: tuple[bool, str | None, int | None]
                                             ) -> None:
    assert key(engine_meld(cards.split())) == expected, rule


def test_meld_command_in_a_subprocess() -> None:
    result = subprocess.run([sys.executable, "-m", "konkun", "kunken", "meld", "Qh", "Kh",
                             "Ah"], capture_output=True, text=True, timeout=60, check=False)
    assert (result.returncode, result.stderr) == (0, "")
    assert json.loads(result.stdout) == {"valid": True, "kind": "sequence", "points": 30,
                                         "reason": None}


@pytest.mark.parametrize(("text", "named"), [
    ("Zz", "Zz"), ("1c", "1c"), ("7x", "7x"), ("X=Zz", "Zz"), ("X=", "X="),
])
def test_meld_command_rejects_text_that_is_not_cards(text: str, named: str) -> None:
    status, out, err = run_cli("kunken", "meld", "7c", "7d", text)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert named in err


# --- random card lists: engine against oracle -------------------------------------------------


@st.composite
def meld_like(draw: st.DrawFn) -> list[str]:
    """3 to 7 card texts near a meld: cards of one or two suits in a window of ranks, or
    of one rank, with jokers (some declared) and the occasional duplicate."""
    ranks = oracle.RANKS
    start = draw(st.integers(0, 12))
    window = [ranks[(start + i) % 13] for i in range(draw(st.integers(1, 6)))]
    suits = draw(st.sampled_from(["c", "cd", "cdhs", "h"]))
    pool = [r + s for r in window for s in suits]
    size = draw(st.integers(3, 7))
    cards: list[str] = []
    for _ in range(size):
        kind = draw(st.integers(0, 9))
        if kind == 0:
            cards.append("X")
        elif kind == 1:
            cards.append("X=" + draw(st.sampled_from(pool)))
        else:
            cards.append(draw(st.sampled_from(pool)))
    return cards


@settings(max_examples=150, deadline=None)
@given(cards=meld_like())
def test_meld_command_agrees_with_brute_force_oracle(cards: list[str]) -> None:
    assert key(engine_meld(cards)) == oracle.judge(cards).key(), cards


@settings(max_examples=40, deadline=None)
@given(cards=meld_like(), data=st.data())
def test_meld_answer_does_not_depend_on_card_order(cards: list[str], data: st.DataObject
                                                   ) -> None:
    shuffled = data.draw(st.permutations(cards))
    assert key(engine_meld(list(shuffled))) == key(engine_meld(cards))


# --- deal scores ------------------------------------------------------------------------------

OPENING = {"melds": [["Kc", "Kd", "Kh"], ["3d", "4d", "5d", "6d"]], "layoffs": [], "hand": []}
SECOND = {"melds": [["7s", "8s", "9s"]], "layoffs": ["Ks"], "hand": ["X", "2c"]}
THIRD = {"melds": [], "layoffs": [], "hand": ["Ac", "Ad", "5h"]}

# (rule illustrated, deal, points worked out by hand)
SCORES: list[tuple[str, dict[str, Any], list[int]]] = [
    ("plus the table, minus the hand; a joker in hand is 10",
     {"players": [OPENING, SECOND, THIRD], "winner": 0, "express": False}, [50, 10, -25]),
    ("express doubles the winner's plus and the others' minus, not their table cards",
     {"players": [OPENING, SECOND, THIRD], "winner": 0, "express": True}, [100, -5, -50]),
    ("a deal with no winner is scored as it stands",
     {"players": [SECOND, THIRD], "winner": None, "express": False}, [10, -25]),
    ("jokers in melds are worth the card they stand for",
     {"players": [{"melds": [["X", "Ac", "Ad"], ["X=Jc", "9c", "Tc"], ["5h", "6h", "7h"]],
                   "layoffs": ["X=8c"], "hand": []},
                  {"melds": [], "layoffs": [], "hand": ["X", "Kc"]}],
      "winner": 0, "express": False}, [70, -20]),
    ("express with jokers in the loser's hand",
     {"players": [{"melds": [["X", "Ac", "Ad"], ["2s", "3s", "4s"]], "layoffs": [],
                   "hand": []},
                  {"melds": [["Qh", "Qd", "Qs"]], "layoffs": ["Qc"], "hand": ["X", "9d"]}],
      "winner": 0, "express": True}, [90, 10]),
]


@pytest.mark.parametrize(("rule", "deal", "expected"), SCORES, ids=[s[0] for s in SCORES])
def test_oracle_scores_the_hand_worked_deals(rule: str, deal: dict[str, Any],
                                             expected: list[int]) -> None:
    assert oracle.score(deal) == expected, rule


@pytest.mark.parametrize(("rule", "deal", "expected"), SCORES, ids=[s[0] for s in SCORES])
def test_score_command_gives_the_rules_points(rule: str, deal: dict[str, Any],
                                              expected: list[int]) -> None:
    status, out, err = run_cli("kunken", "score", json.dumps(deal))
    assert (status, err) == (0, ""), err
    assert json.loads(out) == {"points": expected}, rule
