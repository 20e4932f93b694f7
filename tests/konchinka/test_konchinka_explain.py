"""Konchinka's moves and scores explained (konkun.konchinka.explain, the page's coach):
capture sums, the King's 13 or 14, the classic Jack, why a card takes nothing, and where
a deal's points came from."""

from __future__ import annotations

import random

import pytest

from konkun.cards import parse_cards
from konkun.konchinka import KonchinkaRules, new_deal
from konkun.konchinka.explain import explain_capture, points_reasons
from konkun.konchinka.moves import Move
from konkun.konchinka.notation import parse_kpn
from konkun.konchinka.rules import CLASSIC, NOVO
from konkun.konchinka.scoring import score_piles


def test_source_example_queen_takes_ace_seven_two_adding_up_to_10() -> None:
    # "сумма их очков составляет 10, что равноценно стоимости Дамы"
    queen, ace, seven, two = parse_cards("Qh As 7h 2c")
    explained = explain_capture(Move.capture(queen, [ace, seven, two]), CLASSIC)
    assert explained["kind"] == "sum"
    assert [p["card"] for p in explained["parts"]] == ["7h", "2c", "As"]  # 7+2+A
    assert [p["value"] for p in explained["parts"]] == [7, 2, 1]
    assert explained["sum"] == explained["value"] == 10
    assert explained["king"] is False


def test_novo_king_takes_14_and_says_so() -> None:
    # "Королем можно брать ... также и карты, оцениваемые в 14 очков (восьмерку и шестерку)"
    king, eight, six = parse_cards("Kh 8c 6s")
    explained = explain_capture(Move.capture(king, [eight, six]), NOVO)
    assert explained["sum"] == 14 and explained["value"] == 13 and explained["king"] is True


def test_classic_jack_takes_the_whole_table_without_a_sum() -> None:
    jack, queen, two = parse_cards("Jd Qs 2c")
    assert explain_capture(Move.capture(jack, [queen, two]), CLASSIC)["kind"] == "jack"
    assert explain_capture(Move.capture(jack, parse_cards("Th Ah")),
                           NOVO)["sum"] == 11  # novo: the Jack is 11 like any card


def explain_of(kpn: str) -> dict[str, dict[str, object]]:
    """The explanations of the legal moves of a KPN, as the seat to move sees them."""
    deal = parse_kpn(kpn)
    found: dict[str, dict[str, object]] = deal.observe(deal.to_move).to_json()["explain"]
    return found


def test_trail_says_why_a_card_takes_nothing() -> None:
    explained = explain_of("classic As7h3cQd Kc9d/Qh9c5s - -/- 0 1 -")
    assert explained["9d"] == {"kind": "trail", "card": "9d", "reason": "no_sum", "sums": [9]}
    assert explained["Kc"]["reason"] == "chosen"  # the King could take the Queen or 7+3
    assert explained["Kc:Qd"]["kind"] == "sum"


def test_trail_on_an_empty_table() -> None:
    assert explain_of("classic - Kc9d/Qh9c - -/- 0 1 -")["9d"]["reason"] == "empty_table"


def test_novo_king_trail_names_both_sums() -> None:
    assert explain_of("novo 2c3d Kc9d/Qh9c - -/- 0 1 -")["Kc"]["sums"] == [13, 14]


def test_every_legal_move_is_explained() -> None:
    deal = new_deal(CLASSIC, 3, 0, random.Random(4))
    data = deal.observe(deal.to_move).to_json()
    assert set(data["explain"]) == set(data["legal"])


def finished_deal(seed: int, seats: int, rules: KonchinkaRules) -> object:
    """A deal played to its end by random legal moves."""
    rng = random.Random(seed)
    deal = new_deal(rules, seats, rng.randrange(seats), rng)
    while deal.to_move is not None:
        deal.play(rng.choice(deal.legal_actions()))
    return deal


@pytest.mark.parametrize("tie_points", ["none", "all", "split"])
def test_points_reasons_add_up_to_each_seats_points(tie_points: str) -> None:
    # RULES.md, Score of a deal: most cards 2, most clubs 1, 2♣ 1, 10♦ 1
    rules = KonchinkaRules(tie_points=tie_points)  # type: ignore[arg-type]
    for seed in range(40):
        deal = finished_deal(seed, 2 + seed % 3, rules)
        piles = deal.piles  # type: ignore[attr-defined]
        reasons = points_reasons(piles, rules)
        score = score_piles(piles, rules)
        assert [sum(r["points"] for r in seat) for seat in reasons] == score.points
        for seat, pile in enumerate(piles):
            names = {r["reason"] for r in reasons[seat]}
            assert ("two_clubs" in names) == any(c.text == "2c" for c in pile)
            assert ("ten_diamonds" in names) == any(c.text == "Td" for c in pile)


def test_points_reasons_worked_example_of_the_rules_page() -> None:
    # Anna: most cards, most clubs, the 10♦ = 4; Boris: the 2♣ = 1
    anna = parse_cards("Td Ac Kc Qc Jc Tc 9c 8c 7c Ad Kd Qd")
    boris = parse_cards("2c 6c 5c 4c 3c Ah Kh Qh")
    assert points_reasons([anna, boris], CLASSIC) == [
        [{"reason": "most_cards", "points": 2}, {"reason": "most_clubs", "points": 1},
         {"reason": "ten_diamonds", "points": 1}],
        [{"reason": "two_clubs", "points": 1}]]


def test_observation_gives_reasons_only_once_the_deal_is_over() -> None:
    deal = finished_deal(3, 2, CLASSIC)
    data = deal.observe(0).to_json()  # type: ignore[attr-defined]
    assert data["score_reasons"] == points_reasons(deal.piles, CLASSIC)  # type: ignore[attr-defined]
    assert new_deal(CLASSIC, 2, 0, random.Random(1)).observe(0).to_json()["score_reasons"] is None
