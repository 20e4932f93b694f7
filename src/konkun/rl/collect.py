"""A trajectory collector over the vector environments: observations, masks, actions,
rewards and ends of ``steps`` steps of every deal, as numpy arrays.

>>> from konkun.rl.envs import konchinka_vector_env
>>> env = konchinka_vector_env(4)
>>> batch = collect(env, random_masked_policy(seed=1), steps=8, seed=3)
>>> batch.actions.shape, batch.masks.shape
((8, 4), (8, 4, 1664))
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from konkun.errors import InvalidRuleError
from konkun.rl.policies import TensorPolicy
from konkun.rl.vector import KonkunVectorEnv

BatchPolicy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.bool_]], npt.NDArray[np.int64]]
"""A policy over a batch: (observations ``(N, D)``, masks ``(N, A)``) -> slots ``(N,)``."""


@dataclass(frozen=True)
class Trajectories:
    """``steps`` steps of ``N`` deals: index ``[t, i]`` is step ``t`` of deal ``i``.

    ``observations[t]`` and ``masks[t]`` are what the agent saw before acting
    ``actions[t]``; ``rewards[t]`` and ``terminations[t]`` what that action brought (after
    a termination, ``observations[t + 1]`` is the next deal's first position).
    """

    observations: npt.NDArray[np.float32]
    masks: npt.NDArray[np.bool_]
    actions: npt.NDArray[np.int64]
    rewards: npt.NDArray[np.float64]
    terminations: npt.NDArray[np.bool_]


def random_masked_policy(seed: int | None = None) -> BatchPolicy:
    """A batch policy choosing uniformly among each row's legal slots."""
    rng = np.random.default_rng(seed)

    def policy(observations: npt.NDArray[np.float32],
               masks: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
        """One random legal slot per row."""
        flat = np.flatnonzero(masks)
        counts = masks.sum(axis=1)
        starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
        picks = starts + (rng.random(len(counts)) * counts).astype(np.int64)
        slots: npt.NDArray[np.int64] = flat[picks] - np.arange(len(counts)) * masks.shape[1]
        return slots

    return policy


def batched(policy: TensorPolicy) -> BatchPolicy:
    """A batch policy asking a ``view="flat"`` tensor policy row by row."""
    if policy.view != "flat":
        raise InvalidRuleError(f"invalid policy {policy.name!r} for the vector environment: "
                               f"its view is {policy.view!r}, the vector observation 'flat'")

    def ask(observations: npt.NDArray[np.float32],
            masks: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
        """The policy's slot for each row."""
        return np.array([policy(row, mask.astype(np.int8))
                         for row, mask in zip(observations, masks, strict=True)],
                        dtype=np.int64)

    return ask


def collect(env: KonkunVectorEnv, policy: BatchPolicy, steps: int,
            seed: int | None = None) -> Trajectories:
    """Reset ``env`` (with ``seed``) and step it ``steps`` times with ``policy``."""
    if steps < 1:
        raise InvalidRuleError(f"invalid steps {steps!r}: expected >= 1")
    n = env.num_envs
    size = int(np.prod(env.adapter.observation_shape(env.num_seats)))
    observations = np.zeros((steps, n, size), dtype=np.float32)
    masks = np.zeros((steps, n, env.adapter.action_size), dtype=np.bool_)
    actions = np.zeros((steps, n), dtype=np.int64)
    rewards = np.zeros((steps, n), dtype=np.float64)
    terminations = np.zeros((steps, n), dtype=np.bool_)
    current, _ = env.reset(seed=seed)
    for t in range(steps):
        observations[t] = current
        masks[t] = env.action_masks()
        actions[t] = policy(observations[t], masks[t])
        current, rewards[t], terminations[t], _, _ = env.step(actions[t])
    return Trajectories(observations, masks, actions, rewards, terminations)
