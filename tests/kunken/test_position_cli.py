"""``konkun kunken moves|perft|apply`` on KKN positions, as Konchinka's commands."""

from __future__ import annotations

import contextlib
import io
import random
import subprocess
import sys

import pytest

from konkun.kunken import KunkenRules, new_deal
from konkun.kunken.kkn import parse_kkn
from konkun.kunken.position import MeldPosition, Phase

from .helpers import card, position


def run_cli(*args: str) -> tuple[int, str, str]:
    """Run ``konkun ARGS`` in this process; return (status, stdout, stderr)."""
    from konkun.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(args))
    return status, out.getvalue(), err.getvalue()


def _small() -> str:
    """Seat 0 to start, no layout, holding 7h 8h 2c Ks; the bank is 9h; the stock's next
    card is the other 2c (the stock holds every other card, clubs first)."""
    return position(["7h8h2cKs", "AsAdAhQs"], "9h").kkn()


def test_moves_lists_draw_and_the_take_a_meld_completes() -> None:
    # 7h 8h and the taken 9h make a sequence; with no opening minimum the take is legal
    status, out, err = run_cli("kunken", "moves", _small(), "--rule", "opening_minimum=0")
    assert (status, err) == (0, "")
    assert out.splitlines() == ["draw", "take 0"]


def test_moves_without_the_rule_keeps_the_opening_minimum() -> None:
    # 7h 8h 9h is worth 15, short of 50: only the draw
    status, out, _ = run_cli("kunken", "moves", _small())
    assert (status, out) == (0, "draw\n")


def test_apply_plays_a_take_turn_and_prints_the_next_position() -> None:
    status, out, err = run_cli("kunken", "apply", _small(), "take 0", "meld 9h 8h 7h",
                               "discard 2c", "--rule", "opening_minimum=0")
    assert (status, err) == (0, "")
    after = parse_kkn(out.strip())
    assert after.melds == (MeldPosition(0, (card("7h"), card("8h"), card("9h")), (0, 0, 0)),)
    assert after.layout == (True, False) and after.bank == (card("2c"),)
    assert (after.to_move, after.phase, after.turn) == (1, Phase.START, None)
    assert after.hands[0] == (card("Ks"),)
    assert after.rules.opening_minimum == 0  # the --rule option is kept in the KKN


def test_perft_counts_action_sequences() -> None:
    # depth 2: draw (the second 2c) then one of 4 distinct cards to discard, or take 0
    # then the one meld 7h 8h 9h (no discard before the taken card is melded)
    kkn = _small()
    for depth, expected in ((0, 1), (1, 2), (2, 5)):
        status, out, err = run_cli("kunken", "perft", kkn, str(depth),
                                   "--rule", "opening_minimum=0")
        assert (status, err) == (0, "")
        assert out.splitlines()[-1] == str(expected)
    status, out, _ = run_cli("kunken", "perft", kkn, "2", "--divide",
                             "--rule", "opening_minimum=0")
    assert out.splitlines() == ["draw: 4", "take 0: 1", "5"]


def test_perft_of_a_finished_deal_is_zero_from_depth_one() -> None:
    deal = new_deal(KunkenRules(hand_size=1, opening_minimum=0), 2, 0, random.Random(1))
    deal.play("draw")
    deal.play(deal.legal_actions()[-1])  # seat 1 keeps one card
    while not deal.is_over():
        deal.push(deal.legal_actions()[0])
    assert run_cli("kunken", "perft", deal.kkn(), "1")[1] == "0\n"
    assert run_cli("kunken", "perft", deal.kkn(), "0")[1] == "1\n"


@pytest.mark.parametrize(("args", "named"), [
    (("moves", "kunken - 0"), "13 fields"),
    (("perft", "KKN", "x"), "'x'"),
    (("apply", "KKN", "draw", "discard Qd"), "Qd is not in the hand"),
    (("apply", "KKN", "hello"), "'hello'"),
    (("moves", "KKN", "--rule", "jokers=2"), "4 jokers, expected 2"),
])
def test_bad_input_exits_2_with_one_line_naming_it(args: tuple[str, ...], named: str) -> None:
    words = [_small() if a == "KKN" else a for a in args]
    status, out, err = run_cli("kunken", *words)
    assert (status, out) == (2, "")
    assert len(err.splitlines()) == 1 and named in err


def test_console_command_moves_in_a_subprocess() -> None:
    result = subprocess.run([sys.executable, "-m", "konkun", "kunken", "moves", _small()],
                            capture_output=True, text=True, timeout=60, check=False)
    assert (result.returncode, result.stdout, result.stderr) == (0, "draw\n", "")
