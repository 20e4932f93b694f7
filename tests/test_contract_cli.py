"""Black-box checks of CONTRACT.md: every command's output format and its error behaviour.

Each check runs the real console command in a subprocess (``python -m konkun ...``, and the
``konkun`` script once), as the outside tests do. Expected answers come from the
independent oracles (``konchinka/bruteforce.py``, ``kunken/oracle.py``), never from the
engine. Bad input must give exit status 2, nothing on standard output and exactly one line
on standard error that names the offending input, never a traceback.
"""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from scripts import load_script

HERE = Path(__file__).resolve().parent


def _load(name: str, path: Path) -> ModuleType:
    return load_script(name, path)


bf = _load("konkun_tests_konchinka_bruteforce", HERE / "konchinka" / "bruteforce.py")
oracle = _load("konkun_tests_kunken_oracle", HERE / "kunken" / "oracle.py")

EXAMPLE = "classic As7h2cQd Kc3d/Qh9c5s/8d4h - -/-/- 1 0 -"
"""CONTRACT.md's KPN example (3 seats, seat 1 to move, seat 0 dealt)."""
MOVE_RE = re.compile(r"^[AKQJT2-9][cdhs](:([AKQJT2-9][cdhs])+)?$")
KPN_FIELDS = 8


def konkun(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m konkun ARGS`` and capture its output."""
    return subprocess.run([sys.executable, "-m", "konkun", *args], capture_output=True,
                          text=True, timeout=120, check=False)


def assert_bad_input(result: subprocess.CompletedProcess[str], *named: str) -> None:
    """Exit 2, empty stdout, one stderr line naming one of ``named``, no traceback."""
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert any(text in lines[0] for text in named), (lines[0], named)


# --- konkun konchinka ---------------------------------------------------------------------


def test_konchinka_moves_lists_every_legal_move_one_per_line() -> None:
    result = konkun("konchinka", "moves", EXAMPLE)
    assert (result.returncode, result.stderr) == (0, "")
    lines = result.stdout.splitlines()
    assert all(MOVE_RE.match(line) for line in lines), lines
    expected = set(bf.legal_moves(bf.parse_kpn(EXAMPLE)))
    assert {bf.Move.parse(line) for line in lines} == expected
    assert len(lines) == len(expected)


def test_konchinka_moves_honours_capture_compulsory_rule() -> None:
    result = konkun("konchinka", "moves", EXAMPLE, "--rule", "capture_compulsory=true")
    assert (result.returncode, result.stderr) == (0, "")
    expected = set(bf.legal_moves(bf.parse_kpn(EXAMPLE), True))
    assert {bf.Move.parse(line) for line in result.stdout.splitlines()} == expected


def test_konchinka_input_accepts_10_and_suit_symbols_output_is_ascii() -> None:
    kpn = "classic 10♦A♠2♣7♥ Kc3d/Qh9c5s/8d4h - -/-/- 1 0 -"
    result = konkun("konchinka", "moves", kpn)
    assert (result.returncode, result.stderr) == (0, "")
    assert all(MOVE_RE.match(line) for line in result.stdout.splitlines()), result.stdout
    expected = {m.text() for m in bf.legal_moves(bf.parse_kpn(
        "classic TdAs2c7h Kc3d/Qh9c5s/8d4h - -/-/- 1 0 -"))}
    assert {bf.Move.parse(line).text() for line in result.stdout.splitlines()} == expected


@pytest.mark.parametrize("depth", [0, 3])
def test_konchinka_perft_prints_the_count_alone_on_the_last_line(depth: int) -> None:
    result = konkun("konchinka", "perft", EXAMPLE, str(depth))
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.splitlines()[-1] == str(bf.perft(bf.parse_kpn(EXAMPLE), depth))


FINISHED = "classic - -/- - 2cTdAcKc5h/3c4c9s 0 1 0"
"""A finished two-seat deal: empty hands, stock and table."""


@pytest.mark.parametrize(("depth", "count"), [(0, 1), (1, 0), (2, 0)])
def test_konchinka_finished_deal_has_no_moves(depth: int, count: int) -> None:
    result = konkun("konchinka", "perft", FINISHED, str(depth))
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.splitlines()[-1] == str(count)


def test_konchinka_moves_of_a_finished_deal_is_empty() -> None:
    result = konkun("konchinka", "moves", FINISHED)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_konchinka_apply_prints_the_kpn_after_the_moves() -> None:
    result = konkun("konchinka", "apply", EXAMPLE, "Qh:7hAs2c", "8d")
    assert (result.returncode, result.stderr) == (0, "")
    text = result.stdout.splitlines()[-1]
    assert len(text.split(" ")) == KPN_FIELDS
    position = bf.parse_kpn(EXAMPLE)
    for move in ("Qh:2c7hAs", "8d"):
        position = bf.apply_move(position, bf.Move.parse(move))
    assert bf.parse_kpn(text) == position


def test_konchinka_score_of_a_finished_deal_is_json_per_seat() -> None:
    kpn = "classic - -/-/- - 2cTdAcKc5h/3c4c9s/QsJs7d 1 0 0"
    result = konkun("konchinka", "score", kpn)
    assert (result.returncode, result.stderr) == (0, "")
    answer = json.loads(result.stdout)
    # seat 0: most cards (2), most clubs (1), both konchinki (2); nobody else scores
    assert answer == {"seats": [{"cards": 5, "clubs": 3, "konchinki": 2, "points": 5},
                                {"cards": 3, "clubs": 2, "konchinki": 0, "points": 0},
                                {"cards": 3, "clubs": 0, "konchinki": 0, "points": 0}]}
    assert answer["seats"] == [dataclasses.asdict(s) for s in bf.score(bf.parse_kpn(kpn))]


@pytest.mark.parametrize(("args", "named"), [
    (["moves", "classic As7h2cQd Kc3d/Qh9c5s/8d4h - -/-/- 1 0"], ["1 0", "8", "field"]),
    (["moves", "classic As7h2cQz Kc3d/Qh9c5s/8d4h - -/-/- 1 0 -"], ["Qz", "As7h2cQz"]),
    (["moves", "chess As7h2cQd Kc3d/Qh9c5s/8d4h - -/-/- 1 0 -"], ["chess"]),
    (["moves", "classic As7h2cQd As3d/Qh9c5s/8d4h - -/-/- 1 0 -"], ["As"]),
    (["moves", "classic As7h2cQd Kc3d/Qh9c5s/8d4h - -/-/- 5 0 -"], ["5", EXAMPLE[:20]]),
    (["moves", "classic As7h2cQd Kc3d/Qh9c5s/8d4h/5c/6c - -/-/-/-/- 1 0 -"], ["5", "seat"]),
    (["apply", EXAMPLE, "Kc"], ["Kc"]),
    (["apply", EXAMPLE, "Qh:Qd7h"], ["Qh:Qd7h", "Qh:Qd7h".upper(), "Qd7h"]),
    (["apply", EXAMPLE, "Q"], ["'Q'", " Q"]),
    (["perft", EXAMPLE, "two"], ["two"]),
    (["moves", EXAMPLE, "--rule", "no_such_option=1"], ["no_such_option"]),
    (["moves", EXAMPLE, "--rule", "capture_compulsory=maybe"], ["maybe"]),
    (["score", EXAMPLE], [EXAMPLE, "finished", "over", "not"]),
    (["apply", EXAMPLE, "Qh", "--rule", "capture_compulsory=true"], ["Qh"]),
    (["apply", FINISHED, "2c"], ["2c"]),
], ids=["seven-fields", "bad-card", "bad-variant", "card-twice", "seat-out-of-range",
        "five-seats", "card-not-in-hand", "capture-not-adding-up", "malformed-move",
        "depth-not-a-number", "unknown-rule", "bad-rule-value", "score-unfinished",
        "compulsory-capture-trailed", "move-after-the-end"])
def test_konchinka_bad_input_exits_2_with_one_line_naming_it(args: list[str],
                                                             named: list[str]) -> None:
    assert_bad_input(konkun("konchinka", *args), *named)


# --- konkun kunken --------------------------------------------------------------------------


@pytest.mark.parametrize("cards", ["Qh Kh Ah", "X 2c 3c", "7c 7d X=7s", "7c 7c 7d",
                                   "X X 7c", "5c 6d 7c"])
def test_kunken_meld_answers_json_for_valid_and_invalid_alike(cards: str) -> None:
    result = konkun("kunken", "meld", *cards.split())
    assert (result.returncode, result.stderr) == (0, "")
    answer = json.loads(result.stdout)
    verdict = oracle.judge(cards.split())
    assert set(answer) == {"valid", "kind", "points", "reason"}
    assert (answer["valid"], answer["kind"], answer["points"]) == verdict.key()
    assert (answer["reason"] is None) == verdict.valid


def test_kunken_meld_accepts_10_and_suit_symbols() -> None:
    result = konkun("kunken", "meld", "9♣", "10♣", "J♣")
    assert (result.returncode, result.stderr) == (0, "")
    assert json.loads(result.stdout) == {"valid": True, "kind": "sequence", "points": 20,
                                         "reason": None}


def test_kunken_score_prints_points_per_player() -> None:
    deal = {"players": [{"melds": [["Kc", "Kd", "Kh"], ["3d", "4d", "5d", "6d"]],
                         "layoffs": [], "hand": []},
                        {"melds": [["7s", "8s", "9s"]], "layoffs": ["Ks"],
                         "hand": ["X", "2c"]}],
            "winner": 0, "express": True}
    result = konkun("kunken", "score", json.dumps(deal))
    assert (result.returncode, result.stderr) == (0, "")
    assert json.loads(result.stdout) == {"points": oracle.score(deal)} == {"points": [100, -5]}


@pytest.mark.parametrize(("args", "named"), [
    (["meld", "7c", "7d", "Zz"], ["Zz"]),
    (["meld", "7c", "7d", "11c"], ["11c"]),
    (["score", "{not json"], ["{not json", "JSON", "json"]),
    (["score", json.dumps({"players": [{"melds": [], "layoffs": [], "hand": ["Qx"]}],
                           "winner": None, "express": False})], ["Qx"]),
], ids=["meld-not-a-card", "meld-bad-rank", "score-not-json", "score-not-a-card"])
def test_kunken_bad_input_exits_2_with_one_line_naming_it(args: list[str],
                                                          named: list[str]) -> None:
    assert_bad_input(konkun("kunken", *args), *named)


# --- the console script -------------------------------------------------------------------------


def test_console_script_konkun_runs_the_same_commands() -> None:
    script = Path(sys.executable).parent / "konkun"
    if not script.exists():
        pytest.skip("no konkun script beside this interpreter")
    result = subprocess.run([str(script), "konchinka", "perft", EXAMPLE, "2"],
                            capture_output=True, text=True, timeout=120, check=False)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.splitlines()[-1] == str(bf.perft(bf.parse_kpn(EXAMPLE), 2))


kunken_bf = _load("konkun_tests_kunken_bruteforce", HERE / "kunken" / "bruteforce.py")


def _words(text: str) -> list[str]:
    return text.split()


TAKES_CASES = [
    # the examples: a joker won by a swap after the take; going out with a joker
    # swapped from another player's set; a joker for a card left in the untaken bank
    ({"hand": _words("7c 9c 3d 6d 7d Jd Jd 7h 8h 9h 7s 9s Ks"), "bank": ["8d", "8c", "7c"],
      "melds": [["5c", "6c", "X=7c", "8c"]], "layout": False}, []),
    ({"hand": ["4h", "5h", "Ac", "2c"], "bank": ["7h"],
      "melds": [["Ad", "Ah", "X"], ["Kc", "Kd", "Ks"]], "layout": True}, []),
    ({"hand": _words("2c 8c 9c Tc Ac 2d 4d 8d 8d 9d 4s 6s X"),
      "bank": _words("4d Ac 5h 9s As 5c 3s Jh 4h Jc 7c 2h 8s"), "melds": [],
      "layout": False}, []),
    ({"hand": ["9h", "Ac", "2c", "3d"], "bank": ["7h"],
      "melds": [["X", "Ad", "Ah"], ["5s", "6s", "7s"]], "layout": True},
     ["swap_before_take=true"]),
    ({"hand": ["3d", "4d", "2c"], "bank": ["Kc", "5d", "9h"], "melds": [],
      "layout": True}, ["joker_for_held=false"]),
]


@pytest.mark.parametrize(("data", "rules"), TAKES_CASES)
def test_kunken_takes_lists_the_positions_one_per_line(data: dict[str, object],
                                                       rules: list[str]) -> None:
    options = dict(r.split("=") for r in rules)
    expected = kunken_bf.legal_takes(
        data["hand"], data["bank"], data["melds"], data["layout"],
        joker_for_held=options.get("joker_for_held", "true") == "true",
        swap_before_take=options.get("swap_before_take", "false") == "true")
    args = [a for r in rules for a in ("--rule", r)]
    result = konkun("kunken", "takes", json.dumps(data), *args)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "".join(f"{i}\n" for i in expected)
    assert expected or not result.stdout


@pytest.mark.parametrize(("text", "named"), [
    ("{", "takes JSON"),
    (json.dumps({"hand": ["Zz"], "bank": [], "melds": [], "layout": False}), "Zz"),
    (json.dumps({"hand": ["2c"], "bank": [], "melds": [], "layout": False, "x": 1}), "'x'"),
    (json.dumps({"hand": ["2c"], "bank": [], "melds": [["2c", "3d", "4h"]],
                 "layout": True}), "meld 0"),
    (json.dumps({"hand": ["2c", "2c", "2c"], "bank": [], "melds": [], "layout": True}), "2c"),
    (json.dumps({"hand": ["2c"], "bank": [], "melds": []}), "layout"),
])
def test_kunken_takes_bad_input_exits_2_with_one_line(text: str, named: str) -> None:
    assert_bad_input(konkun("kunken", "takes", text), named)


def test_kunken_takes_unknown_rule_option_exits_2() -> None:
    data = {"hand": ["2c"], "bank": ["3c"], "melds": [], "layout": True}
    assert_bad_input(konkun("kunken", "takes", json.dumps(data), "--rule", "nope=1"), "nope")
