"""Seating (:class:`Seating`): taking and leaving a seat while a table waits, and dealing
when the last one is taken. Built by the lobby (:mod:`konkun.server.lobby`) with what it
calls: the admission check (atomic across server processes), the catch-up with other
processes, the broadcast and the start of the bots."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager

from konkun.cards import new_secret_seed
from konkun.fairness import FairSeed
from konkun.server.accounts.accounts import AccountStore
from konkun.server.core.auth import Guest
from konkun.server.core.kinds import SeatKind, TableStatus
from konkun.server.core.protocol import ProtocolError
from konkun.server.core.seatinfo import SeatInfo
from konkun.server.features.admission import Admission, seat_identity
from konkun.server.features.fair import FairStore, TableFairness, checked_contribution
from konkun.server.features.lifecycle import ExtrasStore
from konkun.server.store.storage import Storage, now_text
from konkun.server.tables.table import Table
from konkun.server.tables.threads import Threads

log = logging.getLogger("konkun.server")


class SeatsChangedError(ProtocolError):
    """The stored seats were not those the table showed: another server process changed
    them meanwhile (the table has been read back)."""

    def __init__(self) -> None:
        super().__init__("seat_taken", "the seats changed meanwhile (another player sat "
                         "down or left); look again")


RETRIES = 3
"""Times a seat change is tried again on seats read back after another process's change."""


Admitted = Callable[[Callable[[], None], list[str], str], AbstractAsyncContextManager[None]]
"""Run an admission check (it raises a :class:`ProtocolError` to refuse), then the block
that makes what it admitted, counted under the keys by its identity meanwhile
(:meth:`konkun.server.features.replication.Replication.admitted`)."""


class Seating:
    """Seat players at a waiting table and start it when no seat is empty."""

    def __init__(self, tables: dict[str, Table], storage: Storage, threads: Threads,
                 fair_store: FairStore, admission: Admission, *, admitted: Admitted,
                 catch_up: Callable[[Table], Awaitable[bool]],
                 broadcast: Callable[[Table], None], start_bots: Callable[[Table], None],
                 counts_changed: Callable[[], None]) -> None:
        """``tables``: the lobby's tables (the admission limits count them);
        ``admitted``: the admission check of a seat; ``catch_up``: reads back what other
        server processes changed at a table (lock held); ``broadcast``: sends every
        connection of a table its view; ``start_bots``: starts a table's bots when one is
        to act; ``counts_changed``: this process's admission counts changed."""
        self.tables = tables
        self.storage = storage
        self.threads = threads
        self.fair_store = fair_store
        self.admission = admission
        self.admitted = admitted
        self.catch_up = catch_up
        self.broadcast = broadcast
        self.start_bots = start_bots
        self.counts_changed = counts_changed
        self.extras_store = ExtrasStore(storage.engine)
        self.account_store = AccountStore(storage.engine)

    async def require_account(self, player_id: str | None) -> None:
        """Refuse a guest without an account (``not_an_account``): rated tables are
        for accounts only (docs/ratings.md)."""
        if player_id is None or not await self.threads.db(self.account_store.nicknames,
                                                           [player_id]):
            raise ProtocolError("not_an_account", "rated tables are for accounts: claim "
                                "your name with a password (your account page) to play "
                                "rated games")

    async def _store_addresses(self, table: Table) -> None:
        """Store the seats' addresses with the extras (so the per-address counts survive a
        restart); the seat itself is stored already, so a failure only loses a count."""
        try:
            await self.threads.db(self.extras_store.save, table.id, table.extras)
        except Exception:
            log.warning("table %s: the seats' addresses could not be stored", table.id)

    async def sit(self, table: Table, guest: Guest, seat: int, address: str = "?",
                  contribution: str | None = None) -> None:
        """Seat ``guest`` at ``seat``; the game starts when the last seat is taken.
        The seat counts against the limits of the player and of ``address``;
        ``contribution`` is the seat's random value for the match seed (:mod:`.fair`).
        A rated table seats accounts only (``not_an_account``)."""
        if table.extras.rated:
            await self.require_account(guest.player_id)
        for attempt in range(RETRIES):
            try:
                await self._sit_once(table, guest, seat, address, contribution)
                break
            except SeatsChangedError:
                if attempt == RETRIES - 1:
                    raise
        self.counts_changed()  # the other processes learn the address's count of seats

    async def _sit_once(self, table: Table, guest: Guest, seat: int, address: str,
                        contribution: str | None) -> None:
        async with table.lock:
            if table.status != TableStatus.WAITING:
                raise ProtocolError("not_waiting", f"table {table.id} has already started",
                                    seat)
            if isinstance(seat, bool) or not isinstance(seat, int) \
                    or not 0 <= seat < table.num_seats:
                raise ProtocolError("bad_seat", f"seat {seat!r} is out of range "
                                    f"0..{table.num_seats - 1}", seat)
            held = table.seat_of(guest.player_id)
            if held is not None:
                raise ProtocolError("seat_taken", f"you already sit at seat {held}", seat)
            if table.seats[seat].kind != SeatKind.EMPTY:
                raise ProtocolError("seat_taken", f"seat {seat} is taken", seat)
            async with self.admitted(
                    lambda: self.admission.check_seat(self.tables.values(),
                                                      guest.player_id, address),
                    ["seats:address:" + address, "seats:player:" + guest.player_id],
                    seat_identity(table.id, seat)):
                await self._contribute(table, {seat: None if contribution is None
                                               else checked_contribution(contribution)})
                seats = list(table.seats)
                seats[seat] = SeatInfo(kind=SeatKind.HUMAN, player_id=guest.player_id,
                                       name=guest.nickname)
                await self._store_seats(table, seats)
                table.seats = seats
                table.seat_addresses[seat] = address
                await self._store_addresses(table)
            if not await self.start_if_full(table):
                self.broadcast(table)

    async def leave(self, table: Table, guest: Guest) -> None:
        """Free the seat ``guest`` holds while the table waits."""
        for attempt in range(RETRIES):
            try:
                await self._leave_once(table, guest)
                return
            except SeatsChangedError:
                if attempt == RETRIES - 1:
                    raise

    async def _leave_once(self, table: Table, guest: Guest) -> None:
        async with table.lock:
            if table.status != TableStatus.WAITING:
                raise ProtocolError("not_waiting", f"table {table.id} has already started; "
                                    "a seat cannot be left during the game")
            held = table.seat_of(guest.player_id)
            if held is None:
                raise ProtocolError("not_seated", "you hold no seat at this table")
            seats = list(table.seats)
            seats[held] = SeatInfo()
            await self._store_seats(table, seats)
            await self._contribute(table, {held: None})
            table.seats = seats
            table.seat_addresses.pop(held, None)
            await self._store_addresses(table)
            self.broadcast(table)
        self.counts_changed()  # the seat no longer counts in the other processes either

    async def seat_players(self, table: Table, taken: dict[int, SeatInfo],
                           contributions: dict[int, str] | None = None) -> None:
        """Seat several players at once (a rematch) with their contributions to the match
        seed, and start when full (lock held)."""
        if contributions:
            await self._contribute(table, dict(contributions))
        seats = list(table.seats)
        for number, seat in taken.items():
            seats[number] = SeatInfo(kind=seat.kind, player_id=seat.player_id,
                                     name=seat.name, bot=seat.bot)
        await self._store_seats(table, seats)
        table.seats = seats
        if not await self.start_if_full(table):
            self.broadcast(table)

    async def _contribute(self, table: Table, values: dict[int, str | None]) -> None:
        """Set (or, with ``None``, drop) the contributions of some seats, and store them."""
        current = table.fairness.fair
        if current is None or all(value is None and seat not in current.contributions
                                  for seat, value in values.items()):
            return  # no fairness data, or nothing to drop
        try:
            fair = await self.threads.db(self.fair_store.set_contributions, table.id, values)
        except Exception as error:
            raise ProtocolError("storage", "the seat could not be stored; try again") \
                from error
        table.fairness = TableFairness(fair)

    async def _store_seats(self, table: Table, seats: list[SeatInfo]) -> None:
        """Store the new seats if the stored ones are still those the table shows (another
        server process may have seated someone meanwhile: then ``seat_taken``)."""
        try:
            stored = await self.threads.db(
                self.storage.compare_and_update, table.id,
                {"status": TableStatus.WAITING.value, "seats": [s.stored() for s in table.seats]},
                {"seats": [s.stored() for s in seats]})
        except Exception as error:
            raise ProtocolError("storage", "the seat could not be stored; try again") \
                from error
        if not stored:
            await self.catch_up(table)
            self.broadcast(table)
            raise SeatsChangedError

    async def start_if_full(self, table: Table) -> bool:
        """Deal when no seat is empty (call with the table's lock held)."""
        if table.status != TableStatus.WAITING \
                or any(s.kind == SeatKind.EMPTY for s in table.seats):
            return False
        if table.fairness.fair is not None:  # with what other processes' seats sent
            table.fairness = TableFairness(await self.threads.db(self.fair_store.load, table.id))
        seed = match_seed_of(table.fairness.fair)
        match = table.adapter.new_match(table.rules_value, table.num_seats, seed)
        bots = table.new_bots()
        try:
            started = await self.threads.db(
                self.storage.compare_and_update, table.id, {"status": TableStatus.WAITING.value},
                {"seed": seed, "status": TableStatus.PLAYING.value, "started_at": now_text()})
        except Exception as error:
            raise ProtocolError("storage", "the game could not be started; try again") \
                from error
        if not started:  # another server process dealt it: play that deal
            await self.catch_up(table)
            self.broadcast(table)
            return True
        table.seed, table.match, table.bots, table.status = seed, match, bots, TableStatus.PLAYING
        table.fairness.start(table.adapter.name, match, [], table.seats)
        self.broadcast(table)
        self.start_bots(table)
        return True


def match_seed_of(fair: FairSeed | None) -> str:
    """The seed a starting table's match is dealt from: the one its fairness data derive
    (:mod:`.fair`), or a fresh secret one for a table made before fair deals."""
    return new_secret_seed() if fair is None else fair.match_seed()
