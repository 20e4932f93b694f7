"""The self-play vector environment: many deals stepped in one call, every seat of every
deal played by the caller (:class:`SelfPlayVectorEnv`).

Where :class:`~konkun.rl.vector.KonkunVectorEnv` puts the agent at one seat and plays the
others itself, here nobody else plays: each step takes one action per deal, for the seat
to move in that deal, and returns each deal's next observation as the seat to move then
sees it (:attr:`SelfPlayVectorEnv.to_move`, also ``infos["to_move"]``), with that seat's
legal slots (:meth:`~SelfPlayVectorEnv.action_masks`). It is the batched form of the
PettingZoo AEC environment: one policy for every seat, or one per seat picked by
``to_move``. Each step is one decision of one seat in every deal, so an agent step here is
any seat's move.

Rewards. ``rewards[i]`` is the reward of the seat that acted in deal ``i``
(``infos["seat"]``): the illegal-action penalty, and at the deal's end its reward for the
deal's points (``reward``: ``points``, ``margin`` or, by default, ``zero_sum``).
``infos["rewards"]`` holds every seat's reward of the step, ``(num_envs, num_seats)``, so
the seats that did not make the last move get theirs too. Autoreset is Gymnasium's
``SAME_STEP``, as in the vector env: a deal that ends is dealt anew in the same step, its
last observation (as the seat that ended it sees it) in ``infos["final_obs"]``, its points
in ``infos["final_info"]["points"]``. Observations and masks are written into
preallocated arrays that every step overwrites.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from konkun.rl.adapter import GameAdapter
from konkun.rl.gym_env import reward_of
from konkun.rl.vector import DealBatchEnv, action_list, seeded_rngs
from konkun.rl.vector_core import core_for

FloatArray = npt.NDArray[np.float32]


class SelfPlayVectorEnv(DealBatchEnv):
    """``num_envs`` deals of one game, every seat played by the caller's actions (see the
    module). ``illegal_action`` (``random``, default: a random legal move is played, with
    the penalty; or ``penalize``: nothing is played) and ``illegal_penalty`` are those of
    the vector env (``reward_scale`` too); ``fast=False`` plays through the generic adapter path."""

    def __init__(self, adapter: GameAdapter, num_envs: int, num_seats: int = 2,
                 reward: str = "zero_sum", illegal_action: str = "random",
                 illegal_penalty: float = -1.0, fast: bool = True,
                 reward_scale: float = 1.0) -> None:
        self._set_up(adapter, num_envs, num_seats, reward, illegal_action, illegal_penalty,
                     reward_scale)
        self._core = core_for(adapter, num_seats, 0, num_envs, False, fast)
        self._seat_rewards = np.zeros((num_envs, num_seats), dtype=np.float64)
        self.to_move = np.zeros(num_envs, dtype=np.int64)
        """The seat each deal's observation belongs to (the seat to move there)."""
        self._slots: list[dict[int, Any]] = [{} for _ in range(num_envs)]

    # ------------------------------------------------------------------ Gymnasium API

    def reset(self, *, seed: int | Sequence[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[FloatArray, dict[str, Any]]:
        """Deal every deal anew (deal ``i`` from ``seed + i`` when a seed is given)."""
        if seed is not None:
            self._rngs = seeded_rngs(seed, self.num_envs)
        for i in range(self.num_envs):
            self._core.new(i, self._rngs[i])
        self._encode()
        return self._observations, {"action_mask": self._masks, "to_move": self.to_move}

    def step(self, actions: Any) -> tuple[FloatArray, npt.NDArray[np.float64],
                                          npt.NDArray[np.bool_], npt.NDArray[np.bool_],
                                          dict[str, Any]]:
        """Play each deal's action for the seat to move there."""
        chosen = action_list(actions, self.num_envs)
        rewards = self._rewards
        rewards.fill(0.0)
        seat_rewards = self._seat_rewards
        seat_rewards.fill(0.0)
        terminations = self._terminations
        terminations.fill(False)
        acted = self.to_move.copy()
        core = self._core
        moves = [slots.get(action) for slots, action in zip(self._slots, chosen, strict=True)]
        rows = list(range(self.num_envs))
        if any(move is None for move in moves):
            rows, moves = self._legal_moves(moves, acted)
        ended = core.apply_moves(rows, moves)
        for i in ended:
            points = core.points(i)
            for s in range(self.num_seats):
                seat_rewards[i, s] += reward_of(self.reward_kind, points, s) * self.reward_scale
            rewards[i] = seat_rewards[i, acted[i]]
            terminations[i] = True
        infos = self._final_infos(ended, acted) if ended else {}
        self._encode()
        infos.update(action_mask=self._masks, to_move=self.to_move, seat=acted,
                     rewards=seat_rewards)
        return self._observations, rewards, terminations, self._truncations, infos

    def legal_slots(self, index: int) -> dict[int, Any]:
        """Deal ``index``'s legal slots of the seat to move (slot -> move)."""
        return dict(self._slots[index])

    # ------------------------------------------------------------------ inside

    def _legal_moves(self, moves: list[Any], acted: npt.NDArray[np.int64]) -> tuple[
            list[int], list[Any]]:
        """The deals to play and their moves, where ``moves[i]`` is ``None`` for an illegal
        slot: the penalty, then a random legal move (or, with ``penalize``, no move)."""
        rows: list[int] = []
        played: list[Any] = []
        for i, move in enumerate(moves):
            if move is None:
                slots = self._slots[i]
                self._rewards[i] = self._seat_rewards[i, acted[i]] = self.illegal_penalty
                if self.illegal_action == "penalize":
                    continue
                move = slots[self._rngs[i].choice(sorted(slots))]
            rows.append(i)
            played.append(move)
        return rows, played

    def _final_infos(self, ended: list[int], acted: npt.NDArray[np.int64]) -> dict[str, Any]:
        """The infos of the deals in ``ended`` (their last observations, as the seat that
        ended each sees it, and their points), then deal them anew."""
        final = np.zeros((len(ended), self._observations.shape[1]), dtype=np.float32)
        self._core.encode_each([int(acted[i]) for i in ended], final, ended)
        final_obs = np.full(self.num_envs, None, dtype=object)
        points = np.zeros((self.num_envs, self.num_seats), dtype=np.int64)
        present = np.zeros(self.num_envs, dtype=np.bool_)
        for row, i in enumerate(ended):
            final_obs[i] = final[row]
            points[i] = self._core.points(i)
            present[i] = True
            self._core.new(i, self._rngs[i])
        return {"final_obs": final_obs, "_final_obs": present,
                "final_info": {"points": points, "_points": present.copy()},
                "_final_info": present.copy()}

    def _encode(self) -> None:
        """Each deal's mover, legal slots, mask and tensor."""
        self.to_move[:] = self._core.observe_movers(self._slots, self._masks, self._observations)


__all__ = ["SelfPlayVectorEnv"]
