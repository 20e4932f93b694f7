"""Gymnasium single-agent environments: the agent holds one seat, bots play the others."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, SupportsFloat

import numpy as np
from gymnasium import Env, spaces

from konkun.errors import IllegalMoveError, InvalidRuleError
from konkun.game import Deal
from konkun.rl.adapter import GameAdapter, check_seats, mask_of
from konkun.rl.aec import ObsDict, observation_space
from konkun.rl.policies import Policy, RandomPolicy, make_policy

ILLEGAL_ACTIONS = ("penalize", "raise")


class KonkunGymEnv(Env[ObsDict, np.int64]):
    """One deal of a konkun game from one seat's point of view.

    The agent plays ``seat``; every other seat is played by ``opponents`` (one spec or
    callable for all, or one per other seat: ``"random"``, a :mod:`konkun.bots` spec such as
    ``"greedy"`` or ``"ismcts:iters=200"``, or any callable over (observation, legal
    actions)). Observations are the dictionaries of the AEC environment (``observation``
    and ``action_mask``). The reward is 0 until the deal ends, then the agent's points for
    the deal (``reward="points"``) or its points minus the best other seat's
    (``reward="margin"``).

    An action outside the mask leaves the deal as it was and is rewarded
    ``illegal_penalty`` (``illegal_action="penalize"``, the default, so that generic
    checkers that sample unmasked actions can run), or raises
    :class:`konkun.errors.IllegalMoveError` (``illegal_action="raise"``).
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012 (as gymnasium.Env)

    def __init__(self, adapter: GameAdapter, num_seats: int = 2, seat: int = 0,
                 opponents: str | Policy | Sequence[str | Policy] = "random",
                 reward: str = "points", illegal_action: str = "penalize",
                 illegal_penalty: float = -1.0, render_mode: str | None = None) -> None:
        check_seats(adapter, num_seats)
        if not 0 <= seat < num_seats:
            raise InvalidRuleError(f"invalid seat {seat!r} for {num_seats} players")
        if reward not in ("points", "margin"):
            raise InvalidRuleError(f"invalid reward {reward!r}: expected points or margin")
        if illegal_action not in ILLEGAL_ACTIONS:
            raise InvalidRuleError(f"invalid illegal_action {illegal_action!r}")
        specs = ([opponents] * (num_seats - 1) if isinstance(opponents, str)
                 or callable(opponents) else list(opponents))
        if len(specs) != num_seats - 1:
            raise InvalidRuleError(
                f"invalid opponents {opponents!r}: expected {num_seats - 1} for {num_seats} seats")
        for spec in specs:
            if isinstance(spec, str):
                make_policy(spec, adapter.name, 0)  # a bad spec fails here, not at reset
        self.adapter = adapter
        self.num_seats = num_seats
        self.seat = seat
        self.opponent_specs: list[str | Policy] = specs
        self.reward_kind = reward
        self.illegal_action = illegal_action
        self.illegal_penalty = illegal_penalty
        self.render_mode = render_mode
        self.observation_space = observation_space(adapter, num_seats)
        self.action_space = spaces.Discrete(adapter.action_size)
        self.deal: Deal[Any] | None = None
        self._rng = random.Random()
        self._policies: dict[int, Policy] = {}
        self._slots: dict[int, Any] = {}

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[ObsDict, dict[str, Any]]:
        """Deal a new deal and let the bots play up to the agent's first turn."""
        super().reset(seed=seed)
        self._rng = random.Random(int(self.np_random.integers(2**63)))
        others = [s for s in range(self.num_seats) if s != self.seat]
        self._policies = {
            s: make_policy(spec, self.adapter.name, self._rng.getrandbits(63))
            for s, spec in zip(others, self.opponent_specs, strict=True)}
        self.deal = self.adapter.new_deal(self.num_seats, self._rng)
        self._play_others()
        return self._observation(), self._info()

    def step(self, action: np.int64 | int) -> tuple[ObsDict, SupportsFloat, bool, bool,
                                                    dict[str, Any]]:
        """Play the agent's action, then the bots' until the agent's turn or the end."""
        assert self.deal is not None, "call reset() first"
        if self.deal.is_over():
            raise IllegalMoveError("the deal is over: call reset()")
        move = self._slots.get(int(action))
        if move is None:
            if self.illegal_action == "raise":
                raise IllegalMoveError(str(int(action)), "not in the action mask")
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), self.illegal_penalty, False, False, info
        self.deal.push(move)
        self._play_others()
        over = self.deal.is_over()
        return self._observation(), self._reward() if over else 0.0, over, False, self._info()

    def _play_others(self) -> None:
        assert self.deal is not None
        deal = self.deal
        while not deal.is_over() and deal.to_move != self.seat:
            seat = deal.to_move
            assert seat is not None
            policy = self._policies[seat]
            if isinstance(policy, RandomPolicy):  # needs no observation: skip building it
                legal = deal.legal_actions()
                deal.push(legal[policy.rng.randrange(len(legal))])
                continue
            observation = deal.observe(seat)
            deal.push(policy(observation, observation.legal_actions()))
        self._slots = ({} if deal.is_over()
                       else self.adapter.slots(deal, deal.legal_actions()))

    def _reward(self) -> float:
        assert self.deal is not None
        points = self.deal.points()
        mine = points[self.seat]
        if self.reward_kind == "points":
            return float(mine)
        return float(mine - max(p for s, p in enumerate(points) if s != self.seat))

    def _observation(self) -> ObsDict:
        assert self.deal is not None
        return {"observation": self.adapter.encode_deal(self.deal, self.seat),
                "action_mask": mask_of(self._slots, self.adapter.action_size)}

    def _info(self) -> dict[str, Any]:
        assert self.deal is not None
        info: dict[str, Any] = {}
        if self.deal.is_over():
            info["points"] = list(self.deal.points())
        return info

    def legal_slots(self) -> dict[int, Any]:
        """The slot of each reachable legal action of the agent (slot -> action)."""
        return dict(self._slots)

    def observe_json(self) -> dict[str, Any]:
        """The engine's JSON observation of the agent's seat."""
        assert self.deal is not None, "call reset() first"
        return self.deal.observe(self.seat).to_json()

    def render(self) -> str | None:
        """The agent's view as JSON text."""
        if self.deal is None:
            return None
        import json
        return json.dumps(self.observe_json(), sort_keys=True)
