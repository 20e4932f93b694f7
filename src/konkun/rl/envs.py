"""The environment constructors and their Gymnasium registration.

:func:`make_env` and :func:`make_gym_env` build the environments of any registered game
(:mod:`konkun.game`) from its descriptor's ``rl`` add-on (the adapter class: action slots
and tensors); :func:`konchinka_env` and the other named constructors are thin wrappers.

>>> env = konchinka_env(num_players=3, rules={"variant": "novo"})
>>> env.reset(seed=7)
>>> sorted(env.observe(env.agent_selection))
['action_mask', 'observation']
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from konkun.errors import InvalidRuleError
from konkun.game import game_names, get_game
from konkun.rl.aec import KonkunAECEnv
from konkun.rl.gym_env import KonkunGymEnv
from konkun.rl.policies import Opponent
from konkun.rl.self_play import SelfPlayVectorEnv
from konkun.rl.vector import KonkunVectorEnv

Rules = Any
"""A game's rules object, or a mapping of rule options as in ``RULES.md``."""
Opponents = str | Opponent | Sequence[str | Opponent]


def adapter_for(game: str, rules: Rules | Mapping[str, str] = None, **options: Any) -> Any:
    """The adapter of ``game`` (its descriptor's ``rl`` add-on, built with ``rules`` and the
    adapter's own ``options``): action slots and tensors, usable outside the environments
    (e.g. to make a bot of an RL policy)."""
    factory = get_game(game).addon("rl")
    if factory is None:
        with_one = [name for name in game_names() if get_game(name).addons.get("rl")]
        raise InvalidRuleError(f"game {game!r} has no RL adapter; games with one: "
                               f"{', '.join(with_one)}")
    return factory(rules, **options)


def _adapter_options(game: str, given: Mapping[str, Any] | None,
                     kwargs: dict[str, Any]) -> dict[str, Any]:
    """The adapter's options: ``given``, and any of ``kwargs`` that the game's adapter
    takes (``capture_slots``), taken out of ``kwargs``; so ``gymnasium.make(ID,
    capture_slots=64)`` reaches the adapter as the named constructors' argument does."""
    options = dict(given or {})
    factory = get_game(game).addon("rl")
    if factory is not None:
        taken = set(inspect.signature(factory).parameters) - {"rules", "self"}
        for name in taken & set(kwargs):
            options[name] = kwargs.pop(name)
    return options


def make_env(game: str, num_players: int = 2, rules: Rules | Mapping[str, str] = None,
             adapter_options: Mapping[str, Any] | None = None,
             **kwargs: Any) -> KonkunAECEnv:
    """The PettingZoo AEC environment of one deal of ``game``; ``adapter_options`` go to
    its adapter, other keyword arguments to :class:`~konkun.rl.aec.KonkunAECEnv`
    (``render_mode``, ``max_steps``, ``json_infos``)."""
    options = _adapter_options(game, adapter_options, kwargs)
    return KonkunAECEnv(adapter_for(game, rules, **options), num_players, **kwargs)


def make_gym_env(game: str, num_players: int = 2, rules: Rules | Mapping[str, str] = None,
                 seat: int = 0, opponents: Opponents = "random",
                 adapter_options: Mapping[str, Any] | None = None,
                 **kwargs: Any) -> KonkunGymEnv:
    """The Gymnasium environment of one deal of ``game``: the agent at ``seat``, bots (or
    any policies) at the others; other keyword arguments go to
    :class:`~konkun.rl.gym_env.KonkunGymEnv` (``reward``, ``illegal_action``, ...)."""
    options = _adapter_options(game, adapter_options, kwargs)
    return KonkunGymEnv(adapter_for(game, rules, **options), num_players,
                        seat, opponents, **kwargs)


def konchinka_adapter(rules: Rules = None, capture_slots: int | None = None) -> Any:
    """The Konchinka adapter (:class:`konkun.rl.konchinka_adapter.KonchinkaAdapter`)."""
    return adapter_for("konchinka", rules, **_slots(capture_slots))


def _slots(capture_slots: int | None) -> dict[str, Any]:
    return {} if capture_slots is None else {"capture_slots": capture_slots}


def konchinka_env(num_players: int = 2, rules: Rules | Mapping[str, str] = None,
                  capture_slots: int | None = None, **kwargs: Any) -> KonkunAECEnv:
    """The PettingZoo AEC environment of one Konchinka deal, 2 to 4 agents; other keyword
    arguments go to :class:`~konkun.rl.aec.KonkunAECEnv` (``render_mode``, ``max_steps``,
    ``json_infos``)."""
    return make_env("konchinka", num_players, rules, _slots(capture_slots), **kwargs)


def konchinka_gym_env(num_players: int = 2, rules: Rules | Mapping[str, str] = None,
                      seat: int = 0, opponents: Opponents = "random",
                      capture_slots: int | None = None, **kwargs: Any) -> KonkunGymEnv:
    """The Gymnasium environment of one Konchinka deal: the agent at ``seat``, bots (or
    any policies) at the others; other keyword arguments go to
    :class:`~konkun.rl.gym_env.KonkunGymEnv` (``reward``, ``illegal_action``, ...)."""
    return make_gym_env("konchinka", num_players, rules, seat, opponents,
                        _slots(capture_slots), **kwargs)


def kunken_adapter(rules: Rules = None) -> Any:
    """The Kunken adapter (:class:`konkun.rl.kunken_adapter.KunkenAdapter`)."""
    return adapter_for("kunken", rules)


def kunken_env(num_players: int = 2, rules: Rules | Mapping[str, str] = None,
               **kwargs: Any) -> KonkunAECEnv:
    """The PettingZoo AEC environment of one Kunken deal, 2 to 5 agents; other keyword
    arguments go to :class:`~konkun.rl.aec.KonkunAECEnv`."""
    return make_env("kunken", num_players, rules, **kwargs)


def kunken_gym_env(num_players: int = 2, rules: Rules | Mapping[str, str] = None,
                   seat: int = 0, opponents: Opponents = "random",
                   **kwargs: Any) -> KonkunGymEnv:
    """The Gymnasium environment of one Kunken deal: the agent at ``seat``, bots at the
    others; other keyword arguments go to :class:`~konkun.rl.gym_env.KonkunGymEnv`."""
    return make_gym_env("kunken", num_players, rules, seat, opponents, **kwargs)


def make_vector_env(game: str, num_envs: int = 16, num_players: int = 2,
                    rules: Rules | Mapping[str, str] = None, seat: int = 0,
                    opponents: Opponents = "random",
                    adapter_options: Mapping[str, Any] | None = None,
                    **kwargs: Any) -> KonkunVectorEnv:
    """``num_envs`` deals of ``game`` stepped together (:class:`~konkun.rl.vector.
    KonkunVectorEnv`: flat observations and masks in preallocated arrays, autoreset)."""
    options = _adapter_options(game, adapter_options, kwargs)
    return KonkunVectorEnv(adapter_for(game, rules, **options), num_envs,
                           num_players, seat, opponents, **kwargs)


def konchinka_vector_env(num_envs: int = 16, num_players: int = 2,
                         rules: Rules | Mapping[str, str] = None, seat: int = 0,
                         opponents: Opponents = "random", capture_slots: int | None = None,
                         **kwargs: Any) -> KonkunVectorEnv:
    """``num_envs`` Konchinka deals stepped together (see :func:`make_vector_env`)."""
    return make_vector_env("konchinka", num_envs, num_players, rules, seat, opponents,
                           _slots(capture_slots), **kwargs)


def kunken_vector_env(num_envs: int = 16, num_players: int = 2,
                      rules: Rules | Mapping[str, str] = None, seat: int = 0,
                      opponents: Opponents = "random", **kwargs: Any) -> KonkunVectorEnv:
    """``num_envs`` Kunken deals stepped together (see :func:`make_vector_env`)."""
    return make_vector_env("kunken", num_envs, num_players, rules, seat, opponents, **kwargs)


def make_self_play_vector_env(game: str, num_envs: int = 16, num_players: int = 2,
                              rules: Rules | Mapping[str, str] = None,
                              adapter_options: Mapping[str, Any] | None = None,
                              **kwargs: Any) -> SelfPlayVectorEnv:
    """``num_envs`` deals of ``game`` stepped together with every seat played by the
    caller (:class:`~konkun.rl.self_play.SelfPlayVectorEnv`); other keyword arguments
    (``reward``, ``illegal_action``, ...) go to it."""
    options = _adapter_options(game, adapter_options, kwargs)
    return SelfPlayVectorEnv(adapter_for(game, rules, **options),
                             num_envs, num_players, **kwargs)


def register_gymnasium() -> None:
    """Register ``konkun/<Title>-v0`` with Gymnasium for every registered game with an RL
    adapter (done on import of :mod:`konkun.rl` and by the ``gymnasium.envs`` entry point;
    call it again after registering a game), so ``gymnasium.make("konkun/Konchinka-v0")``
    and ``gymnasium.make_vec(..., vectorization_mode="vector_entry_point")`` work."""
    import gymnasium

    for name in game_names():
        game = get_game(name)
        if not game.addons.get("rl"):
            continue
        env_id = f"konkun/{game.title.en}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=partial(make_gym_env, name),
                               vector_entry_point=partial(make_vector_env, name),
                               disable_env_checker=True)
