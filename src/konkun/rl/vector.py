"""Vectorised environments: many deals stepped in one call (Gymnasium ``VectorEnv``).

``KonkunVectorEnv`` holds ``num_envs`` deals of one game, the agent at ``seat`` in each,
the other seats played by ``opponents`` (as in :class:`~konkun.rl.gym_env.KonkunGymEnv`).
Observations are the flat observation tensors, written into one preallocated
``(num_envs, size)`` float32 array, and the legal slots into one preallocated
``(num_envs, n)`` boolean array (:meth:`action_masks`, also ``infos["action_mask"]``); both
arrays are overwritten by every step (copy them to keep them). Autoreset is Gymnasium's
``SAME_STEP``: a deal that ends is dealt anew in the same step, its last observation in
``infos["final_obs"]`` and its points in ``infos["final_info"]["points"]``.

The deals are held and stepped by a core (:mod:`konkun.rl.vector_core`): the generic one
through the adapter, or the game's own fast one, which its adapter names in
``vector_core`` (Konchinka's batch of plain integers against random opponents and its
integer move path against others, :mod:`konkun.rl.konchinka_vector`; Kunken's core with
its table rows kept from step to step, :mod:`konkun.rl.kunken_vector`). A core with a
``batch`` steps the agent's actions of every deal itself; opponents' moves go through the
core (``random_move``, ``push_action``), which may track what they change. The tests
check each path against the engine and the adapter.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from konkun.errors import InvalidRuleError
from konkun.rl.adapter import GameAdapter, check_seats, integer_slots
from konkun.rl.aec import check_reward_scale
from konkun.rl.gym_env import ILLEGAL_ACTIONS, REWARDS, check_choice, opponent_specs_of, reward_of
from konkun.rl.policies import Opponent, RandomPolicy, TensorPolicy, make_policy
from konkun.rl.vector_core import SlotBatch, VectorCore, core_for, write_masks

FloatArray = npt.NDArray[np.float32]


def action_list(actions: Any, num_envs: int) -> list[int]:
    """One step's ``actions`` as ``num_envs`` integer slots, one per deal: any array-like of
    that shape holding integers (or floats of integral value, as the single env takes).
    Anything else is refused with an error naming it, before any deal is played
    (:func:`~konkun.rl.adapter.integer_slots`, the single environment's check too)."""
    return [int(action) for action in integer_slots(actions, (num_envs,)).tolist()]


def seeded_rngs(seed: int | Sequence[int] | None, num_envs: int) -> list[random.Random]:
    """One generator per deal: from ``seed + i`` (an integer seed), from ``seed[i]`` (a
    list of ``num_envs`` seeds), or from the system (``None``)."""
    if seed is None:
        return [random.Random(secrets.randbits(64)) for _ in range(num_envs)]
    if isinstance(seed, int | np.integer):
        seeds = [int(seed) + i for i in range(num_envs)]
    else:
        seeds = list(seed)
    if len(seeds) != num_envs:
        raise InvalidRuleError(f"invalid seed list: {len(seeds)} seeds for {num_envs} "
                               "environments")
    return [random.Random(s) for s in seeds]


class DealBatchEnv(VectorEnv):
    """What the vector envs share: ``num_envs`` deals of one game held by a core, their
    flat observation tensors and legal-slot masks written into preallocated arrays, and
    Gymnasium's ``SAME_STEP`` autoreset."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (as gymnasium.vector.VectorEnv)
        "autoreset_mode": AutoresetMode.SAME_STEP}
    _core: VectorCore

    def _set_up(self, adapter: GameAdapter, num_envs: int, num_seats: int, reward: str,
                illegal_action: str, illegal_penalty: float,
                reward_scale: float = 1.0) -> None:
        """Check the arguments the vector envs share, then set their spaces and arrays."""
        check_seats(adapter, num_seats)
        if num_envs < 1:
            raise InvalidRuleError(f"invalid num_envs {num_envs!r}: expected >= 1")
        check_choice("reward", reward, REWARDS)
        check_choice("illegal_action", illegal_action, [a for a in ILLEGAL_ACTIONS if a != "raise"])
        self.adapter = adapter
        self.num_envs = num_envs
        self.num_seats = num_seats
        self.reward_kind = reward
        self.reward_scale = check_reward_scale(reward_scale)
        self.illegal_action = illegal_action
        self.illegal_penalty = illegal_penalty
        size = int(np.prod(adapter.observation_shape(num_seats)))
        self.single_observation_space = spaces.Box(0.0, 1.0, (size,), np.float32)
        self.single_action_space = spaces.Discrete(adapter.action_size)
        self.observation_space = spaces.Box(0.0, 1.0, (num_envs, size), np.float32)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, adapter.action_size))
        self._observations = np.zeros((num_envs, size), dtype=np.float32)
        self._masks = np.zeros((num_envs, adapter.action_size), dtype=np.bool_)
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._terminations = np.zeros(num_envs, dtype=np.bool_)
        self._truncations = np.zeros(num_envs, dtype=np.bool_)
        self._rngs = seeded_rngs(None, num_envs)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Each deal's legal slots of the seat the observation is for, ``(num_envs, n)``
        booleans (the array is overwritten by the next step)."""
        return self._masks

    def deal(self, index: int) -> Any:
        """Deal ``index`` as the engine's deal (on the Konchinka batch a snapshot of its
        position, without the history): for checks against the engine."""
        return self._core.engine_deal(index)

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release."""


class KonkunVectorEnv(DealBatchEnv):
    """``num_envs`` deals of one game, the agent at ``seat`` of each (see the module).

    ``reward``, ``reward_scale``, ``illegal_action`` (``random``, default, or ``penalize``)
    and ``illegal_penalty`` are those of the single environment; ``fast=False`` uses the
    generic adapter path for Konchinka too (the reference the fast path is tested against).
    """

    def __init__(self, adapter: GameAdapter, num_envs: int, num_seats: int = 2,
                 seat: int = 0, opponents: str | Opponent | Sequence[str | Opponent] = "random",
                 reward: str = "points", illegal_action: str = "random",
                 illegal_penalty: float = -1.0, fast: bool = True,
                 reward_scale: float = 1.0) -> None:
        self._set_up(adapter, num_envs, num_seats, reward, illegal_action, illegal_penalty,
                     reward_scale)
        if not 0 <= seat < num_seats:
            raise InvalidRuleError(f"invalid seat {seat!r} for {num_seats} players")
        self.opponent_specs = opponent_specs_of(adapter, opponents, num_seats)
        self.seat = seat
        self._all_random = all(spec == "random" for spec in self.opponent_specs)
        self._core = core_for(adapter, num_seats, seat, num_envs, self._all_random, fast)
        self._policies: list[dict[int, Opponent]] = [{} for _ in range(num_envs)]
        self._slots: list[dict[int, Any]] = [{} for _ in range(num_envs)]
        self._batch = self._core.batch

    # ------------------------------------------------------------------ Gymnasium API

    def reset(self, *, seed: int | Sequence[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[FloatArray, dict[str, Any]]:
        """Deal every deal anew (deal ``i`` from ``seed + i`` when a seed is given)."""
        if seed is not None:
            self._rngs = seeded_rngs(seed, self.num_envs)
        for i in range(self.num_envs):
            self._new_deal(i)
        self._encode(range(self.num_envs))
        return self._observations, {"action_mask": self._masks}

    def step(self, actions: Any) -> tuple[FloatArray, npt.NDArray[np.float64],
                                          npt.NDArray[np.bool_], npt.NDArray[np.bool_],
                                          dict[str, Any]]:
        """Play each deal's agent action, then the others' up to the agent or the end."""
        chosen = action_list(actions, self.num_envs)
        rewards = self._rewards
        rewards.fill(0.0)
        terminations = self._terminations
        terminations.fill(False)
        infos: dict[str, Any] = {}
        core = self._core
        if self._batch is not None:
            ended = self._play_batch(self._batch, chosen)
        else:
            ended = []
            for i, action in enumerate(chosen):
                slots = self._slots[i]
                move = slots.get(action)
                if move is None:
                    rewards[i] = self.illegal_penalty
                    if self.illegal_action == "penalize":
                        continue
                    move = slots[self._rngs[i].choice(sorted(slots))]
                core.apply(i, move)
                self._play_others(i)
                if core.to_move(i) is None:
                    rewards[i] += self._reward(core.points(i))
                    terminations[i] = True
                    ended.append(i)
        if ended:
            infos = self._final_infos(ended)
        self._encode(range(self.num_envs))
        infos["action_mask"] = self._masks
        return self._observations, rewards, terminations, self._truncations, infos

    def legal_slots(self, index: int) -> dict[int, Any]:
        """Deal ``index``'s legal slots of the agent (slot -> move, the engine's action or
        on the fast path the engine's internal move)."""
        if self._batch is not None:
            return self._core.slots(index)
        return dict(self._slots[index])

    # ------------------------------------------------------------------ inside

    def _play_batch(self, batch: SlotBatch, actions: list[int]) -> list[int]:
        """:meth:`step`'s loop on the core's batch (the same rewards and illegal-action
        handling as the general loop)."""
        rewards = self._rewards
        terminations = self._terminations
        rngs = self._rngs
        play = batch.play_agent
        ended: list[int] = []
        for i, action in enumerate(actions):
            outcome = play(i, action, rngs[i])
            if outcome < 0:
                rewards[i] = self.illegal_penalty
                if self.illegal_action == "penalize":
                    continue
                outcome = play(i, rngs[i].choice(batch.legal_slot_list(i)), rngs[i])
            if outcome:
                rewards[i] += self._reward(batch.points(i))
                terminations[i] = True
                ended.append(i)
        return ended

    def _final_infos(self, ended: list[int]) -> dict[str, Any]:
        """The infos of the deals in ``ended`` (their last observations and points, as
        Gymnasium's ``_add_info`` lays them out), then deal them anew."""
        final = np.zeros((len(ended), self._observations.shape[1]), dtype=np.float32)
        self._core.encode(self.seat, final, ended)
        final_obs = np.full(self.num_envs, None, dtype=object)
        points = np.zeros((self.num_envs, self.num_seats), dtype=np.int64)
        present = np.zeros(self.num_envs, dtype=np.bool_)
        for row, i in enumerate(ended):
            final_obs[i] = final[row]
            points[i] = self._core.points(i)
            present[i] = True
            self._new_deal(i)
        return {"final_obs": final_obs, "_final_obs": present,
                "final_info": {"points": points, "_points": present.copy()},
                "_final_info": present.copy()}

    def _new_deal(self, i: int) -> None:
        """Deal deal ``i`` anew from its generator (the cards first, so a seed deals what
        the single and AEC environments deal for it; the opponents' seeds after)."""
        rng = self._rngs[i]
        self._core.new(i, rng)
        if not self._all_random:
            others = [s for s in range(self.num_seats) if s != self.seat]
            self._policies[i] = {
                s: make_policy(spec, self.adapter.name, rng.getrandbits(63))
                for s, spec in zip(others, self.opponent_specs, strict=True)}
        self._play_others(i)
        while self._core.to_move(i) is None:  # an opponent went out before the agent
            self._core.new(i, rng)             # moved (Kunken, very rare): deal again
            self._play_others(i)

    def _play_others(self, i: int) -> None:
        core = self._core
        seat = self.seat
        rng = self._rngs[i]
        while True:
            mover = core.to_move(i)
            if mover is None or mover == seat:
                break
            if self._all_random:
                core.random_move(i, rng)
                continue
            policy = self._policies[i][mover]
            if isinstance(policy, RandomPolicy):
                core.random_move(i, policy.rng)
            else:
                self._policy_move(i, mover, policy)

    def _policy_move(self, i: int, mover: int, policy: Opponent) -> None:
        core = self._core
        deal = core.deals[i]
        if isinstance(policy, TensorPolicy):
            from konkun.rl.policies import tensor_of_deal

            tensor = tensor_of_deal(self.adapter, policy.view, deal, mover)
            action = policy.choose(self.adapter, tensor,
                                   self.adapter.slots(deal, deal.legal_actions()))
        else:
            observation = deal.observe(mover)
            action = policy(observation, observation.legal_actions())
        core.push_action(i, action)

    def _reward(self, points: Sequence[int]) -> float:
        return reward_of(self.reward_kind, points, self.seat) * self.reward_scale

    def _encode(self, rows: range) -> None:
        core = self._core
        if self._batch is not None:
            self._batch.write(self._observations, self._masks)
            return
        all_slots = self._slots
        fill = core.fill_slots
        for i in rows:
            slots = all_slots[i] = {}
            fill(i, slots)
        write_masks(self._masks, all_slots, rows, self.adapter.action_size)
        core.encode(self.seat, self._observations, rows)


__all__ = ["KonkunVectorEnv", "action_list", "seeded_rngs"]
