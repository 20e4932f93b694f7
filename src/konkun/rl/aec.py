"""PettingZoo AEC environments: one deal of a game per episode, every seat an agent."""

from __future__ import annotations

import json
import random
import secrets
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded
from pettingzoo import AECEnv

from konkun.errors import IllegalMoveError, InvalidRuleError
from konkun.game import Deal
from konkun.rl.adapter import (
    FloatArray,
    GameAdapter,
    action_slot,
    check_seats,
    is_whole_number,
    mask_of,
)
from konkun.rl.text import slot_for_text

ObsDict = dict[str, Any]


def observation_space(adapter: GameAdapter, num_seats: int) -> spaces.Dict:
    """The observation space of one seat: the tensor and the action mask."""
    return spaces.Dict({
        "observation": spaces.Box(0.0, 1.0, adapter.observation_shape(num_seats), np.float32),
        "action_mask": spaces.Box(0, 1, (adapter.action_size,), np.int8),
    })



def check_step_limit(name: str, value: object) -> None:
    """Raise :class:`~konkun.errors.InvalidRuleError` unless ``value`` is a whole number of
    steps, at least 1."""
    if not is_whole_number(value) or value < 1:
        raise InvalidRuleError(f"invalid {name} {value!r}: expected a whole number >= 1")


def check_reward_scale(value: object) -> float:
    """``value`` as a reward scale: a finite number above 0 (``InvalidRuleError`` naming
    it otherwise). Every deal's reward is multiplied by it (Kunken's points run to the
    hundreds: ``reward_scale=0.01`` brings them near 1)."""
    if is_whole_number(value) or (isinstance(value, float | np.floating)
                                  and not isinstance(value, bool)):
        scale = float(value)
        if np.isfinite(scale) and scale > 0:
            return scale
    raise InvalidRuleError(f"invalid reward_scale {value!r}: expected a finite number > 0")


def dealt(deal: Deal[Any] | None, method: str) -> Deal[Any]:
    """``deal``, or Gymnasium's ``ResetNeeded`` naming ``method`` before the first reset."""
    if deal is None:
        raise ResetNeeded(f"call reset() before {method}()")
    return deal

class KonkunAECEnv(AECEnv):  # type: ignore[misc]
    """One deal of a konkun game as a PettingZoo AEC environment.

    Agents are ``player_0`` .. ``player_{n-1}`` (seat numbers). An episode is one deal; at
    its end every agent is rewarded with its points for the deal (the game's own score).
    Observations are dictionaries with ``observation`` (the seat's tensor, see
    ``docs/rl.md``) and ``action_mask`` (int8, 1 exactly at the legal actions' slots; all
    zeros for an agent not to move). :meth:`observe_json` gives the same seat's view as the
    engine's JSON observation, for language-model agents.
    """

    RENDER_MODES = ("ansi", "human")

    def __init__(self, adapter: GameAdapter, num_seats: int = 2,
                 render_mode: str | None = None, max_steps: int = 10_000,
                 json_infos: bool = False, reward_scale: float = 1.0) -> None:
        super().__init__()
        check_seats(adapter, num_seats)
        if render_mode is not None and render_mode not in self.RENDER_MODES:
            raise InvalidRuleError(f"invalid render_mode {render_mode!r}")
        self.adapter = adapter
        self.num_seats = num_seats
        self.render_mode = render_mode
        check_step_limit("max_steps", max_steps)
        self.max_steps = max_steps
        self.json_infos = json_infos
        self.reward_scale = check_reward_scale(reward_scale)
        self.metadata: dict[str, Any] = {
            "render_modes": list(self.RENDER_MODES), "name": f"{adapter.name}_v0",
            "is_parallelizable": False}
        self.possible_agents = [f"player_{seat}" for seat in range(num_seats)]
        obs_space = observation_space(adapter, num_seats)
        act_space = spaces.Discrete(adapter.action_size)
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        size = int(np.prod(adapter.observation_shape(num_seats)))
        self.state_space = spaces.Box(0.0, 1.0, (num_seats * size,), np.float32)
        self.action_spaces = dict.fromkeys(self.possible_agents, act_space)
        self._rng = random.Random(secrets.randbits(64))
        self.deal: Deal[Any] | None = None
        self._slots: dict[int, Any] = {}
        self._steps = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same for every agent)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(n)``, the fixed action space of the game."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new deal; the same ``seed`` deals the same cards to the same dealer."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.deal = self.adapter.new_deal(self.num_seats, self._rng)
        self.agents = list(self.possible_agents)
        self.rewards: dict[str, float] = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards: dict[str, float] = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._steps = 0
        self._skip_agent_selection: str | None = None
        self._after_move()

    def _after_move(self) -> None:
        assert self.deal is not None
        seat = self.deal.to_move
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]
            self._slots = self.adapter.slots(self.deal, self.deal.legal_actions())
        else:
            self._slots = {}
        if self.json_infos:
            for agent in self.agents:
                self.infos[agent] = {"json": self.observe_json(agent)}

    def observe(self, agent: str) -> ObsDict:
        """The observation dictionary of ``agent``."""
        deal = dealt(self.deal, "observe")
        seat = self.possible_agents.index(agent)
        tensor = self.adapter.encode_deal(deal, seat)
        if agent == self.agent_selection:  # no slots once the deal is over
            mask = mask_of(self._slots, self.adapter.action_size)
        else:
            mask = np.zeros(self.adapter.action_size, dtype=np.int8)
        return {"observation": tensor, "action_mask": mask}

    def state(self) -> FloatArray:
        """The global state (PettingZoo's ``state()``, for a centralised critic): every
        seat's observation tensor flattened, seat 0 first, so every hand and every public
        card; the stock's cards are the ones no seat sees (its order is not given)."""
        deal = dealt(self.deal, "state")
        return np.concatenate([self.adapter.encode_deal(deal, seat).reshape(-1)
                               for seat in range(self.num_seats)])

    def observe_json(self, agent: str) -> dict[str, Any]:
        """The JSON observation of ``agent``: the engine's (cards and legal moves as text),
        with the rules and the deal's history."""
        deal = dealt(self.deal, "observe_json")
        return self.adapter.observe_json(deal, self.possible_agents.index(agent))

    def information_state_tensor(self, agent: str) -> FloatArray:
        """The information-state vector of ``agent``: its observation tensor flattened and
        the deal's action history (as OpenSpiel's ``information_state_tensor``)."""
        deal = dealt(self.deal, "information_state_tensor")
        return self.adapter.encode_info_state_deal(deal, self.possible_agents.index(agent))

    def slot_of(self, text: str) -> int:
        """The slot of the legal move ``text`` of the agent to move (as the engine reads
        it); raise :class:`konkun.errors.IllegalMoveError` for a move not legal here."""
        return slot_for_text(self._slots, text, dealt(self.deal, "slot_of").parse_action)

    def observe_text(self, agent: str) -> str:
        """:meth:`observe_json` as one line of JSON text (for a language-model prompt)."""
        return json.dumps(self.observe_json(agent), sort_keys=True)

    def legal_slots(self) -> dict[int, Any]:
        """The slot of each reachable legal action of the agent to move (slot -> action)."""
        return dict(self._slots)

    def action_text(self, slot: int) -> str:
        """The move text of a legal slot of the agent to move; raise
        :class:`konkun.errors.IllegalMoveError` for a slot outside the mask."""
        deal = dealt(self.deal, "action_text")
        try:
            return deal.format_action(self._slots[int(slot)])
        except (KeyError, TypeError, ValueError):
            raise IllegalMoveError(f"illegal action {slot!r}: not in the action mask of "
                                   f"{self.agent_selection}") from None

    def step(self, action: int | None) -> None:
        """Play the legal action in slot ``action`` for the agent to move; raise
        :class:`konkun.errors.IllegalMoveError` for a slot outside the mask."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.deal is not None
        slot = action_slot(action)  # text or 1.5 is refused, as by the vector env
        try:
            move = self._slots[slot]
        except KeyError:
            raise IllegalMoveError(repr(action), f"not in the action mask of {agent}") from None
        self._cumulative_rewards[agent] = 0
        self.deal.push(move)
        self._steps += 1
        self._clear_rewards()
        if self.deal.is_over():
            for other, points in zip(self.possible_agents, self.deal.points(), strict=True):
                self.rewards[other] = points * self.reward_scale
                self.terminations[other] = True
        elif self._steps >= self.max_steps:
            for other in self.agents:
                self.truncations[other] = True
        self._after_move()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The deal as text (``ansi``), or printed (``human``)."""
        if self.deal is None:
            return None
        text = _render(self.deal)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def _render(deal: Deal[Any]) -> str:
    lines = []
    for seat in range(deal.num_seats):
        lines.append(f"seat {seat}: " + json.dumps(deal.observe(seat).to_json(), sort_keys=True))
    lines.append(f"to move: {deal.to_move}")
    return "\n".join(lines)
