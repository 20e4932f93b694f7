"""``konkun_login_events``: the login attempts per address and failures per account, so
that several server processes on one database share the login limiter's windows
(``konkun.server.store.clusterlimits.LoginEventRow``).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision: str | None = "0007"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create ``konkun_login_events``."""
    op.create_table(
        "konkun_login_events",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("key", sa.String(200), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_konkun_login_events_key", "konkun_login_events", ["key"])


def downgrade() -> None:
    """Drop ``konkun_login_events``."""
    op.drop_index("ix_konkun_login_events_key", table_name="konkun_login_events")
    op.drop_table("konkun_login_events")
