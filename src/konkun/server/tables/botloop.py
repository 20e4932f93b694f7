"""The bot runner (:class:`BotRunner`): while a bot is to act at a table, its move is
chosen in a worker thread (or process) and played on the event loop through the move
pipeline, as any player's (:class:`~konkun.server.tables.play.MovePipeline`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Hashable
from typing import Any

from konkun.errors import IllegalMoveError, KonkunError
from konkun.server.core.botseats import choose_in_process
from konkun.server.core.config import Settings
from konkun.server.core.kinds import SeatKind, TableStatus
from konkun.server.core.protocol import ProtocolError
from konkun.server.core.scheduler import QUICK_KINDS, BotScheduler
from konkun.server.tables.table import Table

log = logging.getLogger("konkun.server")

Apply = Callable[[Table, int, Hashable], Awaitable[None]]
"""Store, apply and broadcast one legal action of a seat (the table's lock held)."""


class BotRunner:
    """Run the bots of the tables, one loop per table while a bot is to act."""

    def __init__(self, settings: Settings, scheduler: BotScheduler,
                 runs_bots: Callable[[Table], bool]) -> None:
        """``runs_bots``: whether this process plays a table's bots (one process alone:
        always; several: the holder of its lease, :mod:`konkun.server.cluster.shared`)."""
        self.settings = settings
        self.scheduler = scheduler
        self.runs_bots = runs_bots

    def start(self, table: Table, apply: Apply) -> None:
        """Start the table's bot loop, playing through ``apply``, when a bot is to act and
        none is running."""
        if table.status != TableStatus.PLAYING or table.to_move not in table.bots:
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        if not self.runs_bots(table):
            return
        table.bot_task = asyncio.get_running_loop().create_task(self._loop(table, apply))

    async def _loop(self, table: Table, apply: Apply) -> None:
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
                    human=any(s.kind == SeatKind.HUMAN for s in table.seats), quick=quick)
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
                    await apply(table, seat, action)
                except (ProtocolError, KonkunError) as error:
                    if not isinstance(error, ProtocolError) or error.code != "storage":
                        log.error("bot move at table %s failed: %s", table.id, error)
                    await asyncio.sleep(1.0)
