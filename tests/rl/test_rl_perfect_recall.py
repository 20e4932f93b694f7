"""Perfect recall: the Kunken information state holds every action of the deal (not the
last 64) and the cards the seat itself drew, so it determines the seat's whole past; the
AEC environments give PettingZoo's global ``state()``."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from konkun.kunken.actions import DRAW
from konkun.rl.envs import adapter_for, make_env
from konkun.rl.kunken_adapter import KunkenAdapter, history_with_seats


def _history_rows(adapter: KunkenAdapter, deal: Any, seat: int) -> Any:
    n = deal.num_seats
    state = adapter.encode_info_state_deal(deal, seat)
    size = int(np.prod(adapter.observation_shape(n)))
    return state[size:].reshape(adapter.history_rows(n), 61 + n)


def _random_deal_steps(adapter: KunkenAdapter, players: int, seed: int) -> Any:
    """Yield the deal after every action of a uniformly random deal."""
    rng = random.Random(seed)
    deal = adapter.new_deal(players, rng)
    while not deal.is_over():
        legal = deal.legal_actions()
        deal.push(legal[rng.randrange(len(legal))])
        yield deal


@pytest.mark.parametrize("players", [2, 4])
def test_the_kunken_information_state_holds_every_action_of_a_long_deal(players: int) -> None:
    adapter = KunkenAdapter()
    earlier: dict[int, Any] = {}
    length = 0
    for deal in _random_deal_steps(adapter, players, seed=players):
        length = len(deal.history)
        for seat in range(players):
            rows = _history_rows(adapter, deal, seat)
            assert rows[:length].any(axis=1).all() and not rows[length:].any()
            before = earlier.get(seat)
            if before is not None:  # what the seat knew stays as it was: perfect recall
                np.testing.assert_array_equal(rows[:len(before)], before)
            earlier[seat] = rows[:length].copy()
    assert length > 64  # longer than the old window of the last 64 actions


def test_a_seat_sees_the_cards_it_drew_and_not_the_others_draws() -> None:
    adapter = KunkenAdapter()
    rng = random.Random(3)
    deal = adapter.new_deal(2, rng)
    drawn_by: list[tuple[int, int, int]] = []  # (history index, seat, card)
    while not deal.is_over() and len(drawn_by) < 12:
        legal = deal.legal_actions()
        action = legal[rng.randrange(len(legal))]
        seat = deal.to_move
        before = list(deal.hands[seat])
        deal.push(action)
        if action.kind == DRAW and not deal.is_over():
            card = next(c for c in range(53) if deal.hands[seat][c] > before[c])
            drawn_by.append((len(deal.history) - 1, seat, card))
    n = 2
    for seat in range(n):
        rows = _history_rows(adapter, deal, seat)
        for index, drawer, card in drawn_by:
            cards = np.flatnonzero(rows[index, 6 + n:6 + n + 53]).tolist()
            assert cards == ([card] if drawer == seat else [])


@pytest.mark.parametrize("players", [2, 5])
def test_the_history_rows_bound_every_deal_even_with_ten_stock_renewals(players: int) -> None:
    adapter = adapter_for("kunken", {"max_stock_renewals": "10"})
    assert adapter.history_rows(players) > KunkenAdapter().history_rows(players)
    for seed in range(3):
        steps = list(_random_deal_steps(adapter, players, seed))
        deal = steps[-1]
        assert len(history_with_seats(deal)) <= adapter.history_rows(players)
        adapter.encode_info_state_deal(deal, 0)  # never more actions than rows


@pytest.mark.parametrize(("game", "players"), [("konchinka", 2), ("konchinka", 4),
                                               ("kunken", 3)])
def test_the_aec_state_is_every_seats_observation(game: str, players: int) -> None:
    env = make_env(game, players)
    env.reset(seed=5)
    for _ in range(10):
        state = env.state()
        assert env.state_space.contains(state)
        parts = np.split(state, players)
        for seat, part in enumerate(parts):
            np.testing.assert_array_equal(
                part, env.observe(f"player_{seat}")["observation"].reshape(-1))
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(np.flatnonzero(mask)[0]))
