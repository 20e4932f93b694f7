"""``konkun_actions.stand_in``: whether the stand-in bot played the action for an absent,
timed-out or resigned person, so that the move log and the replay mark it. Actions stored
before this revision read as played by their seat's holder.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision: str | None = "0009"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``stand_in`` (false for every action stored so far)."""
    with op.batch_alter_table("konkun_actions") as batch:
        batch.add_column(sa.Column("stand_in", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))


def downgrade() -> None:
    """Drop ``stand_in``."""
    with op.batch_alter_table("konkun_actions") as batch:
        batch.drop_column("stand_in")
