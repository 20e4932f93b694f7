"""Konchinka and Kunken as OpenSpiel games: pyspiel's own random-simulation checks, chance
nodes for the deal and each draw, perfect-recall information states that hold nothing
hidden, the parameters, OpenSpiel's algorithms unchanged, and the ``openspiel`` bot spec in
the arena. Skipped when the ``openspiel`` extra is not installed."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import konkun.openspiel  # noqa: E402,F401  (registers the games)
from konkun.arena import ArenaConfig, run_arena  # noqa: E402
from konkun.bots.specs import BotSpec, InvalidBotSpecError  # noqa: E402


def _play_to(state: Any, rng: np.random.RandomState, stop: Any) -> Any:
    """Play random chance outcomes and legal actions until ``stop(state)``."""
    while not state.is_terminal() and not stop(state):
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(outcomes[rng.choice(len(outcomes), p=probabilities)])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randint(len(legal))])
    return state


@pytest.mark.parametrize(("name", "params", "sims"), [
    ("konkun_konchinka", {"players": 2}, 2),
    ("konkun_konchinka", {"players": 4, "variant": "novo"}, 1),
    ("konkun_konchinka", {"players": 2, "deck_ranks": 7}, 5),
    ("konkun_kunken", {"players": 2}, 1),
    ("konkun_kunken", {"players": 3, "jokers": 2, "max_stock_renewals": 0}, 1),
])
def test_pyspiel_random_simulation_checks_pass(name: str, params: dict[str, Any],
                                               sims: int) -> None:
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False)


def test_the_parameters_are_players_and_the_rule_options_by_name() -> None:
    game = pyspiel.load_game("konkun_kunken", {"players": 3, "jokers": 2,
                                               "opening_minimum": 40})
    assert game.num_players() == 3
    rules = game.adapter.rules
    assert (rules.jokers, rules.opening_minimum) == (2, 40)
    assert game.num_distinct_actions() == game.adapter.action_size
    konchinka = pyspiel.load_game("konkun_konchinka", {"capture_compulsory": True})
    assert konchinka.adapter.rules.capture_compulsory is True
    assert konchinka.num_distinct_actions() == 52 * 32
    with pytest.raises(ValueError, match="jokers"):
        pyspiel.load_game("konkun_kunken", {"jokers": 9})


def test_the_deal_is_chance_nodes_and_kunkens_draws_are_chance_nodes() -> None:
    game = pyspiel.load_game("konkun_kunken", {"players": 2})
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]  # the dealer
    state.apply_action(1)
    outcomes = dict(state.chance_outcomes())
    assert len(outcomes) == 53 and outcomes[52] == pytest.approx(4 / 108)
    assert sum(outcomes.values()) == pytest.approx(1.0)
    rng = np.random.RandomState(3)
    _play_to(state, rng, lambda s: not s.is_chance_node())
    assert len(state.deal.stock) == 108 - 27
    # a draw waits for chance, which deals one of the stock's cards
    draw = next(a for a in state.legal_actions() if state.action_to_string(a) == "draw")
    state.apply_action(draw)
    assert state.is_chance_node()
    stock = list(state.deal.stock)
    outcomes = dict(state.chance_outcomes())
    assert sum(outcomes.values()) == pytest.approx(1.0)
    assert set(outcomes) == set(stock)
    card = max(outcomes)
    seat = state.deal.to_move
    before = state.deal.hands[seat][card]
    state.apply_action(card)
    assert state.deal.hands[seat][card] == before + 1 and state.deal.drawn == [card]


def test_konchinkas_deal_is_the_whole_deck_and_the_table_fix_positions() -> None:
    game = pyspiel.load_game("konkun_konchinka", {"players": 2})
    state = game.new_initial_state()
    state.apply_action(0)
    # two seats: the table's cards are the 3rd, 6th, 9th and 12th dealt; the Jack of clubs
    # (index 9) among them makes the fix ask chance where it goes back into the stock
    deck = list(range(52))
    deck[2], deck[9] = 9, 2
    for card in deck:
        state.apply_action(card)
    assert state.is_chance_node() and state.deal is None
    positions = state.chance_outcomes()
    assert len(positions) == 40 - 2 * 10 + 1
    state.apply_action(positions[0][0])
    assert not state.is_chance_node()
    view = state.deal.observe(0).to_json()
    assert "Jc" not in view["table"] and view["known_in_stock"] == ["Jc"]  # sent back


@pytest.mark.parametrize("name", ["konkun_konchinka", "konkun_kunken"])
def test_a_resampled_state_has_the_same_information_state(name: str) -> None:
    game = pyspiel.load_game(name, {"players": 2})
    rng = np.random.RandomState(5)
    state = _play_to(game.new_initial_state(), rng,
                     lambda s: s.deal is not None and len(s.deal.history) >= 30)
    player = state.current_player()
    assert player >= 0
    for _ in range(3):
        other = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0, 1))
        assert other.information_state_string(player) == state.information_state_string(player)
        np.testing.assert_array_equal(other.information_state_tensor(player),
                                      state.information_state_tensor(player))
        assert sorted(other.legal_actions()) == sorted(state.legal_actions())


def test_the_kunken_information_state_names_the_seats_own_draws_only() -> None:
    game = pyspiel.load_game("konkun_kunken", {"players": 2})
    state = _play_to(game.new_initial_state(), np.random.RandomState(2),
                     lambda s: s.deal is not None and len(s.deal.drawn) >= 4)
    text = [state.information_state_string(p) for p in range(2)]
    assert all('"my_draws"' in t for t in text)
    import json

    mine = [json.loads(t.split(" ", 1)[1])["my_draws"] for t in text]
    assert len(mine[0]) + len(mine[1]) == len(state.deal.drawn)
    assert len(state.information_state_tensor(0)) == game.information_state_tensor_size()


def test_openspiels_algorithms_run_unchanged() -> None:
    from open_spiel.python.algorithms import ismcts, mcts, outcome_sampling_mccfr

    konchinka = pyspiel.load_game("konkun_konchinka", {"players": 2})
    np.random.seed(1)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(konchinka)
    for _ in range(3):
        solver.iteration()
    assert solver.average_policy() is not None
    for name in ("konkun_konchinka", "konkun_kunken"):
        game = pyspiel.load_game(name, {"players": 2})
        rng = np.random.RandomState(1)
        state = _play_to(game.new_initial_state(), rng, lambda s: not s.is_chance_node())
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 1.4, 3,
                               random_state=rng)
        assert bot.step(state) in state.legal_actions()


def test_mccfr_runs_unchanged_on_the_deck_ranks_research_setting() -> None:
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    small = pyspiel.load_game("konkun_konchinka", {"players": 2, "deck_ranks": 7})
    np.random.seed(2)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(small)
    for _ in range(10):
        solver.iteration()
    state = _play_to(small.new_initial_state(), np.random.RandomState(3),
                     lambda s: not s.is_chance_node())
    assert sorted(state.chance_outcomes() if state.is_chance_node() else []) == []
    dealt = state.history()[1:29]  # the dealer, then the 28 cards
    assert {a % 13 for a in dealt} <= {12, 0, 1, 2, 3, 4, 5}  # A to 7 only
    policy = solver.average_policy().action_probabilities(state)
    assert set(policy) == set(state.legal_actions())
    assert sum(policy.values()) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="deck_ranks=7 for 4 players"):
        pyspiel.load_game("konkun_konchinka", {"players": 4, "deck_ranks": 7})


@pytest.mark.parametrize(("game", "spec"), [
    ("konchinka", "openspiel:algo=ismcts:sims=3"),
    ("konchinka", "openspiel:algo=mccfr:train=3"),
    ("kunken", "openspiel:algo=ismcts:sims=2"),
])
def test_the_openspiel_bots_play_against_the_ladder_in_the_arena(game: str,
                                                                 spec: str) -> None:
    games = 2 if game == "konchinka" else 1  # a Kunken deal of random roll-outs is slow
    config = ArenaConfig(game, (spec, "casual"), 2, games, duplicate=games > 1, seed=2)
    assert run_arena(config, backend="serial").games == games


def test_the_openspiel_spec_names_the_extra_when_it_is_missing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "konkun.openspiel", None)
    with pytest.raises(InvalidBotSpecError, match="openspiel extra"):
        BotSpec.parse("openspiel:algo=ismcts").create("konchinka")
    monkeypatch.undo()
    with pytest.raises(InvalidBotSpecError, match="algo must be one of ismcts, mccfr"):
        BotSpec.parse("openspiel:algo=cfr").create("konchinka")
