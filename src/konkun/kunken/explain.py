"""Why a Kunken bank card cannot be taken now, and where a deal's points came from, for a
person learning the game.

The page's "coach" names, for every bank card the seat to move may not take the bank
from, the rule that stops it: no meld holds the card with two cards of the hand (the
third-card rule), or the opening would miss the minimum (50) by N points. The answers are
the engine's own take checks (:func:`konkun.kunken.completion.take_positions`), run with a
lowered minimum to find how far the opening falls short.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Any

from konkun.kunken.completion import compact_table, take_positions
from konkun.kunken.melds import VALUE, TableMeld, slot_text, slot_value
from konkun.kunken.rules import KunkenRules

JSON = dict[str, Any]


def take_refusals(hand: Sequence[int], bank: Sequence[int], melds: Sequence[TableMeld],
                  layout: bool, rules: KunkenRules, offered: Collection[int]) -> list[JSON]:
    """For each bank position not in ``offered`` (the positions the seat to move may take the
    bank from at the start of its turn; ``hand``: its card counts, ``layout``: whether it has
    laid down before): ``{"position": i, "card": TEXT, "reason": "no_meld"}`` (no meld holds
    the card with two cards held now) or ``{"position": i, "card": TEXT, "reason":
    "opening_short", "best": M, "short": N}`` (the best opening with it is worth M, N short
    of ``rules.opening_minimum``)."""
    refused = [i for i in range(len(bank)) if i not in offered]
    if not refused:
        return []
    minimum = 0 if layout else rules.opening_minimum
    hand, bank = list(hand), list(bank)
    table = compact_table((m.slots, m.kind) for m in melds)
    replace = rules.joker_for_held

    def positions(need: int) -> set[int]:
        return set(take_positions(hand, bank, need, table, layout, replace))

    meldable = positions(0) if minimum > 0 else set()
    out: list[JSON] = []
    for i in refused:
        entry: JSON = {"position": i, "card": slot_text(bank[i]), "reason": "no_meld"}
        if i in meldable:
            best = _best_opening(positions, i, minimum)
            entry.update(reason="opening_short", best=best, short=minimum - best)
        out.append(entry)
    return out


def _best_opening(positions: Any, i: int, minimum: int) -> int:
    """The most points an opening from bank position ``i`` reaches (below ``minimum``),
    by bisection over the minimum: ``positions(need)`` lists the positions open at ``need``.
    Opening points are multiples of 5, so the search runs in steps of 5."""
    low, high = 0, (minimum - 1) // 5  # in fives: reachable at low*5, not at minimum
    while low < high:
        middle = (low + high + 1) // 2
        if i in positions(middle * 5):
            low = middle
        else:
            high = middle - 1
    return low * 5


def score_parts(seat: int, melds: Iterable[TableMeld], hand: Sequence[int],
                winner: int | None, express: bool) -> JSON:
    """Where ``seat``'s points of a finished deal come from: ``{"plus": P, "minus": M,
    "plus_factor": 1|2, "minus_factor": 1|2, "points": N}`` with ``N = P * plus_factor -
    M * minus_factor`` (express doubles the winner's plus and the others' minus);
    ``hand``: the seat's card counts left in hand."""
    plus = sum(slot_value(slot) for meld in melds
               for slot, by in zip(meld.slots, meld.laid_by, strict=True) if by == seat)
    minus = sum(VALUE[k] * n for k, n in enumerate(hand) if n)
    doubled = express and winner is not None
    plus_factor = 2 if doubled and seat == winner else 1
    minus_factor = 2 if doubled and seat != winner else 1
    return {"plus": plus, "minus": minus, "plus_factor": plus_factor,
            "minus_factor": minus_factor, "points": plus * plus_factor - minus * minus_factor}
