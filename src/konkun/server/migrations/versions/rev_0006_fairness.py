"""``konkun_fairness``: each table's secret server seed and its seats' contributions to
the match seed (``konkun.server.features.fair.FairRow``, ``docs/fairness.md``).

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create ``konkun_fairness``."""
    op.create_table(
        "konkun_fairness",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("server_seed", sa.String(64), nullable=False),
        sa.Column("contributions", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("table_id"),
    )


def downgrade() -> None:
    """Drop ``konkun_fairness``."""
    op.drop_table("konkun_fairness")
