"""Why a bank card cannot be taken, and a finished deal's points split into plus, minus
and the express factors (konkun.kunken.explain, the page's coach)."""

from __future__ import annotations

from konkun.kunken import KunkenRules

from .helpers import position


def refusals(deal: object, seat: int = 0) -> list[dict[str, object]]:
    """The coach's refusals of ``seat``'s view (its observation JSON)."""
    found: list[dict[str, object]] = deal.observe(seat).to_json()["take_refusals"]  # type: ignore[attr-defined]
    return found


def test_third_card_rule_refusal_when_no_meld_holds_the_bank_card_with_two_held() -> None:
    # RULES.md: the taken card must make a meld with at least two cards held before it
    deal = position(["Kc Kh 2d 7s 9h", "Tc 9c 4d"], "5h Qd")
    assert refusals(deal) == [{"position": 0, "card": "5h", "reason": "no_meld"},
                              {"position": 1, "card": "Qd", "reason": "no_meld"}]


def test_opening_short_refusal_names_how_far_below_the_minimum() -> None:
    # K K + the bank's K = 30: the opening misses 50 by 20
    deal = position(["Kc Kh 2d 7s 9h", "Tc 9c 4d"], "Kd")
    assert refusals(deal) == [{"position": 0, "card": "Kd", "reason": "opening_short",
                               "best": 30, "short": 20}]


def test_no_refusal_when_another_meld_brings_the_opening_to_50() -> None:
    # K K + Kd = 30, and Qs Js Ts laid the same turn = 30: 60 reaches the opening
    deal = position(["Kc Kh Qs Js Ts 2d 7c", "Tc 9c 4d"], "Kd")
    assert refusals(deal) == []
    assert "take 0" in [a.text() for a in deal.legal_actions()]


def test_no_refusal_with_a_layout_when_the_third_card_rule_holds() -> None:
    # with a layout there is no minimum: K K + Kd may be laid
    deal = position(["Kc Kh 2d 7s 9h", "Tc 9c 4d"], "Kd", melds=[(0, "5s 6s 7s")],
                    layout=[True, False])
    assert refusals(deal) == []


def test_opening_minimum_option_sets_the_shortfall() -> None:
    deal = position(["Kc Kh 2d 7s 9h", "Tc 9c 4d"], "Kd",
                    rules=KunkenRules(opening_minimum=40))
    assert refusals(deal)[0]["short"] == 10


def test_refusals_only_for_the_seat_to_move_at_the_start_of_its_turn() -> None:
    deal = position(["Kc Kh 2d 7s 9h", "Tc 9c 4d"], "Kd")
    assert refusals(deal, seat=1) == []
    deal.play("draw")
    assert refusals(deal) == []


def test_spectator_view_has_no_refusals_drawn_from_a_hand() -> None:
    from konkun.kunken import KunkenMatch

    for seed in range(30):
        match = KunkenMatch(KunkenRules(), 2, seed)
        if match.deal.to_move == 0 and match.to_json(0)["take_refusals"]:
            assert match.to_json(None)["take_refusals"] == []
            return
    raise AssertionError("no seed with a refusal for seat 0")


def test_express_score_parts_write_the_doubling() -> None:
    # the rules test's express deal: winner 60 doubled; seat 1 table 15, hand 10 doubled
    deal = position(["Kc Kh Ks Qd Qh 2d", "Tc 9c", "Ac"], "Qs", melds=[(1, "5s 6s 7s")])
    for step in ("take 0", "meld Kc Kh Ks", "meld Qd Qh Qs", "discard 2d"):
        deal.play(step)
    parts = [deal.observe(seat).to_json()["score_parts"] for seat in range(3)]
    assert parts == [
        {"plus": 60, "minus": 0, "plus_factor": 2, "minus_factor": 1, "points": 120},
        {"plus": 15, "minus": 10, "plus_factor": 1, "minus_factor": 2, "points": -5},
        {"plus": 0, "minus": 10, "plus_factor": 1, "minus_factor": 2, "points": -20}]
    assert [p["points"] for p in parts] == deal.points()


def test_score_parts_only_once_the_deal_is_over() -> None:
    deal = position(["Kc Kh 2d 7s 9h", "Tc 9c 4d"], "Kd")
    assert deal.observe(0).to_json()["score_parts"] is None
