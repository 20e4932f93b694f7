"""The exact Konchinka endgame solver (issue 14): once the stock is empty in a
two-player deal the rest is a game of perfect information; the solver's values equal a
brute-force minimax over every line of play, with the deal's own score at the end
(RULES.md, Кончинка: Score of a deal), and ISMCTS plays its best move there."""

from __future__ import annotations

import random

import pytest

from konkun.bots import Budget, parse_spec
from konkun.bots.konchinka_endgame import EndgameSolver, applies
from konkun.konchinka.deal import KonchinkaDeal
from konkun.konchinka.dealing import new_deal
from konkun.konchinka.rules import KonchinkaRules


def brute_force(deal: KonchinkaDeal, seat: int) -> int:
    """``seat``'s points minus the other's at the end, each seat to move maximising its
    own difference, by plain enumeration through the public API."""
    if deal.is_over():
        points = deal.points()
        return points[seat] - points[1 - seat]
    mover = deal.to_move
    assert mover is not None
    results = []
    for move in deal.legal_actions():
        child = deal.copy()
        child.push(move)
        results.append(brute_force(child, seat))
    return max(results) if mover == seat else min(results)


def endgame(seed: int, rules: KonchinkaRules, extra_moves: int) -> KonchinkaDeal:
    """A random two-player deal played at random to its last redeal, then
    ``extra_moves`` more moves."""
    rng = random.Random(seed)
    deal = new_deal(rules, 2, seed % 2, rng)
    while deal.stock_size or deal.is_over():
        legal = deal.legal_actions()
        deal.push(legal[rng.randrange(len(legal))])
    for _ in range(extra_moves):
        if deal.is_over():
            break
        legal = deal.legal_actions()
        deal.push(legal[rng.randrange(len(legal))])
    return deal


@pytest.mark.parametrize("variant", ["classic", "novo"])
@pytest.mark.parametrize("extra_moves", [2, 4])
def test_the_solver_agrees_with_brute_force_enumeration(variant: str, extra_moves: int) -> None:
    rules = KonchinkaRules.preset(variant)
    solver = EndgameSolver()
    for seed in range(6):
        deal = endgame(seed, rules, extra_moves)
        if deal.is_over():
            continue
        mover = deal.to_move
        assert mover is not None
        assert solver.value(deal) == brute_force(deal, mover)
        for move, value in solver.move_values(deal).items():
            child = deal.copy()
            child.push(move)
            assert value == brute_force(child, mover)


@pytest.mark.parametrize("ties", ["all", "split"])
def test_the_solver_agrees_with_brute_force_when_ties_score(ties: str) -> None:
    rules = KonchinkaRules().with_options({"tie_points": ties})
    solver = EndgameSolver()
    for seed in range(3):
        deal = endgame(seed, rules, 2)
        mover = deal.to_move
        assert mover is not None
        assert solver.value(deal) == brute_force(deal, mover)


def test_the_solver_counts_its_nodes_and_reuses_its_table() -> None:
    solver = EndgameSolver()
    deal = endgame(3, KonchinkaRules(), 0)
    solver.value(deal)
    first = solver.nodes
    assert first > 1
    solver.value(deal)
    assert solver.nodes == first + 1  # the root is found in the table


def test_the_endgame_applies_from_the_last_redeal_of_a_two_player_deal() -> None:
    rng = random.Random(5)
    deal = new_deal(KonchinkaRules(), 2, 0, rng)
    assert not applies(deal.observe(1))
    deal = endgame(5, KonchinkaRules(), 0)
    mover = deal.to_move
    assert mover is not None
    assert applies(deal.observe(mover))
    three = new_deal(KonchinkaRules(), 3, 0, rng)
    while three.stock_size:
        three.push(three.legal_actions()[0])
    assert three.to_move is not None
    assert not applies(three.observe(three.to_move))


@pytest.mark.parametrize("spec", ["ismcts:iters=50", "strong", "expert"])
def test_ismcts_plays_a_best_move_of_the_endgame(spec: str) -> None:
    """The solver is used inside ISMCTS, at every ladder level that searches."""
    solver = EndgameSolver()
    bot = parse_spec(spec).create("konchinka")
    for seed in range(4):
        deal = endgame(seed, KonchinkaRules(), 1)
        mover = deal.to_move
        assert mover is not None
        observation = deal.observe(mover)
        values = solver.move_values(deal)
        if len(values) == 1:
            continue
        move = bot.choose(observation, tuple(observation.legal_actions()), random.Random(0),
                          Budget(iterations=50))
        assert values[move] == max(values.values())
