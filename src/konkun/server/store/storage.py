"""Storage: tables and their actions in any SQLAlchemy database (SQLite by default).

The game record is the source of truth. A table row holds the game, variant, rules, seats,
the secret seed and the status; the ``actions`` table is append-only, one row per accepted
action, numbered from 0 within its table (the pair is the primary key, so two writers can
never store two different actions at one turn). Everything else (the match, every view) is
rebuilt by replaying the actions.

All methods are synchronous and short; the server runs them in one storage thread so that
the event loop never waits on the disk.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    ForeignKey,
    Integer,
    String,
    create_engine,
    delete,
    event,
    false,
    func,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker
from sqlalchemy.pool import StaticPool

from konkun.server.core.announcements import Announcement
from konkun.server.core.auth import make_private_dir
from konkun.server.core.kinds import TableStatus
from konkun.server.core.protocol import ProtocolError
from konkun.server.migrations import upgrade_schema

CHANNEL = "konkun"
"""The PostgreSQL ``NOTIFY`` channel on which a change to a table is announced
(:mod:`konkun.server.cluster.bus`)."""


class TurnTakenError(ProtocolError):
    """Another writer (another server process) stored an action at this turn first."""

    def __init__(self, table_id: str, turn: int) -> None:
        super().__init__("stale_turn", f"turn {turn} of table {table_id} was just played; "
                         "the state has moved on", turn)


@dataclass(frozen=True)
class PendingAction:
    """An accepted action waiting to be stored (:meth:`Storage.append_actions`)."""

    table_id: str
    turn: int
    seat: int
    action: str
    stand_in: bool = False
    """Whether the stand-in bot played it for the seat's absent person."""


def now_text() -> str:
    """The current UTC time as ISO 8601 text (seconds)."""
    return datetime.now(UTC).isoformat(timespec="seconds")


class Base(DeclarativeBase):
    """The declarative base of the konkun schema."""


class TableRow(Base):
    """One table: what it plays, who sits where, its secret seed and its status."""

    __tablename__ = "konkun_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    variant: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rules: Mapped[dict[str, str]] = mapped_column(JSON)
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    seed: Mapped[str | None] = mapped_column(String(128), nullable=True)
    status: Mapped[str] = mapped_column(String(16), index=True)
    created_at: Mapped[str] = mapped_column(String(40))
    started_at: Mapped[str | None] = mapped_column(String(40), nullable=True)
    finished_at: Mapped[str | None] = mapped_column(String(40), nullable=True)
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    totals: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)


class ActionRow(Base):
    """One accepted action of a table, in order (``turn`` 0, 1, 2, ...)."""

    __tablename__ = "konkun_actions"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("konkun_tables.id"), primary_key=True)
    turn: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(512))
    played_at: Mapped[str] = mapped_column(String(40))
    stand_in: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Whether the stand-in bot played it (revision 0010; older actions: false)."""


class RevokedRow(Base):
    """A revoked token session: its tokens and their renewals no longer verify."""

    __tablename__ = "konkun_revoked"

    session: Mapped[str] = mapped_column(String(64), primary_key=True)
    revoked_at: Mapped[str] = mapped_column(String(40))


@dataclass
class StoredTable:
    """A table as read back from the database, with its actions in order."""

    id: str
    game: str
    variant: str | None
    rules: dict[str, str]
    seats: list[dict[str, Any]]
    seed: str | None
    status: str
    created_at: str
    started_at: str | None = None
    finished_at: str | None = None
    winner: int | None = None
    totals: list[int] | None = None
    actions: list[tuple[int, str]] = field(default_factory=list)
    """(seat, action text) for each turn, in order (empty when read without them)."""
    num_actions: int = 0
    """How many actions the table has stored."""
    stand_in_turns: frozenset[int] = frozenset()
    """The actions read back that the stand-in bot played, numbered from 1 as
    ``last.turn`` (action ``k`` is stored at turn ``k - 1``)."""


def _stored(row: TableRow, actions: list[tuple[int, str]] | None = None,
            num_actions: int | None = None,
            stand_in_turns: frozenset[int] = frozenset()) -> StoredTable:
    return StoredTable(
        id=row.id, game=row.game, variant=row.variant, rules=dict(row.rules),
        seats=[dict(s) for s in row.seats], seed=row.seed, status=row.status,
        created_at=row.created_at, started_at=row.started_at, finished_at=row.finished_at,
        winner=row.winner, totals=list(row.totals) if row.totals is not None else None,
        actions=actions or [], stand_in_turns=stand_in_turns,
        num_actions=len(actions or []) if num_actions is None else num_actions)


def make_engine(url: str, sqlite_synchronous: str = "normal") -> Engine:
    """An engine for ``url``; SQLite files get their directory created and WAL journaling
    with ``PRAGMA synchronous=<sqlite_synchronous>`` (``normal``: a commit is in the
    operating system's hands, safe when the process is killed, without waiting for the
    disk; ``full``: also on the disk, safe against power loss), in-memory SQLite one
    shared connection (so every thread sees the same database)."""
    if sqlite_synchronous.upper() not in {"NORMAL", "FULL"}:
        raise ValueError(f"sqlite_synchronous {sqlite_synchronous!r}: expected 'normal' "
                         "or 'full'")
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True)
    database = parsed.database or ""
    if database in {"", ":memory:"} or database.startswith("file::memory:"):
        return create_engine(url, poolclass=StaticPool,
                             connect_args={"check_same_thread": False})
    path = Path(database).expanduser().resolve()
    make_private_dir(path.parent)
    if not path.exists():  # SQLite gives its -wal and -shm files the database's mode
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
    engine = create_engine(url, connect_args={"check_same_thread": False,
                                              "timeout": SQLITE_BUSY_SECONDS})

    @event.listens_for(engine, "connect")
    def _pragmas(connection: Any, _record: Any) -> None:
        cursor = connection.cursor()
        _use_wal(cursor)
        cursor.execute(f"PRAGMA synchronous={sqlite_synchronous.upper()}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    return engine


SQLITE_BUSY_SECONDS = 30.0
"""How long a SQLite connection waits for another one's lock before it gives up."""


def _use_wal(cursor: Any) -> None:
    """Switch the database to WAL journaling. On a new database the switch needs the
    database to itself, and SQLite answers "database is locked" at once, without waiting,
    while another connection holds it (a second server migrating at the same moment): so
    wait and try again, as long as a connection waits for a lock."""
    deadline = time.monotonic() + SQLITE_BUSY_SECONDS
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


class Storage:
    """The tables and actions of one database, its schema brought to the newest migration
    when it opens (:func:`konkun.server.migrations.upgrade_schema`)."""

    def __init__(self, url: str, sqlite_synchronous: str = "normal") -> None:
        self.url = url
        self.engine = make_engine(url, sqlite_synchronous)
        upgrade_schema(self.engine)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.shared = self.engine.dialect.name == "postgresql"
        """Whether several server processes may share this database (PostgreSQL): then
        every change to a table is announced on :data:`CHANNEL` in its transaction."""
        self.origin = ""
        """This process's name in the announcements (so it skips its own)."""

    def announce(self, session: Session, table_id: str,
                 kind: Announcement = Announcement.TABLE) -> None:
        """Announce a change of ``table_id`` to the other processes, delivered when
        ``session`` commits (PostgreSQL ``NOTIFY``; nothing on SQLite)."""
        if self.shared:
            session.execute(text("SELECT pg_notify(:channel, :payload)"),
                            {"channel": CHANNEL,
                             "payload": f"{kind} {self.origin} {table_id}"})

    def close(self) -> None:
        """Release the database connections."""
        self.engine.dispose()

    def _session(self) -> Session:
        return self._sessions()

    def create_table(self, table: StoredTable) -> None:
        """Store a new table."""
        with self._session() as session, session.begin():
            session.add(TableRow(
                id=table.id, game=table.game, variant=table.variant, rules=table.rules,
                seats=table.seats, seed=table.seed, status=table.status,
                created_at=table.created_at, started_at=table.started_at))
            self.announce(session, table.id)

    def update_table(self, table_id: str, values: dict[str, Any]) -> None:
        """Change some columns of a table (seats, seed, status, winner, totals, times)."""
        with self._session() as session, session.begin():
            session.execute(update(TableRow).where(TableRow.id == table_id).values(**values))
            self.announce(session, table_id)

    def compare_and_update(self, table_id: str, expect: dict[str, Any],
                           values: dict[str, Any]) -> bool:
        """Change some columns of a table only if the columns of ``expect`` hold those
        values (the row is locked meanwhile); return whether it changed. Two processes
        taking one seat, or starting one table, cannot both succeed."""
        with self._session() as session, session.begin():
            row = session.scalars(select(TableRow).where(TableRow.id == table_id)
                                  .with_for_update()).one_or_none()
            if row is None or any(getattr(row, name) != value
                                  for name, value in expect.items()):
                return False
            session.execute(update(TableRow).where(TableRow.id == table_id).values(**values))
            self.announce(session, table_id)
            return True

    def append_action(self, table_id: str, turn: int, seat: int, action: str,
                      stand_in: bool = False) -> None:
        """Store one accepted action (``stand_in``: the stand-in bot played it);
        committed when this returns. :class:`TurnTakenError` when another writer stored
        one at ``turn`` first."""
        try:
            with self._session() as session, session.begin():
                session.add(ActionRow(table_id=table_id, turn=turn, seat=seat,
                                      action=action, played_at=now_text(),
                                      stand_in=stand_in))
                session.flush()
                self.announce(session, table_id, Announcement.ACTION)
        except IntegrityError:
            if self.count_actions(table_id) > turn:
                raise TurnTakenError(table_id, turn) from None
            raise

    def append_actions(self, actions: list[PendingAction]) -> list[ProtocolError | None]:
        """Store several accepted actions in one transaction (one commit: the group
        commit of :mod:`konkun.server.store.commits`); committed when this returns. If the
        group is refused (an action at a turn already stored), each action is stored
        alone instead: the answer for each is ``None`` (stored) or its
        :class:`TurnTakenError`. Any other failure raises, nothing stored."""
        ordered = sorted(actions, key=lambda a: (a.table_id, a.turn))  # one lock order
        try:
            with self._session() as session, session.begin():
                played_at = now_text()
                session.add_all([ActionRow(table_id=a.table_id, turn=a.turn, seat=a.seat,
                                           action=a.action, played_at=played_at,
                                           stand_in=a.stand_in)
                                 for a in ordered])
                session.flush()
                for table_id in dict.fromkeys(a.table_id for a in ordered):
                    self.announce(session, table_id, Announcement.ACTION)
            return [None] * len(actions)
        except IntegrityError:
            pass
        answers: list[ProtocolError | None] = []
        for action in actions:
            try:
                self.append_action(action.table_id, action.turn, action.seat, action.action,
                                   stand_in=action.stand_in)
            except TurnTakenError as taken:
                answers.append(taken)
            else:
                answers.append(None)
        return answers

    def delete_action(self, table_id: str, turn: int) -> None:
        """Remove an action stored at ``turn`` (undo of a write whose apply failed)."""
        with self._session() as session, session.begin():
            session.execute(delete(ActionRow).where(
                ActionRow.table_id == table_id, ActionRow.turn == turn))

    def revoke(self, session: str) -> None:
        """Record a revoked token session (once: the key refuses a second record, made
        by another server process at the same instant)."""
        try:
            with self._session() as db, db.begin():
                if db.get(RevokedRow, session) is None:
                    db.add(RevokedRow(session=session, revoked_at=now_text()))
        except IntegrityError:
            pass  # revoked meanwhile by another process: recorded once

    def revoked_sessions(self) -> set[str]:
        """Every revoked token session."""
        with self._session() as db:
            return {str(s) for s in db.scalars(select(RevokedRow.session)).all()}

    def prune_bot_games(self, finished_before: str, limit: int = 500) -> list[str]:
        """Delete up to ``limit`` finished games whose every seat is a bot, finished before
        ``finished_before`` (ISO text), with their actions; return their ids. Games with
        a human seat are kept."""
        with self._session() as session, session.begin():
            rows = session.scalars(select(TableRow).where(
                TableRow.status == TableStatus.FINISHED.value,
                TableRow.finished_at < finished_before)
                .order_by(TableRow.finished_at).limit(limit * 4)).all()
            doomed = [row.id for row in rows
                      if row.seats and all(s.get("kind") == "bot" for s in row.seats)][:limit]
            if doomed:
                session.execute(delete(ActionRow).where(ActionRow.table_id.in_(doomed)))
                session.execute(delete(TableRow).where(TableRow.id.in_(doomed)))
            return doomed

    def delete_table(self, table_id: str) -> None:
        """Remove a table and its actions (an expired waiting table, a pruned bot game)."""
        with self._session() as session, session.begin():
            session.execute(delete(ActionRow).where(ActionRow.table_id == table_id))
            session.execute(delete(TableRow).where(TableRow.id == table_id))

    def load(self, table_id: str) -> StoredTable | None:
        """A table with its actions, or ``None`` when there is no such table."""
        with self._session() as session:
            row = session.get(TableRow, table_id)
            if row is None:
                return None
            actions, stand_in_turns = self._actions(session, table_id)
            return _stored(row, actions, stand_in_turns=stand_in_turns)

    def load_since(self, table_id: str, turn: int) -> StoredTable | None:
        """A table with its actions from ``turn`` on (``num_actions`` counts them all),
        or ``None`` when there is no such table: how another process catches up."""
        with self._session() as session:
            row = session.get(TableRow, table_id)
            if row is None:
                return None
            actions, stand_in_turns = self._actions(session, table_id, turn)
            return _stored(row, actions, turn + len(actions), stand_in_turns)

    def load_unfinished(self) -> list[StoredTable]:
        """Every table still waiting or playing, with its actions (for a restart)."""
        with self._session() as session:
            rows = session.scalars(select(TableRow)
                                   .where(TableRow.status != TableStatus.FINISHED.value)
                                   .order_by(TableRow.created_at)).all()
            stored = []
            for row in rows:
                actions, stand_in_turns = self._actions(session, row.id)
                stored.append(_stored(row, actions, stand_in_turns=stand_in_turns))
            return stored

    def list_tables(self, status: str, limit: int = 200, offset: int = 0) -> list[StoredTable]:
        """Tables of one status, newest first, without their actions (``limit`` of them
        from ``offset``)."""
        with self._session() as session:
            order = (TableRow.finished_at if status == TableStatus.FINISHED.value
                     else TableRow.created_at)
            rows = session.scalars(select(TableRow).where(TableRow.status == status)
                                   .order_by(order.desc(), TableRow.id)
                                   .offset(offset).limit(limit)).all()
            counts = {str(table_id): int(count) for table_id, count in session.execute(
                select(ActionRow.table_id, func.count())
                .where(ActionRow.table_id.in_([row.id for row in rows]))
                .group_by(ActionRow.table_id)).all()}
            return [_stored(row, num_actions=int(counts.get(row.id, 0))) for row in rows]

    def count_actions(self, table_id: str) -> int:
        """How many actions a table has stored."""
        with self._session() as session:
            return int(session.scalar(select(func.count()).select_from(ActionRow)
                                      .where(ActionRow.table_id == table_id)) or 0)

    @staticmethod
    def _actions(session: Session, table_id: str, since: int = 0) \
            -> tuple[list[tuple[int, str]], frozenset[int]]:
        """A table's actions from turn ``since`` on, (seat, text) in order, and which of
        them the stand-in played (numbered from 1, :attr:`StoredTable.stand_in_turns`)."""
        rows = session.execute(select(ActionRow.turn, ActionRow.seat, ActionRow.action,
                                      ActionRow.stand_in)
                               .where(ActionRow.table_id == table_id,
                                      ActionRow.turn >= since)
                               .order_by(ActionRow.turn)).all()
        return ([(int(seat), str(action)) for _turn, seat, action, _by in rows],
                frozenset(int(turn) + 1 for turn, _seat, _action, by in rows if by))


class OutageLog:
    """Logs a database outage once when it starts and once when it ends, never once per
    refused query (an outage of a few seconds would otherwise log thousands of
    tracebacks)."""

    def __init__(self, logger: logging.Logger) -> None:
        self._log = logger
        self.down = False
        self.failures = 0
        """Queries refused since the outage began."""

    def failed(self, what: str, error: BaseException) -> None:
        """A query ``what`` failed with ``error``."""
        self.failures += 1
        if not self.down:
            self.down = True
            self._log.error("database unavailable (%s failed: %s); further failures are "
                            "not logged until it recovers", what,
                            " ".join(str(error).split())[:300] or type(error).__name__,
                            exc_info=error)

    def succeeded(self) -> None:
        """A query went through."""
        if self.down:
            self._log.warning("database available again after %d refused queries",
                              self.failures)
            self.down = False
            self.failures = 0
