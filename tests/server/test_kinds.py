"""A table's status and a seat's kind are closed sets (:mod:`konkun.server.core.kinds`),
stored and sent as the same words as before."""

from __future__ import annotations

import json

import pytest

from konkun.server.core.announcements import Announcement
from konkun.server.core.kinds import SeatKind, TableStatus
from konkun.server.core.seatinfo import SeatInfo


def test_a_stored_seat_reads_back_with_its_kind() -> None:
    seat = SeatInfo(kind=SeatKind.HUMAN, player_id="p1", name="Ann")
    stored = json.loads(json.dumps(seat.stored()))
    assert stored["kind"] == "human"
    assert SeatInfo.from_stored(stored) == seat
    assert SeatInfo.from_stored(stored).kind is SeatKind.HUMAN


def test_a_seat_stored_without_a_kind_is_empty() -> None:
    assert SeatInfo.from_stored({}).kind is SeatKind.EMPTY


def test_an_unknown_seat_kind_is_refused_with_its_name() -> None:
    with pytest.raises(ValueError, match="'robot'"):
        SeatInfo.from_stored({"kind": "robot"})


@pytest.mark.parametrize(("status", "word"), [
    (TableStatus.WAITING, "waiting"), (TableStatus.PLAYING, "playing"),
    (TableStatus.FINISHED, "finished"), (TableStatus.CANCELLED, "cancelled")])
def test_a_table_status_is_sent_as_its_word(status: TableStatus, word: str) -> None:
    assert json.dumps({"status": status}) == json.dumps({"status": word})
    assert TableStatus(word) is status


def test_an_announcement_is_written_as_its_word() -> None:
    # the NOTIFY payload between processes: '<kind> <origin> <table> [rest]'
    assert f"{Announcement.ACTION} p1 T1" == "a p1 T1"
    assert Announcement.parse("m") is Announcement.CHAT


def test_an_unknown_announcement_is_ignored() -> None:
    assert Announcement.parse("zz") is None
