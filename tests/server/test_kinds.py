r"""A table's status and a seat's kind are closed sets (:mod:`konkun.server.core.kinds`),
stored and sent as the same words as before; the messages between processes are
:class:`Announcement`\ s; a game's ``server`` add-on is a ``ServerAddon`` or an error."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from konkun.errors import InvalidRuleError
from konkun.server.core.announcements import Announcement
from konkun.server.core.games import game_names, get_game, register_game, unregister_game
from konkun.server.core.kinds import SeatKind, TableStatus
from konkun.server.core.seatinfo import SeatInfo

from .fakegame import FAKE


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


def test_a_wrong_server_addon_fails_at_registration() -> None:
    bad = replace(FAKE, name="fake-bad-addon", addons={"server": 42})
    with pytest.raises(InvalidRuleError, match="'server' add-on is a int"):
        register_game(bad)
    assert "fake-bad-addon" not in game_names()


def test_a_wrong_server_addon_is_named_not_replaced_by_the_default() -> None:
    bad = replace(FAKE, name="fake-bad-text", addons={"server": "konkun.errors:KonkunError"})
    register_game(bad)
    try:
        with pytest.raises(InvalidRuleError, match="expected a ServerAddon"):
            get_game("fake-bad-text")
    finally:
        unregister_game("fake-bad-text")
