"""The schema under Alembic: a database made by c7051c8's ``create_all`` (before migrations
existed) is taken over, upgraded and keeps every game, which the server replays; the
migrations' final schema is exactly the models'; on SQLite and on PostgreSQL."""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.operations import Operations
from alembic.runtime.migration import MigrationContext
from sqlalchemy import MetaData, create_engine, insert, inspect, select, text
from sqlalchemy.engine import Engine

from konkun.cards import new_secret_seed
from konkun.nicknames import caps_skeleton, nickname_skeleton
from konkun.server.core.config import Settings
from konkun.server.core.games import get_game
from konkun.server.migrations import (
    alembic_config,
    current_revision,
    head_revision,
    model_metadata,
    unversioned_revision,
    upgrade_schema,
)
from konkun.server.store.storage import Base, Storage, make_engine, now_text

from .conftest import app_of, running
from .old_schema import ACTIONS, C7051C8, C7051C8_SQLITE_DDL, TABLES, WEB_EXTRAS
from .postgres import PostgresServer


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database: a SQLite file, or a database on the private PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'old.sqlite3'}"
    server: PostgresServer = request.getfixturevalue("postgres")
    return server.new_database_url()


@dataclass
class OldGame:
    """A game as c7051c8 stored it, and the match it is, played here move by move."""

    row: dict[str, Any]
    actions: list[tuple[int, str]]
    match: Any


GAMES: list[tuple[str, dict[str, str], int, int | None]] = [
    # (game, rules, seats, moves played: None to the end)
    ("konchinka", {"target": "5"}, 2, None),
    ("konchinka", {"target": "5", "capture_compulsory": "true"}, 3, None),
    ("konchinka", {"target": "5"}, 4, 30),
    ("kunken", {"deals": "1"}, 2, None),
    ("kunken", {"target": "5"}, 3, 40),
    ("kunken", {"deals": "1"}, 2, 0),
]


def _play(number: int, game: str, rules: dict[str, str], seats: int,
          moves: int | None) -> OldGame:
    """Play random legal moves from a fresh secret seed; finished when ``moves`` is None."""
    adapter = get_game(game)
    rng = random.Random(number)
    finished = moves is None
    while True:  # a game meant to be under way must not have ended by chance (a short match)
        seed = new_secret_seed()
        match = adapter.new_match(adapter.check(None, rules, seats), seats, seed)
        actions: list[tuple[int, str]] = []
        while not match.is_over() and (moves is None or len(actions) < moves):
            deal = match.deal
            seat = deal.to_move
            action = rng.choice(deal.legal_actions())
            actions.append((seat, deal.format_action(action)))
            match.play(action)
        if match.is_over() == finished:
            break
    row = {
        "id": f"old{number:07d}", "game": game, "variant": None, "rules": rules,
        "seats": [{"kind": "human", "player_id": f"player{s}", "name": f"p{s}", "bot": None}
                  for s in range(seats)],
        "seed": seed, "status": "finished" if finished else "playing",
        "created_at": now_text(), "started_at": now_text(),
        "finished_at": now_text() if finished else None,
        "winner": match.winner() if finished else None,
        "totals": list(match.totals) if finished else None,
    }
    return OldGame(row, actions, match)


def _waiting_row() -> dict[str, Any]:
    return {"id": "oldwaiting", "game": "konchinka", "variant": None, "rules": {},
            "seats": [{"kind": "human", "player_id": "ann", "name": "ann", "bot": None},
                      {"kind": "empty", "player_id": None, "name": None, "bot": None}],
            "seed": None, "status": "waiting", "created_at": now_text(), "started_at": None,
            "finished_at": None, "winner": None, "totals": None}


def _old_database(url: str) -> tuple[list[OldGame], dict[str, Any]]:
    """Make c7051c8's schema at ``url`` (its frozen copy) and store games in its shape."""
    engine = create_engine(url)
    try:
        C7051C8.create_all(engine)
        if engine.dialect.name == "sqlite":
            with engine.connect() as connection:
                ddl = connection.execute(text("SELECT sql FROM sqlite_master WHERE sql "
                                              "IS NOT NULL ORDER BY rowid")).scalars().all()
            assert ddl == C7051C8_SQLITE_DDL  # the frozen copy is the schema c7051c8 made
        games = [_play(n, *spec) for n, spec in enumerate(GAMES)]
        waiting = _waiting_row()
        with engine.begin() as connection:
            connection.execute(insert(TABLES), [game.row for game in games] + [waiting])
            connection.execute(insert(ACTIONS), [
                {"table_id": game.row["id"], "turn": turn, "seat": seat, "action": action,
                 "played_at": now_text()}
                for game in games for turn, (seat, action) in enumerate(game.actions)])
    finally:
        engine.dispose()
    return games, waiting


def _rows(engine: Engine) -> tuple[set[tuple[Any, ...]], set[tuple[Any, ...]]]:
    """Every stored table and action, as comparable tuples."""
    with engine.connect() as connection:
        tables = {tuple(str(value) for value in row)
                  for row in connection.execute(select(TABLES)).all()}
        actions = {tuple(row) for row in connection.execute(select(ACTIONS)).all()}
    return tables, actions


def test_a_database_made_by_the_c7051c8_schema_is_upgraded_with_every_game_intact(
        db_url: str, tmp_path: Path) -> None:
    games, waiting = _old_database(db_url)
    engine = create_engine(db_url)
    before = _rows(engine)
    settings = Settings(data_dir=tmp_path / "data", secret="test-secret", bot_delay=0.0,
                        db_url=db_url)
    with running(settings) as client:
        lobby = app_of(client).state.lobby
        for game in games:
            summary = client.get(f"/api/tables/{game.row['id']}").json()
            assert summary["status"] == game.row["status"]
            assert summary["turn"] == len(game.actions)
            if game.row["status"] == "finished":
                assert summary["winner"] == game.row["winner"]
                assert summary["totals"] == game.row["totals"]
                replay = client.get(f"/api/tables/{game.row['id']}/replay?seat=all").json()
                assert [(f["actor"], f["action"]) for f in replay["frames"][1:]] == game.actions
                assert replay["frames"][-1]["views"] == [
                    game.match.to_json(s) for s in range(len(game.row["seats"]))]
                assert replay["record"] == game.match.record().to_json()
            else:  # rebuilt at start by replaying its seed and actions
                table = lobby.tables[game.row["id"]]
                assert table.seed == game.row["seed"]
                assert table.turn == len(game.actions)
                assert [table.match.to_json(s) for s in (None, *range(table.num_seats))] == [
                    game.match.to_json(s) for s in (None, *range(table.num_seats))]
        assert lobby.tables[waiting["id"]].status == "waiting"
        finished = client.get("/api/games?finished=1").json()["games"]
        assert {g["id"] for g in finished} == {
            game.row["id"] for game in games if game.row["status"] == "finished"}
    assert _rows(engine) == before
    with engine.connect() as connection:
        assert current_revision(connection) == head_revision()
    engine.dispose()


def test_a_database_made_by_the_c7051c8_schema_is_stamped_at_0001_then_upgraded(
        tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    _old_database(url)
    engine = make_engine(url)
    stamped: list[str | None] = []

    def record_stamp(config: Any, revision: str, **_: Any) -> None:
        stamped.append(revision)
        real_stamp(config, revision)

    real_stamp = command.stamp
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(command, "stamp", record_stamp)
        upgrade_schema(engine)
    assert stamped == ["0001"]
    assert set(inspect(engine).get_table_names()) >= {"konkun_table_extras", "konkun_chat"}
    engine.dispose()


@pytest.mark.parametrize(("existing", "expected"), [
    (set(), None),
    ({"konkun_tables", "konkun_actions"}, "0001"),
    ({"konkun_tables", "konkun_actions", "konkun_table_extras"}, "0002"),
    ({"konkun_tables", "konkun_actions", "konkun_table_extras", "konkun_chat"}, "0003"),
])
def test_a_database_without_alembic_version_is_recognised_by_its_tables(
        existing: set[str], expected: str | None) -> None:
    engine = make_engine("sqlite://")
    metadata = MetaData()
    for table in (*C7051C8.tables.values(), *WEB_EXTRAS.tables.values()):
        if table.name in existing:
            table.to_metadata(metadata)
    metadata.create_all(engine)
    if existing:
        with engine.begin() as connection:
            connection.execute(insert(metadata.tables["konkun_tables"]), [_waiting_row()])
    with engine.connect() as connection:
        assert unversioned_revision(connection) == expected
    upgrade_schema(engine)
    with engine.connect() as connection:
        assert current_revision(connection) == head_revision()
        kept = connection.execute(text("SELECT count(*) FROM konkun_tables")).scalar()
    assert kept == (1 if existing else 0)
    engine.dispose()


ACCOUNT_TABLES = {"konkun_accounts", "konkun_sessions", "konkun_ratings",
                  "konkun_player_games"}
"""The tables of revision 0005 (accounts, sessions, ratings, the games index)."""


def _models() -> MetaData:
    """Every model's metadata (``migrations.model_metadata``: the game record's, and the web
    tables' once their models are in the package), else ``old_schema``'s frozen copy."""
    metadata = MetaData()
    for source in (*model_metadata(), WEB_EXTRAS):
        for table in source.tables.values():
            if table.name not in metadata.tables:
                table.to_metadata(metadata)
    return metadata


def test_the_migrations_end_at_exactly_the_models_schema(db_url: str) -> None:
    engine = make_engine(db_url)
    upgrade_schema(engine)
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, _models()) == []
        extra = {diff[1].name for diff in compare_metadata(context, Base.metadata)
                 if diff[0] == "remove_table"}
        assert extra == (set(WEB_EXTRAS.tables) | ACCOUNT_TABLES) - set(Base.metadata.tables)
    engine.dispose()


def test_the_migrations_downgrade_to_nothing_and_up_again(db_url: str) -> None:
    engine = make_engine(db_url)
    upgrade_schema(engine)
    with engine.begin() as connection:
        command.downgrade(alembic_config(connection), "base")
    assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
    upgrade_schema(engine)
    with engine.connect() as connection:
        assert current_revision(connection) == head_revision()
    engine.dispose()


def test_upgrading_twice_changes_nothing(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    games, _ = _old_database(url)
    Storage(url).close()
    storage = Storage(url)
    try:
        stored = storage.load(games[0].row["id"])
        assert stored is not None
        assert stored.actions == games[0].actions
    finally:
        storage.close()


def test_a_revision_that_fails_leaves_the_database_as_it_was(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    real_create_table = Operations.create_table

    def failing(self: Operations, name: str, *columns: Any, **options: Any) -> Any:
        if name == "konkun_chat":
            raise RuntimeError("the disk is full")
        return real_create_table(self, name, *columns, **options)

    engine = make_engine(db_url)
    monkeypatch.setattr(Operations, "create_table", failing)
    with pytest.raises(RuntimeError, match="the disk is full"):
        upgrade_schema(engine)
    assert inspect(engine).get_table_names() == []  # not even 0001's tables
    monkeypatch.undo()
    upgrade_schema(engine)
    with engine.connect() as connection:
        assert current_revision(connection) == head_revision()
    engine.dispose()


def test_two_servers_starting_at_once_migrate_one_after_the_other(db_url: str) -> None:
    errors: list[BaseException] = []

    def start() -> None:
        try:
            Storage(db_url).close()
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=start) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    engine = create_engine(db_url)
    with engine.connect() as connection:
        assert current_revision(connection) == head_revision()
    engine.dispose()


def test_revision_0005_indexes_every_human_seat_of_the_finished_games(db_url: str) -> None:
    games, _ = _old_database(db_url)
    Storage(db_url).close()
    engine = create_engine(db_url)
    with engine.connect() as connection:
        indexed = {(row.table_id, row.seat): row for row in connection.execute(
            text("SELECT * FROM konkun_player_games")).all()}
        accounts = connection.execute(text("SELECT count(*) FROM konkun_accounts")).scalar()
    engine.dispose()
    finished = [game for game in games if game.row["status"] == "finished"]
    assert set(indexed) == {(game.row["id"], seat) for game in finished
                            for seat in range(len(game.row["seats"]))}
    for game in finished:
        for seat in range(len(game.row["seats"])):
            row = indexed[(game.row["id"], seat)]
            assert row.player_id == f"player{seat}"
            assert bool(row.won) == (game.row["winner"] == seat)
            assert row.total == game.row["totals"][seat]
            assert row.rating is None  # games before accounts are never rated
    assert accounts == 0


def test_revision_0009_computes_both_skeletons_and_keeps_old_look_alikes_apart(
        db_url: str) -> None:
    from alembic import command

    engine = create_engine(db_url)
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "0008")
        for number, (player, nickname) in enumerate([("p1", "Маша"), ("p2", "MAШA"),
                                                      ("p3", "Boris")]):
            connection.execute(text(
                "INSERT INTO konkun_accounts (player_id, nickname, skeleton, password_hash, "
                "created_at, password_changed_at) VALUES (:p, :n, :s, 'h', :t, :t)"),
                {"p": player, "n": nickname, "s": f"old{number}",
                 "t": f"2026-12-0{number + 1}T00:00:00Z"})
    Storage(db_url).close()  # upgrades to the head
    with engine.connect() as connection:
        rows = {row.player_id: row for row in connection.execute(
            text("SELECT player_id, skeleton, caps_skeleton FROM konkun_accounts")).all()}
    engine.dispose()
    assert (rows["p1"].skeleton, rows["p1"].caps_skeleton) == (
        nickname_skeleton("Маша"), caps_skeleton("Маша"))
    assert rows["p2"].caps_skeleton == caps_skeleton("MAШA") + "~p2"  # the later look-alike
    assert (rows["p3"].skeleton, rows["p3"].caps_skeleton) == ("boris", "BORlS")


def test_revision_0010_reads_every_older_action_as_played_by_its_seat(db_url: str) -> None:
    games, _ = _old_database(db_url)
    storage = Storage(db_url)  # upgrades to the head
    try:
        game = games[0]
        stored = storage.load(game.row["id"])
        assert stored is not None
        assert stored.actions == game.actions
        assert stored.stand_in_turns == frozenset()
        seat, text = game.actions[0]
        storage.append_action(game.row["id"], len(game.actions), seat, text, stand_in=True)
        again = storage.load(game.row["id"])
        assert again is not None
        assert again.stand_in_turns == frozenset({len(game.actions) + 1})
    finally:
        storage.close()
