"""Nickname skeletons by Unicode's table (UTS #39, :mod:`konkun.nicknames`): every account's
``skeleton`` (in small letters) is computed again, and ``caps_skeleton`` (in capitals) is
added, unique like it. Where two existing accounts now look alike, the one claimed later
keeps its nickname and its login, but its skeletons get its player id appended, so that
both stay unique (a new look-alike of either is still refused).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from konkun.nicknames import caps_skeleton, nickname_skeleton

revision = "0009"
down_revision: str | None = "0008"
branch_labels: str | None = None
depends_on: str | None = None

_ACCOUNTS = sa.table("konkun_accounts", sa.column("player_id", sa.String),
                     sa.column("nickname", sa.String), sa.column("created_at", sa.String),
                     sa.column("skeleton", sa.String), sa.column("caps_skeleton", sa.String))


def upgrade() -> None:
    """Add ``caps_skeleton`` and compute both skeletons of every account."""
    with op.batch_alter_table("konkun_accounts") as batch:
        batch.add_column(sa.Column("caps_skeleton", sa.String(200), nullable=True))
    connection = op.get_bind()
    rows = connection.execute(sa.select(_ACCOUNTS.c.player_id, _ACCOUNTS.c.nickname)
                              .order_by(_ACCOUNTS.c.created_at, _ACCOUNTS.c.player_id)).all()
    connection.execute(sa.update(_ACCOUNTS).values(skeleton=_ACCOUNTS.c.player_id))
    seen: set[str] = set()
    for player_id, nickname in rows:
        small, caps = nickname_skeleton(nickname), "^" + caps_skeleton(nickname)
        if small in seen or caps in seen:
            small, caps = f"{small}~{player_id}", f"{caps}~{player_id}"
        seen |= {small, caps}
        connection.execute(sa.update(_ACCOUNTS).where(_ACCOUNTS.c.player_id == player_id)
                           .values(skeleton=small, caps_skeleton=caps[1:]))
    with op.batch_alter_table("konkun_accounts") as batch:
        batch.alter_column("caps_skeleton", existing_type=sa.String(200), nullable=False)
        batch.create_unique_constraint("uq_konkun_accounts_caps_skeleton", ["caps_skeleton"])


def downgrade() -> None:
    """Drop ``caps_skeleton`` (the skeletons stay as computed)."""
    with op.batch_alter_table("konkun_accounts") as batch:
        batch.drop_constraint("uq_konkun_accounts_caps_skeleton", type_="unique")
        batch.drop_column("caps_skeleton")
