"""The settings of one server: where it stores, how it signs, and its limits.

Each field can be set by the environment variable ``KONKUN_<FIELD>`` (``KONKUN_DB_URL``,
``KONKUN_MAX_TABLES``, ...), read when a :class:`Settings` is made; a value given to the
constructor (a ``konkun serve`` option) wins over the environment, which wins over the
default.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from konkun.errors import KonkunError

ENV_PREFIX = "KONKUN_"
"""The prefix of the environment variables that set :class:`Settings` fields."""

DEFAULT_DATA_DIR = Path("konkun-data")
DB_FILE = "konkun.sqlite3"


def default_db_url(data_dir: Path) -> str:
    """The embedded SQLite database in ``data_dir`` (created on demand)."""
    return f"sqlite:///{(data_dir / DB_FILE).resolve()}"


class SettingsError(KonkunError, ValueError):
    """A setting (a ``konkun serve`` option or a ``KONKUN_*`` variable) has a bad value."""


class Settings(BaseSettings):
    """Everything ``konkun serve`` can set; the defaults suit a home server. Assigning a
    field later (the tests, ``--limit``) is not validated again."""

    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, validate_assignment=False,
                                      extra="forbid")

    db_url: str | None = None
    """Any SQLAlchemy URL; ``None``: SQLite in ``data_dir``."""
    sqlite_synchronous: Literal["normal", "full"] = "normal"
    """SQLite's ``PRAGMA synchronous`` (WAL journal): ``normal``, an acknowledged action
    survives the server process being killed, and a commit does not wait for the disk;
    ``full``, it also survives a power loss, each commit waiting for an ``fsync``."""
    data_dir: Path = DEFAULT_DATA_DIR
    """Holds the SQLite database and the token secret; created on demand."""
    secret: str | None = None
    """The token-signing secret (programs and tests only: the command line takes none);
    ``None``: ``$KONKUN_SECRET`` or a file in ``data_dir``."""
    bot_delay: float = 0.4
    """Seconds a bot waits before it plays, so that a human sees each move."""
    bot_threads: int = 2
    """Workers that run searching bots (the event loop never runs one; quick bots have
    a thread of their own)."""
    bot_processes: bool = True
    """Searching bots run in worker processes (else threads, which share the server's
    interpreter lock)."""
    max_tables: int = 500
    """Most unfinished tables at once."""
    max_connections: int = 1000
    """Most WebSocket connections at once."""
    max_table_connections: int = 64
    """Most WebSocket connections on one table (a seat's own player always gets in)."""
    max_address_connections: int = 50
    """Most WebSocket connections from one client address."""
    max_player_connections: int = 10
    """Most WebSocket connections of one player (one token), seated or not."""
    max_tables_per_player: int = 5
    """Most unfinished tables one player (token) may have created."""
    max_tables_per_address: int = 20
    """Most unfinished tables created from one client address."""
    max_seats_per_player: int = 10
    """Most seats one player may hold at unfinished tables."""
    max_seats_per_address: int = 40
    """Most seats taken from one client address held at unfinished tables."""
    waiting_table_seconds: float = 3600.0
    """A table still waiting for players this long after its creation is removed."""
    bot_game_seconds: float = 86400.0
    """A finished game of bots only is deleted this long after its end (games with a
    human seat are kept for ever)."""
    lobby_page: int = 50
    """Tables per page of ``GET /api/tables`` (at most 100 on request)."""
    rate_burst: float = 20
    """Messages one connection may send at once."""
    rate_per_second: float = 10
    """Messages one connection may send per second, sustained."""
    http_burst: float = 60
    """Requests that change something (POST, hints) one client address may make at once."""
    http_per_second: float = 5
    """... and per second, sustained."""
    replay_burst: float = 10
    """Replays one client address may ask for at once."""
    replay_per_second: float = 1
    """... and per second, sustained."""
    read_burst: float = 120
    """Lobby reads (table lists, summaries) one client address may make at once."""
    read_per_second: float = 20
    """... and per second, sustained."""
    socket_burst: float = 60
    """WebSocket connections one client address may open at once."""
    socket_per_second: float = 5
    """... and per second, sustained (reconnect churn is refused before its handshake)."""
    refusal_seconds: float = 1.0
    """A request refused by a rate limit is answered this late (the client waits; the
    server holds a timer), so that a client looping on it is slowed to its pace."""
    max_held_refusals: int = 64
    """Refusals held at once per address; past them a refusal is answered at once."""
    read_threads: int = 2
    """Threads for lobby reads and replays (the commit path has its own)."""
    replay_processes: bool = True
    """Finished games' replays are built in a worker process at nice 10 (else in a read
    thread, which shares the server's interpreter lock with the event loop)."""
    replay_cache_bytes: int = 64 * 1024 * 1024
    """Memory for built replays (JSON and gzip), least recently used dropped."""
    max_bot_seconds: float = 10.0
    """The largest ``time=`` a bot spec may ask for."""
    header_seconds: float = 10.0
    """A connection must send a whole request head within this (else it is closed)."""
    body_seconds: float = 10.0
    """... and its whole body within this after the head (else 408 and closed)."""
    idle_seconds: float = 5.0
    """A keep-alive connection idle this long between requests is closed."""
    forwarded_allow_ips: str | None = None
    """Proxies whose ``X-Forwarded-For``/``-Proto`` are believed (comma-separated
    addresses or ``*``); ``None``: no proxy, the headers are ignored."""
    allowed_origins: tuple[str, ...] = ()
    """Origins (``https://example.org``) besides the served host whose pages may open the
    table WebSockets."""
    hello_seconds: float = 2.0
    """How long a WebSocket refused as a spectator is given to send a ``hello`` naming a
    player who may come in (a seat's own player always may)."""
    token_seconds: float = 7 * 86400.0
    """A guest token's lifetime (renewals extend it while the player is active)."""
    token_renew_seconds: float = 86400.0
    """A token this old is renewed when used (``X-Konkun-Token``, a ``token`` message)."""
    static_dir: Path | None = None
    """The browser page's files; ``None``: the package's ``server/static``."""
    away_grace: float = 2.0
    """Seconds an away seat's move waits before the stand-in bot plays it."""
    abandon_seconds: float = 300.0
    """A person who stops playing this long (to move without moving, played by the
    stand-in, or disconnected) gives up their seat (``docs/server.md``, abandonment)."""
    idle_claim_seconds: float = 60.0
    """Seconds the person to move has been idle before the others may claim the seat."""
    absent_vote_after: float = 60.0
    """Seconds a disconnected player is gone before the others may vote a bot in."""
    stage_times: Path | None = None
    """Where to write, once a second, how long each stage of a move and the event loop's
    wake-ups took (:mod:`konkun.server.core.stagetimes`, for benchmarks); ``None``: not
    measured."""

    @model_validator(mode="after")
    def _numbers_are_finite_and_not_negative(self) -> Settings:
        for name in numeric_settings():
            value = getattr(self, name)
            if not 0 <= value < math.inf:
                raise ValueError(f"{name} = {value!r}: expected a finite number >= 0")
        return self

    def database_url(self) -> str:
        """The database URL in force."""
        return self.db_url or default_db_url(self.data_dir)

    def static_path(self) -> Path:
        """The directory served under ``/static``."""
        return self.static_dir or Path(__file__).resolve().parents[1] / "static"


def numeric_settings() -> tuple[str, ...]:
    """The names of the numeric fields (the limits, the bot delay), in declaration order."""
    return tuple(name for name, info in Settings.model_fields.items()
                 if info.annotation in (int, float))


def default(name: str) -> Any:
    """The default of the field ``name`` (before any environment variable)."""
    return Settings.model_fields[name].default


def load_settings(**given: Any) -> Settings:
    """Settings from the values ``given`` (``None``: not given), else the ``KONKUN_*``
    environment, else the defaults; raise :class:`SettingsError` naming a bad value."""
    try:
        return Settings(**{name: value for name, value in given.items() if value is not None})
    except ValidationError as error:
        problem = error.errors()[0]
        where = ".".join(str(part) for part in problem["loc"])
        named = f"setting {where} (option or ${ENV_PREFIX}{where.upper()})" if where else "setting"
        reason = str(problem["msg"]).removeprefix("Value error, ")
        raise SettingsError(f"invalid {named}: {reason}") from None
