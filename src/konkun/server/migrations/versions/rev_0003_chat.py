"""``konkun_chat``: the chat messages of each table, numbered from 1 within it
(``konkun.server.features.chat.ChatRow``).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create ``konkun_chat``."""
    op.create_table(
        "konkun_chat",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("text", sa.String(1000), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("at", sa.String(40), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "number"),
    )


def downgrade() -> None:
    """Drop ``konkun_chat``."""
    op.drop_table("konkun_chat")
