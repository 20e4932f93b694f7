"""One table (:class:`Table`): its game, seats, status, match, stored actions and
connections, and its summary as the lobby and every client see it (``docs/protocol.md``)."""

from __future__ import annotations

import asyncio
import secrets
import string
from typing import Any

from konkun.game import Match
from konkun.server.core.botseats import BotSeat
from konkun.server.core.connection import Connection
from konkun.server.core.games import GameAdapter
from konkun.server.core.kinds import SeatKind, TableStatus
from konkun.server.core.ratelimit import TokenBucket
from konkun.server.core.seatinfo import SeatInfo
from konkun.server.features.clock import SeatClock
from konkun.server.features.fair import TableFairness
from konkun.server.features.lifecycle import TableExtras, people_moved
from konkun.server.store.storage import StoredTable

_ID_ALPHABET = string.ascii_lowercase + string.digits
PRESENCE_DELAY = 0.1
"""Past a burst, seconds within which connects and disconnects are shown in one state."""
PRESENCE_BURST = 8
"""Connects and disconnects shown to a table at once before they are coalesced."""


def new_table_id() -> str:
    """A fresh, unguessable table id (10 characters, lowercase letters and digits)."""
    return "".join(secrets.choice(_ID_ALPHABET) for _ in range(10))


class Table:
    """One table: its game, seats, status, match, stored actions and connections."""

    def __init__(self, table_id: str, adapter: GameAdapter, variant: str | None,
                 rules: dict[str, str], rules_value: Any, seats: list[SeatInfo],
                 created_at: str) -> None:
        self.id = table_id
        self.adapter = adapter
        self.variant = variant
        self.rules = rules
        self.rules_value = rules_value
        self.seats = seats
        self.created_at = created_at
        self.status = TableStatus.WAITING
        self.seed: str | None = None
        self.finished_at: str | None = None
        self.winner: int | None = None
        self.match: Match[Any] | None = None
        self.actions: list[tuple[int, str]] = []
        self.stand_in_turns: set[int] = set()
        """The actions the stand-in bot played, numbered from 1 as ``last.turn``."""
        self.last: dict[str, Any] | None = None
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self.bots: dict[int, BotSeat] = {}
        self.bot_task: asyncio.Task[None] | None = None
        self.shown_presence: tuple[list[bool], int] | None = None
        """Who is connected as the last broadcast showed it (see :meth:`Lobby.attach`)."""
        self.presence_frozen = False
        self.presence_flush: asyncio.TimerHandle | None = None
        self.extras = TableExtras()
        self.fairness = TableFairness(None)
        self.clock = SeatClock()
        self.presence_bucket = TokenBucket(PRESENCE_BURST, 1 / PRESENCE_DELAY)
        """Connection changes broadcast at once (past it: one per ``PRESENCE_DELAY``)."""
        self.remote: dict[str, tuple[frozenset[str], int]] = {}
        """Who is connected through the other server processes (:mod:`.cluster`): for
        each, the player ids and the number of spectators."""
        self.behind = False
        """Whether other processes played actions this process has not read back yet (it
        reads them when it needs the table: a connection, the lease, a summary)."""
        self.unshown = False
        """Whether a read-back of other processes' changes changed the table since its last
        broadcast (:meth:`ClusterReplication.catch_up
        <konkun.server.cluster.shared.ClusterReplication.catch_up>`): the part that read it
        back under the lock may not broadcast (a lease claim, a refused resign), so the
        read-back the change's announcement asks for shows it then."""
        self.claim_tried = float("-inf")
        """When this process last tried to take the table's bot lease."""
        self.broadcast_only: Connection | None = None
        """When set, :meth:`Lobby.broadcast` sends to this connection only."""

    @property
    def creator_address(self) -> str | None:
        """The client address the table was created from (kept in its stored extras, so
        the per-address limits count it after a restart)."""
        return self.extras.creator_address

    @creator_address.setter
    def creator_address(self, address: str | None) -> None:
        self.extras.creator_address = address

    @property
    def seat_addresses(self) -> dict[int, str]:
        """The client address each human seat was taken from (kept in the extras)."""
        return self.extras.seat_addresses

    @property
    def num_seats(self) -> int:
        """How many seats the table has."""
        return len(self.seats)

    @property
    def turn(self) -> int:
        """The number of actions played in the match."""
        return len(self.actions)

    def record(self, seat: int, text: str, stand_in: bool = False) -> None:
        """Add an action just played (by the stand-in bot for ``seat``'s person when
        ``stand_in``) to the table's actions and make it the last one."""
        self.actions.append((seat, text))
        if stand_in:
            self.stand_in_turns.add(self.turn)
        self.last = self._last_action(seat, text)

    def _last_action(self, seat: int, text: str) -> dict[str, Any]:
        """The state's ``last``: the latest action, with its parts when the game describes
        its actions (``GameAdapter.describe``) and marked when the stand-in played it."""
        last: dict[str, Any] = {"turn": self.turn, "actor": seat, "action": text}
        parts = self.adapter.describe(text)
        if parts is not None:
            last["parts"] = parts
        if self.turn in self.stand_in_turns:
            last["stand_in"] = True
        return last

    @property
    def to_move(self) -> int | None:
        """The seat to act, or ``None`` when nobody is (waiting or finished)."""
        if self.status != TableStatus.PLAYING or self.match is None:
            return None
        return self.match.deal.to_move

    def seat_of(self, player_id: str | None) -> int | None:
        """The seat ``player_id`` holds at this table, if any."""
        if player_id is None:
            return None
        for number, seat in enumerate(self.seats):
            if seat.kind == SeatKind.HUMAN and seat.player_id == player_id:
                return number
        return None

    def is_connected(self, number: int) -> bool:
        """Whether the seat's holder is here (bots always are)."""
        seat = self.seats[number]
        if seat.kind == SeatKind.BOT:
            return True
        if seat.kind != SeatKind.HUMAN:
            return False
        return any(c.player_id == seat.player_id for c in self.connections) \
            or any(seat.player_id in players for players, _ in self.remote.values())

    def presence(self) -> tuple[list[bool], int]:
        """Which seats are connected, and how many spectators watch."""
        spectators = sum(1 for c in self.connections if self.seat_of(c.player_id) is None)
        spectators += sum(count for _, count in self.remote.values())
        return [self.is_connected(n) for n in range(self.num_seats)], spectators

    def summary(self, presence: tuple[list[bool], int] | None = None) -> dict[str, Any]:
        """The table as the lobby and every client see it (``docs/protocol.md``);
        ``presence`` the connections to show (default: as they are)."""
        connected, spectators = presence or self.presence()
        return _summary(
            table_id=self.id, game=self.adapter.name, variant=self.variant,
            rules=self.rules, seats=self.seats, connected=connected,
            status=self.status, turn=self.turn, to_move=self.to_move, winner=self.winner,
            totals=list(self.match.totals) if self.match is not None else None,
            spectators=spectators, created_at=self.created_at,
            finished_at=self.finished_at) | self.extras.summary(self) | self.clock.summary(self) \
            | {"abortable": self.status == TableStatus.PLAYING and not people_moved(self)} \
            | self.fairness.summary(self.status)

    def new_bots(self) -> dict[int, BotSeat]:
        """A fresh player for each bot seat, by seat number."""
        return {number: BotSeat(seat.bot, self.adapter.name)
                for number, seat in enumerate(self.seats) if seat.kind == SeatKind.BOT and seat.bot}

    def view(self, seat: int | None) -> dict[str, Any] | None:
        """The match as ``seat`` sees it (``None``: a spectator); ``None`` while waiting."""
        return None if self.match is None else self.match.to_json(seat)

    def follow(self, row: StoredTable) -> bool:
        """Bring the table's game to its stored ``row`` (whose actions start at this
        table's turn): the seats, the deal, the actions and the end; whether anything
        changed. The one place a table's stored state is read back into memory, both from
        a fresh table (a restart or a load, :meth:`Lobby._rebuild
        <konkun.server.lobby.Lobby._rebuild>`) and on a live one (another process's
        change, :meth:`ClusterReplication.catch_up
        <konkun.server.cluster.shared.ClusterReplication.catch_up>`); a new stored field
        of the game is read here. The extras and the fairness data are stores of their
        own, read by the caller (set :attr:`fairness` first: the deal starts its digests)."""
        changed = False
        seats = [SeatInfo.from_stored(s) for s in row.seats]
        if seats != self.seats:
            self.seats, changed = seats, True
        if self.status == TableStatus.WAITING and row.status != TableStatus.WAITING \
                and row.seed is not None:
            self.seed = row.seed
            self.match = self.adapter.replay(self.rules_value, self.num_seats, row.seed,
                                             [text for _seat, text in row.actions])
            self.actions = list(row.actions)
            self.status, changed = TableStatus.PLAYING, True
            self.bots = self.new_bots()
            self.fairness.start(self.adapter.name, self.match, self.actions, self.seats)
        elif self.match is not None and row.actions:
            for seat, text in row.actions:
                self.match.play(self.match.deal.parse_action(text))
                self.actions.append((seat, text))
                self.fairness.played(self.turn, seat, text)
            changed = True
        if row.actions:
            self.stand_in_turns.update(row.stand_in_turns)
            seat, text = self.actions[-1]
            self.last = self._last_action(seat, text)
        if row.status == TableStatus.FINISHED and self.status != TableStatus.FINISHED:
            self.status, self.finished_at, self.winner = TableStatus.FINISHED, \
                row.finished_at, row.winner
            self.bots, changed = {}, True
        return changed

    def stored(self) -> StoredTable:
        """The table's row for the database (without actions)."""
        return StoredTable(
            id=self.id, game=self.adapter.name, variant=self.variant, rules=self.rules,
            seats=[seat.stored() for seat in self.seats], seed=self.seed,
            status=self.status, created_at=self.created_at)


def stored_summary(row: StoredTable) -> dict[str, Any]:
    """The summary of a table read from the database (no connections, no match)."""
    seats = [SeatInfo.from_stored(s) for s in row.seats]
    return _summary(
        table_id=row.id, game=row.game, variant=row.variant, rules=row.rules, seats=seats,
        connected=[seat.kind == SeatKind.BOT for seat in seats], status=row.status,
        turn=row.num_actions, to_move=None, winner=row.winner, totals=row.totals,
        spectators=0, created_at=row.created_at, finished_at=row.finished_at)


def _summary(*, table_id: str, game: str, variant: str | None, rules: dict[str, str],
             seats: list[SeatInfo], connected: list[bool], status: str, turn: int,
             to_move: int | None, winner: int | None, totals: list[int] | None,
             spectators: int, created_at: str, finished_at: str | None) -> dict[str, Any]:
    """A table's summary (``docs/protocol.md``), live or read from the database."""
    return {
        "id": table_id, "game": game, "variant": variant, "rules": dict(rules),
        "num_seats": len(seats),
        "seats": [{"seat": number, "kind": seat.kind, "name": seat.name, "bot": seat.bot,
                   "connected": connected[number]} for number, seat in enumerate(seats)],
        "status": status, "turn": turn, "to_move": to_move, "winner": winner,
        "totals": totals, "spectators": spectators, "created_at": created_at,
        "finished_at": finished_at, "link": f"/t/{table_id}",
    }
