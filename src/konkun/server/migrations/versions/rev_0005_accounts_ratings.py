"""Accounts and ratings: ``konkun_accounts`` and ``konkun_sessions``
(``konkun.server.accounts.accounts``), ``konkun_ratings`` and ``konkun_player_games``
(``konkun.server.accounts.ratings_service``). Every finished game already stored gets its human
seats indexed in ``konkun_player_games`` (unrated), so that a guest who claims an account
keeps the games played before this revision.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None

_TABLES = sa.table(
    "konkun_tables", sa.column("id", sa.String()), sa.column("game", sa.String()),
    sa.column("variant", sa.String()), sa.column("seats", sa.JSON()),
    sa.column("status", sa.String()), sa.column("finished_at", sa.String()),
    sa.column("winner", sa.Integer()), sa.column("totals", sa.JSON()))


def _pool(game: str, seats: int) -> str | None:
    """The rating pool (as ``ratings_service.pool_of`` at this revision)."""
    if game == "konchinka":
        return "konchinka-2" if seats == 2 else "konchinka-3-4"
    return "kunken" if game == "kunken" else None


def upgrade() -> None:
    """Create the four tables, then index the finished games' human seats."""
    op.create_table(
        "konkun_accounts",
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("nickname", sa.String(200), nullable=False),
        sa.Column("skeleton", sa.String(200), nullable=False),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("password_changed_at", sa.String(40), nullable=False),
        sa.PrimaryKeyConstraint("player_id"),
        sa.UniqueConstraint("skeleton"),
    )
    op.create_table(
        "konkun_sessions",
        sa.Column("session", sa.String(64), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.PrimaryKeyConstraint("session"),
    )
    op.create_index("ix_konkun_sessions_player_id", "konkun_sessions", ["player_id"])
    op.create_table(
        "konkun_ratings",
        sa.Column("pool", sa.String(16), nullable=False),
        sa.Column("player_id", sa.String(40), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rd", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.String(40), nullable=False),
        sa.PrimaryKeyConstraint("pool", "player_id"),
    )
    games = op.create_table(
        "konkun_player_games",
        sa.Column("player_id", sa.String(40), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("variant", sa.String(32), nullable=True),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=True),
        sa.Column("finished_at", sa.String(40), nullable=False),
        sa.Column("pool", sa.String(16), nullable=True),
        sa.Column("rating", sa.Float(), nullable=True),
        sa.Column("rd", sa.Float(), nullable=True),
        sa.Column("change", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("player_id", "table_id", "seat"),
    )
    op.create_index("ix_konkun_player_games_finished_at", "konkun_player_games",
                    ["finished_at"])
    assert games is not None
    _index_finished_games(games)


def _index_finished_games(games: sa.Table) -> None:
    """A row per human seat of every finished game stored so far."""
    connection = op.get_bind()
    rows: list[dict[str, Any]] = []
    for table in connection.execute(sa.select(_TABLES).where(
            _TABLES.c.status == "finished")).mappings():
        seats = table["seats"] or []
        totals = table["totals"] or []
        for number, seat in enumerate(seats):
            if seat.get("kind") != "human" or not seat.get("player_id"):
                continue
            rows.append({
                "player_id": str(seat["player_id"])[:40], "table_id": table["id"],
                "seat": number, "game": table["game"], "variant": table["variant"],
                "seats": len(seats), "name": str(seat.get("name") or "")[:200],
                "won": table["winner"] == number,
                "total": totals[number] if number < len(totals) else None,
                "finished_at": table["finished_at"] or "",
                "pool": _pool(table["game"], len(seats)), "rating": None, "rd": None,
                "change": None})
    if rows:
        op.bulk_insert(games, rows)


def downgrade() -> None:
    """Drop the four tables."""
    op.drop_index("ix_konkun_player_games_finished_at", "konkun_player_games")
    op.drop_table("konkun_player_games")
    op.drop_table("konkun_ratings")
    op.drop_index("ix_konkun_sessions_player_id", "konkun_sessions")
    op.drop_table("konkun_sessions")
    op.drop_table("konkun_accounts")
