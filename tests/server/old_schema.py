"""Frozen copies of schemas the migrations must take over, written out here (never derived
from today's models) so that a later change to the models cannot change what is tested.

- :data:`C7051C8`: the game record as commit c7051c8's ``Base.metadata.create_all`` made it,
  before migrations existed (``konkun_tables`` with its status index, ``konkun_actions``).
- :data:`WEB_EXTRAS`: the tables the ``web`` work adds (``konkun.server.features.lifecycle``'s
  ``ExtrasRow``, ``konkun.server.features.chat``'s ``ChatRow``,
  ``konkun.server.features.fair``'s ``FairRow`` and
  ``konkun.server.cluster.clockstore``'s ``ClockRow``),
  as its models define them.
"""

from __future__ import annotations

from sqlalchemy import JSON, Column, Float, ForeignKey, Index, Integer, MetaData, String, Table

C7051C8 = MetaData()

TABLES = Table(
    "konkun_tables", C7051C8,
    Column("id", String(32), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("variant", String(32), nullable=True),
    Column("rules", JSON, nullable=False),
    Column("seats", JSON, nullable=False),
    Column("seed", String(128), nullable=True),
    Column("status", String(16), nullable=False),
    Column("created_at", String(40), nullable=False),
    Column("started_at", String(40), nullable=True),
    Column("finished_at", String(40), nullable=True),
    Column("winner", Integer, nullable=True),
    Column("totals", JSON, nullable=True),
    Index("ix_konkun_tables_status", "status"),
)

ACTIONS = Table(
    "konkun_actions", C7051C8,
    Column("table_id", String(32), ForeignKey("konkun_tables.id"), primary_key=True),
    Column("turn", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", String(512), nullable=False),
    Column("played_at", String(40), nullable=False),
)

C7051C8_SQLITE_DDL = [
    "CREATE TABLE konkun_tables (\n\tid VARCHAR(32) NOT NULL, \n\tgame VARCHAR(32) NOT NULL, "
    "\n\tvariant VARCHAR(32), \n\trules JSON NOT NULL, \n\tseats JSON NOT NULL, \n\tseed "
    "VARCHAR(128), \n\tstatus VARCHAR(16) NOT NULL, \n\tcreated_at VARCHAR(40) NOT NULL, "
    "\n\tstarted_at VARCHAR(40), \n\tfinished_at VARCHAR(40), \n\twinner INTEGER, \n\ttotals "
    "JSON, \n\tPRIMARY KEY (id)\n)",
    "CREATE INDEX ix_konkun_tables_status ON konkun_tables (status)",
    "CREATE TABLE konkun_actions (\n\ttable_id VARCHAR(32) NOT NULL, \n\tturn INTEGER NOT NULL, "
    "\n\tseat INTEGER NOT NULL, \n\taction VARCHAR(512) NOT NULL, \n\tplayed_at VARCHAR(40) "
    "NOT NULL, \n\tPRIMARY KEY (table_id, turn), \n\tFOREIGN KEY(table_id) REFERENCES "
    "konkun_tables (id)\n)",
]
"""``sqlite_master.sql`` of a SQLite file made by c7051c8's server (read off one)."""

WEB_EXTRAS = MetaData()

Table(
    "konkun_table_extras", WEB_EXTRAS,
    Column("table_id", String(32), primary_key=True),
    Column("data", JSON, nullable=False),
)

Table(
    "konkun_chat", WEB_EXTRAS,
    Column("table_id", String(32), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("seat", Integer, nullable=True),
    Column("name", String(200), nullable=False),
    Column("text", String(1000), nullable=False),
    Column("turn", Integer, nullable=False),
    Column("at", String(40), nullable=False),
)

Table(
    "konkun_fairness", WEB_EXTRAS,
    Column("table_id", String(32), primary_key=True),
    Column("server_seed", String(64), nullable=False),
    Column("contributions", JSON, nullable=False),
)

Table(
    "konkun_clocks", WEB_EXTRAS,
    Column("table_id", String(32), primary_key=True),
    Column("data", JSON, nullable=False),
)

Table(
    "konkun_login_events", WEB_EXTRAS,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("key", String(200), nullable=False, index=True),
    Column("at", Float, nullable=False),
)
