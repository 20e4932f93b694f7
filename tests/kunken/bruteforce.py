"""An independent brute-force Kunken take checker, written from RULES.md alone.

A test oracle: it imports nothing from ``konkun``. It answers the question of
``konkun kunken takes`` (CONTRACT.md): from which bank positions may the player to move take
the bank, i.e. for which positions does some legal sequence of steps complete the turn?
It simulates the turn step by step, trying every step in every order (a memo on the state
only avoids visiting the same state twice):

- the take: the card at the position and every later one join the hand; each card in hand
  carries whether it was held before the take (``O``), was taken (``N``) or is the taken
  card itself (``T``); a joker won by a swap after the take is ``N``;
- a meld (RULES.md, Melds): a set of 3 or 4 cards of one rank in different suits, or a
  sequence of 3 to 13 cards of one suit in the circular order A 2 .. K A; at most half the
  cards jokers; each joker stands for one card: in a sequence the card of its place, in a
  set a suit it declares or an open suit; with ``joker_for_held`` false a joker may not
  stand for a card the player holds at that moment (an open set joker stands for no card
  yet); the cards of a meld are any cards of the hand that fit, copies told apart by
  whether they were held before the take;
- a lay-off: a card onto a sequence's end or into a set's missing suit, a joker within the
  joker limit (as either end of a sequence, as an open or declared suit in a set);
- a swap (after a meld was laid, on an earlier turn or this one): a card from the hand for
  the table joker that stands for it (an open set joker: any missing suit), the joker into
  the hand; with ``swap_before_take`` a player with a layout may also swap before the
  take, the joker then counting as held before the take;
- never laying down the last card; the turn is complete once a meld laid this turn held
  the taken card and two other cards held before the take (old jokers count), the melds of
  an opening (no layout before the turn) are worth ``opening_minimum`` in all (lay-offs do
  not count; a joker worth the card it stands for), and a card is left to discard.

A search that visits more than ``budget`` states gives up (raises
:class:`SearchTooBigError`), so a test can leave such a position out rather than wait. The
only shortcut: a state is abandoned when even every card left in the hand and every joker
still on the table could not bring the opening's points up to the minimum (each meld point
comes from a card of the hand or a joker won from the table).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations, product

RANKS = "A23456789TJQK"
"""Rank positions in the circular order of sequences (the Ace also follows the King)."""
SUITS = "cdhs"

Item = tuple[str, str]
"""A card in hand: (card text or ``X``, ``O`` old / ``N`` not old / ``T`` the taken card)."""
Slot = str
"""A set's slot: a suit letter (a real card), ``X`` + suit (a declared joker) or ``X?``;
a sequence's slot: ``R`` (a real card) or ``J`` (a joker for the card of its place)."""
TableMeld = tuple[str, str, int, tuple[Slot, ...]]
"""("s", rank, 0, slots sorted) or ("q", suit, start position, slots in order)."""


def value(rank: str) -> int:
    """RULES.md Values: A K Q J 10, T..2 5."""
    return 10 if rank in "AKQJ" else 5


def card_of(text: str) -> str:
    """A card text, ``10`` read as ``T``."""
    text = text.replace("10", "T")
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise ValueError(f"not a card: {text!r}")
    return text


def parse_table_meld(slots: Sequence[str]) -> TableMeld:
    """A meld as CONTRACT.md writes it (a sequence in its order, ``X=7c`` jokers; a set with
    ``X`` for an open-suit joker)."""
    reals = [card_of(s) for s in slots if not s.startswith("X")]
    if len({c[0] for c in reals}) == 1 and len(reals) >= 2:
        rank = reals[0][0]
        out = [c[1] for c in reals]
        for s in slots:
            if s == "X":
                out.append("X?")
            elif s.startswith("X="):
                out.append("X" + card_of(s[2:])[1])
        return ("s", rank, 0, tuple(sorted(out)))
    first = slots[0]
    first_card = card_of(first[2:] if first.startswith("X=") else first)
    return ("q", first_card[1], RANKS.index(first_card[0]),
            tuple("J" if s.startswith("X") else "R" for s in slots))


def _seq_card(suit: str, start: int, i: int) -> str:
    return RANKS[(start + i) % 13] + suit


WORTH = {"N": 0, "O": 1, "T": 2}
"""How much a joker's status serves: the player lays the one that serves least."""


def bare(slot: Slot) -> Slot:
    """A table slot without the status of a joker laid this turn (``XhO`` -> ``Xh``)."""
    if slot[0] == "X":
        return slot[:2]
    return "J" if slot[0] == "J" else slot


def slot_status(slot: Slot) -> str:
    """The status of a joker laid this turn (``O`` or ``T``), else ``N``."""
    rest = slot[2:] if slot[0] == "X" else slot[1:] if slot[0] == "J" else ""
    return rest or "N"


def unmarked(table: tuple[TableMeld, ...]) -> tuple[TableMeld, ...]:
    """The table with no joker marked (once the taken card is melded)."""
    return tuple((kind, key, start, tuple(sorted(bare(x) for x in slots)) if kind == "s"
                  else tuple(bare(x) for x in slots)) for kind, key, start, slots in table)


def _marked(slot: Slot, status: str) -> Slot:
    return slot + status if status in ("O", "T") else slot


def _table_jokers(table: Sequence[TableMeld]) -> int:
    return sum(1 for m in table for s in m[3] if s[0] in "XJ")


class SearchTooBigError(Exception):
    """The search visited more states than its budget."""


class _Turn:
    """The step-by-step search of one take turn."""

    def __init__(self, card: str, need: int, joker_for_held: bool, layout: bool,
                 budget: int) -> None:
        self.budget = budget
        self.card = card
        self.layout = layout
        self.need = need
        self.joker_for_held = joker_for_held
        self.memo: dict[tuple[object, ...], bool] = {}

    # ----------------------------------------------------------------- search

    def complete(self, hand: tuple[Item, ...], table: tuple[TableMeld, ...], pending: bool,
                 points: int, layout: bool) -> bool:
        """Whether the turn can be completed from this state."""
        if not pending and points >= self.need and hand:
            return True
        key = (hand, tuple(sorted(table)), pending, min(points, self.need), layout)
        known = self.memo.get(key)
        if known is not None:
            return known
        self.memo[key] = False
        if len(self.memo) > self.budget:
            raise SearchTooBigError(f"more than {self.budget} states")
        ok = self._search(hand, table, pending, points, layout)
        self.memo[key] = ok
        return ok

    def _search(self, hand: tuple[Item, ...], table: tuple[TableMeld, ...], pending: bool,
                points: int, layout: bool) -> bool:
        if pending and (self.card, "T") not in hand and not any(
                slot_status(x) == "T" for m in table for x in m[3]):
            return False
        bound = sum(10 if c == "X" else value(c[0]) for c, _ in hand)
        if points + bound + 10 * _table_jokers(table) < self.need:
            return False
        return any(self.complete(*after) for _, after in
                   self.steps(hand, table, pending, points, layout))

    def steps(self, hand: tuple[Item, ...], table: tuple[TableMeld, ...], pending: bool,
              points: int, layout: bool
              ) -> Iterator[tuple[str, tuple[tuple[Item, ...], tuple[TableMeld, ...], bool,
                                             int, bool]]]:
        """Every step from a state: (its action text, the state after it)."""
        jokers = sorted((st for c, st in hand if c == "X"), key=WORTH.__getitem__)
        for used, placed, meld_points in self.melds(hand):
            if len(used) >= len(hand):
                continue
            rest = _minus(hand, used)
            third = pending and (self.card, "T") in used and sum(
                1 for _, st in used if st == "O") >= 2
            laid = sorted((st for c, st in used if c == "X"), key=WORTH.__getitem__)
            if pending and not third:
                if laid != jokers[:len(laid)]:
                    continue  # the player lays the jokers that serve least
                placed = _mark_meld(placed, laid)
            after_table = (*table, placed) if pending and not third else unmarked(
                (*table, placed))
            yield "meld " + meld_text(placed), (rest, after_table, pending and not third,
                                                points + meld_points, True)
        if len(hand) >= 2:
            for text, item, new_table in self.layoffs(hand, table):
                if item[0] == "X" and pending:
                    if item[1] != jokers[0]:
                        continue
                    new_table = _mark_layoff(table, new_table, item[1])
                yield text, (_minus(hand, (item,)), new_table, pending, points, layout)
        if layout:
            for text, item, new_table, status in self.swaps(hand, table):
                after = tuple(sorted((*_minus(hand, (item,)), ("X", status))))
                yield text, (after, new_table, pending, points, layout)

    def witness(self, hand: tuple[Item, ...], table: tuple[TableMeld, ...]) -> list[str]:
        """Action texts completing the turn from a completable state after the take, up to
        (not including) the discard."""
        state = (hand, table, True, 0, self.layout)
        out = []
        while state[2] or state[3] < self.need:
            text, state = next((t, a) for t, a in self.steps(*state) if self.complete(*a))
            out.append(text)
        return out

    # ----------------------------------------------------------------- melds

    def _held(self, hand: Sequence[Item], card: str) -> bool:
        return any(c == card for c, _ in hand)

    def melds(self, hand: tuple[Item, ...]
              ) -> Iterator[tuple[tuple[Item, ...], TableMeld, int]]:
        """Every meld the hand can lay now: (the hand's items used, the meld, its points)."""
        by_card: dict[str, set[str]] = {}
        for c, st in hand:
            by_card.setdefault(c, set()).add(st)
        joker_states = sorted(st for c, st in hand if c == "X")
        yield from self._sets(hand, by_card, joker_states)
        yield from self._sequences(hand, by_card, joker_states)

    def _joker_choices(self, joker_states: list[str], n: int) -> set[tuple[str, ...]]:
        return set(combinations(joker_states, n))

    def _sets(self, hand: tuple[Item, ...], by_card: dict[str, set[str]],
              joker_states: list[str]) -> Iterator[tuple[tuple[Item, ...], TableMeld, int]]:
        for rank in RANKS:
            suits = [s for s in SUITS if rank + s in by_card]
            for k in range(2, len(suits) + 1):
                for chosen in combinations(suits, k):
                    for j in range(len(joker_states) + 1):
                        n = k + j
                        if n not in (3, 4) or 2 * j > n:
                            continue
                        free = [s for s in SUITS if s not in chosen]
                        for kinds in _declarations(free, j):
                            if not self.joker_for_held and any(
                                    d != "?" and self._held(hand, rank + d) for d in kinds):
                                continue
                            slots = tuple(sorted([*chosen, *("X" + d for d in kinds)]))
                            for states in product(*(sorted(by_card[rank + s]) for s in chosen)):
                                for jstates in self._joker_choices(joker_states, j):
                                    used = tuple(sorted(
                                        [(rank + s, st) for s, st in zip(chosen, states,
                                                                         strict=True)]
                                        + [("X", st) for st in jstates]))
                                    yield used, ("s", rank, 0, slots), n * value(rank)

    def _sequences(self, hand: tuple[Item, ...], by_card: dict[str, set[str]],
                   joker_states: list[str]
                   ) -> Iterator[tuple[tuple[Item, ...], TableMeld, int]]:
        jokers = len(joker_states)
        for suit in SUITS:
            if sum(1 for r in RANKS if r + suit in by_card) < 2:
                continue
            for start in range(13):
                for length in range(3, 14):
                    cards = [_seq_card(suit, start, i) for i in range(length)]
                    options = []
                    for c in cards:
                        here = []
                        if c in by_card:
                            here.append("R")
                        if jokers and (self.joker_for_held or c not in by_card):
                            here.append("J")
                        options.append(here)
                    if not all(options):
                        break
                    for pattern in product(*options):
                        j = pattern.count("J")
                        if j > jokers or 2 * j > length:
                            continue
                        reals = [c for c, p in zip(cards, pattern, strict=True) if p == "R"]
                        points = sum(value(c[0]) for c in cards)
                        for states in product(*(sorted(by_card[c]) for c in reals)):
                            for jstates in self._joker_choices(joker_states, j):
                                used = tuple(sorted(
                                    [(c, st) for c, st in zip(reals, states, strict=True)]
                                    + [("X", st) for st in jstates]))
                                yield used, ("q", suit, start, tuple(pattern)), points

    # ----------------------------------------------------------------- lay-offs, swaps

    def layoffs(self, hand: tuple[Item, ...], table: tuple[TableMeld, ...]
                ) -> Iterator[tuple[str, Item, tuple[TableMeld, ...]]]:
        """Every lay-off: (its action text, the item laid off, the table after it)."""
        for i, meld in enumerate(table):
            kind, key, start, slots = meld
            n = len(slots)
            joker_ok = (sum(1 for s in slots if s[0] in "XJ") + 1) * 2 <= n + 1
            options: list[tuple[str, str, TableMeld]] = []
            if kind == "s":
                if n >= 4:
                    continue
                present = {bare(s)[-1] for s in slots if bare(s) != "X?"}
                for suit in SUITS:
                    if suit not in present:
                        options.append((key + suit, key + suit,
                                        ("s", key, 0, tuple(sorted((*slots, suit))))))
                        if joker_ok and (self.joker_for_held or not self._held(hand, key + suit)):
                            options.append(("X", "X=" + key + suit,
                                            ("s", key, 0, tuple(sorted((*slots, "X" + suit))))))
                if joker_ok:
                    options.append(("X", "X", ("s", key, 0, tuple(sorted((*slots, "X?"))))))
            else:
                if n >= 13:
                    continue
                left = _seq_card(key, start - 1, 0)
                right = _seq_card(key, start, n)
                options.append((left, left, ("q", key, (start - 1) % 13, ("R", *slots))))
                options.append((right, right, ("q", key, start, (*slots, "R"))))
                if joker_ok:
                    if self.joker_for_held or not self._held(hand, left):
                        options.append(("X", "X=" + left,
                                        ("q", key, (start - 1) % 13, ("J", *slots))))
                    if self.joker_for_held or not self._held(hand, right):
                        options.append(("X", "X=" + right, ("q", key, start, (*slots, "J"))))
            for card, text, new in options:
                for st in sorted({st for c, st in hand if c == card}):
                    yield f"layoff {text} {i}", (card, st), (*table[:i], new, *table[i + 1:])

    def swaps(self, hand: tuple[Item, ...], table: tuple[TableMeld, ...]
              ) -> Iterator[tuple[str, Item, tuple[TableMeld, ...], str]]:
        """Every swap: (its action text, the item given for the joker, the table after, the
        status of the joker won)."""
        for text, given, new_table, status in marked_swaps(table, [c for c, _ in hand]):
            for st in sorted({st for c, st in hand if c == given}):
                yield text, (given, st), new_table, status


def _mark_meld(meld: TableMeld, laid: list[str]) -> TableMeld:
    """The meld laid with its jokers marked by status, in the order of its slots (a set's
    jokers after its real cards), the least serving first."""
    kind, key, start, slots = meld
    statuses = iter(laid)
    if kind == "s":
        reals = [x for x in slots if x[0] != "X"]
        jokers = [_marked(x, next(statuses)) for x in slots if x[0] == "X"]
        return (kind, key, start, tuple(sorted([*reals, *jokers])))
    return (kind, key, start, tuple(_marked(x, next(statuses)) if x == "J" else x
                                    for x in slots))


def _mark_layoff(table: tuple[TableMeld, ...], new_table: tuple[TableMeld, ...],
                 status: str) -> tuple[TableMeld, ...]:
    """``new_table`` (``table`` with one joker laid off) with that joker marked."""
    if status not in ("O", "T"):
        return new_table
    for i, (old, new) in enumerate(zip(table, new_table, strict=True)):
        if old == new:
            continue
        kind, key, start, slots = new
        if kind == "q":
            at = 0 if start != old[2] else len(slots) - 1
            slots = (*slots[:at], slots[at] + status, *slots[at + 1:])
        else:
            left = list(old[3])
            for j, x in enumerate(slots):
                if x in left:
                    left.remove(x)
                elif x[0] == "X":
                    slots = tuple(sorted((*slots[:j], x + status, *slots[j + 1:])))
                    break
        return (*new_table[:i], (kind, key, start, slots), *new_table[i + 1:])
    raise AssertionError("no meld changed")


def marked_swaps(table: tuple[TableMeld, ...], cards: Sequence[str]
                 ) -> Iterator[tuple[str, str, tuple[TableMeld, ...], str]]:
    """:func:`table_swaps` with the status of the joker won: what this turn laid it as
    (``O`` or ``T``), else ``N``."""
    yield from _swaps(table, cards)


def table_swaps(table: tuple[TableMeld, ...], cards: Sequence[str]
                ) -> Iterator[tuple[str, str, tuple[TableMeld, ...]]]:
    """Every swap of a table joker for one of ``cards``: (its action text, the card given,
    the table after)."""
    for text, given, new_table, _ in _swaps(table, cards):
        yield text, given, new_table


def _swaps(table: tuple[TableMeld, ...], cards: Sequence[str]
           ) -> Iterator[tuple[str, str, tuple[TableMeld, ...], str]]:
    held = set(cards)
    for i, meld in enumerate(table):
        kind, key, start, slots = meld
        if kind == "s":
            present = {bare(s)[-1] for s in slots if bare(s) != "X?"}
            for j, s in enumerate(slots):
                if s[0] != "X":
                    continue
                suits = [s[1]] if bare(s) != "X?" else [t for t in SUITS if t not in present]
                for suit in suits:
                    if key + suit in held:
                        new = ("s", key, 0, tuple(sorted((*slots[:j], suit, *slots[j + 1:]))))
                        yield (f"swap {i} {key + suit}", key + suit,
                               (*table[:i], new, *table[i + 1:]), slot_status(s))
        else:
            for j, s in enumerate(slots):
                card = _seq_card(key, start, j)
                if s[0] == "J" and card in held:
                    new = ("q", key, start, (*slots[:j], "R", *slots[j + 1:]))
                    yield (f"swap {i} {card}", card, (*table[:i], new, *table[i + 1:]),
                           slot_status(s))


def _declarations(free: list[str], j: int) -> Iterator[tuple[str, ...]]:
    """The suits ``j`` set jokers may stand for: each open (``?``) or a distinct free suit."""
    seen: set[tuple[str, ...]] = set()
    for kinds in product(["?", *free], repeat=j):
        declared = [d for d in kinds if d != "?"]
        if len(set(declared)) == len(declared):
            key = tuple(sorted(kinds))
            if key not in seen:
                seen.add(key)
                yield key


def _minus(hand: tuple[Item, ...], used: Sequence[Item]) -> tuple[Item, ...]:
    left = Counter(hand)
    left.subtract(used)
    assert min(left.values(), default=0) >= 0
    return tuple(sorted(left.elements()))


def meld_text(meld: TableMeld) -> str:
    """A meld as action text: a set's jokers ``X`` (open) or ``X=Kh``, a sequence's
    ``X=7c``, in order."""
    kind, key, start, slots = unmarked((meld,))[0]
    if kind == "s":
        return " ".join(key + s if s[0] != "X" else "X" if s == "X?" else f"X={key}{s[1]}"
                        for s in slots)
    return " ".join(_seq_card(key, start, i) if s == "R" else "X=" + _seq_card(key, start, i)
                    for i, s in enumerate(slots))


def take_witnesses(hand: Sequence[str], bank: Sequence[str], melds: Sequence[Sequence[str]],
                   layout: bool, *, joker_for_held: bool = True,
                   swap_before_take: bool = False, opening_minimum: int = 50,
                   budget: int = 10**9) -> dict[int, list[str]]:
    """For every bank position (0 = oldest) the player may take the bank from at the start
    of a turn, the action texts of one way to complete the turn (swaps before the take, the
    take, the steps after it; the final discard left out)."""
    cards = tuple(sorted(("X", "O") if c == "X" else (card_of(c), "O") for c in hand))
    table = tuple(parse_table_meld(m) for m in melds)
    starts: dict[tuple[tuple[Item, ...], tuple[TableMeld, ...]], list[str]] = {
        (cards, table): []}
    if swap_before_take and layout:
        frontier = [(cards, table)]
        while frontier:
            h, t = frontier.pop()
            for text, given, new_table in table_swaps(t, [c for c, _ in h]):
                after = tuple(sorted((*_minus(h, ((given, "O"),)), ("X", "O"))))
                if (after, new_table) not in starts:
                    starts[(after, new_table)] = [*starts[(h, t)], text]
                    frontier.append((after, new_table))
    need = 0 if layout else opening_minimum
    out: dict[int, list[str]] = {}
    for i in range(len(bank)):
        taken = ["X" if c == "X" else card_of(c) for c in bank[i:]]
        turn = _Turn(taken[0], need, joker_for_held, layout, budget)
        for (h, t), before in starts.items():
            after = tuple(sorted((*h, (taken[0], "T"), *((c, "N") for c in taken[1:]))))
            if turn.complete(after, t, True, 0, layout):
                out[i] = [*before, f"take {i}", *turn.witness(after, t)]
                break
    return out


def legal_takes(hand: Sequence[str], bank: Sequence[str], melds: Sequence[Sequence[str]],
                layout: bool, *, joker_for_held: bool = True, swap_before_take: bool = False,
                opening_minimum: int = 50) -> list[int]:
    """The bank positions (0 = oldest) the player may take the bank from at the start of a
    turn: those for which some legal sequence of steps completes the turn."""
    return sorted(take_witnesses(hand, bank, melds, layout, joker_for_held=joker_for_held,
                                 swap_before_take=swap_before_take,
                                 opening_minimum=opening_minimum))
