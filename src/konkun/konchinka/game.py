"""A game of Konchinka to the target: deals in rotation, the score sheet, the settlement
and the record that replays it (implements :class:`konkun.game.Match`).

>>> import random
>>> chooser = random.Random(1)
>>> match = KonchinkaMatch(KonchinkaRules(), 2, seed=7)
>>> while not match.is_over():
...     match.play(chooser.choice(match.legal_actions()))
>>> replay(KonchinkaRecord.from_json(match.record().to_json())).totals == match.totals
True

The seed (``int`` for simulation, ``str`` for live play; see
:func:`konkun.cards.rng_for_seed`) drives the first-dealer draw and every shuffle, cut and
initial-table fix, in that order, so a record (rules, seats, seed, moves as text)
replays exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from konkun import game
from konkun.cards import Card, draw_for_dealer, rng_for_seed
from konkun.errors import GameOverError
from konkun.game import JSON
from konkun.konchinka.deal import KonchinkaDeal
from konkun.konchinka.dealing import check_seats, new_deal
from konkun.konchinka.moves import Move
from konkun.konchinka.observation import KonchinkaObservation
from konkun.konchinka.rules import KonchinkaRules
from konkun.konchinka.scoring import DealScore
from konkun.records import GameRecord


@dataclass(frozen=True, slots=True)
class Payment:
    """``payer`` pays ``payee`` ``amount`` units (or chips)."""

    payer: int
    payee: int
    amount: int

    def to_json(self) -> JSON:
        """``{"from": SEAT, "to": SEAT, "amount": N}``."""
        return {"from": self.payer, "to": self.payee, "amount": self.amount}


@dataclass(frozen=True, slots=True)
class SettlementResult:
    """Who pays whom at the end of the game, and each seat's net gain."""

    kind: str
    payments: tuple[Payment, ...]
    net: tuple[int, ...]

    def to_json(self) -> JSON:
        """``{"kind": ..., "payments": [...], "net": [N, ...]}``."""
        return {"kind": self.kind, "payments": [p.to_json() for p in self.payments],
                "net": list(self.net)}


def settle(rules: KonchinkaRules, totals: Sequence[int], winner: int) -> SettlementResult:
    """The settlement of a finished game (``RULES.md``, Game):

    - ``difference``: each loser pays the winner ``max(0, target - loser's total)``;
    - ``pool``: each player staked ``stake`` chips; the winner takes the pool, so each
      loser pays the winner ``stake``.
    """
    payments = []
    for seat, total in enumerate(totals):
        if seat == winner:
            continue
        amount = max(0, rules.target - total) if rules.settlement == "difference" \
            else rules.stake
        payments.append(Payment(seat, winner, amount))
    net = [0] * len(totals)
    for payment in payments:
        net[payment.payer] -= payment.amount
        net[payment.payee] += payment.amount
    return SettlementResult(rules.settlement, tuple(payments), tuple(net))


def game_winner(totals: Sequence[int], target: int) -> int | None:
    """The winner once a deal has ended with these totals: the single highest total when
    at least one total has reached the target; ``None`` while the game goes on (also
    when the highest total is shared: further deals are played)."""
    best = max(totals)
    if best < target or list(totals).count(best) > 1:
        return None
    return list(totals).index(best)


def running_totals(deal_points: Sequence[Sequence[int]], seats: int) -> list[list[int]]:
    """The score sheet: each seat's column of running totals, one entry per finished deal
    (3, then 5, then 8, ...; earlier totals are struck through, never erased)."""
    columns: list[list[int]] = [[] for _ in range(seats)]
    for points in deal_points:
        for seat in range(seats):
            previous = columns[seat][-1] if columns[seat] else 0
            columns[seat].append(previous + points[seat])
    return columns


class KonchinkaRecord(GameRecord[KonchinkaRules]):
    """Everything needed to replay a game: rules, seats, seed and the moves as text (the
    shared :class:`~konkun.records.GameRecord`, ``"game": "konchinka"``)."""

    __slots__ = ()
    game = "konchinka"
    read_rules = staticmethod(KonchinkaRules.from_json)


class KonchinkaMatch:
    """A game of Konchinka to the target (implements :class:`konkun.game.Match`).

    ``KonchinkaMatch(rules, num_seats, seed)`` draws for the first dealer and deals the
    first deal; :meth:`play` validates and applies a move and, when that ends a deal and
    the game goes on, deals the next one at once (the deal rotating to the left).
    """

    def __init__(self, rules: KonchinkaRules, num_seats: int, seed: int | str) -> None:
        check_seats(num_seats, 0, rules)
        self._rules = rules
        self._seats = num_seats
        self._seed = seed
        self._rng = rng_for_seed(seed)
        self._first_dealer, self._draws = draw_for_dealer(num_seats, self._rng)
        self._deal = new_deal(rules, num_seats, self._first_dealer, self._rng)
        self._actions: list[str] = []
        self._deal_scores: list[DealScore] = []
        self._dealers: list[int] = [self._first_dealer]
        self._totals = [0] * num_seats
        self._winner: int | None = None

    # ------------------------------------------------------------------ reading

    @property
    def rules(self) -> KonchinkaRules:
        """The rules of the game."""
        return self._rules

    @property
    def num_seats(self) -> int:
        """How many seats play."""
        return self._seats

    @property
    def seed(self) -> int | str:
        """The seed of the game (keep a live game's text seed secret until it is over)."""
        return self._seed

    @property
    def deal(self) -> KonchinkaDeal:
        """The current deal (the last one once the game is over)."""
        return self._deal

    @property
    def deal_number(self) -> int:
        """The number of the current deal, from 1."""
        return len(self._dealers)

    @property
    def dealer(self) -> int:
        """The current deal's dealer."""
        return self._deal.dealer

    @property
    def first_dealer(self) -> int:
        """The seat that won the draw for the first deal."""
        return self._first_dealer

    @property
    def dealer_draws(self) -> list[dict[int, Card]]:
        """The draw for the first dealer: each round, each drawing seat's card."""
        return [dict(r) for r in self._draws]

    @property
    def to_move(self) -> int | None:
        """The seat to move, or ``None`` when the game is over."""
        return self._deal.to_move  # the deal that ended the game is over

    @property
    def totals(self) -> list[int]:
        """Each seat's running total."""
        return list(self._totals)

    @property
    def deal_points(self) -> list[list[int]]:
        """Each finished deal's points per seat, in order."""
        return [s.points for s in self._deal_scores]

    @property
    def deal_scores(self) -> list[DealScore]:
        """Each finished deal's full score (cards, clubs, кончинки, points per seat)."""
        return list(self._deal_scores)

    @property
    def sheet(self) -> list[list[int]]:
        """The score sheet: each seat's column of running totals (see
        :func:`running_totals`)."""
        return running_totals(self.deal_points, self._seats)

    def is_over(self) -> bool:
        """True once a deal has ended with a single highest total at or above the target."""
        return self._winner is not None

    def winner(self) -> int | None:
        """The winning seat once the game is over, else ``None``."""
        return self._winner

    def settlement(self) -> SettlementResult | None:
        """Who pays whom, once the game is over."""
        if self._winner is None:
            return None
        return settle(self._rules, self._totals, self._winner)

    def legal_actions(self) -> list[Move]:
        """The legal moves in the current deal (empty once the game is over: its last deal
        is over)."""
        return self._deal.legal_actions()

    # ------------------------------------------------------------------ playing

    def play(self, action: Move) -> None:
        """Validate and apply a move in the current deal; when the deal ends, score it
        and, unless the game is over, deal the next deal."""
        if self._winner is not None:
            raise GameOverError(self._deal.format_action(action), "the game is over")
        self._deal.play(action)
        self._actions.append(action.text())
        if self._deal.is_over():
            self._end_deal()

    def play_text(self, text: str) -> Move:
        """Parse and play a move's text; return the move."""
        move = self._deal.parse_action(text)
        self.play(move)
        return move

    def _end_deal(self) -> None:
        score = self._deal.score()
        self._deal_scores.append(score)
        for seat, points in enumerate(score.points):
            self._totals[seat] += points
        self._winner = game_winner(self._totals, self._rules.target)
        if self._winner is None:
            dealer = (self._deal.dealer + 1) % self._seats
            self._dealers.append(dealer)
            self._deal = new_deal(self._rules, self._seats, dealer, self._rng)

    def record(self) -> KonchinkaRecord:
        """The replayable record of everything played so far."""
        return KonchinkaRecord(self._rules, self._seats, self._seed, tuple(self._actions))

    # ------------------------------------------------------------------ JSON

    def observe(self, seat: int | None) -> KonchinkaObservation:
        """The current deal as ``seat`` sees it (``None``: a spectator)."""
        return KonchinkaObservation.of(self._deal, seat)

    def to_json(self, seat: int | None) -> JSON:
        """The game as ``seat`` sees it (``None``: a spectator, who sees no hand); the exact
        form is in ``docs/konchinka.md``."""
        settlement = self.settlement()
        deal = self.observe(seat).to_json()
        return {
            "game": "konchinka",
            "seat": seat,
            "num_seats": self._seats,
            "variant": self._rules.variant,
            "rules": self._rules.to_json(),
            "target": self._rules.target,
            "deal_number": self.deal_number,
            "dealer": self.dealer,
            "first_dealer": self._first_dealer,
            "dealer_draws": [[{"seat": s, "card": c.text} for s, c in sorted(r.items())]
                             for r in self._draws],
            "dealers": list(self._dealers),
            "to_move": self.to_move,
            "totals": self.totals,
            "deal_points": self.deal_points,
            "deal_scores": [s.to_json() for s in self._deal_scores],
            "sheet": self.sheet,
            "over": self.is_over(),
            "winner": self._winner,
            "settlement": settlement.to_json() if settlement is not None else None,
            "seed": self._seed if self._winner is not None else None,
            "deal": deal,
        }


def new_match(rules: KonchinkaRules, num_seats: int, seed: int | str) -> KonchinkaMatch:
    """A new game: draw for the first dealer and deal, all from ``rng_for_seed(seed)``."""
    return KonchinkaMatch(rules, num_seats, seed)


def replay(record: KonchinkaRecord) -> KonchinkaMatch:
    """The game a record stands for, replayed move by move (validated)."""
    match = KonchinkaMatch(record.rules, record.num_seats, record.seed)
    for text in record.actions:
        match.play_text(text)
    return match


def _conforms(deal: KonchinkaDeal, observation: KonchinkaObservation,
              match: KonchinkaMatch, record: KonchinkaRecord) -> None:
    """Static check (mypy) that the classes implement the protocols of konkun.game."""
    checked_deal: game.Deal[Move] = deal
    checked_observation: game.Observation[Move] = observation
    checked_match: game.Match[Move] = match
    checked_record: game.Record = record
    del checked_deal, checked_observation, checked_match, checked_record
