"""Kunken puzzles of two kinds, each with exactly one answer by the engine's exact tools:

- "the take that opens" (:data:`KIND`): a player without a layout, at the start of a turn,
  may take the bank from exactly one of its cards, by the engine's own exact take check
  (:meth:`KunkenDeal.legal_actions <konkun.kunken.state.KunkenDeal.legal_actions>`, which
  asks :mod:`konkun.kunken.completion`: the third-card rule, the opening minimum, joker
  swaps and lay-offs, a card left to discard). The line is the take and the greedy bot's
  completion of the turn.
- "go out this turn" (:data:`GO_OUT`): exactly one card of the bank can be taken so that
  the player lays down every card but one and discards it this turn (a turn that draws
  lays nothing down, so it never goes out). Whether a take goes out is decided by an
  exhaustive search over the engine's legal actions of the turn (:func:`going_out`), with
  a node limit: a position the search cannot finish within it is not a puzzle. The line
  is the take and the actions that go out.

Deals are played by the ``greedy`` bot on both seats from a seed. A start of a turn is a
candidate when the bank holds at least :data:`MIN_BANK` cards and neither the hand nor the
bank holds a joker (the notation of a joker's identity may grow; positions without one
stay readable).
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
GO_OUT = "go_out"
MIN_BANK = 4
MIN_HAND_OUT = 4
"""A "go out" puzzle's hand holds at least this many cards (fewer leave nothing to find)."""
MAX_HAND_OUT = 10
"""... and at most this many (the exhaustive search stays small)."""
SEARCH_NODES = 4000
"""The most positions :func:`going_out` visits for one take."""
MAX_ACTIONS = 600
"""A deal is abandoned after this many actions (the greedy bots seldom need 300)."""


def legal_takes(deal: KunkenDeal) -> list[str]:
    """The texts of the legal ``take`` actions (the engine's exact check)."""
    return [a.text() for a in deal.legal_actions() if a.kind == ActionKind.TAKE]


def is_candidate(deal: KunkenDeal) -> bool:
    """Whether ``deal`` stands where a Kunken puzzle may be: the start of a turn, enough
    bank, no joker in hand or bank."""
    p = deal.position()
    if p.phase != "start" or p.to_move is None:
        return False
    return (len(p.bank) >= MIN_BANK and BARE_JOKER not in p.hands[p.to_move]
            and BARE_JOKER not in p.bank)


class SearchTooLargeError(Exception):
    """The exhaustive search of a turn visited more than its node limit."""


def going_out(deal: KunkenDeal, seat: int, budget: list[int],
              memo: dict[str, bool] | None = None) -> list[str] | None:
    """The actions by which ``seat`` (to act, in the middle of its turn) goes out this
    turn, or ``None`` when no sequence of legal actions does; exhaustive over the engine's
    legal actions (a discard only of the last card). ``budget[0]``: positions left to
    visit, :class:`SearchTooLargeError` past it."""
    memo = {} if memo is None else memo
    key = deal.kkn()
    if memo.get(key) is False:
        return None
    budget[0] -= 1
    if budget[0] < 0:
        raise SearchTooLargeError(key)
    hand_size = len(deal.position().hands[seat])
    for action in deal.legal_actions():
        if action.kind == ActionKind.DISCARD and hand_size != 1:
            continue
        child = deal.copy()
        child.play(action)
        if child.is_over():
            if child.points() and child.position().winner == seat:
                return [action.text()]
            continue
        if child.position().to_move != seat:
            continue
        rest = going_out(child, seat, budget, memo)
        if rest is not None:
            return [action.text(), *rest]
    memo[key] = False
    return None


def going_out_takes(deal: KunkenDeal, limit: int = SEARCH_NODES) -> dict[str, list[str]]:
    """Each legal take after which the player can go out this turn, with the line that
    does (the take first); :class:`SearchTooLargeError` when a take's search passes ``limit``."""
    seat = deal.position().to_move
    assert seat is not None
    out: dict[str, list[str]] = {}
    for text in legal_takes(deal):
        child = deal.copy()
        child.play(text)
        line = going_out(child, seat, [limit])
        if line is not None:
            out[text] = [text, *line]
    return out


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
    if puzzle.kind == GO_OUT:
        try:
            outs = sorted(going_out_takes(deal, SEARCH_NODES * 4))
        except SearchTooLargeError:
            return "the search for going out did not finish"
        if outs != [puzzle.solution]:
            return f"the takes that go out are {outs}, not only {puzzle.solution!r}"
    else:
        takes = legal_takes(deal)
        if takes != [puzzle.solution]:
            return f"the legal takes are {takes}, not only {puzzle.solution!r}"
    if puzzle.line[:1] != (puzzle.solution,):
        return "the line does not start with the solution"
    for text in puzzle.line:
        deal.play(text)
    if not deal.is_over() and deal.position().to_move == puzzle.seat:
        return "the line does not end the turn"
    if puzzle.kind == GO_OUT and deal.position().winner != puzzle.seat:
        return "the line does not go out"
    return None


def _opening_puzzle(deal: KunkenDeal, deal_seed: int, rng: random.Random) -> Puzzle | None:
    if deal.position().layout[deal.position().to_move or 0]:
        return None
    takes = legal_takes(deal)
    if len(takes) != 1:
        return None
    seat = deal.position().to_move
    assert seat is not None
    return Puzzle(id=f"kunken-{deal_seed}", game="kunken", kind=KIND, position=deal.kkn(),
                  seat=seat, solution=takes[0],
                  line=tuple(completed_turn(deal, takes[0], rng)))


def _go_out_puzzle(deal: KunkenDeal, deal_seed: int) -> Puzzle | None:
    p = deal.position()
    seat = p.to_move
    assert seat is not None
    if not MIN_HAND_OUT <= len(p.hands[seat]) <= MAX_HAND_OUT:
        return None
    try:
        outs = going_out_takes(deal)
    except SearchTooLargeError:
        return None
    if len(outs) != 1:
        return None
    (take_text, line), = outs.items()
    return Puzzle(id=f"kunken-out-{deal_seed}", game="kunken", kind=GO_OUT,
                  position=deal.kkn(), seat=seat, solution=take_text, line=tuple(line))


def generate(count: int, seed: int, kind: str = KIND) -> list[Puzzle]:
    """``count`` puzzles of ``kind`` (:data:`KIND` or :data:`GO_OUT`) from the deals of
    seeds ``seed``, ``seed + 1``, ... (at most one per deal, its first position that makes
    a puzzle)."""
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
                puzzle = (_opening_puzzle(deal, deal_seed, rng) if kind == KIND
                          else _go_out_puzzle(deal, deal_seed))
                if puzzle is not None:
                    found.append(puzzle)
                    break
            seat = deal.position().to_move
            assert seat is not None
            deal.play(bot.choose(deal.observe(seat), deal.legal_actions(), rng, Budget()))
        deal_seed += 1
    return found


def generate_both(count: int, seed: int) -> list[Puzzle]:
    """``count`` Kunken puzzles: half "the take that opens", half "go out this turn"."""
    return generate(count - count // 2, seed) + generate(count // 2, seed, GO_OUT)


__all__ = ["GO_OUT", "KIND", "MIN_BANK", "SearchTooLargeError", "check_puzzle", "completed_turn",
           "generate", "generate_both", "going_out", "going_out_takes", "is_candidate",
           "legal_takes"]
