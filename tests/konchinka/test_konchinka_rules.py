"""Every rule of RULES.md's Konchinka part, one test (or a few) per rule, named after it;
the source text's examples are tests too."""

from __future__ import annotations

import itertools
import random

import pytest

from konkun.cards import Card, draw_for_dealer, parse_cards, rng_for_seed, standard_deck
from konkun.errors import GameOverError, IllegalMoveError
from konkun.konchinka import (
    CLASSIC,
    NOVO,
    KonchinkaMatch,
    KonchinkaRules,
    Move,
    deal_from_deck,
    new_deal,
    parse_kpn,
)


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def move(text: str) -> Move:
    return Move.parse(text)


def legal(kpn: str, rules: KonchinkaRules | None = None) -> set[Move]:
    return set(parse_kpn(kpn, rules).legal_actions())


def expect(*texts: str) -> set[Move]:
    return {Move.parse(t) for t in texts}


def deck_with(prefix: str) -> list[Card]:
    """A 52-card deck starting with the given cards, the rest in index order."""
    head = cards(prefix)
    return head + [c for c in standard_deck() if c not in head]


# ---------------------------------------------------------------- players, seats, dealer


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_players_two_to_four(seats: int) -> None:
    deal = new_deal(CLASSIC, seats, 0, random.Random(seats))
    assert deal.num_seats == seats
    assert all(len(h) == 4 for h in deal.hands)


@pytest.mark.parametrize("seats", [1, 5])
def test_players_outside_two_to_four_rejected(seats: int) -> None:
    with pytest.raises(ValueError, match="seats"):
        new_deal(CLASSIC, seats, 0, random.Random(0))


def test_first_dealer_by_drawing_highest_rank_ties_draw_again() -> None:
    for seed in range(200):
        match = KonchinkaMatch(CLASSIC, 3, seed)
        rounds = match.dealer_draws
        for draws in rounds[:-1]:  # every earlier round had a shared highest rank
            best = max(c.rank or 0 for c in draws.values())
            assert sum(1 for c in draws.values() if c.rank == best) > 1
        final = rounds[-1]
        best = max(c.rank or 0 for c in final.values())
        winners = [s for s, c in final.items() if c.rank == best]
        assert winners == [match.first_dealer]
        # only the tied players draw again
        for earlier, later in itertools.pairwise(rounds):
            top = max(c.rank or 0 for c in earlier.values())
            assert set(later) == {s for s, c in earlier.items() if c.rank == top}


def test_first_dealer_uses_the_record_seed() -> None:
    rng = rng_for_seed(99)
    dealer, _ = draw_for_dealer(4, rng)
    assert KonchinkaMatch(CLASSIC, 4, 99).first_dealer == dealer


def test_deal_rotates_to_the_left() -> None:
    match = KonchinkaMatch(CLASSIC, 3, 5)
    chooser = random.Random(1)
    while match.deal_number < 4 and not match.is_over():
        match.play(chooser.choice(match.legal_actions()))
    dealers = match.to_json(None)["dealers"]
    for before, after in itertools.pairwise(dealers):
        assert after == (before + 1) % 3


# ---------------------------------------------------------------- the deal


def test_deal_four_rounds_one_card_each_from_dealer_left_then_one_to_table() -> None:
    deck = standard_deck()  # 2c 3c 4c 5c ... : table cards 5c 9c Kc 4d are all distinct
    deal = deal_from_deck(CLASSIC, 3, 0, deck, random.Random(0))
    # round r: seat 1, seat 2, seat 0 (the dealer), then the table
    assert set(deal.hand(1)) == {deck[0], deck[4], deck[8], deck[12]}
    assert set(deal.hand(2)) == {deck[1], deck[5], deck[9], deck[13]}
    assert set(deal.hand(0)) == {deck[2], deck[6], deck[10], deck[14]}
    assert set(deal.table) == {deck[3], deck[7], deck[11], deck[15]}
    assert deal.stock == deck[16:]
    assert deal.to_move == 1  # the seat left of the dealer plays first


def test_deal_leaves_the_rest_as_stock() -> None:
    for seats in (2, 3, 4):
        deal = new_deal(CLASSIC, seats, seats - 1, random.Random(seats))
        assert deal.stock_size == 52 - 4 - 4 * seats
        assert deal.to_move == 0


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_stock_divides_evenly_into_redeals(seats: int) -> None:
    fixed = False
    for rules in (CLASSIC, NOVO):
        for seed in range(20):
            rng = random.Random(seed)
            deal = new_deal(rules, seats, seed % seats, rng)
            fixed = fixed or bool(deal.returned_to_stock)
            while not deal.is_over():
                assert deal.stock_size % (4 * seats) == 0, deal.kpn()
                deal.push(rng.choice(deal.legal_actions()))
    assert fixed, "no deal needed the initial-table fix"


def test_cut_and_shuffle_reproducible_from_the_rng_state() -> None:
    first = new_deal(CLASSIC, 3, 1, random.Random(12))
    second = new_deal(CLASSIC, 3, 1, random.Random(12))
    assert first.kpn() == second.kpn()
    assert first.kpn() != new_deal(CLASSIC, 3, 1, random.Random(13)).kpn()


# ---------------------------------------------------------------- the initial table


def test_initial_table_may_not_hold_a_jack() -> None:
    for seed in range(300):
        deal = new_deal(CLASSIC, 2, seed % 2, random.Random(seed))
        assert all(c.rank != 11 for c in deal.table)


def test_initial_table_may_not_hold_two_cards_of_a_rank() -> None:
    for seed in range(300):
        for rules in (CLASSIC, NOVO):
            deal = new_deal(rules, 3, seed % 3, random.Random(seed))
            ranks = [c.rank for c in deal.table]
            assert len(set(ranks)) == 4


def test_initial_table_two_kings_then_a_seven_source_example() -> None:
    # Рис. 181: two Kings on the table; the later King goes back into the stock, the top
    # stock card is a seven, but a seven is already on the table: it goes back too.
    # 2 seats, dealer 0; per round: seat 1, seat 0, table.  Table: Kc 7c 3h Kd.
    deck = deck_with("2s 4s Kc  5s 6s 7c  8s 9s 3h  Ts Qs Kd  7h 9d")
    deal = deal_from_deck(CLASSIC, 2, 0, deck, random.Random(3))
    assert set(deal.table) == set(cards("Kc 7c 3h 9d"))
    stock = deal.stock
    assert Card.parse("Kd") in stock and Card.parse("7h") in stock
    assert len(stock) == 40
    returned = {c for c, _ in deal.returned_to_stock}
    assert returned == set(cards("Kd 7h"))


def test_initial_table_returned_card_goes_into_the_middle_half_of_the_stock() -> None:
    deck = deck_with("2s 4s Kc  5s 6s 7c  8s 9s 3h  Ts Qs Kd  9d")
    seen = set()
    for seed in range(400):
        deal = deal_from_deck(CLASSIC, 2, 0, deck, random.Random(seed))
        # the stock had 40 cards when Kd went back: position 10..30 counted from the
        # top, then the top card was dealt, so 9..29 now
        position = deal.stock.index(Card.parse("Kd"))
        assert 9 <= position <= 29
        seen.add(position)
    assert {9, 29} <= seen  # both ends of the middle half are reachable
    assert len(seen) == 21


def test_initial_table_option_table_excludes_jacks_false_keeps_a_jack() -> None:
    deck = deck_with("2s 4s Jc  5s 6s 7c  8s 9s 3h  Ts Qs Kd")
    rules = CLASSIC.with_options({"table_excludes_jacks": "false"})
    deal = deal_from_deck(rules, 2, 0, deck, random.Random(0))
    assert Card.parse("Jc") in deal.table
    strict = deal_from_deck(CLASSIC, 2, 0, deck, random.Random(0))
    assert Card.parse("Jc") not in strict.table
    assert Card.parse("Jc") in strict.stock


def test_initial_table_excludes_jacks_in_novo_too_by_default() -> None:
    deck = deck_with("2s 4s Jc  5s 6s 7c  8s 9s 3h  Ts Qs Kd")
    deal = deal_from_deck(NOVO, 2, 0, deck, random.Random(0))
    assert Card.parse("Jc") not in deal.table


# ---------------------------------------------------------------- values and captures


def test_classic_values_ace_one_pips_ten_queen_king_ten() -> None:
    kpn = "classic {table} {hand}/2h - -/- 0 1 -"
    assert move("Ks:Qd") in legal(kpn.format(table="Qd", hand="Ks"))
    assert move("Ks:Td") in legal(kpn.format(table="Td", hand="Ks"))
    assert move("Qs:Kd") in legal(kpn.format(table="Kd", hand="Qs"))
    assert move("Ts:Kd") in legal(kpn.format(table="Kd", hand="Ts"))
    assert move("As:Ad") in legal(kpn.format(table="Ad", hand="As"))
    assert move("9s:5d4d") in legal(kpn.format(table="5d4d", hand="9s"))
    assert move("Ks:9dAd") in legal(kpn.format(table="9dAd", hand="Ks"))  # A counts 1
    assert not any(m.is_capture for m in legal(kpn.format(table="Ad", hand="Ks")))


def test_novo_values_ace_one_pips_jack_eleven_queen_twelve_king_thirteen() -> None:
    kpn = "novo {table} {hand}/2h - -/- 0 1 -"
    assert move("Js:9d2d") in legal(kpn.format(table="9d2d", hand="Js"))
    assert move("Qs:Td2d") in legal(kpn.format(table="Td2d", hand="Qs"))
    assert move("Ks:Jd2d") in legal(kpn.format(table="Jd2d", hand="Ks"))
    assert move("Ts:9dAd") in legal(kpn.format(table="9dAd", hand="Ts"))
    assert move("Qs:Kd") not in legal(kpn.format(table="Kd", hand="Qs"))
    assert move("Ts:Kd") not in legal(kpn.format(table="Kd", hand="Ts"))


def test_capture_by_rank() -> None:
    assert move("Ks:Kd") in legal("classic Kd3h Ks/2h - -/- 0 1 -")
    assert move("3s:3h") in legal("classic Kd3h 3s/2h - -/- 0 1 -")
    assert move("Ks:Kd") in legal("novo Kd3h Ks/2h - -/- 0 1 -")


def test_capture_by_sum_queen_takes_ace_seven_two_source_example() -> None:
    # Рис. 180: table A, 7, 2 and a Queen; a Queen in hand may take the Queen, or better
    # A + 7 + 2 (10 points, the Queen's value).
    moves = legal("classic As7h2cQd Qh/5s - -/- 0 1 -")
    assert expect("Qh", "Qh:Qd", "Qh:As7h2c") == moves
    deal = parse_kpn("classic As7h2cQd Qh/5s - -/- 0 1 -")
    deal.play(move("Qh:2c7hAs"))
    assert set(deal.captured(0)) == set(cards("Qh As 7h 2c"))
    assert deal.table == cards("Qd")


def test_capture_takes_any_set_adding_up_to_the_value() -> None:
    moves = legal("classic 9d6d5d4d3d2dAd Th/5s - -/- 0 1 -")
    captures = {m for m in moves if m.is_capture}
    expected: set[Move] = set()
    table = cards("9d6d5d4d3d2dAd")
    values = {c: (1 if c.rank == 14 else int(c.rank or 0)) for c in table}
    for mask in range(1, 1 << len(table)):
        chosen = [c for i, c in enumerate(table) if mask >> i & 1]
        if sum(values[c] for c in chosen) == 10:
            expected.add(Move.capture(Card.parse("Th"), chosen))
    assert captures == expected


def test_classic_jack_takes_the_whole_table() -> None:
    moves = legal("classic As7h2cQd Jh/5s - -/- 0 1 -")
    assert moves == expect("Jh", "Jh:AsQd7h2c")
    deal = parse_kpn("classic As7h2cQd Jh/5s - -/- 0 1 -")
    with pytest.raises(IllegalMoveError, match="whole table"):
        deal.play(move("Jh:Qd"))
    deal.play(move("Jh:As7h2cQd"))
    assert deal.table == []
    assert len(deal.captured(0)) == 5


def test_classic_jack_with_empty_table_only_trails() -> None:
    assert legal("classic - Jh/5s - -/- 0 1 -") == expect("Jh")


def test_classic_jack_on_the_table_is_taken_only_by_a_jack() -> None:
    moves = legal("classic JdTh Qs/5s - -/- 0 1 -")
    assert moves == expect("Qs", "Qs:Th")
    deal = parse_kpn("classic JdTh Qs/5s - -/- 0 1 -")
    with pytest.raises(IllegalMoveError, match="Jack"):
        deal.play(move("Qs:JdTh"))
    assert legal("classic JdTh Jc/5s - -/- 0 1 -") == expect("Jc", "Jc:JdTh")


def test_novo_jack_takes_only_eleven() -> None:
    moves = legal("novo As7h2cQd9d Jh/5s - -/- 0 1 -")
    assert moves == expect("Jh", "Jh:9d2c")
    assert move("Jh:As7h2cQd") not in moves


def test_novo_king_takes_thirteen_or_fourteen() -> None:
    # source: a King takes a King or 13, and also 14 (T+4, 8+6, Q+2, ...)
    moves = legal("novo Td4h8c6sQd2h Ks/5s - -/- 0 1 -")
    assert expect("Ks:Td4h", "Ks:8c6s", "Ks:Qd2h") <= moves  # 14
    moves13 = legal("novo Td3h Ks/5s - -/- 0 1 -")
    assert move("Ks:Td3h") in moves13  # 13
    assert move("Ks:Kd") in legal("novo Kd Ks/5s - -/- 0 1 -")
    assert move("Ks:Td") not in legal("novo Td Ks/5s - -/- 0 1 -")
    assert move("Ks:Td2h3c") not in legal("novo Td2h3c Ks/5s - -/- 0 1 -")  # 15


def test_novo_jack_has_value_eleven_on_the_table() -> None:
    assert move("Qs:JdAh") in legal("novo JdAh Qs/5s - -/- 0 1 -")


def test_one_capture_per_move_never_two_sets() -> None:
    deal = parse_kpn("classic As7h2cQd Qh/5s - -/- 0 1 -")
    with pytest.raises(IllegalMoveError, match="add up to 20"):
        deal.play(move("Qh:QdAs7h2c"))
    assert deal.kpn() == "classic AsQd7h2c Qh/5s - -/- 0 1 -"


def test_capture_of_cards_not_on_the_table_is_illegal() -> None:
    deal = parse_kpn("classic As7h2cQd Qh/5s - -/- 0 1 -")
    with pytest.raises(IllegalMoveError, match="not on the table"):
        deal.play(move("Qh:Qc"))


def test_the_played_card_must_be_in_the_hand_of_the_seat_to_move() -> None:
    deal = parse_kpn("classic As7h2cQd Qh/5s - -/- 0 1 -")
    with pytest.raises(IllegalMoveError, match="not in the hand of seat 0"):
        deal.play(move("5s"))


def test_trail_always_allowed_even_when_a_capture_is_possible() -> None:
    assert move("Qh") in legal("classic As7h2cQd Qh/5s - -/- 0 1 -")
    assert move("Jh") in legal("classic As7h2cQd Jh/5s - -/- 0 1 -")


def test_option_capture_compulsory_forbids_trailing_a_card_that_can_capture() -> None:
    rules = CLASSIC.with_options({"capture_compulsory": "true"})
    moves = legal("classic As7h2cQd Qh5s/5c - -/- 0 1 -", rules)
    assert moves == expect("Qh:Qd", "Qh:As7h2c", "5s")  # 5s cannot capture: it may be trailed
    deal = parse_kpn("classic As7h2cQd Qh5s/5c - -/- 0 1 -", rules)
    with pytest.raises(IllegalMoveError, match="capture_compulsory"):
        deal.play(move("Qh"))


def test_empty_table_only_trails() -> None:
    assert legal("classic - KsQh5s/5c - -/- 0 1 -") == expect("Ks", "Qh", "5s")
    assert legal("novo - KsQh5s/5c - -/- 0 1 -") == expect("Ks", "Qh", "5s")


def test_no_passing_a_move_plays_exactly_one_card() -> None:
    deal = parse_kpn("classic As KsQh/5c - -/- 0 1 -")
    before = len(deal.hand(0))
    deal.play(deal.legal_actions()[0])
    assert len(deal.hand(0)) == before - 1
    with pytest.raises(ValueError, match="move"):
        deal.parse_action("")


def test_two_moves_are_the_same_exactly_when_same_card_and_same_set() -> None:
    moves = parse_kpn("classic 5d5h Ts/5c - -/- 0 1 -").legal_actions()
    texts = [m.text() for m in moves]
    assert texts.count("Ts:5d5h") == 1
    assert move("Ts:5h5d") == move("Ts:5d5h")
    ones = parse_kpn("classic 5d5hAc4c Ts/5c - -/- 0 1 -").legal_actions()
    assert expect("Ts:5d4cAc", "Ts:5h4cAc", "Ts:5d5h") <= set(ones)  # equal values, distinct sets
    assert len(ones) == len(set(ones))


def test_play_continues_to_the_left() -> None:
    deal = parse_kpn("classic - 2c3c/2d3d/2h3h - -/-/- 1 0 -")
    deal.play(move("2d"))
    assert deal.to_move == 2
    deal.play(move("2h"))
    assert deal.to_move == 0


# ---------------------------------------------------------------- redeal and the end


def test_redeal_when_every_hand_is_empty_four_cards_each_none_to_table() -> None:
    stock = "2c3c4c5c6c7c8c9c"
    deal = parse_kpn(f"classic Kh 9s/- {stock} -/- 0 0 -")
    deal.play(move("9s"))
    # from the seat left of the dealer (1), one at a time: 2c->1, 3c->0, 4c->1, ...
    assert set(deal.hand(1)) == set(cards("2c4c6c8c"))
    assert set(deal.hand(0)) == set(cards("3c5c7c9c"))
    assert set(deal.table) == set(cards("Kh9s"))
    assert deal.stock == []
    assert deal.to_move == 1  # the seat left of the dealer


def test_redeal_player_to_move_is_left_of_dealer_in_real_play() -> None:
    deal = new_deal(CLASSIC, 3, 2, random.Random(4))
    chooser = random.Random(5)
    for _ in range(12):
        deal.play(chooser.choice(deal.legal_actions()))
    assert all(len(h) == 4 for h in deal.hands)
    assert deal.to_move == 0


def test_end_of_deal_table_goes_to_the_last_capturer() -> None:
    deal = parse_kpn("classic 5h 9c/- - Kc/QdQs 0 1 1")
    deal.play(move("9c"))
    assert deal.is_over()
    assert set(deal.captured(1)) == set(cards("QdQs5h9c"))
    assert deal.table == []
    assert deal.final_sweep == cards("9c5h")


def test_end_of_deal_without_any_capture_the_table_counts_for_nobody() -> None:
    deal = parse_kpn("classic 5h 9c/- - -/- 0 1 -")
    deal.play(move("9c"))
    assert deal.is_over()
    assert deal.piles == [[], []]
    assert deal.points() == [0, 0]


def test_moves_after_the_end_of_the_deal_are_game_over() -> None:
    deal = parse_kpn("classic 5h 9c/- - -/- 0 1 -")
    deal.play(move("9c"))
    assert deal.legal_actions() == []
    with pytest.raises(GameOverError):
        deal.play(move("9c"))


# ---------------------------------------------------------------- score of a deal


def finished(piles: str, rules: KonchinkaRules | None = None) -> list[int]:
    last = next(i for i, p in enumerate(piles.split("/")) if p != "-")
    return parse_kpn(f"classic - -/-/- - {piles} 0 0 {last}", rules).points()


def test_score_two_points_for_strictly_most_cards() -> None:
    assert finished("AsKsQs/9h/8h") == [2, 0, 0]


def test_score_one_point_for_strictly_most_clubs() -> None:
    assert finished("AcKc/QsJsTs/9h") == [1, 2, 0]


def test_score_two_of_clubs_and_ten_of_diamonds_one_point_each_source_konchinki() -> None:
    # seat 0: most cards (2), most clubs (1), the 2 of clubs (1); seat 1: the 10 of diamonds
    assert finished("2cAs/Td/9h") == [4, 1, 0]


def test_score_konchinki_both_to_one_player_two_points() -> None:
    assert finished("2cTd/AsKsQs/9h") == [1 + 2, 2, 0]
    assert finished("2cTd9h/AsKs/Qs") == [2 + 1 + 2, 0, 0]


def test_score_tie_for_most_cards_scores_nobody() -> None:
    assert finished("AsKs/QsJs/9h") == [0, 0, 0]


def test_score_tie_for_most_clubs_scores_nobody() -> None:
    assert finished("AcKsQs/QcJsTs/9h") == [0, 0, 0]


def test_option_tie_points_all_gives_every_tied_player_the_points() -> None:
    rules = CLASSIC.with_options({"tie_points": "all"})
    assert finished("AcKs/QcJs/9h", rules) == [3, 3, 0]


def test_option_tie_points_split_shares_rounded_down() -> None:
    rules = CLASSIC.with_options({"tie_points": "split"})
    assert finished("AcKs/QcJs/9h", rules) == [1, 1, 0]


def test_score_a_deal_is_worth_at_most_five_points() -> None:
    for seed in range(100):
        deal = new_deal(CLASSIC if seed % 2 else NOVO, 2 + seed % 3, 0, random.Random(seed))
        deal.random_playout(random.Random(seed))
        assert sum(deal.points()) <= 5
