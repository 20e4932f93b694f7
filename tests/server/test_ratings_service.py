"""Ratings at the server: which finished games count, pairwise updates in the right pool,
the bots at their calibrated ratings, idle growth, the games index and the leaderboard."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest

from konkun.game import RatedPool, Titles, get_game, register_game, unregister_game
from konkun.ratings import Rating, rate
from konkun.ratings.glicko2 import idle
from konkun.server.accounts.ratings_service import (
    RatingStore,
    initial_rating,
    ladder_ratings,
    pool_named,
    pool_of,
    rating_pools,
)
from konkun.server.core.games import get_game as server_game
from konkun.server.store.storage import Storage, StoredTable

from .postgres import PostgresServer


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest) -> Iterator[RatingStore]:
    """A rating store on a fresh database: in-memory SQLite, or the private PostgreSQL."""
    url = "sqlite://"
    if request.param == "postgresql":
        server: PostgresServer = request.getfixturevalue("postgres")
        url = server.new_database_url()
    storage = Storage(url)
    try:
        yield RatingStore(storage.engine)
    finally:
        storage.close()


def human(player: str) -> dict[str, Any]:
    return {"kind": "human", "player_id": player, "name": player.title(), "bot": None}


def bot(spec: str) -> dict[str, Any]:
    return {"kind": "bot", "player_id": None, "name": spec, "bot": spec}


def finished(table_id: str, seats: list[dict[str, Any]], totals: list[int],
             game: str = "konchinka", at: str = "2026-12-01T12:00:00+00:00") -> StoredTable:
    top = max(totals)
    winner = totals.index(top) if totals.count(top) == 1 else None
    return StoredTable(id=table_id, game=game, variant=None, rules={}, seats=seats,
                       seed="s", status="finished", created_at=at, finished_at=at,
                       winner=winner, totals=totals)


def test_the_pools_are_konchinka_by_table_size_and_kunken() -> None:
    assert pool_of("konchinka", 2) == "konchinka-2"
    assert pool_of("konchinka", 3) == pool_of("konchinka", 4) == "konchinka-3-4"
    assert pool_of("kunken", 2) == pool_of("kunken", 4) == "kunken"
    assert pool_of("fake", 2) is None


def test_a_game_is_rated_only_in_the_pools_its_descriptor_declares() -> None:
    """The pools are each game's ``ratings`` add-on: the toy game declares none and is
    unrated; the same game declaring a pool for two players is rated there, and only at
    that table size; the catalog serves the pools with their titles."""
    assert pool_of("toy", 2) is None
    declared = RatedPool("duel", Titles("Duel", "Дуэль"), 2, 2)
    toy = get_game("toy")
    register_game(dataclasses.replace(toy, name="rated-toy",
                                      addons={**toy.addons, "ratings": (declared,)}))
    try:
        assert pool_of("rated-toy", 2) == "duel"
        assert pool_of("rated-toy", 3) is None
        assert pool_named("duel") == declared
        assert [p.name for p in rating_pools()][-1] == "duel"
        assert server_game("rated-toy").catalog()["ratings"] == [
            {"pool": "duel", "title": {"en": "Duel", "ru": "Дуэль"}, "min_seats": 2,
             "max_seats": 2}]
    finally:
        unregister_game("rated-toy")
    assert pool_named("duel") is None
    assert server_game("toy").catalog()["ratings"] == []


def test_a_rated_game_between_two_accounts_moves_both_ratings(store: RatingStore) -> None:
    changes = store.record_finished(finished("t1", [human("ann"), human("bob")], [11, 6]),
                                    True, {"ann", "bob"})
    after = {c.player: c.after for c in changes}
    assert after["ann"] == rate(Rating(), [(Rating(), 1.0)])
    assert after["bob"] == rate(Rating(), [(Rating(), 0.0)])
    ann, bob = (store.profile(p)["ratings"][0] for p in ("ann", "bob"))
    assert ann["rating"] == round(after["ann"].rating, 1) > 1500
    assert bob["rating"] < 1500 and bob["games"] == 1
    board = {e["player_id"] for e in store.leaderboard("konchinka-2")}
    assert not {"ann", "bob"} & board  # not established: one game, one opponent
    profile = store.profile("ann")
    assert profile["played"] == [{"game": "konchinka", "variant": None, "played": 1,
                                  "wins": 1}]
    assert profile["recent"][0]["rated"] is True
    assert profile["recent"][0]["replay"] == "/replay/t1"
    assert [h["rating"] for h in profile["ratings"][0]["history"]] == [
        round(after["ann"].rating, 1)]


def test_recording_a_game_twice_rates_it_once(store: RatingStore) -> None:
    row = finished("t1", [human("ann"), human("bob")], [11, 6])
    assert store.record_finished(row, True, {"ann", "bob"})
    assert store.record_finished(row, True, {"ann", "bob"}) == []
    assert store.profile("ann")["played"][0]["played"] == 1


@pytest.mark.parametrize(("seats", "rated_table", "accounts"), [
    ([human("ann"), human("bob")], False, {"ann", "bob"}),  # a casual table
    ([human("ann"), human("guest")], True, {"ann"}),  # one account and a guest
    ([human("ann"), bot("random")], True, {"ann"}),  # a bot off the ladder
    ([bot("strong"), bot("casual")], True, set()),  # bots alone
    ([human("ann"), human("ann")], True, {"ann"}),  # one account in two seats
])
def test_games_that_do_not_count_are_indexed_but_not_rated(
        store: RatingStore, seats: list[dict[str, Any]], rated_table: bool,
        accounts: set[str]) -> None:
    assert store.record_finished(finished("t1", seats, [9, 3]), rated_table, accounts) == []
    humans = {s["player_id"] for s in seats if s["kind"] == "human"}
    for player in humans:
        assert store.profile(player)["recent"][0]["rated"] is False
        assert store.profile(player)["ratings"] == []


def test_a_guests_games_are_indexed_for_when_they_claim(store: RatingStore) -> None:
    store.record_finished(finished("t1", [human("guest"), bot("greedy")], [2, 9]), True,
                          set())
    recent = store.profile("guest")["recent"]
    assert [(g["table"], g["won"], g["total"]) for g in recent] == [("t1", False, 2)]


def test_an_account_against_a_ladder_bot_counts_and_the_bot_starts_calibrated(
        store: RatingStore) -> None:
    changes = store.record_finished(
        finished("t1", [human("ann"), bot("strong")], [12, 4], game="kunken"), True, {"ann"})
    by_player = {c.player: c for c in changes}
    assert set(by_player) == {"ann", "bot:strong"}
    strong = initial_rating("kunken", "bot:strong")
    assert strong == ladder_ratings()["kunken"]["strong"]
    assert by_player["bot:strong"].before == strong
    assert by_player["ann"].after == rate(Rating(), [(strong, 1.0)])
    assert by_player["bot:strong"].after.rating < strong.rating
    assert store.profile("bot:strong")["ratings"][0]["games"] == 1


def test_a_multi_player_game_is_rated_pairwise(store: RatingStore) -> None:
    seats = [human("ann"), human("bob"), human("cyd"), human("guest")]
    changes = store.record_finished(finished("t1", seats, [15, 9, 9, 20]), True,
                                    {"ann", "bob", "cyd"})
    after = {c.player: c.after for c in changes}
    new = Rating()
    assert after["ann"] == rate(new, [(new, 1.0), (new, 1.0)])  # the guest is left out
    assert after["bob"] == rate(new, [(new, 0.0), (new, 0.5)])
    assert after["cyd"] == after["bob"]
    assert [r["pool"] for r in store.profile("ann")["ratings"]] == ["konchinka-3-4"]


def test_the_deviation_grows_for_the_days_without_a_rated_game(store: RatingStore) -> None:
    store.record_finished(finished("t1", [human("ann"), human("bob")], [11, 6],
                                   at="2026-11-01T12:00:00+00:00"), True, {"ann", "bob"})
    first = {p: store.profile(p)["ratings"][0] for p in ("ann", "bob")}
    changes = store.record_finished(finished("t2", [human("ann"), human("bob")], [6, 11],
                                             at="2026-11-11T13:00:00+00:00"),
                                    True, {"ann", "bob"})
    before = {c.player: c.before for c in changes}
    grown = Rating(first["ann"]["rating"], first["ann"]["rd"])
    for _ in range(10):
        grown = idle(Rating(grown.rating, grown.rd, before["ann"].volatility))
    assert before["ann"].rd == pytest.approx(grown.rd, abs=0.2)
    assert before["ann"].rd > first["ann"]["rd"]


def test_the_leaderboard_shows_the_ladder_before_anyone_plays(store: RatingStore) -> None:
    board = store.leaderboard("konchinka-2")
    assert [e["player_id"] for e in board] == sorted(
        (e["player_id"] for e in board), key=lambda p: -initial_rating("konchinka-2",
                                                                        p).rating)
    assert {e["player_id"] for e in board} == {"bot:beginner", "bot:casual", "bot:strong",
                                               "bot:expert"}
    assert all(e["bot"] and e["games"] == 0 for e in board)
