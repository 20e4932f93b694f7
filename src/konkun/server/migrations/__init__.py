"""The server's schema under Alembic: the revisions in ``versions/``, run at server start.

:func:`upgrade_schema` brings any database to the newest revision inside one transaction.
A database made before migrations existed (by ``Base.metadata.create_all``: its tables but
no ``alembic_version``) is recognised by the tables it has and stamped at the revision that
made exactly those, then upgraded: it is never recreated and keeps every row. No
``alembic.ini`` is needed: :func:`alembic_config` builds the configuration in code.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
from collections.abc import Iterator
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import MetaData, inspect, text
from sqlalchemy.engine import Connection, Engine

HERE = Path(__file__).resolve().parent
"""The script directory: ``env.py``, ``script.py.mako`` and ``versions/``."""

TABLES_BY_REVISION: tuple[tuple[str, frozenset[str]], ...] = (
    ("0001", frozenset({"konkun_tables", "konkun_actions"})),
    ("0002", frozenset({"konkun_table_extras"})),
    ("0003", frozenset({"konkun_chat"})),
    ("0004", frozenset({"konkun_revoked"})),
    ("0005", frozenset({"konkun_accounts", "konkun_sessions", "konkun_ratings",
                        "konkun_player_games"})),
    ("0006", frozenset({"konkun_fairness"})),
    ("0007", frozenset({"konkun_clocks"})),
    ("0008", frozenset({"konkun_login_events"})),
)
"""The tables each revision creates, in order: how a database made by ``create_all`` before
migrations existed is recognised (every revision that only alters tables is absent)."""


MODELS: tuple[tuple[str, str], ...] = (
    ("konkun.server.store.storage", "Base"),
    ("konkun.server.features.lifecycle", "ExtrasRow"),
    ("konkun.server.features.chat", "ChatRow"),
    ("konkun.server.accounts.accounts", "AccountRow"),
    ("konkun.server.accounts.ratings_service", "RatingRow"),
    ("konkun.server.features.fair", "FairRow"),
    ("konkun.server.cluster.clockstore", "ClockRow"),
    ("konkun.server.store.clusterlimits", "LoginEventRow"),
)
"""(module, declarative class) of every model of the schema; a module not in the package
(yet) is skipped."""


def model_metadata() -> list[MetaData]:
    """The metadata of every model of the schema (what autogenerate compares with)."""
    found = []
    for module, name in MODELS:
        if importlib.util.find_spec(module) is not None:
            metadata = getattr(importlib.import_module(module), name).metadata
            if metadata not in found:
                found.append(metadata)
    return found


def alembic_config(connection: Connection | None = None, url: str | None = None) -> Config:
    """The Alembic configuration of the konkun schema, to run on ``connection`` (or on a
    new engine for ``url``, as the ``alembic`` command line does)."""
    config = Config()
    config.set_main_option("script_location", str(HERE))
    if url is not None:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    """The newest revision of the scripts."""
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    if head is None:  # pragma: no cover - the package always ships its revisions
        raise RuntimeError(f"no Alembic revision under {HERE / 'versions'}")
    return head


def current_revision(connection: Connection) -> str | None:
    """The revision a database is stamped at (``None``: not under migrations yet)."""
    return MigrationContext.configure(connection).get_current_revision()


def unversioned_revision(connection: Connection) -> str | None:
    """The revision whose schema a database without ``alembic_version`` already has: the
    last of :data:`TABLES_BY_REVISION` whose tables, and all earlier ones', exist
    (``None``: an empty database)."""
    existing = set(inspect(connection).get_table_names())
    matched = None
    for revision, tables in TABLES_BY_REVISION:
        if not tables <= existing:
            break
        matched = revision
    return matched


MIGRATION_LOCK = 0x6B6F6E6B756E
"""The PostgreSQL advisory lock held while migrating, so that two servers starting on one
database at once migrate one after the other (the second finds it up to date); SQLite's
``BEGIN IMMEDIATE`` does the same there."""


def upgrade_schema(engine: Engine) -> None:
    """Bring the database of ``engine`` to the newest revision, in one transaction: a
    revision that fails leaves the database as it was."""
    with engine.connect() as connection, _transactional_ddl(connection), connection.begin():
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                               {"key": MIGRATION_LOCK})
        elif connection.dialect.name == "sqlite":
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        config = alembic_config(connection)
        if current_revision(connection) is None:
            found = unversioned_revision(connection)
            if found is not None:
                command.stamp(config, found)
        command.upgrade(config, "head")


@contextlib.contextmanager
def _transactional_ddl(connection: Connection) -> Iterator[None]:
    """On SQLite, let the migration's own ``BEGIN IMMEDIATE`` open the transaction: Python's
    ``sqlite3`` otherwise runs ``CREATE``/``DROP`` outside any (it begins one only before
    ``INSERT``, ``UPDATE`` and ``DELETE``), and ``IMMEDIATE`` takes the write lock at once,
    so two servers migrate one after the other."""
    if connection.dialect.name != "sqlite":
        yield
        return
    driver = connection.connection.driver_connection
    if driver is None:  # pragma: no cover - a live connection always has its driver's
        raise RuntimeError("no sqlite3 connection under the engine's connection")
    previous = driver.isolation_level
    driver.isolation_level = None
    try:
        yield
    finally:
        driver.isolation_level = previous
