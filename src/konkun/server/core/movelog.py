"""The move log of a whole match: every action with its seat and the deal it was played in.

``GET /api/tables/{id}/log`` answers it (the page groups it by deal, and a Kunken turn's
actions into one entry). Action texts are public (a Kunken draw is ``draw``, never the
card), so the log is the same for every seat and for spectators. An action the stand-in bot
played for an absent, timed-out or resigned person says so (``"stand_in": true``). The
deal of each action is found by replaying the match from its seed on the server; the seed
never leaves it.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from konkun.server.core.games import GameAdapter


def move_log(adapter: GameAdapter, rules_value: Any, num_seats: int, seed: str,
             actions: list[tuple[int, str]],
             stand_in_turns: Collection[int] = ()) -> list[dict[str, Any]]:
    """``[{"turn": k, "actor": seat, "action": text, "deal": d}, ...]``: action ``k``
    (1-based, as ``last.turn``) was played by ``seat`` in deal ``d`` (1-based); the
    actions numbered in ``stand_in_turns`` add ``"stand_in": true`` (the stand-in bot
    played them for the seat's person); a game that describes its actions adds each one's
    ``"parts"`` (``GameAdapter.describe``: a Kunken action's kind, cards, ...)."""
    match = adapter.new_match(rules_value, num_seats, seed)
    entries = []
    for turn, (actor, text) in enumerate(actions, start=1):
        deal = len(match.deal_points) + 1
        match.play(match.deal.parse_action(text))
        entry: dict[str, Any] = {"turn": turn, "actor": actor, "action": text, "deal": deal}
        parts = adapter.describe(text)
        if parts is not None:
            entry["parts"] = parts
        if turn in stand_in_turns:
            entry["stand_in"] = True
        entries.append(entry)
    return entries


def deal_end(adapter: GameAdapter, rules_value: Any, num_seats: int, seed: str,
             actions: list[tuple[int, str]], number: int) -> dict[str, Any] | None:
    """Deal ``number`` (1-based) as it ended, every seat's view of it (at the end of a
    deal the hands left are shown for scoring), or ``None`` while it is not over:
    ``{"deal": n, "turn": k, "points": [...], "totals": [...], "views": [view of seat 0,
    ...]}`` (``totals``: the match totals after it), ``turn``
    being the action that ended it."""
    match = adapter.new_match(rules_value, num_seats, seed)
    for turn, (_actor, text) in enumerate(actions, start=1):
        deal = match.deal
        match.play(match.deal.parse_action(text))
        if len(match.deal_points) == number:
            return {"deal": number, "turn": turn, "points": list(deal.points()),
                    "totals": list(match.totals),
                    "views": [deal.observe(seat).to_json() for seat in range(num_seats)]}
    return None
