"""The admission limits and the login limiter across several server processes on one
PostgreSQL database (``docs/server.md``, "Scaling out").

One process alone counts in memory (:class:`~konkun.server.features.admission.Admission`,
:class:`~konkun.server.accounts.accounts.LoginLimiter`); with N processes a client would get N
times its allowance. Two mechanisms make the limits the cluster's:

- :class:`LoginLog`: the login attempts are rows in the database, counted when they start
  and added in one transaction under advisory locks on their keys (the address's, and the
  account-and-address pair's), so attempts through several processes at one instant are
  counted one after another. A login is rare and costs a password hash anyway: one more
  query is cheap. Each process still checks its own memory first and refuses at once past
  the limit (no query). The verifications of one account running at once are rows of the
  same table too (:meth:`LoginLog.hold`), leases that end with the check or, for a
  process that died holding one, after :attr:`LoginRules.lease` seconds.
- :class:`ClusterCounts`: each process announces its connections counted per address and
  per player, and the tables and seats it holds or is making by identity (a table's id, a
  seat's table and number) under their per-address and per-player keys, whenever they
  change (``n`` announcements of :mod:`.cluster`). Every process adds the others'
  connection counts to its own, and counts the union of the tables and seats its own
  tables show with those the others announce: each process follows every table from the
  database, so one table or seat is often both, and counts once. The check stays in
  memory; an announcement reaches the others within milliseconds, so only connections
  that arrive through different processes within that window can pass together. A
  process gone silent stops counting with its heartbeat. A new table or seat closes
  that window (:meth:`konkun.server.features.replication.Replication.admitted`): it is
  checked under a lock per address and player, once everything announced before has
  arrived, and announced by its identity before the lock is released.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from sqlalchemy import Float, Integer, String, delete, func, select, text
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from konkun.server.core.loginlimit import (
    LoginRules,
    address_key,
    busy,
    limited,
    pair_key,
    running_key,
)

MAX_PAYLOAD = 7000
"""Bytes of counts per announcement (``NOTIFY`` takes 8000)."""


class _Base(DeclarativeBase):
    """The schema of the login log (apart from the game record's)."""


class LoginEventRow(_Base):
    """One login attempt from an address, or one failure of an account."""

    __tablename__ = "konkun_login_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(200), index=True)
    """``address:<address>``, ``pair:<address>|<skeleton>`` (an attempt), or
    ``running:<skeleton>`` (a verification of that account running now)."""
    at: Mapped[float] = mapped_column(Float)
    """Seconds since the epoch (when the attempt or the verification started)."""


class LoginLog:
    """The login limiter's windows (:mod:`konkun.server.core.loginlimit`), in the database every
    process shares: an attempt is a row, added when it starts."""

    def __init__(self, engine: Engine, clock: Callable[[], float] = time.time,
                 rules: LoginRules | None = None) -> None:
        self.engine = engine
        self._clock = clock
        self.rules = rules or LoginRules()

    def begin(self, account: str | None, address: str) -> None:
        """Count one attempt from ``address`` (on ``account``, or on none: a claim);
        ``login_limited`` (nothing counted) when the pair or the address must wait.
        Atomic against attempts through other processes."""
        now = self._clock()
        source = address_key(address)
        pair = pair_key(account, address) if account is not None else None
        keys = [k for k in (source, pair) if k is not None]
        rules = self.rules
        with Session(self.engine) as session, session.begin():
            if self.engine.dialect.name == "postgresql":
                for key in sorted(keys):  # one lock order: two checks never wait on each other
                    session.execute(text("SELECT pg_advisory_xact_lock("
                                         "hashtextextended(:k, 0))"), {"k": key})
            session.execute(delete(LoginEventRow).where(LoginEventRow.key.in_(keys),
                                                        LoginEventRow.at <= now - rules.window))
            wait = rules.address_wait(self._times(session, source), now)
            if pair is not None:
                wait = max(wait, rules.pair_wait(self._times(session, pair), now))
            if wait > 0:
                raise limited(wait)
            session.add_all([LoginEventRow(key=key, at=now) for key in keys])

    @staticmethod
    def _times(session: Session, key: str) -> list[float]:
        """The attempts under ``key``, oldest first."""
        return [float(t) for t in session.scalars(
            select(LoginEventRow.at).where(LoginEventRow.key == key)
            .order_by(LoginEventRow.at)).all()]

    def hold(self, account: str, address: str) -> int | None:
        """Take one of the verifications of ``account`` allowed at once in every process
        (:attr:`LoginRules.per_account_at_once`) for a check from ``address``: the id of
        its lease, to give back with :meth:`release`; ``login_limited`` (nothing held)
        when all are taken. An address that has not tried the account in the window (the
        owner after her last right password) is not bounded: ``None``, no lease. A lease
        older than :attr:`LoginRules.lease` seconds no longer counts (a process that died
        holding it). The lease is written before the others are counted, under an advisory
        lock on PostgreSQL; on SQLite the write takes the database's write lock, so two
        holds are counted one after another there too."""
        now = self._clock()
        key = running_key(account)
        with Session(self.engine) as session, session.begin():
            if self.engine.dialect.name == "postgresql":
                session.execute(text("SELECT pg_advisory_xact_lock(hashtextextended(:k, 0))"),
                                {"k": key})
            tried = session.scalar(select(func.count()).where(
                LoginEventRow.key == pair_key(account, address),
                LoginEventRow.at > now - self.rules.window))
            if not tried:
                return None
            lease = LoginEventRow(key=key, at=now)
            session.add(lease)
            session.flush()
            session.execute(delete(LoginEventRow).where(
                LoginEventRow.key == key, LoginEventRow.at <= now - self.rules.lease))
            running = session.scalar(select(func.count()).where(LoginEventRow.key == key))
            if int(running or 0) > self.rules.per_account_at_once:
                raise busy()
            return int(lease.id)

    def release(self, lease: int) -> None:
        """Give back a verification taken by :meth:`hold`."""
        with Session(self.engine) as session, session.begin():
            session.execute(delete(LoginEventRow).where(LoginEventRow.id == lease))

    def succeeded(self, account: str, address: str) -> None:
        """A right password: the pair's attempts are forgotten everywhere."""
        with Session(self.engine) as session, session.begin():
            session.execute(delete(LoginEventRow).where(
                LoginEventRow.key == pair_key(account, address)))

    def count(self, key: str) -> int:
        """The events stored under ``key`` (tests)."""
        with Session(self.engine) as session:
            return int(session.scalar(select(func.count()).where(
                LoginEventRow.key == key)) or 0)


Held = tuple[str, str]
"""One table or seat under one admission key: ``(key, identity)``, the identity a table's
id (``tables:address:<a>``, ``tables:player:<p>``) or a seat's
(:func:`~konkun.server.features.admission.seat_identity`; ``seats:address:<a>``,
``seats:player:<p>``)."""


class Statement:
    """What one process announces of its admission counts: its connections counted by key,
    and the tables and seats it holds or is making, by key and identity."""

    def __init__(self, counts: dict[str, int] | None = None,
                 held: Iterable[Held] = ()) -> None:
        self.counts: dict[str, int] = dict(counts or {})
        self.held: set[Held] = set(held)


class ClusterCounts:
    """The admission counts of the other processes, and the announcing of this one's.

    Connections are counted: each process has its own, and the others' add up. Tables and
    seats are named: every process follows them all from the database, so the same table
    or seat may be both in this process's tables and announced by others (or by several);
    it counts once, as the union of the identities (:meth:`held`)."""

    def __init__(self) -> None:
        self._theirs: dict[str, Statement] = {}
        """For each other process, its last announced statement."""
        self._building: dict[str, Statement] = {}
        """For each other process telling everything, the statement told so far (it
        replaces the last one when complete)."""
        self._total: dict[str, int] = {}
        """The others' connection counts summed, by key."""
        self._holders: dict[str, dict[str, int]] = {}
        """By key, the identities the others announce, each with how many announce it."""
        self._announced = Statement()
        """This process's statement as last announced."""

    def others(self, key: str) -> int:
        """How many connections the other processes count under ``key``."""
        return self._total.get(key, 0)

    def held(self, key: str) -> set[str]:
        """The identities of the tables or seats the other processes announce under
        ``key``."""
        return set(self._holders.get(key, ()))

    def received(self, origin: str, payload: str) -> None:
        """Another process's announcement (a ``n`` announcement): changes to its
        statement, or one part of its whole statement (applied when the last part
        comes, so that a check never sees half of it)."""
        try:
            part = _Part.parse(payload)
        except (ValueError, TypeError, KeyError):
            return
        if not part.everything:
            self._apply(origin, part.statement, part.removed)
            return
        building = self._building.setdefault(origin, Statement())
        building.counts.update(part.statement.counts)
        building.held |= part.statement.held
        if part.last:
            whole = self._building.pop(origin)
            old = self._theirs.get(origin, Statement())
            gone = {k: 0 for k in old.counts if k not in whole.counts}
            self._apply(origin, Statement(whole.counts | gone, whole.held),
                        old.held - whole.held)

    def _apply(self, origin: str, changes: Statement, removed: Iterable[Held]) -> None:
        """Apply one process's changed counts, then its added and removed identities."""
        theirs = self._theirs.setdefault(origin, Statement())
        for key, count in changes.counts.items():
            self._add(key, count - theirs.counts.get(key, 0))
            if count:
                theirs.counts[key] = count
            else:
                theirs.counts.pop(key, None)
        for entry in changes.held - theirs.held:
            theirs.held.add(entry)
            holders = self._holders.setdefault(entry[0], {})
            holders[entry[1]] = holders.get(entry[1], 0) + 1
        for entry in set(removed) & theirs.held:
            theirs.held.discard(entry)
            self._drop_holder(entry)

    def _drop_holder(self, entry: Held) -> None:
        key, identity = entry
        holders = self._holders.get(key, {})
        left = holders.get(identity, 0) - 1
        if left > 0:
            holders[identity] = left
        else:
            holders.pop(identity, None)
            if not holders:
                self._holders.pop(key, None)

    def forget(self, origin: str) -> None:
        """A process gone silent: its counts and identities no longer count."""
        self._building.pop(origin, None)
        theirs = self._theirs.pop(origin, Statement())
        for key, count in theirs.counts.items():
            self._add(key, -count)
        for entry in theirs.held:
            self._drop_holder(entry)

    def _add(self, key: str, delta: int) -> None:
        total = self._total.get(key, 0) + delta
        if total > 0:
            self._total[key] = total
        else:
            self._total.pop(key, None)

    def changes(self, mine: Statement, everything: bool = False) -> Iterator[str]:
        """The announcements (JSON texts) of what changed in this process's statement since
        the last call; ``everything``: the whole statement, which replaces the last one
        the others heard (for a process that just joined, or one that missed some)."""
        before = self._announced
        self._announced = Statement(mine.counts, mine.held)
        if everything:
            yield from _parts(mine.counts.items(), sorted(mine.held), [], everything=True)
            return
        counts = {k: v for k, v in mine.counts.items() if before.counts.get(k) != v}
        counts.update({k: 0 for k in before.counts if k not in mine.counts})
        # the added ones first: a check between two parts counts one too many, never too few
        yield from _parts(counts.items(), sorted(mine.held - before.held),
                          sorted(before.held - mine.held), everything=False)


class _Part:
    """One announcement: ``{"c": {key: count}, "+": [[key, identity]], "-": [...]}``, with
    ``"all": 1`` in each part of a whole statement and ``"end": 1`` in its last part."""

    def __init__(self, statement: Statement, removed: list[Held], everything: bool,
                 last: bool) -> None:
        self.statement = statement
        self.removed = removed
        self.everything = everything
        self.last = last

    @classmethod
    def parse(cls, payload: str) -> _Part:
        """The announcement in ``payload`` (``ValueError``, ``TypeError`` or ``KeyError``
        when malformed)."""
        data = json.loads(payload)
        if not isinstance(data, dict):
            raise TypeError("an announcement of counts is an object")
        counts = {str(k): int(v) for k, v in dict(data.get("c", {})).items()}
        return cls(Statement(counts, _entries(data.get("+", []))), _entries(data.get("-", [])),
                   bool(data.get("all")), bool(data.get("end")))


def _entries(value: object) -> list[Held]:
    if not isinstance(value, list):
        raise TypeError("identities are a list")
    entries = []
    for item in value:
        if not isinstance(item, list) or len(item) != 2:
            raise TypeError("an identity is [key, identity]")
        entries.append((str(item[0]), str(item[1])))
    return entries


def _parts(counts: Iterable[tuple[str, int]], added: Iterable[Held],
           removed: Iterable[Held], everything: bool) -> Iterator[str]:
    """The announcements of these changes, each within :data:`MAX_PAYLOAD` bytes; a whole
    statement (``everything``) is announced even when empty."""
    items: list[tuple[str, tuple[str, Any]]] = [("c", item) for item in counts]
    items += [("+", entry) for entry in added]
    items += [("-", entry) for entry in removed]
    chunks: list[list[tuple[str, tuple[str, Any]]]] = [[]]
    size = 0
    for field, item in items:
        entry = len(json.dumps(item)) + 4
        if chunks[-1] and size + entry > MAX_PAYLOAD - 40:  # 40: the fields' names
            chunks.append([])
            size = 0
        chunks[-1].append((field, item))
        size += entry
    if chunks == [[]] and not everything:
        return
    for number, chunk in enumerate(chunks):
        yield _text(chunk, everything, last=number == len(chunks) - 1)


def _text(chunk: list[tuple[str, tuple[str, Any]]], everything: bool, last: bool) -> str:
    data: dict[str, Any] = {}
    for field, (key, value) in chunk:
        if field == "c":
            data.setdefault("c", {})[key] = value
        else:
            data.setdefault(field, []).append([key, value])
    if everything:
        data["all"] = 1
        if last:
            data["end"] = 1
    return json.dumps(data, separators=(",", ":"))


def local_counts(connections: Iterable[tuple[str, str | None]]) -> dict[str, int]:
    """This process's connections (address, player) counted by key."""
    counts: dict[str, int] = {}
    for address, player in connections:
        for key in ("conn:address:" + address,) + (() if player is None
                                                   else ("conn:player:" + player,)):
            counts[key] = counts.get(key, 0) + 1
    return counts
