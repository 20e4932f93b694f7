"""The per-seat observation and the JSON the browser renders (docs/kunken.md)."""

from __future__ import annotations

import random

from konkun.game import Deal, Match, Observation
from konkun.kunken import KunkenMatch, KunkenRules, new_deal

from .helpers import card, position


def test_protocols_are_implemented() -> None:
    deal = new_deal(KunkenRules(), 2, 0, random.Random(1))
    assert isinstance(deal, Deal)
    assert isinstance(deal.observe(0), Observation)
    match: Match[object] = KunkenMatch(KunkenRules(), 2, 1)  # type: ignore[assignment]
    assert match.num_seats == 2


def test_observation_json_shows_own_hand_and_public_facts_only() -> None:
    deal = position(["Kc Kh Ks 3d 4d 6d 9c 2s", "2c 3c 4c"], "Tc 5d")
    deal.play("take 1")
    mine = deal.observe(0).to_json()
    theirs = deal.observe(1).to_json()
    assert sorted(mine["hand"]) == sorted(["9c", "Kc", "3d", "4d", "5d", "6d", "2s", "Ks", "Kh"])
    assert theirs["hand"] == ["2c", "3c", "4c"]
    assert "Kc" not in str(theirs["hand"])
    assert mine["hand_sizes"] == theirs["hand_sizes"] == [9, 3]
    assert mine["bank"] == ["Tc"]
    assert mine["taken_held"] == theirs["taken_held"] == [["5d"], []]
    assert mine["turn"]["taken_card"] == "5d"
    assert mine["turn"]["must_meld_taken_card"] is True
    assert mine["turn"]["points_needed"] == 50
    assert len(mine["turn"]["obligations"]) == 2
    assert mine["legal"] and theirs["legal"] == []
    assert mine["phase"] == "taken" and mine["to_move"] == 0


def test_observation_and_deal_json_hold_plain_json_types_only() -> None:
    """The phase is the plain string, not the engine's enum: the data is the same after a
    round trip through any JSON library, and its repr shows no Python type."""
    deal = position(["Kc Kh Ks 3d 4d 6d 9c 2s", "2c 3c 4c"], "Tc 5d")
    deal.play("take 1")
    for data in (deal.observe(0).to_json(), deal.to_json()):
        assert type(data["phase"]) is str and data["phase"] == "taken"
        assert "Phase" not in repr(data)
    assert type(deal.observe(1).to_json()["turn"]["phase"]) is str


def test_observation_json_melds_with_owner_jokers_and_layoffs() -> None:
    deal = position(["4h 9c 2s 7c", "2c 3c 4c"], "Tc", stock="8d",
                    melds=[(1, "5h X=6h 7h"), (0, "Kc Kd Ks")])
    deal.melds[0].lay_off(card("4h"), 0)  # 4h laid off by seat 0
    data = deal.observe(1).to_json()
    meld = data["melds"][0]
    assert meld["owner"] == 1 and meld["kind"] == "sequence"
    assert meld["cards"] == ["4h", "5h", "X=6h", "7h"]
    assert meld["stands_for"] == [None, None, "6h", None]
    assert meld["laid_by"] == [0, 1, 1, 1]
    assert data["has_layout"] == [True, True]


def test_sample_deal_keeps_known_taken_cards_in_their_hand() -> None:
    deal = position(["Kc Kh Ks 3d 4d 6d 9c 2s", "2c 3c 4c"], "Tc 5d 8h 8s")
    deal.play("take 1")
    deal.play("meld Kc Kh Ks")
    deal.play("meld 3d 4d 5d 6d")
    deal.play("discard 9c")
    view = deal.observe(1)
    for seed in range(5):
        sample = view.sample_deal(random.Random(seed))
        assert sample.hands[0][card("8h")] >= 1 and sample.hands[0][card("8s")] >= 1
        assert sum(sample.hands[0]) == deal.hand_sizes[0]
        assert sample.hands[1] == deal.hands[1]


def test_match_json_adds_totals_history_deals_and_winner() -> None:
    match = KunkenMatch(KunkenRules(), 3, 4)
    data = match.to_json(0)
    for key in ("totals", "deal_points", "running_totals", "deals", "target",
                "match_over", "match_winner", "seat", "hand", "legal", "melds", "bank"):
        assert key in data
    assert data["deals"] == 3
    spectator = match.to_json(None)
    assert spectator["hand"] == [] and spectator["legal"] == [] and spectator["seat"] is None
