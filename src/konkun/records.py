"""Game records: the one record type of every game (:class:`GameRecord`) and the format
version of its JSON.

A record is rules, seats, seed and action texts; replaying it deals from the seed with
:mod:`konkun.cards`' stable draws. Version 1 is that format with those draws (records
written before the version field existed are version 1: their deals are the same). A
later change to what a seed deals, or to the record's fields, gets a new number, so an
old konkun refuses a record it would replay wrongly instead of dealing other cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

from konkun.errors import InvalidNotationError, KonkunError

RECORD_VERSION = 1
"""The version of the records this konkun writes."""

READABLE_VERSIONS = frozenset({1})
"""The record versions this konkun reads."""


def record_version(data: Mapping[str, Any]) -> int:
    """The format version of record JSON ``data`` (1 when it has none); raise
    :class:`~konkun.errors.InvalidNotationError` for a version this konkun cannot read."""
    version = data.get("version", 1)
    if isinstance(version, bool) or not isinstance(version, int):
        raise InvalidNotationError(f"invalid record version {version!r}: expected a number")
    if version not in READABLE_VERSIONS:
        readable = ", ".join(map(str, sorted(READABLE_VERSIONS)))
        raise InvalidNotationError(
            f"unsupported record version {version}: this konkun reads version {readable} "
            "records (a newer konkun wrote it?)")
    return version


class RecordRules(Protocol):
    """What a record needs of a game's rules: their JSON (read back by the game)."""

    def to_json(self) -> dict[str, Any]:
        """The rules as JSON data."""
        ...


RulesT = TypeVar("RulesT", bound=RecordRules)


@dataclass(frozen=True, slots=True)
class GameRecord(Generic[RulesT]):
    """Everything needed to replay a match of any game: rules, seats, seed, the action
    texts and, when it was imposed, the first dealer (the one record type of every game).

    A game binds it once, naming itself and its rules' reader::

        class KonchinkaRecord(GameRecord[KonchinkaRules]):
            __slots__ = ()
            game = "konchinka"
            read_rules = staticmethod(KonchinkaRules.from_json)

    and gets :meth:`to_json` and the validating :meth:`from_json` of the format above.
    """

    game: ClassVar[str]
    """The game's registry name, written as the record's ``"game"``."""

    rules: RulesT
    num_seats: int
    seed: int | str
    actions: tuple[str, ...] = ()
    first_dealer: int | None = None

    @staticmethod
    def read_rules(data: Mapping[str, Any]) -> Any:
        """The game's rules from their JSON (raising the game's rule errors); each game's
        record sets it."""
        raise NotImplementedError

    def to_json(self) -> dict[str, Any]:
        """``{"game": G, "version": 1, "rules": {...}, "num_seats": N, "seed": S,
        "actions": [TEXT, ...]}``, with ``"first_dealer"`` only when it was imposed."""
        data: dict[str, Any] = {"game": self.game, "version": RECORD_VERSION,
                                "rules": self.rules.to_json(), "num_seats": self.num_seats,
                                "seed": self.seed, "actions": list(self.actions)}
        if self.first_dealer is not None:
            data["first_dealer"] = self.first_dealer
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """Read :meth:`to_json` data (without ``version``: version 1; without ``game``:
        this game's); raise :class:`~konkun.errors.InvalidNotationError` naming the bad
        field, also for an unknown version."""
        try:
            if data.get("game", cls.game) != cls.game:
                raise InvalidNotationError(
                    f"not a {cls.game} record: game {data.get('game')!r}")
            record_version(data)
            seed = data["seed"]
            if isinstance(seed, bool) or not isinstance(seed, int | str):
                raise InvalidNotationError(f"invalid record seed {seed!r}")
            actions = data["actions"]
            if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
                raise InvalidNotationError(f"invalid record actions {actions!r}")
            num_seats = data["num_seats"]
            if isinstance(num_seats, bool) or not isinstance(num_seats, int):
                raise InvalidNotationError(f"invalid record num_seats {num_seats!r}")
            first = data.get("first_dealer")
            if first is not None and (isinstance(first, bool) or not isinstance(first, int)):
                raise InvalidNotationError(f"invalid record first_dealer {first!r}")
            rules = data.get("rules", {})
            if not isinstance(rules, Mapping):
                raise InvalidNotationError(f"invalid record rules {rules!r}")
            return cls(cls.read_rules(rules), num_seats, seed, tuple(actions), first)
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            if isinstance(error, KonkunError):  # the rules' own errors, or ours
                raise
            raise InvalidNotationError(f"invalid {cls.game} record: {error!r}") from None
