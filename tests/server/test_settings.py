"""The server's settings: each field also comes from ``KONKUN_<FIELD>``; an explicit value
(a ``konkun serve`` option) wins over the environment; bad values are refused by name."""

from __future__ import annotations

from pathlib import Path

import pytest

from konkun.cli import main
from konkun.server.cli import LIMITS
from konkun.server.core.config import Settings, SettingsError, load_settings


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """No ``KONKUN_<FIELD>`` variable of the caller's environment leaks into a test."""
    for name in Settings.model_fields:
        monkeypatch.delenv(f"KONKUN_{name.upper()}", raising=False)


def test_the_defaults_are_those_documented() -> None:
    settings = Settings()
    assert settings.db_url is None
    assert settings.data_dir == Path("konkun-data")
    assert settings.bot_delay == 0.4
    assert settings.max_tables == 500
    assert settings.database_url().endswith("/konkun-data/konkun.sqlite3")


def test_every_field_is_read_from_its_konkun_variable(monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path: Path) -> None:
    monkeypatch.setenv("KONKUN_DB_URL", "sqlite:///elsewhere.db")
    monkeypatch.setenv("KONKUN_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("KONKUN_BOT_DELAY", "1.5")
    monkeypatch.setenv("KONKUN_MAX_TABLES", "7")
    monkeypatch.setenv("konkun_forwarded_allow_ips", "10.0.0.1")
    settings = Settings()
    assert settings.database_url() == "sqlite:///elsewhere.db"
    assert settings.data_dir == tmp_path
    assert settings.bot_delay == 1.5
    assert settings.max_tables == 7
    assert settings.forwarded_allow_ips == "10.0.0.1"


def test_a_value_given_wins_over_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KONKUN_MAX_TABLES", "7")
    monkeypatch.setenv("KONKUN_BOT_DELAY", "1.5")
    assert Settings(max_tables=3).max_tables == 3
    settings = load_settings(max_tables=None, bot_delay=0.0)
    assert (settings.max_tables, settings.bot_delay) == (7, 0.0)


def test_a_field_may_be_assigned_after_construction() -> None:
    settings = Settings()
    settings.bot_delay = 30.0
    settings.max_tables = 1
    assert (settings.bot_delay, settings.max_tables) == (30.0, 1)


@pytest.mark.parametrize("value", ["many", "-1", "inf", "nan"])
def test_a_bad_variable_is_refused_by_name(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("KONKUN_MAX_BOT_SECONDS", value)
    with pytest.raises(SettingsError, match="max_bot_seconds"):
        load_settings()


def test_an_unknown_setting_is_refused() -> None:
    with pytest.raises(SettingsError, match="max_tabels"):
        load_settings(max_tabels=3)


def test_serve_refuses_a_bad_variable_in_one_line(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path) -> None:
    monkeypatch.setenv("KONKUN_MAX_TABLES", "lots")
    assert main(["serve", "--data-dir", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.strip().splitlines()) == 1
    assert "KONKUN_MAX_TABLES" in captured.err


def test_serve_uses_the_database_of_konkun_db_url(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path) -> None:
    monkeypatch.setenv("KONKUN_DB_URL", "nosuchdialect://x/y")
    assert main(["serve", "--data-dir", str(tmp_path)]) == 2
    assert "nosuchdialect" in capsys.readouterr().err


def test_the_limits_are_the_numeric_fields_but_the_bot_delay() -> None:
    assert {"max_tables", "rate_burst", "waiting_table_seconds", "idle_seconds"} <= set(LIMITS)
    assert not {"bot_delay", "db_url", "data_dir", "secret", "static_dir"} & set(LIMITS)
