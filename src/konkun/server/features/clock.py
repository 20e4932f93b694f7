"""The move clock and absent players: a bot plays for a seat whose player is not there.

A table with ``move_seconds > 0`` has a clock: when the human to move runs out of time,
the server plays for the seat with the greedy bot and marks it **away**; while away, the
seat's moves come after a short grace period (``Settings.away_grace``), so a player who
is there can still move first. On a clocked table a seated player who is disconnected
counts as away at once. Without a clock, once a seated player has been disconnected for
``Settings.absent_vote_after`` seconds, the other players can vote (``{"type":
"vote_bot", "seat": i}``) to let the bot take the seat; when every other connected human
has voted, the seat is away. A player who comes back takes the seat back at once (a
reconnect clears an absence or a vote; a move or ``{"type": "back"}`` clears a timeout).

:class:`ClockKeeper` watches every table: :meth:`ClockKeeper.changed` runs after each
broadcast (a move, a seat or connection change) and (re)starts the one timer a table
needs. The timer's move goes through the move pipeline like any other, under the table's lock,
and only if the turn has not moved on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from konkun.errors import KonkunError
from konkun.game import Match
from konkun.server.core.botseats import BotSeat
from konkun.server.core.config import Settings
from konkun.server.core.games import GameAdapter
from konkun.server.core.kinds import SeatKind, TableStatus
from konkun.server.core.protocol import ProtocolError
from konkun.server.features.lifecycle import ExtrasStore, TableExtras
from konkun.server.features.ports import RunsInThreads, SeatedTable

if TYPE_CHECKING:
    from konkun.server.core.auth import Guest

log = logging.getLogger("konkun.server")

STAND_IN = "greedy"
"""The bot that plays for an away seat."""


@dataclass
class SeatClock:
    """One table's clock: when the turn began, who is away and why, who is absent since
    when, and the votes to let a bot play for an absent seat."""

    turn: int = -1
    turn_started: float = 0.0
    away: dict[int, str] = field(default_factory=dict)
    """Away seats and why: ``timeout``, ``absent`` (disconnected, clocked table) or ``vote``."""
    absent_since: dict[int, float] = field(default_factory=dict)
    away_since: dict[int, float] = field(default_factory=dict)
    """When each away seat began to be played by the stand-in (``time.monotonic()``)."""
    votes: dict[int, set[int]] = field(default_factory=dict)
    timer: asyncio.Task[None] | None = None
    timer_key: tuple[Any, ...] | None = None
    stand_ins: dict[int, BotSeat] = field(default_factory=dict)
    vote_after: float = 60.0
    """Seconds of absence before the others may vote (the server's setting)."""

    def summary(self, table: ClockedTable) -> dict[str, Any]:
        """What the clock adds to a table's summary (``docs/protocol.md``)."""
        now = time.monotonic()
        seat = table.to_move
        clock: dict[str, Any] | None = None
        if seat is not None and table.seats[seat].kind == SeatKind.HUMAN:
            if seat in self.away:
                clock = {"seat": seat, "remaining": None, "away": True}
            elif table.extras.move_seconds:
                left = table.extras.move_seconds - (now - self.turn_started)
                clock = {"seat": seat, "remaining": round(max(0.0, left), 1), "away": False}
        return {"away": {str(s): why for s, why in sorted(self.away.items())},
                "absent": {str(s): round(now - since, 1)
                           for s, since in sorted(self.absent_since.items())},
                "bot_votes": {str(s): sorted(v) for s, v in sorted(self.votes.items()) if v},
                "vote_after": self.vote_after, "clock": clock}

    def back(self, seat: int) -> None:
        """The seat's player is here again: no longer away, absent or voted on."""
        self.away.pop(seat, None)
        self.absent_since.pop(seat, None)
        self.votes.pop(seat, None)


def _stand_in_bot(game: str) -> BotSeat:
    """The greedy bot for ``game``, or a random one for a game without a greedy bot."""
    try:
        return BotSeat(STAND_IN, game)
    except KonkunError:
        return BotSeat("random", game)


class ClockedTable(SeatedTable, Protocol):
    """A table as its clock reads it: besides its seats, its clock, its move clock option
    (in its extras), its match and its game."""

    clock: SeatClock
    extras: TableExtras
    match: Match[Any] | None
    adapter: GameAdapter


TableT = TypeVar("TableT", bound=ClockedTable)


Apply = Callable[[TableT, int, Hashable], Awaitable[None]]
"""Check, store, apply and broadcast a seat's action (the table's lock held)."""


class ClockKeeper(Generic[TableT]):
    """Runs the clocks of one lobby's tables (a part of the lobby)."""

    def __init__(self, settings: Settings, threads: RunsInThreads,
                 extras_store: ExtrasStore, *, runs_bots: Callable[[TableT], bool],
                 apply: Apply[TableT], broadcast: Callable[[TableT], None]) -> None:
        """``threads``: the bot threads the stand-in thinks in and the storage thread;
        ``extras_store``: where the stand-in's moves are counted; ``runs_bots``: whether
        this process plays a table's bots (and so its stand-ins); ``apply``: a seat's
        move; ``broadcast``: sends every connection of a table its view."""
        self.settings = settings
        self.threads = threads
        self.extras_store = extras_store
        self.runs_bots = runs_bots
        self.apply = apply
        self.broadcast = broadcast

    @property
    def grace(self) -> float:
        """Seconds an away seat's move waits."""
        return float(self.settings.away_grace)

    def changed(self, table: TableT) -> None:
        """Bring the table's clock up to date after any change and (re)arm its timer."""
        clock = table.clock
        clock.vote_after = float(self.settings.absent_vote_after)
        if table.status != TableStatus.PLAYING:
            self._disarm(clock)
            clock.away.clear()
            clock.away_since.clear()
            clock.absent_since.clear()
            clock.votes.clear()
            return
        now = time.monotonic()
        if clock.turn != table.turn:
            clock.turn, clock.turn_started = table.turn, now
        self._track_absence(table, now)
        for resigned in table.extras.resigned:  # played for, for good
            clock.away[resigned] = "resigned"
        for gone in list(clock.away_since):
            if gone not in clock.away:
                del clock.away_since[gone]
        for away in clock.away:
            clock.away_since.setdefault(away, now)
        seat = table.to_move
        delay: float | None = None
        if seat is None:
            self._disarm(clock)
            return
        if table.seats[seat].kind == SeatKind.HUMAN:
            if seat in clock.away:
                delay = self.grace
            elif table.extras.move_seconds:
                delay = max(0.0, table.extras.move_seconds - (now - clock.turn_started))
        key = (table.turn, seat, seat in clock.away)
        if delay is None:
            self._disarm(clock)
            return
        if clock.timer_key == key and clock.timer is not None and not clock.timer.done():
            return
        self._disarm(clock)
        clock.timer_key = key
        clock.timer = asyncio.get_running_loop().create_task(
            self._stand_in(table, table.turn, seat, delay))

    def _track_absence(self, table: TableT, now: float) -> None:
        clock = table.clock
        for seat, holder in enumerate(table.seats):
            if holder.kind != SeatKind.HUMAN:
                continue
            if table.is_connected(seat):
                if clock.away.get(seat) in {"absent", "vote"} or seat in clock.absent_since:
                    clock.back(seat)
                continue
            clock.absent_since.setdefault(seat, now)
            if table.extras.move_seconds and seat not in clock.away:
                clock.away[seat] = "absent"

    @staticmethod
    def _disarm(clock: SeatClock) -> None:
        if clock.timer is not None and not clock.timer.done() \
                and clock.timer is not asyncio.current_task():
            clock.timer.cancel()
        clock.timer = None
        clock.timer_key = None

    async def _stand_in(self, table: TableT, turn: int, seat: int, delay: float) -> None:
        """After ``delay``, play the greedy bot's move for ``seat`` if it is still its turn."""
        await asyncio.sleep(delay)
        async with table.lock:
            if table.turn != turn or table.to_move != seat or table.match is None \
                    or not self.runs_bots(table):
                return
            table.clock.away.setdefault(seat, "timeout")
            observation = table.match.deal.observe(seat)
            bot = table.clock.stand_ins.get(seat)
            if bot is None:
                bot = table.clock.stand_ins[seat] = _stand_in_bot(table.adapter.name)
        try:
            action = await self.threads.run(bot.choose, observation)
        except Exception:
            log.exception("stand-in bot at seat %d of table %s failed", seat, table.id)
            action = bot.rng.choice(observation.legal_actions())
        async with table.lock:
            if table.turn != turn or table.to_move != seat or table.match is None:
                return
            table.clock.timer = None
            table.clock.timer_key = None
            moves = table.extras.stand_in_moves
            moves[seat] = moves.get(seat, 0) + 1  # counted before the match may finish
            try:
                await self.apply(table, seat, action)
            except ProtocolError as error:
                moves[seat] -= 1
                log.error("stand-in move at table %s failed: %s", table.id, error)
                return
            with contextlib.suppress(Exception):  # only the count is lost
                await self.threads.db(self.extras_store.save, table.id, table.extras)

    async def vote_bot(self, table: TableT, guest: Guest | None, seat: int) -> None:
        """A seated player votes to let the bot play for the absent ``seat``; when every other
        connected human has voted, the seat is away."""
        async with table.lock:
            voter = table.seat_of(guest.player_id if guest else None)
            if voter is None:
                raise ProtocolError("not_seated", "only a seated player can vote", seat)
            if table.status != TableStatus.PLAYING:
                raise ProtocolError(
                    "not_started" if table.status == TableStatus.WAITING else "game_over",
                    "there is no game to vote in", seat)
            if isinstance(seat, bool) or not 0 <= seat < table.num_seats \
                    or table.seats[seat].kind != SeatKind.HUMAN or seat == voter:
                raise ProtocolError("bad_seat", f"seat {seat} is not another player's", seat)
            clock = table.clock
            since = clock.absent_since.get(seat)
            wait = self.settings.absent_vote_after
            if since is None or time.monotonic() - since < wait:
                raise ProtocolError("not_absent", f"seat {seat} has not been away for "
                                    f"{wait:g} s", seat)
            clock.votes.setdefault(seat, set()).add(voter)
            voters = {n for n, s in enumerate(table.seats)
                      if s.kind == SeatKind.HUMAN and n != seat and table.is_connected(n)}
            if voters <= clock.votes[seat]:
                clock.away[seat] = "vote"
            self.broadcast(table)


    async def come_back(self, table: TableT, guest: Guest | None) -> None:
        """``{"type": "back"}``: the sender's seat is played by its player again."""
        async with table.lock:
            seat = table.seat_of(guest.player_id if guest else None)
            if seat is None:
                raise ProtocolError("not_seated", "you hold no seat at this table")
            if seat in table.extras.resigned:
                raise ProtocolError("resigned", f"seat {seat} resigned: the stand-in plays it "
                                    "to the end", seat)
            table.clock.back(seat)
            self.broadcast(table)

    def shutdown(self, tables: list[TableT]) -> list[asyncio.Task[None]]:
        """Cancel every timer; return the tasks to await."""
        tasks = []
        for table in tables:
            timer = table.clock.timer
            if timer is not None and not timer.done():
                timer.cancel()
                tasks.append(timer)
        return tasks


async def cancel_timers(tasks: list[asyncio.Task[None]]) -> None:
    """Wait for cancelled timers to end."""
    for task in tasks:
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
