"""The C core's completion judge (``hand_search.completable``, run by
``completion.completable`` when built) against its Python reference
(``completion.reference_completable``): the same answers on the states of seeded play over
every rule option and 2-5 seats (each take turn's state, the state after each of its
candidate steps, and every state the search reaches), with and without the turn's joker
marks, on random tables and hands; the third-card bound it computes against
``third_card.shortest_third``; bad input refused with an error, never a crash; no
references or memory kept."""

from __future__ import annotations

import gc
import json
import os
import random
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from konkun.kunken import KunkenRules, completion, new_deal, solver, third_card
from konkun.kunken.state import KunkenDeal

from .helpers import memory_grown_by, seeded_play, unfinished_take_turns
from .test_hand_search_core import DOUBLE_DECK, VARIANTS, counts_of, require_c_core

CARDS = 52
Args = tuple[list[int], list[int], int, int, bool, bool, completion.Table, bool]


def c_module() -> Any:
    require_c_core()
    assert completion.C_JUDGE is not None
    from konkun.kunken import hand_search
    return hand_search


def forget() -> None:
    """Both judges start from empty memos (completion.forget_judged)."""
    completion.forget_judged()


def agree(args: Args, melds_fail: bool = False) -> bool:
    """The C judge and the reference answer ``args`` alike; the answer."""
    forget()
    expected = completion.reference_completable(*args, melds_fail)
    forget()
    assert completion.C_JUDGE is not None
    assert completion.C_JUDGE(*args, melds_fail) == expected, (args, melds_fail)
    return expected


def turn_args(deal: KunkenDeal) -> Args:
    seat = deal.to_move
    assert seat is not None
    return (list(deal.hands[seat]), list(deal.turn_notold), deal.take_card, deal.need,
            deal.pending, deal.layout[seat], deal.compact_table(), deal.rules.joker_for_held)


class Recorder:
    """Wraps the Python parts the C judge asks, recording the states its search reaches."""

    def __init__(self) -> None:
        self.states: list[Args] = []

    def search(self, *args: Any) -> bool:
        hand, notold, card, need, pending, layout, table, replace = args
        self.states.append((list(hand), list(notold), card, need, pending, layout, table,
                            replace))
        return bool(completion.search_completion(*args))

    def __enter__(self) -> Recorder:
        c_module().configure_judge(self.search)
        return self

    def __exit__(self, *exc: object) -> None:
        c_module().configure_judge(completion.search_completion)


def key_variants(args: Args) -> list[Args]:
    """A state the search reached, and the same with another layout, without the table's
    melds that hold no joker, with one more meld without jokers and with the other rule
    (what the judge's memo must tell apart, or may not, asked one after the other)."""
    hand, notold, card, need, pending, layout, table, replace = args
    jokers_only = tuple(m for m in table if completion.has_jokers(m))
    return [args, (hand, notold, card, need, pending, not layout, table, replace),
            (hand, notold, card, need, pending, layout, jokers_only, replace),
            (hand, notold, card, need, pending, layout, (*table, (0, 1, 3, 3, 0)), replace),
            (hand, notold, card, need, pending, layout, table, not replace)]


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_the_c_judge_answers_as_the_reference_in_seeded_play(seats: int) -> None:
    """Every rule option, seeded random deals: at each take turn still to be completed,
    the state now and after each candidate step, and the states the search reached (with
    :func:`key_variants`), each asked afresh and all asked in one run of the memo."""
    c_module()
    asked = searched = 0
    for _v, deal, _rng in seeded_play(VARIANTS, seats, lambda v: 300 * v + seats, 400):
        seat = deal.to_move
        assert seat is not None
        if deal.take_card >= 0 and not deal.obligations_met():
            states = [turn_args(turn) for turn in unfinished_take_turns(deal)]
            with Recorder() as recorder:
                forget()
                for args in states:
                    completion.completable(*args)
            states += [variant for args in recorder.states[:10]
                       for variant in key_variants(args)]
            searched += len(recorder.states)
            for args in states:
                agree(args)
                agree(args, True)
                asked += 1
            # The engine's judge keeps its memo across the questions of a turn: asked
            # in one run, each answer is still the reference's.
            expected = [completion.reference_completable(*args) for args in states]
            completion.forget_judged()
            assert [completion.completable(*args) for args in states] == expected
    assert asked > 50 * len(VARIANTS)
    assert searched > 10


def pure_answers(calls: list[tuple[str, list[Any]]]) -> list[bool]:
    """The answers of a pure Python process (``KONKUN_PURE=1``: every judge the reference)
    to ``calls``: (``completable`` or ``completable_marked``, its arguments)."""
    script = (
        "import json, sys\n"
        "from konkun.kunken import completion\n"
        "assert completion.C_JUDGE is None\n"
        "out = []\n"
        "for name, args in json.load(sys.stdin):\n"
        "    args[6] = tuple(tuple(m) for m in args[6])\n"
        "    if name == 'completable_marked':\n"
        "        args[8] = tuple(args[8])\n"
        "    completion._MEMO.clear()\n"
        "    out.append(bool(getattr(completion, name)(*args)))\n"
        "print(json.dumps(out))\n")
    env = {**os.environ, "KONKUN_PURE": "1"}
    done = subprocess.run([sys.executable, "-c", script], input=json.dumps(calls), env=env,
                          capture_output=True, text=True, check=True)
    answers: list[bool] = json.loads(done.stdout)
    return answers


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_the_c_judge_answers_as_a_pure_process_in_seeded_play(seats: int) -> None:
    """The engine's own questions, C judge against a pure Python process (every judge the
    reference): each take turn's state in seeded play over every rule option, and the
    state after some of its candidate steps, with the turn's joker marks
    (completion.completable_marked, which stays Python and asks completable), and
    without."""
    c_module()
    calls: list[tuple[str, list[Any]]] = []
    answers: list[bool] = []
    marked = 0
    for _v, deal, _rng in seeded_play(VARIANTS, seats, lambda v: 700 * v + seats):
        seat = deal.to_move
        assert seat is not None
        if deal.take_card >= 0 and not deal.obligations_met():
            for turn in unfinished_take_turns(deal, 12):
                args = list(turn_args(turn))
                marks = list(turn.turn_marks)
                marked += bool(marks)
                for name, call in (("completable", args),
                                   ("completable_marked", [*args, marks])):
                    forget()
                    answers.append(bool(getattr(completion, name)(
                        *call[:8],
                        *([tuple(marks)] if name == "completable_marked" else []))))
                    calls.append((name, call))
    assert len(calls) > 20 * len(VARIANTS)
    assert marked > 0
    assert sum(answers) and not all(answers)
    assert pure_answers(calls) == answers


REACHED_SCRIPT = """
import json, random, sys
from konkun.kunken import KunkenRules, completion, new_deal
assert completion.C_JUDGE is None
variants, seats = json.loads(sys.argv[1]), int(sys.argv[2])
judge = completion.completable
reached = []
def recording(*args):
    reached.append(args)
    return judge(*args)
out = []
for v, options in enumerate(variants):
    rng = random.Random(900 * v + seats)
    deal = new_deal(KunkenRules.from_options(options), seats, 0, rng)
    steps, first = 0, len(out)
    while not deal.is_over() and steps < 70 and len(out) - first < 200:
        steps += 1
        seat = deal.to_move
        if deal.take_card >= 0 and not deal.obligations_met():
            turns = [deal]
            for action in deal.taken_candidates(seat, deal.hands[seat])[:8]:
                after = deal.scratch_copy(action)
                after.push(action)
                if not after.obligations_met():
                    turns.append(after)
            for turn in turns:
                args = (list(turn.hands[seat]), list(turn.turn_notold), turn.take_card,
                        turn.need, turn.pending, turn.layout[seat], turn.compact_table(),
                        turn.rules.joker_for_held)
                reached.clear()
                completion._MEMO.clear()
                completion.completable = recording  # the searches' own questions
                judge(*args)
                completion.completable = judge
                for state in [args, *reached[:20]]:
                    completion._MEMO.clear()
                    out.append([[list(state[0]), list(state[1]), *state[2:6],
                                 [list(m) for m in state[6]], state[7]], judge(*state)])
        deal.push(rng.choice(deal.legal_actions()))
print(json.dumps(out))
"""


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_the_c_search_answers_the_states_the_reference_search_reaches(seats: int) -> None:
    """A pure Python process (``KONKUN_PURE=1``) plays seeded deals over every rule option
    and records each take turn's state and every state its search asks the judge about
    (the taken card's melds, swaps, a meld to gain a layout, each a level deeper), with the
    reference's answers; the C judge, whose search over those steps runs in C with
    ``joker_for_held`` and the taken card still to be melded, answers each alike."""
    c_module()
    env = {**os.environ, "KONKUN_PURE": "1"}
    done = subprocess.run([sys.executable, "-c", REACHED_SCRIPT, json.dumps(VARIANTS),
                           str(seats)], env=env, capture_output=True, text=True, check=True)
    cases = json.loads(done.stdout)
    deep = 0
    assert completion.C_JUDGE is not None
    for state, expected in cases:
        hand, notold, card, need, pending, layout, table, replace = state
        args: Args = (hand, notold, card, need, pending, layout,
                      tuple(tuple(m) for m in table), replace)
        forget()
        assert completion.C_JUDGE(*args) == expected, args
        deep += pending and replace and len(table) > 0
    assert len(cases) > 40 * len(VARIANTS), len(cases)
    assert deep > 100, deep
    answers = [expected for _, expected in cases]
    assert any(answers) and not all(answers)


@st.composite
def compact_melds(draw: st.DrawFn) -> completion.Compact:
    """A table meld in compact form: a sequence with jokers in at most half of it, or a
    set of 3 or 4 with declared and open jokers."""
    if draw(st.booleans()):
        length = draw(st.integers(3, 13))
        start = 0 if length == 13 else draw(st.integers(0, 12))
        places = [(start + i) % 13 for i in range(length)]
        jokers = draw(st.lists(st.sampled_from(places), unique=True, max_size=length // 2))
        return (0, draw(st.integers(0, 3)), start, length, sum(1 << q for q in jokers))
    suits = draw(st.permutations(range(4)))
    size = draw(st.integers(3, 4))
    n_real = draw(st.integers(1, size))
    n_declared = draw(st.integers(0, size - n_real))
    real = sum(1 << t for t in suits[:n_real])
    declared = sum(1 << t for t in suits[n_real:n_real + n_declared])
    return (1, draw(st.integers(0, 12)), real, declared, size - n_real - n_declared)


def meld_jokers(m: completion.Compact) -> int:
    """The jokers of a table meld in compact form."""
    return bin(m[4]).count("1") if m[0] == 0 else bin(m[3]).count("1") + m[4]


@st.composite
def joker_bounded_tables(draw: st.DrawFn, room: int, max_size: int = 3,
                         ) -> tuple[completion.Compact, ...]:
    """Up to ``max_size`` table melds (:func:`compact_melds`) holding at most ``room``
    jokers in all (a meld that would pass it is left out). A state's hand and table hold at
    most the C core's 7 jokers (a pack has 4), so however many jokers swaps win, the hand
    stays within what the C core reads."""
    table = []
    for m in draw(st.lists(compact_melds(), max_size=max_size)):
        if meld_jokers(m) <= room:
            table.append(m)
            room -= meld_jokers(m)
    return tuple(table)


@st.composite
def turn_states(draw: st.DrawFn) -> Args:
    """A take turn's state: a hand of up to 12 cards of the two decks and up to 3 jokers,
    some of them not held before the take, the taken card, points due, a table."""
    cards = draw(st.lists(st.sampled_from(range(104)), max_size=12, unique=True))
    hand = counts_of([DOUBLE_DECK[i] for i in cards])
    hand[52] = draw(st.integers(0, 3))
    notold = [draw(st.integers(0, n)) if n and draw(st.booleans()) else 0 for n in hand]
    held = [k for k in range(53) if hand[k]]
    card = draw(st.sampled_from(held)) if held and draw(st.integers(0, 9)) else draw(
        st.integers(0, 52))
    if hand[card] and not notold[card]:
        notold[card] = 1
    need = draw(st.sampled_from([0, 0, 30, 51, -5, draw(st.integers(0, 200))]))
    table = draw(joker_bounded_tables(7 - hand[52]))
    return (hand, notold, card, need, draw(st.booleans()), draw(st.booleans()), table,
            draw(st.booleans()))


@settings(max_examples=250, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(turn_states(), st.booleans())
def test_the_c_judge_answers_as_the_reference_on_random_states(state: Args,
                                                               melds_fail: bool) -> None:
    c_module()
    if melds_fail:
        hand, notold, card, need, pending, _, _, replace = state
        if solver.can_complete(hand, notold, card, need, pending, None, -1, False, replace):
            return  # melds_fail is a promise that melds alone fail
    agree(state, melds_fail)


@settings(max_examples=600, deadline=None)
@given(st.integers(0, 12), st.integers(0, 3), st.integers(0, 8), st.integers(-2, 8),
       st.integers(0, (1 << 13) - 1), st.integers(0, 15), st.integers(0, (1 << 13) - 1),
       st.integers(0, 15), st.booleans())
def test_the_c_third_card_bound_is_the_reference(p: int, s: int, jokers: int,
                                                 old_jokers: int, old_suit: int,
                                                 old_rank: int, pool_suit: int,
                                                 pool_rank: int, proxies: bool) -> None:
    """The shortest third-card meld from masks (what the judge's first check reads): old
    cards within the pool or not, any jokers."""
    hand_search = c_module()
    for old_s, old_r in ((old_suit, old_rank), (old_suit & pool_suit, old_rank & pool_rank)):
        args = (p, s, jokers, old_jokers, old_s, old_r, pool_suit, pool_rank, proxies)
        assert hand_search.shortest_third(*args) == third_card.shortest_third(*args), args


def test_the_c_third_card_bound_over_every_pool_of_a_suit() -> None:
    """Every pool and old mask of one suit's positions is too many (2^26); every pool with
    its old cards a random part, for each count of jokers and old jokers."""
    hand_search = c_module()
    rng = random.Random(5)
    for pool in range(1 << 13):
        old = pool & rng.getrandbits(13)
        for jokers, old_jokers in ((0, 0), (1, 0), (1, 1), (2, 1), (3, 2), (7, 3)):
            for proxies in (False, True):
                args = (0, 1, jokers, old_jokers, old | 1, 0, pool | 1, 2, proxies)
                assert hand_search.shortest_third(*args) == third_card.shortest_third(*args)


GOOD = ([0] * 53, [0] * 53, 0, 30, True, True, (), True)


@pytest.mark.parametrize(("index", "bad", "message"), [
    (0, [0] * 52, "hand must have 53"),
    (0, (0,) * 53, "hand must be a list"),
    (0, [4] + [0] * 52, "hand 0 is 4"),
    (0, [0] * 52 + [8], "hand 52 is 8"),
    (0, [0.0] * 53, "hand 0 must be an int"),
    (1, [-1] + [0] * 52, "notold 0 is -1"),
    (1, None, "notold must be a list"),
    (2, 53, "card is 53"),
    (2, -1, "card is -1"),
    (2, "Ac", "card must be an int"),
    (3, 2**40, "need is"),
    (3, 1.5, "need must be an int"),
    (4, None, "pending must be a bool"),
    (5, 1, "layout must be a bool"),
    (7, "yes", "replace must be a bool"),
    (6, [(0, 0, 0, 3, 0)], "table must be a tuple"),
    (6, ((0, 0, 0, 3),), "table meld 0 is"),
    (6, ((0, 4, 0, 3, 0),), "suit of table meld 0 is 4"),
    (6, ((0, 0, 13, 3, 0),), "start of table meld 0"),
    (6, ((0, 0, 0, 14, 0),), "length of table meld 0"),
    (6, ((0, 0, 0, 3, 1 << 13),), "joker positions of table meld 0"),
    (6, ((1, 13, 1, 0, 0),), "rank of table meld 0"),
    (6, ((1, 0, 16, 0, 0),), "real suits of table meld 0"),
    (6, ((1, 0, 1, 0, 5),), "open jokers of table meld 0"),
    (6, ((2, 0, 1, 0, 0),), "kind of table meld 0"),
    (6, ((0, 0, 0, 3, 0),) * 65, "table has 65 melds"),
    (6, ((1, 0, 1, 0, 3),) * 3, "hand and table hold 9 jokers, more than 7"),
])
def test_bad_input_to_the_c_judge_raises_an_error_naming_it(index: int, bad: object,
                                                            message: str) -> None:
    c_module()
    assert completion.C_JUDGE is not None
    args = list(GOOD)
    completion.C_JUDGE(*args)  # type: ignore[arg-type]
    args[index] = bad
    with pytest.raises((TypeError, ValueError), match=message):
        completion.C_JUDGE(*args)  # type: ignore[arg-type]


RANDOM_VALUES = st.one_of(st.integers(-3, 60), st.none(), st.floats(), st.text(max_size=2),
                          st.booleans(), st.integers(2**62, 2**70))
"""Values of every kind, as random input to a C part (good ones among them)."""


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_input_to_the_c_judge_raises_a_typed_error_or_answers_as_the_reference(
        data: st.DataObject) -> None:
    """Random arguments, each of them bad or good: a TypeError or ValueError, never a
    crash; accepted ones are answered as the reference answers them."""
    c_module()
    assert completion.C_JUDGE is not None
    state = list(data.draw(turn_states()))
    for i in range(len(state)):
        if data.draw(st.integers(0, 5)) == 0:
            if i in (0, 1):
                state[i] = data.draw(st.one_of(st.lists(RANDOM_VALUES, min_size=52,
                                                        max_size=54), RANDOM_VALUES))
            elif i == 6:
                state[i] = data.draw(st.one_of(
                    st.tuples(st.tuples(*[RANDOM_VALUES] * 5)),
                    st.tuples(st.lists(st.integers(-1, 20), max_size=6).map(tuple)),
                    RANDOM_VALUES))
            else:
                state[i] = data.draw(RANDOM_VALUES)
    forget()
    try:
        answer = completion.C_JUDGE(*state)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return
    forget()
    assert answer == completion.reference_completable(*state)  # type: ignore[arg-type]


def test_the_c_judge_keeps_no_references_and_no_memory() -> None:
    """Many questions reaching the search and the walk over the swaps, the memo emptied
    between rounds: the arguments' reference counts are as before, and memory does not
    grow."""
    hand_search = c_module()
    assert completion.C_JUDGE is not None
    # Kc Kd 5h 6h 7h, Ks taken; Ks can win the open joker of the table's set of kings.
    hand = counts_of([11, 24, 29, 30, 31, 50])
    notold = counts_of([50])
    table = ((1, 11, 0b0011, 0, 1), (0, 0, 0, 4, 0b0100))
    args = (hand, notold, 50, 40, True, True, table, True)

    swaps_only = (hand, notold, 50, 0, True, True, table, True)  # the walk over the swaps

    def ask(rounds: int) -> None:
        for _ in range(rounds):
            hand_search.forget_judged()
            completion.C_JUDGE(*args)
            completion.C_JUDGE(*swaps_only)
            assert hand_search.swap_third_length(hand, notold, 50, table) == 3
            for bad in (53, -1):
                with pytest.raises(ValueError, match="card is"):
                    completion.C_JUDGE(hand, notold, bad, 40, True, True, table, True)

    counts = [sys.getrefcount(x) for x in (hand, notold, table, *table, True, False)]
    ask(200)
    grown = memory_grown_by(ask, 50, 2000)
    assert grown < 20_000, grown
    assert [sys.getrefcount(x) for x in (hand, notold, table, *table)] == counts[:-2]


def test_an_opening_worth_exactly_the_points_bound_completes() -> None:
    """Kc Kd Kh and 5s, the taken card melded, 30 points due: the hand's points less its
    lowest card are exactly the points due, and the set of kings with 5s kept completes
    the turn (the bound is a strict one); 35 due cannot."""
    c_module()
    hand = counts_of([11, 24, 37, 42])
    for need, expected in ((30, True), (35, False)):
        for pending_notold in ([0] * 53,):
            args: Args = (hand, pending_notold, 11, need, False, True, (), True)
            assert agree(args) is expected


def test_the_taken_cards_meld_of_two_jokers_then_a_swap_opens() -> None:
    """joker_for_held, no layout, 30 to 50 points due: 4c taken with 5c, the hand also
    holds two old jokers, 7s, Qh, Kh and 2d; the table has 6s X(=7s) 8s. The taken card's
    only meld with two old cards is 4c 5c X X (its two jokers: 20 points); laid, it gives
    the layout, 7s wins the table's joker, and X Qh Kh (30) completes the opening, 2d kept
    to discard. Melds alone cannot (nothing else melds), nor a meld first (the taken card's
    meld then lacks old cards), so the search must lay the taken card's meld of two jokers;
    without 7s, or with 55 due, nothing completes."""
    c_module()
    hand = counts_of([2, 3, 44, 36, 37, 13])  # 4c 5c 7s Qh Kh 2d
    hand[CARDS] = 2
    notold = counts_of([2, 3])
    table: completion.Table = ((0, 3, 4, 3, 1 << 5),)  # 6s X(=7s) 8s
    for need in (30, 40, 50):
        assert not solver.can_complete(hand, notold, 2, need, True, replace=True)
        assert agree((hand, notold, 2, need, True, False, table, True))
    assert not agree((hand, notold, 2, 55, True, False, table, True))
    without = list(hand)
    without[44] = 0
    assert not agree((without, notold, 2, 30, True, False, table, True))


def swap_third_agrees(hand: list[int], notold: list[int], card: int,
                      table: completion.Table) -> int:
    """The C core's swap_third_length and the reference's answer alike; the answer."""
    assert completion.C_SWAP_THIRD is not None
    expected = completion.reference_swap_third_length(hand, notold, card, table)
    assert completion.C_SWAP_THIRD(hand, notold, card, table) == expected, (hand, notold,
                                                                            card, table)
    return expected


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_the_c_swap_walk_answers_as_the_reference_in_seeded_play(seats: int) -> None:
    """completion.swap_third_length over every rule option in seeded play: the take scan's
    questions (the hand with each part of the bank) and, in a take turn with a card still
    to be melded, the hand now and without each of its cards, with the table's jokers."""
    c_module()
    asked = shorter = 0
    for _v, deal, _rng in seeded_play(VARIANTS, seats, lambda v: 900 * v + seats):
        seat = deal.to_move
        assert seat is not None
        hand, table = deal.hands[seat], deal.compact_table()
        jokers = tuple(m for m in table if completion.has_jokers(m))
        questions: list[tuple[list[int], list[int], int]] = []
        if deal.take_card < 0:
            for i in range(len(deal.bank)):
                if deal.bank[i] != 52:
                    after, taken = solver.after_take(hand, deal.bank, i)
                    questions.append((after, taken, deal.bank[i]))
        elif deal.pending and deal.take_card != 52:
            questions.append((hand, deal.turn_notold, deal.take_card))
            for k in range(53):
                if hand[k]:
                    less, less_notold = list(hand), list(deal.turn_notold)
                    less[k] -= 1
                    less_notold[k] = min(less_notold[k], less[k])
                    questions.append((less, less_notold, deal.take_card))
        for after, taken, card in questions:
            plain = third_card.third_card_length(card, after, taken, True)
            length = swap_third_agrees(after, taken, card, jokers)
            shorter += bool(length and (not plain or length < plain))
            asked += 1
    assert asked > 100 * len(VARIANTS)
    assert shorter > 0  # some swaps made the taken card's meld shorter


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(turn_states())
def test_the_c_swap_walk_answers_as_the_reference_on_random_states(state: Args) -> None:
    c_module()
    hand, notold, card, _, _, _, table, _ = state
    if card != 52:
        swap_third_agrees(hand, notold, card, table)


@pytest.mark.parametrize(("index", "bad", "message"), [
    (0, [0] * 54, "hand must have 53"),
    (1, [0] * 52 + [9], "notold 52 is 9"),
    (2, 52, "card is 52"),
    (3, ((1, 0, 1, 0, 9),), "open jokers of table meld 0"),
    (3, [], "table must be a tuple"),
])
def test_bad_input_to_the_c_swap_walk_raises_an_error_naming_it(index: int, bad: object,
                                                               message: str) -> None:
    c_module()
    assert completion.C_SWAP_THIRD is not None
    args: list[object] = [[0] * 53, [0] * 53, 0, ()]
    assert completion.C_SWAP_THIRD(*args) == 0  # type: ignore[arg-type]
    args[index] = bad
    with pytest.raises((TypeError, ValueError), match=message):
        completion.C_SWAP_THIRD(*args)  # type: ignore[arg-type]


def searched_state() -> Args:
    """A state of seeded play whose judging reaches the search over steps."""
    rng = random.Random(11)
    deal = new_deal(KunkenRules(), 4, 0, rng)
    while True:
        if deal.is_over():
            deal = new_deal(KunkenRules(), 4, 0, rng)
        seat = deal.to_move
        assert seat is not None
        if deal.take_card >= 0 and not deal.obligations_met():
            for action in deal.taken_candidates(seat, deal.hands[seat]):
                after = deal.scratch_copy(action)
                after.push(action)
                with Recorder() as recorder:
                    completion.forget_judged()
                    completion.completable(*turn_args(after))
                if recorder.states:
                    return recorder.states[0]
        deal.push(rng.choice(deal.legal_actions()))


def test_reconfiguring_the_judge_from_its_own_search_frees_nothing_in_use() -> None:
    """A search part that gives the judge new parts while it runs (dropping the last
    reference to itself) runs to its end, and the answer is the reference's."""
    hand_search = c_module()
    state = searched_state()

    class Once:
        def search(self, *args: Any) -> bool:
            hand_search.configure_judge(completion.search_completion)
            gc.collect()
            return bool(completion.search_completion(*args))

    hand_search.configure_judge(Once().search)
    hand_search.forget_judged()
    assert completion.C_JUDGE is not None
    answer = completion.C_JUDGE(*state, False)
    completion.forget_judged()
    assert answer == completion.reference_completable(*state)
