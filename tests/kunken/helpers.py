"""Positions for Kunken tests, built from card text; unlisted cards go to the stock."""

from __future__ import annotations

import gc
import json
import os
import random
import subprocess
import sys
import tracemalloc
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from konkun.cards import Card, parse_cards
from konkun.kunken.melds import TableMeld, parse_slots
from konkun.kunken.position import KunkenPosition, MeldPosition
from konkun.kunken.rules import KunkenRules
from konkun.kunken.state import KunkenDeal, counts_of, new_deal


def idx(text: str) -> list[int]:
    """Card indices of a card list text."""
    return [c.index for c in parse_cards(text)]


def counts(text: str) -> list[int]:
    """The count vector of a card list text."""
    return counts_of(idx(text))


def card(text: str) -> int:
    """One card index."""
    return Card.parse(text).index


def position(hands: list[str], bank: str = "", *, stock: str | None = None,
             melds: list[tuple[int, str]] | None = None, layout: list[bool] | None = None,
             to_move: int = 0, rules: KunkenRules | None = None) -> KunkenDeal:
    """A deal at the start of ``to_move``'s turn. ``stock``: its cards, next first (default:
    every card not placed, clubs first); ``melds``: (owner, cards) on the table."""
    rules = rules or KunkenRules()
    hand_counts = [counts_of(idx(h)) for h in hands]
    bank_cards = idx(bank)
    table = [TableMeld(owner, _meld_slots(text)) for owner, text in melds or []]
    if stock is None:
        left = [2] * 52 + [rules.jokers]
        for h in hand_counts:
            for k in range(53):
                left[k] -= h[k]
        for c in bank_cards:
            left[c] -= 1
        for m in table:
            for s in m.slots:
                left[min(s, 52)] -= 1
        assert min(left) >= 0, "a card used more than twice"
        stock_cards = [k for k in range(53) for _ in range(left[k])]
    else:
        stock_cards = idx(stock)
    seats = range(len(hands))
    return KunkenDeal.from_position(KunkenPosition(
        rules=rules, dealer=(to_move - 1) % len(hands),
        hands=tuple(tuple(sorted(idx(h))) for h in hands), stock=tuple(stock_cards),
        bank=tuple(bank_cards),
        melds=tuple(MeldPosition(m.owner, tuple(m.slots), tuple(m.laid_by)) for m in table),
        taken=tuple(() for _ in seats),
        layout=tuple(layout) if layout is not None else tuple(
            any(m.owner == s for m in table) for s in seats),
        to_move=to_move))

def _meld_slots(text: str) -> list[int]:
    from konkun.kunken.melds import check_meld

    check = check_meld(parse_slots(text.split()))
    assert check.valid, check.reason
    return list(check.slots)


def texts(deal: KunkenDeal) -> list[str]:
    """The legal actions as texts."""
    return [a.text() for a in deal.legal_actions()]


def seeded_play(variants: Sequence[dict[str, str]], seats: int, seed: Callable[[int], int],
                steps: int | None = None) -> Iterator[tuple[int, KunkenDeal, random.Random]]:
    """Each position of seeded random play: a deal for each rule options ``variants[v]``,
    its generator seeded ``seed(v)``, played at random for ``steps`` positions at most (to
    its end with ``None``). Yields ``(v, deal, generator)``; the deal goes on (a random
    legal action, drawn from that generator) once the caller has left it as it was."""
    for v, options in enumerate(variants):
        rng = random.Random(seed(v))
        deal = new_deal(KunkenRules.from_options(options), seats, 0, rng)
        played = 0
        while not deal.is_over() and (steps is None or played < steps):
            played += 1
            yield v, deal, rng
            deal.push(rng.choice(deal.legal_actions()))


def unfinished_take_turns(deal: KunkenDeal, most: int | None = None) -> list[KunkenDeal]:
    """A take turn still to be completed (``deal``), then the turn after each of its first
    ``most`` candidate steps (all of them with ``None``) that leaves it still to be
    completed: the states the completion checks are asked about."""
    seat = deal.to_move
    assert seat is not None
    turns = [deal]
    for action in deal.taken_candidates(seat, deal.hands[seat])[:most]:
        after = deal.scratch_copy(action)
        after.push(action)
        if not after.obligations_met():
            turns.append(after)
    return turns


def assert_given_in_order(answer: Sequence[object], given: Sequence[object]) -> None:
    """That ``answer`` holds objects of ``given`` (the same objects, not equal ones), in
    its order: what a C part that keeps some of its arguments' items returns."""
    given_ids = [id(x) for x in given]
    at = 0
    for x in answer:
        at = given_ids.index(id(x), at) + 1


def memory_grown_by(ask: Callable[[int], None], warm: int, rounds: int) -> int:
    """The bytes of traced memory that ``ask(rounds)`` leaves allocated, measured after
    ``ask(warm)`` under tracing has filled every cache (a C function that leaks shows here)."""
    tracemalloc.start()
    try:
        ask(warm)
        gc.collect()
        before = tracemalloc.take_snapshot()
        ask(rounds)
        gc.collect()
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    return sum(stat.size_diff for stat in after.compare_to(before, "filename"))


PURE_REPLAY = """
import json, random, sys
from konkun.kunken import {module}
from konkun.kunken.rules import KunkenRules
from konkun.kunken.state import new_deal
assert {c_part} is None
variants, seats, seeds, steps, wanted = json.load(sys.stdin)
out = []
for options, seed in zip(variants, seeds):
    rng = random.Random(seed)
    deal = new_deal(KunkenRules.from_options(options), seats, 0, rng)
    played = 0
    while not deal.is_over() and played < steps:
        if played in wanted.get(str(seed), []):
            seat = deal.to_move
            out.append({answer})
        played += 1
        deal.push(rng.choice(deal.legal_actions()))
print(json.dumps(out))
"""
"""The script of :func:`pure_answers`."""


def pure_answers(c_part: str, answer: str, variants: Sequence[dict[str, str]], seats: int,
                 seeds: list[int], steps: int, wanted: dict[str, list[int]]) -> list[Any]:
    """The same seeded random play as :func:`seeded_play` (``seeds[v]`` for variant ``v``,
    ``steps`` actions at most) in a ``KONKUN_PURE=1`` process, where ``c_part`` (a module
    of ``konkun.kunken`` and its C constant, ``"completion.C_LAYOUT_LAYOFFS"``) must be
    ``None``: at each step in ``wanted[str(seed)]``, the value of the expression ``answer``
    (of ``deal`` and ``seat``, the seat to move), as JSON reads it back."""
    script = PURE_REPLAY.format(module=c_part.split(".")[0], c_part=c_part, answer=answer)
    done = subprocess.run([sys.executable, "-c", script],
                          input=json.dumps([list(variants), seats, seeds, steps, wanted]),
                          env={**os.environ, "KONKUN_PURE": "1"}, capture_output=True,
                          text=True, check=True)
    answers: list[Any] = json.loads(done.stdout)
    return answers


def turns_in_case(variants: Sequence[dict[str, str]], in_case: Callable[[KunkenDeal, int], bool],
                  seats: int, seed: int, steps: int) -> list[KunkenDeal]:
    """Every position of :func:`seeded_play` (variant ``v`` seeded ``seed * (v + 1) +
    seats``) where ``in_case(deal, seat)`` holds for the seat to move, and the turns after
    each of its first 6 candidate steps (:func:`unfinished_take_turns`) still in it."""
    turns: list[KunkenDeal] = []
    for _v, deal, _rng in seeded_play(variants, seats, lambda v: seed * (v + 1) + seats, steps):
        seat = deal.to_move
        assert seat is not None
        if in_case(deal, seat):
            turns.extend(t for t in unfinished_take_turns(deal.copy(), 6) if in_case(t, seat))
    return turns


def answers_in_play(variants: Sequence[dict[str, str]], seats: int, seeds: list[int],
                    steps: int, in_case: Callable[[KunkenDeal, int], bool],
                    answer: Callable[[KunkenDeal, int], Any],
                    ) -> tuple[dict[str, list[int]], list[Any]]:
    """:func:`seeded_play` (``seeds[v]`` for variant ``v``) here: at each position where
    ``in_case(deal, seat)`` holds for the seat to move, ``answer(deal, seat)``; the
    positions by seed (each the number of moves played before it, as :func:`pure_answers`
    takes them) and the answers in order."""
    wanted: dict[str, list[int]] = {str(seed): [] for seed in seeds}
    played = dict.fromkeys(seeds, 0)
    answers = []
    for v, deal, _rng in seeded_play(variants, seats, seeds.__getitem__, steps):
        seed, seat = seeds[v], deal.to_move
        assert seat is not None
        if in_case(deal, seat):
            wanted[str(seed)].append(played[seed])
            answers.append(answer(deal, seat))
        played[seed] += 1
    return wanted, answers


def pure_lists_agree(c_part: str, variants: Sequence[dict[str, str]],
                     in_case: Callable[[KunkenDeal, int], bool], seats: int, seeds: list[int],
                     steps: int) -> int:
    """That :func:`seeded_play` (``seeds[v]`` for variant ``v``) here and in a
    ``KONKUN_PURE=1`` process (:func:`pure_answers`, where ``c_part`` is ``None``) lists the
    same legal actions at each position where ``in_case(deal, seat)`` holds for the seat to
    move; how many such positions."""
    wanted, listed = answers_in_play(
        variants, seats, seeds, steps, in_case,
        lambda deal, _seat: [[str(a.kind), a.number, list(a.slots)]
                             for a in deal.legal_actions()])
    assert pure_answers(c_part, "[[a.kind, a.number, list(a.slots)] for a in "
                        "deal.legal_actions()]", variants, seats, seeds, steps, wanted) == listed
    return len(listed)
