"""Kunken puzzles, "the take that opens": a player without a layout, at the start of a
turn, may take the bank from exactly one of its cards, by the engine's own exact take
check (:meth:`KunkenDeal.legal_actions <konkun.kunken.state.KunkenDeal.legal_actions>`,
which asks :mod:`konkun.kunken.completion`: the third-card rule, the opening minimum,
joker swaps and lay-offs, a card left to discard).

Deals are played by the ``greedy`` bot on both seats from a seed. A start of a turn becomes
a puzzle when the bank holds at least :data:`MIN_BANK` cards, exactly one take is legal,
and neither the hand nor the bank holds a joker (the notation of a joker's identity may
grow; positions without one stay readable). The line is the take and the bot's completion
of the turn, each step legal in the engine.
"""

from __future__ import annotations

import random
from typing import Any

from konkun.bots.base import Budget
from konkun.bots.specs import create_bot
from konkun.kunken.actions import ActionKind
from konkun.kunken.kkn import parse_kkn
from konkun.kunken.melds import BARE_JOKER
from konkun.kunken.rules import KunkenRules
from konkun.kunken.state import KunkenDeal, new_deal
from konkun.puzzles.collection import Puzzle

KIND = "opening_take"
MIN_BANK = 4
MAX_ACTIONS = 600
"""A deal is abandoned after this many actions (the greedy bots seldom need 300)."""


def legal_takes(deal: KunkenDeal) -> list[str]:
    """The texts of the legal ``take`` actions (the engine's exact check)."""
    return [a.text() for a in deal.legal_actions() if a.kind == ActionKind.TAKE]


def is_candidate(deal: KunkenDeal) -> bool:
    """Whether ``deal`` stands where a "take that opens" puzzle may be: the start of a turn,
    no layout, enough bank, no joker in hand or bank."""
    p = deal.position()
    if p.phase != "start" or p.to_move is None or p.layout[p.to_move]:
        return False
    return (len(p.bank) >= MIN_BANK and BARE_JOKER not in p.hands[p.to_move]
            and BARE_JOKER not in p.bank)


def completed_turn(deal: KunkenDeal, take_text: str, rng: random.Random) -> list[str]:
    """The take and the greedy bot's completion of the turn, as action texts."""
    deal = deal.copy()
    seat = deal.position().to_move
    assert seat is not None
    bot = create_bot("greedy", "kunken")
    deal.play(take_text)
    line = [take_text]
    while not deal.is_over() and deal.position().to_move == seat and \
            deal.position().phase != "start":
        action: Any = bot.choose(deal.observe(seat), deal.legal_actions(), rng, Budget())
        line.append(action.text())
        deal.play(action)
    return line


def check_puzzle(puzzle: Puzzle) -> str | None:
    """Why ``puzzle`` is not a sound Kunken puzzle (its take is not the only legal take,
    or its line is not legal), or ``None``."""
    deal = KunkenDeal.from_position(parse_kkn(puzzle.position))
    if deal.position().to_move != puzzle.seat:
        return f"seat {puzzle.seat} is not to move"
    takes = legal_takes(deal)
    if takes != [puzzle.solution]:
        return f"the legal takes are {takes}, not only {puzzle.solution!r}"
    if puzzle.line[:1] != (puzzle.solution,):
        return "the line does not start with the solution"
    for text in puzzle.line:
        deal.play(text)
    if not deal.is_over() and deal.position().to_move == puzzle.seat:
        return "the line does not end the turn"
    return None


def generate(count: int, seed: int) -> list[Puzzle]:
    """``count`` puzzles from the deals of seeds ``seed``, ``seed + 1``, ... (at most one
    per deal, its first position that makes a puzzle)."""
    found: list[Puzzle] = []
    deal_seed = seed
    bot = create_bot("greedy", "kunken")
    while len(found) < count:
        rng = random.Random(deal_seed)
        deal = new_deal(KunkenRules(), 2, deal_seed % 2, rng)
        for _ in range(MAX_ACTIONS):
            if deal.is_over():
                break
            if is_candidate(deal):
                takes = legal_takes(deal)
                if len(takes) == 1:
                    seat = deal.position().to_move
                    assert seat is not None
                    found.append(Puzzle(id=f"kunken-{deal_seed}", game="kunken", kind=KIND,
                                        position=deal.kkn(), seat=seat, solution=takes[0],
                                        line=tuple(completed_turn(deal, takes[0], rng))))
                    break
            seat = deal.position().to_move
            assert seat is not None
            deal.play(bot.choose(deal.observe(seat), deal.legal_actions(), rng, Budget()))
        deal_seed += 1
    return found


__all__ = ["KIND", "MIN_BANK", "check_puzzle", "completed_turn", "generate", "is_candidate",
           "legal_takes"]
