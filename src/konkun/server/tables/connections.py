"""Connections and broadcast (:class:`Broadcaster`, a part of the lobby): who watches a
table, and the broadcast that sends every connection its own seat's view
(``Match.to_json(seat)``), a spectator the view of no seat, so no message carries a card
its receiver may not see."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, cast

from konkun.server.core.auth import Guest
from konkun.server.core.connection import Connection, compact_json
from konkun.server.core.kinds import TableStatus
from konkun.server.core.outbound import LastAction, StateMessage, TableSummary, View
from konkun.server.core.stagetimes import current_move, timed
from konkun.server.features.admission import Admission
from konkun.server.features.ports import let_go
from konkun.server.tables.table import PRESENCE_DELAY, Table


class Broadcaster:
    """Attach, identify and detach a table's connections, and broadcast its state."""

    def __init__(self, tables: dict[str, Table], admission: Admission, *,
                 connections_changed: Callable[[Table], None],
                 broadcasted: Callable[[Table], None]) -> None:
        """``tables``: the lobby's tables (a finished one nobody watches leaves; the
        connection limits count them); ``connections_changed``: a connection came, left or
        named its player (other server processes are told); ``broadcasted``: called after
        each broadcast (the stored clock)."""
        self.tables = tables
        self.admission = admission
        self.before_broadcast: list[Callable[[Table], None]] = []
        """Called with the table before each broadcast (the move clock looks at it; it
        is built after the broadcast it uses, so it adds itself here)."""
        self.connections_changed = connections_changed
        self.broadcasted = broadcasted
        self.connections = 0
        """The connections attached, over every table."""

    def attach(self, table: Table, connection: Connection) -> None:
        """Add a connection to a table (checks the admission limits) and send it the state.

        The others learn of it at once, unless connections changed often lately: then in
        one coalesced state at most ``PRESENCE_DELAY`` later (or with the next move), so
        reconnect churn costs one broadcast a window, not one a cycle."""
        self.admission.check_connection(self.tables.values(), table, connection)
        table.connections.add(connection)
        self.connections += 1
        self.connections_changed(table)
        if self._presence_changed(table):
            self.broadcast(table)
            return
        table.presence_frozen = True
        try:
            self.broadcast(table)  # the others' states are unchanged: only the new one's goes
        finally:
            table.presence_frozen = False

    def identify(self, table: Table, connection: Connection, guest: Guest) -> None:
        """A spectator's ``hello`` named ``guest``: the connection becomes that player's
        (her seat's view, if she holds one), within her own connection limit."""
        table.connections.discard(connection)
        try:
            probe = Connection(guest, connection.bucket, connection.address)
            self.admission.check_connection(self.tables.values(), table, probe)
        finally:
            table.connections.add(connection)
        connection.guest = guest
        connection.last_text = None
        self.connections_changed(table)
        if self._presence_changed(table):
            self.broadcast(table)
            return
        table.broadcast_only = connection
        try:
            self.broadcast(table)
        finally:
            table.broadcast_only = None

    def detach(self, table: Table, connection: Connection) -> None:
        """Remove a connection; a finished table nobody watches leaves memory."""
        if connection not in table.connections:
            return
        table.connections.discard(connection)
        self.connections -= 1
        connection.close()
        self.connections_changed(table)
        if table.status == TableStatus.FINISHED and not table.connections:
            let_go(self.tables, table)
        elif self._presence_changed(table):
            self.broadcast(table)

    def _presence_changed(self, table: Table) -> bool:
        """Whether the table's new connections may be broadcast now (a few at once, then
        one per ``PRESENCE_DELAY``); if not, one broadcast is scheduled at the end of the
        window, for any number of changes."""
        if table.presence_flush is not None:
            return False
        if table.presence_bucket.take():
            return True
        table.presence_flush = asyncio.get_running_loop().call_later(
            PRESENCE_DELAY, self._flush_presence, table)
        return False

    def _flush_presence(self, table: Table) -> None:
        table.presence_flush = None
        self.broadcast(table)

    def catch_up(self, table: Table, connection: Connection) -> None:
        """Send ``connection`` the table's state now if it differs from the last one it
        got (a ``ping`` calls this, so a ``pong`` still follows every state before it,
        including connects not yet broadcast)."""
        if table.presence_flush is None:
            return
        table.broadcast_only = connection
        try:
            self.broadcast(table)
        finally:
            table.broadcast_only = None

    def state_message(self, table: Table, seat: int | None,
                      summary: dict[str, Any]) -> StateMessage:
        """The ``state`` message for one seat (``None``: a spectator), with the table's
        ``summary`` (the summary, the engine's view and the last action are plain dicts
        here; the tests check them against :class:`StateMessage`'s parts)."""
        return {"type": "state", "table": cast("TableSummary", summary), "you": seat,
                "turn": table.turn, "view": cast("View | None", table.view(seat)),
                "last": cast("LastAction | None", table.last)}

    def broadcast(self, table: Table) -> None:
        """Send every connection of the table its own seat's state."""
        with timed("broadcast"):
            self._broadcast(table)
        if table.broadcast_only is None:
            table.unshown = False
        self.broadcasted(table)

    @staticmethod
    def _players_first(table: Table, only: Connection | None) \
            -> list[tuple[int | None, Connection]]:
        """The connections to send to with their seats, seated players' first: their
        writers then run before any spectator's, however many spectators watch."""
        targets = [(table.seat_of(c.player_id), c)
                   for c in ([only] if only is not None else table.connections)]
        targets.sort(key=lambda target: target[0] is None)
        return targets

    def _broadcast(self, table: Table) -> None:
        trace = current_move()
        for look in self.before_broadcast:
            look(table)
        if not table.connections:
            return
        only = table.broadcast_only
        if only is not None:
            summary = table.summary()
        else:
            if not table.presence_frozen or table.shown_presence is None:
                table.shown_presence = table.presence()
                if table.presence_flush is not None:  # this broadcast shows the news
                    table.presence_flush.cancel()
                    table.presence_flush = None
            summary = table.summary(table.shown_presence)
        texts: dict[int | None, str] = {}
        for seat, connection in self._players_first(table, only):
            if seat not in texts:
                with timed("encode"):
                    texts[seat] = compact_json(self.state_message(table, seat, summary))
            if connection.last_text != texts[seat]:
                connection.last_text = texts[seat]
                connection.send_text(texts[seat])
                if trace is not None and connection is trace.connection:
                    connection.traced = trace.queued(texts[seat])
