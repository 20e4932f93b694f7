"""``konkun_clocks``: each table's move clock (turn, start, away seats, votes) as one JSON
object, so that a restart or another server process picks it up
(``konkun.server.cluster.clockstore.ClockRow``).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create ``konkun_clocks``."""
    op.create_table(
        "konkun_clocks",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("table_id"),
    )


def downgrade() -> None:
    """Drop ``konkun_clocks``."""
    op.drop_table("konkun_clocks")
