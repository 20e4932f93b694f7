"""Kunken for the environments: the action slots and the observation tensor.

A Kunken turn is a short sequence of the engine's actions (``draw``, ``take I``,
``meld ...``, ``layoff C M``, ``swap M C``, ``discard C``; ``docs/kunken.md``), and each is
one environment step. The action space ``Discrete(N)`` is cut into blocks, in this order
(``P = 104 + jokers`` is the pack size, ``T = meld_table_slots`` = 32,
``S = meld_slots`` = 512, ``J = joker_layoff_slots`` = 64):

=====================  ======  =============================================================
block                  size    slot
=====================  ======  =============================================================
draw                   1       the draw
take                   P       ``take I`` at offset ``len(bank) - 1 - I``: 0 takes only the
                               top (newest) card, 1 the top two, ... (exact: never capped)
discard                53      ``discard C`` at ``C`` = ``Card.index``, the joker at 52
meld                   S       the legal melds of the position in the canonical order: most
                               points first, then fewer cards, then by their card slots
layoff (real card)     T * 52  ``layoff C M`` of a real card at ``M * 52 + C``
swap                   T * 52  ``swap M C`` at ``M * 52 + C``
layoff (joker)         J       the legal joker lay-offs, ordered by meld, then the card the
                               joker stands for
=====================  ======  =============================================================

Melds on the table are numbered from 0 in the order they were laid down (as in the
engine's action text). Lay-offs and swaps onto a meld numbered ``T`` or more, and melds
or joker lay-offs past the block's size, are out of reach (see ``docs/rl.md`` for how rare
that is).

Observation ``Box(0, 1, (R, 53), float32)``, columns ``Card.index`` 0..51 and the joker at
52; counts are divided by the copies in the pack (2 for a card, the jokers option for the
joker). Rows, for ``n`` players, seats counted from this seat to the left:

- 0: own hand (counts); 1: the bank (counts);
- 2 .. 9: the bank's top 8 cards, one-hot, row 2 the newest;
- 10 .. 9+n: the table cards each seat has laid (its melds and lay-offs, counts; a joker
  counts in the joker column);
- 10+n: the cards jokers on the table stand for (a swap could free them);
- 11+n .. 10+2n: the cards each seat took from the bank and still holds (public);
- 11+2n: the cards taken from the bank this turn; 12+2n: the taken card that must be
  melded (one-hot);
- 13+2n .. 12+2n+T: meld ``m`` on the table (its cards, jokers as the card they stand for
  and in the joker column);
- 13+2n+T: meld owners, entry ``m`` = (owner's offset from this seat + 1) / n (0: no meld);
- 14+2n+T: features, see :data:`FEATURES`.

The information-state vector (:meth:`KunkenAdapter.encode_info_state_deal`) is that tensor
flattened, followed by **every** action of the deal (perfect recall: oldest first, zero
rows after the last; :meth:`KunkenAdapter.history_rows` rows, the most actions a deal under
the rules can have), each a row of ``6 + n + 53 + 2``: the kind (one-hot: draw, take,
discard, meld, layoff, swap), the actor (one-hot from this seat on), the cards it lays or
discards, or the card this seat itself drew (counts, divided as above; another seat's draw
shows no card), ``take I`` as ``(I + 1) / P`` and the meld number of a lay-off or swap as
``(M + 1) / T`` (at most 1). So the vector determines the seat's whole past: every public
action and every card it held. The engine's observation holds no history, so this vector
is built from the deal (in the environments), not from an observation.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from konkun.cards import below
from konkun.errors import InvalidRuleError
from konkun.game import Deal, Observation
from konkun.kunken.actions import DISCARD, DRAW, LAYOFF, MELD, SWAP, TAKE
from konkun.kunken.match import KunkenMatch
from konkun.kunken.melds import BARE_JOKER, JOKER_FOR, OPEN_JOKER, slot_card
from konkun.kunken.rules import KunkenRules
from konkun.kunken.state import new_deal
from konkun.rl.adapter import FloatArray, check_slot, rules_of
from konkun.rl.kunken_loops import SlotBases

MELD_TABLE_SLOTS = 32
MELD_SLOTS = 512
JOKER_LAYOFF_SLOTS = 64
BANK_TOP = 8
PHASES = ("start", "drawn", "taken")
FEATURES = (
    "stock size / pack size",
    "stock renewals used / (max_stock_renewals or 1)",
    "hand sizes / 28, one entry per seat from this seat on (n entries)",
    "has a layout, per seat from this seat on (n entries)",
    "dealer, one-hot from this seat on (n entries)",
    "1 if this seat is to act",
    "phase one-hot: start, drawn, taken (3 entries)",
    "1 while the taken card must still be melded",
    "points still needed for the opening / opening_minimum",
    "1 if this turn is the seat's opening",
    "bank size / pack size",
)
"""The entries of the features row, in order."""
HISTORY_ROWS = 64
"""Rows of the information state's action history before it held every action (kept for
code that named it; :meth:`KunkenAdapter.history_rows` is the number of rows now)."""
KINDS = (DRAW, TAKE, DISCARD, MELD, LAYOFF, SWAP)
"""The action kinds, in the order of the history rows' one-hot."""


class KunkenAdapter:
    """The Kunken side of the environments (rules as :class:`KunkenRules` or options)."""

    name = "kunken"
    vector_core = "konkun.rl.kunken_vector:make_core"
    """The vector env's fast core for this game (:mod:`konkun.rl.vector_core`)."""

    def __init__(self, rules: KunkenRules | Mapping[str, str] | None = None,
                 meld_table_slots: int = MELD_TABLE_SLOTS, meld_slots: int = MELD_SLOTS,
                 joker_layoff_slots: int = JOKER_LAYOFF_SLOTS) -> None:
        rules = rules_of(rules, KunkenRules, KunkenRules.from_options, "{'jokers': '2'}")
        for name, value in (("meld_table_slots", meld_table_slots), ("meld_slots", meld_slots),
                            ("joker_layoff_slots", joker_layoff_slots)):
            if value < 1:
                raise InvalidRuleError(f"invalid {name} {value!r}: expected >= 1")
        self.rules = rules
        self.pack = 104 + rules.jokers
        self.table_slots = meld_table_slots
        self.meld_slots = meld_slots
        self.joker_layoff_slots = joker_layoff_slots
        self.take_base = 1
        self.discard_base = self.take_base + self.pack
        self.meld_base = self.discard_base + 53
        self.layoff_base = self.meld_base + meld_slots
        self.swap_base = self.layoff_base + meld_table_slots * 52
        self.joker_layoff_base = self.swap_base + meld_table_slots * 52
        self.action_size = self.joker_layoff_base + joker_layoff_slots
        self.bases = SlotBases(self.take_base, self.discard_base, self.meld_base,
                               self.layoff_base, self.swap_base, self.joker_layoff_base,
                               meld_table_slots, meld_slots, joker_layoff_slots)
        """The blocks' bases and sizes, for the compiled :meth:`SlotBases.slots`."""
        self.card_scale = np.full(53, 0.5, dtype=np.float32)
        """What one copy of a card (by index, 52 the joker) counts in a tensor cell: a half
        (two decks), one over the number of jokers."""
        self.card_scale[52] = 1.0 / float(max(1, rules.jokers))
        self._scales: dict[int, FloatArray] = {}

    # ------------------------------------------------------------------ dealing

    def observation_shape(self, num_seats: int) -> tuple[int, ...]:
        """``(15 + 2n + T, 53)``."""
        return (15 + 2 * num_seats + self.table_slots, 53)

    def info_state_size(self, num_seats: int) -> int:
        """The length of the information-state vector for ``n`` seats."""
        rows, columns = self.observation_shape(num_seats)
        return rows * columns + self.history_rows(num_seats) * (61 + num_seats)

    def history_rows(self, num_seats: int) -> int:
        """The most actions a deal of ``num_seats`` can have under the rules, so the
        information state holds every action (about 950 for 2 seats by default).

        Every turn is a draw or a take, then one discard. Draws come from the first stock
        and at most ``max_stock_renewals`` renewed ones of at most the pack each. Every
        other action lays at least one card: each of the 104 real cards is laid at most once
        (a laid card never returns to a hand), and a joker once, plus once more per swap
        that frees it (a swap lays a real card): at most ``2 * 104 + jokers`` cards. Each
        take melds at least three of them."""
        rules = self.rules
        stock = self.pack - rules.hand_size * num_seats - 1
        renewals = rules.max_stock_renewals if rules.empty_stock == "turn_bank" else 0
        draws = stock + renewals * self.pack
        laid = 2 * 104 + rules.jokers
        takes = laid // 3
        return 2 * (draws + takes) + laid

    def new_deal(self, num_seats: int, rng: random.Random) -> Deal[Any]:
        """A new deal: a random dealer, then the shuffle, from ``rng``."""
        deal: Deal[Any] = new_deal(self.rules, num_seats, below(num_seats, rng), rng)
        return deal

    def new_match(self, num_seats: int, seed: int) -> KunkenMatch:
        """A new match (its first dealer drawn from ``seed``)."""
        return KunkenMatch(self.rules, num_seats, seed)

    def observe_json(self, deal: Deal[Any], seat: int) -> dict[str, Any]:
        """The engine's JSON observation of ``seat`` with the ``rules`` (``RULES.md``
        options) and the deal's ``history`` (``[{"seat", "action"}]``, every action is
        public: a draw does not show the card drawn)."""
        data = deal.observe(seat).to_json()
        data["rules"] = self.rules.to_json()
        data["history"] = [{"seat": s, "action": action.text()}
                           for s, action in history_with_seats(deal)]
        return data

    # ------------------------------------------------------------------ actions

    def slots(self, position: Deal[Any] | Observation[Any],
              legal: Sequence[Any]) -> dict[int, Any]:
        """Slot of each reachable legal action (see the module's docstring)."""
        bank_size = len(position.bank)  # type: ignore[union-attr]
        return self.bases.slots(bank_size, legal if isinstance(legal, list) else list(legal))

    def block_of(self, slot: int) -> str:
        """The kind of action a slot belongs to (``draw``, ``take``, ...)."""
        slot = check_slot(slot, self.action_size)
        for name, base in (("joker-layoff", self.joker_layoff_base), ("swap", self.swap_base),
                           ("layoff", self.layoff_base), ("meld", self.meld_base),
                           ("discard", self.discard_base), ("take", self.take_base)):
            if slot >= base:
                return name
        return "draw"

    # ------------------------------------------------------------------ tensors

    def encode(self, observation: Observation[Any]) -> FloatArray:
        """The observation tensor (see the module's docstring)."""
        obs: Any = observation
        return self._tensor(obs, obs.seat, obs.hand, obs.stock_size)

    def encode_deal(self, deal: Deal[Any], seat: int) -> FloatArray:
        """``encode(deal.observe(seat))`` without building the observation: it reads only
        ``seat``'s own hand and the public part of the deal."""
        d: Any = deal
        return self._tensor(d, seat, d.hands[seat], len(d.stock))

    def encode_info_state(self, observation: Observation[Any]) -> FloatArray:
        """Not available: the engine's Kunken observation holds no history (use
        :meth:`encode_info_state_deal`)."""
        raise InvalidRuleError("the Kunken information state needs the deal's history, "
                               "which an observation does not hold: use "
                               "encode_info_state_deal(deal, seat)")

    def encode_info_state_deal(self, deal: Deal[Any], seat: int) -> FloatArray:
        """The information-state vector of ``seat`` (see the module's docstring)."""
        n = deal.num_seats
        rows = self.history_rows(n)
        history = np.zeros((rows, 61 + n), dtype=np.float32)
        actions = history_with_seats(deal)
        if len(actions) > rows:
            raise InvalidRuleError(f"a deal of {len(actions)} actions: more than the "
                                   f"{rows} the rules allow")
        own_draws = drawn_cards(deal)
        for row, (actor, action) in enumerate(actions):
            cells = history[row]
            cells[KINDS.index(action.kind)] = 1.0
            cells[6 + (actor - seat) % n] = 1.0
            if action.kind == DRAW:
                card = own_draws.get(row, -1) if actor == seat else -1
                if card >= 0:
                    cells[6 + n + card] = self.card_scale[card]
            elif action.kind == TAKE:
                cells[59 + n] = (action.target + 1) / self.pack
            elif action.kind != DRAW:
                for slot in action.slots:
                    card = slot_card(slot)
                    cells[6 + n + card] = min(1.0, cells[6 + n + card] + self.card_scale[card])
                if action.kind in (LAYOFF, SWAP):
                    cells[60 + n] = min(1.0, (action.target + 1) / self.table_slots)
        return np.concatenate([self.encode_deal(deal, seat).reshape(-1), history.reshape(-1)])

    def encode_deals(self, deals: Sequence[Deal[Any]], seat: int, out: FloatArray) -> None:
        """Write ``encode_deal(deals[j], seat)``, flattened, into ``out[j]`` for every deal
        (deals of one seat count): the same tensors, with the per-card work of all deals
        done by a few numpy calls (a bincount over every deal's cards) instead of many
        small ones per deal."""
        count = len(deals)
        if not count:
            return
        n = deals[0].num_seats
        t = self.table_slots
        rows = 15 + 2 * n + t
        width = rows * 53
        order = [(seat + offset) % n for offset in range(n)]
        nobody = bytes(53)
        dense: list[bytes] = []  # per deal: hand, taken by seat from this on, not old
        cells: list[int] = []  # flat indices counted once per card
        owner_at: list[int] = []
        owner_value: list[float] = []
        features = np.zeros((count, 53), dtype=np.float32)
        for j, deal in enumerate(deals):
            d: Any = deal
            base = j * width
            dense.append(bytes(d.hands[seat]))  # counts of at most 4 copies
            taken = d.taken
            dense.extend([bytes(taken[s]) for s in order])
            dense.append(bytes(d.turn_notold) if d.to_move is not None else nobody)
            bank = d.bank
            at = base + 53
            cells.extend([at + card for card in bank])
            at = base + 2 * 53
            cells.extend([at + r * 53 + card for r, card in enumerate(reversed(bank[-BANK_TOP:]))])
            if d.take_card >= 0:
                cells.append(base + (12 + 2 * n) * 53 + d.take_card)
            for m, meld in enumerate(d.melds):
                visible = m < t
                at = base + (13 + 2 * n + m) * 53
                if visible:
                    owner_at.append(base + (13 + 2 * n + t) * 53 + m)
                    owner_value.append(((meld.owner - seat) % n + 1) / n)
                for slot, by in zip(meld.slots, meld.laid_by, strict=True):
                    laid = base + (10 + (by - seat) % n) * 53
                    if slot < BARE_JOKER:
                        cells.append(laid + slot)
                        if visible:
                            cells.append(at + slot)
                        continue
                    cells.append(laid + 52)
                    if visible:
                        cells.append(at + 52)
                    if slot < OPEN_JOKER:
                        cells.append(base + (10 + n) * 53 + slot - JOKER_FOR)
                        if visible:
                            cells.append(at + slot - JOKER_FOR)
            self._features(features[j], d, seat, n, len(d.stock), len(bank))
        shaped = out[:count].reshape(count, rows, 53)
        shaped.fill(0.0)
        flat = out[:count].reshape(-1)
        where, copies = np.unique(np.array(cells, dtype=np.int64), return_counts=True)
        flat[where] = np.minimum(copies * self._scale(n)[where % width], 1.0)
        people = np.frombuffer(b"".join(dense), dtype=np.uint8).reshape(count, 2 + n, 53)
        norm = self.card_scale
        shaped[:, 0] = np.minimum(people[:, 0] * norm, 1.0)
        shaped[:, 11 + n:12 + 2 * n] = np.minimum(people[:, 1:] * norm, 1.0)
        flat[owner_at] = owner_value
        shaped[:, 14 + 2 * n + t] = features

    def _scale(self, n: int) -> FloatArray:
        """Per entry of a flattened ``n``-seat tensor, what :meth:`_tensor` scales a count
        by: the copies in the pack on the count rows, 1 elsewhere."""
        scale = self._scales.get(n)
        if scale is None:
            t = self.table_slots
            shaped = np.ones(self.observation_shape(n), dtype=np.float32)
            shaped[0:2] = self.card_scale
            shaped[10:10 + n] = self.card_scale
            shaped[11 + n:12 + 2 * n] = self.card_scale
            shaped[13 + 2 * n:13 + 2 * n + t, 52] = self.card_scale[52]
            scale = self._scales[n] = shaped.reshape(-1)
        return scale

    def _tensor(self, src: Any, seat: int, hand: Sequence[int], stock_size: int) -> FloatArray:
        n = src.num_seats
        t = self.table_slots
        out = np.zeros(self.observation_shape(n), dtype=np.float32)
        norm = self.card_scale
        out[0] = hand
        bank = src.bank
        if bank:
            out[1] = np.bincount(bank, minlength=53)
            top = bank[-BANK_TOP:][::-1]
            out[2 + np.arange(len(top)), top] = 1.0
        laid: list[int] = []  # flat (seat offset * 53 + card) of every table card
        stands: list[int] = []
        meld_cells: list[int] = []  # flat (meld * 53 + card)
        owners = out[13 + 2 * n + t]
        for m, meld in enumerate(src.melds):
            visible = m < t
            if visible:
                owners[m] = ((meld.owner - seat) % n + 1) / n
            for slot, by in zip(meld.slots, meld.laid_by, strict=True):
                if slot < BARE_JOKER:
                    laid.append((by - seat) % n * 53 + slot)
                    if visible:
                        meld_cells.append(m * 53 + slot)
                    continue
                laid.append((by - seat) % n * 53 + 52)
                if visible:
                    meld_cells.append(m * 53 + 52)
                if slot < OPEN_JOKER:
                    stands.append(slot - JOKER_FOR)
                    if visible:
                        meld_cells.append(m * 53 + slot - JOKER_FOR)
        if laid:
            out[10:10 + n] = np.bincount(laid, minlength=n * 53).reshape(n, 53)
        if stands:
            out[10 + n, stands] = 1.0
        if meld_cells:
            out[13 + 2 * n:13 + 2 * n + t] = np.bincount(
                meld_cells, minlength=t * 53).reshape(t, 53)
        taken = src.taken
        out[11 + n:11 + 2 * n] = [taken[(seat + offset) % n] for offset in range(n)]
        if src.to_move is not None:
            out[11 + 2 * n] = src.turn_notold
        out[0:2] *= norm
        out[10:10 + n] *= norm
        out[11 + n:12 + 2 * n] *= norm
        out[13 + 2 * n:13 + 2 * n + t, 52] *= norm[52]
        if src.take_card >= 0:
            out[12 + 2 * n, src.take_card] = 1.0
        np.minimum(out, 1.0, out=out)
        self._features(out[14 + 2 * n + t], src, seat, n, stock_size, len(bank))
        return out

    def _features(self, row: FloatArray, src: Any, seat: int, n: int, stock_size: int,
                  bank_size: int) -> None:
        rules = self.rules
        row[0] = stock_size / self.pack
        row[1] = min(1.0, src.renewals / max(1, rules.max_stock_renewals))
        for offset in range(n):
            other = (seat + offset) % n
            row[2 + offset] = min(1.0, src.hand_sizes[other] / 28.0)
            row[2 + n + offset] = 1.0 if src.layout[other] else 0.0
        row[2 + 2 * n + (src.dealer - seat) % n] = 1.0
        base = 2 + 3 * n
        row[base] = 1.0 if src.to_move == seat else 0.0
        if src.phase in PHASES:
            row[base + 1 + PHASES.index(src.phase)] = 1.0
        row[base + 4] = 1.0 if src.pending else 0.0
        row[base + 5] = min(1.0, max(0, src.need) / max(1, rules.opening_minimum))
        row[base + 6] = 1.0 if src.opening else 0.0
        row[base + 7] = bank_size / self.pack


def drawn_cards(deal: Any) -> dict[int, int]:
    """The card of each draw in the deal's history (history index -> card), from the deal's
    record of its draws (``deal.drawn``); a deal rebuilt from a position knows only the draws
    made since, which are the last ones. A draw that found the stock empty for good (and
    ended the deal) drew nothing."""
    drawn = getattr(deal, "drawn", [])
    history = deal.history
    indices = [i for i, action in enumerate(history) if action.kind == DRAW]
    if indices and deal.is_over() and indices[-1] == len(history) - 1:
        indices.pop()  # a draw that drew is followed by a discard: this one ended the deal
    known = indices[len(indices) - len(drawn):] if len(drawn) <= len(indices) else []
    return dict(zip(known, drawn[len(drawn) - len(known):], strict=True))


def history_with_seats(deal: Any) -> list[tuple[int, Any]]:
    """The deal's actions with the seat that played each: play starts left of the dealer
    and passes to the left after every discard."""
    seat = (deal.dealer + 1) % deal.num_seats
    result = []
    for action in deal.history:
        result.append((seat, action))
        if action.kind == DISCARD:
            seat = (seat + 1) % deal.num_seats
    return result


