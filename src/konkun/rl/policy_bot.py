"""Tensor policies as konkun bots: the ``policy:`` bot spec.

``policy:module:callable`` names a :class:`~konkun.rl.policies.TensorPolicy` (or a plain
function of (tensor, mask) -> slot, taken as ``view="tensor"``); ``policy:path/model.zip``
a model saved by ``MaskablePPO.save`` (extra ``train``; ``path/model.json`` beside it, if
there, gives its ``view`` and ``capture_slots``, see ``examples/train_ppo.py``). The bot
encodes the seat's observation with the game's adapter for the deal's rules, asks the
policy for a slot and plays its action; the arena, the lobby and the environments'
opponents all take the spec.

A ``policy:`` spec imports code or loads a file, so it is refused unless the process
allows its target in the environment variable ``KONKUN_POLICIES`` (targets separated by
commas, or ``*`` for any): a web server offers only what its operator listed.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from konkun.bots.base import Budget
from konkun.bots.specs import BotSpec, InvalidBotSpecError, check_options, load_target
from konkun.game import Observation, game_names, get_game
from konkun.rl.adapter import GameAdapter
from konkun.rl.policies import TensorPolicy, tensor_of_observation

ALLOW_VARIABLE = "KONKUN_POLICIES"
"""The environment variable listing the ``policy:`` targets this process may load."""


def allowed(target: str) -> bool:
    """Whether ``KONKUN_POLICIES`` allows loading ``target``."""
    listed = {item.strip() for item in os.environ.get(ALLOW_VARIABLE, "").split(",")}
    return "*" in listed or target in listed


def load_policy(target: str) -> TensorPolicy:
    """The tensor policy ``target`` names: a saved model file, or ``module:attribute``."""
    if target.endswith(".zip") or Path(target).is_file():
        return load_model(Path(target))
    if ":" not in target:
        raise InvalidBotSpecError(
            f"invalid policy {target!r}: expected module:callable or a saved model file")
    try:
        found = load_target(target)
    except (ImportError, AttributeError) as error:
        raise InvalidBotSpecError(f"invalid policy {target!r}: {error}") from None
    if isinstance(found, TensorPolicy):
        return found
    if not callable(found):
        raise InvalidBotSpecError(f"invalid policy {target!r}: not callable")
    return TensorPolicy(found, name=target)


def load_model(path: Path) -> TensorPolicy:
    """A ``MaskablePPO`` model saved at ``path`` as a tensor policy (deterministic: the
    most likely legal slot); ``path`` with ``.json`` gives its view and action space, and
    the game and number of players it was trained on (see :class:`TensorPolicy`)."""
    if not path.is_file():
        raise InvalidBotSpecError(f"invalid policy {str(path)!r}: no such file")
    meta_path = path.with_suffix(".json")
    meta = json.loads(meta_path.read_text()) if meta_path.is_file() else {}
    try:
        import torch
        from sb3_contrib import MaskablePPO
    except ImportError:
        raise InvalidBotSpecError(
            f"invalid policy {str(path)!r}: loading a model needs the train extra "
            "(sb3-contrib, torch)") from None
    torch.set_num_threads(1)
    model = MaskablePPO.load(str(path), device="cpu")

    def act(tensor: Any, mask: Any) -> int:
        """The model's most likely slot among the legal ones."""
        action, _ = model.predict(tensor, action_masks=mask.astype(bool), deterministic=True)
        return int(action)

    shape = model.observation_space.shape
    return TensorPolicy(act, view=meta.get("view", "flat"),
                        capture_slots=meta.get("capture_slots"), name=str(path),
                        game=meta.get("game"), num_players=meta.get("num_players"),
                        observation_size=None if shape is None else int(np.prod(shape)))


class TensorPolicyBot:
    """A konkun bot that decides through a tensor policy over the research API's view."""

    def __init__(self, game: str, policy: TensorPolicy) -> None:
        self.game = game
        self.policy = policy
        self._adapters: dict[Any, GameAdapter] = {}

    def adapter(self, rules: Any) -> GameAdapter:
        """The game's adapter for ``rules`` (made once per rules): its descriptor's ``rl``
        add-on, with the policy's ``capture_slots`` when it was trained with one."""
        found = self._adapters.get(rules)
        if found is None:
            from konkun.rl.envs import adapter_for

            slots = self.policy.capture_slots
            options = {} if slots is None else {"capture_slots": slots}
            try:
                found = adapter_for(self.game, rules, **options)
            except TypeError:
                raise InvalidBotSpecError(
                    f"policy {self.policy.name!r} was trained with capture_slots={slots}, "
                    f"which the {self.game} adapter does not take") from None
            self._adapters[rules] = found
        return found

    def choose(self, observation: Observation[Any], legal: Sequence[Any],
               rng: random.Random, budget: Budget) -> Any:
        """Encode the observation, ask the policy for a slot, return its action (a seat of
        another number of players than the policy's is refused with a one-line error)."""
        self.policy.check_seats(observation.num_seats)
        adapter = self.adapter(getattr(observation, "rules", None))
        tensor = tensor_of_observation(adapter, self.policy.view, observation)
        return self.policy.choose(adapter, tensor, adapter.slots(observation, legal))


def make_policy_bot(game: str, spec: BotSpec) -> TensorPolicyBot:
    """The bot of a ``policy:TARGET`` spec (the spec registry's factory)."""
    playable = [name for name in game_names() if get_game(name).addons.get("rl")]
    if game not in playable:
        raise InvalidBotSpecError(f"invalid bot spec {str(spec)!r}: policies play the games "
                                  f"with an RL adapter ({', '.join(playable)}), not {game!r}")
    target = check_options(spec, {"target": "module:callable or a saved model file"}).get(
        "target")
    if not target:
        raise InvalidBotSpecError(
            f"invalid bot spec {str(spec)!r}: expected policy:module:callable or "
            "policy:path/to/model.zip")
    if not allowed(target):
        raise InvalidBotSpecError(
            f"invalid bot spec {str(spec)!r}: policy {target!r} is not allowed in this "
            f"process; a policy spec imports code or loads a file, so list it in "
            f"{ALLOW_VARIABLE} (comma-separated, or *)")
    policy = load_policy(target)
    if policy.game is not None and policy.game != game:
        raise InvalidBotSpecError(f"invalid bot spec {str(spec)!r}: policy {target!r} was "
                                  f"trained on {policy.game}, not {game}")
    return TensorPolicyBot(game, policy)
