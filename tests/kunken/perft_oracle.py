"""An independent Kunken move generator for perft, written from RULES.md and docs/kunken.md
(the action texts, the KKN) alone: it imports nothing from ``konkun``.

It reads a KKN whose turn is at its start (``SEAT:start``) or after a draw
(``SEAT:drawn``), lists every legal action as text and applies it, turn phase by turn phase:

- ``start``: ``draw``; ``take I`` for every bank position from which some legal sequence
  of steps completes the turn (the step-by-step search of ``bruteforce.py``); with
  ``swap_before_take`` and a layout, also the joker swaps (the joker then counts as held
  before the take);
- ``drawn``: the joker swaps (with a layout), then ``discard C`` for every card in hand;
- ``taken``: every meld, lay-off and swap after which the turn can still be completed
  (``bruteforce._Turn``), and ``discard C`` once the taken card is melded with two cards
  held before the take and an opening's melds reach the minimum;
- a draw from an empty stock turns the bank over into the stock (at most
  ``max_stock_renewals`` times, with ``empty_stock=turn_bank``) or ends the deal; the
  discard of the last card goes out and ends it.

Two action texts are the same action when docs/kunken.md says so: a set's jokers are open
(``X``) in a set of four and when laid off onto a set; a meld's cards in any order.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from .bruteforce import (
    RANKS,
    SUITS,
    Item,
    TableMeld,
    _Turn,
    meld_text,
    parse_table_meld,
    table_swaps,
)

DEFAULTS: dict[str, str] = {
    "jokers": "4", "opening_minimum": "50", "empty_stock": "turn_bank",
    "max_stock_renewals": "2", "deals": "0", "target": "0", "hand_size": "13",
    "tie": "play_on", "joker_for_held": "true", "swap_before_take": "false"}
"""RULES.md's defaults, in the order docs/kunken.md lists the options."""
PACK = [r + s for s in SUITS for r in RANKS] * 2
BUDGET = 10**6
Step = tuple[tuple[Item, ...], tuple[TableMeld, ...], bool, int, bool]
"""A take turn's state after a step: hand items, table, pending, points, layout."""


@dataclass(frozen=True)
class TakeState:
    """A take turn in progress: the hand's items (old/new/taken), the points laid this turn,
    the points needed, whether the taken card is still to be melded."""

    items: tuple[Item, ...]
    card: str
    pending: bool
    points: int
    need: int
    had_layout: bool


@dataclass(frozen=True)
class State:
    """A deal position (only what legality and the next position depend on)."""

    rules: dict[str, str] = field(hash=False, compare=False)
    hands: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]
    bank: tuple[str, ...]
    table: tuple[TableMeld, ...]
    layout: tuple[bool, ...]
    renewals: int
    to_move: int | None
    phase: str
    take: TakeState | None = None

    def flag(self, name: str) -> bool:
        return self.rules[name] == "true"


# ------------------------------------------------------------------------ KKN


def card_list(word: str) -> list[str]:
    if word == "-":
        return []
    out, i = [], 0
    while i < len(word):
        if word[i] == "X":
            out.append("X")
            i += 1
        else:
            out.append(word[i:i + 2])
            i += 2
    return out


def meld_slots(body: str) -> list[str]:
    """The slot texts of a KKN meld (``KcKdX@1`` -> ``Kc Kd X``; who laid a card is not
    needed here)."""
    slots, i = [], 0
    while i < len(body):
        if body[i] == "@":
            i += 2
        elif body.startswith("X=", i):
            slots.append(body[i:i + 4])
            i += 4
        elif body[i] == "X":
            slots.append("X")
            i += 1
        else:
            slots.append(body[i:i + 2])
            i += 2
    return slots


def parse(kkn: str) -> State:
    """A KKN at the start of a turn or after its draw (docs/kunken.md, KKN)."""
    words = kkn.split(" ")
    assert len(words) == 13 and words[0] == "kunken", kkn
    rules = dict(DEFAULTS)
    if words[1] != "-":
        rules.update(pair.split("=") for pair in words[1].split(","))
    seat, _, phase = words[3].partition(":")
    assert phase in ("start", "drawn"), "the oracle starts at the start of a turn or a draw"
    table = () if words[7] == "-" else tuple(
        canonical(parse_table_meld(meld_slots(m.partition(":")[2])))
        for m in words[7].split(","))
    return State(rules, tuple(tuple(sorted(card_list(h))) for h in words[4].split("/")),
                 tuple(card_list(words[5])), tuple(card_list(words[6])), table,
                 tuple(c == "1" for c in words[9]), int(words[10]), int(seat), phase)


def canonical(meld: TableMeld) -> TableMeld:
    """A set of four reads its jokers open (docs/kunken.md, rule decision 1)."""
    kind, key, start, slots = meld
    if kind == "s" and len(slots) == 4:
        return (kind, key, start, tuple(sorted("X?" + s[2:] if s[0] == "X" else s
                                               for s in slots)))
    return meld


# ------------------------------------------------------------------------ actions


def _items(hand: tuple[str, ...]) -> tuple[Item, ...]:
    return tuple(sorted((c, "O") for c in hand))


def _turn(state: State) -> _Turn:
    take = state.take
    assert take is not None
    return _Turn(take.card, take.need, state.flag("joker_for_held"), take.had_layout, BUDGET)


def _normal(text: str, table: tuple[TableMeld, ...]) -> str:
    """The text as the one action it is: a meld's words sorted, a joker laid off onto a
    set open."""
    words = text.split()
    if words[0] == "meld":
        return "meld " + " ".join(sorted(words[1:]))
    if words[0] == "layoff" and table[int(words[2])][0] == "s" and words[1].startswith("X"):
        return f"layoff X {words[2]}"
    return text


def actions(state: State) -> dict[str, State]:
    """Every legal action's (normalized) text and the position after it."""
    seat = state.to_move
    if seat is None:
        return {}
    hand = state.hands[seat]
    out: dict[str, State] = {}
    if state.phase == "start":
        out["draw"] = _draw(state, seat)
        for i in range(len(state.bank)):
            after = _take(state, seat, i)
            turn = _turn(after)
            take = after.take
            assert take is not None
            if turn.complete(take.items, state.table, True, 0, take.had_layout):
                out[f"take {i}"] = after
        if state.flag("swap_before_take") and state.layout[seat]:
            out.update(_swaps(state, seat))
        return out
    if state.phase == "drawn":
        if state.layout[seat]:
            out.update(_swaps(state, seat))
        for card in sorted(set(hand)):
            out[f"discard {card}"] = _discard(state, seat, card)
        return out
    take = state.take
    assert take is not None
    turn = _turn(state)
    variants: dict[str, tuple[tuple[bool, int, int, int], Step]] = {}
    for text, (items, table, pending, points, layout) in turn.steps(
            take.items, state.table, take.pending, take.points, state.layout[seat]):
        table = tuple(canonical(m) for m in table)
        if text.startswith("meld "):
            text = "meld " + meld_text(table[-1])
        key = _normal(text, state.table)
        # Copies of a card are told apart only by when they came: the player lays the copy
        # that serves best (the one that meets the third-card rule, else a new one before
        # an old one, the taken card last), so one after-state stands for the action.
        kept = (not pending, sum(1 for _, st in items if st == "T"),
                sum(1 for _, st in items if st == "O"), sum(1 for _, st in items if st == "N"))
        if key not in variants or kept > variants[key][0]:
            variants[key] = (kept, (items, table, pending, points, layout))
    for key, (_, (items, table, pending, points, layout)) in variants.items():
        if turn.complete(items, table, pending, points, layout):
            out[key] = replace(
                state, hands=_with(state.hands, seat, tuple(sorted(c for c, _ in items))),
                table=table, layout=_with(state.layout, seat, layout),
                take=replace(take, items=items, pending=pending, points=points))
    if not take.pending and take.points >= take.need:
        for card in sorted(set(hand)):
            out[f"discard {card}"] = _discard(state, seat, card)
    return out


def _with(values: tuple[object, ...], i: int, value: object) -> tuple[object, ...]:
    return (*values[:i], value, *values[i + 1:])


def _draw(state: State, seat: int) -> State:
    stock, bank, renewals = state.stock, state.bank, state.renewals
    if not stock:
        if (state.rules["empty_stock"] == "turn_bank"
                and renewals < int(state.rules["max_stock_renewals"]) and bank):
            stock, bank, renewals = bank, (), renewals + 1
        else:
            return replace(state, to_move=None, phase="over")
    hand = tuple(sorted((*state.hands[seat], stock[0])))
    return replace(state, hands=_with(state.hands, seat, hand), stock=stock[1:], bank=bank,
                   renewals=renewals, phase="drawn")


def _take(state: State, seat: int, i: int) -> State:
    taken = state.bank[i:]
    items = tuple(sorted((*_items(state.hands[seat]), (taken[0], "T"),
                          *((c, "N") for c in taken[1:]))))
    had = state.layout[seat]
    need = 0 if had else int(state.rules["opening_minimum"])
    return replace(state, hands=_with(state.hands, seat, tuple(sorted(c for c, _ in items))),
                   bank=state.bank[:i], phase="taken",
                   take=TakeState(items, taken[0], True, 0, need, had))


def _swaps(state: State, seat: int) -> Iterator[tuple[str, State]]:
    hand = state.hands[seat]
    for text, given, table in table_swaps(state.table, list(hand)):
        rest = list(hand)
        rest.remove(given)
        yield text, replace(state, hands=_with(state.hands, seat, tuple(sorted((*rest, "X")))),
                            table=tuple(canonical(m) for m in table))


def _discard(state: State, seat: int, card: str) -> State:
    rest = list(state.hands[seat])
    rest.remove(card)
    after = replace(state, hands=_with(state.hands, seat, tuple(rest)),
                    bank=(*state.bank, card), take=None)
    if not rest:
        return replace(after, to_move=None, phase="over")
    return replace(after, to_move=(seat + 1) % len(state.hands), phase="start")


def perft(state: State, depth: int) -> int:
    """The number of action sequences of length ``depth``."""
    if depth == 0:
        return 1
    moves = actions(state)
    if depth == 1:
        return len(moves)
    return sum(perft(after, depth - 1) for after in moves.values())


def divide(state: State, depth: int) -> dict[str, int]:
    """perft(depth) per first action."""
    return {text: perft(after, depth - 1) for text, after in actions(state).items()}


# ------------------------------------------------------------------------ dealing


def _order(cards: list[str]) -> list[str]:
    """Rank high to low, suit c d h s, jokers last (docs/kunken.md)."""
    order = "AKQJT98765432"
    return sorted(cards, key=lambda c: (99, 0) if c == "X" else (order.index(c[0]),
                                                                 SUITS.index(c[1])))


def dealt_kkn(rules: dict[str, str], seats: int, dealer: int, rng: random.Random) -> str:
    """The KKN of a fresh deal by RULES.md (one card at a time from the dealer's left, one
    card to the bank, the rest the stock), shuffled with ``rng``."""
    pack = PACK + ["X"] * int(rules.get("jokers", DEFAULTS["jokers"]))
    rng.shuffle(pack)
    size = int(rules.get("hand_size", DEFAULTS["hand_size"]))
    hands: list[list[str]] = [[] for _ in range(seats)]
    for k in range(size * seats):
        hands[(dealer + 1 + k % seats) % seats].append(pack[k])
    rest = pack[size * seats:]
    changed = ",".join(f"{k}={rules[k]}" for k in DEFAULTS if k in rules
                       and rules[k] != DEFAULTS[k]) or "-"
    return " ".join(["kunken", changed, str(dealer), f"{(dealer + 1) % seats}:start",
                     "/".join("".join(_order(h)) for h in hands), "".join(rest[1:]), rest[0],
                     "-", "/".join("-" for _ in hands), "0" * seats, "0", "-", "-"])

