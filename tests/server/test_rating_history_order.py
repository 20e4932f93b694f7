"""The rating history of games that finished in the same second is in the order they
were rated (each game's rating before it is the one the previous game left), on SQLite
and PostgreSQL alike."""

from __future__ import annotations

from konkun.server.accounts.ratings_service import RatingStore

from .test_ratings_service import bot, finished, human, store

__all__ = ["store"]  # the fixture this module uses


def test_games_finished_in_the_same_second_keep_their_rating_order(
        store: RatingStore) -> None:
    at = "2026-12-01T12:00:07+00:00"
    seats = [human("ann"), bot("strong")]
    for table_id, totals in (("t9", [15, 3]), ("t5", [2, 15]), ("t7", [15, 9]),
                             ("t1", [4, 15]), ("t3", [15, 14])):
        store.record_finished(finished(table_id, seats, totals, at=at), True, {"ann"})
    history = store.profile("ann")["ratings"][0]["history"]
    assert [h["table"] for h in history] == ["t9", "t5", "t7", "t1", "t3"]
    assert history[-1]["rating"] == store.profile("ann")["ratings"][0]["rating"]
