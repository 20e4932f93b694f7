"""Vectorised environments: many deals stepped in one call (Gymnasium ``VectorEnv``).

``KonkunVectorEnv`` holds ``num_envs`` deals of one game, the agent at ``seat`` in each,
the other seats played by ``opponents`` (as in :class:`~konkun.rl.gym_env.KonkunGymEnv`).
Observations are the flat observation tensors, written into one preallocated
``(num_envs, size)`` float32 array, and the legal slots into one preallocated
``(num_envs, n)`` boolean array (:meth:`action_masks`, also ``infos["action_mask"]``); both
arrays are overwritten by every step (copy them to keep them). Autoreset is Gymnasium's
``SAME_STEP``: a deal that ends is dealt anew in the same step, its last observation in
``infos["final_obs"]`` and its points in ``infos["final_info"]["points"]``.

Konchinka has two fast paths. Against random opponents every deal lives in one
:class:`~konkun.rl.konchinka_batch.KonchinkaBatch` (plain integers; masks and tensors of
all deals written by a few numpy calls); against other opponents moves go through the
engine's own integer path (no move objects) and the observation planes of all deals are
unpacked from bit masks in one numpy call. Kunken writes all rows with
:meth:`~konkun.rl.kunken_adapter.KunkenAdapter.encode_deals`. The tests check each path
against the engine and the adapter.
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
from konkun.rl.konchinka_batch import KonchinkaBatch, slots_of
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

    def engine_deal(self, index: int) -> Any:
        """Deal ``index`` as the engine's deal (a snapshot when the core keeps its own)."""
        return self.deals[index]

    def to_move(self, index: int) -> int | None:
        seat: int | None = self.deals[index].to_move
        return seat

    def slots(self, index: int) -> dict[int, Any]:
        deal = self.deals[index]
        return self.adapter.slots(deal, deal.legal_actions())

    def fill_slots(self, index: int, result: dict[int, Any]) -> None:
        """Write deal ``index``'s legal slots (slot -> move) into the empty ``result``."""
        result.update(self.slots(index))

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
        """Write the tensor of deal ``rows[j]`` (as ``seat`` sees it) into ``out[j]``."""
        for j, i in enumerate(rows):
            out[j] = self.adapter.encode_deal(self.deals[i], seat).reshape(-1)


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
        slots: dict[int, Any] = {}
        self.fill_slots(index, slots)
        return slots

    def fill_slots(self, index: int, result: dict[int, Any]) -> None:
        """Write deal ``index``'s legal slots into the empty ``result`` (slot -> (card,
        positions)); captures of one card in the adapter's order, the longest first."""
        deal = self.deals[index]
        k = self._k
        for card, trail, found in deal.options_by_card():
            if trail:
                result[card * k] = (card, ())
            if found:
                if len(found) > 1:
                    table = deal.table_codes
                    order = self._order
                    found = sorted(found, key=lambda ps: (
                        -len(ps), sorted([order[table[p] & 63] for p in ps])))
                slot = card * k + 1
                for positions in found[:k - 1]:
                    result[slot] = (card, positions)
                    slot += 1

    def apply(self, index: int, move: Any) -> None:
        self.deals[index].push_option(*move)

    def random_move(self, index: int, rng: random.Random) -> None:
        self.deals[index].push_random(rng)

    def encode(self, seat: int, out: FloatArray, rows: Sequence[int]) -> None:
        n = self.num_seats
        count = len(rows)
        width = 52 - (3 + 3 * n)  # the feature row's unused tail
        words: list[int] = []
        features: list[float] = []
        novo = self._novo
        known_in_stock = self._known
        deals = self.deals
        order = [(seat + offset) % n for offset in range(n)]
        for i in rows:
            deal = deals[i]
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
            for s in order:
                pile = piles[s]
                seen |= pile
                words.append(pile)
            words.append(seen)
            known = 0
            if returned:
                for c in known_in_stock(deal, seat):
                    known |= 1 << c
            words.append(known)
            # stock, hand sizes, dealer and last capturer one-hot, agent to move, variant
            features.append(stock_size / 40.0)
            features.extend([len(hands[s]) / 4.0 for s in order])
            one_hot = [0.0] * (2 * n)
            one_hot[(dealer - seat) % n] = 1.0
            if last >= 0:
                one_hot[n + (last - seat) % n] = 1.0
            features.extend(one_hot)
            features.append(1.0 if turn == seat else 0.0)
            features.append(novo)
        bits = np.array(words, dtype=np.uint64).reshape(count, self._bit_rows)
        planes = np.unpackbits(bits.view(np.uint8).reshape(count, self._bit_rows, 8),
                               axis=2, bitorder="little")[:, :, :52]
        shaped = out[:count].reshape(count, 5 + n, 52)
        shaped[:, :3 + n] = planes[:, :3 + n]
        shaped[:, 3 + n, :52 - width] = np.array(features, dtype=np.float32).reshape(count, -1)
        shaped[:, 3 + n, 52 - width:] = 0.0
        shaped[:, 4 + n] = planes[:, 3 + n]


class _KonchinkaBatchCore(_GenericCore):
    """Konchinka against random opponents: every deal in one
    :class:`~konkun.rl.konchinka_batch.KonchinkaBatch` (slots name (card, positions))."""

    def __init__(self, adapter: Any, num_seats: int, seat: int, num_envs: int) -> None:
        super().__init__(adapter, num_seats)
        self.batch = KonchinkaBatch(adapter.rules, num_seats, seat, adapter.capture_slots,
                                    num_envs)

    def engine_deal(self, index: int) -> Any:
        return self.batch.engine_deal(index)

    def new(self, index: int, rng: random.Random) -> None:
        self.batch.deal(index, rng)

    def to_move(self, index: int) -> int | None:
        turn = self.batch.deals[index].turn
        return None if turn < 0 else turn

    def slots(self, index: int) -> dict[int, Any]:
        return slots_of(self.batch, index)

    def fill_slots(self, index: int, result: dict[int, Any]) -> None:
        result.update(self.slots(index))

    def points(self, index: int) -> list[int]:
        return self.batch.points(index)

    def encode(self, seat: int, out: FloatArray, rows: Sequence[int]) -> None:
        self.batch.write_observations(out, rows)


class _KunkenCore(_GenericCore):
    """Kunken through the engine's legal actions, every row's tensor written in one
    :meth:`~konkun.rl.kunken_adapter.KunkenAdapter.encode_deals` call."""

    def encode(self, seat: int, out: FloatArray, rows: Sequence[int]) -> None:
        deals = self.deals
        self.adapter.encode_deals([deals[i] for i in rows], seat, out)  # type: ignore[attr-defined]


_CORES: dict[str, type[_GenericCore]] = {"konchinka": _KonchinkaCore, "kunken": _KunkenCore}


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
        self._all_random = all(spec == "random" for spec in self.opponent_specs)
        self._core: _GenericCore
        if fast and adapter.name == "konchinka" and self._all_random:
            self._core = _KonchinkaBatchCore(adapter, num_seats, seat, num_envs)
        else:
            core = _CORES.get(adapter.name) if fast else None
            self._core = (core or _GenericCore)(adapter, num_seats)
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
        self._batch = self._core.batch if isinstance(self._core, _KonchinkaBatchCore) else None

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
        core = self._core
        if self._batch is not None:
            ended = self._play_batch(self._batch, np.asarray(actions).tolist())
        else:
            ended = []
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
            infos = self._final_infos(ended)
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
        if self._batch is not None:
            return self._core.slots(index)
        return dict(self._slots[index])

    def deal(self, index: int) -> Any:
        """Deal ``index`` as the engine's deal (on the Konchinka batch a snapshot of its
        position, without the history): for checks against the engine."""
        return self._core.engine_deal(index)

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release."""

    # ------------------------------------------------------------------ inside

    def _play_batch(self, batch: KonchinkaBatch, actions: list[int]) -> list[int]:
        """:meth:`step`'s loop on the Konchinka batch (the same rewards and illegal-action
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

    def _encode(self, rows: range) -> None:
        core = self._core
        if self._batch is not None:
            self._batch.write(self._observations, self._masks)
            return
        masks = self._masks
        masks.fill(False)
        flat: list[int] = []
        size = self.adapter.action_size
        all_slots = self._slots
        fill = core.fill_slots
        for i in rows:
            slots = all_slots[i] = {}
            fill(i, slots)
            base = i * size
            flat.extend([base + s for s in slots])
        masks.reshape(-1)[flat] = True
        core.encode(self.seat, self._observations, list(rows))


__all__ = ["KonkunVectorEnv"]
