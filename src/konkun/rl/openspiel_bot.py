"""OpenSpiel's algorithms as konkun bots: the ``openspiel`` bot spec (extra ``openspiel``).

- ``openspiel:algo=ismcts:sims=N`` asks OpenSpiel's own ISMCTS bot
  (``open_spiel.python.algorithms.ismcts``, random roll-outs, UCT constant ``c``, default
  1.4) for the move, searching ``N`` simulations (default 20, at least 2) from the seat's view;
- ``openspiel:algo=mccfr:train=N`` plays the average policy of OpenSpiel's outcome-sampling
  MCCFR after ``N`` training iterations (default 100) on the same game and rules (trained
  once per process and kept), sampling its move; an information state training never
  reached gets the uniform policy, as OpenSpiel's ``AveragePolicy`` gives it.

The bot builds the OpenSpiel state of :mod:`konkun.openspiel` from the seat's observation
(a deal dealt consistently with it, ``sample_deal``), so it sees only what the seat sees.
``seed=S`` seeds the algorithm (numpy), so arena runs replay exactly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from konkun.bots.specs import InvalidBotSpecError, check_options, float_param, int_param

ALGORITHMS = ("ismcts", "mccfr")
_SOLVERS: dict[tuple[Any, ...], Any] = {}


def load_openspiel() -> Any:
    """``konkun.openspiel`` (which registers the games), or an error naming the extra."""
    try:
        import konkun.openspiel as module
    except ImportError:
        raise InvalidBotSpecError("the openspiel bot needs the openspiel extra "
                                  "(pip install -e '.[openspiel]': open_spiel)") from None
    return module


def game_for(game: str, observation: Any) -> Any:
    """The OpenSpiel game of ``game`` for the observation's seats and rules."""
    import pyspiel

    module = load_openspiel()
    allowed = module.parameters(game)
    params: dict[str, Any] = {"players": observation.num_seats}
    rules = getattr(observation, "rules", None)
    if rules is not None:
        for name, value in rules.to_json().items():
            if name in allowed:
                params[name] = type(allowed[name])(value)
    return pyspiel.load_game(f"konkun_{game}", params)


def state_for(os_game: Any, observation: Any, rng: random.Random) -> Any:
    """An OpenSpiel state of ``os_game`` consistent with the seat's ``observation``."""
    state = os_game.new_initial_state()
    deal = observation.sample_deal(rng)
    if hasattr(deal, "drawn"):
        deal.drawn = []
    state.dealer = deal.dealer
    state.deal = deal
    return state


class OpenSpielBot:
    """A konkun bot playing by one of OpenSpiel's algorithms (see the module)."""

    def __init__(self, game: str, algo: str, sims: int, train: int, c: float,
                 seed: int) -> None:
        self.game = game
        self.algo = algo
        self.sims = sims
        self.train = train
        self.c = c
        self.seed = seed

    def choose(self, observation: Any, legal: Sequence[Any], rng: random.Random,
               budget: Any) -> Any:
        """The algorithm's move for the seat of ``observation``."""
        import numpy as np

        os_game = game_for(self.game, observation)
        state = state_for(os_game, observation, rng)
        slots = state.adapter.slots(observation, legal)
        if len(slots) == 1:
            return next(iter(slots.values()))
        if self.algo == "ismcts":
            from open_spiel.python.algorithms import ismcts, mcts

            np_rng = np.random.RandomState(rng.getrandbits(32))
            bot = ismcts.ISMCTSBot(os_game, mcts.RandomRolloutEvaluator(1, np_rng), self.c,
                                   self.sims, random_state=np_rng)
            return slots[int(bot.step(state))]
        probabilities = self.solver(os_game).average_policy().action_probabilities(state)
        actions = sorted(a for a in probabilities if a in slots)
        weights = [probabilities[a] for a in actions]
        return slots[rng.choices(actions, weights)[0] if sum(weights) > 0
                     else rng.choice(actions)]

    def solver(self, os_game: Any) -> Any:
        """Outcome-sampling MCCFR trained ``train`` iterations on ``os_game`` (cached)."""
        import numpy as np
        from open_spiel.python.algorithms import outcome_sampling_mccfr

        key = (str(os_game), self.train, self.seed)
        found = _SOLVERS.get(key)
        if found is None:
            np.random.seed(self.seed)  # the solver samples from numpy's global source
            found = outcome_sampling_mccfr.OutcomeSamplingSolver(os_game)
            for _ in range(self.train):
                found.iteration()
            _SOLVERS[key] = found
        return found


def make_openspiel_bot(game: str, spec: Any) -> OpenSpielBot:
    """The bot of an ``openspiel:algo=...`` spec (the spec registry's factory)."""
    options = check_options(spec, {"algo": "ismcts or mccfr", "sims": "ISMCTS simulations",
                                   "train": "MCCFR iterations", "c": "UCT constant",
                                   "seed": "the algorithm's seed"})
    algo = options.get("algo", "ismcts")
    if algo not in ALGORITHMS:
        raise InvalidBotSpecError(f"invalid bot spec {str(spec)!r}: algo must be one of "
                                  f"{', '.join(ALGORITHMS)}, got {algo!r}")
    load_openspiel()
    return OpenSpielBot(game, algo, int_param(spec, "sims", options.get("sims", "20"), 2),
                        int_param(spec, "train", options.get("train", "100"), 1),
                        float_param(spec, "c", options.get("c", "1.4"), 0.0),
                        int_param(spec, "seed", options.get("seed", "0"), 0))


__all__ = ["OpenSpielBot", "game_for", "make_openspiel_bot", "state_for"]
