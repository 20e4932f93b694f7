"""One WebSocket client as the server holds it: who it is, its rate limit and its queue of
outgoing text (:class:`Connection`)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from typing import Any

from konkun.server.core.auth import Guest
from konkun.server.core.outbound import OutboundMessage
from konkun.server.core.ratelimit import TokenBucket
from konkun.server.core.stagetimes import QueuedState

SEND_QUEUE = 256
"""Messages queued for one slow client before the server drops the connection."""


def compact_json(payload: Mapping[str, Any]) -> str:
    """A message as the shortest JSON text (non-ASCII characters kept as they are)."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"))


class Connection:
    """One WebSocket client: who it is, its rate limit and its queue of outgoing text."""

    def __init__(self, guest: Guest | None, bucket: TokenBucket, address: str = "?") -> None:
        self.guest = guest
        self.bucket = bucket
        self.address = address
        """The client's address (for the per-address limits)."""
        self.last_text: str | None = None
        """The last state sent, so that an unchanged state is not sent twice."""
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=SEND_QUEUE)
        self.closed = False
        self.last_limited = float("-inf")
        self.traced: QueuedState | None = None
        """A traced move's state on its way to this socket (stage times only)."""

    @property
    def player_id(self) -> str | None:
        """The player id of the connection's token, or ``None`` for an anonymous one."""
        return self.guest.player_id if self.guest else None

    def send_text(self, text: str) -> None:
        """Queue a message; a client too slow to take its messages is dropped."""
        if self.closed:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.close()

    def send(self, payload: OutboundMessage) -> None:
        """Queue a JSON message (one of :mod:`.outbound`'s)."""
        self.send_text(compact_json(payload))

    def close_with(self, payload: OutboundMessage) -> None:
        """Send a last message (after those queued), then close."""
        self.send(payload)
        if self.closed:
            return
        self.closed = True
        try:
            self.queue.put_nowait(None)
        except asyncio.QueueFull:
            self.queue.get_nowait()
            self.queue.put_nowait(None)

    def close(self) -> None:
        """Stop sending; the writer then closes the socket."""
        if self.closed:
            return
        self.closed = True
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(None)
