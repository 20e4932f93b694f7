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
