"""The game record as commit c7051c8 made it with ``create_all``: tables and their actions.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create ``konkun_tables`` (with its status index) and ``konkun_actions``."""
    op.create_table(
        "konkun_tables",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("variant", sa.String(32), nullable=True),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("seed", sa.String(128), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("started_at", sa.String(40), nullable=True),
        sa.Column("finished_at", sa.String(40), nullable=True),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("totals", sa.JSON(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_konkun_tables_status", "konkun_tables", ["status"])
    op.create_table(
        "konkun_actions",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("action", sa.String(512), nullable=False),
        sa.Column("played_at", sa.String(40), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["konkun_tables.id"]),
        sa.PrimaryKeyConstraint("table_id", "turn"),
    )


def downgrade() -> None:
    """Drop the game record (every game is lost)."""
    op.drop_table("konkun_actions")
    op.drop_index("ix_konkun_tables_status", table_name="konkun_tables")
    op.drop_table("konkun_tables")
