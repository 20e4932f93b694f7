"""``konkun play`` arguments: bad input exits with status 2 and one line on standard error
before any terminal is opened; good input builds the session it names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from konkun.cli import build_parser, main
from konkun.tui.cli import session_from_args
from konkun.tui.session import PlaySession


@pytest.mark.parametrize(("argv", "quoted"), [
    (["play", "konchinka", "--players", "5"], "5"),
    (["play", "kunken", "--players", "6"], "6"),
    (["play", "kunken", "--rule", "jokers=many"], "many"),
    (["play", "konchinka", "--bots", "nonsense"], "nonsense"),
    (["play", "konchinka", "--rule", "target=abc"], "abc"),
    (["play", "konchinka", "--rule", "no_such_rule=1"], "no_such_rule"),
    (["play", "chess"], "chess"),
    (["play"], "konchinka"),
    (["play", "konchinka", "--bot-delay", "-1"], "-1"),
    (["play", "konchinka", "--bot-delay", "nan"], "nan"),
])
def test_bad_arguments_exit_2_with_one_line(argv: list[str], quoted: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.strip().splitlines()) == 1
    assert quoted in captured.err


def test_a_missing_save_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.json"
    assert main(["play", "--resume", str(missing)]) == 2
    assert str(missing) in capsys.readouterr().err


def test_players_bots_rules_and_seed_make_the_session() -> None:
    namespace = build_parser().parse_args(
        ["play", "konchinka", "--players", "3", "--bots", "random,greedy",
         "--rule", "variant=novo", "--rule", "target=21", "--seed", "42"])
    session = session_from_args(namespace)
    assert session.num_seats == 3
    assert session.bots == ["random", "greedy"]
    assert session.seed == 42
    record = session.match.record().to_json()
    assert record["rules"]["variant"] == "novo" and record["rules"]["target"] == 21


def test_one_bot_spec_plays_every_other_seat() -> None:
    namespace = build_parser().parse_args(["play", "konchinka", "--players", "4",
                                           "--bots", "random"])
    assert session_from_args(namespace).bots == ["random"] * 3


def test_the_same_seed_deals_the_same_cards() -> None:
    first = PlaySession.new("konchinka", 2, ["random"], seed="abc")
    second = PlaySession.new("konchinka", 2, ["random"], seed="abc")
    assert first.match.deal.observe(0).to_json() == second.match.deal.observe(0).to_json()


def test_resume_accepts_a_bare_match_record(tmp_path: Path) -> None:
    session = PlaySession.new("konchinka", 2, ["random"], seed=8)
    for _ in range(5):
        if session.human_to_move():
            session.play(session.legal()[0])
        session.run_bots()
    path = tmp_path / "record.json"
    path.write_text(json.dumps(session.match.record().to_json()))
    namespace = build_parser().parse_args(["play", "--resume", str(path), "--bots", "random"])
    resumed = session_from_args(namespace)
    assert resumed.match.record().to_json() == session.match.record().to_json()


@pytest.mark.parametrize("human", [5, -1, "abc", None, True])
def test_a_save_file_with_no_such_human_seat_names_the_seat(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], human: object) -> None:
    session = PlaySession.new("konchinka", 2, ["random"], seed=8)
    path = tmp_path / "save.json"
    session.save(path)
    data = json.loads(path.read_text())
    path.write_text(json.dumps(dict(data, human=human)))
    assert main(["play", "--resume", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"invalid human seat {human!r}" in err and len(err.strip().splitlines()) == 1
