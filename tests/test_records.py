"""A game record's JSON carries its format version (issue 10, item 3): records written
before the field existed read as version 1 and replay the same game; a version this
konkun does not know is refused with an error that names it."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from konkun.cards import choice
from konkun.errors import InvalidNotationError
from konkun.konchinka import KonchinkaMatch, KonchinkaRecord, KonchinkaRules
from konkun.konchinka import replay as replay_konchinka
from konkun.kunken import KunkenMatch, KunkenRecord, KunkenRules
from konkun.kunken import replay as replay_kunken
from konkun.records import RECORD_VERSION, GameRecord, record_version
from konkun.toy.engine import ToyMatch, ToyRecord


def konchinka_record() -> dict[str, Any]:
    """The JSON of a few moves of a seeded game."""
    match = KonchinkaMatch(KonchinkaRules(), 3, "old game")
    chooser = random.Random(2)
    for _ in range(12):
        match.play(choice(match.legal_actions(), chooser))
    data: dict[str, Any] = json.loads(json.dumps(match.record().to_json()))
    return data


def kunken_record() -> dict[str, Any]:
    """The JSON of a few actions of a seeded match."""
    match = KunkenMatch(KunkenRules(), 2, 9)
    chooser = random.Random(2)
    for _ in range(10):
        match.play(choice(match.deal.legal_actions(), chooser))
    data: dict[str, Any] = json.loads(json.dumps(match.record().to_json()))
    return data


def test_records_are_written_with_the_current_version() -> None:
    assert konchinka_record()["version"] == RECORD_VERSION == 1
    assert kunken_record()["version"] == RECORD_VERSION


def test_a_konchinka_record_without_a_version_is_version_1_and_replays() -> None:
    data = konchinka_record()
    old = {key: value for key, value in data.items() if key != "version"}
    assert record_version(old) == 1
    again = replay_konchinka(KonchinkaRecord.from_json(old))
    now = replay_konchinka(KonchinkaRecord.from_json(data))
    assert again.deal.kpn() == now.deal.kpn() and again.totals == now.totals
    assert again.record().to_json() == data


def test_a_kunken_record_without_a_version_is_version_1_and_replays() -> None:
    data = kunken_record()
    old = {key: value for key, value in data.items() if key != "version"}
    again = replay_kunken(KunkenRecord.from_json(old))
    assert again.deal.to_json() == replay_kunken(KunkenRecord.from_json(data)).deal.to_json()
    assert again.record().to_json() == data


@pytest.mark.parametrize("version", [2, 0, 99])
@pytest.mark.parametrize("record", [konchinka_record, kunken_record])
def test_an_unknown_record_version_is_refused_by_name(version: int, record: Any) -> None:
    data = record() | {"version": version}
    reader = KonchinkaRecord if data["game"] == "konchinka" else KunkenRecord
    with pytest.raises(InvalidNotationError, match=f"unsupported record version {version}"):
        reader.from_json(data)


@pytest.mark.parametrize("version", ["1", True, None, 1.0])
def test_a_record_version_that_is_not_a_number_is_refused(version: object) -> None:
    with pytest.raises(InvalidNotationError, match="invalid record version"):
        KonchinkaRecord.from_json(konchinka_record() | {"version": version})


def toy_record() -> dict[str, Any]:
    """The JSON of a few moves of a seeded toy match."""
    match = ToyMatch(2, 5, 10)
    chooser = random.Random(3)
    for _ in range(6):
        match.play(choice(match.deal.legal_actions(), chooser))
    data: dict[str, Any] = json.loads(json.dumps(match.record().to_json()))
    return data


@pytest.mark.parametrize(("reader", "record"), [(KonchinkaRecord, konchinka_record),
                                                (KunkenRecord, kunken_record),
                                                (ToyRecord, toy_record)])
def test_every_game_writes_and_reads_the_one_record_type(reader: Any, record: Any) -> None:
    data = record()
    read = reader.from_json(data)
    assert isinstance(read, GameRecord)
    assert read.to_json() == data
    assert sorted(data) == ["actions", "game", "num_seats", "rules", "seed", "version"]
    assert all(isinstance(text, str) for text in data["actions"])


def test_only_an_imposed_first_dealer_is_written() -> None:
    assert "first_dealer" not in kunken_record()
    imposed = KunkenMatch(KunkenRules(), 3, 9, first_dealer=2).record().to_json()
    assert imposed["first_dealer"] == 2
    assert replay_kunken(KunkenRecord.from_json(imposed)).first_dealer == 2


@pytest.mark.parametrize(("field", "value"), [("seed", True), ("actions", "draw"),
                                              ("actions", [1]), ("num_seats", "2"),
                                              ("first_dealer", 1.5), ("rules", [])])
@pytest.mark.parametrize("reader", [KonchinkaRecord, KunkenRecord])
def test_a_bad_record_field_is_refused_by_name(reader: Any, field: str, value: Any) -> None:
    data = (konchinka_record if reader is KonchinkaRecord else kunken_record)()
    with pytest.raises(InvalidNotationError, match=field):
        reader.from_json(data | {field: value})


def test_a_record_of_another_game_is_refused() -> None:
    with pytest.raises(InvalidNotationError, match="not a kunken record"):
        KunkenRecord.from_json(konchinka_record())
