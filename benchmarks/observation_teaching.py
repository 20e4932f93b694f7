"""What the coach's explanations add to an observation's JSON (``to_json``), per game:
Konchinka's move explanations and Kunken's take refusals, timed interleaved with and
without them on the same positions (greedy-bot play), printed as milliseconds and ratios.

    PYTHONPATH=src python benchmarks/observation_teaching.py
"""

from __future__ import annotations

import random
import time
from typing import Any

from konkun.bots.specs import BotSpec
from konkun.game import get_game

ROUNDS = 9
"""Rounds of (with, without), interleaved."""


def positions(game: str, seats: int, deals: int) -> list[tuple[Any, int]]:
    """(deal copy, seat to move) along greedy play, seat to move's view."""
    out: list[tuple[Any, int]] = []
    for seed in range(deals):
        match = get_game(game).new_match(None, seats, seed)
        deal = match.deal
        bots = [BotSpec.parse("greedy").agent(game, random.Random(seed)) for _ in range(seats)]
        while deal.to_move is not None and len(out) < 400 * (seed + 1):
            seat = deal.to_move
            out.append((deal.observe(seat), seat))
            deal.play(bots[seat].act(deal))
    return out


def timed(views: list[Any], repeat: int = 3) -> float:
    """The best of ``repeat`` runs of every view's ``to_json()``, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for view in views:
            view.to_json()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    """Print, per game, the mean ``to_json`` time with and without the coach's fields."""
    import konkun.konchinka.observation as konchinka_observation
    import konkun.kunken.observation as kunken_observation

    for game, module, names in (
            ("konchinka", konchinka_observation, ("explain_moves", "points_reasons")),
            ("kunken", kunken_observation, ("take_refusals", "score_parts"))):
        views = [view for view, _ in positions(game, 2, 3)]
        saved = {name: getattr(module, name) for name in names}
        with_teaching = without = 0.0
        for _ in range(ROUNDS):  # interleaved rounds
            with_teaching += timed(views)
            for name in names:
                setattr(module, name, lambda *a, **k: None)
            if game == "kunken":
                original = module.KunkenObservation.take_refusals
                module.KunkenObservation.take_refusals = lambda self: []  # type: ignore[method-assign]
            without += timed(views)
            for name, fn in saved.items():
                setattr(module, name, fn)
            if game == "kunken":
                module.KunkenObservation.take_refusals = original  # type: ignore[method-assign]
        per = 1000 / len(views) / ROUNDS
        print(f"{game}: {len(views)} observations, to_json {with_teaching * per:.3f} ms with "
              f"the coach's fields, {without * per:.3f} ms without, ratio "
              f"{with_teaching / without:.2f}")


if __name__ == "__main__":
    main()
