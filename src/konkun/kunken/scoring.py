"""Deal scoring (RULES.md, Кункен: Score of a deal) from a description of the table, as
``konkun kunken score`` reads it (CONTRACT.md)::

    {"players": [{"melds": [[CARD, ...], ...], "layoffs": [CARD, ...], "hand": [CARD, ...]},
                 ...],
     "winner": SEAT | null, "express": true | false}

Each player scores + every card they laid (their melds and their lay-offs; a joker is worth
the card it stands for) - every card in hand (a joker 10). Express: the winner's plus is
doubled and every other player's minus is doubled.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from konkun.errors import InvalidCardError, InvalidNotationError, InvalidPositionError
from konkun.kunken.melds import (
    BARE_JOKER,
    JOKER_FOR,
    OPEN_JOKER,
    VALUE,
    check_meld,
    parse_slot,
    slot_card,
    slot_value,
)
from konkun.kunken.rules import MAX_SEATS, MIN_SEATS


def deal_points(plus: Sequence[int], minus: Sequence[int], winner: int | None,
                express: bool) -> list[int]:
    """Points per seat from table values (``plus``) and hand values (``minus``)."""
    if express and winner is not None:
        return [2 * p - m if s == winner else p - 2 * m
                for s, (p, m) in enumerate(zip(plus, minus, strict=True))]
    return [p - m for p, m in zip(plus, minus, strict=True)]


def _slots(value: Any, where: str) -> list[int]:
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise InvalidNotationError(f"invalid score input: {where} must be a list of card texts")
    try:
        return [parse_slot(t) for t in value]
    except InvalidCardError as error:
        raise InvalidNotationError(f"invalid score input: {where}: {error}") from None


def score_deal(data: Any) -> dict[str, list[int]]:
    """``{"points": [...]}`` for a finished deal given as CONTRACT.md's JSON; raise
    :class:`~konkun.errors.InvalidNotationError` or
    :class:`~konkun.errors.InvalidPositionError` naming the problem."""
    if not isinstance(data, dict):
        raise InvalidNotationError("invalid score input: expected a JSON object")
    unknown = set(data) - {"players", "winner", "express"}
    if unknown:
        raise InvalidNotationError(f"invalid score input: unknown key {sorted(unknown)[0]!r}")
    players = data.get("players")
    if not isinstance(players, list) or not players:
        raise InvalidNotationError("invalid score input: \"players\" must be a non-empty list")
    winner = data.get("winner")
    express = data.get("express", False)
    if winner is not None and (isinstance(winner, bool) or not isinstance(winner, int)
                               or not 0 <= winner < len(players)):
        raise InvalidNotationError(f"invalid score input: winner {winner!r} is not a seat "
                                   f"0..{len(players) - 1} or null")
    if not isinstance(express, bool):
        raise InvalidNotationError(f"invalid score input: express {express!r} is not true or "
                                   "false")
    if express and winner is None:
        raise InvalidPositionError("invalid score input: express needs a winner")
    counts = [0] * 53
    plus: list[int] = []
    minus: list[int] = []
    for seat, player in enumerate(players):
        if not isinstance(player, dict):
            raise InvalidNotationError(f"invalid score input: player {seat} is not an object")
        unknown = set(player) - {"melds", "layoffs", "hand"}
        if unknown:
            raise InvalidNotationError(
                f"invalid score input: player {seat} has unknown key {sorted(unknown)[0]!r}")
        melds = player.get("melds", [])
        if not isinstance(melds, list):
            raise InvalidNotationError(f"invalid score input: player {seat} melds must be a list")
        table = 0
        for m, meld in enumerate(melds):
            slots = _slots(meld, f"player {seat} meld {m}")
            check = check_meld(slots)
            if not check.valid or check.points is None:
                raise InvalidPositionError(
                    f"invalid score input: player {seat} meld {m} {' '.join(meld)!r} is not a "
                    f"meld: {check.reason}")
            table += check.points
            _count(counts, slots)
        for j, slot in enumerate(_slots(player.get("layoffs", []), f"player {seat} layoffs")):
            if slot == BARE_JOKER:
                raise InvalidPositionError(
                    f"invalid score input: player {seat} layoff {j}: a laid-off joker must "
                    "say the card it stands for (X=7d)")
            table += slot_value(slot)
            _count(counts, [slot])
        hand = _slots(player.get("hand", []), f"player {seat} hand")
        for slot in hand:
            if JOKER_FOR <= slot < OPEN_JOKER:
                raise InvalidNotationError(
                    f"invalid score input: player {seat} hand: a joker in hand is X")
        _count(counts, hand)
        plus.append(table)
        minus.append(sum(VALUE[s] for s in hand))
    for k in range(52):
        if counts[k] > 2:
            from konkun.kunken.melds import card_text

            raise InvalidPositionError(
                f"invalid score input: {card_text(k)} appears {counts[k]} times (two decks "
                "hold 2)")
    if counts[52] > 4:
        raise InvalidPositionError(f"invalid score input: {counts[52]} jokers (at most 4)")
    if not MIN_SEATS <= len(players) <= MAX_SEATS:
        raise InvalidPositionError(f"invalid score input: {len(players)} players; Kunken is "
                                   f"played by {MIN_SEATS} to {MAX_SEATS}")
    return {"points": deal_points(plus, minus, winner, express)}


def _count(counts: list[int], slots: Sequence[int]) -> None:
    for s in slots:
        counts[slot_card(s)] += 1
