"""The environment constructors, one pair per game, and their Gymnasium registration.

>>> env = konchinka_env(num_players=3, rules={"variant": "novo"})
>>> env.reset(seed=7)
>>> sorted(env.observe(env.agent_selection))
['action_mask', 'observation']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from konkun.rl.aec import KonkunAECEnv
from konkun.rl.gym_env import KonkunGymEnv
from konkun.rl.policies import Policy

Rules = Any
"""A game's rules object, or a mapping of rule options as in ``RULES.md``."""
Opponents = str | Policy | Sequence[str | Policy]


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


def register_gymnasium() -> None:
    """Register ``konkun/Konchinka-v0`` and ``konkun/Kunken-v0`` with Gymnasium (done on
    import of :mod:`konkun.rl`), so ``gymnasium.make("konkun/Konchinka-v0")`` works."""
    import gymnasium

    for name, entry in (("konkun/Konchinka-v0", "konkun.rl.envs:konchinka_gym_env"),
                        ("konkun/Kunken-v0", "konkun.rl.envs:kunken_gym_env")):
        if name not in gymnasium.registry:
            gymnasium.register(name, entry_point=entry, disable_env_checker=True)
