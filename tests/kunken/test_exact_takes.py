"""The exact take check (issue 11): every take that some legal sequence of melds, joker
swaps, lay-offs and a final discard completes is offered, and every step of such a sequence
is then accepted. The three examples of the issue, step by step."""

from __future__ import annotations

import random

import pytest

from konkun.kunken import KunkenRules
from konkun.kunken.completion import take_hints
from konkun.kunken.hints import hand_advice
from konkun.kunken.solver import third_card_length, third_card_melds

from .helpers import counts, idx, position, texts


def test_take_completed_with_a_joker_won_by_a_swap_after_the_take() -> None:
    # hand, table meld 5c 6c X=7c 8c, bank 8d 8c 7c: take from 8d, meld 6d 7d 8d,
    # 7c 7h 7s, 9c 9h 9s (45), swap 7c for the joker, meld 8c 8h X (60 in all)
    deal = position(["7c 9c 3d 6d 7d Jd Jd 7h 8h 9h 7s 9s Ks", "2c 3c 4c"], "8d 8c 7c",
                    melds=[(1, "5c 6c X=7c 8c")])
    assert "take 0" in texts(deal)
    for step in ("take 0", "meld 6d 7d 8d", "meld 7c 7h 7s", "meld 9c 9h 9s", "swap 0 7c",
                 "meld 8c 8h X", "discard Ks"):
        assert step in texts(deal), step
        deal.play(step)
    assert deal.to_move == 1 and deal.melds[0].jokers == 0


def test_take_going_out_with_a_joker_swapped_from_another_players_set() -> None:
    # a layout, 4h 5h Ac 2c in hand, seat 1 has Ad Ah X, bank 7h: take 7h, swap Ac for the
    # joker, meld 4h 5h X=6h 7h, discard 2c: out, the deal won
    deal = position(["4h 5h Ac 2c", "2d 3d 4d"], "7h",
                    melds=[(1, "Ad Ah X"), (0, "Kc Kd Ks")])
    assert texts(deal) == ["draw", "take 0"]
    for step in ("take 0", "swap 0 Ac", "meld 4h 5h X=6h 7h", "discard 2c"):
        assert step in texts(deal), step
        deal.play(step)
    assert deal.is_over() and deal.winner == 0


@pytest.mark.parametrize("melds", [[], [(1, "Kd Kh X")]], ids=["bare table", "table joker"])
def test_opening_take_with_the_taken_melds_joker_won_back_by_a_swap(
        melds: list[tuple[int, str]]) -> None:
    # RULES.md: the taken card's meld holds two cards held before the take (an old joker
    # counts), a joker may stand for a card the player holds, a player who laid a meld
    # earlier this turn may swap a joker of any meld, their own too, and use it at once.
    # Take Tc 9c: X=9c Tc Jc holds Tc with the old X and Jc (20), swap 9c for the joker,
    # X Ah As (30): 50 in all. 9c Tc Jc itself holds one old card only, and without the
    # swap the one joker cannot serve both melds. (Seat 1's joker needs a king: none held.)
    deal = position(["Jc Ah As X 2d 7h", "2c 3c 4c"], "Tc 9c", melds=melds,
                    layout=[False, bool(melds)])
    assert texts(deal) == ["draw", "take 0"]
    assert 0 in [i for i, _ in take_hints(counts("Jc Ah As X 2d 7h"), idx("Tc 9c"), 50,
                                          [m.compact() for m in deal.melds], layout=False)]
    deal.play("take 0")
    assert "meld 9c Tc Jc" not in texts(deal)
    n = len(melds)
    for step in ("meld X=9c Tc Jc", f"swap {n} 9c", "meld Ah As X", "discard 7h"):
        assert step in texts(deal), step
        deal.play(step)
    assert deal.to_move == 1 and deal.layout[0]


def test_opening_take_where_a_card_laid_first_frees_a_joker_to_stand_for_it() -> None:
    # joker_for_held=false (RULES.md's option): a joker may not stand for a card the player
    # holds at that moment. Take 5c, lay 5c 5h X (5h and X held before the take: 15); 5h is
    # no longer held, so X=5h may now stand for it: 4h X=5h 6h (15), 9h X=Th Jh (20): 50.
    rules = KunkenRules(joker_for_held=False)
    hand = "Qs Jh 9h 8s 6h 5h 4h 3d 3d 2c X X X"
    deal = position(["Ac Kd Ks", hand], "5c", to_move=1, rules=rules)
    assert "take 0" in texts(deal)
    deal.play("take 0")
    assert "meld X=5h 4h 6h" not in texts(deal)  # 5h is still held
    for step in ("meld 5c 5h X", "meld 4h X=5h 6h", "meld 9h X=Th Jh", "discard Qs"):
        assert step in texts(deal), step
        deal.play(step)
    assert deal.layout[1]


HAND_3 = "2c 8c 9c Tc Ac 2d 4d 8d 8d 9d 4s 6s X"
BANK_3 = "4d Ac 5h 9s As 5c 3s Jh 4h Jc 7c 2h 8s"


def test_opening_take_with_a_joker_for_a_card_left_in_the_untaken_bank() -> None:
    # take from 2h (position 11): 2c 2d 2h + 9c Tc X=Jc + 8c 8d 8s, Jc still in the bank
    deal = position([HAND_3, "Kh Qh 3h"], BANK_3)
    assert "take 11" in texts(deal)
    for step in ("take 11", "meld 2c 2d 2h", "meld 9c Tc X=Jc", "meld 8c 8d 8s",
                 "discard 4s"):
        assert step in texts(deal), step
        deal.play(step)


def test_take_hints_offer_the_take_with_a_joker_for_a_card_left_in_the_bank() -> None:
    hints = take_hints(counts(HAND_3), idx(BANK_3), 50)
    assert 11 in [i for i, _ in hints]
    advice = hand_advice(counts(HAND_3), idx(BANK_3), need=50)
    assert 11 in [t["position"] for t in advice["takes"]]


@pytest.mark.parametrize("replace", [False, True])
def test_third_card_masks_agree_with_the_listed_melds(replace: bool) -> None:
    # the bit-mask answer (with jokers for held cards when replace) is the shortest of the
    # melds listed one by one, for taken cards and taken jokers alike
    rng = random.Random(11)
    pack = [k for k in range(52) for _ in range(2)] + [52] * 4
    for _ in range(1500):
        cards = rng.sample(pack, rng.randint(3, 18))
        hand = [0] * 53
        taken = [0] * 53
        for c in cards:
            hand[c] += 1
        for c in cards:
            if rng.random() < 0.3 and taken[c] < hand[c]:
                taken[c] += 1
        taken_card = 52 if hand[52] and rng.random() < 0.6 else rng.choice(cards)
        taken[taken_card] = max(taken[taken_card], 1)
        listed = third_card_melds(taken_card, hand, taken, replace)
        assert third_card_length(taken_card, hand, taken, replace) == min(
            map(len, listed), default=0), (cards, taken)


@pytest.mark.parametrize(("field", "value", "named"), [
    ("has_layout", [False], "has_layout"),
    ("taken_held", [[]], "taken_held"),
    ("has_layout", [0, 1], "has_layout"),
    ("taken_held", [["Ks"], []], "taken_held 0"),
    ("renewals_used", 9, "renewals_used"),
    ("to_move", 7, "to_move"),
    ("phase", "taken", "taken_card"),
    ("winner", 0, "winner"),
])
def test_from_json_rejects_an_inconsistent_field_with_a_typed_error(
        field: str, value: object, named: str) -> None:
    from konkun.errors import KonkunError
    from konkun.kunken import KunkenDeal, KunkenRules, new_deal

    deal = new_deal(KunkenRules(), 2, 0, random.Random(3))
    data = deal.to_json()
    if "Ks" in data["hands"][0]:
        data["hands"][0].remove("Ks")
        data["stock"].append("Ks")
    data[field] = value
    with pytest.raises(KonkunError, match=named):
        KunkenDeal.from_json(data)
