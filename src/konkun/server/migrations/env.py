"""Alembic's environment for the konkun schema: run on the connection the server hands over
(``config.attributes["connection"]``), or on an engine for ``sqlalchemy.url``. SQLite gets
batch mode, since it cannot ALTER most of a table in place. Autogenerate compares with
every model of the schema and never proposes dropping a table no model names (write a
drop by hand)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine
from sqlalchemy.engine import Connection

from konkun.server.migrations import model_metadata

config = context.config
target_metadata = model_metadata()


def include_object(_object: object, _name: str | None, type_: str, reflected: bool,
                   compare_to: object | None) -> bool:
    """Leave out of autogenerate a table found in the database that no model defines."""
    return not (type_ == "table" and reflected and compare_to is None)


def run_on(connection: Connection) -> None:
    """Run the pending revisions on ``connection``."""
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=connection.dialect.name == "sqlite",
                      compare_type=True, include_object=include_object)
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
