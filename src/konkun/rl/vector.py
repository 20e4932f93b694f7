"""Vectorised environments: many deals stepped in one call (Gymnasium ``VectorEnv``).

``KonkunVectorEnv`` holds ``num_envs`` deals of one game, the agent at ``seat`` in each,
the other seats played by ``opponents`` (as in :class:`~konkun.rl.gym_env.KonkunGymEnv`).
Observations are the flat observation tensors, written into one preallocated
``(num_envs, size)`` float32 array, and the legal slots into one preallocated
``(num_envs, n)`` boolean array (:meth:`action_masks`, also ``infos["action_mask"]``); both
arrays are overwritten by every step (copy them to keep them). Autoreset is Gymnasium's
``SAME_STEP``: a deal that ends is dealt anew in the same step, its last observation in
``infos["final_obs"]`` and its points in ``infos["final_info"]["points"]``.

Konchinka has a fast path: moves are generated and applied through the engine's own
integer path (no move objects), random opponents pick among them directly, and the
observation planes of all deals are unpacked from bit masks in one numpy call. The tests
check it steps exactly as the single environment does.
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
from konkun.rl.adapter import GameAdapter, check_seats
from konkun.rl.gym_env import ILLEGAL_ACTIONS, REWARDS, _choice, _opponent_specs, reward_of
from konkun.rl.policies import Opponent, RandomPolicy, TensorPolicy, make_policy

FloatArray = npt.NDArray[np.float32]


class _GenericCore:
    """Any game through the adapter: engine actions, slot dictionaries, tensors."""

    def __init__(self, adapter: GameAdapter, num_seats: int) -> None:
        self.adapter = adapter
        self.num_seats = num_seats
        self.deals: list[Any] = []

    def new(self, index: int, rng: random.Random) -> None:
        deal = self.adapter.new_deal(self.num_seats, rng)
        if index < len(self.deals):
            self.deals[index] = deal
        else:
            self.deals.append(deal)

    def to_move(self, index: int) -> int | None:
        seat: int | None = self.deals[index].to_move
        return seat

    def slots(self, index: int) -> dict[int, Any]:
        deal = self.deals[index]
        return self.adapter.slots(deal, deal.legal_actions())

    def apply(self, index: int, move: Any) -> None:
        self.deals[index].push(move)

    def random_move(self, index: int, rng: random.Random) -> None:
        deal = self.deals[index]
        legal = deal.legal_actions()
        deal.push(legal[rng.randrange(len(legal))])

    def points(self, index: int) -> list[int]:
        points: list[int] = self.deals[index].points()
        return points

    def encode(self, seat: int, out: FloatArray, rows: Sequence[int]) -> None:
        for i in rows:
            out[i] = self.adapter.encode_deal(self.deals[i], seat).reshape(-1)


class _KonchinkaCore(_GenericCore):
    """Konchinka through the engine's integer move path (slots name (card, positions))."""

    def __init__(self, adapter: Any, num_seats: int) -> None:
        super().__init__(adapter, num_seats)
        from konkun.rl.konchinka_adapter import _ORDER_KEY, _known_in_stock

        self._order = _ORDER_KEY
        self._known = _known_in_stock
        self._k = adapter.capture_slots
        self._novo = 1.0 if adapter.rules.variant == "novo" else 0.0
        n = num_seats
        self._bit_rows = 4 + n  # hand, table, n piles, seen, known
        self._features = np.zeros((0, 52), dtype=np.float32)

    def new(self, index: int, rng: random.Random) -> None:
        from konkun.konchinka.dealing import new_deal

        rules = self.adapter.rules  # type: ignore[attr-defined]
        deal = new_deal(rules, self.num_seats, rng.randrange(self.num_seats), rng)
        if index < len(self.deals):
            self.deals[index] = deal
        else:
            self.deals.append(deal)

    def to_move(self, index: int) -> int | None:
        turn: int = self.deals[index].turn
        return None if turn < 0 else turn

    def slots(self, index: int) -> dict[int, Any]:
        deal = self.deals[index]
        k = self._k
        result: dict[int, Any] = {}
        captures: dict[int, list[tuple[int, ...]]] = {}
        for card, positions in deal.options():
            if positions:
                captures.setdefault(card, []).append(positions)
            else:
                result[card * k] = (card, positions)
        if captures:
            table = deal.table_codes
            order = self._order
            for card, found in captures.items():
                if len(found) > 1:
                    found.sort(key=lambda ps: (-len(ps), sorted(order[table[p] & 63]
                                                                 for p in ps)))
                base = card * k + 1
                for j, positions in enumerate(found[:k - 1]):
                    result[base + j] = (card, positions)
        return result

    def apply(self, index: int, move: Any) -> None:
        self.deals[index].push_option(*move)

    def random_move(self, index: int, rng: random.Random) -> None:
        deal = self.deals[index]
        options = deal.options()
        deal.push_option(*options[rng.randrange(len(options))])

    def encode(self, seat: int, out: FloatArray, rows: Sequence[int]) -> None:
        n = self.num_seats
        count = len(rows)
        bits = np.zeros((count, self._bit_rows), dtype=np.uint64)
        if self._features.shape[0] < count:
            self._features = np.zeros((count, 52), dtype=np.float32)
        features = self._features[:count]
        features.fill(0.0)
        words: list[int] = []
        novo = self._novo
        for row, i in enumerate(rows):
            deal = self.deals[i]
            (turn, hands, table_codes, piles, stock_size, dealer, last,
             returned) = deal.state_ints()
            hand = 0
            for c in hands[seat]:
                hand |= 1 << c
            table = 0
            for code in table_codes:
                table |= 1 << (code & 63)
            seen = hand | table
            words.append(hand)
            words.append(table)
            for offset in range(n):
                pile = piles[(seat + offset) % n]
                seen |= pile
                words.append(pile)
            words.append(seen)
            known = 0
            if returned:
                for c in self._known(deal, seat):
                    known |= 1 << c
            words.append(known)
            f = features[row]
            f[0] = stock_size / 40.0
            for offset in range(n):
                f[1 + offset] = len(hands[(seat + offset) % n]) / 4.0
            f[1 + n + (dealer - seat) % n] = 1.0
            if last >= 0:
                f[1 + 2 * n + (last - seat) % n] = 1.0
            f[1 + 3 * n] = 1.0 if turn == seat else 0.0
            f[2 + 3 * n] = novo
        bits.reshape(-1)[:] = words
        planes = np.unpackbits(bits.view(np.uint8).reshape(count, self._bit_rows, 8),
                               axis=2, bitorder="little")[:, :, :52]
        view = out[np.asarray(rows)] if count != out.shape[0] else out
        shaped = view.reshape(count, 5 + n, 52)
        shaped[:, :3 + n] = planes[:, :3 + n]
        shaped[:, 3 + n] = features
        shaped[:, 4 + n] = planes[:, 3 + n]
        if count != out.shape[0]:
            out[np.asarray(rows)] = view


_CORES = {"konchinka": _KonchinkaCore}


class KonkunVectorEnv(VectorEnv):
    """``num_envs`` deals of one game, the agent at ``seat`` of each (see the module).

    ``reward`` and ``illegal_action`` (``random``, default, or ``penalize``) and
    ``illegal_penalty`` are those of the single environment; ``fast=False`` uses the
    generic adapter path for Konchinka too (the reference the fast path is tested against).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (as gymnasium.vector.VectorEnv)
        "autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, adapter: GameAdapter, num_envs: int, num_seats: int = 2,
                 seat: int = 0, opponents: str | Opponent | Sequence[str | Opponent] = "random",
                 reward: str = "points", illegal_action: str = "random",
                 illegal_penalty: float = -1.0, fast: bool = True) -> None:
        check_seats(adapter, num_seats)
        if num_envs < 1:
            raise InvalidRuleError(f"invalid num_envs {num_envs!r}: expected >= 1")
        if not 0 <= seat < num_seats:
            raise InvalidRuleError(f"invalid seat {seat!r} for {num_seats} players")
        _choice("reward", reward, REWARDS)
        _choice("illegal_action", illegal_action, [a for a in ILLEGAL_ACTIONS if a != "raise"])
        self.opponent_specs = _opponent_specs(adapter, opponents, num_seats)
        self.adapter = adapter
        self.num_envs = num_envs
        self.num_seats = num_seats
        self.seat = seat
        self.reward_kind = reward
        self.illegal_action = illegal_action
        self.illegal_penalty = illegal_penalty
        core = _CORES.get(adapter.name) if fast else None
        self._core: _GenericCore = (core or _GenericCore)(adapter, num_seats)
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
        self._rngs = [random.Random(secrets.randbits(64)) for _ in range(num_envs)]
        self._policies: list[dict[int, Opponent]] = [{} for _ in range(num_envs)]
        self._slots: list[dict[int, Any]] = [{} for _ in range(num_envs)]
        self._all_random = all(spec == "random" for spec in self.opponent_specs)

    # ------------------------------------------------------------------ Gymnasium API

    def reset(self, *, seed: int | Sequence[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[FloatArray, dict[str, Any]]:
        """Deal every deal anew (deal ``i`` from ``seed + i`` when a seed is given)."""
        if seed is not None:
            seeds = [seed + i for i in range(self.num_envs)] if isinstance(seed, int) \
                else list(seed)
            if len(seeds) != self.num_envs:
                raise InvalidRuleError(f"invalid seed list: {len(seeds)} seeds for "
                                       f"{self.num_envs} environments")
            self._rngs = [random.Random(s) for s in seeds]
        for i in range(self.num_envs):
            self._new_deal(i)
        self._encode(range(self.num_envs))
        return self._observations, {"action_mask": self._masks}

    def step(self, actions: Any) -> tuple[FloatArray, npt.NDArray[np.float64],
                                          npt.NDArray[np.bool_], npt.NDArray[np.bool_],
                                          dict[str, Any]]:
        """Play each deal's agent action, then the others' up to the agent or the end."""
        rewards = self._rewards
        rewards.fill(0.0)
        terminations = self._terminations
        terminations.fill(False)
        infos: dict[str, Any] = {}
        ended: list[int] = []
        core = self._core
        for i, action in enumerate(np.asarray(actions).tolist()):
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
            final = np.zeros((len(ended), self._observations.shape[1]), dtype=np.float32)
            self._final_observations(ended, final)
            for row, i in enumerate(ended):
                infos = self._add_info(infos, {"final_obs": final[row], "final_info": {
                    "points": np.asarray(core.points(i))}}, i)
                self._new_deal(i)
        self._encode(range(self.num_envs))
        infos["action_mask"] = self._masks
        return self._observations, rewards, terminations, self._truncations, infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The agent's legal slots in every deal, ``(num_envs, n)`` booleans (the array is
        overwritten by the next step)."""
        return self._masks

    def legal_slots(self, index: int) -> dict[int, Any]:
        """Deal ``index``'s legal slots of the agent (slot -> move, the engine's action or
        on the fast path the engine's internal move)."""
        return dict(self._slots[index])

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release."""

    # ------------------------------------------------------------------ inside

    def _new_deal(self, i: int) -> None:
        rng = self._rngs[i]
        if not self._all_random:
            others = [s for s in range(self.num_seats) if s != self.seat]
            self._policies[i] = {
                s: make_policy(spec, self.adapter.name, rng.getrandbits(63))
                for s, spec in zip(others, self.opponent_specs, strict=True)}
        self._core.new(i, rng)
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
        deal.push(action)

    def _reward(self, points: Sequence[int]) -> float:
        return reward_of(self.reward_kind, points, self.seat)

    def _final_observations(self, ended: list[int], final: FloatArray) -> None:
        for row, i in enumerate(ended):
            final[row] = self.adapter.encode_deal(self._core.deals[i], self.seat).reshape(-1)

    def _encode(self, rows: range) -> None:
        core = self._core
        masks = self._masks
        masks.fill(False)
        flat: list[int] = []
        size = self.adapter.action_size
        for i in rows:
            slots = core.slots(i)
            self._slots[i] = slots
            base = i * size
            flat.extend([base + s for s in slots])
        masks.reshape(-1)[flat] = True
        core.encode(self.seat, self._observations, list(rows))


__all__ = ["KonkunVectorEnv"]
