"""The same durability guarantees on PostgreSQL (``konkun serve --db postgresql+psycopg://...``):
actions stored before they are acknowledged, and a restarted server resuming every table."""

from __future__ import annotations

from pathlib import Path

import pytest

from konkun.server.core.config import Settings

from . import test_durability
from .postgres import PostgresServer


@pytest.fixture
def settings(tmp_path: Path, postgres: PostgresServer) -> Settings:
    """Settings for a server on a fresh PostgreSQL database."""
    return Settings(data_dir=tmp_path / "data", secret="test-secret", bot_delay=0.0,
                    db_url=postgres.new_database_url())


def test_every_acknowledged_action_is_already_in_postgresql(settings: Settings) -> None:
    test_durability.test_every_acknowledged_action_is_already_in_the_database(settings)


@pytest.mark.parametrize("game", ["konchinka", "kunken"])
def test_a_restarted_server_resumes_every_table_from_postgresql(settings: Settings,
                                                                game: str) -> None:
    test_durability.test_a_restarted_server_resumes_every_unfinished_table_exactly(settings,
                                                                                    game)


def test_a_finished_game_is_kept_in_postgresql(settings: Settings) -> None:
    test_durability.test_a_finished_game_is_kept_after_a_restart(settings)
