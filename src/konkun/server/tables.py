"""The lobby and its tables: the server's whole game state, checked by the engines.

A :class:`Table` holds one match, its seats and its connections; the :class:`Lobby` makes,
finds, restores and plays tables. The rules of play:

- Only the server holds the state; every action is checked with the engine, then **stored**
  (committed to the database), then applied, and only then broadcast, so an acknowledged
  action survives any crash and a restart replays every unfinished table exactly.
- Each connection receives its own seat's view (``Match.to_json(seat)``), a spectator the
  view of no seat, so no message carries a card its receiver may not see.
- One :class:`asyncio.Lock` per table serializes everything that changes it.
- Bots think in worker threads; the event loop only applies their answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import string
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from konkun.cards import new_secret_seed
from konkun.errors import IllegalMoveError, KonkunError
from konkun.game import Match
from konkun.server.admission import Admission
from konkun.server.auth import Guest
from konkun.server.botseats import BotSeat, check_bot_spec, choose_in_process
from konkun.server.chat import ChatLimits, ChatStore
from konkun.server.clock import ClockKeeper, SeatClock, cancel_timers
from konkun.server.config import Settings
from konkun.server.games import GameAdapter, game_names, get_game
from konkun.server.lifecycle import CreateOnce, ExtrasStore, TableExtras
from konkun.server.protocol import ProtocolError
from konkun.server.ratelimit import TokenBucket
from konkun.server.replays import EncodedReplay, ReplayCache, ReplayKey, encode_replay
from konkun.server.scheduler import QUICK_KINDS, BotScheduler
from konkun.server.storage import OutageLog, Storage, StoredTable, now_text

log = logging.getLogger("konkun.server")

T = TypeVar("T")

_ID_ALPHABET = string.ascii_lowercase + string.digits
SEND_QUEUE = 256
"""Messages queued for one slow client before the server drops the connection."""
PRESENCE_DELAY = 0.1
"""Past a burst, seconds within which connects and disconnects are shown in one state."""
PRESENCE_BURST = 8
"""Connects and disconnects shown to a table at once before they are coalesced."""


def _compact_json(payload: dict[str, Any]) -> str:
    """A message as the shortest JSON text (non-ASCII characters kept as they are)."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"))


def new_table_id() -> str:
    """A fresh, unguessable table id (10 characters, lowercase letters and digits)."""
    return "".join(secrets.choice(_ID_ALPHABET) for _ in range(10))


@dataclass
class SeatInfo:
    """Who holds a seat: a human (player id and nickname), a bot (its spec) or nobody."""

    kind: str = "empty"
    player_id: str | None = None
    name: str | None = None
    bot: str | None = None

    def stored(self) -> dict[str, Any]:
        """The seat as stored in the database."""
        return {"kind": self.kind, "player_id": self.player_id, "name": self.name,
                "bot": self.bot}

    @classmethod
    def from_stored(cls, data: dict[str, Any]) -> SeatInfo:
        """A seat read back from the database."""
        return cls(kind=str(data.get("kind", "empty")), player_id=data.get("player_id"),
                   name=data.get("name"), bot=data.get("bot"))


class Connection:
    """One WebSocket client: who it is, its rate limit and its queue of outgoing text."""

    def __init__(self, guest: Guest | None, bucket: TokenBucket, address: str = "?") -> None:
        self.guest = guest
        self.bucket = bucket
        self.address = address
        """The client's address (for the per-address limits)."""
        self.last_text: str | None = None
        """The last state sent, so that an unchanged state is not sent twice."""
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=SEND_QUEUE)
        self.closed = False
        self.last_limited = float("-inf")

    @property
    def player_id(self) -> str | None:
        """The player id of the connection's token, or ``None`` for an anonymous one."""
        return self.guest.player_id if self.guest else None

    def send_text(self, text: str) -> None:
        """Queue a message; a client too slow to take its messages is dropped."""
        if self.closed:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.close()

    def send(self, payload: dict[str, Any]) -> None:
        """Queue a JSON message."""
        self.send_text(_compact_json(payload))

    def close_with(self, payload: dict[str, Any]) -> None:
        """Send a last message (after those queued), then close."""
        self.send(payload)
        if self.closed:
            return
        self.closed = True
        try:
            self.queue.put_nowait(None)
        except asyncio.QueueFull:
            self.queue.get_nowait()
            self.queue.put_nowait(None)

    def close(self) -> None:
        """Stop sending; the writer then closes the socket."""
        if self.closed:
            return
        self.closed = True
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(None)


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
        self.status = "waiting"
        self.seed: str | None = None
        self.finished_at: str | None = None
        self.winner: int | None = None
        self.match: Match[Any] | None = None
        self.actions: list[tuple[int, str]] = []
        self.last: dict[str, Any] | None = None
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self.bots: dict[int, BotSeat] = {}
        self.bot_task: asyncio.Task[None] | None = None
        self.creator_address: str | None = None
        self.seat_addresses: dict[int, str] = {}
        """The client address each human seat was taken from (admission limits)."""
        self.shown_presence: tuple[list[bool], int] | None = None
        """Who is connected as the last broadcast showed it (see :meth:`Lobby.attach`)."""
        self.presence_frozen = False
        self.presence_flush: asyncio.TimerHandle | None = None
        self.extras = TableExtras()
        self.clock = SeatClock()
        self.presence_bucket = TokenBucket(PRESENCE_BURST, 1 / PRESENCE_DELAY)
        """Connection changes broadcast at once (past it: one per ``PRESENCE_DELAY``)."""
        self.broadcast_only: Connection | None = None
        """When set, :meth:`Lobby.broadcast` sends to this connection only."""

    @property
    def num_seats(self) -> int:
        """How many seats the table has."""
        return len(self.seats)

    @property
    def turn(self) -> int:
        """The number of actions played in the match."""
        return len(self.actions)

    @property
    def to_move(self) -> int | None:
        """The seat to act, or ``None`` when nobody is (waiting or finished)."""
        if self.status != "playing" or self.match is None:
            return None
        return self.match.deal.to_move

    def seat_of(self, player_id: str | None) -> int | None:
        """The seat ``player_id`` holds at this table, if any."""
        if player_id is None:
            return None
        for number, seat in enumerate(self.seats):
            if seat.kind == "human" and seat.player_id == player_id:
                return number
        return None

    def is_connected(self, number: int) -> bool:
        """Whether the seat's holder is here (bots always are)."""
        seat = self.seats[number]
        if seat.kind == "bot":
            return True
        if seat.kind != "human":
            return False
        return any(c.player_id == seat.player_id for c in self.connections)

    def presence(self) -> tuple[list[bool], int]:
        """Which seats are connected, and how many spectators watch."""
        spectators = sum(1 for c in self.connections if self.seat_of(c.player_id) is None)
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
            finished_at=self.finished_at) | self.extras.summary(self) | self.clock.summary(self)

    def new_bots(self) -> dict[int, BotSeat]:
        """A fresh player for each bot seat, by seat number."""
        return {number: BotSeat(seat.bot, self.adapter.name)
                for number, seat in enumerate(self.seats) if seat.kind == "bot" and seat.bot}

    def view(self, seat: int | None) -> dict[str, Any] | None:
        """The match as ``seat`` sees it (``None``: a spectator); ``None`` while waiting."""
        return None if self.match is None else self.match.to_json(seat)

    def stored(self) -> StoredTable:
        """The table's row for the database (without actions)."""
        return StoredTable(
            id=self.id, game=self.adapter.name, variant=self.variant, rules=self.rules,
            seats=[seat.stored() for seat in self.seats], seed=self.seed,
            status=self.status, created_at=self.created_at)


class Lobby:
    """Every table of one server, with the storage and the bot workers they use."""

    def __init__(self, storage: Storage, settings: Settings) -> None:
        self.storage = storage
        self.settings = settings
        self.tables: dict[str, Table] = {}
        self.connections = 0
        self._storage_thread = ThreadPoolExecutor(1, thread_name_prefix="konkun-db")
        self._bot_threads = ThreadPoolExecutor(
            max(1, settings.bot_threads), thread_name_prefix="konkun-bot")
        self._loading = asyncio.Lock()
        self.outage = OutageLog(log)
        self.admission = Admission(settings)
        self.scheduler = BotScheduler(settings.bot_threads,
                                      processes=settings.bot_processes)
        self._read_threads = ThreadPoolExecutor(
            max(1, settings.read_threads), thread_name_prefix="konkun-read")
        self.replays = ReplayCache(settings.replay_cache_bytes)
        self._expiry: asyncio.Task[None] | None = None
        self.extras_store = ExtrasStore(storage.engine)
        self.create_once = CreateOnce()
        self.clock = ClockKeeper(self)
        self.chat_store = ChatStore(storage.engine)
        self.chat_limits = ChatLimits()

    # -- life cycle ---------------------------------------------------------------------

    async def startup(self) -> None:
        """Bring every unfinished table back exactly where it was, and restart its bots."""
        stored = await self._db(self.storage.load_unfinished)
        for row in stored:
            try:
                table = await self._run(self._rebuild, row)
            except Exception as error:  # one broken table must not stop the server
                log.error("table %s cannot be restored: %r", row.id, error)
                continue
            table.extras = await self._db(self.extras_store.load, table.id)
            self.tables[table.id] = table
            await self._finish_if_over(table)
            self._schedule_bots(table)
        await self.expire_waiting_tables()
        self._expiry = asyncio.get_running_loop().create_task(self._expire_loop())

    async def _expire_loop(self) -> None:
        interval = max(0.05, min(60.0, self.settings.waiting_table_seconds / 10,
                                 self.settings.bot_game_seconds / 10))
        while True:
            await asyncio.sleep(interval)
            try:
                await self.expire_waiting_tables()
                await self.prune_bot_games()
            except Exception:  # the next round tries again
                log.debug("expiring waiting tables failed", exc_info=True)

    async def prune_bot_games(self) -> int:
        """Delete the finished games of bots only older than ``Settings.bot_game_seconds``
        (games with a human are kept); return how many."""
        cutoff = datetime.now(UTC) - timedelta(seconds=self.settings.bot_game_seconds)
        pruned = await self._db(self.storage.prune_bot_games,
                                cutoff.isoformat(timespec="seconds"))
        for table_id in pruned:
            self.replays.forget(table_id)
            table = self.tables.get(table_id)
            if table is not None and not table.connections:
                self.tables.pop(table_id, None)
        return len(pruned)

    async def expire_waiting_tables(self) -> int:
        """Close the tables that have waited for players longer than
        ``Settings.waiting_table_seconds`` (every connection receives ``closed``, reason
        ``expired``); return how many."""
        from konkun.server.lifecycle import expire_waiting

        return len(await expire_waiting(self, self.settings.waiting_table_seconds))

    async def shutdown(self) -> None:
        """Stop the bots and the worker threads; stored state is already complete."""
        if self._expiry is not None:
            self._expiry.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._expiry
        for table in self.tables.values():
            if table.presence_flush is not None:
                table.presence_flush.cancel()
        tasks = [t.bot_task for t in self.tables.values() if t.bot_task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await cancel_timers(self.clock.shutdown(list(self.tables.values())))
        for table in self.tables.values():
            for connection in table.connections:
                connection.close()
        self._bot_threads.shutdown(wait=False, cancel_futures=True)
        self.scheduler.shutdown()
        self._read_threads.shutdown(wait=False, cancel_futures=True)
        self._storage_thread.shutdown(wait=True)

    async def _db(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in the storage thread; a refusal is ``storage`` (the
        outage, not each refused query, is logged)."""
        return await self._in_thread(self._storage_thread, "query", function, *args)

    async def _read(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in the read threads: lobby lists, summaries and replays never
        wait for, nor hold up, the storage thread that commits actions."""
        return await self._in_thread(self._read_threads, "read", function, *args)

    async def _in_thread(self, threads: ThreadPoolExecutor, what: str,
                         function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in ``threads``; its :class:`ProtocolError` passes through,
        any other failure is ``storage`` and counts towards the outage log."""
        loop = asyncio.get_running_loop()
        try:
            result = await loop.run_in_executor(threads, function, *args)
        except ProtocolError:
            raise
        except Exception as error:
            self.outage.failed(getattr(function, "__name__", what), error)
            raise ProtocolError("storage", "the database is unavailable; try again") \
                from error
        self.outage.succeeded()
        return result

    async def db(self, function: Callable[..., T], *args: Any) -> T:
        """Run ``function(*args)`` in the storage thread."""
        return await self._db(function, *args)

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """Run ``function(*args)`` in a bot thread."""
        return await self._run(function, *args)

    async def apply_for(self, table: Table, seat: int, action: Hashable) -> None:
        """Play a legal ``action`` for ``seat`` (a stand-in bot's; lock held)."""
        await self._apply(table, seat, action)

    async def _run(self, function: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._bot_threads, function, *args)

    def _rebuild(self, row: StoredTable) -> Table:
        """A table from its stored row: the match replayed from the seed and actions."""
        adapter = get_game(row.game)
        rules_value = adapter.check(row.variant, row.rules, len(row.seats))
        table = Table(row.id, adapter, row.variant, row.rules, rules_value,
                      [SeatInfo.from_stored(s) for s in row.seats], row.created_at)
        table.status = row.status
        table.seed = row.seed
        table.finished_at = row.finished_at
        table.winner = row.winner
        if row.status != "waiting" and row.seed is not None:
            table.match = adapter.replay(rules_value, len(row.seats), row.seed,
                                         [text for _seat, text in row.actions])
            table.actions = list(row.actions)
            if table.actions:
                seat, text = table.actions[-1]
                table.last = {"turn": table.turn, "actor": seat, "action": text}
        if table.status == "playing":
            table.bots = table.new_bots()
        return table

    # -- the lobby ----------------------------------------------------------------------

    def open_tables(self) -> list[Table]:
        """Tables waiting or playing, newest first."""
        tables = [t for t in self.tables.values() if t.status != "finished"]
        return sorted(tables, key=lambda t: t.created_at, reverse=True)

    async def finished_tables(self, limit: int = 200, offset: int = 0) -> list[dict[str, Any]]:
        """Summaries of finished games, newest first (from the database)."""
        rows = await self._read(self.storage.list_tables, "finished", limit, offset)
        return [stored_summary(row) for row in rows]

    async def create_table(self, game: str, variant: str | None, num_seats: int,
                           rules: dict[str, str], bots: dict[int, str], *,
                           creator: str | None = None, address: str = "?",
                           move_seconds: int = 0, hints: bool = True,
                           rematch_of: str | None = None) -> Table:
        """Make and store a new table; it starts at once when every seat is a bot.
        ``creator`` (a player id) and ``address`` count against their table limits;
        ``creator`` may cancel it while it waits; ``hints`` and ``move_seconds`` are its
        options (:mod:`.lifecycle`)."""
        self.admission.check_new_table(self.tables.values(), creator, address)
        try:
            adapter = get_game(game)
        except KeyError:
            raise ProtocolError("unknown_game", f"unknown game {game!r}: expected "
                                + " or ".join(repr(n) for n in game_names()), game) from None
        try:
            rules_value = adapter.check(variant, rules, num_seats)
        except KonkunError as error:
            raise ProtocolError("invalid_rule", str(error), rules) from None
        seats = [SeatInfo() for _ in range(num_seats)]
        for number, spec in bots.items():
            if not 0 <= number < num_seats:
                raise ProtocolError("bad_seat", f"bot seat {number} is out of range "
                                    f"0..{num_seats - 1}", number)
            canonical = check_bot_spec(spec, game, self.settings.max_bot_seconds)
            seats[number] = SeatInfo(kind="bot", name=canonical, bot=canonical)
        table = Table(new_table_id(), adapter, adapter.variant_of(variant), rules, rules_value,
                      seats, now_text())
        table.creator_address = address
        table.extras = TableExtras(creator=creator, move_seconds=move_seconds, hints=hints,
                                   rematch_of=rematch_of)
        await self._db(self.storage.create_table, table.stored())
        await self._db(self.extras_store.save, table.id, table.extras)
        self.tables[table.id] = table
        async with table.lock:
            await self._start_if_full(table)
        return table

    async def get_table(self, table_id: str, keep: bool = False) -> Table:
        """The table ``table_id``. A finished table is read back from the database and
        replayed; it stays in memory only with ``keep`` (a connection), until the last
        connection closes."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        async with self._loading:
            table = self.tables.get(table_id)
            if table is not None:
                return table
            row = await self._load_row(table_id)
            try:
                table = await self._run(self._rebuild, row)
            except Exception as error:
                log.error("table %s cannot be loaded: %r", table_id, error)
                raise ProtocolError("unknown_table", f"table {table_id!r} cannot be "
                                    "loaded", table_id) from None
            table.extras = await self._db(self.extras_store.load, table_id)
            await self._finish_if_over(table)
            if keep or table.status != "finished":
                self.tables[table_id] = table
            return table

    async def summary(self, table_id: str) -> dict[str, Any]:
        """A table's summary; a finished table's straight from the database."""
        table = self.tables.get(table_id)
        if table is not None:
            return table.summary()
        row = await self._load_row(table_id, read=True)
        if row.status == "finished":
            return stored_summary(row)
        return (await self.get_table(table_id)).summary()

    async def _load_row(self, table_id: str, read: bool = False) -> StoredTable:
        """The stored row of table ``table_id``; ``unknown_table`` when there is none.
        ``read``: through the read threads, off the commit path."""
        if not isinstance(table_id, str) or not 0 < len(table_id) <= 32:
            raise ProtocolError("unknown_table", f"no table {table_id!r}", table_id)
        row = await (self._read if read else self._db)(self.storage.load, table_id)
        if row is None:
            raise ProtocolError("unknown_table", f"no table {table_id!r}", table_id)
        return row

    async def revoke(self, session: str) -> None:
        """Store a revoked token session and close the connections that used it."""
        await self._db(self.storage.revoke, session)
        for table in list(self.tables.values()):
            for connection in list(table.connections):
                if connection.guest is not None and connection.guest.session == session:
                    connection.close_with({"type": "error", "code": "unauthorized",
                                           "message": "token revoked"})

    # -- seats --------------------------------------------------------------------------

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

    # -- play ---------------------------------------------------------------------------

    async def play(self, table: Table, player_id: str | None, text: str, turn: int) -> None:
        """Play action ``text`` for the seat ``player_id`` holds, if ``turn`` is current.

        Raises :class:`ProtocolError` (and changes nothing) for an action out of turn,
        stale, malformed or illegal.
        """
        async with table.lock:
            seat = table.seat_of(player_id)
            if seat is None:
                raise ProtocolError("not_seated", "spectators cannot play: take a seat "
                                    "first", text)
            self._check_playing(table, text)
            if turn != table.turn:
                raise ProtocolError("stale_turn", f"turn {turn} is not the current turn "
                                    f"{table.turn}; the state has moved on", turn)
            if table.to_move != seat:
                raise ProtocolError("not_your_turn", f"seat {seat} is not to act: seat "
                                    f"{table.to_move} is", text)
            action = self._parse(table, text)
            table.clock.away.pop(seat, None)  # a player who moves is back
            await self._apply(table, seat, action)

    @staticmethod
    def _check_playing(table: Table, text: object) -> None:
        if table.status == "waiting":
            raise ProtocolError("not_started", "the game has not started: seats are free",
                                text)
        if table.status == "finished" or table.match is None or table.match.is_over():
            raise ProtocolError("game_over", "the game is over", text)

    @staticmethod
    def _parse(table: Table, text: str) -> Hashable:
        """The action ``text`` names, if it is legal now. Error messages are the adapter's
        safe ones: an engine's own message may quote the whole position."""
        assert table.match is not None
        deal = table.match.deal
        try:
            action: Hashable = table.adapter.read_action(deal, text)
        except KonkunError as error:
            raise ProtocolError("invalid_action", error.reason, text) from None
        if not deal.is_legal(action):
            raise ProtocolError("illegal_move",
                                table.adapter.explain_illegal(deal, action, text), text)
        return action

    async def _apply(self, table: Table, seat: int, action: Hashable) -> None:
        """Store, then apply, then broadcast one legal action (lock held)."""
        assert table.match is not None
        text = table.match.deal.format_action(action)
        turn = table.turn
        try:
            await self._db(self.storage.append_action, table.id, turn, seat, text)
        except Exception as error:
            raise ProtocolError("storage", "the action could not be stored; nothing was "
                                "played, try again", text) from error
        try:
            table.match.play(action)
        except KonkunError as error:  # checked legal above: only a broken engine gets here
            log.error("table %s: legal action %r refused: %s", table.id, text, error)
            with contextlib.suppress(Exception):
                await self._db(self.storage.delete_action, table.id, turn)
            raise ProtocolError("illegal_move", f"illegal move {text!r}", text) from None
        table.actions.append((seat, text))
        table.last = {"turn": table.turn, "actor": seat, "action": text}
        if table.match.is_over():
            await self._finish(table)
        self.broadcast(table)
        if table.status == "finished" and not table.connections:
            self.tables.pop(table.id, None)  # kept in the database; read back on demand
        self._schedule_bots(table)

    async def _finish_if_over(self, table: Table) -> None:
        """Finish a table read back from the database whose game is over but whose row was
        never marked finished (storing that failed, or the server stopped in between)."""
        if table.status == "playing" and table.match is not None and table.match.is_over():
            await self._finish(table)

    async def _finish(self, table: Table) -> None:
        assert table.match is not None
        table.status = "finished"
        table.finished_at = now_text()
        table.winner = table.match.winner()
        table.bots = {}
        # the actions are stored: a restart finishes the table again
        with contextlib.suppress(ProtocolError):
            await self._db(self.storage.update_table, table.id, {
                "status": "finished", "finished_at": table.finished_at,
                "winner": table.winner, "totals": list(table.match.totals)})

    # -- bots ---------------------------------------------------------------------------

    def _schedule_bots(self, table: Table) -> None:
        """Start the table's bot loop when a bot is to act and none is running."""
        if table.status != "playing" or table.to_move not in table.bots:
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        table.bot_task = asyncio.get_running_loop().create_task(self._bot_loop(table))

    async def _bot_loop(self, table: Table) -> None:
        """Play bot moves while a bot is to act (each chosen in a worker thread)."""
        while True:
            async with table.lock:
                seat = table.to_move
                if seat is None or seat not in table.bots or table.match is None:
                    return
                turn = table.turn
                observation = table.match.deal.observe(seat)
                bot = table.bots[seat]
            await asyncio.sleep(self.settings.bot_delay)
            try:
                quick = bot.spec.split(":")[0] in QUICK_KINDS
                work: tuple[Callable[..., Hashable], tuple[Any, ...]] = \
                    (bot.choose, (observation,)) if quick or not self.settings.bot_processes \
                    else (choose_in_process, (bot.spec, table.adapter.name, observation,
                                              bot.rng.getrandbits(64)))
                action = await self.scheduler.run(
                    work[0], *work[1], client=table.creator_address or table.id,
                    human=any(s.kind == "human" for s in table.seats), quick=quick)
                if not quick and self.settings.bot_processes \
                        and action not in observation.legal_actions():
                    action = bot.rng.choice(observation.legal_actions())
            except Exception:
                log.exception("bot %s at seat %d of table %s failed; playing at random",
                              bot.spec, seat, table.id)
                action = bot.rng.choice(observation.legal_actions())
            async with table.lock:
                if table.turn != turn or table.to_move != seat or table.match is None:
                    continue
                try:
                    if not table.match.deal.is_legal(action):
                        raise IllegalMoveError(f"bot chose illegal {action!r}")
                    await self._apply(table, seat, action)
                except (ProtocolError, KonkunError) as error:
                    if not isinstance(error, ProtocolError) or error.code != "storage":
                        log.error("bot move at table %s failed: %s", table.id, error)
                    await asyncio.sleep(1.0)

    # -- connections --------------------------------------------------------------------

    def attach(self, table: Table, connection: Connection) -> None:
        """Add a connection to a table (checks the admission limits) and send it the state.

        The others learn of it at once, unless connections changed often lately: then in
        one coalesced state at most ``PRESENCE_DELAY`` later (or with the next move), so
        reconnect churn costs one broadcast a window, not one a cycle."""
        self.admission.check_connection(self.tables.values(), table, connection)
        table.connections.add(connection)
        self.connections += 1
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
        if table.status == "finished" and not table.connections:
            self.tables.pop(table.id, None)
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
                      summary: dict[str, Any]) -> dict[str, Any]:
        """The ``state`` message for one seat (``None``: a spectator), with the table's
        ``summary``."""
        return {"type": "state", "table": summary, "you": seat,
                "turn": table.turn, "view": table.view(seat), "last": table.last}

    def broadcast(self, table: Table) -> None:
        """Send every connection of the table its own seat's state."""
        self.clock.changed(table)
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
        for connection in [only] if only is not None else list(table.connections):
            seat = table.seat_of(connection.player_id)
            if seat not in texts:
                texts[seat] = _compact_json(self.state_message(table, seat, summary))
            if connection.last_text != texts[seat]:
                connection.last_text = texts[seat]
                connection.send_text(texts[seat])

    # -- replay -------------------------------------------------------------------------

    async def replay(self, table_id: str, seat: str | None) -> dict[str, Any]:
        """Every frame of a finished game, from one seat's view or with all hands open."""
        row = await self._load_row(table_id, read=True)
        chosen = self._replay_seat(row, seat)
        return await self._read(replay_frames, row, chosen)

    async def encoded_replay(self, table_id: str, seat: str | None) -> EncodedReplay:
        """The replay of :meth:`replay` as JSON bytes (and gzipped), built once per
        (table, seat) and kept: a finished game never changes."""
        if not isinstance(table_id, str) or not 0 < len(table_id) <= 32:
            raise ProtocolError("unknown_table", f"no table {table_id!r}", table_id)
        key: ReplayKey = (table_id, seat or None)

        async def build() -> EncodedReplay:
            row = await self._load_row(table_id, read=True)
            chosen = self._replay_seat(row, seat)
            def frames() -> EncodedReplay:
                answer = replay_frames(row, chosen)
                answer["chat"] = self.chat_store.history(table_id, None)
                return encode_replay(answer)

            return await self._read(frames)

        return await self.replays.get(key, build)

    @staticmethod
    def _replay_seat(row: StoredTable, seat: str | None) -> int | str | None:
        """The seat a replay request names, checked against a finished table."""
        table_id = row.id
        if row.status != "finished" or row.seed is None:
            raise ProtocolError("not_finished", f"table {table_id} is not finished: a "
                                "replay is shown once the game is over", table_id)
        chosen: int | str | None
        if seat is None or seat == "":
            chosen = None
        elif seat == "all":
            chosen = "all"
        else:
            try:
                chosen = int(seat)
            except ValueError:
                raise ProtocolError("bad_seat", f"seat {seat!r} is not a seat number or "
                                    "'all'", seat) from None
            if not 0 <= chosen < len(row.seats):
                raise ProtocolError("bad_seat", f"seat {chosen} is out of range "
                                    f"0..{len(row.seats) - 1}", seat)
        return chosen


def replay_frames(row: StoredTable, seat: int | str | None) -> dict[str, Any]:
    """The replay of a finished table (see ``GET /api/games/{id}/replay``)."""
    adapter = get_game(row.game)
    rules_value = adapter.check(row.variant, row.rules, len(row.seats))
    assert row.seed is not None
    match = adapter.new_match(rules_value, len(row.seats), row.seed)
    frames = [_frame(match, 0, None, None, seat)]
    for turn, (actor, text) in enumerate(row.actions, start=1):
        match.play(match.deal.parse_action(text))
        frames.append(_frame(match, turn, text, actor, seat))
    return {"table": stored_summary(row), "record": match.record().to_json(),
            "seat": seat, "frames": frames}


def _frame(match: Match[Any], turn: int, action: str | None, actor: int | None,
           seat: int | str | None) -> dict[str, Any]:
    frame: dict[str, Any] = {"turn": turn, "action": action, "actor": actor}
    if seat == "all":
        frame["view"] = match.to_json(None)
        frame["views"] = [match.to_json(s) for s in range(match.num_seats)]
    else:
        frame["view"] = match.to_json(seat if isinstance(seat, int) else None)
    return frame


def stored_summary(row: StoredTable) -> dict[str, Any]:
    """The summary of a table read from the database (no connections, no match)."""
    seats = [SeatInfo.from_stored(s) for s in row.seats]
    return _summary(
        table_id=row.id, game=row.game, variant=row.variant, rules=row.rules, seats=seats,
        connected=[seat.kind == "bot" for seat in seats], status=row.status,
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
