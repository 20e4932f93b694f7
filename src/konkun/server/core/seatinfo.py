"""Who holds a seat at a table (:class:`SeatInfo`), as the table, its features and the
database see it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from konkun.server.core.kinds import SeatKind


@dataclass
class SeatInfo:
    """Who holds a seat: a human (player id and nickname), a bot (its spec) or nobody."""

    kind: SeatKind = SeatKind.EMPTY
    player_id: str | None = None
    name: str | None = None
    bot: str | None = None

    def stored(self) -> dict[str, Any]:
        """The seat as stored in the database."""
        return {"kind": self.kind.value, "player_id": self.player_id, "name": self.name,
                "bot": self.bot}

    @classmethod
    def from_stored(cls, data: dict[str, Any]) -> SeatInfo:
        """A seat read back from the database."""
        return cls(kind=SeatKind(data.get("kind", SeatKind.EMPTY)), player_id=data.get("player_id"),
                   name=data.get("name"), bot=data.get("bot"))
