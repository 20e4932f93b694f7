"""Rate limits: token buckets per connection and per address, and a log filter that never
lets one message repeat in a tight loop."""

from __future__ import annotations

import logging
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


class RepeatFilter(logging.Filter):
    """Lets the same log message (logger, level and format) through at most once every
    ``seconds``; the next one let through tells how many were held back. A failure that
    repeats in a tight loop ("Too many open files") then logs a line every few seconds
    instead of hundreds of thousands."""

    def __init__(self, seconds: float = 10.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.seconds = seconds
        self._clock = clock
        self._last: dict[tuple[str, int, str], tuple[float, int]] = {}

    def reset(self) -> None:
        """Forget what was logged (the next of each message goes through)."""
        self._last.clear()

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, record.levelno, str(record.msg)[:200])
        now = self._clock()
        last = self._last.get(key)
        if last is not None and now - last[0] < self.seconds:
            self._last[key] = (last[0], last[1] + 1)
            return False
        held = last[1] if last is not None else 0
        if len(self._last) > 1000:
            self._last.clear()
        self._last[key] = (now, 0)
        if held:
            record.msg = f"{record.msg} ({held} more like this in the last " \
                f"{self.seconds:g} s not logged)"
        return True


QUIETED_LOGGERS = ("asyncio", "uvicorn.error", "konkun.server")


def quiet_repeats(seconds: float = 10.0) -> None:
    """Install one :class:`RepeatFilter` on each of ``QUIETED_LOGGERS`` (once)."""
    for name in QUIETED_LOGGERS:
        target = logging.getLogger(name)
        if not any(isinstance(f, RepeatFilter) for f in target.filters):
            target.addFilter(RepeatFilter(seconds))
