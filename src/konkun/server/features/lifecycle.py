"""A table's life beyond one match: who made it, its options, cancelling, expiry, rematch.

What a table carries besides its game (:class:`TableExtras`: the creator, the move clock,
hints, the rematch it led to) is kept in a table of its own, ``konkun_table_extras``,
one JSON object per table, so the game record (``konkun_tables``, ``konkun_actions``)
stays as it is. :class:`ExtrasStore` reads and writes it; :class:`Lifecycle` (a part of
the lobby, given what it calls) acts on the tables under each table's lock:

- :meth:`Lifecycle.cancel` removes a waiting table (its creator's wish, or expiry after
  ``Settings.waiting_table_seconds`` seconds nobody joined) and tells every connection;
- :meth:`Lifecycle.vote_rematch` records a seated human's wish for a rematch once the game is over;
  when every human seat has asked, a new table with the same seats, bots, game, variant,
  rules and options starts, and every connection of the old one is told where it is. The
  vote that completes the set stores the new table's id with it (``rematch_next``), so if
  the process making the rematch dies, another one (or the same server after a restart)
  makes the same table, not a second one (:meth:`Lifecycle.make_rematch`);
- :class:`CreateOnce` makes creating a table idempotent against double clicks.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from sqlalchemy import JSON, String, delete, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from konkun.fairness import commitment, new_server_seed
from konkun.server.core.announcements import Announcement
from konkun.server.core.games import GameAdapter
from konkun.server.core.kinds import SeatKind, TableStatus
from konkun.server.core.outbound import ClosedMessage, CloseReason, RematchMessage
from konkun.server.core.protocol import ProtocolError
from konkun.server.core.seatinfo import SeatInfo
from konkun.server.features.fair import checked_contribution
from konkun.server.features.ports import RunsInThreads, SeatedTable
from konkun.server.features.replication import Replication

if TYPE_CHECKING:
    from konkun.server.core.auth import Guest

log = logging.getLogger("konkun.server")

MOVE_SECONDS = (0, 15, 30, 60, 120)
"""The move clocks the lobby offers (0: no clock)."""

MAX_MOVE_SECONDS = 3600
"""The longest move clock a table may ask for."""


class _Base(DeclarativeBase):
    """The schema of the extras (apart from the game record's)."""


class ExtrasRow(_Base):
    """What one table carries besides its game, as one JSON object."""

    __tablename__ = "konkun_table_extras"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)


@dataclass
class TableExtras:
    """A table's creator, options and rematch, with the seats that voted for it."""

    creator: str | None = None
    """The player id of the token that created the table (``None``: made without one)."""
    move_seconds: int = 0
    """Seconds the player to move has before a bot plays for them (0: no clock)."""
    hints: bool = True
    """Whether the seats may ask for hints."""
    rated: bool = False
    """Whether the game counts for ratings (hints off, a move clock: ``docs/ratings.md``)."""
    rematch_of: str | None = None
    """The table this one is the rematch of."""
    rematch_to: str | None = None
    """The table that is this one's rematch, once it started."""
    rematch_votes: set[int] = field(default_factory=set)
    """The seats that asked for a rematch (stored, so every server process sees them)."""
    rematch_contributions: dict[int, str] = field(default_factory=dict)
    """The contributions to the rematch's seed sent with the votes, by seat."""
    rematch_next: str | None = None
    """The id of the rematch's table, stored by the vote that completed the votes (before
    the table is made): whoever makes the rematch makes it under this id."""
    resigned: list[int] = field(default_factory=list)
    """The seats that resigned, in order (a resigned seat takes no more turns: the
    stand-in bot plays it, for nothing, while other people play on)."""
    creator_address: str | None = None
    """The client address the table was created from (admission limits; stored, so the
    per-address counts survive a restart; never shown)."""
    seat_addresses: dict[int, str] = field(default_factory=dict)
    """The client address each human seat was taken from (as ``creator_address``)."""
    stand_in_moves: dict[int, int] = field(default_factory=dict)
    """How many of each seat's moves the stand-in bot played (stored: a person replaced
    for more than ``STAND_IN_SHARE`` of her moves forfeits her rating, docs/ratings.md)."""
    ended: dict[str, Any] | None = None
    """How the match ended before its last deal: ``{"reason": "resigned" | "aborted",
    "turn": N}`` (``None``: it has not, or it ended by its rules)."""
    rematch_seed: str | None = field(default_factory=new_server_seed)
    """The secret server seed the rematch will be dealt from, drawn with this table so that
    its commitment is published (``rematch.commitment``) before any vote sends a
    contribution for it (``None``: a table stored before rematches were committed)."""

    def stored(self) -> dict[str, Any]:
        """The extras as stored."""
        data = asdict(self)
        data["rematch_votes"] = sorted(self.rematch_votes)
        data["rematch_contributions"] = {str(seat): value for seat, value
                                         in sorted(self.rematch_contributions.items())}
        data["seat_addresses"] = {str(seat): value for seat, value
                                  in sorted(self.seat_addresses.items())}
        data["stand_in_moves"] = {str(seat): value for seat, value
                                  in sorted(self.stand_in_moves.items())}
        return data

    @classmethod
    def from_stored(cls, data: dict[str, Any] | None) -> TableExtras:
        """Extras read back; a table stored before extras existed gets the defaults."""
        data = data or {}
        return cls(creator=data.get("creator"), move_seconds=int(data.get("move_seconds", 0)),
                   hints=bool(data.get("hints", True)), rated=bool(data.get("rated", False)),
                   rematch_of=data.get("rematch_of"),
                   rematch_to=data.get("rematch_to"),
                   rematch_next=data.get("rematch_next"),
                   rematch_seed=data.get("rematch_seed"),
                   rematch_votes={int(s) for s in data.get("rematch_votes", [])},
                   resigned=[int(s) for s in data.get("resigned", [])],
                   creator_address=data.get("creator_address"),
                   stand_in_moves={int(seat): int(value) for seat, value
                                   in dict(data.get("stand_in_moves", {})).items()},
                   seat_addresses={int(seat): str(value) for seat, value
                                   in dict(data.get("seat_addresses", {})).items()},
                   ended=data.get("ended"),
                   rematch_contributions={
                       int(seat): str(value)
                       for seat, value in dict(data.get("rematch_contributions", {})).items()})

    def summary(self, table: SeatedTable) -> dict[str, Any]:
        """The fields the extras add to a table's summary (``docs/protocol.md``)."""
        return {"move_seconds": self.move_seconds, "hints": self.hints, "rated": self.rated,
                "creator_seat": table.seat_of(self.creator),
                "resigned": list(self.resigned),
                "ended": self.ended_summary(),
                "rematch": {"votes": sorted(self.rematch_votes), "of": self.rematch_of,
                            "table": self.rematch_to,
                            "commitment": None if self.rematch_seed is None
                            else commitment(self.rematch_seed)}}


    def ended_summary(self) -> dict[str, Any] | None:
        """How the match ended early, as summaries and replays show it (``konkun verify``
        reads it): ``{"reason", "turn", "resigned"}``, or ``None``."""
        if self.ended is None:
            return None
        return dict(self.ended) | {"resigned": list(self.resigned)}


class ExtrasStore:
    """The extras of every table, in the database of the game record."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def save(self, table_id: str, extras: TableExtras) -> None:
        """Store (or replace) one table's extras."""
        with Session(self.engine) as session, session.begin():
            session.merge(ExtrasRow(table_id=table_id, data=extras.stored()))

    def vote_rematch(self, table_id: str, seat: int, contribution: str | None,
                     humans: set[int], reserve: str | None = None,
                     announce: Callable[[Session], None] | None = None,
                     ) -> tuple[TableExtras, bool]:
        """Add ``seat``'s rematch vote (and its ``contribution``) to the stored extras,
        the row locked meanwhile, so that votes through two server processes at one
        instant both count; return the extras now stored and whether this vote is the
        one that completed the ``humans``' votes (exactly one vote is: it starts the
        rematch). That vote also stores ``reserve`` as the rematch's table id
        (``rematch_next``). ``announce`` is called in the transaction (the other
        processes learn of the vote exactly when it is stored)."""
        with Session(self.engine) as session, session.begin():
            row, extras = self._locked(session, table_id)
            complete_before = humans <= extras.rematch_votes
            extras.rematch_votes.add(seat)
            if contribution is not None:
                extras.rematch_contributions[seat] = contribution
            starts = not complete_before and humans <= extras.rematch_votes \
                and extras.rematch_to is None
            if starts and extras.rematch_next is None:
                extras.rematch_next = reserve
            self._replace(session, row, table_id, extras)
            if announce is not None:
                announce(session)
        return extras, starts

    def set_rematch_to(self, table_id: str, rematch: str) -> TableExtras:
        """Store where the table's rematch is (the row locked: no vote is overwritten)."""
        with Session(self.engine) as session, session.begin():
            row, extras = self._locked(session, table_id)
            extras.rematch_to = rematch
            self._replace(session, row, table_id, extras)
        return extras

    @staticmethod
    def _locked(session: Session, table_id: str) -> tuple[ExtrasRow | None, TableExtras]:
        """One table's extras row, locked until ``session`` commits (``SELECT ... FOR
        UPDATE``; SQLite has one writer anyway), and its extras."""
        row = session.scalars(select(ExtrasRow).where(ExtrasRow.table_id == table_id)
                              .with_for_update()).one_or_none()
        return row, TableExtras.from_stored(row.data if row else None)

    @staticmethod
    def _replace(session: Session, row: ExtrasRow | None, table_id: str,
                 extras: TableExtras) -> None:
        if row is None:
            session.add(ExtrasRow(table_id=table_id, data=extras.stored()))
        else:
            row.data = extras.stored()  # a new object: the JSON column sees the change

    def load(self, table_id: str) -> TableExtras:
        """One table's extras (the defaults when none were stored)."""
        with Session(self.engine) as session:
            row = session.get(ExtrasRow, table_id)
            return TableExtras.from_stored(row.data if row else None)

    def load_many(self, table_ids: list[str]) -> dict[str, TableExtras]:
        """The extras of several tables, by id (only those stored)."""
        with Session(self.engine) as session:
            rows = session.scalars(select(ExtrasRow).where(ExtrasRow.table_id.in_(table_ids)))
            return {row.table_id: TableExtras.from_stored(row.data) for row in rows}

    def delete_waiting(self, table_id: str) -> bool:
        """Remove a table that never started, with its extras (it has no actions);
        whether it was still waiting (another server process may have dealt it)."""
        from konkun.server.store.storage import TableRow

        with Session(self.engine) as session, session.begin():
            gone = session.execute(delete(TableRow).where(TableRow.id == table_id,
                                                          TableRow.status == TableStatus.WAITING))
            if not getattr(gone, "rowcount", 1):
                return False
            session.execute(delete(ExtrasRow).where(ExtrasRow.table_id == table_id))
            return True


def move_seconds_of(value: object) -> int:
    """The ``move_seconds`` field of a new table: 0 (no clock) to 3600; else
    ``invalid_rule``."""
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) \
            or not 0 <= value <= MAX_MOVE_SECONDS:
        raise ProtocolError("invalid_rule", f"move_seconds must be a whole number of seconds "
                            f"0..{MAX_MOVE_SECONDS}", value)
    return value


def hints_of(value: object) -> bool:
    """The ``hints`` field of a new table: absent, hints are on (the API's old behaviour;
    the lobby page sends ``false`` by default when two or more humans sit)."""
    if value is None:
        return True
    if not isinstance(value, bool):
        raise ProtocolError("invalid_rule", "hints must be true or false", value)
    return value


class CreateOnce:
    """Remembers which table a (client, request id) pair created, for ``ttl`` seconds, so
    that a repeated ``POST /api/tables`` (a double click, a retry) gets the same table."""

    def __init__(self, ttl: float = 600.0, limit: int = 10_000) -> None:
        self.ttl = ttl
        self.limit = limit
        self._made: dict[tuple[str, str], tuple[float, str]] = {}

    def get(self, key: tuple[str, str]) -> str | None:
        """The table id made for ``key`` lately, if any."""
        found = self._made.get(key)
        if found is None or time.monotonic() - found[0] > self.ttl:
            return None
        return found[1]

    def put(self, key: tuple[str, str], table_id: str) -> None:
        """Remember that ``key`` made ``table_id``."""
        if len(self._made) >= self.limit:
            now = time.monotonic()
            self._made = {k: v for k, v in self._made.items() if now - v[0] <= self.ttl}
            if len(self._made) >= self.limit:
                self._made.clear()
        self._made[key] = (time.monotonic(), table_id)


class LifecycleTable(SeatedTable, Protocol):
    """A table as its life cycle reads it: besides its seats, its extras, its game,
    variant, rules and when it was made."""

    extras: TableExtras
    adapter: GameAdapter
    variant: str | None
    rules: dict[str, str]
    created_at: str
    actions: list[tuple[int, str]]

    @property
    def turn(self) -> int:
        """The number of actions played in the match."""


TableT = TypeVar("TableT", bound=LifecycleTable)


TableCo = TypeVar("TableCo", bound=LifecycleTable, covariant=True)
TableContra = TypeVar("TableContra", bound=LifecycleTable, contravariant=True)


class MakeTable(Protocol[TableCo]):
    """Make and store a new table (the lobby's ``create_table``)."""

    async def __call__(self, game: str, variant: str | None, num_seats: int,
                       rules: dict[str, str], bots: dict[int, str], *,
                       creator: str | None = None, move_seconds: int = 0,
                       hints: bool = True, rated: bool = False,
                       rematch_of: str | None = None,
                       table_id: str | None = None,
                       server_seed: str | None = None) -> TableCo:
        """A new table (under ``table_id`` when given, dealt from ``server_seed`` when
        given: a rematch's, committed before)."""


class FindTable(Protocol[TableCo]):
    """The table of an id, read back if needed (the lobby's ``get_table``)."""

    async def __call__(self, table_id: str, keep: bool = False) -> TableCo:
        """The table ``table_id`` (``unknown_table`` when there is none)."""


class SeatPlayers(Protocol[TableContra]):
    """Seat several players at once with their contributions, and start when full (lock
    held; :meth:`~konkun.server.tables.seats.Seating.seat_players`)."""

    async def __call__(self, table: TableContra, taken: dict[int, SeatInfo],
                       contributions: dict[int, str] | None = None) -> None:
        """Seat them."""


def closed_message(table: SeatedTable, reason: CloseReason) -> ClosedMessage:
    """``{"type": "closed", "table": id, "reason": "cancelled" | "expired"}``."""
    return {"type": "closed", "table": table.id, "reason": reason}


def human_seats(table: SeatedTable) -> set[int]:
    """The seats whose votes a rematch needs."""
    return {n for n, s in enumerate(table.seats) if s.kind == SeatKind.HUMAN}


def rematch_pending(table: LifecycleTable) -> bool:
    """Whether every vote of the table's rematch is stored but its table is not known to
    be made (the process making it may have died)."""
    extras = table.extras
    return table.status == TableStatus.FINISHED and extras.rematch_to is None \
        and extras.rematch_next is not None and human_seats(table) <= extras.rematch_votes


def announce_rematch(table: LifecycleTable) -> None:
    """Tell every connection of ``table`` where its rematch is."""
    message: RematchMessage = {"type": "rematch", "table": table.extras.rematch_to,
               "link": f"/t/{table.extras.rematch_to}"}
    for connection in list(table.connections):
        connection.send(message)


def people_moved(table: LifecycleTable) -> bool:
    """Whether a person (a human seat) has played an action at the table."""
    return any(table.seats[seat].kind == SeatKind.HUMAN for seat, _ in table.actions)


def _seated(table: LifecycleTable, guest: Guest | None, what: str) -> int:
    seat = table.seat_of(guest.player_id if guest else None)
    if seat is None:
        raise ProtocolError("not_seated", f"only a seated player can {what}", table.id)
    if table.status == TableStatus.WAITING:
        raise ProtocolError("not_started", f"table {table.id} has not started: leave or "
                            "cancel it instead", table.id)
    if table.status != TableStatus.PLAYING:
        raise ProtocolError("game_over", "the game is over", table.id)
    return seat


class Lifecycle(Generic[TableT]):
    """A table's life beyond one match (a part of the lobby): cancelling, expiry,
    rematches, resigning and aborting, each under the table's lock."""

    def __init__(self, tables: dict[str, TableT], threads: RunsInThreads,
                 extras_store: ExtrasStore, replication: Replication[TableT], *,
                 broadcast: Callable[[TableT], None],
                 end_match: Callable[[TableT], Awaitable[None]],
                 seat_players: SeatPlayers[TableT], create_table: MakeTable[TableT],
                 get_table: FindTable[TableT], new_id: Callable[[], str],
                 announce: Callable[[Session, str], None]) -> None:
        """``tables``: the lobby's tables in memory; ``replication``: reads back and tells
        the other server processes; ``broadcast``: sends every connection of a table its
        view; ``end_match``: finishes a table whose match ended early (lock held);
        ``seat_players``, ``create_table``, ``get_table``: seat a rematch's players, make
        and find a table; ``new_id``: a new table's id; ``announce``: announce a table's
        change in a storage transaction."""
        self.tables = tables
        self.threads = threads
        self.extras_store = extras_store
        self.replication = replication
        self.broadcast = broadcast
        self.end_match = end_match
        self.seat_players = seat_players
        self.create_table = create_table
        self.get_table = get_table
        self.new_id = new_id
        self.announce = announce
        self._tasks: set[asyncio.Task[Any]] = set()

    async def record_rematch_vote(self, table: TableT, seat: int, contribution: str | None,
                                  humans: set[int]) -> tuple[TableExtras, bool]:
        """Store ``seat``'s rematch vote atomically and tell the other processes; the
        extras now stored and whether this vote starts the rematch
        (:meth:`ExtrasStore.vote_rematch`)."""
        extras, starts = await self.threads.db(
            self.extras_store.vote_rematch, table.id, seat, contribution, humans,
            self.new_id(), lambda session: self.announce(session, table.id))
        return extras, starts

    async def record_rematch(self, table: TableT, rematch: str) -> None:
        """Store where ``table``'s rematch is and tell the other processes."""
        table.extras = await self.threads.db(self.extras_store.set_rematch_to, table.id,
                                             rematch)
        self.replication.tell(Announcement.TABLE, table.id)

    def rematch_if_pending(self, table: TableT) -> None:
        """Make the table's rematch if every vote is stored and no table was made (the
        process that took the last vote may have died)."""
        if rematch_pending(table):
            task = asyncio.get_running_loop().create_task(self._make_pending_rematch(table))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _make_pending_rematch(self, table: TableT) -> None:
        try:
            async with table.lock:
                if rematch_pending(table):
                    await self.make_rematch(table)
        except Exception:  # the next sweep, or the next connection, tries again
            log.warning("table %s: making its rematch failed", table.id, exc_info=True)

    def stop(self) -> None:
        """Cancel the rematches being made (the next start makes them)."""
        for task in list(self._tasks):
            task.cancel()

    async def cancel(self, table: TableT, guest: Guest | None,
                     reason: CloseReason = "cancelled") -> None:
        """Remove a waiting table: by its creator (``guest``), or by expiry (``guest`` None).
        Every connection receives ``closed`` and is closed."""
        async with table.lock:
            if guest is not None and (table.extras.creator is None
                                      or guest.player_id != table.extras.creator):
                raise ProtocolError("not_creator", "only the player who created this table "
                                    "may cancel it", table.id)
            if table.status != TableStatus.WAITING:
                raise ProtocolError("not_waiting", f"table {table.id} has already started; "
                                    "it cannot be cancelled", table.id)
            try:
                deleted = await self.threads.db(self.extras_store.delete_waiting, table.id)
            except Exception as error:
                raise ProtocolError("storage", "the table could not be removed; try again") \
                    from error
            if not deleted:  # dealt meanwhile by another server process
                await self.replication.catch_up(table)
                self.broadcast(table)
                raise ProtocolError("not_waiting", f"table {table.id} has already started; "
                                    "it cannot be cancelled", table.id)
            table.status = TableStatus.CANCELLED
            self.tables.pop(table.id, None)
            self.replication.tell(Announcement.CLOSED, table.id, reason)
            for connection in list(table.connections):
                connection.close_with(closed_message(table, reason))

    async def expire_waiting(self, older_than: float) -> list[str]:
        """Cancel every waiting table created more than ``older_than`` seconds ago; return
        their ids."""
        from datetime import UTC, datetime

        now = datetime.now(UTC)
        gone = []
        for table in list(self.tables.values()):
            if table.status != TableStatus.WAITING:
                continue
            age = (now - datetime.fromisoformat(table.created_at)).total_seconds()
            if age > older_than:
                try:
                    await self.cancel(table, None, "expired")
                except ProtocolError:
                    continue
                gone.append(table.id)
        return gone

    async def vote_rematch(self, table: TableT, guest: Guest | None,
                           contribution: str | None = None) -> TableT | None:
        """Record that ``guest``'s seat wants a rematch, with its ``contribution`` to the new
        match's seed; when every human seat does, start it and return the new table (every
        connection of the old one receives ``rematch``)."""
        async with table.lock:
            seat = table.seat_of(guest.player_id if guest else None)
            if seat is None:
                raise ProtocolError("not_seated", "only a seated player can ask for a rematch")
            if table.status != TableStatus.FINISHED:
                raise ProtocolError("not_finished", "a rematch is offered once the game is over")
            if table.extras.rematch_to is not None:
                announce_rematch(table)
                return None
            humans = human_seats(table)
            checked = None if contribution is None else checked_contribution(contribution)
            table.extras, starts = await self.record_rematch_vote(table, seat, checked, humans)
            if table.extras.rematch_to is not None:  # started through another process
                announce_rematch(table)
                return None
            if not starts:
                self.broadcast(table)
                return None
            return await self.make_rematch(table)

    async def make_rematch(self, table: TableT) -> TableT | None:
        """Make the rematch whose votes are all stored, under the id the last vote stored
        (lock held); return the new table (``None``: another process is making it, or has).

        Every step can be done again after a process died in the middle of it: the table is
        made only if no table has that id, the players are seated only if they are not, and
        the stored extras are read again first, under :meth:`Replication.making_rematch`
        (on PostgreSQL a lock that dies with its process)."""
        async with self.replication.making_rematch(table) as mine:
            if not mine:
                return None
            table.extras = await self.threads.db(self.extras_store.load, table.id)
            reserved = table.extras.rematch_next
            if not rematch_pending(table) or reserved is None:
                if table.extras.rematch_to is not None:
                    announce_rematch(table)
                    self.broadcast(table)
                return None
            humans = human_seats(table)
            new = await self._rematch_table(table, reserved)
            contributions = table.extras.rematch_contributions
            async with new.lock:
                if any(new.seats[n].player_id != table.seats[n].player_id for n in humans):
                    await self.seat_players(new, {n: table.seats[n] for n in humans},
                                             {n: v for n, v in contributions.items()
                                              if n in humans})
            table.extras.rematch_to = new.id
            with contextlib.suppress(Exception):  # the new table plays on; only the pointer
                await self.record_rematch(table, new.id)  # is lost
            announce_rematch(table)
            self.broadcast(table)
            return new

    async def _rematch_table(self, table: TableT,
                             reserved: str) -> TableT:
        """The rematch's table ``reserved``: made now, or read back if a process that died
        made it."""
        with contextlib.suppress(ProtocolError):
            return await self.get_table(reserved)
        return await self.create_table(
            table.adapter.name, table.variant, table.num_seats, dict(table.rules),
            {n: s.bot for n, s in enumerate(table.seats) if s.kind == SeatKind.BOT and s.bot},
            creator=table.extras.creator, move_seconds=table.extras.move_seconds,
            hints=table.extras.hints, rated=table.extras.rated, rematch_of=table.id,
            table_id=reserved, server_seed=table.extras.rematch_seed)

    async def _store_ending(self, table: TableT) -> None:
        try:
            await self.threads.db(self.extras_store.save, table.id, table.extras)
        except Exception as error:
            raise ProtocolError("storage", "the table could not be changed; try again") \
                from error

    async def resign(self, table: TableT, guest: Guest | None) -> None:
        """``guest``'s seat gives up the match: it ranks last and takes no more turns. With
        two seats, or when no other person is left playing, the match ends now; otherwise the
        stand-in bot plays the seat (for nothing) and the others play on."""
        async with table.lock:
            await self.replication.catch_up(table)
            seat = _seated(table, guest, "resign")
            if seat in table.extras.resigned:
                raise ProtocolError("resigned", f"seat {seat} has already resigned", seat)
            await self.give_up(table, [seat], "resigned")

    async def give_up(self, table: TableT, seats: list[int],
                      reason: str) -> None:
        """The ``seats`` give up the match (``reason``: ``resigned``, or ``abandoned`` by the
        abandonment policy; lock held): stored first, then the match ends when two seats
        play or no person is left, else the stand-in plays them and the others play on."""
        extras = table.extras
        before = (list(extras.resigned), extras.ended)
        extras.resigned = [*extras.resigned, *(s for s in seats if s not in extras.resigned)]
        people_left = [n for n in human_seats(table) if n not in extras.resigned]
        ends = table.num_seats == 2 or not people_left
        if ends:
            extras.ended = {"reason": reason, "turn": table.turn}
        try:
            await self._store_ending(table)
        except ProtocolError:
            extras.resigned, extras.ended = before
            raise
        if ends:
            await self.end_match(table)
        else:
            self.broadcast(table)  # brings the clock up to date: the stand-in plays them
        self.replication.tell(Announcement.TABLE, table.id)

    async def abort(self, table: TableT, guest: Guest | None) -> None:
        """End a playing table on which no person has moved yet (any seated person may): no
        winner, nobody's rating changes."""
        async with table.lock:
            await self.replication.catch_up(table)
            _seated(table, guest, "abort the table")
            if people_moved(table):
                raise ProtocolError("people_moved", f"a person has moved at table {table.id}: "
                                    "it can no longer be aborted (resign instead)", table.id)
            table.extras.ended = {"reason": "aborted", "turn": table.turn}
            try:
                await self._store_ending(table)
            except ProtocolError:
                table.extras.ended = None
                raise
            await self.end_match(table)
            self.replication.tell(Announcement.TABLE, table.id)

