"""The server's add-ons of the two real games (their descriptors' ``server`` add-on)."""

from __future__ import annotations

from typing import Any

from konkun.server.core.games import ServerAddon


def _kunken_advice(observation: Any) -> dict[str, Any]:
    from konkun.kunken.hints import observation_advice

    return observation_advice(observation)


def _kunken_parts(text: str) -> dict[str, Any]:
    from konkun.kunken.parts import text_parts

    return text_parts(text)


KONCHINKA = ServerAddon()
"""Konchinka: actions read and explained by the deal itself (errors' ``reason``)."""

KUNKEN = ServerAddon(advice=_kunken_advice, describe=_kunken_parts)
"""Kunken: actions read and explained by the deal, the solver's advice, and each action's
parts (the move log's and the last action's, ``konkun.kunken.parts``)."""
