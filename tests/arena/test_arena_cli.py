"""``konkun arena`` on the command line (issue 4: the table, --json, errors as one line)."""

from __future__ import annotations

import json

import pytest

from konkun.cli import main


def test_arena_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["arena", "toy", "--players", "2", "--bots", "greedy,random", "--games", "6",
                   "--seed", "4", "--backend", "serial"])
    out, err = capsys.readouterr()
    assert status == 0
    assert err == ""  # no progress bar when stderr is not a terminal
    assert "6 deals" in out and "seed 4" in out
    for column in ("wins", "points/game", "95% CI", "Elo"):
        assert column in out


def test_arena_json_is_the_same_run(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["arena", "toy", "--bots", "greedy,random", "--games", "4", "--seed", "9",
            "--backend", "serial"]
    assert main([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seed"] == 9 and data["games"] == 4 and data["unit"] == "deal"
    assert [b["spec"] for b in data["bots"]] == ["greedy", "random"]
    assert main([*args, "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert [b["points_per_game"] for b in again["bots"]] == [
        b["points_per_game"] for b in data["bots"]]


def test_arena_counts_matches_with_matches(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "toy", "--bots", "greedy,random", "--games", "2", "--matches",
                 "--rule", "target=5", "--seed", "1", "--backend", "serial", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["unit"] == "match" and data["games"] == 2


def test_progress_bar_goes_to_stderr_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "toy", "--bots", "random,random", "--games", "2", "--seed", "1",
                 "--backend", "serial", "--progress"]) == 0
    out, err = capsys.readouterr()
    assert "2/2 deals" in err and "2/2" not in out


@pytest.mark.parametrize(("args", "words"), [
    (["--bots", "greedy,nosuch"], "unknown bot 'nosuch'"),
    (["--bots", "greedy,random", "--players", "3"], "2 bots"),
    (["--bots", "greedy,random", "--rule", "oops"], "'oops'"),
    (["--bots", "ismcts:iters=x,random"], "iters must be an integer"),
    (["--bots", "greedy,random", "--workers", "0"], "--workers"),
    (["--bots", "greedy,random", "--backend", "cloud"], "invalid choice"),
])
def test_bad_input_is_one_line_on_stderr_and_status_2(
        capsys: pytest.CaptureFixture[str], args: list[str], words: str) -> None:
    assert main(["arena", "toy", *args]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert words in err and err.count("\n") == 1
