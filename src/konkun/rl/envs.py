"""The environment constructors, one pair per game, and their Gymnasium registration.

>>> env = konchinka_env(num_players=3, rules={"variant": "novo"})
>>> env.reset(seed=7)
>>> sorted(env.observe(env.agent_selection))
['action_mask', 'observation']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from konkun.errors import InvalidRuleError
from konkun.rl.aec import KonkunAECEnv
from konkun.rl.gym_env import KonkunGymEnv
from konkun.rl.policies import Opponent
from konkun.rl.vector import KonkunVectorEnv

Rules = Any
"""A game's rules object, or a mapping of rule options as in ``RULES.md``."""
Opponents = str | Opponent | Sequence[str | Opponent]


def konchinka_adapter(rules: Rules = None, capture_slots: int | None = None) -> Any:
    """The Konchinka adapter (:class:`konkun.rl.konchinka_adapter.KonchinkaAdapter`)."""
    from konkun.rl.konchinka_adapter import CAPTURE_SLOTS, KonchinkaAdapter

    return KonchinkaAdapter(rules, capture_slots or CAPTURE_SLOTS)


def konchinka_env(num_players: int = 2, rules: Rules | Mapping[str, str] = None,
                  capture_slots: int | None = None, **kwargs: Any) -> KonkunAECEnv:
    """The PettingZoo AEC environment of one Konchinka deal, 2 to 4 agents; other keyword
    arguments go to :class:`~konkun.rl.aec.KonkunAECEnv` (``render_mode``, ``max_steps``,
    ``json_infos``)."""
    return KonkunAECEnv(konchinka_adapter(rules, capture_slots), num_players, **kwargs)


def konchinka_gym_env(num_players: int = 2, rules: Rules | Mapping[str, str] = None,
                      seat: int = 0, opponents: Opponents = "random",
                      capture_slots: int | None = None, **kwargs: Any) -> KonkunGymEnv:
    """The Gymnasium environment of one Konchinka deal: the agent at ``seat``, bots (or
    any policies) at the others; other keyword arguments go to
    :class:`~konkun.rl.gym_env.KonkunGymEnv` (``reward``, ``illegal_action``, ...)."""
    return KonkunGymEnv(konchinka_adapter(rules, capture_slots), num_players, seat,
                        opponents, **kwargs)


def kunken_adapter(rules: Rules = None) -> Any:
    """The Kunken adapter (:class:`konkun.rl.kunken_adapter.KunkenAdapter`)."""
    from konkun.rl.kunken_adapter import KunkenAdapter

    return KunkenAdapter(rules)


def kunken_env(num_players: int = 2, rules: Rules | Mapping[str, str] = None,
               **kwargs: Any) -> KonkunAECEnv:
    """The PettingZoo AEC environment of one Kunken deal, 2 to 5 agents; other keyword
    arguments go to :class:`~konkun.rl.aec.KonkunAECEnv`."""
    return KonkunAECEnv(kunken_adapter(rules), num_players, **kwargs)


def kunken_gym_env(num_players: int = 2, rules: Rules | Mapping[str, str] = None,
                   seat: int = 0, opponents: Opponents = "random",
                   **kwargs: Any) -> KonkunGymEnv:
    """The Gymnasium environment of one Kunken deal: the agent at ``seat``, bots at the
    others; other keyword arguments go to :class:`~konkun.rl.gym_env.KonkunGymEnv`."""
    return KonkunGymEnv(kunken_adapter(rules), num_players, seat, opponents, **kwargs)


def konchinka_vector_env(num_envs: int = 16, num_players: int = 2,
                         rules: Rules | Mapping[str, str] = None, seat: int = 0,
                         opponents: Opponents = "random", capture_slots: int | None = None,
                         **kwargs: Any) -> KonkunVectorEnv:
    """``num_envs`` Konchinka deals stepped together (:class:`~konkun.rl.vector.
    KonkunVectorEnv`: flat observations and masks in preallocated arrays, autoreset)."""
    return KonkunVectorEnv(konchinka_adapter(rules, capture_slots), num_envs, num_players,
                           seat, opponents, **kwargs)


def kunken_vector_env(num_envs: int = 16, num_players: int = 2,
                      rules: Rules | Mapping[str, str] = None, seat: int = 0,
                      opponents: Opponents = "random", **kwargs: Any) -> KonkunVectorEnv:
    """``num_envs`` Kunken deals stepped together (see :func:`konchinka_vector_env`)."""
    return KonkunVectorEnv(kunken_adapter(rules), num_envs, num_players, seat, opponents,
                           **kwargs)


def adapter_for(game: str, rules: Rules | Mapping[str, str] = None) -> Any:
    """The adapter of ``game`` (``konchinka`` or ``kunken``): action slots and tensors,
    usable outside the environments (e.g. to make a bot of an RL policy)."""
    if game == "konchinka":
        return konchinka_adapter(rules)
    if game == "kunken":
        return kunken_adapter(rules)
    raise InvalidRuleError(f"unknown game {game!r}: expected konchinka or kunken")


def _vector_entry(game: str) -> Any:
    def make(num_envs: int = 16, num_players: int = 2, **kwargs: Any) -> KonkunVectorEnv:
        """The vector environment for ``gymnasium.make_vec``."""
        constructor = konchinka_vector_env if game == "konchinka" else kunken_vector_env
        return constructor(num_envs, num_players, **kwargs)
    return make


def register_gymnasium() -> None:
    """Register ``konkun/Konchinka-v0`` and ``konkun/Kunken-v0`` with Gymnasium (done on
    import of :mod:`konkun.rl`, and the ``gymnasium.envs`` entry point), so
    ``gymnasium.make("konkun/Konchinka-v0")`` and ``gymnasium.make_vec(...,
    vectorization_mode="vector_entry_point")`` work."""
    import gymnasium

    for name, game in (("konkun/Konchinka-v0", "konchinka"), ("konkun/Kunken-v0", "kunken")):
        if name not in gymnasium.registry:
            gymnasium.register(name, entry_point=f"konkun.rl.envs:{game}_gym_env",
                               vector_entry_point=_vector_entry(game),
                               disable_env_checker=True)
