"""Every rule of RULES.md's Kunken part, one test (or a few) named after it, and the source
text's examples (seeds/kunken.ru.txt)."""

from __future__ import annotations

import random

import pytest

from konkun.cards import double_deck, draw_for_dealer, rng_for_seed, shuffled
from konkun.errors import IllegalMoveError, InvalidNotationError, InvalidRuleError
from konkun.kunken import KunkenMatch, KunkenRules, new_deal
from konkun.kunken.state import DRAWN, OVER, START, TAKEN, cards_of

from .helpers import card, position, texts

# ------------------------------------------------------------------ players, cards, deal


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_players_two_to_five(seats: int) -> None:
    deal = new_deal(KunkenRules(), seats, 0, random.Random(1))
    assert deal.num_seats == seats


@pytest.mark.parametrize("seats", [1, 6])
def test_players_not_one_or_six(seats: int) -> None:
    # a seat count is a rule of the table: the same error as in every other game and layer
    with pytest.raises(InvalidRuleError, match="2 to 5 players"):
        new_deal(KunkenRules(), seats, 0, random.Random(1))


@pytest.mark.parametrize(("jokers", "total"), [(4, 108), (2, 106)])
def test_cards_two_decks_and_jokers_option(jokers: int, total: int) -> None:
    deal = new_deal(KunkenRules(jokers=jokers), 3, 0, random.Random(2))
    cards = sum(sum(h) for h in deal.hands) + len(deal.stock) + len(deal.bank)
    assert cards == total
    joker_count = sum(h[52] for h in deal.hands) + deal.stock.count(52) + deal.bank.count(52)
    assert joker_count == jokers


def test_deal_thirteen_each_one_at_a_time_from_the_left_of_the_dealer() -> None:
    pack = [c.index for c in shuffled(double_deck(4), random.Random(7))]
    deal = new_deal(KunkenRules(), 3, 1, random.Random(7))
    # seat 2 (left of dealer 1) gets the 1st, 4th, 7th ... card, then seat 0, then the dealer
    for offset, seat in enumerate([2, 0, 1]):
        assert sorted(cards_of(deal.hands[seat])) == sorted(pack[offset:39:3])
    assert deal.bank == [pack[39]]                    # one card face up starts the bank
    assert deal.stock[::-1] == pack[40:]              # the rest is the stock, in order
    assert deal.to_move == 2                          # play starts left of the dealer


def test_first_dealer_by_drawing_cards_then_the_deal_rotates_left() -> None:
    rng = rng_for_seed(11)
    dealer, _rounds = draw_for_dealer(3, rng)
    match = KunkenMatch(KunkenRules(), 3, 11)
    assert match.deal.dealer == dealer
    for deals in (1, 2):                              # the match has 3 deals (one per player)
        _play_out(match, 1)
        assert not match.is_over()
        assert match.deal.dealer == (dealer + deals) % 3   # left: the next seat number


def test_the_deal_for_a_seed_is_reproducible() -> None:
    a = new_deal(KunkenRules(), 4, 2, rng_for_seed("table-7"))
    b = new_deal(KunkenRules(), 4, 2, rng_for_seed("table-7"))
    assert a.to_json() == b.to_json()


# ------------------------------------------------------------------ values and scoring


def test_values_aces_and_faces_ten_others_five_joker_in_hand_ten() -> None:
    deal = position(["Ac Kd Qh Js Td 2c X", "5h"], "9c")
    deal.phase = OVER
    deal.to_move = None
    assert deal.points() == [-(10 * 4 + 5 + 5 + 10), -5]


def test_score_plus_table_cards_minus_hand_cards() -> None:
    deal = position(["9c 9d", "4h"], "2s", melds=[(0, "Kc Kd Kh"), (1, "3d 4d 5d")])
    deal.melds[1].lay_off(card("6d"), 0)          # seat 0 laid off 6d on seat 1's meld
    deal.phase = OVER
    deal.to_move = None
    assert deal.points() == [30 + 5 - 10, 15 - 5]


def test_joker_in_a_meld_worth_the_card_it_stands_for() -> None:
    deal = position(["2c", "2d"], "2s", melds=[(0, "X Kh Ah"), (1, "5h X 7h")])
    deal.phase = OVER
    deal.to_move = None
    assert deal.points() == [30 - 5, 15 - 5]


# ------------------------------------------------------------------ the draw turn


def test_draw_then_discard() -> None:
    deal = position(["Kc Kd 5h", "2c 3c 4c"], "9s", stock="7d")
    deal.play("draw")
    assert deal.phase == DRAWN
    assert sorted(texts(deal)) == sorted(["discard 5h", "discard 7d", "discard Kc", "discard Kd"])
    deal.play("discard 5h")
    assert deal.bank == [card("9s"), card("5h")] and deal.to_move == 1 and deal.phase == START


def test_draw_turn_lays_nothing_down() -> None:
    deal = position(["Kc Kd Kh 5h", "2c 3c 4c"], "9s", stock="7d")
    deal.play("draw")
    assert not any(t.startswith(("meld", "layoff")) for t in texts(deal))
    with pytest.raises(IllegalMoveError, match="draw"):
        deal.play("meld Kc Kd Kh")


def test_discard_is_compulsory() -> None:
    deal = position(["Kc Kd 5h", "2c 3c 4c"], "9s", stock="7d")
    deal.play("draw")
    assert deal.to_move == 0
    with pytest.raises(IllegalMoveError):
        deal.play("draw")
    with pytest.raises(IllegalMoveError, match="already drawn"):
        deal.play("take 0")
    legal = texts(deal)                 # only swaps and discards, and a discard ends the turn
    assert any(t.startswith("discard") for t in legal)
    assert all(t.startswith(("discard", "swap")) for t in legal)
    assert deal.to_move == 0 and deal.phase == DRAWN
    deal.play("discard Kc")
    assert deal.to_move == 1 and deal.phase == START


# ------------------------------------------------------------------ the take


def test_take_the_bank_from_a_card_takes_it_and_every_later_card() -> None:
    deal = position(["Qc Qd 2h 9s 9d", "2c 3c 4c"], "7c Qh 3s 8d", layout=[True, False])
    assert "take 1" in texts(deal)
    deal.play("take 1")
    assert deal.bank == [card("7c")]
    assert deal.hand_sizes[0] == 5 + 3
    assert deal.phase == TAKEN


def test_third_card_rule_needs_two_cards_held_before_the_take() -> None:
    # Qh would make Qc Qd Qh; with only Qc held, a later Qd from the bank does not count
    deal = position(["Qc 2h 9s 5d 7d", "2c 3c 4c"], "Qh Qd", layout=[True, False])
    assert "take 0" not in texts(deal)
    with pytest.raises(IllegalMoveError, match="two cards held before"):
        deal.play("take 0")
    deal2 = position(["Qc Qs 9s 5d 7d", "2c 3c 4c"], "Qh Qd", layout=[True, False])
    assert texts(deal2) == ["draw", "take 0", "take 1"]


def test_third_card_rule_the_taken_card_as_a_fourth_or_fifth_card() -> None:
    # the source: "Эта карта из банка может быть также и четвертой или пятой картой"
    deal = position(["4h 5h 9s Kd", "2c 3c 4c"], "7h 6h", layout=[True, False])
    assert "take 0" in texts(deal)          # 7h with 4h 5h (held) and 6h (taken): 4th card
    deal.play("take 0")
    assert "discard 9s" not in texts(deal)  # the taken card must first be melded
    deal.play("meld 4h 5h 6h 7h")
    deal.play("discard 9s")
    assert deal.to_move == 1
    fifth = position(["3h 4h 5h 9s Kd", "2c 3c 4c"], "7h 6h", layout=[True, False])
    fifth.play("take 0")
    fifth.play("meld 3h 4h 5h 6h 7h")        # 7h is the fifth card
    fifth.play("discard Kd")


def test_third_card_rule_a_meld_without_the_taken_card_does_not_satisfy_it() -> None:
    deal = position(["Kc Kd Ks 5h 6h 2c", "2d 3d 4d"], "7h", layout=[True, False])
    deal.play("take 0")
    legal = texts(deal)
    assert "meld 5h 6h 7h" in legal
    assert "meld Kc Kd Ks" in legal
    deal.play("meld Kc Kd Ks")
    with pytest.raises(IllegalMoveError, match="taken card 7h must first be melded"):
        deal.play("discard 2c")


def test_source_example_take_from_5d_with_three_kings_and_3d_4d_6d_for_50() -> None:
    # "можно взять банк с бубновой пятерки, предъявив ... 3 разномастных короля и ...
    #  бубновые тройку, четверку и шестерку"
    deal = position(["Kc Kh Ks 3d 4d 6d 9c 2s", "2c 3c 4c"], "Tc 5d")
    assert "take 1" in texts(deal)
    deal.play("take 1")
    deal.play("meld Kc Kh Ks")
    with pytest.raises(IllegalMoveError, match="must first be melded"):
        deal.play("discard 9c")             # the taken card not yet melded
    deal.play("meld 3d 4d 5d 6d")           # 30 + 20 = 50: the 5d counts
    deal.play("discard 9c")
    assert deal.layout[0]


def test_opening_minimum_fifty_points() -> None:
    # Kc Kh Ks + 3d 4d 5d = 45 < 50: no take from 5d
    deal = position(["Kc Kh Ks 3d 4d 9c 2s", "2c 3c 4c"], "Tc 5d")
    assert texts(deal) == ["draw"]
    with pytest.raises(IllegalMoveError, match="opening worth 50"):
        deal.play("take 1")


def test_opening_minimum_option() -> None:
    rules = KunkenRules(opening_minimum=40)
    deal = position(["Kc Kh Ks 3d 4d 9c 2s", "2c 3c 4c"], "Tc 5d", rules=rules)
    assert "take 1" in texts(deal)


def test_no_minimum_after_the_layout() -> None:
    deal = position(["3d 4d 9c 2s", "2c 3c 4c"], "Tc 5d", melds=[(0, "Kc Kh Ks")])
    assert "take 1" in texts(deal)
    deal.play("take 1")
    deal.play("meld 3d 4d 5d")
    deal.play("discard 9c")


def test_layoffs_do_not_count_toward_the_opening() -> None:
    # Kc Kh Ks (30) + 3d 4d 5d (15) + laying 2h off onto seat 1's hearts (5): still 45
    deal = position(["Kc Kh Ks 3d 4d 2h 9c", "Tc"], "Jc 5d", melds=[(1, "3h 4h 5h")])
    assert "take 1" not in texts(deal)


def test_layoff_onto_any_meld_scores_for_the_one_who_lays_off() -> None:
    deal = position(["Kc Kh Ks 3d 4d 6d 2h 9c 8s", "Tc"], "Jc 5d", melds=[(1, "3h 4h 5h")])
    deal.play("take 1")
    deal.play("meld Kc Kh Ks")
    deal.play("meld 3d 4d 5d 6d")
    assert "layoff 2h 0" in texts(deal)
    deal.play("layoff 2h 0")
    assert deal.melds[0].owner == 1
    assert deal.melds[0].laid_by == [0, 1, 1, 1]
    deal.play("discard 9c")
    plus = [0, 0]
    for meld in deal.melds:
        for slot, seat in zip(meld.slots, meld.laid_by, strict=True):
            plus[seat] += 5 if slot % 13 < 9 else 10
    assert plus == [30 + 20 + 5, 15]


def test_further_melds_and_layoffs_with_the_taken_cards() -> None:
    deal = position(["Kc Kh 3d 4d 9c 8s", "Tc"], "Ks 5d 6d Ah", layout=[True, False],
                    melds=[(1, "Jh Qh Kh")])
    deal.play("take 0")
    deal.play("meld Kc Kh Ks")
    deal.play("meld 3d 4d 5d 6d")
    deal.play("layoff Ah 0")                 # a taken card laid off onto another's meld
    deal.play("discard 9c")


def test_cannot_lay_down_the_last_card() -> None:
    deal = position(["Kc Kh", "Tc"], "Ks", layout=[True, False])
    # taking Ks would lay down Kc Kh Ks with nothing left to discard
    assert "take 0" not in texts(deal)
    deal2 = position(["Kc Kh 2d", "Tc"], "Ks", layout=[True, False])
    deal2.play("take 0")
    assert "meld Kc Kh Ks" in texts(deal2)
    deal2.play("meld Kc Kh Ks")
    assert texts(deal2) == ["discard 2d"]


def test_going_out_with_the_last_discard_wins_the_deal() -> None:
    deal = position(["Kc Kh 2d", "Tc 9c"], "Ks", melds=[(0, "5s 6s 7s")])
    deal.play("take 0")
    deal.play("meld Kc Kh Ks")
    deal.play("discard 2d")
    assert deal.is_over() and deal.winner == 0 and not deal.express
    assert deal.points() == [15 + 30, -10]


def test_express_doubles_the_winner_plus_and_the_others_minus() -> None:
    deal = position(["Kc Kh Ks Qd Qh 2d", "Tc 9c", "Ac"], "Qs", melds=[(1, "5s 6s 7s")])
    deal.play("take 0")
    deal.play("meld Kc Kh Ks")
    deal.play("meld Qd Qh Qs")
    deal.play("discard 2d")
    assert deal.winner == 0 and deal.express
    # winner 60 doubled; seat 1 table 15 as usual, hand 10 doubled; seat 2 hand 10 doubled
    assert deal.points() == [120, 15 - 20, -20]


# ------------------------------------------------------------------ jokers


def test_source_example_swap_the_joker_in_joker_ad_ah_for_ac_or_as() -> None:
    # "в комбинации "джокер и два туза - бубновый и червовый" игрок может ... обменять
    #  джокера на трефового или пикового туза"
    deal = position(["Ac As Ad 2c 3c", "Tc"], "9s", stock="8h",
                    melds=[(1, "X Ad Ah"), (0, "5s 6s 7s")])
    deal.play("draw")
    legal = texts(deal)
    assert "swap 0 Ac" in legal and "swap 0 As" in legal
    assert "swap 0 Ad" not in legal
    with pytest.raises(IllegalMoveError, match="no joker"):
        deal.play("swap 0 Ad")
    deal.play("swap 0 As")
    assert deal.hands[0][52] == 1
    assert deal.melds[0].owner == 1 and deal.melds[0].value() == 30
    assert deal.melds[0].laid_by == [1, 1, 1]


def test_joker_swap_needs_a_layout() -> None:
    deal = position(["Ac 2c 3c", "Tc"], "9s", stock="8h", melds=[(1, "X Ad Ah")])
    deal.play("draw")
    assert not any(t.startswith("swap") for t in texts(deal))
    with pytest.raises(IllegalMoveError, match="laid down a meld"):
        deal.play("swap 0 Ac")


def test_joker_swap_in_a_sequence_needs_the_card_it_stands_for() -> None:
    deal = position(["6h 7h 2c", "Tc"], "9s", stock="8d",
                    melds=[(1, "5h X=6h 7h"), (0, "Kc Kd Ks")])
    deal.play("draw")
    assert "swap 0 6h" in texts(deal)
    assert "swap 0 7h" not in texts(deal)


def test_joker_swap_after_opening_in_the_same_turn() -> None:
    deal = position(["Kc Kh Ks Qd Qh 2d Ac 9s", "Tc"], "Qs", melds=[(1, "X Ad Ah")])
    deal.play("take 0")
    assert not any(t.startswith("swap") for t in texts(deal))
    deal.play("meld Kc Kh Ks")
    assert "swap 0 Ac" in texts(deal)


def test_set_joker_suit_stays_open_until_the_swap() -> None:
    deal = position(["Kc Kd X 2c", "Tc"], "Ks", layout=[True, False])
    deal.play("take 0")
    legal = texts(deal)
    assert "meld Kc Ks X" in legal            # the joker's suit left open
    deal.play("meld Kc Ks X")
    assert deal.melds[0].to_json()["stands_for"] == [None, None, None]


def test_laying_off_a_joker_within_the_joker_limit_on_a_take_turn() -> None:
    deal = position(["X 4s 5s 9d", "Tc"], "6s", melds=[(1, "5h X=6h 7h 8h"),
                                                     (0, "Kc Kh Ks")])
    deal.play("take 0")
    deal.play("meld 4s 5s 6s")
    legal = texts(deal)
    assert "layoff X=4h 0" in legal and "layoff X=9h 0" in legal   # 2 of 5 jokers
    deal2 = position(["X 4s 5s 9d", "Tc"], "6s", melds=[(1, "X=4h 5h X=6h 7h"),
                                                      (0, "Kc Kh Ks")])
    deal2.play("take 0")
    deal2.play("meld 4s 5s 6s")
    assert not any(t.startswith("layoff X") and t.endswith(" 0") for t in texts(deal2))


def test_a_joker_stands_for_one_definite_card_declared_where_not_forced() -> None:
    deal = position(["5h 6h X 2c 9d", "Tc"], "7c", melds=[(0, "Kc Kh Ks")])
    top = deal.stock[-1]
    held = deal.hands[0][top]
    deal.play("draw")                         # a draw turn lays nothing down: the joker stays
    assert deal.hands[0][top] == held + 1 and deal.hand_sizes[0] == 6
    assert all(t.startswith(("discard", "swap")) for t in texts(deal))
    deal.play("discard 9d")
    assert deal.bank[-1] == card("9d") and deal.to_move == 1
    assert deal.hands[0][52] == 1 and deal.hand_sizes[0] == 5
    deal = position(["5h 6h X 2c 9d Kd", "Tc"], "7h", melds=[(0, "Kc Kh Ks")])
    deal.play("take 0")
    legal = texts(deal)
    assert "meld X=4h 5h 6h 7h" in legal and "meld 5h 6h 7h X=8h" in legal
    with pytest.raises(InvalidNotationError, match="declare"):
        deal.parse_action("meld X 5h 6h 7h")


def test_two_identical_cards_never_meet_in_one_meld() -> None:
    deal = position(["5h 5h 6h 7h 2c", "Tc"], "8h", melds=[(0, "Kc Kh Ks")])
    deal.play("take 0")
    assert not any(t.count("5h") > 1 for t in texts(deal))
    with pytest.raises(IllegalMoveError, match="identical"):
        deal.play("meld 5h 5h 6h 7h 8h")


# ------------------------------------------------------------------ empty stock


def test_empty_stock_turns_the_bank_face_down_oldest_first() -> None:
    deal = position(["2c 9d", "3c 8s"], "7h Td 4s", stock="")
    deal.play("draw")
    assert deal.renewals == 1
    assert deal.hands[0][card("7h")] == 1          # the oldest discard is drawn first
    assert deal.bank == [] and deal.stock[::-1] == [card("Td"), card("4s")]


def test_max_stock_renewals_then_the_deal_ends_with_no_winner() -> None:
    deal = position(["2c 9d", "3c 8s"], "7h", stock="",
                    rules=KunkenRules(max_stock_renewals=0))
    deal.play("draw")
    assert deal.is_over() and deal.winner is None
    assert deal.points() == [-10, -10]


def test_empty_stock_end_option() -> None:
    deal = position(["2c 9d", "3c 8s"], "7h", stock="", rules=KunkenRules(empty_stock="end"))
    deal.play("draw")
    assert deal.is_over() and deal.winner is None


def test_empty_stock_may_still_take_the_bank() -> None:
    deal = position(["Kc Kh 2d", "3c 8s"], "Ks", stock="", layout=[True, False],
                    rules=KunkenRules(empty_stock="end"))
    assert "take 0" in texts(deal)


# ------------------------------------------------------------------ the match


def _play_out(match: KunkenMatch, deals: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    start = len(match.deal_points)
    while not match.is_over() and len(match.deal_points) < start + deals:
        match.play(rng.choice(match.deal.legal_actions()))


def test_match_one_deal_per_player_by_default() -> None:
    match = KunkenMatch(KunkenRules(), 2, 5)
    _play_out(match, 10)
    assert match.is_over()
    assert len(match.deal_points) >= 2
    totals = [sum(p[s] for p in match.deal_points) for s in range(2)]
    assert match.totals == totals
    if len(match.deal_points) == 2:
        assert match.winner() == totals.index(max(totals))


def test_match_deals_option() -> None:
    match = KunkenMatch(KunkenRules(deals=1, tie="shared"), 3, 5)
    _play_out(match, 5)
    assert match.is_over() and len(match.deal_points) == 1


def test_match_target_option() -> None:
    match = KunkenMatch(KunkenRules(target=150, tie="shared"), 2, 3)
    _play_out(match, 50)
    assert match.is_over()
    assert max(match.totals) >= 150
    running = match.running_totals()
    assert all(max(r) < 150 for r in running[:-1])


def test_match_running_totals_kept_per_deal() -> None:
    match = KunkenMatch(KunkenRules(deals=3, tie="shared"), 2, 9)
    _play_out(match, 3)
    running = match.running_totals()
    assert len(running) == 3
    assert running[-1] == match.totals
    assert running[1] == [a + b for a, b in zip(match.deal_points[0], match.deal_points[1],
                                                 strict=True)]


def test_joker_for_held_option() -> None:
    # RULES.md: "any missing card" means missing from the meld, so by default a joker may
    # stand for a card the player holds; joker_for_held=false forbids it
    base = position(["5h 6h X 2c 9d", "Tc"], "7h", melds=[(0, "Kc Kh Ks")])
    base.play("take 0")
    assert "meld 5h X=6h 7h" in texts(base)
    base.play("meld 5h X=6h 7h")
    house = position(["5h 6h X 2c 9d", "Tc"], "7h", melds=[(0, "Kc Kh Ks")],
                     rules=KunkenRules(joker_for_held=False))
    house.play("take 0")
    assert "meld 5h X=6h 7h" not in texts(house)
    with pytest.raises(IllegalMoveError, match="holds"):
        house.play("meld 5h X=6h 7h")
