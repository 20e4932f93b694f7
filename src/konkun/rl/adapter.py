"""What the environments need to know about one game: how to deal, how actions map to the
fixed action space, and how an observation becomes a tensor.

The fixed action space is a **slot** design. The space is ``Discrete(n)``, cut into
blocks; every legal action falls in one block (for instance "the card played") and gets a
position inside that block by a canonical order of the block's legal actions. So a slot
always names exactly one legal action in the current position, and the ``action_mask``
marks exactly the occupied slots. A block has a fixed capacity; legal actions past it are
not reachable (the caps are chosen so that this is very rare, see ``docs/rl.md``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any, Protocol, TypeGuard, TypeVar

import numpy as np
import numpy.typing as npt

from konkun.errors import IllegalMoveError, InvalidRuleError
from konkun.game import Deal, Match, Observation, get_game

FloatArray = npt.NDArray[np.float32]
R = TypeVar("R")


class GameAdapter(Protocol):
    """The game-specific part of the environments."""

    name: str
    """The game's name in the registry (:mod:`konkun.game`, where its seat range is),
    also the bots' game name."""
    action_size: int
    """``n`` of the fixed ``Discrete(n)`` action space."""

    def observation_shape(self, num_seats: int) -> tuple[int, ...]:
        """The shape of the observation tensor for this many seats."""
        ...

    def info_state_size(self, num_seats: int) -> int:
        """The length of the information-state vector for this many seats."""
        ...

    def new_deal(self, num_seats: int, rng: random.Random) -> Deal[Any]:
        """A fresh deal, everything random drawn from ``rng`` (dealer and shuffle)."""
        ...

    def new_match(self, num_seats: int, seed: int) -> Match[Any]:
        """A fresh game or match (deals in rotation to its end), drawn from ``seed``."""
        ...

    def observe_json(self, deal: Deal[Any], seat: int) -> dict[str, Any]:
        """The JSON observation of ``seat``, with the rules and the deal's history."""
        ...

    def slots(self, position: Deal[Any] | Observation[Any],
              legal: Sequence[Any]) -> dict[int, Any]:
        """The action-space index of each reachable legal action (index -> action) in a
        position (a deal, or the observation of the seat to act)."""
        ...

    def encode(self, observation: Observation[Any]) -> FloatArray:
        """The observation tensor of one seat (only what that seat may see)."""
        ...

    def encode_deal(self, deal: Deal[Any], seat: int) -> FloatArray:
        """The same tensor as ``encode(deal.observe(seat))``, possibly faster."""
        ...

    def encode_info_state(self, observation: Observation[Any]) -> FloatArray:
        """The information-state vector (the tensor and the action history) of one seat."""
        ...

    def encode_info_state_deal(self, deal: Deal[Any], seat: int) -> FloatArray:
        """The same vector read from the deal (only what ``seat`` may know)."""
        ...


def rules_of(rules: object, rules_type: type[R], from_options: Callable[[Mapping[str, str]], R],
             example: str) -> R:
    """An adapter's ``rules`` argument as the game's rules: ``None`` for the defaults, the
    rules themselves, or a mapping of rule options read by ``from_options``; anything else
    raises :class:`~konkun.errors.InvalidRuleError` naming it (``example``: a mapping to
    show)."""
    if rules is None:
        return rules_type()
    if isinstance(rules, rules_type):
        return rules
    if isinstance(rules, Mapping):
        return from_options(rules)
    raise InvalidRuleError(f"invalid rules {rules!r}: expected {rules_type.__name__}, a "
                           f"mapping of rule options such as {example}, or None")


def is_whole_number(value: object) -> TypeGuard[int | np.integer[Any]]:
    """Whether ``value`` is an integer (Python's or numpy's), a bool not counted."""
    return isinstance(value, int | np.integer) and not isinstance(value, bool)


def check_slot(slot: object, size: int) -> int:
    """``slot`` as an integer slot of a ``Discrete(size)`` action space; anything else
    raises :class:`~konkun.errors.InvalidRuleError` naming it."""
    if not is_whole_number(slot) or not 0 <= slot < size:
        raise InvalidRuleError(f"invalid slot {slot!r}: expected an integer from 0 to "
                               f"{size - 1}")
    return int(slot)


def integer_slots(actions: object, shape: tuple[int, ...]) -> npt.NDArray[np.int64]:
    """``actions`` as an integer array of ``shape``: integers, or floats of integral value
    (``2.0``, as SB3 and Gymnasium may pass them). Anything else (text, ``1.5``, a bool, a
    wrong shape) raises :class:`~konkun.errors.IllegalMoveError` naming it. The single,
    AEC and vector environments all check their actions with it."""
    try:
        array = np.asarray(actions)
    except (TypeError, ValueError):
        raise IllegalMoveError(f"invalid action {actions!r}: expected an integer slot") from None
    if array.shape != shape:
        if not shape:
            raise IllegalMoveError(f"invalid action {actions!r}: expected one integer slot")
        raise IllegalMoveError(f"invalid actions of shape {array.shape}: expected one slot "
                               f"per environment, shape {shape}")
    if array.dtype.kind == "f" and np.isfinite(array).all() \
            and (array == np.floor(array)).all() and (np.abs(array) < 2.0**62).all():
        array = array.astype(np.int64)
    if array.dtype.kind not in "iu":
        if shape:
            raise IllegalMoveError(f"invalid actions {array.tolist()!r}: expected integer slots")
        raise IllegalMoveError(f"invalid action {actions!r}: expected an integer slot")
    return array.astype(np.int64, copy=False)


def action_slot(action: object) -> int:
    """One action as an integer slot (see :func:`integer_slots`)."""
    return int(integer_slots(action, ()))


def check_seats(adapter: GameAdapter, num_seats: int) -> None:
    """Raise :class:`konkun.errors.InvalidRuleError` unless the game seats ``num_seats``
    (the seat range of its descriptor)."""
    get_game(adapter.name).check_seats(num_seats)


def assign_slots(actions: Iterable[Any], block: Callable[[Any], int],
                 order: Callable[[Any], Hashable], starts: Sequence[int],
                 capacity: Sequence[int]) -> dict[int, Any]:
    """Place actions into the slots of their blocks: each block's actions are sorted by
    ``order`` and take the block's slots from ``starts[b]`` on, at most ``capacity[b]``."""
    grouped: dict[int, list[Any]] = {}
    for action in actions:
        grouped.setdefault(block(action), []).append(action)
    result: dict[int, Any] = {}
    for b, members in grouped.items():
        if len(members) > 1:
            members.sort(key=order)  # type: ignore[arg-type]
        start = starts[b]
        for offset, action in enumerate(members[:capacity[b]]):
            result[start + offset] = action
    return result


def mask_of(slots: Mapping[int, Any], size: int) -> npt.NDArray[np.int8]:
    """The action mask (int8, 1 for each occupied slot)."""
    mask = np.zeros(size, dtype=np.int8)
    if slots:
        mask[list(slots)] = 1
    return mask
