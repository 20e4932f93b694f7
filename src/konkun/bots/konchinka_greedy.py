"""Konchinka knowledge for the bots: the ``greedy`` bot and the search policy of
``ismcts``.

What a card is worth (RULES.md, Score of a deal): 2 points for the most cards, 1 for the
most clubs, 1 each for the two кончинки (2♣ and 10♦). So a captured card is worth a share
of the card majority, a club a share of the club majority more, and 2♣ / 10♦ a whole point
more; a contest already won or lost is worth nothing more.

The greedy bot scores every legal move by what it captures now minus what it leaves
the next player: for each value a card in the opponents' hands may have (and the Jack,
which in classic takes the whole table), the best capture that value makes on the table
after the move, weighted by the chance that some opponent holds such a card (from the
unseen cards). A classic Jack is kept for a table worth taking; the last capturer also
takes what is left on the table at the end.

The search policy plays out sampled worlds with a fast greedy-ish rule (the best
capture by the same card worths, else the cheapest safe trail; a small share of random
moves).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from functools import lru_cache
from math import comb, erf
from typing import Any

from konkun.bots.base import Budget
from konkun.bots.policy import SearchPolicy, pick_best, scaled_priors
from konkun.bots.specs import BotSpec, check_options, float_param
from konkun.cards import Card, Rank, Suit
from konkun.game import Deal, Observation
from konkun.konchinka.deal import KonchinkaDeal
from konkun.konchinka.deck import CLASSIC_VALUES, DECKS, NOVO_VALUES
from konkun.konchinka.scoring import TEN_OF_DIAMONDS, TWO_OF_CLUBS

CLUB = tuple(Card.from_index(i).suit is Suit.CLUBS for i in range(52))
"""Per card index: whether the card is a club."""
JACK = tuple(Card.from_index(i).rank is Rank.JACK for i in range(52))
"""Per card index: whether the card is a Jack."""
_KONCHINKI = (TWO_OF_CLUBS.index, TEN_OF_DIAMONDS.index)
"""The card indices of the two кончинки."""
_KONCHINKI_MASK = (1 << TWO_OF_CLUBS.index) | (1 << TEN_OF_DIAMONDS.index)


class Worths:
    """What one more captured card is worth to a seat now, in points."""

    __slots__ = ("card", "club", "konchinka")

    def __init__(self, piles: Sequence[Iterable[int]], num_seats: int) -> None:
        counts = []
        clubs = []
        for pile in piles:
            cards = list(pile)
            counts.append(len(cards))
            clubs.append(sum(1 for c in cards if CLUB[c]))
        self.card = 2.0 / (52 / num_seats) * _open(counts, 52)
        self.club = 1.0 / (13 / num_seats) * _open(clubs, 13)
        self.konchinka = 1.0

    def of(self, index: int) -> float:
        """The worth of capturing card ``index``."""
        worth = self.card
        if CLUB[index]:
            worth += self.club
        if index in _KONCHINKI:
            worth += self.konchinka
        return worth

    def of_all(self, indices: Iterable[int]) -> float:
        """The worth of capturing all of ``indices``."""
        return sum(self.of(i) for i in indices)


def _open(counts: Sequence[int], total: int) -> float:
    """1 while a majority contest of ``total`` cards can still change hands, else a
    little (it is decided: somebody already holds more than everyone else can reach)."""
    left = total - sum(counts)
    best = max(counts)
    leaders = [s for s, c in enumerate(counts) if c == best]
    second = max((c for s, c in enumerate(counts) if s != leaders[0]), default=0)
    if len(leaders) == 1 and best > second + left:
        return 0.1
    return 1.0


@lru_cache(maxsize=1 << 16)
def _subset_sums(values: tuple[int, ...]) -> dict[int, tuple[tuple[int, ...], ...]]:
    """Every subset (as position tuples) of ``values`` by its sum (values > 0 only)."""
    sums: dict[int, list[tuple[int, ...]]] = {}
    n = len(values)
    stack: list[tuple[int, int, tuple[int, ...]]] = [(0, 0, ())]
    while stack:
        start, total, chosen = stack.pop()
        for k in range(start, n):
            value = values[k]
            if value <= 0 or total + value > 14:
                continue
            picked = (*chosen, k)
            sums.setdefault(total + value, []).append(picked)
            stack.append((k + 1, total + value, picked))
    return {s: tuple(found) for s, found in sums.items()}


def best_captures(table: Sequence[int], novo: bool, worths: Worths) -> dict[int, float]:
    """For each capturing value (0 = a classic Jack's sweep; 13 also stands for the novo
    King's 13-or-14), the worth of the best capture it makes on ``table``."""
    values = NOVO_VALUES if novo else CLASSIC_VALUES
    table = sorted(table)
    table_values = tuple(values[c] for c in table)
    best: dict[int, float] = {}
    for total, subsets in _subset_sums(table_values).items():
        best[total] = max(worths.of_all(table[p] for p in subset) for subset in subsets)
    if novo:
        best[13] = max(best.get(13, 0.0), best.get(14, 0.0))
    elif table:
        best[0] = worths.of_all(table)
    return best


def _chance_held(unseen: int, of_value: int, hand: int) -> float:
    """The chance that ``hand`` cards drawn from ``unseen`` hold one of ``of_value``."""
    if of_value <= 0 or hand <= 0 or unseen <= 0:
        return 0.0
    if unseen - of_value < hand:
        return 1.0
    return 1.0 - comb(unseen - of_value, hand) / comb(unseen, hand)


def exposure(table: Sequence[int], novo: bool, worths: Worths, unseen: Sequence[int],
             hand_size: int) -> float:
    """The expected worth the next player takes from ``table``: the best capture of each
    value, weighted by the chance that a hand of ``hand_size`` unseen cards holds it
    (the better captures first: the player takes the best one they can)."""
    if not table or hand_size <= 0:
        return 0.0
    values = NOVO_VALUES if novo else CLASSIC_VALUES
    counts: dict[int, int] = {}
    for card in unseen:
        counts[values[card]] = counts.get(values[card], 0) + 1
    gains = sorted(best_captures(table, novo, worths).items(), key=lambda kv: -kv[1])
    expected = 0.0
    none_yet = 1.0
    for value, gain in gains:
        p = _chance_held(len(unseen), counts.get(value, 0), hand_size)
        expected += none_yet * p * gain
        none_yet *= 1.0 - p
    return expected


class KonchinkaGreedy:
    """One-move lookahead: the worth of the capture minus the table's exposure to the
    next player, keeping a classic Jack for a table worth sweeping."""

    def __init__(self, jack_reserve: float = 0.35) -> None:
        self.jack_reserve = jack_reserve

    def __repr__(self) -> str:
        return f"KonchinkaGreedy(jack_reserve={self.jack_reserve})"

    def choose(self, observation: Observation[Any], legal: Sequence[Any],
               rng: random.Random, budget: Budget) -> Any:
        """The move with the best score (ties broken at random)."""
        return pick_best(legal, self.scores(observation, legal), rng)

    def scores(self, observation: Observation[Any], legal: Sequence[Any]) -> list[float]:
        """Each legal move's score (points now minus points exposed)."""
        view: Any = observation
        seat = view.seat
        novo = view.rules.is_novo
        hand = [c.index for c in view.hand]
        table = [c.index for c in view.table]
        piles = [[c.index for c in pile] for pile in view.captured]
        worths = Worths(piles, view.num_seats)
        seen = set(hand) | set(table) | {c for pile in piles for c in pile}
        unseen = [c for c in DECKS[view.rules.deck_ranks] if c not in seen]
        following = (seat + 1) % view.num_seats
        next_hand = view.hand_sizes[following]
        last_round = view.stock_size == 0
        return [self._score(move, table, novo, worths, unseen, next_hand, len(hand),
                            last_round) for move in legal]

    def _score(self, move: Any, table: list[int], novo: bool, worths: Worths,
               unseen: list[int], next_hand: int, hand_size: int, last_round: bool) -> float:
        card = move.card.index
        taken = [c.index for c in move.taken]
        if taken:
            left = [c for c in table if c not in taken]
            score = worths.of_all([card, *taken])
            if not left:
                score += 0.05  # the next player must trail
        else:
            left = [*table, card]
            score = -0.02 * (NOVO_VALUES if novo else CLASSIC_VALUES)[card]
        if not novo and JACK[card] and not (last_round and hand_size <= 1):
            score -= self.jack_reserve  # a Jack in hand is a sweep to come
        if last_round and next_hand == 0:
            return score  # nobody moves after this: nothing is exposed
        return score - exposure(left, novo, worths, unseen, next_hand)


def make_greedy_bot(game: str, spec: BotSpec) -> KonchinkaGreedy:
    """The Konchinka ``greedy`` (option ``jack=X``: what keeping a Jack is worth)."""
    options = check_options(spec, {"jack": "worth of keeping a classic Jack (0.35)"})
    if "jack" in options:
        return KonchinkaGreedy(float_param(spec, "jack", options["jack"], minimum=0.0))
    return KonchinkaGreedy()


LADDER_SPECS = {"beginner": "random", "casual": "greedy",
                "strong": "ismcts:iters=20:width=3", "expert": "ismcts:iters=2000:width=3"}
"""The bot each level of the strength ladder (:mod:`konkun.bots.ladder`) stands for in
Konchinka (its descriptor's ``ladder`` add-on). The searches count iterations, so a level
plays the same on a busy server (only slower): 20 and 2000 are about 0.0013 s and 0.13 s
a move on an idle core (15,000 iterations a CPU second); a tenfold step (20 to 200, 200 to
2000) gains too little to measure here (docs/bots.md)."""


class KonchinkaPolicy(SearchPolicy[Any]):
    """Play-outs for search: fast greedy-ish moves (the most valuable capture, a Jack only
    for a table worth it, else a trail of the least valuable card; ``epsilon`` random
    moves) to the end of the current round of cards (the next redeal), then the
    :func:`expected_points` of the piles; to the end of the deal in the last round."""

    epsilon = 0.1
    rounds = 1
    """Rounds of cards (up to a redeal) a play-out covers before it evaluates."""

    loss_marks = (0.3, 0.7, 1.5)
    """A deal is worth 5 points (a кончинка given away swings the margin by 2): the
    analysis marks losses on that scale."""

    endgame = True
    """Whether a two-player endgame (the stock empty) is solved exactly instead of
    searched (:mod:`konkun.bots.konchinka_endgame`)."""

    def decide(self, observation: Observation[Any], legal: list[Any],
               rng: random.Random) -> Any | None:
        """In a two-player endgame the other hand is known: its exact best move."""
        from konkun.bots.konchinka_endgame import EndgameSolver, applies
        if not self.endgame or not applies(observation):
            return None
        deal: Any = observation.sample_deal(rng)  # the one deal consistent with it
        return EndgameSolver().best_move(deal)

    def exact_values(self, observation: Observation[Any],
                     rng: random.Random) -> dict[Any, float] | None:
        """In a two-player endgame the other hand is known: every move's exact value."""
        from konkun.bots.konchinka_endgame import EndgameSolver, applies
        if not self.endgame or not applies(observation):
            return None
        deal: Any = observation.sample_deal(rng)  # the one deal consistent with it
        return {move: float(value)
                for move, value in EndgameSolver().move_values(deal).items()}

    def priors(self, observation: Observation[Any], legal: list[Any],
               rng: random.Random) -> dict[Any, float] | None:
        """The greedy bot's scores, scaled to [0, 1]."""
        return scaled_priors(legal, KonchinkaGreedy().scores(observation, legal))

    def play_out(self, deal: Deal[Any], rng: random.Random) -> list[float]:
        """Play on to the next redeal (or the end) and return the expected points."""
        if isinstance(deal, KonchinkaDeal):
            return self._play_out_fast(deal, rng)
        return self._play_out_public(deal, rng)

    def _play_out_public(self, deal: Deal[Any], rng: random.Random) -> list[float]:
        view: Any = deal
        rounds = 0
        while not deal.is_over():
            stock = view.stock_size
            deal.push(self.rollout_action(deal, deal.legal_actions(), rng))
            if view.stock_size != stock:
                rounds += 1
                if rounds >= self.rounds:
                    break
        if deal.is_over():
            return [float(p) for p in deal.points()]
        piles = [[c.index for c in pile] for pile in view.piles]
        return expected_points(piles, view.num_seats)

    def rollout_action(self, deal: Deal[Any], legal: Sequence[Any], rng: random.Random) -> Any:
        """One play-out move through the public API."""
        if rng.random() < self.epsilon:
            return legal[rng.randrange(len(legal))]
        view: Any = deal
        novo = view.rules.is_novo
        options = [(m.card.index, [c.index for c in m.taken]) for m in legal]
        return legal[_pick(options, novo, len(view.table), rng)]

    def _play_out_fast(self, deal: KonchinkaDeal, rng: random.Random) -> list[float]:
        # the engine's fast interface: options as (card, table positions), cards as
        # indices, the table as sorted codes (value << 6 | index), piles as bit masks
        novo = deal.rules.is_novo
        rand = rng.random
        epsilon = self.epsilon
        rounds = 0
        while deal.turn >= 0:
            options = deal.options()
            if rand() < epsilon:
                card, positions = options[rng.randrange(len(options))]
            else:
                table = deal.table_codes
                named = [(c, [table[p] & 63 for p in positions]) for c, positions in options]
                card, positions = options[_pick(named, novo, len(table), rng)]
            if deal.push_option(card, positions):  # a redeal followed
                rounds += 1
                if rounds >= self.rounds:
                    break
        if deal.turn < 0:
            return [float(p) for p in deal.points()]
        return expected_points_of_masks(deal.pile_masks)


def _normal_cdf(x: float) -> float:
    return 0.5 * (1.0 + erf(x / 1.4142135623730951))


def _beats(mine: int, theirs: int, left: int, seats: int) -> float:
    """The chance that a seat with ``mine`` ends with more than one with ``theirs`` when
    ``left`` more are shared out among ``seats`` seats (a normal approximation; captures
    come in clumps, so the spread is taken wider than a binomial's)."""
    if mine > theirs + left:
        return 1.0  # decided: the other cannot catch up
    if theirs >= mine + left:
        return 0.0
    share = 1.0 / seats
    spread = (2.0 * left * share * (1 - share) * 2) ** 0.5
    return _normal_cdf((mine - theirs - 0.5) / spread)


def expected_points_of_masks(piles: Sequence[int]) -> list[float]:
    """:func:`expected_points` for piles given as bit masks of card indices."""
    seats = len(piles)
    cards = [p.bit_count() for p in piles]
    clubs = [(p & 0x1FFF).bit_count() for p in piles]
    held = [(p & _KONCHINKI_MASK).bit_count() for p in piles]
    return _expected(cards, clubs, held, seats)


def expected_points(piles: Sequence[Sequence[int]], seats: int) -> list[float]:
    """Each seat's expected points for the deal from the capture piles so far (card
    indices): its кончинки, the chance of the most cards (2) and of the most clubs (1),
    and a fair share of the кончинки still out."""
    cards = [len(p) for p in piles]
    clubs = [sum(1 for c in p if CLUB[c]) for p in piles]
    held = [sum(1 for c in p if c in _KONCHINKI) for p in piles]
    return _expected(cards, clubs, held, seats)


def _expected(cards: Sequence[int], clubs: Sequence[int], held: Sequence[int],
              seats: int) -> list[float]:
    cards_left = 52 - sum(cards)
    clubs_left = 13 - sum(clubs)
    out = (2 - sum(held)) / seats
    points = []
    for s in range(seats):
        most_cards = 1.0
        most_clubs = 1.0
        for t in range(seats):
            if t != s:
                most_cards *= _beats(cards[s], cards[t], cards_left, seats)
                most_clubs *= _beats(clubs[s], clubs[t], clubs_left, seats)
        points.append(2.0 * most_cards + most_clubs + held[s] + out)
    return points


def _pick(options: Sequence[tuple[int, Sequence[int]]], novo: bool, table_size: int,
          rng: random.Random) -> int:
    """The index of the play-out move among ``options`` (card, taken cards)."""
    values = NOVO_VALUES if novo else CLASSIC_VALUES
    best = -1e9
    choice = 0
    for k, (card, taken) in enumerate(options):
        if taken:
            score = 1.0 + len(taken)
            for c in (card, *taken):
                if CLUB[c]:
                    score += 1.5
                if c in _KONCHINKI:
                    score += 10.0
            if not novo and JACK[card] and table_size < 4:
                score -= 3.0
            if len(taken) == table_size:
                score += 0.5
        else:
            score = -values[card] * 0.1 - (1.5 if CLUB[card] else 0.0)
            if card in _KONCHINKI:
                score -= 10.0
            if not novo and JACK[card]:
                score -= 3.0
        score += rng.random() * 0.01
        if score > best:
            best, choice = score, k
    return choice
