"""KKN, the Kunken position notation: one line that holds a whole
:class:`~konkun.kunken.position.KunkenPosition` (docs/kunken.md, "KKN").

Thirteen fields separated by single spaces::

    kunken RULES DEALER TURN HANDS STOCK BANK MELDS TAKEN LAYOUT RENEWALS TAKE RESULT

1. ``kunken``;
2. the rule options that differ from the defaults, ``NAME=VALUE`` joined by ``,``, or ``-``;
3. the dealer's seat;
4. the turn: ``SEAT:PHASE`` (``start``, ``drawn`` or ``taken``), or ``over``;
5. the hands, one card list per seat, seat 0 first, joined by ``/``;
6. the stock, the next card to draw first;
7. the bank, the oldest card first (``take 0`` takes it all);
8. the melds in the order laid, joined by ``,``, each ``OWNER:SLOTS``: its slots written
   together in the meld's order (``X=7d`` a joker standing for 7d, ``X`` a set's open-suit
   joker), each followed by ``@SEAT`` when a seat other than the owner laid it off; or ``-``;
9. per seat, the cards taken from the bank and still held (public), joined by ``/``;
10. per seat, ``1`` when it has a layout, else ``0`` (``10``: seat 0 has one);
11. the stock renewals used;
12. in phase ``taken``, ``CARD:NEED:FLAGS:NEW``: the taken card, the opening points still
    needed (0 or less: none), ``p`` (the taken card still to be melded) and ``o`` (an
    opening) or ``-``, and the cards not held before the take; followed by ``:MARKS``
    when this turn laid jokers it may win back as what they were (``MARKS``: the joker
    marks joined by ``,``, each ``o`` (held before the take) or ``t`` (the taken joker),
    the meld's number, ``.`` and the card it stands for in a sequence or ``X`` for a
    set's joker: ``t0.Ts``); else ``-``;
13. the result: ``-`` (not over, or over with no winner), the winner's seat, followed by
    ``x`` for an express win.

A card list is card texts written together (``As7h2cX``), or ``-`` when empty; multisets
(hands, taken cards, the new cards) are written in the order rank high to low, then suit
``c d h s``, jokers last, and read in any order.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from konkun.cards import Card, parse_cards
from konkun.errors import InvalidCardError, InvalidNotationError, InvalidPositionError, KonkunError
from konkun.kunken.deal_fields import (
    MARK_TAKEN,
    SET_JOKER,
    joker_mark,
    mark_key,
    mark_meld,
)
from konkun.kunken.melds import (
    BARE_JOKER,
    JOKER_FOR,
    SEQUENCE,
    SET,
    check_meld,
    joker_for,
    meld_kind,
    open_joker,
    slot_card,
    slot_text,
)
from konkun.kunken.position import KunkenPosition, MeldPosition, Phase, TakeTurn
from konkun.kunken.rules import MAX_SEATS, MIN_SEATS, OPTIONS, KunkenRules

FIELDS = ("kunken", "rules", "dealer", "turn", "hands", "stock", "bank", "melds", "taken",
          "layout", "renewals", "take", "result")
"""The names of the thirteen fields, in order (error messages name them)."""


# ---------------------------------------------------------------------------- writing


def _card_key(card: int) -> int:
    """Rank high to low, then suit c d h s; the joker last."""
    return 99 if card == BARE_JOKER else (12 - card % 13) * 4 + card // 13


def _cards_text(cards: tuple[int, ...], *, sort: bool) -> str:
    if not cards:
        return "-"
    ordered = sorted(cards, key=_card_key) if sort else cards
    return "".join(Card.from_index(c).text for c in ordered)


def _rules_text(rules: KunkenRules) -> str:
    values = rules.to_json()
    changed = []
    for option in OPTIONS:
        value = values[option.name]
        if value != option.default:
            text = str(value).lower() if isinstance(value, bool) else str(value)
            changed.append(f"{option.name}={text}")
    return ",".join(changed) or "-"


def _meld_text(meld: MeldPosition) -> str:
    pieces = [slot_text(s) + ("" if by == meld.owner else f"@{by}")
              for s, by in zip(meld.slots, meld.laid_by, strict=True)]
    return f"{meld.owner}:" + "".join(pieces)


def _take_text(turn: TakeTurn | None) -> str:
    if turn is None:
        return "-"
    flags = ("p" if turn.pending else "") + ("o" if turn.opening else "")
    text = (f"{Card.from_index(turn.taken_card).text}:{turn.need}:{flags or '-'}:"
            f"{_cards_text(turn.not_old, sort=True)}")
    if turn.marks:
        text += ":" + ",".join(mark_text(m) for m in turn.marks)
    return text


def mark_text(mark: int) -> str:
    """A joker mark (:func:`~konkun.kunken.deal_fields.joker_mark`) as KKN writes it:
    ``t0.Ts`` (the taken joker, standing for Ts in meld 0), ``o2.X`` (a joker held before
    the take, in the set that is meld 2)."""
    key = mark_key(mark)
    where = "X" if key == SET_JOKER else Card.from_index(key).text
    return f"{'t' if mark & MARK_TAKEN else 'o'}{mark_meld(mark)}.{where}"


def format_kkn(position: KunkenPosition) -> str:
    """The KKN of ``position`` (``parse_kkn`` reads it back to an equal position)."""
    turn = "over" if position.to_move is None else f"{position.to_move}:{position.phase}"
    result = "-" if position.winner is None else \
        f"{position.winner}{'x' if position.express else ''}"
    return " ".join((
        "kunken",
        _rules_text(position.rules),
        str(position.dealer),
        turn,
        "/".join(_cards_text(h, sort=True) for h in position.hands),
        _cards_text(position.stock, sort=False),
        _cards_text(position.bank, sort=False),
        ",".join(_meld_text(m) for m in position.melds) or "-",
        "/".join(_cards_text(t, sort=True) for t in position.taken),
        "".join("1" if x else "0" for x in position.layout),
        str(position.renewals),
        _take_text(position.turn),
        result,
    ))


# ---------------------------------------------------------------------------- reading


class _Reader:
    """Reads the fields of one KKN, raising errors that quote it and name the field."""

    def __init__(self, text: str) -> None:
        self.text = text

    def bad(self, field: str, what: str) -> InvalidNotationError:
        return InvalidNotationError(f"invalid KKN {self.text!r}: field {field}: {what}")

    def impossible(self, what: str) -> InvalidPositionError:
        return InvalidPositionError(f"invalid KKN {self.text!r}: {what}")

    def seat(self, word: str, field: str, seats: int) -> int:
        if not word.isdigit():
            raise self.bad(field, f"{word!r} is not a seat number")
        seat = int(word)
        if seat >= seats:
            raise self.impossible(f"{field}: seat {seat} out of range 0..{seats - 1}")
        return seat

    def integer(self, word: str, field: str) -> int:
        digits = word[1:] if word.startswith("-") else word
        if not digits.isdigit():
            raise self.bad(field, f"{word!r} is not a whole number")
        return int(word)

    def cards(self, word: str, field: str) -> tuple[int, ...]:
        if not word:
            raise self.bad(field, "empty card list (write '-')")
        try:
            return tuple(c.index for c in parse_cards(word))
        except InvalidCardError as error:
            raise self.bad(field, str(error)) from None

    def multiset(self, word: str, field: str) -> tuple[int, ...]:
        return tuple(sorted(self.cards(word, field)))

    def per_seat(self, word: str, field: str, seats: int | None) -> list[str]:
        parts = word.split("/")
        if seats is not None and len(parts) != seats:
            raise self.impossible(f"{field}: {len(parts)} entries for {seats} seats")
        return parts

    def rules(self, word: str) -> KunkenRules:
        if word == "-":
            return KunkenRules()
        options: dict[str, str] = {}
        for pair in word.split(","):
            name, sep, value = pair.partition("=")
            if not sep or not name or not value:
                raise self.bad("rules", f"{pair!r} is not NAME=VALUE")
            options[name] = value
        try:
            return KunkenRules.from_options(options)
        except KonkunError as error:
            raise self.bad("rules", error.reason) from None

    def melds(self, word: str, seats: int) -> tuple[MeldPosition, ...]:
        if word == "-":
            return ()
        return tuple(self.meld(part, i, seats) for i, part in enumerate(word.split(",")))

    def meld(self, word: str, index: int, seats: int) -> MeldPosition:
        field = f"melds (meld {index})"
        owner_text, sep, body = word.partition(":")
        if not sep:
            raise self.bad(field, f"{word!r} is not OWNER:SLOTS")
        owner = self.seat(owner_text, field, seats)
        slots: list[int] = []
        laid_by: list[int] = []
        at = 0
        while at < len(body):
            slot, at = self.slot(body, at, field)
            by = owner
            if at < len(body) and body[at] == "@":  # one digit: at most 5 seats
                by = self.seat(body[at + 1:at + 2], field, seats)
                at += 2
            slots.append(slot)
            laid_by.append(by)
        return MeldPosition(owner, self.meld_slots(tuple(slots), word, field), tuple(laid_by))

    def slot(self, body: str, at: int, field: str) -> tuple[int, int]:
        """The slot written at ``body[at:]`` and where the next one starts."""
        if body[at] in "Xx":
            if body.startswith("=", at + 1):
                return joker_for(self.card(body, at + 2, field)), at + 4
            return BARE_JOKER, at + 1
        return self.card(body, at, field), at + 2

    def card(self, body: str, at: int, field: str) -> int:
        piece = body[at:at + 2]
        try:
            card = Card.parse(piece)
        except InvalidCardError:
            raise self.bad(field, f"invalid card {piece!r} at character {at + 1} of "
                                  f"{body!r}") from None
        if card.is_joker:
            raise self.bad(field, f"a joker stands for a card, not X ({body!r})")
        return card.index

    def meld_slots(self, slots: tuple[int, ...], word: str, field: str) -> tuple[int, ...]:
        """The slots as the engine keeps them (a set's ``X`` is its open-suit joker),
        checked to form a meld written in its order."""
        if sum(1 for s in slots if s < BARE_JOKER) < 2:
            raise self.impossible(f"{field}: {word!r} is not a meld")
        kind = meld_kind(slots)
        if kind == SET:
            rank = next(s for s in slots if s < BARE_JOKER) % 13
            slots = tuple(open_joker(rank) if s == BARE_JOKER else s for s in slots)
        elif BARE_JOKER in slots:
            raise self.impossible(f"{field}: {word!r}: a joker in a sequence is written with "
                                  "the card it stands for (X=7d)")
        check = check_meld(slots)
        if not check.valid:
            raise self.impossible(f"{field}: {word!r} is not a meld: {check.reason}")
        if kind == SEQUENCE and not _in_order(slots):
            raise self.impossible(f"{field}: {word!r}: a sequence is written in its order")
        return slots

    def turn(self, word: str, seats: int) -> tuple[int | None, Phase]:
        if word == "over":
            return None, Phase.OVER
        seat_text, sep, phase_text = word.partition(":")
        if not sep or phase_text not in (Phase.START, Phase.DRAWN, Phase.TAKEN):
            raise self.bad("turn", f"{word!r} is not SEAT:start, SEAT:drawn, SEAT:taken or "
                                   "over")
        return self.seat(seat_text, "turn", seats), Phase(phase_text)

    def take(self, word: str) -> TakeTurn | None:
        if word == "-":
            return None
        parts = word.split(":")
        if len(parts) not in (4, 5):
            raise self.bad("take", f"{word!r} is not CARD:NEED:FLAGS:NEW[:MARKS] or -")
        card_text, need_text, flags, new = parts[:4]
        marks = self.marks(parts[4]) if len(parts) == 5 else ()
        cards = self.cards(card_text, "take")
        if len(cards) != 1:
            raise self.bad("take", f"{card_text!r} is not one card")
        if flags != "-" and (not flags or set(flags) - {"p", "o"} or len(set(flags)) < len(flags)):
            raise self.bad("take", f"flags {flags!r}: expected p, o, po or -")
        return TakeTurn(cards[0], "p" in flags, self.integer(need_text, "take"), "o" in flags,
                        self.multiset(new, "take"), marks)

    def marks(self, word: str) -> tuple[int, ...]:
        """The joker marks of the take field (``t0.Ts,o2.X``), sorted."""
        out = []
        for part in word.split(","):
            number_text, dot, where = part[1:].partition(".")
            if part[:1] not in ("o", "t") or not dot or not number_text.isdigit() or \
                    len(where) != (1 if where == "X" else 2):
                raise self.bad("take", f"joker mark {part!r} is not o|t MELD.CARD or "
                               "o|t MELD.X")
            key = SET_JOKER if where == "X" else self.card(where, 0, "take")
            out.append(joker_mark(int(number_text), key, part[0] == "t"))
        return tuple(sorted(out))
        return tuple(sorted(out))

    def result(self, word: str, seats: int) -> tuple[int | None, bool]:
        if word == "-":
            return None, False
        express = word.endswith("x")
        return self.seat(word[:-1] if express else word, "result", seats), express

    def layout(self, word: str, seats: int) -> tuple[bool, ...]:
        if len(word) != seats or set(word) - {"0", "1"}:
            raise self.bad("layout", f"{word!r}: expected one 0 or 1 per seat ({seats})")
        return tuple(c == "1" for c in word)


def _in_order(slots: tuple[int, ...]) -> bool:
    """Whether a sequence's slots stand for consecutive cards (circular order)."""
    cards = [s if s < BARE_JOKER else s - JOKER_FOR for s in slots]
    return all((b % 13 - a % 13) % 13 == 1 for a, b in pairwise(cards))


def parse_kkn(text: str) -> KunkenPosition:
    """Read a KKN into its position; raise :class:`~konkun.errors.InvalidNotationError`
    for text that is not a KKN and :class:`~konkun.errors.InvalidPositionError` for a
    position that cannot occur (each naming the input and the field)."""
    if not isinstance(text, str):
        raise InvalidNotationError(f"invalid KKN {text!r}: expected text")
    reader = _Reader(text)
    words = text.strip().split(" ")
    if len(words) != len(FIELDS):
        raise InvalidNotationError(f"invalid KKN {text!r}: expected {len(FIELDS)} fields "
                                   f"separated by single spaces ({' '.join(FIELDS)}), got "
                                   f"{len(words)}")
    if words[0] != "kunken":
        raise reader.bad("kunken", f"{words[0]!r}: a KKN begins with the word kunken")
    rules = reader.rules(words[1])
    hand_words = reader.per_seat(words[4], "hands", None)
    seats = len(hand_words)
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise reader.impossible(f"hands: {seats} seats, Kunken has {MIN_SEATS} to "
                                f"{MAX_SEATS}")
    to_move, phase = reader.turn(words[3], seats)
    winner, express = reader.result(words[12], seats)
    position = KunkenPosition(
        rules=rules,
        dealer=reader.seat(words[2], "dealer", seats),
        hands=tuple(reader.multiset(h, "hands") for h in hand_words),
        stock=reader.cards(words[5], "stock"),
        bank=reader.cards(words[6], "bank"),
        melds=reader.melds(words[7], seats),
        taken=tuple(reader.multiset(t, "taken")
                    for t in reader.per_seat(words[8], "taken", seats)),
        layout=reader.layout(words[9], seats),
        renewals=reader.integer(words[10], "renewals"),
        to_move=to_move,
        phase=phase,
        turn=reader.take(words[11]),
        winner=winner,
        express=express,
    )
    check_position(position, f"invalid KKN {text!r}")
    return position


# ---------------------------------------------------------------------------- checking


def check_position(position: KunkenPosition, prefix: str) -> None:
    """Raise :class:`~konkun.errors.InvalidPositionError` (its message begins with
    ``prefix``) unless ``position`` can occur: every card of the pack exactly once, seats
    in range, and fields that agree with each other."""
    problem = _card_problem(position) or _consistency_problem(position)
    if problem is not None:
        raise InvalidPositionError(f"{prefix}: {problem}")


def _card_problem(p: KunkenPosition) -> str | None:
    total = [0] * 53
    for hand in p.hands:
        for c in hand:
            total[c] += 1
    for c in p.stock + p.bank:
        total[c] += 1
    for meld in p.melds:
        for s in meld.slots:
            total[slot_card(s)] += 1
    for k in range(52):
        if total[k] != 2:
            return f"{Card.from_index(k).text} appears {total[k]} times, expected 2"
    if total[52] != p.rules.jokers:
        return f"{total[52]} jokers, expected {p.rules.jokers}"
    return None


def _consistency_problem(p: KunkenPosition) -> str | None:
    n = p.num_seats
    if not 0 <= p.dealer < n:
        return f"dealer {p.dealer} out of range 0..{n - 1}"
    if not 0 <= p.renewals <= p.rules.max_stock_renewals:
        return (f"renewals {p.renewals} out of range 0..{p.rules.max_stock_renewals} "
                "(max_stock_renewals)")
    for i, meld in enumerate(p.melds):
        if not p.layout[meld.owner]:
            return f"meld {i} belongs to seat {meld.owner}, which has no layout"
        if len(meld.laid_by) != len(meld.slots):
            return f"meld {i} has {len(meld.slots)} cards and {len(meld.laid_by)} layers"
    for s in range(n):
        for c in set(p.taken[s]):
            if p.taken[s].count(c) > p.hands[s].count(c):
                return f"taken {s} lists {Card.from_index(c).text}, which hand {s} does not hold"
    over = p.phase == Phase.OVER
    if (p.to_move is None) != over:
        return f"seat {p.to_move} to move in phase {p.phase}"
    if p.winner is not None and not over:
        return f"winner {p.winner} while the deal is not over"
    if p.express and p.winner is None:
        return "express without a winner"
    if p.phase != Phase.TAKEN:
        return None if p.turn is None else f"a take turn's state in phase {p.phase}"
    turn = p.turn
    if turn is None:
        return "phase taken without the take turn's state"
    seat = p.to_move
    assert seat is not None
    hand = p.hands[seat]
    if not turn.opening and turn.need > 0:
        return f"{turn.need} points needed on a turn that is not an opening"
    if turn.need > p.rules.opening_minimum:
        return f"{turn.need} points needed, above the opening minimum {p.rules.opening_minimum}"
    for c in set(turn.not_old):
        if turn.not_old.count(c) > hand.count(c):
            return (f"the take's new cards list {Card.from_index(c).text}, which hand {seat} "
                    "does not hold")
    taken_out = any(m & MARK_TAKEN for m in turn.marks)
    if turn.pending and turn.taken_card not in hand and not taken_out:
        return (f"the taken card {Card.from_index(turn.taken_card).text} is still to be "
                f"melded but hand {seat} does not hold it")
    return marks_problem(turn.marks, turn.taken_card, turn.pending,
                         [m.slots for m in p.melds])


def marks_problem(marks: Sequence[int], taken_card: int, pending: bool,
                  melds: Sequence[Sequence[int]]) -> str | None:
    """What is wrong with a take turn's joker marks, or ``None``: each names a joker on
    the table (a sequence's joker for its card, a set's joker, no more marks than jokers),
    only while the taken card is still to be melded, the taken joker at most once and only
    when the taken card is a joker."""
    if marks and not pending:
        return "joker marks after the taken card was melded"
    if sum(1 for m in marks if m & MARK_TAKEN) > (1 if taken_card == BARE_JOKER else 0):
        return "a taken-joker mark, but the taken card is not a joker (or more than one)"
    for m in set(marks):
        number, key = mark_meld(m), mark_key(m)
        if number >= len(melds):
            return f"joker mark {mark_text(m)}: there is no meld {number}"
        slots = melds[number]
        is_set = meld_kind(list(slots)) == SET
        if is_set != (key == SET_JOKER):
            kind = "a set" if is_set else "a sequence"
            return f"joker mark {mark_text(m)}: meld {number} is {kind}"
        if is_set:
            same = sum(1 for x in marks if mark_meld(x) == number)
            if same > sum(1 for x in slots if x >= BARE_JOKER):
                return f"joker marks {mark_text(m)}: meld {number} has fewer jokers"
        elif JOKER_FOR + key not in slots or marks.count(m) > 1:
            return f"joker mark {mark_text(m)}: meld {number} has no joker for that card"
    return None


def parse_marks(text: str) -> tuple[int, ...]:
    """Joker marks written as KKN writes them (``t0.Ts,o2.X``), sorted; raise
    :class:`~konkun.errors.InvalidNotationError` naming the text when they are not."""
    return _Reader(text).marks(text)


__all__ = ["FIELDS", "check_position", "format_kkn", "mark_text", "marks_problem",
           "parse_kkn", "parse_marks"]
