"""Provably fair deals at a table (``docs/fairness.md``, scheme ``konkun-fair-v1``).

A new table draws a secret server seed and publishes its commitment in the summary
(``commitment``). Each seated human's page sends a random contribution with the ``sit``
(or ``rematch``) message; when the table starts, the match seed is derived from the server
seed and the contributions, so neither the server nor a player chose the cards. While the
game is played the summary shows the running action digest (``actions_digest``, from
``first_digest``); once it is over the summary reveals the server seed and the replay
record carries the whole fairness data, which ``konkun verify`` and the replay page check.

The server seed and the contributions live in a table of their own,
``konkun_fairness`` (:class:`FairStore`), one row per table. A table made before this
existed has no row: it keeps the old secret seed and shows ``commitment: null``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, String, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from konkun.fairness import Contribution, FairnessError, FairSeed, action_digest, table_digest
from konkun.server.core.games import get_game
from konkun.server.core.kinds import TableStatus
from konkun.server.core.protocol import ProtocolError
from konkun.server.core.seatinfo import SeatInfo
from konkun.server.store.storage import StoredTable

if TYPE_CHECKING:
    from konkun.game import Match


class _Base(DeclarativeBase):
    """The schema of the fairness data (apart from the game record's)."""


class FairRow(_Base):
    """One table's secret server seed and the contributions of its seats."""

    __tablename__ = "konkun_fairness"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    server_seed: Mapped[str] = mapped_column(String(64))
    contributions: Mapped[dict[str, str]] = mapped_column(JSON)
    """Seat number (as text: JSON object keys) to its 64 hex digits."""


class FairStore:
    """The fairness data of every table, in the database of the game record."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def save(self, table_id: str, fair: FairSeed) -> None:
        """Store (or replace) one table's server seed and contributions."""
        contributions = {str(seat): value for seat, value in fair.contributions.items()}
        with Session(self.engine) as session, session.begin():
            session.merge(FairRow(table_id=table_id, server_seed=fair.server_seed,
                                  contributions=contributions))

    def set_contributions(self, table_id: str,
                          values: dict[int, str | None]) -> FairSeed | None:
        """Set (``None``: drop) some seats' contributions in the stored row, under a row
        lock (other server processes may seat players at the same table), and return the
        table's fairness data as stored now (``None``: a table without any)."""
        with Session(self.engine) as session, session.begin():
            row = session.get(FairRow, table_id, with_for_update=True)
            if row is None:
                return None
            contributions = dict(row.contributions)
            for seat, value in values.items():
                contributions.pop(str(seat), None)
                if value is not None:
                    contributions[str(seat)] = value
            row.contributions = contributions
            return _fair_of(row)

    def load(self, table_id: str) -> FairSeed | None:
        """One table's fairness data (``None``: a table made before it existed)."""
        with Session(self.engine) as session:
            row = session.get(FairRow, table_id)
            return None if row is None else _fair_of(row)

    def load_many(self, table_ids: list[str]) -> dict[str, FairSeed]:
        """The fairness data of several tables, by id (only those stored)."""
        with Session(self.engine) as session:
            rows = session.scalars(select(FairRow).where(FairRow.table_id.in_(table_ids)))
            return {row.table_id: _fair_of(row) for row in rows}


def _fair_of(row: FairRow) -> FairSeed:
    return FairSeed(server_seed=row.server_seed,
                    contributions={int(seat): value
                                   for seat, value in row.contributions.items()})


def checked_contribution(value: object) -> str:
    """A contribution as a client sent it: 64 lowercase hex digits, else
    ``bad_contribution``."""
    try:
        return Contribution(0, value).value  # type: ignore[arg-type]  # checked here
    except FairnessError as error:
        raise ProtocolError("bad_contribution", str(error), value) from None


Roster = list[tuple[str, str]]
"""The seats' kinds and names, in seat order, as the first digest binds them."""


def roster_of(seats: Iterable[Any]) -> Roster:
    """The roster of a table's seats (:class:`~konkun.server.table.SeatInfo` objects or the
    summary's seat objects)."""
    return [(str(seat["kind"]), str(seat["name"])) if isinstance(seat, Mapping)
            else (str(seat.kind), str(seat.name)) for seat in seats]


def first_digest(fair: FairSeed, game: str, match: Match[Any], roster: Roster) -> str:
    """``D0``: the commitment, the game, the number of seats and the rules of the match's
    record, and the seats' kinds and names."""
    rules = match.record().to_json().get("rules", {})
    return table_digest(fair.commitment, game, match.num_seats, rules, roster)


def digests(fair: FairSeed, game: str, match: Match[Any],
            actions: list[tuple[int, str]], roster: Roster) -> list[str]:
    """``D0`` then the digest after each action (``match`` only gives the rules)."""
    chain = [first_digest(fair, game, match, roster)]
    for turn, (seat, text) in enumerate(actions, start=1):
        chain.append(action_digest(chain[-1], turn, seat, text))
    return chain


class TableFairness:
    """What a live table keeps of its fairness: the seed data and the digests so far."""

    def __init__(self, fair: FairSeed | None) -> None:
        self.fair = fair
        self.first: str | None = None
        self.last: str | None = None

    def start(self, game: str, match: Match[Any], actions: list[tuple[int, str]],
              seats: Iterable[Any]) -> None:
        """Set the digests of a match of ``game`` that starts (or was replayed up to
        ``actions``) with these ``seats``."""
        if self.fair is None:
            return
        chain = digests(self.fair, game, match, actions, roster_of(seats))
        self.first, self.last = chain[0], chain[-1]

    def played(self, turn: int, seat: int, text: str) -> None:
        """Chain the action numbered ``turn`` (from 1) into the running digest."""
        if self.last is not None:
            self.last = action_digest(self.last, turn, seat, text)

    def summary(self, status: str) -> dict[str, Any]:
        """The fields fairness adds to the summary of a table in ``status``
        (``docs/protocol.md``)."""
        return summary_fields(self.fair, status, self.first, self.last)


def summary_fields(fair: FairSeed | None, status: str, first: str | None,
                   last: str | None) -> dict[str, Any]:
    """``commitment``, ``contributed`` (seats), ``first_digest``, ``actions_digest``, and
    once the game is over ``server_seed``."""
    if fair is None:
        return {"commitment": None, "contributed": [], "first_digest": None,
                "actions_digest": None, "server_seed": None}
    return {"commitment": fair.commitment, "contributed": sorted(fair.contributions),
            "first_digest": first, "actions_digest": last,
            "server_seed": fair.server_seed if status == TableStatus.FINISHED else None}


def fair_fields_of_row(row: StoredTable, fair: FairSeed | None) -> dict[str, Any]:
    """The fairness fields of a finished table's summary read from the database."""
    if fair is None or row.seed is None:
        return summary_fields(None, row.status, None, None)
    adapter = get_game(row.game)
    rules_value = adapter.check(row.variant, row.rules, len(row.seats))
    chain = digests(fair, row.game,
                    adapter.new_match(rules_value, len(row.seats), row.seed), row.actions,
                    roster_of(SeatInfo.from_stored(seat) for seat in row.seats))
    return summary_fields(fair, row.status, chain[0], chain[-1])


def add_to_replay(document: dict[str, Any], fair: FairSeed | None, game: str,
                  match: Match[Any]) -> None:
    """Give a finished game's replay document its fairness data: the record's
    ``fairness``, each frame's ``digest`` and the summary's fields."""
    if fair is None:
        return
    frames = document["frames"]
    actions = [(frame["actor"], frame["action"]) for frame in frames[1:]]
    chain = digests(fair, game, match, actions, roster_of(document["table"]["seats"]))
    for frame, digest in zip(frames, chain, strict=True):
        frame["digest"] = digest
    document["record"]["fairness"] = fair.reveal().to_json()
    document["table"] |= summary_fields(fair, "finished", chain[0], chain[-1])
