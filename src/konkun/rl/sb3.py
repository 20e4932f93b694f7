"""Stable-Baselines3 on the fast path: an SB3 ``VecEnv`` over the batch environments.

SB3 steps its own ``VecEnv`` class, not a Gymnasium ``VectorEnv``, so
``MaskablePPO("MlpPolicy", konchinka_vector_env(8))`` is refused. :func:`vec_env` wraps the
fast batch environment (:class:`~konkun.rl.vector.KonkunVectorEnv`: every deal stepped in
one call) as one:

>>> from sb3_contrib import MaskablePPO                           # doctest: +SKIP
>>> from konkun.rl.sb3 import vec_env
>>> env = vec_env("konkun/Konchinka-v0", 64, reward="zero_sum")
>>> model = MaskablePPO("MlpPolicy", env).learn(100_000)          # doctest: +SKIP

``env_method("action_masks")`` gives each deal's legal slots (what ``MaskablePPO`` asks
for); a deal that ends is dealt anew in the same step, its last observation in
``infos[i]["terminal_observation"]`` as SB3 expects, its points in ``infos[i]["points"]``
and the episode's return and length in ``infos[i]["episode"]`` (what ``VecMonitor`` would
add, so SB3 logs ``ep_rew_mean`` without one). Needs the ``train`` extra
(``stable-baselines3``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from stable_baselines3.common.vec_env.base_vec_env import (
    VecEnv,
    VecEnvIndices,
    VecEnvObs,
    VecEnvStepReturn,
)

from konkun.errors import InvalidRuleError
from konkun.game import game_names, get_game
from konkun.rl.vector import DealBatchEnv

PER_DEAL_METHODS = ("action_masks", "legal_slots", "deal")
"""The methods :meth:`KonkunSB3VecEnv.env_method` calls for each deal it is asked about."""


def game_of_id(env_id: str) -> str:
    """The konkun game of a Gymnasium id (``konkun/Konchinka-v0``, with or without the
    ``konkun.rl:`` module prefix) or of a game name (``konchinka``)."""
    name = env_id.split(":", 1)[1] if ":" in env_id else env_id
    for game in game_names():
        descriptor = get_game(game)
        if not descriptor.addons.get("rl"):
            continue
        if name in (game, f"konkun/{descriptor.title.en}-v0"):
            return game
    known = [f"konkun/{get_game(g).title.en}-v0" for g in game_names()
             if get_game(g).addons.get("rl")]
    raise InvalidRuleError(f"invalid env_id {env_id!r}: expected one of {', '.join(known)}")


def vec_env(env_id: str, num_envs: int = 16, **options: Any) -> KonkunSB3VecEnv:
    """The SB3 ``VecEnv`` of ``num_envs`` deals of the game ``env_id`` names
    (``"konkun/Konchinka-v0"``, ``"konkun/Kunken-v0"`` or a game name), over the fast batch
    environment; ``options`` are those of :func:`konkun.rl.envs.make_vector_env`
    (``num_players``, ``rules``, ``seat``, ``opponents``, ``reward``, ``reward_scale``,
    ``illegal_action``, ``capture_slots``, ...)."""
    from konkun.rl.envs import make_vector_env

    return KonkunSB3VecEnv(make_vector_env(game_of_id(env_id), num_envs, **options))


class KonkunSB3VecEnv(VecEnv):
    """A konkun batch environment (:class:`~konkun.rl.vector.DealBatchEnv`) as a
    Stable-Baselines3 ``VecEnv`` (see the module). Observations, rewards and masks are
    copies, so SB3 may keep them across steps."""

    def __init__(self, env: DealBatchEnv) -> None:
        self.env = env
        super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)
        self._actions: Any = None
        self._returns = np.zeros(env.num_envs, dtype=np.float64)
        self._lengths = np.zeros(env.num_envs, dtype=np.int64)
        self._started = time.perf_counter()

    # ------------------------------------------------------------------ stepping

    def reset(self) -> VecEnvObs:
        """Deal every deal anew: deal ``i`` from ``seed + i`` after :meth:`seed`."""
        seeds = [s for s in self._seeds if s is not None]
        seed = seeds if len(seeds) == self.num_envs else None
        observations, _ = self.env.reset(seed=seed)  # type: ignore[arg-type]
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = [{} for _ in range(self.num_envs)]
        self._returns.fill(0.0)
        self._lengths.fill(0)
        return np.array(observations)

    def step_async(self, actions: npt.NDArray[Any]) -> None:
        """Keep the actions for :meth:`step_wait`."""
        self._actions = actions

    def step_wait(self) -> VecEnvStepReturn:
        """Step every deal; a deal that ends is dealt anew (its last observation in
        ``infos[i]["terminal_observation"]``)."""
        observations, rewards, terminations, truncations, info = self.env.step(self._actions)
        dones = terminations | truncations
        self._returns += rewards
        self._lengths += 1
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if dones.any():
            self._finish(np.flatnonzero(dones), infos, info, truncations, terminations)
        return observations.copy(), rewards.astype(np.float32), dones, infos

    def _finish(self, ended: npt.NDArray[np.int64], infos: list[dict[str, Any]],
                info: dict[str, Any], truncations: npt.NDArray[np.bool_],
                terminations: npt.NDArray[np.bool_]) -> None:
        """The infos of the deals that ended: last observation, points, episode stats."""
        final_obs = info.get("final_obs")
        points = info.get("final_info", {}).get("points")
        elapsed = round(time.perf_counter() - self._started, 6)
        for i in ended.tolist():
            entry = infos[i]
            if final_obs is not None and final_obs[i] is not None:
                entry["terminal_observation"] = final_obs[i]
            if points is not None:
                entry["points"] = points[i].tolist()
            entry["TimeLimit.truncated"] = bool(truncations[i] and not terminations[i])
            entry["episode"] = {"r": float(self._returns[i]), "l": int(self._lengths[i]),
                                "t": elapsed}
            self._returns[i] = 0.0
            self._lengths[i] = 0

    def close(self) -> None:
        """Close the batch environment."""
        self.env.close()

    # ------------------------------------------------------------------ attributes

    def _indices(self, indices: VecEnvIndices) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int | np.integer):
            return [int(indices)]
        return [int(i) for i in indices]

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """The batch environment's attribute ``attr_name``, once per index (every deal
        shares it); a per-deal method (:data:`PER_DEAL_METHODS`) as found."""
        value = None if attr_name == "render_mode" else getattr(self.env, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Set the batch environment's attribute (shared by every deal)."""
        setattr(self.env, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None,
                   **method_kwargs: Any) -> list[Any]:
        """Each deal's result of a per-deal method: ``action_masks`` (its legal slots as
        booleans, a copy), ``legal_slots`` (slot -> move), ``deal`` (the engine's deal)."""
        chosen = self._indices(indices)
        if method_name == "action_masks":
            return list(self.env.action_masks()[chosen])
        if method_name in PER_DEAL_METHODS:
            method = getattr(self.env, method_name)
            return [method(i, *method_args, **method_kwargs) for i in chosen]
        raise AttributeError(f"invalid method {method_name!r}: the batch environment's "
                             f"per-deal methods are {', '.join(PER_DEAL_METHODS)}")

    def env_is_wrapped(self, wrapper_class: type[Any],
                       indices: VecEnvIndices = None) -> list[bool]:
        """No deal is wrapped by a Gymnasium wrapper."""
        return [False for _ in self._indices(indices)]

    def get_images(self) -> Sequence[npt.NDArray[Any] | None]:
        """No images: the games render as text (``konkun.rl.text.view_text``)."""
        return [None for _ in range(self.num_envs)]

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """Deal ``i`` from ``seed + i`` at the next :meth:`reset`."""
        return list(super().seed(seed))


__all__ = ["KonkunSB3VecEnv", "game_of_id", "vec_env"]
