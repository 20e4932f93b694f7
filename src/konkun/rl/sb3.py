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

:class:`MaskedMlpPolicy` is ``MaskablePPO``'s ``MlpPolicy`` with a faster masked
distribution (the same probabilities; see the class), for the games' 1,664 actions:

>>> model = MaskablePPO(MaskedMlpPolicy, env)                     # doctest: +SKIP
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from sb3_contrib.common.maskable.distributions import MaskableCategoricalDistribution
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
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


ILLEGAL_LOG_PROB = -1e8
"""The log-probability :class:`MaskedCategorical` gives an illegal action (sb3-contrib's
masked logit)."""


class MaskedCategorical:
    """A categorical distribution over each row's legal actions: the distribution
    ``MaskablePPO`` samples and trains with, held as the legal (row, action) pairs only.

    sb3-contrib's ``MaskableCategorical`` computes every action's logit, sets the illegal
    ones to -1e8 and normalises all of them: for the games' 1,664 actions of which a
    position has about 2% legal, most of the work (and its gradient) is on actions of
    probability 0, and the exponential of -1e8 leaves torch's vectorised path besides (a
    1,024 x 1,664 ``logsumexp`` takes about 9 times as long with such values in it).
    Here the logits are computed for the legal pairs alone (``x``: one per pair, from the
    same action layer), and the log-softmax is taken per row over them: the same
    probabilities (an illegal action's is 0, as in float32 sb3-contrib's is), entropy
    and gradients, with no ``torch.distributions`` argument checks. A row with no legal
    action counts every action legal (sb3-contrib's uniform masked row)."""

    def __init__(self, rows: Any, cols: Any, x: Any, batch: int) -> None:
        import torch

        self.rows, self.cols, self.x, self.batch = rows, cols, x, batch
        top = torch.full((batch,), -torch.inf, dtype=x.dtype, device=x.device)
        top = top.scatter_reduce(0, rows, x.detach(), "amax")[rows]
        shifted = x - top
        sums = torch.zeros(batch, dtype=x.dtype, device=x.device).index_add(
            0, rows, shifted.exp())
        self.log_probs = shifted - sums.log()[rows]
        """The log-probability of each legal pair."""

    @classmethod
    def of_latent(cls, latent: Any, layer: Any, masks: Any = None) -> MaskedCategorical:
        """The distribution of the action layer ``layer`` (an ``nn.Linear``) on the
        policy's ``latent`` rows, over the legal actions of ``masks`` (booleans)."""
        masks = _legal_pairs_mask(masks, latent.shape[0], layer.out_features, latent.device)
        rows, cols = masks.nonzero(as_tuple=True)
        x = (latent[rows] * layer.weight[cols]).sum(-1) + layer.bias[cols]
        return cls(rows, cols, x, latent.shape[0])

    @classmethod
    def of_logits(cls, logits: Any, masks: Any = None) -> MaskedCategorical:
        """The distribution of rows of ``logits`` over the legal actions of ``masks``."""
        masks = _legal_pairs_mask(masks, logits.shape[0], logits.shape[1], logits.device)
        rows, cols = masks.nonzero(as_tuple=True)
        return cls(rows, cols, logits[rows, cols], logits.shape[0])

    def log_prob(self, actions: Any) -> Any:
        """The log-probability of each row's action (:data:`ILLEGAL_LOG_PROB` for an
        illegal one)."""
        import torch

        match = self.cols == actions.long()[self.rows]
        out = torch.full((self.batch,), ILLEGAL_LOG_PROB, dtype=self.x.dtype,
                         device=self.x.device)
        return out.index_put((self.rows[match],), self.log_probs[match])

    def entropy(self) -> Any:
        """Each row's entropy."""
        import torch

        terms = self.log_probs.exp() * self.log_probs
        return -torch.zeros(self.batch, dtype=terms.dtype, device=terms.device).index_add(
            0, self.rows, terms)

    def _best(self, scores: Any) -> Any:
        """Each row's action of the highest ``scores`` (one per legal pair; the first
        on a tie)."""
        import torch

        top = torch.full((self.batch,), -torch.inf, dtype=scores.dtype,
                         device=scores.device).scatter_reduce(0, self.rows, scores, "amax")
        winners = scores == top[self.rows]
        index = torch.arange(len(scores), device=scores.device)
        first = torch.full((self.batch,), len(scores), device=scores.device).scatter_reduce(
            0, self.rows[winners], index[winners], "amin")
        return self.cols[first]

    def sample(self) -> Any:
        """One action per row, drawn from its probabilities (the largest of the
        log-probabilities plus Gumbel noise)."""
        import torch

        log_probs = self.log_probs.detach()
        return self._best(log_probs - torch.log(-torch.log(torch.rand_like(log_probs))))

    def mode(self) -> Any:
        """Each row's most probable action."""
        return self._best(self.x.detach())


def _legal_pairs_mask(masks: Any, batch: int, width: int, device: Any) -> Any:
    """``masks`` as a boolean tensor of ``batch`` x ``width`` (``None``: every action
    legal), a row with no legal action made all legal."""
    import torch

    if masks is None:
        return torch.ones((batch, width), dtype=torch.bool, device=device)
    masks = torch.as_tensor(masks, dtype=torch.bool, device=device).reshape(batch, width)
    empty = ~masks.any(-1, keepdim=True)
    return masks | empty if bool(empty.any()) else masks


class MaskedCategoricalDistribution(MaskableCategoricalDistribution):
    """sb3-contrib's masked categorical distribution on :class:`MaskedCategorical`: made
    from the policy's latent rows and its action layer, the logits computed when the
    masks are known (:meth:`apply_masking`), for the legal actions only."""

    def proba_distribution(self, action_logits: Any) -> MaskedCategoricalDistribution:
        """The distribution of ``action_logits`` (rows of ``action_dim``), unmasked."""
        self._source: tuple[Any, Any] = (action_logits.view(-1, self.action_dim), None)
        self.distribution: Any = None
        return self

    def from_latent(self, latent: Any, layer: Any) -> MaskedCategoricalDistribution:
        """The distribution of the action layer ``layer`` on ``latent``, unmasked."""
        self._source = (latent, layer)
        self.distribution = None
        return self

    def apply_masking(self, masks: Any) -> None:
        """Mask the illegal actions (``masks``: booleans, ``True`` legal; ``None``:
        unmask)."""
        values, layer = self._source
        if layer is None:
            self.distribution = MaskedCategorical.of_logits(values, masks)
        else:
            self.distribution = MaskedCategorical.of_latent(values, layer, masks)

    def _made(self) -> MaskedCategorical:
        if self.distribution is None:
            self.apply_masking(None)
        made: MaskedCategorical = self.distribution
        return made

    def log_prob(self, actions: Any) -> Any:
        """The log-probability of each row's action."""
        return self._made().log_prob(actions)

    def entropy(self) -> Any:
        """Each row's entropy."""
        return self._made().entropy()

    def sample(self) -> Any:
        """One action per row, drawn from its probabilities."""
        return self._made().sample()

    def mode(self) -> Any:
        """Each row's most probable action."""
        return self._made().mode()


class MaskedMlpPolicy(MaskableActorCriticPolicy):
    """``MaskablePPO``'s ``MlpPolicy`` (the same networks, parameters, options and
    training; a model saves and loads the same way) whose masked distribution is
    :class:`MaskedCategoricalDistribution`, for a ``Discrete`` action space: pass it as
    the policy, ``MaskablePPO(MaskedMlpPolicy, env)``."""

    def _build(self, lr_schedule: Any) -> None:
        if isinstance(self.action_dist, MaskableCategoricalDistribution):
            self.action_dist = MaskedCategoricalDistribution(self.action_dist.action_dim)
        super()._build(lr_schedule)

    def _get_action_dist_from_latent(self, latent_pi: Any) -> Any:
        if isinstance(self.action_dist, MaskedCategoricalDistribution):
            return self.action_dist.from_latent(latent_pi, self.action_net)
        return super()._get_action_dist_from_latent(latent_pi)


__all__ = ["ILLEGAL_LOG_PROB", "KonkunSB3VecEnv", "MaskedCategorical",
           "MaskedCategoricalDistribution", "MaskedMlpPolicy", "game_of_id", "vec_env"]
