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
- :class:`ClusterCounts`: each process announces its own counts (connections per address
  and per player, tables and seats per address) whenever they change (``n``
  announcements of :mod:`.cluster`), and every process adds the others' last counts to
  its own when it checks. The check stays in memory; a count reaches the others within
  milliseconds, so only requests that arrive through different processes within that
  window can pass together. A process gone silent stops counting with its heartbeat.
  A new table or seat closes that window
  (:meth:`konkun.server.features.replication.Replication.admitted`):
  it is checked under a lock per address and player, once every count announced before
  has arrived, and counted and announced before the lock is released.

The per-player table and seat limits count the open tables every process holds, with
their creators and their seats' players, plus the ones being made elsewhere.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Iterator

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


class ClusterCounts:
    """The admission counts of the other processes, and the announcing of this one's."""

    def __init__(self) -> None:
        self._theirs: dict[str, dict[str, int]] = {}
        """For each other process, its last announced counts by key."""
        self._total: dict[str, int] = {}
        """The others' counts summed, by key."""
        self._announced: dict[str, int] = {}
        """This process's counts as last announced."""

    def others(self, key: str) -> int:
        """What the other processes count under ``key``."""
        return self._total.get(key, 0)

    def received(self, origin: str, payload: str) -> None:
        """Another process's changed counts (an ``n`` announcement)."""
        try:
            changes = {str(k): int(v) for k, v in dict(json.loads(payload)).items()}
        except (ValueError, TypeError):
            return
        theirs = self._theirs.setdefault(origin, {})
        for key, count in changes.items():
            self._add(key, count - theirs.get(key, 0))
            if count:
                theirs[key] = count
            else:
                theirs.pop(key, None)

    def forget(self, origin: str) -> None:
        """A process gone silent: its counts no longer count."""
        for key, count in self._theirs.pop(origin, {}).items():
            self._add(key, -count)

    def _add(self, key: str, delta: int) -> None:
        total = self._total.get(key, 0) + delta
        if total > 0:
            self._total[key] = total
        else:
            self._total.pop(key, None)

    def changes(self, mine: dict[str, int], everything: bool = False) -> Iterator[str]:
        """The announcements (JSON texts) of what changed in this process's counts since
        the last call (``everything``: all of them, for a process that just joined)."""
        before = {} if everything else self._announced
        changed = {k: v for k, v in mine.items() if before.get(k) != v}
        changed.update({k: 0 for k in before if k not in mine})
        self._announced = dict(mine)
        yield from _chunks(changed.items())


def _chunks(items: Iterable[tuple[str, int]]) -> Iterator[str]:
    chunk: dict[str, int] = {}
    size = 2
    for key, count in items:
        entry = len(json.dumps(key)) + len(str(count)) + 2
        if chunk and size + entry > MAX_PAYLOAD:
            yield json.dumps(chunk, separators=(",", ":"))
            chunk, size = {}, 2
        chunk[key] = count
        size += entry
    if chunk:
        yield json.dumps(chunk, separators=(",", ":"))


def local_counts(connections: Iterable[tuple[str, str | None]],
                 tables: Iterable[str | None], seats: Iterable[str]) -> dict[str, int]:
    """This process's counts by key: its connections (address, player), the addresses
    that created its open tables and took their seats through it."""
    counts: dict[str, int] = {}

    def add(key: str) -> None:
        counts[key] = counts.get(key, 0) + 1

    for address, player in connections:
        add("conn:address:" + address)
        if player is not None:
            add("conn:player:" + player)
    for creator in tables:
        if creator is not None:
            add("tables:address:" + creator)
    for address in seats:
        add("seats:address:" + address)
    return counts
