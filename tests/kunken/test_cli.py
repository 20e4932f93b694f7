"""``konkun kunken meld`` and ``konkun kunken score`` exactly as CONTRACT.md specifies."""

from __future__ import annotations

import json

import pytest

from konkun.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["kunken", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_meld_valid_set(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "meld", "Kc", "Kd", "Kh")
    assert status == 0 and err == ""
    assert json.loads(out) == {"valid": True, "kind": "set", "points": 30, "reason": None}


def test_cli_meld_wraparound_sequence_with_symbols(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "meld", "K♥", "A♥", "2♥")
    assert status == 0
    assert json.loads(out) == {"valid": True, "kind": "sequence", "points": 25, "reason": None}


def test_cli_meld_undeclared_joker_read_for_the_most_points(
        capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "meld", "X", "9h", "10h")
    assert json.loads(out)["points"] == 20  # 9h Th Jh


def test_cli_meld_declared_joker(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "meld", "X=8h", "9h", "Th")
    assert json.loads(out)["points"] == 15


def test_cli_meld_invalid_is_exit_zero_with_a_reason(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "meld", "X", "X", "5h")
    data = json.loads(out)
    assert status == 0
    assert data["valid"] is False and data["kind"] is None and data["points"] is None
    assert "joker" in data["reason"]


def test_cli_meld_not_cards_is_exit_two(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "meld", "Kc", "Zz", "Kh")
    assert status == 2 and out == ""
    assert "Zz" in err and len(err.strip().splitlines()) == 1


def test_cli_score_express(capsys: pytest.CaptureFixture[str]) -> None:
    game = {"players": [
        {"melds": [["Kc", "Kd", "Kh"], ["3d", "4d", "5d", "6d"]], "layoffs": ["X=7d"],
         "hand": []},
        {"melds": [["Qs", "Js", "Ts"]], "layoffs": [], "hand": ["X", "5h"]}],
        "winner": 0, "express": True}
    status, out, _ = run(capsys, "score", json.dumps(game))
    assert status == 0
    assert json.loads(out) == {"points": [2 * (30 + 20 + 5), 25 - 2 * 15]}


def test_cli_score_no_winner(capsys: pytest.CaptureFixture[str]) -> None:
    game = {"players": [{"melds": [], "layoffs": [], "hand": ["Ac", "2c"]},
                        {"melds": [["X", "Kh", "Ah"]], "layoffs": [], "hand": []}],
            "winner": None, "express": False}
    _, out, _ = run(capsys, "score", json.dumps(game))
    assert json.loads(out) == {"points": [-15, 30]}


@pytest.mark.parametrize("text", ["{bad", "[]", '{"players": 3}',
                                  '{"players": [{"hand": ["Zz"]}], "winner": null}',
                                  '{"players": [{"hand": []}], "winner": 4}'])
def test_cli_score_bad_json_is_exit_two(capsys: pytest.CaptureFixture[str], text: str) -> None:
    status, out, err = run(capsys, "score", text)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1


EMPTY = {"melds": [], "layoffs": [], "hand": []}


@pytest.mark.parametrize(("game", "named"), [
    ({"players": [EMPTY], "winner": 0, "express": False}, "1 players"),
    ({"players": [EMPTY] * 7, "winner": 6, "express": True}, "7 players"),
    ({"players": [EMPTY, EMPTY], "winner": 0, "expres": True}, "unknown key 'expres'")])
def test_cli_score_refuses_a_deal_no_kunken_deal_can_be(
        capsys: pytest.CaptureFixture[str], game: dict[str, object], named: str) -> None:
    """A seat count outside 2..5, or a misspelt key (which would score silently without
    it), is bad input: exit 2 and one line naming it."""
    status, out, err = run(capsys, "score", json.dumps(game))
    assert status == 2 and out == ""
    assert named in err and len(err.strip().splitlines()) == 1
