"""The shipped puzzles: each answer is the unique best by the engine's exact search, checked
twice: by the tools that found them and by an independent brute force (Konchinka: plain
minimax over the deal's legal moves; Kunken: the ``takes`` contract function)."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import pytest

from konkun.cli import main
from konkun.konchinka.deal import KonchinkaDeal
from konkun.konchinka.notation import parse_kpn
from konkun.kunken.kkn import parse_kkn
from konkun.kunken.melds import card_text, slot_text
from konkun.kunken.rules import KunkenRules
from konkun.kunken.takes import takes
from konkun.puzzles import Puzzle, PuzzleError, daily_puzzle, load_puzzles, puzzle_by_id
from konkun.puzzles.cli import check
from konkun.puzzles.collection import puzzles_of, read_puzzles

PUZZLES = load_puzzles()


def minimax(deal: KonchinkaDeal, seat: int) -> int:
    """The deal's exact value for ``seat`` (its points minus the other's), by full search."""
    if deal.is_over():
        points = deal.points()
        return points[seat] - points[1 - seat]
    values = []
    for move in deal.legal_actions():
        child = deal.copy()
        child.play(move)
        values.append(minimax(child, seat))
    return max(values) if deal.turn == seat else min(values)


def test_enough_puzzles_of_each_game_are_shipped() -> None:
    assert len(puzzles_of("konchinka")) >= 50
    assert len(puzzles_of("kunken")) >= 50
    assert len({p.id for p in PUZZLES}) == len(PUZZLES)


@pytest.mark.parametrize("puzzle", PUZZLES, ids=[p.id for p in PUZZLES])
def test_each_shipped_puzzle_answer_is_the_unique_best_by_exact_search(puzzle: Puzzle) -> None:
    assert check(puzzle) is None


@pytest.mark.parametrize("puzzle", puzzles_of("konchinka")[:25],
                         ids=[p.id for p in puzzles_of("konchinka")[:25]])
def test_konchinka_answer_is_unique_best_by_plain_minimax(puzzle: Puzzle) -> None:
    deal = parse_kpn(puzzle.position)
    seat = deal.turn
    values = {}
    for move in deal.legal_actions():
        child = deal.copy()
        child.play(move)
        values[move.text()] = minimax(child, seat)
    best = values.pop(puzzle.solution)
    assert all(best > other for other in values.values())
    assert best == puzzle.values[puzzle.solution]


OPENING = [p for p in puzzles_of("kunken") if p.kind == "opening_take"]


def test_both_kinds_of_kunken_puzzles_are_shipped() -> None:
    kinds = [p.kind for p in puzzles_of("kunken")]
    assert kinds.count("opening_take") >= 25 and kinds.count("go_out") >= 25


@pytest.mark.parametrize("puzzle", OPENING, ids=[p.id for p in OPENING])
def test_kunken_answer_is_the_only_take_by_the_takes_command(puzzle: Puzzle) -> None:
    position = parse_kkn(puzzle.position)
    seat = puzzle.seat
    data = {"hand": [card_text(c) for c in position.hands[seat]],
            "bank": [card_text(c) for c in position.bank],
            "melds": [[slot_text(s) for s in m.slots] for m in position.melds],
            "layout": position.layout[seat]}
    assert position.layout[seat] is False  # the take that opens
    assert [f"take {i}" for i in takes(data, KunkenRules())] == [puzzle.solution]
    assert len(position.bank) >= 4
    assert 52 not in position.hands[seat] and 52 not in position.bank  # no joker


def test_a_wrong_answer_is_found_unsound() -> None:
    puzzle = puzzles_of("konchinka")[0]
    other = next(m for m in puzzle.values if m != puzzle.solution)
    wrong = type(puzzle)(**{**puzzle.__dict__, "solution": other, "line": (other,)})
    assert "unique best move" in (check(wrong) or "")
    kunken = puzzles_of("kunken")[0]
    wrong = type(kunken)(**{**kunken.__dict__, "solution": "take 99", "line": ("take 99",)})
    assert "legal takes" in (check(wrong) or "")
    out = next(p for p in puzzles_of("kunken") if p.kind == "go_out")
    wrong = type(out)(**{**out.__dict__, "solution": "take 99", "line": ("take 99",)})
    assert "go out" in (check(wrong) or "")


def test_daily_puzzle_is_the_same_all_day_and_another_the_next_day() -> None:
    day = datetime.date(2026, 12, 5)
    for game in ("konchinka", "kunken"):
        today = daily_puzzle(game, day)
        assert today.game == game
        assert daily_puzzle(game, day) == today
        assert daily_puzzle(game, day + datetime.timedelta(days=1)) != today


def test_unknown_game_or_puzzle_is_a_puzzle_error() -> None:
    with pytest.raises(PuzzleError, match="'chess'"):
        daily_puzzle("chess")
    with pytest.raises(PuzzleError, match="'nope'"):
        puzzle_by_id("nope")


def test_generate_writes_sound_puzzles(tmp_path: Path, capsys: pytest.CaptureFixture[str]) \
        -> None:
    out = tmp_path / "p.json"
    assert main(["puzzles", "generate", "--count", "2", "--seed", "500", "--out",
                 str(out)]) == 0
    found = read_puzzles(out)
    assert [(p.game, p.kind) for p in found] == [("konchinka", "endgame")] * 2 + [
        ("kunken", "opening_take"), ("kunken", "go_out")]
    assert all(check(p) is None for p in found)
    assert "per CPU minute" in capsys.readouterr().err
    assert main(["puzzles", "check", str(out)]) == 0


def test_daily_command_prints_the_puzzle_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzles", "daily", "--game", "kunken", "--date", "2026-12-05"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == daily_puzzle("kunken", datetime.date(2026, 12, 5)).to_json()


def test_bad_date_exits_2_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzles", "daily", "--game", "kunken", "--date", "tomorrow"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "'tomorrow'" in captured.err
