"""The research API: PettingZoo AEC environments and Gymnasium single-agent environments
for Konchinka and Kunken, with fixed action spaces, action masks, observation tensors and
JSON observations for language-model agents (``docs/rl.md``).

Needs the ``rl`` extra (``pettingzoo``, ``gymnasium``, ``numpy``); the engines never import
this package.
"""

from pathlib import Path

from konkun import native

NATIVE = native.activate(__path__, Path(__file__).resolve().parent)
"""Whether this package's compiled loops (:mod:`konkun.rl.kunken_loops`) load from the
build (:mod:`konkun.native`); this runs before any of its modules is imported."""

from konkun.rl.envs import (
    adapter_for,
    konchinka_env,
    konchinka_gym_env,
    konchinka_vector_env,
    kunken_env,
    kunken_gym_env,
    kunken_vector_env,
    make_env,
    make_gym_env,
    make_self_play_vector_env,
    make_vector_env,
    register_gymnasium,
)
from konkun.rl.policies import TensorPolicy

register_gymnasium()

__all__ = ["NATIVE", "TensorPolicy", "adapter_for", "konchinka_env", "konchinka_gym_env",
           "konchinka_vector_env", "kunken_env", "kunken_gym_env", "kunken_vector_env",
           "make_env", "make_gym_env", "make_self_play_vector_env", "make_vector_env",
           "register_gymnasium"]
