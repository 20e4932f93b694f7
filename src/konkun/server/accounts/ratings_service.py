"""Ratings at the server: Glicko-2 pools of accounts and the ladder's bots, updated when a
game ends, and the games index behind profiles and leaderboards.

The pools are the games' own (each descriptor's ``ratings`` add-on, :func:`pool_of`):
``konchinka-2``, ``konchinka-3-4`` and ``kunken``; a game without one is unrated. When a
table finishes, :meth:`RatingStore.record_finished` (one transaction) stores a row per
human seat in ``konkun_player_games`` (guests too, so that a guest who claims an account
keeps their history) and, when the game counts, rates it: a *rated* table (its creator's
choice; hints off and a move clock) with at least two distinct accounts, or an account and
a ladder bot (``beginner``, ``casual``, ``strong``, ``expert``). Only the accounts and
ladder bots are rated, against each other, pairwise by final totals
(:func:`konkun.ratings.pairwise_results`). Every game is its own rating period for its
players, after each player's deviation grew for the whole days since their last rated game
(``docs/ratings.md``, "At the server"). A ladder bot enters a pool at its calibrated
rating (``konkun/ratings/ladder_ratings.json``, from ``benchmarks/calibrate_ladder.py``).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from importlib import resources
from typing import Any

from sqlalchemy import Boolean, Float, Integer, String, case, func, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, aliased, mapped_column

from konkun.bots.ladder import LADDER, LEVEL_KINDS
from konkun.errors import InvalidRuleError
from konkun.game import RatedPool, game_names, get_game
from konkun.ratings.glicko2 import DEFAULT_RD, Rating, idle, rate
from konkun.ratings.pool import pairwise_results
from konkun.server.store.storage import StoredTable

BOT_PREFIX = "bot:"
"""A ladder bot's player id in a pool: ``bot:strong``."""

PROVISIONAL_RD = 110.0
"""A rating whose deviation is at least this is shown as provisional (``?``)."""

ESTABLISHED_OPPONENTS = 3
"""A player is listed on a leaderboard once her rating is established: a deviation below
``PROVISIONAL_RD`` and rated games against at least this many different opponents."""

PAIR_GAMES_PER_DAY = 3
"""Rated games between the same two accounts in 24 hours that move their ratings; the
results of further ones between them are not rated (docs/ratings.md)."""

HISTORY_LIMIT = 500
RECENT_LIMIT = 20


def game_pools(game: str) -> tuple[RatedPool, ...]:
    """The rating pools ``game`` declares (its descriptor's ``ratings`` add-on); none for
    a game without one or a game not registered."""
    try:
        found = get_game(game).addon("ratings")
    except InvalidRuleError:
        return ()
    return tuple(found or ())


def rating_pools() -> tuple[RatedPool, ...]:
    """Every registered game's rating pools, in the registry's order of games."""
    return tuple(pool for name in game_names() for pool in game_pools(name))


def pool_named(name: str) -> RatedPool | None:
    """The registered rating pool called ``name``, else ``None``."""
    return next((pool for pool in rating_pools() if pool.name == name), None)


def pool_of(game: str, num_seats: int) -> str | None:
    """The rating pool of a game at a table of ``num_seats`` (``None``: a game or a table
    size no pool rates)."""
    return next((pool.name for pool in game_pools(game) if pool.rates(num_seats)), None)


def rated_bot(spec: str | None) -> str | None:
    """The pool player id of a bot seat's spec when it is a ladder level, else ``None``
    (other bots are not rated)."""
    return BOT_PREFIX + spec if spec in LEVEL_KINDS else None


@cache
def ladder_ratings() -> dict[str, dict[str, Rating]]:
    """The calibrated ratings of the ladder's levels, by pool (``ladder_ratings.json``;
    a level it lacks starts as a new player)."""
    try:
        text = resources.files("konkun.ratings").joinpath("ladder_ratings.json").read_text()
    except FileNotFoundError:  # pragma: no cover - the package ships the file
        return {}
    data = json.loads(text)
    return {pool: {kind: Rating(float(value["rating"]), float(value["rd"]),
                                float(value["volatility"]))
                   for kind, value in entry["levels"].items()}
            for pool, entry in data["pools"].items()}


def initial_rating(pool: str, player: str) -> Rating:
    """Where a player enters a pool: a ladder bot at its calibrated rating, anyone else
    at 1500 (RD 350)."""
    if player.startswith(BOT_PREFIX):
        found = ladder_ratings().get(pool, {}).get(player[len(BOT_PREFIX):])
        if found is not None:
            return found
    return Rating()


class RatingsBase(DeclarativeBase):
    """The schema of ratings and the games index."""


class RatingRow(RatingsBase):
    """A player's current rating in one pool."""

    __tablename__ = "konkun_ratings"

    pool: Mapped[str] = mapped_column(String(16), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[str] = mapped_column(String(40))


class PlayerGameRow(RatingsBase):
    """One seat of one finished game: who, what game, the result, and the rating after it
    when the game was rated (the profile's history)."""

    __tablename__ = "konkun_player_games"

    player_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    variant: Mapped[str | None] = mapped_column(String(32), nullable=True)
    seats: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(200))
    won: Mapped[bool] = mapped_column(Boolean)
    total: Mapped[int | None] = mapped_column(Integer, nullable=True)
    finished_at: Mapped[str] = mapped_column(String(40), index=True)
    pool: Mapped[str | None] = mapped_column(String(16), nullable=True)
    rating: Mapped[float | None] = mapped_column(Float, nullable=True)
    rd: Mapped[float | None] = mapped_column(Float, nullable=True)
    change: Mapped[float | None] = mapped_column(Float, nullable=True)


@dataclass(frozen=True)
class RatedSeat:
    """A seat's rating change in a rated game."""

    seat: int
    player: str
    before: Rating
    after: Rating


def _days_between(earlier: str, later: str) -> int:
    """Whole days from one ISO time to another (0 when unreadable or reversed)."""
    try:
        delta = datetime.fromisoformat(later) - datetime.fromisoformat(earlier)
    except ValueError:
        return 0
    return max(0, delta.days)


def _grown(rating: Rating, days: int) -> Rating:
    """A rating after ``days`` idle rating periods (one a day), RD capped at 350."""
    for _ in range(min(days, 400)):
        if rating.rd >= DEFAULT_RD:
            break
        rating = idle(rating)
    return rating


def _seat_players(row: StoredTable, accounts: set[str]) -> dict[int, str]:
    """The seats that are rated when the game counts: accounts and ladder bots (a player
    holding two seats counts once, at the first)."""
    found: dict[int, str] = {}
    for number, seat in enumerate(row.seats):
        player: str | None = None
        if seat.get("kind") == "human" and seat.get("player_id") in accounts:
            player = str(seat["player_id"])
        elif seat.get("kind") == "bot":
            player = rated_bot(seat.get("bot"))
        if player is not None and player not in found.values():
            found[number] = player
    return found


def counts(players: dict[int, str]) -> bool:
    """Whether a game with these rated seats counts: two distinct accounts, or an account
    and a ladder bot."""
    accounts = [p for p in players.values() if not p.startswith(BOT_PREFIX)]
    return len(accounts) >= 2 or (len(accounts) == 1 and len(players) >= 2)


RECORD_TRIES = 5
"""Attempts at recording one finished game while other server processes record theirs."""


def ranking_totals(totals: list[int], resigned: list[int]) -> list[int]:
    """The totals a game is rated by: a seat that resigned ranks below every other
    (resigned seats tie among themselves)."""
    last = min(totals, default=0) - 1
    return [last if seat in resigned else total for seat, total in enumerate(totals)]


class RatingStore:
    """Ratings and the games index in the database of the game record (synchronous; run
    in the storage thread)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def record_finished(self, row: StoredTable, rated_table: bool,
                        accounts: set[str], resigned: list[int] | None = None,
                        ) -> list[RatedSeat]:
        """Index a finished game's human seats and, when it counts, rate it; return the
        rating changes (empty for a game that does not count). The ``resigned`` seats
        rank last, whatever their totals. Recording a game twice (a restart finishing it
        again) changes nothing the second time."""
        if row.totals is None or row.finished_at is None:
            return []
        pool = pool_of(row.game, len(row.seats))
        players = _seat_players(row, accounts)
        rated = rated_table and pool is not None and counts(players)
        for _attempt in range(RECORD_TRIES):
            try:
                with Session(self.engine) as db, db.begin():
                    if db.scalar(select(PlayerGameRow.table_id)
                                 .where(PlayerGameRow.table_id == row.id).limit(1)) \
                            is not None:
                        return []
                    changes = self._rate(db, pool, row, players, resigned or []) \
                        if rated and pool else []
                    self._index(db, row, pool, {c.seat: c for c in changes})
                    return changes
            except IntegrityError:
                # another process recorded this game first (the next attempt sees it), or
                # gave one of its players a first rating at the same instant (the next
                # attempt locks that row and rates from it)
                continue
        return []

    def _rate(self, db: Session, pool: str, row: StoredTable,
              players: dict[int, str], resigned: list[int]) -> list[RatedSeat]:
        assert row.totals is not None and row.finished_at is not None
        ranked = ranking_totals(row.totals, resigned)
        stored = {r.player_id: r for r in db.scalars(
            select(RatingRow).where(RatingRow.pool == pool,
                                    RatingRow.player_id.in_(list(players.values())))
            .order_by(RatingRow.player_id)  # one locking order: no deadlock across processes
            .with_for_update()).all()}
        before = {}
        for player in players.values():
            found = stored.get(player)
            if found is None:
                before[player] = initial_rating(pool, player)
            else:
                before[player] = _grown(Rating(found.rating, found.rd, found.volatility),
                                        _days_between(found.updated_at, row.finished_at))
        seats = list(players)
        results: dict[int, list[tuple[Rating, float]]] = {seat: [] for seat in seats}
        for i, j, score in pairwise_results([ranked[s] for s in seats]):
            first, second = seats[i], seats[j]
            if self._pair_capped(db, pool, players[first], players[second], row.finished_at):
                continue
            results[first].append((before[players[second]], score))
            results[second].append((before[players[first]], 1 - score))
        changes = []
        for seat in seats:
            player = players[seat]
            if not results[seat]:
                continue  # every result of the seat was capped: nothing changes
            after = rate(before[player], results[seat])
            changes.append(RatedSeat(seat, player, before[player], after))
            found = stored.get(player)
            if found is None:
                db.add(RatingRow(pool=pool, player_id=player, rating=after.rating,
                                 rd=after.rd, volatility=after.volatility, games=1,
                                 updated_at=row.finished_at))
            else:
                found.rating, found.rd, found.volatility = (after.rating, after.rd,
                                                            after.volatility)
                found.games += 1
                found.updated_at = row.finished_at
        return changes

    @staticmethod
    def _pair_capped(db: Session, pool: str, first: str, second: str, at: str) -> bool:
        """Whether two accounts already played ``PAIR_GAMES_PER_DAY`` rated games against
        each other in the 24 hours before ``at`` (ladder bots are never capped)."""
        if first.startswith(BOT_PREFIX) or second.startswith(BOT_PREFIX):
            return False
        try:
            since = (datetime.fromisoformat(at) - timedelta(days=1)).isoformat()
        except ValueError:
            return False
        mine, theirs = aliased(PlayerGameRow), aliased(PlayerGameRow)
        together = db.scalar(
            select(func.count(func.distinct(mine.table_id)))
            .join(theirs, theirs.table_id == mine.table_id)
            .where(mine.player_id == first, theirs.player_id == second, mine.pool == pool,
                   mine.rating.is_not(None), theirs.rating.is_not(None),
                   mine.finished_at > since))
        return int(together or 0) >= PAIR_GAMES_PER_DAY

    def opponents(self, db: Session, pool: str, player: str) -> int:
        """How many different players ``player`` met in rated games of ``pool``."""
        mine, theirs = aliased(PlayerGameRow), aliased(PlayerGameRow)
        return int(db.scalar(
            select(func.count(func.distinct(theirs.player_id))).select_from(mine)
            .join(theirs, theirs.table_id == mine.table_id)
            .where(mine.player_id == player, mine.pool == pool, mine.rating.is_not(None),
                   theirs.player_id != player, theirs.rating.is_not(None))) or 0)

    def established(self, db: Session, row: RatingRow) -> bool:
        """Whether a rating is established (a ladder bot's always is)."""
        if row.player_id.startswith(BOT_PREFIX):
            return True
        return row.rd < PROVISIONAL_RD \
            and self.opponents(db, row.pool, row.player_id) >= ESTABLISHED_OPPONENTS

    @staticmethod
    def _index(db: Session, row: StoredTable, pool: str | None,
               changes: dict[int, RatedSeat]) -> None:
        assert row.totals is not None and row.finished_at is not None
        for number, seat in enumerate(row.seats):
            change = changes.get(number)
            if seat.get("kind") == "human" and seat.get("player_id"):
                player = str(seat["player_id"])
            elif change is not None:
                player = change.player
            else:
                continue
            db.add(PlayerGameRow(
                player_id=player, table_id=row.id, seat=number, game=row.game,
                variant=row.variant, seats=len(row.seats),
                name=str(seat.get("name") or player)[:200], won=row.winner == number,
                total=row.totals[number], finished_at=row.finished_at, pool=pool,
                rating=change.after.rating if change else None,
                rd=change.after.rd if change else None,
                change=change.after.rating - change.before.rating if change else None))

    def has_games(self, player_id: str) -> bool:
        """Whether a player appears in the games index or holds a rating."""
        with Session(self.engine) as db:
            return db.scalar(select(PlayerGameRow.table_id)
                             .where(PlayerGameRow.player_id == player_id).limit(1)) is not None \
                or db.scalar(select(RatingRow.pool)
                             .where(RatingRow.player_id == player_id).limit(1)) is not None

    def profile(self, player_id: str) -> dict[str, Any]:
        """A player's games per game and variant, ratings with their history, and recent
        games (``GET /api/players/{id}``, without the name)."""
        with Session(self.engine) as db:
            played = [{"game": game, "variant": variant, "played": int(n), "wins": int(w or 0)}
                      for game, variant, n, w in db.execute(
                          select(PlayerGameRow.game, PlayerGameRow.variant, func.count(),
                                 func.sum(case((PlayerGameRow.won, 1), else_=0)))
                          .where(PlayerGameRow.player_id == player_id)
                          .group_by(PlayerGameRow.game, PlayerGameRow.variant)
                          .order_by(PlayerGameRow.game, PlayerGameRow.variant)).all()]
            ratings = []
            for rating_row in db.scalars(select(RatingRow).where(
                    RatingRow.player_id == player_id).order_by(RatingRow.pool)).all():
                history = db.execute(
                    select(PlayerGameRow.finished_at, PlayerGameRow.rating, PlayerGameRow.rd,
                           PlayerGameRow.table_id, PlayerGameRow.change)
                    .where(PlayerGameRow.player_id == player_id,
                           PlayerGameRow.pool == rating_row.pool,
                           PlayerGameRow.rating.is_not(None))
                    .order_by(PlayerGameRow.finished_at.desc()).limit(HISTORY_LIMIT)).all()
                ratings.append(rating_json(rating_row) | {"history": [
                    {"at": at, "rating": round(float(r or 0.0), 1),
                     "rd": round(float(d or 0.0), 1), "table": t}
                    for at, r, d, t, _ in in_rating_order(list(reversed(history)))]})
            recent = [{"table": g.table_id, "game": g.game, "variant": g.variant,
                       "seats": g.seats, "seat": g.seat, "won": g.won, "total": g.total,
                       "finished_at": g.finished_at, "rated": g.rating is not None,
                       "rating": None if g.rating is None else round(g.rating, 1),
                       "change": None if g.change is None else round(g.change, 1),
                       "replay": f"/replay/{g.table_id}"}
                      for g in db.scalars(select(PlayerGameRow)
                                          .where(PlayerGameRow.player_id == player_id)
                                          .order_by(PlayerGameRow.finished_at.desc(),
                                                    PlayerGameRow.table_id)
                                          .limit(RECENT_LIMIT)).all()]
            last_name = recent[0]["table"] if recent else None
            name = None
            if last_name is not None:
                name = db.scalar(select(PlayerGameRow.name).where(
                    PlayerGameRow.player_id == player_id,
                    PlayerGameRow.table_id == last_name).limit(1))
        return {"played": played, "ratings": ratings, "recent": recent, "last_name": name}

    def leaderboard(self, pool: str, limit: int = 100) -> list[dict[str, Any]]:
        """The pool's players with an established rating (:meth:`established`), best
        first, with the ladder bots that have not played yet at their calibrated ratings
        (names are the caller's to add)."""
        with Session(self.engine) as db:
            rows = db.scalars(select(RatingRow).where(RatingRow.pool == pool,
                                                      RatingRow.rd < PROVISIONAL_RD)
                              .order_by(RatingRow.rating.desc(), RatingRow.player_id)
                              .limit(limit * 4)).all()
            entries = [rating_json(r) for r in rows if self.established(db, r)][:limit]
        seen = {entry["player_id"] for entry in entries}
        for kind in LEVEL_KINDS:
            player = BOT_PREFIX + kind
            if player not in seen:
                entries.append(_rating_entry(pool, player, initial_rating(pool, player), 0))
        entries.sort(key=lambda e: (-e["rating"], e["player_id"]))
        return entries[:limit]


def in_rating_order(history: list[Any]) -> list[Any]:
    """A player's rated games, oldest first, ``(finished_at, rating, rd, table, change)``
    each, with games that finished in the same second put in the order they were rated:
    each one's rating before it (``rating - change``) is the rating the one before it
    left (no time passes between them, so nothing else moved it)."""
    ordered: list[Any] = []
    start = 0
    while start < len(history):
        stop = start
        while stop < len(history) and history[stop][0] == history[start][0]:
            stop += 1
        group = list(history[start:stop])
        while group:
            follows = _next_rated(group, ordered[-1][1] if ordered else None)
            ordered.append(group.pop(follows))
        start = stop
    return ordered


def _next_rated(group: list[Any], previous: float | None) -> int:
    """The index in ``group`` of the game rated right after the rating ``previous``: the
    one that started from it, else the one no other game of the group led to."""
    def before(row: Any) -> float:
        return float(row[1] or 0.0) - float(row[4] or 0.0)

    if previous is not None:
        for index, row in enumerate(group):
            if abs(before(row) - previous) < 1e-6:
                return index
    left_by_others = [float(row[1] or 0.0) for row in group]
    for index, row in enumerate(group):
        if not any(abs(before(row) - after) < 1e-6
                   for other, after in enumerate(left_by_others) if other != index):
            return index
    return 0


def _rating_entry(pool: str, player: str, rating: Rating, games: int) -> dict[str, Any]:
    return {"pool": pool, "player_id": player, "rating": round(rating.rating, 1),
            "rd": round(rating.rd, 1), "games": games,
            "provisional": rating.rd >= PROVISIONAL_RD or not math.isfinite(rating.rd),
            "bot": player.startswith(BOT_PREFIX)}


def rating_json(row: RatingRow) -> dict[str, Any]:
    """A stored rating as JSON."""
    return _rating_entry(row.pool, row.player_id, Rating(row.rating, row.rd, row.volatility),
                         row.games)


def bot_names(player: str) -> dict[str, str] | None:
    """A ladder bot's names by language (``None``: not a ladder bot)."""
    kind = player[len(BOT_PREFIX):] if player.startswith(BOT_PREFIX) else None
    for level in LADDER:
        if level.kind == kind:
            return dict(level.names)
    return None
