"""The server's add-ons of the two real games (their descriptors' ``server`` add-on)."""

from __future__ import annotations

from typing import Any

from konkun.server.games import ServerAddon


def _konchinka_move(_deal: Any, text: str) -> Any:
    from konkun.konchinka import Move

    return Move.parse(text)  # its messages quote no KPN


def _kunken_advice(observation: Any) -> dict[str, Any]:
    from konkun.kunken.hints import observation_advice

    return observation_advice(observation)


KONCHINKA = ServerAddon(
    parse_action=_konchinka_move,
    why_illegal=lambda deal, move: deal.why_illegal(move))
"""Konchinka: moves read by :meth:`~konkun.konchinka.Move.parse`, reasons from the deal."""

KUNKEN = ServerAddon(
    parse_action=lambda deal, text: deal.parse_action(text),  # quotes only the text
    why_illegal=lambda deal, action: deal.why_illegal(action),
    advice=_kunken_advice)
"""Kunken: actions read by the deal, reasons from the deal, the solver's advice."""
