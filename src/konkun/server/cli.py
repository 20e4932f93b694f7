"""``konkun serve``: start the web app and print the address to open."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import socket
import sys
from pathlib import Path
from typing import Any

from konkun.errors import KonkunError
from konkun.server.core.config import (
    Settings,
    SettingsError,
    default,
    load_settings,
    numeric_settings,
)

WS_MAX_FRAME = 64 * 1024
"""WebSocket frames over this many bytes close the connection (uvicorn's ``ws_max_size``)."""


class ServeError(KonkunError):
    """``konkun serve`` cannot start (bad address, database URL, port in use, ...)."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``konkun serve`` to the command line."""
    parser = subparsers.add_parser(
        "serve", help="start the web app (lobby, tables, replays)",
        description="Start the konkun web app and print the address to open.")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument("--db", metavar="URL", default=None,
                        help="SQLAlchemy database URL (default: SQLite in the data directory)")
    parser.add_argument("--data-dir", metavar="DIR", default=None, type=Path,
                        help="holds the SQLite database and the token secret "
                             f"(default ./{default('data_dir')}, created on demand)")
    parser.add_argument("--bot-delay", type=float, default=None,
                        metavar="SECONDS",
                        help=f"pause before each bot move (default {default('bot_delay')})")
    parser.add_argument("--limit", action="append", default=[], metavar="NAME=VALUE",
                        help="change one limit (repeatable): " + ", ".join(LIMITS)
                        + " (docs/server.md, Running in public)")
    parser.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                        help="another origin (https://example.org) whose pages may open "
                             "the table WebSockets (repeatable; default: the served host)")
    parser.add_argument("--forwarded-allow-ips", metavar="IPS", default=None,
                        help="proxies whose X-Forwarded-For/-Proto headers are trusted "
                             "(comma-separated addresses, or *); default: none")
    parser.add_argument("--workers", type=int, default=1, metavar="N",
                        help="start N server processes sharing the port (N > 1 needs a "
                             "PostgreSQL --db; docs/server.md, Scaling out)")
    parser.add_argument("--log-level", default="warning",
                        choices=["critical", "error", "warning", "info", "debug"])
    parser.set_defaults(handler=serve)


def serve(namespace: argparse.Namespace) -> int:
    """Run the server until interrupted."""
    import uvicorn

    from konkun.server.app import create_app

    if not 0 <= namespace.port <= 65535:
        raise ServeError(f"invalid port {namespace.port!r}: expected 0..65535")
    if namespace.bot_delay is not None and namespace.bot_delay < 0:
        raise ServeError(f"invalid --bot-delay {namespace.bot_delay!r}: expected >= 0")
    try:
        settings = load_settings(db_url=namespace.db, data_dir=namespace.data_dir,
                                 bot_delay=namespace.bot_delay,
                                 forwarded_allow_ips=namespace.forwarded_allow_ips,
                                 allowed_origins=tuple(namespace.allow_origin))
    except SettingsError as error:
        raise ServeError(str(error)) from None
    for pair in namespace.limit:
        set_limit(settings, pair)
    workers = getattr(namespace, "workers", 1)
    if workers != 1:
        check_workers(workers, settings.database_url())
    check_database(settings.database_url())
    if workers > 1:
        return _serve_workers(namespace, settings, workers)
    try:
        app = create_app(settings)
    except (ValueError, OSError) as error:
        raise ServeError(f"cannot start: {error}") from None
    server = uvicorn.Server(uvicorn_config(app, settings, namespace.host, namespace.port,
                                           namespace.log_level))
    shown = "127.0.0.1" if namespace.host in {"0.0.0.0", "::"} else namespace.host
    if ":" in shown:
        shown = f"[{shown}]"
    database = _safe_url(settings.database_url())

    listener = _listen(namespace.host, namespace.port)
    port = listener.getsockname()[1]

    async def run() -> None:
        task = asyncio.create_task(server.serve(sockets=[listener]))
        while not server.started and not task.done():
            await asyncio.sleep(0.05)
        if server.started:
            print(f"konkun: open http://{shown}:{port}/  (database {database}; "
                  "Ctrl-C stops)", flush=True)
        await task

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run())
    if not server.started:
        print(f"konkun: could not start on {namespace.host}:{port}", file=sys.stderr)
        return 1
    return 0


def check_workers(workers: int, url: str) -> None:
    """Refuse ``--workers`` below 1, or above 1 on a database only one process may use."""
    from sqlalchemy.engine import make_url

    if workers < 1:
        raise ServeError(f"invalid --workers {workers!r}: expected 1 or more")
    try:
        backend = make_url(url).get_backend_name()
    except Exception:
        return  # check_database names the bad URL
    if backend != "postgresql":
        raise ServeError(f"--workers {workers} needs a PostgreSQL database (--db "
                         "postgresql+psycopg://user@host/konkun): with SQLite each process "
                         "would keep its own tables; SQLite serves one process")


def _serve_workers(namespace: argparse.Namespace, settings: Settings, workers: int) -> int:
    """``--workers N``: N processes serving one listening socket (forked after it is
    bound), sharing the secret (read or made once, here) and the PostgreSQL database."""
    import uvicorn

    from konkun.server.app import create_app
    from konkun.server.core.auth import load_secret
    from konkun.server.core.workers import supervise

    settings.secret = load_secret(settings.secret, settings.data_dir)
    listener = _listen(namespace.host, namespace.port)
    port = listener.getsockname()[1]

    def run_one() -> int:
        try:
            app = create_app(settings)
        except (ValueError, OSError) as error:
            print(f"konkun: cannot start: {error}", file=sys.stderr)
            return 1
        server = uvicorn.Server(uvicorn_config(app, settings, namespace.host, port,
                                               namespace.log_level))
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(server.serve(sockets=[listener]))
        return 0 if server.started else 1

    shown = "127.0.0.1" if namespace.host in {"0.0.0.0", "::"} else namespace.host
    shown = f"[{shown}]" if ":" in shown else shown
    banner = (f"konkun: open http://{shown}:{port}/  ({workers} processes, database "
              f"{_safe_url(settings.database_url())}; Ctrl-C stops)")
    return supervise(workers, run_one, banner)


LIMITS = tuple(name for name in numeric_settings() if name != "bot_delay")
"""The :class:`Settings` fields ``--limit NAME=VALUE`` may change."""


def set_limit(settings: Settings, pair: str) -> None:
    """Apply one ``--limit NAME=VALUE``; raise :class:`ServeError` naming a bad one."""
    name, _, text = pair.partition("=")
    name = name.strip().replace("-", "_")
    if name not in LIMITS:
        raise ServeError(f"unknown --limit {name!r}: expected one of {', '.join(LIMITS)}")
    kind = type(getattr(settings, name))
    try:
        value = kind(text.strip())
    except ValueError:
        raise ServeError(f"invalid --limit {pair!r}: expected a number") from None
    if not value >= 0 or value == float("inf"):
        raise ServeError(f"invalid --limit {pair!r}: expected a finite number >= 0")
    setattr(settings, name, value)


def uvicorn_config(app: Any, settings: Settings, host: str, port: int,
                   log_level: str) -> Any:
    """The uvicorn configuration of a konkun server: frame size, lifetimes (header, body
    and idle timeouts, room near the open-file limit) and the trusted proxies.

    WebSockets are never compressed: a table socket carries chat the opponent writes next
    to the player's hand, and a shared deflate context would leak the hand through the
    compressed sizes (a CRIME-like attack), so ``permessage-deflate`` is refused."""
    import uvicorn

    from konkun.server.core.guard import guarded_protocol

    trusted = settings.forwarded_allow_ips
    return uvicorn.Config(
        app, host=host, port=port, ws_max_size=WS_MAX_FRAME, log_level=log_level,
        ws_per_message_deflate=False,
        lifespan="on", http=guarded_protocol(settings.header_seconds),
        timeout_keep_alive=max(1, round(settings.idle_seconds)),
        proxy_headers=trusted is not None, forwarded_allow_ips=trusted or "",
        server_header=False)


def _listen(host: str, port: int) -> socket.socket:
    """A listening socket on (host, port); raise :class:`ServeError` in one line."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
        listener.listen(2048)
    except (OSError, OverflowError) as error:
        listener.close()
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise ServeError(f"cannot listen on {host}:{port}: {reason}") from None
    listener.setblocking(False)
    return listener


def check_database(url: str) -> None:
    """Open the database once (creating the schema, and the SQLite directory); raise
    :class:`ServeError` in one line when the URL is bad or the database unreachable."""
    from konkun.server.store.storage import Storage

    try:
        shown = _safe_url(url)
    except Exception:
        raise ServeError(f"invalid --db URL {url!r}: expected a SQLAlchemy URL such as "
                         "sqlite:///path/konkun.sqlite3 or "
                         "postgresql+psycopg://user:password@host/konkun") from None
    try:
        Storage(url).close()
    except Exception as error:
        reason = " ".join(str(error).split()) or type(error).__name__
        raise ServeError(f"cannot open the database {shown}: {reason[:300]}") from None


def _safe_url(url: str) -> str:
    """A database URL with its password hidden."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
