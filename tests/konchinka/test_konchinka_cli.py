"""``konkun konchinka moves|perft|apply|score`` exactly as CONTRACT.md specifies."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from konkun.cli import main

EXAMPLE = "classic As7h2cQd Kc3d/Qh9c5s/8d4h - -/-/- 1 0 -"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["konchinka", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_moves_one_per_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "moves", EXAMPLE)
    assert status == 0 and err == ""
    assert set(out.splitlines()) == {"Qh", "Qh:Qd", "Qh:As7h2c", "9c", "9c:7h2c", "5s"}


def test_cli_moves_with_rule(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "moves", EXAMPLE, "--rule", "capture_compulsory=true")
    assert status == 0
    assert set(out.splitlines()) == {"Qh:Qd", "Qh:As7h2c", "9c:7h2c", "5s"}


def test_cli_moves_of_a_finished_deal_prints_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "moves", "classic - -/- - 2c/Td 0 1 1")
    assert (status, out) == (0, "")


def test_cli_perft_number_alone_on_the_last_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "perft", EXAMPLE, "1")
    assert status == 0 and out.splitlines()[-1] == "6"
    status, out, _ = run(capsys, "perft", EXAMPLE, "0")
    assert out.splitlines()[-1] == "1"
    status, out, _ = run(capsys, "perft", EXAMPLE, "3", "--divide")
    lines = out.splitlines()
    assert int(lines[-1]) == sum(int(line.split(": ")[1]) for line in lines[:-1])


def test_cli_perft_counts_redeals_and_sweep_inside_moves(
        capsys: pytest.CaptureFixture[str]) -> None:
    # seat 0 trails its last card, then the redeal of 8 cards, then 8 more moves
    kpn = "classic Kh 9s/- 2c3c4c5c6c7c8c9c -/- 0 0 -"
    status, out, _ = run(capsys, "perft", kpn, "1")
    assert (status, out.strip()) == (0, "1")
    status, out, _ = run(capsys, "perft", kpn, "20")
    assert (status, out.strip()) == (0, "0")  # the deal ends after 9 moves


def test_cli_apply_prints_the_kpn_after_the_moves(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "apply", EXAMPLE, "Qh:2c7hAs", "8d", "Kc:Qd")
    assert status == 0 and err == ""
    assert out == "classic 8d 3d/9c5s/4h - KcQd/AsQh7h2c/- 1 0 0\n"


def test_cli_apply_redeal_inside_the_move(capsys: pytest.CaptureFixture[str]) -> None:
    _status, out, _ = run(capsys, "apply", "classic Kh 9s/- 2c3c4c5c6c7c8c9c -/- 0 0 -", "9s")
    assert out.strip() == "classic Kh9s 9c7c5c3c/8c6c4c2c - -/- 1 0 -"


def test_cli_apply_sweep_inside_the_move(capsys: pytest.CaptureFixture[str]) -> None:
    _status, out, _ = run(capsys, "apply", "classic 5h 9c/- - Kc/Qd 0 1 1", "9c")
    assert out.strip() == "classic - -/- - Kc/Qd9c5h 1 1 1"


def test_cli_score_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "score", "classic - -/-/- - 2cAsKs/TdQc/9h 0 0 1")
    assert status == 0
    assert json.loads(out) == {"seats": [
        {"cards": 3, "clubs": 1, "konchinki": 1, "points": 2 + 1},
        {"cards": 2, "clubs": 1, "konchinki": 1, "points": 1},
        {"cards": 1, "clubs": 0, "konchinki": 0, "points": 0}]}


@pytest.mark.parametrize("argv", [
    ["moves", "classic As Kc/Qh - -/- 0 1"],
    ["moves", "classic As As/Qh - -/- 0 1 -"],
    ["moves", EXAMPLE, "--rule", "nonsense=1"],
    ["moves", EXAMPLE, "--rule", "capture_compulsory=maybe"],
    ["moves", EXAMPLE, "--rule", "target"],
    ["moves", EXAMPLE, "--rule", "variant=novo"],
    ["perft", EXAMPLE, "x"],
    ["perft", EXAMPLE, "-1"],
    ["perft", "bad", "1"],
    ["apply", EXAMPLE, "Qh:As"],
    ["apply", EXAMPLE, "Zz"],
    ["apply", EXAMPLE, "Kc"],
    ["apply", "classic 5h 9c/- - Kc/Qd 0 1 1", "9c", "9c"],
    ["score", EXAMPLE],
    ["score", "classic - -/- - - 0"],
    ["moves"],
    ["nonsense"],
    [],
])
def test_cli_bad_input_exit_two_one_line_nothing_on_stdout(
        capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_cli_bad_input_names_the_input(capsys: pytest.CaptureFixture[str]) -> None:
    _, _, err = run(capsys, "apply", EXAMPLE, "Qh:As")
    assert "'Qh:As'" in err and EXAMPLE.replace("As7h2cQd", "AsQd7h2c") in err
    _, _, err = run(capsys, "moves", EXAMPLE, "--rule", "nonsense=1")
    assert "nonsense" in err


def test_cli_as_a_process() -> None:
    result = subprocess.run([sys.executable, "-m", "konkun", "konchinka", "perft", EXAMPLE, "2"],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0
    assert result.stdout.strip().isdigit()
    bad = subprocess.run([sys.executable, "-m", "konkun", "konchinka", "apply", EXAMPLE, "Jd"],
                         capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and bad.stdout == "" and len(bad.stderr.splitlines()) == 1
