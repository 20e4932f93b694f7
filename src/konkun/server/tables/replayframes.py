"""Replays of finished games (:class:`ReplayViews`, a part of the lobby): every frame
from one seat's view or with all hands open, built off the commit path and kept encoded
in the :class:`~konkun.server.features.replays.ReplayCache`."""

from __future__ import annotations

import logging
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from konkun.errors import InvalidRuleError
from konkun.fairness import FairSeed
from konkun.game import Match, game_source, register_game
from konkun.game import get_game as find_game
from konkun.server.core.config import Settings
from konkun.server.core.games import get_game
from konkun.server.core.kinds import TableStatus
from konkun.server.core.protocol import ProtocolError
from konkun.server.features.chat import ChatStore
from konkun.server.features.fair import FairStore, add_to_replay
from konkun.server.features.lifecycle import ExtrasStore
from konkun.server.features.replays import (
    EncodedReplay,
    ReplayCache,
    ReplayKey,
    ReplayWorker,
    encode_replay,
)
from konkun.server.store.storage import Storage, StoredTable
from konkun.server.tables.table import stored_summary
from konkun.server.tables.threads import Threads, load_row

log = logging.getLogger("konkun.server")


class ReplayViews:
    """Serve the replays of finished tables."""

    def __init__(self, settings: Settings, storage: Storage, threads: Threads,
                 fair_store: FairStore, chat_store: ChatStore, cache: ReplayCache,
                 worker: ReplayWorker) -> None:
        """``cache``: the encoded replays kept; ``worker``: the process that builds them
        (``Settings.replay_processes``), else the read threads do."""
        self.settings = settings
        self.storage = storage
        self.threads = threads
        self.fair_store = fair_store
        self.chat_store = chat_store
        self.replays = cache
        self.replay_worker = worker
        self.extras_store = ExtrasStore(storage.engine)

    def _ended(self, table_id: str) -> dict[str, Any] | None:
        """How the table's match ended early, if it did (read in a thread)."""
        return self.extras_store.load(table_id).ended_summary()

    async def replay(self, table_id: str, seat: str | None) -> dict[str, Any]:
        """Every frame of a finished game, from one seat's view or with all hands open."""
        row = await load_row(self.threads, self.storage, table_id, read=True)
        chosen = self._replay_seat(row, seat)
        fair = await self.threads.read(self.fair_store.load, table_id)
        ended = await self.threads.read(self._ended, table_id)
        return await self.threads.read(replay_frames, row, chosen, fair, ended)

    async def encoded_replay(self, table_id: str, seat: str | None) -> EncodedReplay:
        """The replay of :meth:`replay` as JSON bytes (and gzipped), built once per
        (table, seat) and kept: a finished game never changes."""
        if not isinstance(table_id, str) or not 0 < len(table_id) <= 32:
            raise ProtocolError("unknown_table", f"no table {table_id!r}", table_id)
        key: ReplayKey = (table_id, seat or None)

        async def build() -> EncodedReplay:
            row = await load_row(self.threads, self.storage, table_id, read=True)
            chosen = self._replay_seat(row, seat)
            fair = await self.threads.read(self.fair_store.load, table_id)
            chat = await self.threads.read(self.chat_store.history, table_id, None)
            ended = await self.threads.read(self._ended, table_id)
            return await self._build_replay(row, chosen, fair, chat, ended)

        return await self.replays.get(key, build)

    async def _build_replay(self, row: StoredTable, chosen: int | str | None,
                            fair: FairSeed | None, chat: list[Any],
                            ended: dict[str, Any] | None = None) -> EncodedReplay:
        """Build in the replay worker process when the game can be found there (a game
        registered as an object, in tests, cannot: then in a read thread)."""
        try:
            source = game_source(row.game)
        except InvalidRuleError:  # uninstalled since: refused by name in replay_frames
            source = None
        if self.settings.replay_processes and source is not None:
            try:
                return await self.replay_worker.run(build_replay, row, chosen, fair, chat,
                                                    source, ended)
            except BrokenProcessPool:
                log.warning("the replay worker process died; building replay %s in a "
                            "thread", row.id)
            except ProtocolError:
                raise
            except Exception as error:
                log.error("replay of table %s cannot be built: %r", row.id, error)
                raise ProtocolError("storage", "the replay cannot be built; try again") \
                    from error
        return await self.threads.read(build_replay, row, chosen, fair, chat, None, ended)

    @staticmethod
    def _replay_seat(row: StoredTable, seat: str | None) -> int | str | None:
        """The seat a replay request names, checked against a finished table."""
        table_id = row.id
        if row.status != TableStatus.FINISHED or row.seed is None:
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


def build_replay(row: StoredTable, seat: int | str | None, fair: FairSeed | None,
                 chat: list[Any], source: str | None,
                 ended: dict[str, Any] | None = None) -> EncodedReplay:
    """A finished table's replay with its chat, encoded (in the replay worker process,
    which finds the game by its ``source``, or in a read thread)."""
    if source is not None:
        try:
            find_game(row.game)
        except InvalidRuleError:  # found by its source text only (a plug-in's game)
            register_game(source)
    answer = replay_frames(row, seat, fair, ended)
    answer["chat"] = chat
    return encode_replay(answer)


def replay_frames(row: StoredTable, seat: int | str | None,
                  fair: FairSeed | None = None,
                  ended: dict[str, Any] | None = None) -> dict[str, Any]:
    """The replay of a finished table (see ``GET /api/games/{id}/replay``), with its
    fairness data when it has some and, for a match that ended early, how (``ended``,
    :meth:`TableExtras.ended_summary`)."""
    try:
        adapter = get_game(row.game)
    except KeyError:  # a game uninstalled since the table was played
        raise ProtocolError("unknown_game", f"table {row.id} is a game of {row.game!r}, "
                            "which this server does not know", row.game) from None
    rules_value = adapter.check(row.variant, row.rules, len(row.seats))
    assert row.seed is not None
    match = adapter.new_match(rules_value, len(row.seats), row.seed)
    frames = [_frame(match, 0, None, None, seat)]
    for turn, (actor, text) in enumerate(row.actions, start=1):
        match.play(match.deal.parse_action(text))
        parts = adapter.describe(text)
        frames.append(_frame(match, turn, text, actor, seat)
                      | ({"stand_in": True} if turn in row.stand_in_turns else {})
                      | ({"parts": parts} if parts is not None else {}))
    document = {"table": stored_summary(row) | ({"ended": ended} if ended else {}),
                "record": match.record().to_json(),
                "seat": seat, "frames": frames}
    add_to_replay(document, fair, row.game, match)
    return document


def _frame(match: Match[Any], turn: int, action: str | None, actor: int | None,
           seat: int | str | None) -> dict[str, Any]:
    frame: dict[str, Any] = {"turn": turn, "action": action, "actor": actor}
    if seat == "all":
        frame["view"] = match.to_json(None)
        frame["views"] = [match.to_json(s) for s in range(match.num_seats)]
    else:
        frame["view"] = match.to_json(seat if isinstance(seat, int) else None)
    return frame


