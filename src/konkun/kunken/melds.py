"""Kunken melds (RULES.md, Кункен: Melds): validation, joker readings, lay-offs and swaps.

Cards are handled as dense integers for speed: ``0..51`` is :attr:`konkun.cards.Card.index`
(``suit * 13 + position``, position ``0`` = 2 ... ``12`` = Ace), ``52`` is a joker.
A *slot* is one card of a meld:

- ``0..51``: that real card;
- ``53 + k`` (:func:`joker_for`): a joker standing for card ``k`` (sequences; also input
  ``X=7d`` for sets);
- ``105 + p`` (:func:`open_joker`): a joker in a set of rank position ``p`` whose suit is
  open (the source: "масть этой карты при необходимости определяется заменяющим");
- ``52`` (:data:`BARE_JOKER`): an undeclared joker, only in input before it is read.

The circular rank order is A 2 3 ... Q K A: position ``p`` follows ``p - 1`` modulo 13,
so Q-K-A, K-A-2 and A-2-3 are sequences.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final, cast

from konkun.cards import Card, parse_cards
from konkun.errors import InvalidCardError, InvalidNotationError

BARE_JOKER: Final = 52
JOKER_FOR: Final = 53
OPEN_JOKER: Final = 105
SET: Final = "set"
SEQUENCE: Final = "sequence"
SUIT_LETTERS: Final = "cdhs"

VALUE: Final[tuple[int, ...]] = tuple(10 if i == 52 or i % 13 >= 9 else 5 for i in range(53))
"""Points of each card index: A K Q J = 10, T..2 = 5; the joker (in hand) 10."""
POSITION_VALUE: Final[tuple[int, ...]] = tuple(10 if p >= 9 else 5 for p in range(13))


def joker_for(card: int) -> int:
    """The slot of a joker standing for ``card`` (0..51)."""
    return JOKER_FOR + card


def open_joker(position: int) -> int:
    """The slot of an open-suit joker in a set of rank ``position`` (0..12)."""
    return OPEN_JOKER + position


def slot_card(slot: int) -> int:
    """The hand card a slot takes from a hand: the real card, or 52 for any joker."""
    return slot if slot < BARE_JOKER else BARE_JOKER


def slot_value(slot: int) -> int:
    """Points of a slot on the table: a joker is worth the card it stands for."""
    if slot < BARE_JOKER:
        return VALUE[slot]
    if slot >= OPEN_JOKER:
        return POSITION_VALUE[slot - OPEN_JOKER]
    if slot >= JOKER_FOR:
        return VALUE[slot - JOKER_FOR]
    return 10


def slot_text(slot: int) -> str:
    """The text of a slot: ``7d``, ``X=7d`` (declared joker) or ``X`` (open or bare)."""
    if slot < BARE_JOKER:
        return Card.from_index(slot).text
    if JOKER_FOR <= slot < OPEN_JOKER:
        return "X=" + Card.from_index(slot - JOKER_FOR).text
    return "X"


def card_text(card: int) -> str:
    """The text of a card index (``X`` for 52)."""
    return Card.from_index(card).text


def parse_slot(text: str) -> int:
    """A slot from its text: a card, ``X`` (bare joker) or ``X=7d`` (declared joker)."""
    word = text.strip()
    head, sep, tail = word.partition("=")
    if sep:
        if head.strip().upper() != "X":
            raise InvalidCardError(f"invalid card {text!r}: only a joker X may be declared")
        try:
            card = Card.parse(tail)
        except InvalidCardError:
            raise InvalidCardError(f"invalid card {text!r}: X= must name the card the joker "
                                   "stands for (X=7d)") from None
        if card.is_joker:
            raise InvalidCardError(f"invalid card {text!r}: a joker stands for a card, not X")
        return joker_for(card.index)
    if word.upper() == "X":
        return BARE_JOKER
    return Card.parse(word).index


def parse_slots(words: Iterable[str]) -> list[int]:
    """Slots from card words; a word may hold several cards written together (``5h6h``)."""
    slots: list[int] = []
    for word in words:
        for piece in word.replace(",", " ").split():
            if "=" in piece:
                slots.append(parse_slot(piece))
            else:
                slots.extend(c.index for c in parse_cards(piece))
    return slots


@dataclass(frozen=True)
class MeldCheck:
    """The verdict on a list of cards as a meld.

    ``slots`` is the meld in its canonical order (a sequence from its first card round the
    circle; a set by suit with open jokers last) with every joker read; ``readings`` counts
    the valid readings of the undeclared jokers (more than one: the player must declare).
    """

    valid: bool
    kind: str | None
    points: int | None
    reason: str | None
    slots: tuple[int, ...] = ()
    readings: int = 0
    alternatives: tuple[tuple[int, ...], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """``{"valid", "kind", "points", "reason"}`` (CONTRACT.md, ``kunken meld``)."""
        return {"valid": self.valid, "kind": self.kind, "points": self.points,
                "reason": self.reason}


def _invalid(reason: str) -> MeldCheck:
    return MeldCheck(False, None, None, reason)


def check_meld(slots: Sequence[int], *, open_set_jokers: bool = True) -> MeldCheck:
    """Whether ``slots`` form a meld (RULES.md, Melds), its kind, points and reading.

    Undeclared jokers are read in the way that makes the meld valid and, among those, is
    worth the most (ties: the reading that starts earliest after the real cards' run, i.e.
    jokers go after the real cards). With ``open_set_jokers`` a set's jokers are returned
    open-suit unless a declaration chooses between suits (RULES.md: a set joker's suit may
    be declared or stay open): the one joker of a set of three keeps its declared suit;
    in a set of four the jokers' suits are forced, so they are open.
    """
    n = len(slots)
    reals = [s for s in slots if s < BARE_JOKER]
    jokers = [s for s in slots if s >= BARE_JOKER]
    if n < 3:
        return _invalid(f"a meld needs at least 3 cards, got {n}")
    if len(jokers) * 2 > n:
        return _invalid(f"too many jokers: {len(jokers)} of {n} cards, at most half may be "
                        "jokers")
    declared = [s - JOKER_FOR for s in jokers if JOKER_FOR <= s < OPEN_JOKER]
    seen: set[int] = set()
    for card in reals + declared:
        if card in seen:
            return _invalid(f"two identical cards {card_text(card)} in one meld")
        seen.add(card)
    ranks = {c % 13 for c in reals}
    suits = {c // 13 for c in reals}
    if len(ranks) == 1:
        return _check_set(slots, reals, jokers, declared, open_set_jokers)
    if len(suits) == 1:
        return _check_sequence(reals, jokers, declared)
    return _invalid("neither a set (cards of one rank) nor a sequence (cards of one suit): "
                    + " ".join(card_text(c) for c in reals))


def _check_set(slots: Sequence[int], reals: list[int], jokers: list[int],
               declared: list[int], open_set: bool) -> MeldCheck:
    n = len(slots)
    rank = reals[0] % 13
    if n > 4:
        return _invalid(f"a set has at most 4 cards (one per suit), got {n}")
    for card in declared:
        if card % 13 != rank:
            return _invalid(f"a joker declared as {card_text(card)} does not fit a set of "
                            f"{card_text(reals[0])[0]}")
    for j in jokers:
        if j >= OPEN_JOKER and j - OPEN_JOKER != rank:
            return _invalid("an open joker of another rank in this set")
    suits = [c // 13 for c in reals + declared]
    if len(set(suits)) != len(suits):
        return _invalid("two cards of the same suit in a set")
    if open_set and not (n == 3 and len(declared) == 1):
        out = sorted(reals) + [open_joker(rank)] * len(jokers)
    else:
        out = sorted(reals + [joker_for(c) for c in declared]) + [
            open_joker(rank)] * (len(jokers) - len(declared))
    return MeldCheck(True, SET, n * POSITION_VALUE[rank], None, tuple(out), 1)


def sequence_readings(reals: Sequence[int], n_bare: int,
                      declared: Sequence[int]) -> list[tuple[int, ...]]:
    """Every reading of a sequence: canonical slot tuples, in the order of their start."""
    n = len(reals) + n_bare + len(declared)
    if not reals:
        return []
    suit = reals[0] // 13
    base = suit * 13
    real_pos = {c % 13 for c in reals}
    decl_pos = {c % 13 for c in declared}
    if any(c // 13 != suit for c in declared) or n > 13:
        return []
    starts = [0] if n == 13 else list(range(13))
    out: list[tuple[int, ...]] = []
    for start in starts:
        window = [(start + i) % 13 for i in range(n)]
        wset = set(window)
        if not real_pos <= wset or not decl_pos <= wset:
            continue
        row = []
        for p in window:
            if p in real_pos:
                row.append(base + p)
            else:
                row.append(joker_for(base + p))
        out.append(tuple(row))
    return out


def _check_sequence(reals: list[int], jokers: list[int], declared: list[int]) -> MeldCheck:
    n = len(reals) + len(jokers)
    if any(j >= OPEN_JOKER for j in jokers):
        return _invalid("an open-suit joker belongs in a set, not a sequence")
    if n > 13:
        return _invalid(f"a sequence has at most 13 cards, got {n}")
    suit = reals[0] // 13
    for card in declared:
        if card // 13 != suit:
            return _invalid(f"a joker declared as {card_text(card)} is not of the sequence's "
                            f"suit {SUIT_LETTERS[suit]}")
    n_bare = len(jokers) - len(declared)
    readings = sequence_readings(reals, n_bare, declared)
    if not readings:
        return _invalid(_gap_reason(reals, declared, n))
    first = min(c % 13 for c in reals)
    best = max(readings, key=lambda r: (sum(slot_value(s) for s in r),
                                        -_start_distance(r, reals, first)))
    points = sum(slot_value(s) for s in best)
    return MeldCheck(True, SEQUENCE, points, None, best, len(readings), tuple(readings))


def _start_distance(reading: tuple[int, ...], reals: list[int], first: int) -> int:
    start = reading[0] % 13 if reading[0] < BARE_JOKER else (reading[0] - JOKER_FOR) % 13
    # prefer readings that begin at a real card (jokers after the run)
    return 0 if reading[0] < BARE_JOKER else 1 + (first - start) % 13


def _gap_reason(reals: list[int], declared: list[int], n: int) -> str:
    cards = " ".join(card_text(c) for c in sorted(reals + declared))
    return (f"the cards {cards} are not consecutive: {n} cards cannot cover them in the "
            "circular order A 2 ... K A")


def meld_value(slots: Iterable[int]) -> int:
    """Points of a meld's slots."""
    return sum(slot_value(s) for s in slots)


def meld_kind(slots: Sequence[int]) -> str:
    """``set`` or ``sequence`` for a canonical valid meld."""
    reals = [s for s in slots if s < BARE_JOKER]
    return SET if reals[0] % 13 == reals[1] % 13 else SEQUENCE


Compact = tuple[int, int, int, int, int]
"""A meld as the exact take check sees it (:func:`compact`)."""


def compact(slots: Sequence[int], kind: str | None = None) -> Compact:
    """The compact form of a meld's slots (a canonical meld or a table meld's slots), as
    the exact take check reads the table (:mod:`konkun.kunken.completion`): a sequence
    ``(0, suit, start, length, joker positions mask)``, a set ``(1, rank position, real
    suits mask, declared joker suits mask, open jokers)``."""
    kind = kind or meld_kind(slots)
    if kind == SEQUENCE:
        first = slots[0] if slots[0] < 52 else slots[0] - JOKER_FOR
        suit, start = divmod(first, 13)
        jmask = 0
        for i, x in enumerate(slots):
            if x >= 52:
                jmask |= 1 << (start + i) % 13
        return (0, suit, start, len(slots), jmask)
    real = decl = n_open = 0
    rank = -1
    for x in slots:
        if x < 52:
            real |= 1 << x // 13
            rank = x % 13
        elif x < OPEN_JOKER:
            decl |= 1 << (x - JOKER_FOR) // 13
            rank = (x - JOKER_FOR) % 13
        else:
            n_open += 1
            rank = x - OPEN_JOKER
    return (1, rank, real, decl, n_open)


class TableMeld:
    """A meld on the table: its owner, its kind and its slots, each with who laid it.

    Sequences keep their slots in circular order from ``start``; sets keep real cards by
    suit, then jokers. A lay-off or a swap changes the meld in place.
    """

    __slots__ = ("_compact", "_options", "jokers", "kind", "laid_by", "owner", "slots",
                 "suit_or_rank")

    def __init__(self, owner: int, slots: Sequence[int], laid_by: Sequence[int] | None = None,
                 kind: str | None = None, suit_or_rank: int = -1, jokers: int = -1) -> None:
        """``kind``, ``suit_or_rank`` and ``jokers`` are worked out from ``slots`` unless
        given (a copy gives them)."""
        self.owner = owner
        self.slots = list(slots)
        self.laid_by = list(laid_by) if laid_by is not None else [owner] * len(self.slots)
        self.kind = kind or meld_kind(self.slots)
        if suit_or_rank < 0:
            reals = [s for s in self.slots if s < BARE_JOKER]
            suit_or_rank = reals[0] // 13 if self.kind == SEQUENCE else reals[0] % 13
        self.suit_or_rank = suit_or_rank
        self.jokers = jokers if jokers >= 0 else sum(1 for s in self.slots if s >= BARE_JOKER)
        self._options: list[tuple[int, int]] | None = None
        # Boxed (a variable-length tuple): compiled code would keep a Compact as five
        # unboxed ints and build a new tuple each time it hands one to Python or C.
        self._compact: tuple[int, ...] | None = None

    def copy(self) -> TableMeld:
        """An independent copy (sharing the caches, which a change replaces)."""
        # Built through __init__ (not __new__), so the compiled engine can copy it too.
        m = TableMeld(self.owner, self.slots, self.laid_by, self.kind, self.suit_or_rank,
                      self.jokers)
        m._options = self._options
        m._compact = self._compact
        return m

    def __reduce__(self) -> tuple[type[TableMeld], tuple[int, list[int], list[int], str]]:
        # Pickled by its constructor's arguments, which the compiled engine needs too.
        return (TableMeld, (self.owner, self.slots, self.laid_by, self.kind))

    def stands_for(self, index: int) -> int:
        """The card a slot stands for (-1: an open-suit joker)."""
        slot = self.slots[index]
        if slot < BARE_JOKER:
            return slot
        if slot < OPEN_JOKER:
            return slot - JOKER_FOR
        return -1

    def ends(self) -> tuple[int, int]:
        """For a sequence: the cards just before its first and after its last slot."""
        base = self.suit_or_rank * 13
        first = self.stands_for(0) % 13
        last = self.stands_for(len(self.slots) - 1) % 13
        return base + (first - 1) % 13, base + (last + 1) % 13

    def set_suits(self) -> set[int]:
        """For a set: the suits of its real cards and declared jokers."""
        return {self.stands_for(i) // 13 for i, s in enumerate(self.slots)
                if s < OPEN_JOKER}

    def layoff_slots(self, card: int) -> list[int]:
        """The slots ``card`` (0..52) can be laid off as onto this meld (empty: none)."""
        n = len(self.slots)
        if card == BARE_JOKER:
            if (self.jokers + 1) * 2 > n + 1:
                return []
            if self.kind == SET:
                return [open_joker(self.suit_or_rank)] if n < 4 else []
            if n >= 13:
                return []
            left, right = self.ends()
            return [joker_for(left)] if left == right else [joker_for(left), joker_for(right)]
        if self.kind == SET:
            if n >= 4 or card % 13 != self.suit_or_rank or card // 13 in self.set_suits():
                return []
            return [card]
        if n >= 13 or card // 13 != self.suit_or_rank:
            return []
        return [card] if card in self.ends() else []

    def compact(self) -> Compact:
        """The meld's :func:`compact` form (cached until the meld changes)."""
        return cast(Compact, self.compact_object())

    def compact_object(self) -> tuple[int, ...]:
        """:meth:`compact` as the one cached tuple object, for tables: compiled code holds
        a :data:`Compact` as five unboxed ints, so a table built from :meth:`compact` would
        build a new tuple for every meld at every call."""
        boxed = self._compact
        if boxed is None:
            boxed = self._compact = compact(self.slots, self.kind)
        return boxed

    def layoff_options(self) -> list[tuple[int, int]]:
        """Every (hand card, slot) that can be laid off onto this meld (card 52: a joker);
        do not modify the list (it is cached until the meld changes)."""
        if self._options is None:
            self._options = self._layoff_options()
        return self._options

    def _layoff_options(self) -> list[tuple[int, int]]:
        n = len(self.slots)
        joker_ok = (self.jokers + 1) * 2 <= n + 1
        out: list[tuple[int, int]] = []
        if self.kind == SET:
            if n >= 4:
                return out
            rank = self.suit_or_rank
            suits = self.set_suits()
            for s in range(4):
                if s not in suits:
                    out.append((s * 13 + rank, s * 13 + rank))
            if joker_ok:
                out.append((BARE_JOKER, open_joker(rank)))
            return out
        if n >= 13:
            return out
        left, right = self.ends()
        out.append((left, left))
        if right != left:
            out.append((right, right))
        if joker_ok:
            out.append((BARE_JOKER, joker_for(left)))
            if right != left:
                out.append((BARE_JOKER, joker_for(right)))
        return out

    def lay_off(self, slot: int, seat: int) -> None:
        """Add ``slot`` (a valid lay-off) laid by ``seat``."""
        self._options = None
        self._compact = None
        if self.kind == SET:
            if slot < BARE_JOKER:
                pos = sum(1 for s in self.slots if s < BARE_JOKER and s < slot)
            else:
                pos = len(self.slots)
            self.slots.insert(pos, slot)
            self.laid_by.insert(pos, seat)
        else:
            card = slot if slot < BARE_JOKER else slot - JOKER_FOR
            left, _ = self.ends()
            if card == left and len(self.slots) + 1 < 13:
                self.slots.insert(0, slot)
                self.laid_by.insert(0, seat)
            else:
                self.slots.append(slot)
                self.laid_by.append(seat)
        if slot >= BARE_JOKER:
            self.jokers += 1

    def swap_index(self, card: int) -> int:
        """The index of the joker ``card`` (0..51) can replace, or -1."""
        target = joker_for(card)
        if self.kind == SET:
            if card % 13 != self.suit_or_rank:
                return -1
            if target in self.slots:
                return self.slots.index(target)
            if card // 13 in self.set_suits():
                return -1
            for i, s in enumerate(self.slots):
                if s >= OPEN_JOKER:
                    return i
            return -1
        for i, s in enumerate(self.slots):
            if s == target:
                return i
        return -1

    def swap(self, card: int) -> None:
        """Replace the joker ``card`` stands for with ``card`` (a valid swap)."""
        i = self.swap_index(card)
        self._options = None
        self._compact = None
        if self.kind == SET:
            by = self.laid_by.pop(i)
            self.slots.pop(i)
            pos = sum(1 for s in self.slots if s < BARE_JOKER and s < card)
            self.slots.insert(pos, card)
            self.laid_by.insert(pos, by)
        else:
            self.slots[i] = card
        self.jokers -= 1

    def value(self) -> int:
        """Points of the whole meld."""
        return meld_value(self.slots)

    def text(self) -> str:
        """The meld's cards as text, jokers as ``X=7d`` or ``X``."""
        return " ".join(slot_text(s) for s in self.slots)

    def to_json(self) -> dict[str, Any]:
        """The meld as JSON data (see docs/kunken.md)."""
        return {
            "owner": self.owner,
            "kind": self.kind,
            "cards": [slot_text(s) for s in self.slots],
            "stands_for": [None if s < BARE_JOKER or s >= OPEN_JOKER
                           else card_text(s - JOKER_FOR) for s in self.slots],
            "laid_by": self.laid_by.copy(),
            "points": self.value(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableMeld:
        """A meld from :meth:`to_json` data."""
        try:
            slots = parse_slots(data["cards"])
            owner = int(data["owner"])
            laid_by = [int(x) for x in data["laid_by"]]
        except (KeyError, TypeError, ValueError) as error:
            raise InvalidNotationError(f"invalid meld JSON {data!r}: {error}") from None
        check = check_meld(slots)
        if not check.valid or len(laid_by) != len(slots):
            raise InvalidNotationError(f"invalid meld JSON {data!r}: {check.reason}")
        fixed = [open_joker(check.slots[0] % 13) if s == BARE_JOKER else s for s in slots]
        if check.kind == SEQUENCE and BARE_JOKER in slots:
            fixed = list(check.slots)
        return cls(owner, fixed, laid_by, check.kind)
