"""Chat at the table: short text messages, kept with the game and shown in its replay.

``{"type": "chat", "text": ...}`` from a connection with a token; every connection of the
table receives ``{"type": "chat", "seat", "name", "spectator", "text", "turn", "at"}``
(the sender's seat, or ``None`` and ``spectator: true`` for someone watching). A message is
one line of at most :data:`MAX_CHAT` characters (white space runs made one space, no
control characters); each player may send :data:`CHAT_BURST` at once and one every
:data:`CHAT_EVERY` seconds after that. Messages are stored (``konkun_chat``) before they
are sent; ``GET /api/tables/{id}/chat`` answers the last :data:`HISTORY` of them and the
replay all of them. With several server processes, a message is announced to the others
(``m``, its number), which read it back and send it to their connections of the table.
Text is only ever shown as text by the page.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import Integer, String, func, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from konkun.server.core.announcements import Announcement
from konkun.server.core.kinds import TableStatus
from konkun.server.core.names import allowed_character, graphemes
from konkun.server.core.outbound import ChatLine
from konkun.server.core.protocol import ProtocolError
from konkun.server.core.ratelimit import TokenBucket
from konkun.server.features.ports import RunsInThreads, SeatedTable
from konkun.server.features.replication import Replication
from konkun.server.store.storage import now_text

if TYPE_CHECKING:
    from konkun.server.core.auth import Guest

MAX_CHAT = 200
"""The most user-perceived characters in one chat message."""
MAX_TABLE_CHAT = 500
"""The most messages one table's chat keeps; past them it refuses more (``chat_full``)."""
CHAT_BURST = 5
CHAT_EVERY = 1.0
HISTORY = 200
"""Messages a new connection receives."""
NUMBER_TRIES = 20
"""Attempts at numbering one message while other server processes number theirs."""


class _Base(DeclarativeBase):
    """The chat's schema."""


class ChatRow(_Base):
    """One chat message of one table."""

    __tablename__ = "konkun_chat"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(200))
    text: Mapped[str] = mapped_column(String(1000))
    turn: Mapped[int] = mapped_column(Integer)
    at: Mapped[str] = mapped_column(String(40))


def _message(row: ChatRow) -> ChatLine:
    return {"type": "chat", "seat": row.seat, "name": row.name,
            "spectator": row.seat is None, "text": row.text, "turn": row.turn, "at": row.at}


class ChatStore:
    """Every table's chat, in the database of the game record."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def append(self, table_id: str, seat: int | None, name: str, text: str,
               turn: int) -> ChatLine:
        """Store one message as the table's next number (:meth:`add`); return it as
        sent."""
        return self.add(table_id, seat, name, text, turn)[1]

    def add(self, table_id: str, seat: int | None, name: str, text: str,
            turn: int, cap: int | None = None) -> tuple[int, ChatLine]:
        """Store one message as the table's next number; return the number and the
        message as sent; raise ``chat_full`` when the table already holds ``cap``
        messages (default :data:`MAX_TABLE_CHAT`).

        The number is the last one plus one, and the key ``(table_id, number)`` is what
        makes it atomic: a message numbered at the same instant by another server process
        makes this insert fail on the key, and it is numbered again after that one."""
        cap = MAX_TABLE_CHAT if cap is None else cap
        for attempt in range(NUMBER_TRIES):
            try:
                with Session(self.engine) as session, session.begin():
                    last = session.scalar(select(func.max(ChatRow.number))
                                          .where(ChatRow.table_id == table_id))
                    if (last or 0) >= cap:  # numbers run 1, 2, ...: the last is the count
                        raise ProtocolError("chat_full", f"the chat of table {table_id} "
                                            f"holds its {cap} messages: no more can be sent")
                    row = ChatRow(table_id=table_id, number=(last or 0) + 1, seat=seat,
                                  name=name, text=text, turn=turn, at=now_text())
                    session.add(row)
                    session.flush()
                    return row.number, _message(row)
            except IntegrityError:
                if attempt == NUMBER_TRIES - 1:
                    raise
        raise AssertionError("unreachable")  # the last attempt returned or raised

    def message(self, table_id: str, number: int) -> ChatLine | None:
        """The table's message ``number`` as sent (``None``: no such message)."""
        with Session(self.engine) as session:
            row = session.get(ChatRow, (table_id, number))
            return None if row is None else _message(row)

    def history(self, table_id: str, limit: int | None = HISTORY) -> list[ChatLine]:
        """A table's messages, oldest first (the last ``limit``; all with ``None``)."""
        with Session(self.engine) as session:
            query = select(ChatRow).where(ChatRow.table_id == table_id) \
                .order_by(ChatRow.number.desc())
            if limit is not None:
                query = query.limit(limit)
            return [_message(row) for row in reversed(session.scalars(query).all())]


def clean_chat(text: object) -> str:
    """One chat line: trimmed, white space made single spaces; ``chat_empty`` for
    nothing, ``chat_too_long`` over :data:`MAX_CHAT` characters, ``bad_request`` for a
    non-string or control characters."""
    if not isinstance(text, str):
        raise ProtocolError("bad_request", "field 'text' must be a string", text)
    line = " ".join(text.split())
    if not line:
        raise ProtocolError("chat_empty", "a chat message must not be empty")
    if len(graphemes(line)) > MAX_CHAT:
        raise ProtocolError("chat_too_long", f"a chat message is at most {MAX_CHAT} "
                            "characters", text)
    if not all(allowed_character(ch) for ch in line):
        raise ProtocolError("bad_request", "a chat message holds control characters", text)
    return line


class ChatLimits:
    """One token bucket per (table, player): a player's tabs share their allowance."""

    def __init__(self) -> None:
        self._buckets: dict[tuple[str, str], TokenBucket] = {}

    def take(self, table_id: str, player_id: str) -> bool:
        """Whether the player may send a message now."""
        key = (table_id, player_id)
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) > 10_000:
                self._buckets.clear()
            bucket = self._buckets[key] = TokenBucket(CHAT_BURST, 1 / CHAT_EVERY)
        return bucket.take()


class Chat:
    """Chat at the tables (a part of the lobby): store a message, send it to the table's
    connections here and tell the other server processes."""

    def __init__(self, threads: RunsInThreads, store: ChatStore, limits: ChatLimits,
                 replication: Replication[Any]) -> None:
        """``threads``: where the store runs; ``replication``: tells the other processes
        of a stored message (they send it to their connections)."""
        self.threads = threads
        self.store = store
        self.limits = limits
        self.replication = replication

    async def send(self, table: SeatedTable, guest: Guest | None, text: object) -> None:
        """Store a message from ``guest`` and send it to every connection of the table:
        only from a seated player or a spectator connected to the table, only while the
        game is not over (a finished game's replay keeps its chat as it was), at most
        :data:`MAX_TABLE_CHAT` per table."""
        if guest is None:
            raise ProtocolError("unauthorized", "chatting needs a name (a guest token)")
        seat = table.seat_of(guest.player_id)
        if seat is None and not any(c.player_id == guest.player_id
                                    for c in table.connections):
            raise ProtocolError("not_seated", "only the table's players and the spectators "
                                "present may chat")
        if table.status in (TableStatus.FINISHED, TableStatus.CANCELLED):
            raise ProtocolError("chat_closed", "the chat of a finished game is closed: its "
                                "replay keeps the messages as they were")
        line = clean_chat(text)
        if not self.limits.take(table.id, guest.player_id):
            raise ProtocolError("rate_limited", "too many chat messages: wait a moment")
        name = table.seats[seat].name or guest.nickname if seat is not None \
            else guest.nickname
        try:
            number, message = await self.threads.db(self.store.add, table.id, seat, name,
                                                    line, table.turn)
        except ProtocolError:  # chat_full
            raise
        except Exception as error:
            raise ProtocolError("storage", "the message could not be stored; try again") \
                from error
        self.replication.tell(Announcement.CHAT, table.id, str(number))
        for connection in list(table.connections):
            connection.send(message)
