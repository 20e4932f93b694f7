"""``konkun_revoked``: the token sessions revoked by ``POST /api/revoke``
(``konkun.server.store.storage.RevokedRow``).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create ``konkun_revoked``."""
    op.create_table(
        "konkun_revoked",
        sa.Column("session", sa.String(64), nullable=False),
        sa.Column("revoked_at", sa.String(40), nullable=False),
        sa.PrimaryKeyConstraint("session"),
    )


def downgrade() -> None:
    """Drop ``konkun_revoked``."""
    op.drop_table("konkun_revoked")
