"""What one server process tells the others about (:class:`Announcement`): the first word
of every ``NOTIFY`` payload ``'<kind> <origin> <table or -> [rest]'`` (see
:mod:`konkun.server.cluster.bus`). The words are the wire format between processes of
one version and stay as they were."""

from __future__ import annotations

from enum import StrEnum


class Announcement(StrEnum):
    """The kinds of announcement between server processes."""

    TABLE = "t"
    """A table's row changed (made, seated, dealt, finished, rematch): read it back."""
    ACTION = "a"
    """An action was stored: read the new actions back when the table is needed."""
    PRESENCE = "p"
    """Who is connected to a table through the sender (``rest``: players, spectators)."""
    CLOSED = "c"
    """A table was removed (``rest``: the reason, cancelled or expired)."""
    HELLO = "x"
    """A process joined or listens again: every process tells its presence and counts."""
    COUNTS = "n"
    """A change of the sender's admission counts (``rest``: its connections counted by
    key, the tables and seats it holds or is making by key and identity; see
    :class:`konkun.server.store.clusterlimits.ClusterCounts`)."""
    REVOKED = "r"
    """A token session was revoked (``rest``: the session)."""
    CHAT = "m"
    """A chat message was stored (``rest``: its number)."""
    SYNC = "y"
    """A process's own marker: once it comes back, every earlier announcement has."""
    HEARTBEAT = "h"
    """The sender is alive."""
    RESYNC = "resync"
    """Never sent: the listener's own note that it reconnected (read everything back)."""

    @classmethod
    def parse(cls, word: str) -> Announcement | None:
        """The announcement ``word`` names; ``None`` for a word this version does not know
        (a newer process's), which is ignored."""
        try:
            return cls(word)
        except ValueError:
            return None
