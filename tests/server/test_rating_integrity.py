"""Ratings are earned by playing (issue 33, item 2; docs/ratings.md): the stand-in's moves
earn nothing, rated tables play the standard rules with a clock and seat accounts only,
leaderboards list established ratings only, and the same two accounts move each other's
ratings a limited number of times a day. Storage on SQLite and PostgreSQL."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from konkun.server.accounts.ratings_service import (
    PAIR_GAMES_PER_DAY,
    RatingStore,
    initial_rating,
)
from konkun.server.core.config import Settings

from .test_rated_games import account, create, sit
from .test_rated_games import client as client
from .test_ratings_service import finished, human
from .test_ratings_service import store as store


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """A stand-in that plays an away seat at once."""
    return Settings(data_dir=tmp_path / "data", secret="test-secret", bot_delay=0.0,
                    refusal_seconds=0.0, socket_burst=10_000, away_grace=0.0)


def test_nine_thrown_games_between_two_fresh_accounts_stay_below_strong_and_off_the_board(
        store: RatingStore) -> None:
    for number in range(9):  # the same day, Ann wins every one
        store.record_finished(finished(f"t{number}", [human("ann"), human("bob")], [15, 0],
                                       at=f"2026-12-01T1{number}:00:00+00:00"),
                              True, {"ann", "bob"})
    (ann,) = store.profile("ann")["ratings"]
    strong = initial_rating("konchinka-2", "bot:strong").rating
    assert ann["games"] == PAIR_GAMES_PER_DAY  # the rest moved nothing
    assert ann["rating"] < strong
    board = [e["player_id"] for e in store.leaderboard("konchinka-2")]
    assert "ann" not in board and "bob" not in board
    assert "bot:strong" in board


def test_the_pair_cap_is_per_day(store: RatingStore) -> None:
    for number in range(PAIR_GAMES_PER_DAY + 1):
        store.record_finished(finished(f"a{number}", [human("ann"), human("bob")], [15, 0],
                                       at=f"2026-12-01T1{number}:00:00+00:00"), True,
                              {"ann", "bob"})
    changes = store.record_finished(finished("next-day", [human("ann"), human("bob")],
                                             [15, 0], at="2026-12-02T18:00:00+00:00"),
                                    True, {"ann", "bob"})
    assert {c.player for c in changes} == {"ann", "bob"}


def test_an_established_rating_against_several_opponents_is_listed(
        store: RatingStore) -> None:
    opponents = ["bob", "cyd", "dan", "eve"]
    for day in range(1, 5):
        for hour in range(PAIR_GAMES_PER_DAY):
            for other in opponents:
                store.record_finished(
                    finished(f"t{day}-{hour}-{other}", [human("ann"), human(other)],
                             [15, 8] if (day + hour) % 2 else [8, 15],
                             at=f"2026-12-{day:02d}T1{hour}:00:00+00:00"),
                    True, {"ann", *opponents})
    (ann,) = store.profile("ann")["ratings"]
    assert ann["rd"] < 110
    assert "ann" in [e["player_id"] for e in store.leaderboard("konchinka-2")]


def test_a_guest_can_neither_create_nor_sit_at_a_rated_table(client: object) -> None:
    from .conftest import TestClient, guest

    assert isinstance(client, TestClient)
    _, headers = guest(client, "gus")
    refused = client.post("/api/tables", headers=headers,
                          json={"game": "konchinka", "seats": 2, "rated": True})
    assert refused.json()["code"] == "not_an_account"
    owner, _ = account(client, "Ann")
    table = create(client, owner, game="konchinka", seats=2, rated=True)
    seat = client.post(f"/api/tables/{table['id']}/sit", json={"seat": 1}, headers=headers)
    assert seat.json()["code"] == "not_an_account"


def test_a_rated_table_plays_the_standard_rules_with_a_clock(client: object) -> None:
    from .conftest import TestClient

    assert isinstance(client, TestClient)
    owner, _ = account(client, "Ann")
    short = client.post("/api/tables", headers={"Authorization": f"Bearer {owner}"},
                        json={"game": "konchinka", "seats": 2, "rated": True,
                              "rules": {"target": "1"}})
    assert short.json()["code"] == "invalid_rule"
    table = create(client, owner, game="konchinka", seats=2, rated=True)
    assert table["rules"] == {} and table["move_seconds"] > 0


def test_a_person_the_stand_in_played_for_forfeits_her_rating(client: object) -> None:
    from .conftest import TestClient

    assert isinstance(client, TestClient)
    ann, ann_id = account(client, "Ann")
    table = create(client, ann, game="konchinka", seats=2, rated=True,
                   bots={"1": "beginner"})
    sit(client, table["id"], 0, ann)  # and closes the browser: the stand-in plays
    deadline = time.monotonic() + 300
    while client.get(f"/api/tables/{table['id']}").json()["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    deadline = time.monotonic() + 10
    profile = client.get(f"/api/players/{ann_id}").json()
    while not profile["ratings"] and time.monotonic() < deadline:
        time.sleep(0.1)
        profile = client.get(f"/api/players/{ann_id}").json()
    (rating,) = profile["ratings"]
    assert rating["rating"] < 1500  # rated as last, whatever the stand-in scored
