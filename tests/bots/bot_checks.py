"""Checks shared by the bot tests (imported by the bots test modules)."""

from __future__ import annotations

import gc
import random
import types
from typing import Any

_OPAQUE = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
           types.MethodType, types.CodeType)


def reachable(root: object) -> list[object]:
    """Every object reachable from ``root`` through references, except classes, modules
    and functions (which lead to global state, not to the instance's data)."""
    seen: dict[int, object] = {}
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, _OPAQUE):
            continue
        seen[id(obj)] = obj
        stack.extend(gc.get_referents(obj))
    return list(seen.values())


class Watching:
    """Stands in for an observation and keeps a copy of every world a search samples
    from it (in :attr:`worlds`)."""

    def __init__(self, observation: Any) -> None:
        self.observation = observation
        self.worlds: list[Any] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.observation, name)

    def sample_deal(self, rng: random.Random) -> Any:
        """The observation's sampled world, a copy of it kept."""
        world = self.observation.sample_deal(rng)
        self.worlds.append(world.copy())
        return world
