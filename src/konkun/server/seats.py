"""Seats (:class:`Seats`): taking and leaving a seat while a table waits, and dealing
when the last one is taken."""

from __future__ import annotations

from konkun.cards import new_secret_seed
from konkun.server.auth import Guest
from konkun.server.botloop import BotLoop
from konkun.server.protocol import ProtocolError
from konkun.server.storage import now_text
from konkun.server.table import SeatInfo, Table


class Seats(BotLoop):
    """Seat players at a waiting table and start it when no seat is empty."""

    async def sit(self, table: Table, guest: Guest, seat: int, address: str = "?") -> None:
        """Seat ``guest`` at ``seat``; the game starts when the last seat is taken.
        The seat counts against the limits of the player and of ``address``."""
        async with table.lock:
            if table.status != "waiting":
                raise ProtocolError("not_waiting", f"table {table.id} has already started",
                                    seat)
            if isinstance(seat, bool) or not isinstance(seat, int) \
                    or not 0 <= seat < table.num_seats:
                raise ProtocolError("bad_seat", f"seat {seat!r} is out of range "
                                    f"0..{table.num_seats - 1}", seat)
            held = table.seat_of(guest.player_id)
            if held is not None:
                raise ProtocolError("seat_taken", f"you already sit at seat {held}", seat)
            if table.seats[seat].kind != "empty":
                raise ProtocolError("seat_taken", f"seat {seat} is taken", seat)
            self.admission.check_seat(self.tables.values(), guest.player_id, address)
            seats = list(table.seats)
            seats[seat] = SeatInfo(kind="human", player_id=guest.player_id,
                                   name=guest.nickname)
            await self._store_seats(table, seats)
            table.seats = seats
            table.seat_addresses[seat] = address
            if not await self._start_if_full(table):
                self.broadcast(table)

    async def leave(self, table: Table, guest: Guest) -> None:
        """Free the seat ``guest`` holds while the table waits."""
        async with table.lock:
            if table.status != "waiting":
                raise ProtocolError("not_waiting", f"table {table.id} has already started; "
                                    "a seat cannot be left during the game")
            held = table.seat_of(guest.player_id)
            if held is None:
                raise ProtocolError("not_seated", "you hold no seat at this table")
            seats = list(table.seats)
            seats[held] = SeatInfo()
            await self._store_seats(table, seats)
            table.seats = seats
            table.seat_addresses.pop(held, None)
            self.broadcast(table)

    async def seat_players(self, table: Table, taken: dict[int, SeatInfo]) -> None:
        """Seat several players at once (a rematch) and start when full (lock held)."""
        seats = list(table.seats)
        for number, seat in taken.items():
            seats[number] = SeatInfo(kind=seat.kind, player_id=seat.player_id,
                                     name=seat.name, bot=seat.bot)
        await self._store_seats(table, seats)
        table.seats = seats
        if not await self._start_if_full(table):
            self.broadcast(table)

    async def _store_seats(self, table: Table, seats: list[SeatInfo]) -> None:
        try:
            await self._db(self.storage.update_table, table.id,
                           {"seats": [s.stored() for s in seats]})
        except Exception as error:
            raise ProtocolError("storage", "the seat could not be stored; try again") \
                from error

    async def _start_if_full(self, table: Table) -> bool:
        """Deal when no seat is empty (call with the table's lock held)."""
        if table.status != "waiting" or any(s.kind == "empty" for s in table.seats):
            return False
        seed = new_secret_seed()
        match = table.adapter.new_match(table.rules_value, table.num_seats, seed)
        bots = table.new_bots()
        try:
            await self._db(self.storage.update_table, table.id,
                           {"seed": seed, "status": "playing", "started_at": now_text()})
        except Exception as error:
            raise ProtocolError("storage", "the game could not be started; try again") \
                from error
        table.seed, table.match, table.bots, table.status = seed, match, bots, "playing"
        self.broadcast(table)
        self._schedule_bots(table)
        return True

