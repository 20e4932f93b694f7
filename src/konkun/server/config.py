"""The settings of one server: where it stores, how it signs, and its limits."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

DEFAULT_DATA_DIR = Path("konkun-data")
DB_FILE = "konkun.sqlite3"


def default_db_url(data_dir: Path) -> str:
    """The embedded SQLite database in ``data_dir`` (created on demand)."""
    return f"sqlite:///{(data_dir / DB_FILE).resolve()}"


@dataclass
class Settings:
    """Everything ``konkun serve`` can set; the defaults suit a home server."""

    db_url: str | None = None
    """Any SQLAlchemy URL; ``None``: SQLite in ``data_dir``."""
    data_dir: Path = DEFAULT_DATA_DIR
    """Holds the SQLite database and the token secret; created on demand."""
    secret: str | None = None
    """The token-signing secret; ``None``: ``$KONKUN_SECRET`` or a file in ``data_dir``."""
    bot_delay: float = 0.4
    """Seconds a bot waits before it plays, so that a human sees each move."""
    bot_threads: int = 2
    """Worker threads that run bots (the event loop never runs one)."""
    max_tables: int = 500
    """Most unfinished tables at once."""
    max_connections: int = 1000
    """Most WebSocket connections at once."""
    max_table_connections: int = 64
    """Most WebSocket connections on one table."""
    rate_burst: float = 20
    """Messages one connection may send at once."""
    rate_per_second: float = 10
    """Messages one connection may send per second, sustained."""
    http_burst: float = 60
    """Requests that change something (POST, hints) one client address may make at once."""
    http_per_second: float = 5
    """... and per second, sustained."""
    max_bot_seconds: float = 10.0
    """The largest ``time=`` a bot spec may ask for."""
    static_dir: Path | None = None
    """The browser page's files; ``None``: the package's ``server/static``."""
    waiting_expiry: float = 3600.0
    """Seconds a waiting table nobody joins is kept before it is cancelled."""
    away_grace: float = 2.0
    """Seconds an away seat's move waits before the stand-in bot plays it."""
    absent_vote_after: float = 60.0
    """Seconds a disconnected player is gone before the others may vote a bot in."""

    def database_url(self) -> str:
        """The database URL in force."""
        return self.db_url or default_db_url(self.data_dir)

    def static_path(self) -> Path:
        """The directory served under ``/static``."""
        return self.static_dir or Path(__file__).resolve().parent / "static"
