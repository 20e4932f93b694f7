"""Gymnasium single-agent environments: the agent holds one seat, bots play the others."""

from __future__ import annotations

import json
import random
import secrets
from collections.abc import Sequence
from typing import Any, SupportsFloat

import numpy as np
import numpy.typing as npt
from gymnasium import Env, spaces

from konkun.errors import IllegalMoveError, InvalidRuleError
from konkun.game import Deal, Match
from konkun.rl.adapter import GameAdapter, action_slot, check_seats, mask_of
from konkun.rl.aec import check_reward_scale, check_step_limit, dealt, observation_space
from konkun.rl.policies import (
    Opponent,
    Policy,
    RandomPolicy,
    TensorPolicy,
    make_policy,
    tensor_of_deal,
)
from konkun.rl.text import slot_for_text, view_text

ILLEGAL_ACTIONS = ("random", "penalize", "raise")
REWARDS = ("points", "margin", "zero_sum")
OBSERVATIONS = ("dict", "flat")
TENSORS = ("observation", "info_state")
EPISODES = ("deal", "match")
RENDER_MODES = ("human", "ansi")


class UnsupportedRenderModeError(InvalidRuleError, TypeError):
    """A render mode the environments do not offer (they render as text: ``ansi`` and
    ``human``). It is a ``TypeError`` too, as an argument the constructor does not take:
    Stable-Baselines3's ``make_vec_env`` asks every environment for ``rgb_array`` and,
    on a ``TypeError``, makes it again without a render mode."""


def check_choice(name: str, value: object, allowed: Sequence[str]) -> None:
    """Raise :class:`~konkun.errors.InvalidRuleError` naming ``name`` unless ``value`` is
    one of ``allowed``."""
    if value not in allowed:
        raise InvalidRuleError(f"invalid {name} {value!r}: expected one of {', '.join(allowed)}")


def gym_observation_space(adapter: GameAdapter, num_seats: int, observation: str = "dict",
                          tensor: str = "observation") -> spaces.Space[Any]:
    """The single-agent observation space: the AEC dictionary (``dict``) or one flat
    ``Box`` (``flat``), of the observation tensor or the information-state vector."""
    shape = (adapter.observation_shape(num_seats) if tensor == "observation"
             else (adapter.info_state_size(num_seats),))
    if observation == "flat":
        return spaces.Box(0.0, 1.0, (int(np.prod(shape)),), np.float32)
    if tensor == "observation":
        return observation_space(adapter, num_seats)
    return spaces.Dict({
        "observation": spaces.Box(0.0, 1.0, shape, np.float32),
        "action_mask": spaces.Box(0, 1, (adapter.action_size,), np.int8),
    })


def reward_of(kind: str, points: Sequence[int], seat: int) -> float:
    """The reward of ``seat`` for a deal's ``points``: ``points`` (its own), ``margin``
    (its own minus the best other's) or ``zero_sum`` (its own minus the others' mean)."""
    mine = points[seat]
    others = [p for s, p in enumerate(points) if s != seat]
    if kind == "points":
        return float(mine)
    if kind == "margin":
        return float(mine - max(others))
    return float(mine - sum(others) / len(others))


class KonkunGymEnv(Env[Any, np.int64]):
    """One deal (or a whole game or match) of a konkun game from one seat's point of view.

    The agent plays ``seat``; every other seat is played by ``opponents`` (one for all, or
    one per other seat: ``"random"``, a :mod:`konkun.bots` spec such as ``"greedy"``,
    ``"ismcts:iters=200"`` or ``"policy:module:callable"``, a callable over (observation,
    legal actions), or a :class:`~konkun.rl.policies.TensorPolicy` over (tensor, mask)).

    - ``observation="dict"`` (default): the AEC environment's dictionary (``observation``
      and ``action_mask``); ``"flat"``: one flat float32 vector, the mask kept out of it
      (:meth:`action_masks`, ``info["action_mask"]``), as ``MaskablePPO`` wants.
    - ``tensor="observation"`` (default) or ``"info_state"`` (the observation tensor and
      the action history, :meth:`information_state`).
    - ``episode="deal"`` (default) or ``"match"``: a whole Konchinka game to the target or
      a Kunken match; a reward comes at the end of every deal.
    - ``reward``: the agent's points for the deal (``points``), minus the best other seat's
      (``margin``), or minus the mean of the other seats' (``zero_sum``: the seats' rewards
      add up to 0).
    - ``reward_scale``: every deal's reward is multiplied by it (default 1; the
      illegal-action penalty is not).
    - ``illegal_action``: an action outside the mask is replaced by a uniformly random
      legal one (``random``, default) or changes nothing (``penalize``), both rewarded
      ``illegal_penalty`` with ``info["illegal_action"] = True``; or it raises
      :class:`konkun.errors.IllegalMoveError` (``raise``).
    - ``max_episode_steps``: truncate after this many agent steps (``None``: no limit).
    - ``render_mode``: ``"ansi"`` (:meth:`render` returns the agent's view as text) or
      ``"human"`` (prints it after every reset and step); anything else is refused.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (as gymnasium.Env)
        "render_modes": list(RENDER_MODES), "render_fps": 4}

    def __init__(self, adapter: GameAdapter, num_seats: int = 2, seat: int = 0,
                 opponents: str | Opponent | Sequence[str | Opponent] = "random",
                 reward: str = "points", illegal_action: str = "random",
                 illegal_penalty: float = -1.0, render_mode: str | None = None,
                 observation: str = "dict", tensor: str = "observation",
                 episode: str = "deal", max_episode_steps: int | None = None,
                 reward_scale: float = 1.0) -> None:
        check_seats(adapter, num_seats)
        if not 0 <= seat < num_seats:
            raise InvalidRuleError(f"invalid seat {seat!r} for {num_seats} players")
        check_choice("reward", reward, REWARDS)
        check_choice("illegal_action", illegal_action, ILLEGAL_ACTIONS)
        check_choice("observation", observation, OBSERVATIONS)
        check_choice("tensor", tensor, TENSORS)
        check_choice("episode", episode, EPISODES)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise UnsupportedRenderModeError(
                f"invalid render_mode {render_mode!r}: expected one of {', '.join(RENDER_MODES)}")
        if max_episode_steps is not None:
            check_step_limit("max_episode_steps", max_episode_steps)
        self.opponent_specs = opponent_specs_of(adapter, opponents, num_seats)
        self.adapter = adapter
        self.num_seats = num_seats
        self.seat = seat
        self.reward_kind = reward
        self.reward_scale = check_reward_scale(reward_scale)
        self.illegal_action = illegal_action
        self.illegal_penalty = illegal_penalty
        self.render_mode = render_mode
        self.observation_kind = observation
        self.tensor_kind = tensor
        self.episode = episode
        self.max_episode_steps = max_episode_steps
        self.observation_space = gym_observation_space(adapter, num_seats, observation, tensor)
        self.action_space = spaces.Discrete(adapter.action_size)
        self.deal: Deal[Any] | None = None
        self.match: Match[Any] | None = None
        self._rng = random.Random(secrets.randbits(64))
        self._policies: dict[int, Opponent] = {}
        self._slots: dict[int, Any] = {}
        self._steps = 0
        self._deals_done = 0
        self._pending_reward = 0.0

    # ------------------------------------------------------------------ the episode

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Deal a new deal (or start a match) and let the others play up to the agent.

        The same ``seed`` deals the same cards to the same dealer as the AEC environment's
        ``reset(seed=seed)`` and deal 0 of the vector env's (the deal is drawn first, from
        ``random.Random(seed)``; the opponents' seeds after it); without a seed the
        environment continues its own random stream."""
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        if self.episode == "match":
            self.match = self.adapter.new_match(self.num_seats, self._rng.getrandbits(63))
            self.deal = self.match.deal
        else:
            self.match = None
            self.deal = self.adapter.new_deal(self.num_seats, self._rng)
        others = [s for s in range(self.num_seats) if s != self.seat]
        self._policies = {
            s: make_policy(spec, self.adapter.name, self._rng.getrandbits(63))
            for s, spec in zip(others, self.opponent_specs, strict=True)}
        self._steps = 0
        self._deals_done = 0
        # A deal an opponent ends before the agent's first move (Kunken, very rare): in a
        # match its reward comes with the first step; a single deal is dealt again.
        self._pending_reward = self._play_others()
        while self.match is None and self._over():
            self.deal = self.adapter.new_deal(self.num_seats, self._rng)
            self._pending_reward = self._play_others()
        info = self._info()
        if self.render_mode == "human":
            self.render()
        return self._observation(), info

    def step(self, action: np.int64 | int) -> tuple[Any, SupportsFloat, bool, bool,
                                                    dict[str, Any]]:
        """Play the agent's action, then the others' until the agent's turn or the end."""
        dealt(self.deal, "step")
        if self._over():
            raise IllegalMoveError("the episode is over: call reset()")
        slot = action_slot(action)  # text or 1.5 is refused, as by the vector env
        self._steps += 1
        move = self._slots.get(slot)
        reward, self._pending_reward = self._pending_reward, 0.0
        illegal = move is None
        if move is None:
            if self.illegal_action == "raise":
                raise IllegalMoveError(str(slot), "not in the action mask")
            reward += self.illegal_penalty
            if self.illegal_action == "random":
                move = self._slots[self._rng.choice(sorted(self._slots))]
        if move is not None:
            reward += self._push(move)
            reward += self._play_others()
        terminated = self._over()
        truncated = (not terminated and self.max_episode_steps is not None
                     and self._steps >= self.max_episode_steps)
        info = self._info()
        if illegal:
            info["illegal_action"] = True
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, truncated, info

    def _over(self) -> bool:
        if self.match is not None:
            return self.match.is_over()
        assert self.deal is not None
        return self.deal.is_over()

    def _push(self, move: Any) -> float:
        """Apply a legal move; the agent's reward of a deal it ended, else 0."""
        if self.match is None:
            assert self.deal is not None
            self.deal.push(move)
            return self._reward(self.deal.points()) if self.deal.is_over() else 0.0
        self.match.play(move)
        self.deal = self.match.deal
        finished = self.match.deal_points
        if len(finished) == self._deals_done:
            return 0.0
        self._deals_done = len(finished)
        return self._reward(list(finished[-1]))

    def _play_others(self) -> float:
        reward = 0.0
        while not self._over() and self._deal().to_move != self.seat:
            deal = self._deal()
            seat = deal.to_move
            assert seat is not None
            reward += self._push(self._opponent_move(deal, seat))
        deal = self._deal()
        self._slots = ({} if self._over() else self.adapter.slots(deal, deal.legal_actions()))
        return reward

    def _deal(self, method: str = "step") -> Deal[Any]:
        return dealt(self.deal, method)

    def _opponent_move(self, deal: Deal[Any], seat: int) -> Any:
        policy = self._policies[seat]
        if isinstance(policy, RandomPolicy):  # needs no observation: skip building it
            legal = deal.legal_actions()
            return legal[policy.rng.randrange(len(legal))]
        if isinstance(policy, TensorPolicy):
            tensor = tensor_of_deal(self.adapter, policy.view, deal, seat)
            return policy.choose(self.adapter, tensor,
                                 self.adapter.slots(deal, deal.legal_actions()))
        observation = deal.observe(seat)
        return policy(observation, observation.legal_actions())

    def _reward(self, points: Sequence[int]) -> float:
        return reward_of(self.reward_kind, points, self.seat) * self.reward_scale

    # ------------------------------------------------------------------ what the agent sees

    def _tensor(self) -> npt.NDArray[np.float32]:
        view = "info_state" if self.tensor_kind == "info_state" else "tensor"
        return tensor_of_deal(self.adapter, view, self._deal(), self.seat)

    def _observation(self) -> Any:
        tensor = self._tensor()
        if self.observation_kind == "flat":
            return tensor.reshape(-1)
        return {"observation": tensor,
                "action_mask": mask_of(self._slots, self.adapter.action_size)}

    def _info(self) -> dict[str, Any]:
        deal = self._deal()
        info: dict[str, Any] = {"action_mask": self.action_masks()}
        if self.match is not None:
            info["totals"] = list(self.match.totals)
            if self.match.deal_points:
                info["deal_points"] = [list(p) for p in self.match.deal_points]
        if deal.is_over():
            info["points"] = list(deal.points())
        return info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal slots of the agent as booleans (what ``MaskablePPO`` asks for)."""
        mask = np.zeros(self.adapter.action_size, dtype=np.bool_)
        if self._slots:
            mask[list(self._slots)] = True
        return mask

    def legal_slots(self) -> dict[int, Any]:
        """The slot of each reachable legal action of the agent (slot -> action)."""
        return dict(self._slots)

    def information_state(self) -> npt.NDArray[np.float32]:
        """The agent's information-state vector: its observation tensor and the deal's
        action history (``docs/rl.md``)."""
        return tensor_of_deal(self.adapter, "info_state", self._deal("information_state"),
                              self.seat)

    def observe_json(self) -> dict[str, Any]:
        """The JSON observation of the agent's seat (cards, rules, history and legal moves
        as text)."""
        return self.adapter.observe_json(self._deal("observe_json"), self.seat)

    def observe_text(self) -> str:
        """:meth:`observe_json` as one line of JSON text (for a language-model prompt)."""
        return json.dumps(self.observe_json(), sort_keys=True)

    def action_text(self, slot: int) -> str:
        """The move text of one of the agent's legal slots."""
        try:
            return self._deal("action_text").format_action(self._slots[int(slot)])
        except (KeyError, TypeError, ValueError):
            raise IllegalMoveError(f"illegal action {slot!r}: not in the action mask") from None

    def slot_of(self, text: str) -> int:
        """The slot of the agent's legal move written ``text`` (as the engine reads it)."""
        return slot_for_text(self._slots, text, self._deal("slot_of").parse_action)

    def render(self) -> str | None:
        """The agent's view as readable text: returned (``ansi``) or printed (``human``);
        ``None`` without a render mode, as Gymnasium defines it."""
        if self.render_mode is None or self.deal is None:
            return None
        text = view_text(self.observe_json())
        if self.render_mode == "human":
            print(text)
            return None
        return text


def opponent_specs_of(adapter: GameAdapter, opponents: Any,
                      num_seats: int) -> list[str | Opponent]:
    """The opponents' specs, one per seat but the agent's: ``opponents`` given once for
    all or as a sequence; each checked against the game."""
    single = isinstance(opponents, str | TensorPolicy) or callable(opponents)
    specs: list[str | Opponent] = ([opponents] * (num_seats - 1) if single
                                   else list(opponents))
    if len(specs) != num_seats - 1:
        raise InvalidRuleError(
            f"invalid opponents {opponents!r}: expected {num_seats - 1} for {num_seats} seats")
    for spec in specs:
        if isinstance(spec, str):
            make_policy(spec, adapter.name, 0)  # a bad spec fails here, not at reset
        elif isinstance(spec, TensorPolicy):
            check_tensor_policy(adapter, spec)
            spec.check_seats(num_seats)
    return specs


def check_tensor_policy(adapter: GameAdapter, policy: TensorPolicy) -> None:
    """Raise :class:`konkun.errors.InvalidRuleError` if ``policy`` was made for another
    game or another action space than ``adapter``'s."""
    if policy.game is not None and policy.game != adapter.name:
        raise InvalidRuleError(
            f"tensor policy {policy.name!r} was trained on {policy.game}, not {adapter.name}")
    cap = getattr(adapter, "capture_slots", None)
    if policy.capture_slots is not None and policy.capture_slots != cap:
        raise InvalidRuleError(
            f"tensor policy {policy.name!r} uses capture_slots={policy.capture_slots}, "
            f"the environment {cap}")


__all__ = ["KonkunGymEnv", "Policy", "UnsupportedRenderModeError", "gym_observation_space"]
