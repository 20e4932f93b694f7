"""A table read back from its stored row (:meth:`Table.follow`): the one place both a
restart and another server process bring a table to the database's state."""

from __future__ import annotations

import random

from konkun.server.core.games import get_game
from konkun.server.core.kinds import SeatKind, TableStatus
from konkun.server.core.seatinfo import SeatInfo
from konkun.server.store.storage import StoredTable
from konkun.server.tables.table import Table

SEED = "follow-seed"


def _seats() -> list[SeatInfo]:
    return [SeatInfo(kind=SeatKind.HUMAN, player_id=f"p{n}", name=f"P{n}") for n in range(2)]


def _fresh(game: str) -> Table:
    adapter = get_game(game)
    return Table("t1", adapter, None, {}, adapter.check(None, {}, 2), _seats(), "2026-01-01")


def _actions(game: str, count: int) -> list[tuple[int, str]]:
    """``count`` random legal actions from the deal of :data:`SEED`, as stored."""
    adapter = get_game(game)
    match = adapter.new_match(adapter.check(None, {}, 2), 2, SEED)
    rng = random.Random(7)
    played: list[tuple[int, str]] = []
    while len(played) < count and not match.is_over():
        seat = match.deal.to_move
        assert seat is not None
        action = rng.choice(match.deal.legal_actions())
        played.append((seat, match.deal.format_action(action)))
        match.play(action)
    return played


def _row(actions: list[tuple[int, str]], status: TableStatus = TableStatus.PLAYING) \
        -> StoredTable:
    return StoredTable(id="t1", game="konchinka", variant=None, rules={},
                       seats=[s.stored() for s in _seats()], seed=SEED,
                       status=status.value, created_at="2026-01-01", actions=actions)


def _state(table: Table) -> tuple[object, ...]:
    assert table.match is not None
    return (table.status, table.actions, table.last, table.match.to_json(None),
            sorted(table.bots))


def test_a_table_followed_in_steps_is_the_table_rebuilt_at_once() -> None:
    played = _actions("konchinka", 12)
    at_once, in_steps = _fresh("konchinka"), _fresh("konchinka")
    assert at_once.follow(_row(played))
    assert in_steps.follow(_row(played[:5]))
    assert in_steps.follow(_row(played[5:]))
    assert _state(in_steps) == _state(at_once)
    assert at_once.last == {"turn": 12, "actor": played[-1][0], "action": played[-1][1]}


def test_following_a_row_with_nothing_new_changes_nothing() -> None:
    played = _actions("konchinka", 4)
    table = _fresh("konchinka")
    table.follow(_row(played))
    assert not table.follow(_row([]))
    assert table.turn == 4


def test_a_waiting_table_follows_the_deal_and_a_finished_row_ends_it() -> None:
    table = _fresh("konchinka")
    waiting = _row([], TableStatus.WAITING)
    assert not table.follow(waiting)
    assert table.status == TableStatus.WAITING and table.match is None
    played = _actions("konchinka", 3)
    assert table.follow(_row(played))
    assert (table.status, table.turn) == (TableStatus.PLAYING, 3)
    finished = _row([], TableStatus.FINISHED)
    finished.finished_at, finished.winner = "2026-01-02", 1
    assert table.follow(finished)
    assert (table.status, table.finished_at, table.winner, table.bots) == \
        (TableStatus.FINISHED, "2026-01-02", 1, {})


def test_a_seat_taken_elsewhere_is_followed() -> None:
    table = _fresh("konchinka")
    row = _row([], TableStatus.WAITING)
    row.seats[1] = SeatInfo(kind=SeatKind.HUMAN, player_id="q", name="Q").stored()
    assert table.follow(row)
    assert table.seats[1].player_id == "q"
