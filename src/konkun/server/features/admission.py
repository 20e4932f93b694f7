"""Admission control: who may connect, create a table or take a seat, and how many times.

Every limit is a :class:`~konkun.server.core.config.Settings` field (``docs/server.md``,
"Running in public"). Counts are taken from the lobby's tables and connections when a
request arrives, so nothing has to be kept in step with them:

- connections per client address and per player, besides the per-table and server caps;
  a seat's own player is always admitted to her table (only her own per-player cap
  applies), so spectators can never lock a player out of her game;
- unfinished tables created per player and per address;
- seats held at unfinished tables per player and per address (the HTTP and WebSocket
  ``sit`` alike).

Tables and seats are counted by identity (a table's id, a seat's :func:`seat_identity`):
those this process's tables show, united with those being made and, with several server
processes, those the others announce (:attr:`Admission.held_elsewhere`), so one table or
seat seen both ways counts once. The other processes' connections add up
(:attr:`Admission.others`; :mod:`konkun.server.store.clusterlimits`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from typing import Any, Protocol

from konkun.server.core.config import Settings
from konkun.server.core.kinds import SeatKind, TableStatus
from konkun.server.core.protocol import ProtocolError


class Connection(Protocol):
    """What the checks read of a connection (:class:`konkun.server.core.connection.Connection`)."""

    @property
    def player_id(self) -> str | None:
        """The connected guest's player id, if any."""
        ...

    @property
    def address(self) -> str:
        """The client's address."""
        ...


class _Seat(Protocol):
    kind: SeatKind
    player_id: str | None


class _Extras(Protocol):
    creator: str | None


class Table(Protocol):
    """What the checks read of a table (:class:`konkun.server.tables.table.Table`); written
    here so that this module does not import the tables it guards."""

    id: str
    status: TableStatus

    @property
    def creator_address(self) -> str | None:
        """The address the table was created from."""
        ...

    @property
    def seat_addresses(self) -> dict[int, str]:
        """The address each human seat was taken from."""
        ...

    @property
    def connections(self) -> Collection[Connection]:
        """The table's open connections."""
        ...

    @property
    def seats(self) -> Sequence[_Seat]:
        """The table's seats."""
        ...

    @property
    def extras(self) -> _Extras:
        """The table's options (its creator)."""
        ...

    def seat_of(self, player_id: str | None) -> int | None:
        """The seat ``player_id`` holds, if any."""
        ...


def seat_identity(table_id: str, number: int) -> str:
    """The name of seat ``number`` of table ``table_id`` in the seat counts."""
    return f"{table_id}:{number}"


def held_at(tables: Iterable[Table]) -> Iterator[tuple[str, str]]:
    """The ``(key, identity)`` pairs the unfinished ``tables`` count under: each table
    under its creator's ``tables:player:<p>`` and ``tables:address:<a>``, each human seat
    under its player's ``seats:player:<p>`` and its address's ``seats:address:<a>``."""
    for table in tables:
        if table.status not in (TableStatus.WAITING, TableStatus.PLAYING):
            continue
        if table.extras.creator is not None:
            yield "tables:player:" + table.extras.creator, table.id
        if table.creator_address is not None:
            yield "tables:address:" + table.creator_address, table.id
        for number, seat in enumerate(table.seats):
            if seat.kind != SeatKind.HUMAN:
                continue
            identity = seat_identity(table.id, number)
            if seat.player_id is not None:
                yield "seats:player:" + seat.player_id, identity
            address = table.seat_addresses.get(number)
            if address is not None:
                yield "seats:address:" + address, identity


class Admission:
    """The admission checks of one lobby; each raises a :class:`ProtocolError`."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.others: Callable[[str], int] = lambda _key: 0
        """How many connections the other server processes count under a key
        (``conn:address:<a>``, ``conn:player:<p>``); none alone."""
        self.held_elsewhere: Callable[[str], set[str]] = lambda _key: set()
        """The identities of the tables and seats counted under a key
        (``tables:address:<a>``, ``tables:player:<p>``, ``seats:address:<a>``,
        ``seats:player:<p>``) besides those the lobby's tables show: being made in this
        process, or announced by the others."""

    def _held(self, tables: Iterable[Table], key: str) -> int:
        """How many distinct tables or seats count under ``key``."""
        return len({identity for k, identity in held_at(tables) if k == key}
                   | self.held_elsewhere(key))

    def check_connection(self, tables: Iterable[Table], table: Table,
                         connection: Connection) -> None:
        """Refuse ``connection`` to ``table`` when a cap is reached (``too_many_connections``);
        the player of one of the table's seats passes every cap but her own."""
        everyone = [c for t in tables for c in t.connections]
        player = connection.player_id
        if player is not None:
            mine = sum(1 for c in everyone if c.player_id == player) \
                + self.others("conn:player:" + player)
            if mine >= self.settings.max_player_connections:
                raise ProtocolError("too_many_connections", f"you already have {mine} "
                                    "connections open; close some tabs")
        if table.seat_of(player) is not None:
            return
        if len(everyone) >= self.settings.max_connections:
            raise ProtocolError("too_many_connections", "the server is full; try later")
        if len(table.connections) >= self.settings.max_table_connections:
            raise ProtocolError("too_many_connections", f"table {table.id} has its maximum "
                                f"of {self.settings.max_table_connections} connections")
        from_address = sum(1 for c in everyone if c.address == connection.address) \
            + self.others("conn:address:" + connection.address)
        if from_address >= self.settings.max_address_connections:
            raise ProtocolError("too_many_connections", f"{from_address} connections from "
                                "your address are open; close some")

    def check_new_table(self, tables: Iterable[Table], player: str | None,
                        address: str) -> None:
        """Refuse a new table when its creator (player or address) holds too many open ones
        (``too_many_tables``)."""
        open_tables = [t for t in tables
                       if t.status in (TableStatus.WAITING, TableStatus.PLAYING)]
        if player is not None and self._held(open_tables, "tables:player:" + player) \
                >= self.settings.max_tables_per_player:
            raise ProtocolError("too_many_tables", "you already created "
                                f"{self.settings.max_tables_per_player} unfinished tables: "
                                "finish, resign or abort one (GET /api/tables/mine)",
                                details=limit("player", self.settings.max_tables_per_player))
        if self._held(open_tables, "tables:address:" + address) \
                >= self.settings.max_tables_per_address:
            raise ProtocolError("too_many_tables", "your address already created "
                                f"{self.settings.max_tables_per_address} unfinished tables",
                                details=limit("address", self.settings.max_tables_per_address))
        if len(open_tables) >= self.settings.max_tables:
            raise ProtocolError("too_many_tables", f"this server already holds "
                                f"{self.settings.max_tables} open tables; try later",
                                details=limit("server", self.settings.max_tables))

    def check_seat(self, tables: Iterable[Table], player: str, address: str) -> None:
        """Refuse one more seat when the player or the address holds too many at unfinished
        tables (``too_many_seats``)."""
        tables = list(tables)
        mine = self._held(tables, "seats:player:" + player)
        if mine >= self.settings.max_seats_per_player:
            raise ProtocolError("too_many_seats", f"you already hold {mine} seats at "
                                "unfinished tables; finish, resign or abort some "
                                "(GET /api/tables/mine)",
                                details=limit("player", self.settings.max_seats_per_player))
        ours = self._held(tables, "seats:address:" + address)
        if ours >= self.settings.max_seats_per_address:
            raise ProtocolError("too_many_seats", f"your address already holds {ours} seats "
                                "at unfinished tables",
                                details=limit("address", self.settings.max_seats_per_address))


def limit(which: str, most: int) -> dict[str, Any]:
    """The fields a limit's error adds: which limit (``player``, ``address`` or
    ``server``), its figure, and where a player finds her unfinished tables."""
    return {"limit": which, "max": most, "mine": "/#my-games"}
