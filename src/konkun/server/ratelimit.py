"""A token bucket: the per-connection rate limit on incoming messages."""

from __future__ import annotations

import time
from collections.abc import Callable


class TokenBucket:
    """Allows bursts of ``capacity`` messages and ``rate`` messages per second after."""

    def __init__(self, capacity: float, rate: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.capacity = capacity
        self.rate = rate
        self._clock = clock
        self._tokens = capacity
        self._stamp = clock()

    def take(self) -> bool:
        """Spend one token if there is one; ``False`` means the message is over the rate."""
        now = self._clock()
        self._tokens = min(self.capacity, self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        return False


class AddressLimiter:
    """One :class:`TokenBucket` per client address: the limit on requests that change
    something, shared by HTTP and the WebSocket's ``sit`` and ``leave``."""

    MAX_ADDRESSES = 10_000
    """Addresses remembered; past it the oldest half is forgotten (a full bucket again)."""

    def __init__(self, capacity: float, rate: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.capacity = capacity
        self.rate = rate
        self._clock = clock
        self._buckets: dict[str, TokenBucket] = {}

    def take(self, address: str) -> bool:
        """Spend one of ``address``'s tokens; ``False`` means it is over the rate."""
        bucket = self._buckets.get(address)
        if bucket is None:
            if len(self._buckets) >= self.MAX_ADDRESSES:
                for old in list(self._buckets)[: self.MAX_ADDRESSES // 2]:
                    del self._buckets[old]
            bucket = self._buckets[address] = TokenBucket(self.capacity, self.rate,
                                                          self._clock)
        return bucket.take()
