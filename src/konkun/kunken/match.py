"""A Kunken match: deals in rotation with running totals (RULES.md, Match), its replayable
record and its JSON view.

``KunkenMatch(rules, num_seats, seed)`` draws the first dealer with
:func:`konkun.cards.draw_for_dealer` and shuffles every deal from
:func:`konkun.cards.rng_for_seed` (``seed``), so the record (rules, seats, seed, action
texts) replays exactly (:func:`replay`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from konkun.cards import draw_for_dealer, rng_for_seed
from konkun.errors import GameOverError
from konkun.game import check_seat_count
from konkun.kunken.actions import Action
from konkun.kunken.observation import KunkenObservation
from konkun.kunken.parts import legal_steps
from konkun.kunken.rules import DEFAULT_RULES, MAX_SEATS, MIN_SEATS, KunkenRules
from konkun.kunken.state import KunkenDeal, new_deal
from konkun.records import GameRecord


class KunkenRecord(GameRecord[KunkenRules]):
    """Everything needed to replay a match: rules, seats, seed, action texts and the
    imposed first dealer (the shared :class:`~konkun.records.GameRecord`, ``"game":
    "kunken"``)."""

    __slots__ = ()
    game = "kunken"
    read_rules = staticmethod(KunkenRules.from_json)


class KunkenMatch:
    """A match of Kunken (implements :class:`konkun.game.Match`)."""

    def __init__(self, rules: KunkenRules | None = None, num_seats: int = 2,
                 seed: int | str = 0, first_dealer: int | None = None) -> None:
        check_seat_count("Kunken", num_seats, MIN_SEATS, MAX_SEATS)
        self.rules = rules or DEFAULT_RULES
        self.num_seats = num_seats
        self.seed = seed
        self._rng = rng_for_seed(seed)
        self._imposed_dealer = first_dealer
        if first_dealer is None:
            first_dealer, self.dealer_draw = draw_for_dealer(num_seats, self._rng)
        else:
            self.dealer_draw = []
        self.first_dealer = first_dealer
        self._deal = new_deal(self.rules, num_seats, first_dealer, self._rng)
        self._totals = [0] * num_seats
        self._history: list[list[int]] = []
        self._express: list[bool] = []
        self._winners: list[int | None] = []
        self._actions: list[str] = []
        self._over = False

    @property
    def deal(self) -> KunkenDeal:
        """The current deal (the last one once the match is over)."""
        return self._deal

    @property
    def totals(self) -> list[int]:
        """Each seat's running total."""
        return list(self._totals)

    @property
    def deal_points(self) -> Sequence[Sequence[int]]:
        """Each finished deal's points per seat, in order."""
        return [list(p) for p in self._history]

    def running_totals(self) -> list[list[int]]:
        """The score sheet: the totals after each finished deal."""
        out: list[list[int]] = []
        acc = [0] * self.num_seats
        for pts in self._history:
            acc = [a + p for a, p in zip(acc, pts, strict=True)]
            out.append(acc)
        return out

    def is_over(self) -> bool:
        """True when the match has ended."""
        return self._over

    def legal_actions(self) -> list[Action]:
        """The current deal's legal actions (none once the match is over)."""
        return [] if self._over else self._deal.legal_actions()

    def play(self, action: Action | str) -> None:
        """Validate and apply an action (or its text); a finished deal is scored and the
        next deal dealt at once, the deal passing to the left."""
        if self._over:
            text = action if isinstance(action, str) else action.text()
            raise GameOverError(text, "the match is over")
        deal = self._deal
        if isinstance(action, str):
            action = deal.parse_action(action)
        deal.play(action)
        self._actions.append(action.text())
        if deal.is_over():
            self._finish_deal()

    def _finish_deal(self) -> None:
        deal = self._deal
        points = deal.points()
        self._history.append(points)
        self._express.append(deal.express)
        self._winners.append(deal.winner)
        self._totals = [t + p for t, p in zip(self._totals, points, strict=True)]
        if self._match_ends():
            self._over = True
            return
        dealer = (deal.dealer + 1) % self.num_seats
        self._deal = new_deal(self.rules, self.num_seats, dealer, self._rng)

    def _match_ends(self) -> bool:
        played = len(self._history)
        limit = self.rules.num_deals(self.num_seats)
        target = self.rules.target
        done = (limit > 0 and played >= limit) or (target > 0 and max(self._totals) >= target)
        if not done:
            return False
        if self.rules.tie == "play_on":
            top = max(self._totals)
            return self._totals.count(top) == 1
        return True

    def winner(self) -> int | None:
        """The seat with the highest total once the match is over (``None`` before, or
        when shared under ``tie=shared``)."""
        if not self._over:
            return None
        top = max(self._totals)
        return self._totals.index(top) if self._totals.count(top) == 1 else None

    def record(self) -> KunkenRecord:
        """The replayable record of everything played so far."""
        return KunkenRecord(self.rules, self.num_seats, self.seed, tuple(self._actions),
                            self._imposed_dealer)

    def to_json(self, seat: int | None) -> dict[str, Any]:
        """The match as ``seat`` sees it (``None``: a spectator, who sees no hand): the
        observation JSON, ``steps`` (the parts of each ``legal`` action, in the same order:
        :func:`konkun.kunken.parts.legal_steps`) and the match's totals (docs/kunken.md,
        "Match JSON")."""
        deal = self._deal
        if seat is None:
            view = KunkenObservation.from_deal(deal, 0).to_json()
            view["seat"] = None
            view["hand"] = []
            view["legal"] = []
            view["take_refusals"] = []  # drawn from seat 0's hand: not a spectator's
            view["score_parts"] = None
            view["steps"] = []
        else:
            observation = KunkenObservation.from_deal(deal, seat)
            view = observation.to_json()
            if self._over:
                view["legal"] = []
            view["steps"] = legal_steps(observation.legal_actions()) if view["legal"] else []
        view.update({
            "totals": self.totals,
            "deal_points": self.deal_points,
            "running_totals": self.running_totals(),
            "deal_winners": list(self._winners),
            "deal_express": list(self._express),
            "deals_played": len(self._history),
            "deal_number": len(self._history) + (0 if self._over else 1),
            "deals": self.rules.num_deals(self.num_seats),
            "target": self.rules.target,
            "match_over": self._over,
            "match_winner": self.winner(),
            "first_dealer": self.first_dealer,
            "rules": self.rules.to_json(),
        })
        return view


def replay(record: KunkenRecord) -> KunkenMatch:
    """The match a record describes, with every action replayed (validated)."""
    match = KunkenMatch(record.rules, record.num_seats, record.seed, record.first_dealer)
    for text in record.actions:
        match.play(text)
    return match
