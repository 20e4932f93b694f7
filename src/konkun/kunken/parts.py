"""Kunken actions as parts a page shows (docs/kunken.md, "Action parts"): an action's
kind, its cards, the bank position or meld it names, what its jokers stand for and a meld's
points, as JSON data, so a client tells a move in words and counts nothing itself.

:func:`action_parts` describes one action (it needs no deal: every part is in the action),
:func:`text_parts` an action's text (the move log's), and :func:`legal_steps` a list of
legal actions, adding to each step whose jokers could stand for other cards the positions
of the steps that differ from it only there (the page asks which meaning is meant).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from konkun.kunken.actions import LAYOFF, MELD, SWAP, TAKE, Action, parse_action
from konkun.kunken.melds import (
    BARE_JOKER,
    JOKER_FOR,
    OPEN_JOKER,
    card_text,
    check_meld,
    meld_value,
    slot_text,
)

JSON = dict[str, Any]


def joker_meaning(slot: int) -> str | None:
    """The card a declared joker slot stands for (``X=7d``: ``7d``); ``None`` for a real
    card, an undeclared joker or a set's open-suit joker."""
    return card_text(slot - JOKER_FOR) if JOKER_FOR <= slot < OPEN_JOKER else None


def meld_points(slots: Sequence[int]) -> int:
    """The points of a meld's slots (RULES.md, Values: a joker as the card it stands for).
    An undeclared joker (``X`` read from text) is read as :func:`check_meld` reads it (the
    valid reading worth the most); a slot list that is no meld counts each joker 10."""
    if BARE_JOKER in slots:
        check = check_meld(slots)
        if check.valid and check.points is not None:
            return check.points
    return meld_value(slots)


def action_parts(action: Action) -> JSON:
    """One action's parts: ``kind``; ``cards`` (card texts, ``X=7d`` for a declared joker;
    absent for ``draw`` and ``take``); ``bank`` (a ``take``'s bank position); ``meld`` (the
    meld number of a ``layoff`` or ``swap``); ``jokers`` (the cards its declared jokers
    stand for, in order; absent when none); ``points`` (a ``meld``'s points)."""
    kind = action.kind
    parts: JSON = {"kind": str(kind)}
    if action.slots:
        parts["cards"] = [slot_text(s) for s in action.slots]
        meanings = [m for m in map(joker_meaning, action.slots) if m is not None]
        if meanings:
            parts["jokers"] = meanings
    if kind == TAKE:
        parts["bank"] = action.target
    elif kind in (LAYOFF, SWAP):
        parts["meld"] = action.target
    elif kind == MELD:
        parts["points"] = meld_points(action.slots)
    return parts


def text_parts(text: str) -> JSON:
    """The parts of an action's text (:func:`action_parts` of :func:`parse_action`; raise
    :class:`~konkun.errors.InvalidNotationError` for text that is no action)."""
    return action_parts(parse_action(text))


def _joker_free(action: Action) -> tuple[str, int | None, tuple[int, ...]]:
    """The action with every joker's meaning left out and its cards in one order: two
    actions that use the same cards of the hand but for what a joker stands for have the
    same key (``meld X=6h 7h 8h`` and ``meld 7h 8h X=9h``)."""
    return (str(action.kind), action.number,
            tuple(sorted(BARE_JOKER if s >= BARE_JOKER else s for s in action.slots)))


def legal_steps(actions: Sequence[Action]) -> list[JSON]:
    """:func:`action_parts` of each action, in order; a step with a declared joker whose
    other readings are legal too also has ``alternatives``: the positions in ``actions``
    of the steps that differ from it only in what a joker stands for (the same kind, meld
    or bank position and cards of the hand, in any order)."""
    steps = [action_parts(a) for a in actions]
    groups: dict[tuple[str, int | None, tuple[int, ...]], list[int]] = {}
    for i, action in enumerate(actions):
        if any(s >= BARE_JOKER for s in action.slots):
            groups.setdefault(_joker_free(action), []).append(i)
    for members in groups.values():
        if len(members) < 2:
            continue
        for i in members:
            if "jokers" in steps[i]:
                steps[i]["alternatives"] = [j for j in members if j != i]
    return steps


__all__ = ["action_parts", "joker_meaning", "legal_steps", "meld_points", "text_parts"]
