"""The server's add-ons of the two real games (their descriptors' ``server`` add-on)."""

from __future__ import annotations

from typing import Any

from konkun.server.core.games import ServerAddon


def _kunken_advice(observation: Any) -> dict[str, Any]:
    from konkun.kunken.hints import observation_advice

    return observation_advice(observation)


KONCHINKA = ServerAddon()
"""Konchinka: actions read and explained by the deal itself (errors' ``reason``)."""

KUNKEN = ServerAddon(advice=_kunken_advice)
"""Kunken: actions read and explained by the deal, and the solver's advice."""
