"""Policies for the seats an agent does not control, and the research API's own policy
interface over (tensor, mask).

Two kinds of policy play a seat:

- an **engine policy**: any callable ``policy(observation, legal_actions) -> action`` over the
  engine's observation (the built-in :class:`RandomPolicy`, a :mod:`konkun.bots` spec);
- a **tensor policy**: :class:`TensorPolicy` wrapping ``fn(tensor, mask) -> slot``, where
  ``tensor`` is the seat's observation tensor (``view="tensor"``), that tensor flattened
  (``"flat"``) or the information-state vector (``"info_state"``), and ``mask`` the int8
  action mask. A trained network is a tensor policy. The environments' opponents, the
  arena and the lobby (through the bot spec ``policy:module:callable`` or
  ``policy:path/to/model.zip``, see :mod:`konkun.rl.policy_bot`) all accept one.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from konkun.errors import IllegalMoveError, InvalidRuleError
from konkun.game import Deal, Observation
from konkun.rl.adapter import FloatArray, GameAdapter, mask_of

Policy = Callable[[Observation[Any], Sequence[Any]], Any]
"""An engine policy: given a seat's observation and its legal actions, return one of them."""
MaskArray = npt.NDArray[np.int8]
SlotFunction = Callable[[FloatArray, MaskArray], int]
"""A function of (tensor, mask) that returns a slot inside the mask."""
VIEWS = ("tensor", "flat", "info_state")
"""What a tensor policy is given: the observation tensor, flattened, or the info state."""


class TensorPolicy:
    """A policy over the research API's view of a seat: ``fn(tensor, mask) -> slot``.

    ``view`` says which tensor ``fn`` receives (:data:`VIEWS`); ``capture_slots`` (Konchinka)
    the action space it was trained on (``None``: the default). A policy trained on one
    game and number of players may name them (``game``, ``num_players``) and the number of
    values its tensor has (``observation_size``):
    it is then refused by another game and given no tensor of another size. ``name``
    appears in errors.
    """

    def __init__(self, fn: SlotFunction, view: str = "tensor",
                 capture_slots: int | None = None, name: str | None = None, *,
                 game: str | None = None, num_players: int | None = None,
                 observation_size: int | None = None) -> None:
        if view not in VIEWS:
            raise InvalidRuleError(f"invalid view {view!r}: expected one of {', '.join(VIEWS)}")
        if not callable(fn):
            raise InvalidRuleError(f"invalid tensor policy {fn!r}: not callable")
        self.fn = fn
        self.view = view
        self.capture_slots = capture_slots
        self.name = name or getattr(fn, "__name__", repr(fn))
        self.game = game
        self.num_players = num_players
        self.observation_size = observation_size

    def check_seats(self, num_seats: int) -> None:
        """Raise :class:`konkun.errors.InvalidRuleError` (one line) if the policy names the
        number of players it was trained for and ``num_seats`` is another."""
        if self.num_players is not None and self.num_players != num_seats:
            game = f"{self.game} " if self.game else ""
            raise InvalidRuleError(
                f"tensor policy {self.name!r} was trained for {game}with {self.num_players} "
                f"players, not {num_seats}: another number of players needs another policy")

    def __call__(self, tensor: FloatArray, mask: MaskArray) -> int:
        """The slot ``fn`` picks."""
        if self.observation_size is not None and tensor.size != self.observation_size:
            players = f", {self.num_players} players" if self.num_players else ""
            trained = f" ({self.game}{players})" if self.game else ""
            raise InvalidRuleError(
                f"tensor policy {self.name!r} was trained on tensors of "
                f"{self.observation_size} values{trained}, but this seat's {self.view} "
                f"tensor has {tensor.size}: another game, number of players or rules")
        return int(self.fn(tensor, mask))

    def choose(self, adapter: GameAdapter, tensor: FloatArray, slots: Mapping[int, Any]) -> Any:
        """The legal action of the slot the policy picks given ``tensor`` and the legal
        ``slots``; raise :class:`konkun.errors.IllegalMoveError` for a slot outside them."""
        slot = self(tensor, mask_of(slots, adapter.action_size))
        try:
            return slots[slot]
        except KeyError:
            raise IllegalMoveError(
                f"tensor policy {self.name!r} chose slot {slot}, which is not in the action "
                f"mask ({len(slots)} legal slots)") from None

    def __repr__(self) -> str:
        return f"TensorPolicy({self.name!r}, view={self.view!r})"


def tensor_of_deal(adapter: GameAdapter, view: str, deal: Deal[Any], seat: int) -> FloatArray:
    """The tensor of ``view`` for ``seat`` of ``deal`` (read from the deal, seat's view only)."""
    if view == "info_state":
        return adapter.encode_info_state_deal(deal, seat)
    tensor = adapter.encode_deal(deal, seat)
    return tensor.reshape(-1) if view == "flat" else tensor


def tensor_of_observation(adapter: GameAdapter, view: str,
                          observation: Observation[Any]) -> FloatArray:
    """The tensor of ``view`` from a seat's observation."""
    if view == "info_state":
        return adapter.encode_info_state(observation)
    tensor = adapter.encode(observation)
    return tensor.reshape(-1) if view == "flat" else tensor


class RandomPolicy:
    """Uniformly random among the legal actions, from its own seeded random source."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def __call__(self, observation: Observation[Any], legal: Sequence[Any]) -> Any:
        """Pick one of ``legal`` uniformly at random."""
        return legal[self.rng.randrange(len(legal))]


class BotPolicy:
    """A :mod:`konkun.bots` spec's bot as an engine policy, with its own seeded random
    source (an object, not a closure, so an environment holding it can be pickled and
    copied: a copy's bot plays on from a copy of the random source)."""

    def __init__(self, spec: str, game: str, seed: int) -> None:
        from konkun.bots.specs import BotSpec

        self.spec = spec
        self.agent = BotSpec.parse(spec).agent(game, random.Random(seed))

    def __call__(self, observation: Observation[Any], legal: Sequence[Any]) -> Any:
        """The bot's choice among ``legal`` for ``observation``."""
        agent = self.agent
        return agent.bot.choose(observation, tuple(legal), agent.rng, agent.budget)

    def __repr__(self) -> str:
        return f"BotPolicy({self.spec!r})"


Opponent = Policy | TensorPolicy


def make_policy(spec: str | Opponent, game: str, seed: int) -> Opponent:
    """The policy a spec stands for.

    ``spec`` is a callable or a :class:`TensorPolicy` (used as it is), ``"random"`` (the
    built-in uniform random policy), or any bot spec :mod:`konkun.bots` knows (``greedy``,
    ``ismcts:iters=200``, ``policy:module:callable``, ...). ``seed`` seeds the policy's own
    random source, so a seeded episode replays exactly.
    """
    if not isinstance(spec, str):
        return spec
    if spec == "random":
        return RandomPolicy(seed)
    return BotPolicy(spec, game, seed)
