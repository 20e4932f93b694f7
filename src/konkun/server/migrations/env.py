"""Alembic's environment for the konkun schema: run on the connection the server hands over
(``config.attributes["connection"]``), or on an engine for ``sqlalchemy.url``. SQLite gets
batch mode, since it cannot ALTER most of a table in place."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine
from sqlalchemy.engine import Connection

from konkun.server.storage import Base

config = context.config
target_metadata = Base.metadata


def run_on(connection: Connection) -> None:
    """Run the pending revisions on ``connection``."""
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=connection.dialect.name == "sqlite",
                      compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


def run() -> None:
    """Online migrations only: the server always has a live database."""
    connection = config.attributes.get("connection")
    if connection is not None:
        run_on(connection)
        return
    url = config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("konkun migrations: no connection and no sqlalchemy.url")
    engine = create_engine(url)
    try:
        with engine.begin() as new_connection:
            run_on(new_connection)
    finally:
        engine.dispose()


run()
