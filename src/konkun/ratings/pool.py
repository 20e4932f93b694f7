"""A pool of players rated with Glicko-2 in rating periods, multi-player games counted as
pairwise results.

A game of ``N`` players is ``N * (N - 1) / 2`` two-player results: each pair of players
scores by their final totals (the higher total wins the pair, equal totals draw), so the
winner of a four-player game beats three opponents and the runner-up beats two and loses
one. Every pair counts as a whole game: the paper's formulas take no weights, and a
player who beats three opponents at once has shown more than one who beats one.

Results are collected over a rating period and applied together at its end, every player
against the opponents' ratings as they stood when the period began; a player in the pool
who played nothing gets only the deviation growth (Glickman, step 6).

>>> pool = RatingPool()
>>> pool.add_game({"ann": 12, "bob": 7, "cyd": 7})
>>> after = pool.end_period()
>>> after["ann"].rating > after["bob"].rating == after["cyd"].rating
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from konkun.ratings.glicko2 import DEFAULT_RD, DEFAULT_TAU, Rating, RatingError, rate


def pairwise_results(totals: Sequence[float]) -> list[tuple[int, int, float]]:
    """Every pair ``(i, j)`` with ``i < j`` of a game's seats and the score of ``i``
    against ``j``: 1 for a higher total, 0.5 for an equal one, 0 for a lower one."""
    return [(i, j, 1.0 if totals[i] > totals[j] else 0.5 if totals[i] == totals[j] else 0.0)
            for i in range(len(totals)) for j in range(i + 1, len(totals))]


class RatingPool:
    """Players and their ratings; results wait for :meth:`end_period`."""

    def __init__(self, ratings: Mapping[str, Rating] | None = None, *,
                 tau: float = DEFAULT_TAU, initial: Rating | None = None,
                 max_rd: float = DEFAULT_RD) -> None:
        self._ratings = dict(ratings or {})
        self._tau = tau
        self._initial = initial or Rating()
        self._max_rd = max_rd
        self._period: list[tuple[str, str, float]] = []

    @property
    def ratings(self) -> dict[str, Rating]:
        """Every player's rating as of the last period's end (new players: the initial)."""
        return dict(self._ratings)

    def rating(self, player: str) -> Rating:
        """One player's rating (the initial rating for a player never seen)."""
        return self._ratings.get(player, self._initial)

    def join(self, player: str, rating: Rating | None = None) -> None:
        """Put a player in the pool (a calibrated bot, say) before any game."""
        self._ratings[player] = rating or self._ratings.get(player, self._initial)

    @property
    def pending(self) -> list[tuple[str, str, float]]:
        """The results of the current period: ``(player, opponent, player's score)``."""
        return list(self._period)

    def add_result(self, player: str, opponent: str, score: float) -> None:
        """One two-player result in the current period (``score`` for ``player``)."""
        if player == opponent:
            raise RatingError(f"a player cannot play themself: {player!r}")
        if not 0 <= score <= 1:
            raise RatingError(f"invalid score {score!r} for {player!r}: expected 0 to 1")
        for name in (player, opponent):
            self.join(name)
        self._period.append((player, opponent, score))

    def add_game(self, totals: Mapping[str, float]) -> None:
        """A finished game, each player's final total: as pairwise results."""
        if len(totals) < 2:
            raise RatingError(f"a rated game needs two players or more, not {dict(totals)}")
        players = list(totals)
        for i, j, score in pairwise_results([totals[p] for p in players]):
            self.add_result(players[i], players[j], score)

    def provisional(self, player: str) -> Rating:
        """The rating to show now, mid-period: the period's results so far applied to the
        rating the period started with (as if the period ended now, without the idle
        growth of a player who has not played yet)."""
        start = self.rating(player)
        results = [(self.rating(opponent), score) for first, opponent, score in self._period
                   if first == player]
        results += [(self.rating(first), 1 - score) for first, opponent, score in self._period
                    if opponent == player]
        return rate(start, results, self._tau, self._max_rd) if results else start

    def end_period(self) -> dict[str, Rating]:
        """Apply the period's results to everyone (idle players' deviations grow) and
        start a new period; return the new ratings."""
        start = dict(self._ratings)
        games: dict[str, list[tuple[Rating, float]]] = {name: [] for name in start}
        for player, opponent, score in self._period:
            games[player].append((start[opponent], score))
            games[opponent].append((start[player], 1 - score))
        self._ratings = {name: rate(start[name], results, self._tau, self._max_rd)
                         for name, results in games.items()}
        self._period = []
        return dict(self._ratings)
