"""``konkun_table_extras``: what a table carries besides its game (creator, move clock,
hints, rematch), one JSON object per table (``konkun.server.features.lifecycle.ExtrasRow``).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create ``konkun_table_extras``."""
    op.create_table(
        "konkun_table_extras",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("table_id"),
    )


def downgrade() -> None:
    """Drop ``konkun_table_extras``."""
    op.drop_table("konkun_table_extras")
