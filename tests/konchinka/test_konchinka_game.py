"""The game to the target (RULES.md: Game, Score sheet), settlements and records."""

from __future__ import annotations

import json
import pickle
import random

import pytest

from konkun.errors import GameOverError, InvalidNotationError, InvalidRuleError
from konkun.game import Match
from konkun.konchinka import (
    CLASSIC,
    NOVO,
    KonchinkaMatch,
    KonchinkaRecord,
    KonchinkaRules,
    Move,
    game_winner,
    replay,
    running_totals,
    settle,
)


def play_out(match: KonchinkaMatch, seed: int = 0) -> KonchinkaMatch:
    chooser = random.Random(seed)
    while not match.is_over():
        match.play(chooser.choice(match.legal_actions()))
    return match


def test_game_loser_pays_the_difference_to_fifteen_source_example() -> None:
    # Игорь reaches 15, Сергей has 12, Александр 7: Сергей pays 3, Александр pays 8.
    result = settle(CLASSIC, [15, 12, 7], winner=0)
    assert [(p.payer, p.payee, p.amount) for p in result.payments] == [(1, 0, 3), (2, 0, 8)]
    assert result.net == (11, -3, -8)


def test_game_loser_pays_nothing_when_past_the_target() -> None:
    result = settle(CLASSIC, [17, 15, 2], winner=0)
    assert [p.amount for p in result.payments] == [0, 13]


def test_option_settlement_pool_winner_takes_the_stakes() -> None:
    rules = CLASSIC.with_options({"settlement": "pool", "stake": "5"})
    result = settle(rules, [15, 12, 7], winner=0)
    assert [p.amount for p in result.payments] == [5, 5]
    assert result.net == (10, -5, -5)


def test_score_sheet_running_totals_three_five_eight_source_example() -> None:
    # 3 points in the first deal, 2 in the second, 3 in the third: 3, then 5, then 8
    sheet = running_totals([[3, 0], [2, 1], [3, 0]], 2)
    assert sheet[0] == [3, 5, 8]
    assert sheet[1] == [0, 1, 1]


def test_game_ends_after_a_deal_when_a_total_reaches_the_target() -> None:
    assert game_winner([15, 12, 7], 15) == 0
    assert game_winner([14, 12, 7], 15) is None
    assert game_winner([13, 16], 15) == 1


def test_game_highest_total_shared_plays_further_deals() -> None:
    assert game_winner([15, 15, 7], 15) is None
    assert game_winner([16, 15, 7], 15) == 0
    assert game_winner([3, 17, 17], 15) is None


def test_option_target() -> None:
    rules = CLASSIC.with_options({"target": "5"})
    match = play_out(KonchinkaMatch(rules, 2, 3))
    assert max(match.totals) >= 5
    winner = match.winner()
    assert winner is not None and match.totals.count(max(match.totals)) == 1
    assert match.totals[winner] == max(match.totals)
    assert match.settlement() is not None


@pytest.mark.parametrize(("seats", "rules"), [(2, CLASSIC), (3, NOVO), (4, CLASSIC)])
def test_game_to_fifteen_with_sheet_history(seats: int, rules: KonchinkaRules) -> None:
    match = play_out(KonchinkaMatch(rules, seats, seats * 7), seats)
    typed: Match[Move] = match
    assert typed.num_seats == seats
    totals = match.totals
    assert max(totals) >= 15
    assert [column[-1] for column in match.sheet] == totals
    assert all(len(column) == len(match.deal_points) for column in match.sheet)
    assert [sum(p[s] for p in match.deal_points) for s in range(seats)] == totals
    # every earlier deal ended with no single leader at or above the target
    rows = list(zip(*match.sheet, strict=True))
    for row in rows[:-1]:
        assert game_winner(row, 15) is None
    assert game_winner(rows[-1], 15) == match.winner()
    with pytest.raises(GameOverError):
        match.play(Move.parse("2c"))


def test_record_replays_exactly() -> None:
    match = play_out(KonchinkaMatch(NOVO, 3, "secret seed"), 4)
    data = json.loads(json.dumps(match.record().to_json()))
    again = replay(KonchinkaRecord.from_json(data))
    assert again.totals == match.totals
    assert again.sheet == match.sheet
    assert again.deal.kpn() == match.deal.kpn()
    assert again.winner() == match.winner()


def test_record_of_an_unfinished_game_replays_to_the_same_position() -> None:
    match = KonchinkaMatch(CLASSIC, 2, 11)
    chooser = random.Random(2)
    for _ in range(70):
        match.play(chooser.choice(match.legal_actions()))
    again = replay(match.record())
    assert again.deal.kpn() == match.deal.kpn()
    assert again.deal_number == match.deal_number


def test_record_from_bad_json_is_a_notation_error() -> None:
    with pytest.raises(InvalidNotationError):
        KonchinkaRecord.from_json({"seed": 1})
    with pytest.raises(InvalidNotationError):
        KonchinkaRecord.from_json({"game": "kunken", "seed": 1, "num_seats": 2, "actions": []})
    with pytest.raises(InvalidRuleError):
        KonchinkaRecord.from_json({"seed": 1, "num_seats": 2, "actions": [],
                                   "rules": {"nonsense": 1}})


def test_match_json_shape() -> None:
    match = play_out(KonchinkaMatch(CLASSIC, 3, 21), 1)
    data = match.to_json(0)
    json.dumps(data)
    for key in ("seat", "num_seats", "variant", "totals", "sheet", "deal_points", "target",
                "settlement", "winner", "deal", "dealer", "over", "seed"):
        assert key in data
    assert data["over"] is True
    assert data["winner"] == match.winner()
    assert data["settlement"]["payments"]
    assert data["seed"] == 21
    spectator = match.to_json(None)
    assert spectator["deal"]["hand"] is None


def test_match_json_hides_the_seed_until_the_end() -> None:
    match = KonchinkaMatch(CLASSIC, 2, "live")
    seat = match.to_move
    assert seat is not None
    assert match.to_json(seat)["seed"] is None
    assert match.to_json(seat)["deal"]["legal"] == [m.text() for m in match.legal_actions()]
    assert match.to_json(1 - seat)["deal"]["legal"] == []


@pytest.mark.parametrize("seed", [5, "live secret"])
def test_match_pickles_and_goes_on_identically(seed: int | str) -> None:
    match = KonchinkaMatch(CLASSIC, 3, seed)
    chooser = random.Random(3)
    for _ in range(40):
        match.play(chooser.choice(match.legal_actions()))
    clone = pickle.loads(pickle.dumps(match))
    for _ in range(200):
        if match.is_over():
            break
        move = chooser.choice(match.legal_actions())
        match.play(move)
        clone.play(move)
    assert clone.to_json(0) == match.to_json(0)


@pytest.mark.parametrize("num_seats", [float("inf"), 2.5, "3", True, None])
def test_a_record_with_a_seat_count_that_is_not_a_whole_number_is_refused(
        num_seats: object) -> None:
    from konkun.konchinka.game import KonchinkaRecord

    data = {"version": 1, "rules": {"variant": "classic"}, "num_seats": num_seats,
            "seed": 1, "actions": []}
    with pytest.raises(InvalidNotationError, match="num_seats"):
        KonchinkaRecord.from_json(data)
