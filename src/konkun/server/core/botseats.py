"""Bot seats: bot specs checked for a game, and the bots that play them.

A bot gets one seat's observation and its legal actions, never the deal (see
:mod:`konkun.bots.base`). The server asks it for a move in a worker thread.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Hashable
from typing import Any

from konkun.errors import KonkunError
from konkun.game import Observation
from konkun.server.core.protocol import ProtocolError

OFFERED = (
    ("random", "Random", "plays a random legal move"),
    ("greedy", "Greedy", "takes the best move it sees at once"),
)
"""The specs the lobby offers before the strength ladder's levels (kept so that tables
and tests naming them go on working)."""

MAX_ITERATIONS = 1_000_000


def offered_bots() -> list[dict[str, Any]]:
    """The bot specs the lobby offers, weakest first: ``[{"spec", "name",
    "description"}]``, then the strength ladder's levels, which add ``names`` and
    ``descriptions`` by language (:func:`konkun.bots.ladder.offered_levels`)."""
    from konkun.bots.ladder import offered_levels

    return [*({"spec": spec, "name": name, "description": description}
              for spec, name, description in OFFERED), *offered_levels()]


def check_bot_spec(spec: str, game: str, max_seconds: float) -> str:
    """The canonical text of ``spec`` after checking it makes a bot for ``game`` within
    the server's limits; raise ``unknown_bot`` otherwise."""
    from konkun.bots import BotSpec

    try:
        parsed = BotSpec.parse(spec)
        budget = parsed.budget()
        parsed.create(game)
    except KonkunError as error:
        raise ProtocolError("unknown_bot", str(error), spec) from None
    if budget.seconds is not None and budget.seconds > max_seconds:
        raise ProtocolError(
            "unknown_bot", f"bot spec {spec!r} thinks {budget.seconds:g} s a move; "
            f"this server allows at most {max_seconds:g} s", spec)
    if budget.iterations is not None and budget.iterations > MAX_ITERATIONS:
        raise ProtocolError(
            "unknown_bot", f"bot spec {spec!r} asks for {budget.iterations} iterations; "
            f"this server allows at most {MAX_ITERATIONS}", spec)
    return str(parsed)


class BotSeat:
    """The bot playing one seat of one table, with its own random source."""

    def __init__(self, spec: str, game: str) -> None:
        from konkun.bots import BotSpec, Budget

        parsed = BotSpec.parse(spec)
        self.spec = str(parsed)
        self.bot = parsed.create(game)
        self.budget = parsed.budget().or_default(Budget(seconds=1.0))
        self.rng = random.Random(secrets.randbits(64))

    def choose(self, observation: Observation[Any]) -> Hashable:
        """The bot's action for the seat of ``observation`` (runs in a worker thread)."""
        legal = tuple(observation.legal_actions())
        action: Hashable = self.bot.choose(observation, legal, self.rng, self.budget)
        if action not in legal:
            action = self.rng.choice(legal)
        return action


_PROCESS_BOTS: dict[tuple[str, str], BotSeat] = {}
"""The bots a worker process made, by (spec, game): each is made once per process."""


def choose_in_process(spec: str, game: str, observation: Observation[Any],
                      seed: int) -> Hashable:
    """A bot's action for ``observation``, in a worker process (a search holds that
    process's interpreter, not the server's); ``seed`` draws its random choices."""
    seat = _PROCESS_BOTS.get((spec, game))
    if seat is None:
        seat = _PROCESS_BOTS[(spec, game)] = BotSeat(spec, game)
    seat.rng.seed(seed)
    return seat.choose(observation)
