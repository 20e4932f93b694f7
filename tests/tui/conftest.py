"""Shared helpers for the terminal tests: a toy game (from konkun.bots.toy) registered
beside the real ones, so the app's machinery is tested apart from either engine."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from konkun.bots.toy import ToyMatch
from konkun.tui import games


def _new_toy(players: int, rules: Mapping[str, str], seed: int | str) -> Any:
    return ToyMatch(players, int(seed) if isinstance(seed, int) else len(seed))


def _load_toy(record: Mapping[str, Any]) -> tuple[Any, int | str]:
    match = ToyMatch(2, record["seed"])
    for action in record["actions"]:
        match.play(action)
    return match, record["seed"]


games._load()
games.GAMES.setdefault("toy", games.GameUI(
    title="Toy", example_move="3", rules_summary="Toy rules.", players=(2, 3),
    new_match=_new_toy, load_match=_load_toy, render_board=games.generic_board))
